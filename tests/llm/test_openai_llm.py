"""Tests for OpenAIChatLLM against a scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

import pytest
from scripted_chat import ScriptedServer, start

from dualtrace.errors import (
    ConfigError,
    LLMError,
    MalformedOutputError,
    RateLimitedError,
    UnavailableError,
    ValidationError,
)
from dualtrace.llm.base import LLM, ChatMessage
from dualtrace.llm.openai import OpenAIChatConfig, OpenAIChatLLM

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"memories": {"type": "array"}}}
HELLO = [ChatMessage("system", "Be brief."), ChatMessage("user", "Say hi")]


def chat_body(content: str, *, prompt: int = 11, completion: int = 7) -> str:
    """A chat completion answer the way OpenAI-compatible servers send it."""
    return json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": "served-model",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }
    )


@pytest.fixture
def server(loopback: Callable[[ScriptedServer], None]) -> ScriptedServer:
    """Run a scripted chat server on a free loopback port for one test."""
    return start(loopback)


def make(httpd: ScriptedServer, **overrides: Any) -> OpenAIChatLLM:
    """A client for the scripted server with fast retries."""
    settings: dict[str, Any] = {
        "base_url": f"http://127.0.0.1:{httpd.server_address[1]}/v1",
        "model": "fake-chat",
        "backoff_s": 0.001,
        "timeout_s": 5.0,
    }
    settings.update(overrides)
    return OpenAIChatLLM(OpenAIChatConfig(**settings))


def test_satisfies_llm_protocol(server: ScriptedServer) -> None:
    with make(server) as llm:
        assert isinstance(llm, LLM)
        assert llm.id == "openai:fake-chat"


def test_request_shape_and_completion(server: ScriptedServer) -> None:
    server.script.replies = [(200, chat_body("hi!", prompt=12, completion=3))]
    with make(server) as llm:
        completion = llm.complete(HELLO, max_tokens=64, temperature=0.3)
    assert server.script.paths == ["/v1/chat/completions"]
    assert server.script.bodies == [
        {
            "model": "fake-chat",
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Say hi"},
            ],
            "max_tokens": 64,
            "temperature": 0.3,
            "stream": False,
        }
    ]
    assert completion.text == "hi!"
    assert (completion.prompt_tokens, completion.completion_tokens) == (12, 3)
    assert completion.model == "served-model"


@pytest.mark.parametrize(
    ("json_mode", "expected"),
    [
        (
            "schema",
            {
                "type": "json_schema",
                "json_schema": {"name": "memories", "schema": SCHEMA, "strict": False},
            },
        ),
        ("object", {"type": "json_object"}),
        ("none", None),
    ],
)
def test_response_format_per_json_mode(
    server: ScriptedServer, json_mode: str, expected: dict[str, Any] | None
) -> None:
    server.script.replies = [(200, chat_body("{}")), (200, chat_body("plain"))]
    with make(server, json_mode=json_mode) as llm:
        llm.complete(HELLO, json_schema=SCHEMA)
        llm.complete(HELLO)
    with_schema, without_schema = server.script.bodies
    assert with_schema.get("response_format") == expected
    assert "response_format" not in without_schema


def test_auth_header_sent_when_api_key_set(server: ScriptedServer) -> None:
    server.script.replies = [(200, chat_body("a")), (200, chat_body("b"))]
    with make(server, api_key="sk-test-123") as llm:
        llm.complete(HELLO)
    with make(server) as llm:
        llm.complete(HELLO)
    with_key, without_key = server.script.headers
    assert with_key.get("Authorization") == "Bearer sk-test-123"
    assert "Authorization" not in without_key


def test_api_key_not_in_repr() -> None:
    assert "sk-secret" not in repr(OpenAIChatConfig("http://h/v1", "m", api_key="sk-secret"))


def test_missing_usage_counts_zero_tokens(server: ScriptedServer) -> None:
    body = {"choices": [{"message": {"role": "assistant", "content": "ok"}}]}
    server.script.replies = [(200, json.dumps(body))]
    with make(server) as llm:
        completion = llm.complete(HELLO)
    assert (completion.prompt_tokens, completion.completion_tokens) == (0, 0)
    assert completion.model == "fake-chat"  # the server did not say, so the configured one


@pytest.mark.parametrize("status", [503, 429])
def test_retries_then_succeeds(server: ScriptedServer, status: int) -> None:
    server.script.replies = [(status, '{"error": "busy"}')] * 2 + [(200, chat_body("done"))]
    with make(server, max_retries=2) as llm:
        completion = llm.complete(HELLO)
    assert completion.text == "done"
    assert len(server.script.bodies) == 3


def test_gives_up_on_5xx_with_unavailable_error(server: ScriptedServer) -> None:
    server.script.replies = [(503, '{"error": "busy"}')] * 5
    with make(server, max_retries=2) as llm, pytest.raises(UnavailableError) as info:
        llm.complete(HELLO)
    assert len(server.script.bodies) == 3
    message = str(info.value)
    assert f"127.0.0.1:{server.server_address[1]}/v1/chat/completions" in message
    assert "503" in message
    assert "3 attempt" in message


def test_gives_up_on_429_with_rate_limited_error(server: ScriptedServer) -> None:
    server.script.replies = [(429, '{"error": "slow down"}')] * 3
    with make(server, max_retries=1) as llm, pytest.raises(RateLimitedError, match="429"):
        llm.complete(HELLO)
    assert len(server.script.bodies) == 2


def test_400_fails_at_once_with_body_excerpt(server: ScriptedServer) -> None:
    body = json.dumps({"error": "response_format not supported " + "z" * 500})
    server.script.replies = [(400, body)] * 4
    with make(server, max_retries=3) as llm, pytest.raises(LLMError) as info:
        llm.complete(HELLO, json_schema=SCHEMA)
    assert type(info.value) is LLMError
    assert len(server.script.bodies) == 1
    message = str(info.value)
    assert "400" in message
    assert "response_format not supported" in message
    assert "z" * 250 not in message


@pytest.mark.parametrize(
    "body",
    [
        "not json at all",
        json.dumps({"choices": []}),
        json.dumps({"choices": [{"message": {"role": "assistant", "content": None}}]}),
        json.dumps({"error": "weird"}),
        json.dumps([1, 2, 3]),
    ],
)
def test_malformed_body_raises_malformed_output(server: ScriptedServer, body: str) -> None:
    server.script.replies = [(200, body)]
    with make(server) as llm, pytest.raises(MalformedOutputError):
        llm.complete(HELLO)
    assert len(server.script.bodies) == 1


def test_timeout_is_retried(server: ScriptedServer) -> None:
    server.script.replies = [(200, chat_body("late")), (200, chat_body("on time"))]
    server.script.delays = {1: 1.0}
    with make(server, timeout_s=0.2, max_retries=1) as llm:
        completion = llm.complete(HELLO)
    assert completion.text == "on time"
    assert len(server.script.bodies) == 2


def test_connection_refused_raises_unavailable_error() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = OpenAIChatConfig(f"http://127.0.0.1:{port}/v1", "m", max_retries=1, backoff_s=0.001)
    with OpenAIChatLLM(config) as llm, pytest.raises(UnavailableError) as info:
        llm.complete(HELLO)
    assert f"127.0.0.1:{port}" in str(info.value)
    assert "2 attempt" in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [({"max_tokens": 0}, "max_tokens"), ({"temperature": -1.0}, "temperature")],
)
def test_bad_arguments_are_rejected_before_sending(
    server: ScriptedServer, kwargs: dict[str, Any], needle: str
) -> None:
    with make(server) as llm, pytest.raises(ValidationError, match=needle):
        llm.complete(HELLO, **kwargs)
    with make(server) as llm, pytest.raises(ValidationError, match="messages"):
        llm.complete([])
    assert server.script.bodies == []


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"base_url": ""}, "base_url"),
        ({"base_url": "localhost:11434/v1"}, "base_url"),
        ({"model": " "}, "model"),
        ({"max_retries": -1}, "max_retries"),
        ({"timeout_s": 0}, "timeout_s"),
        ({"backoff_s": -1.0}, "backoff_s"),
        ({"json_mode": "grammar"}, "json_mode"),
    ],
)
def test_config_validation(overrides: dict[str, Any], needle: str) -> None:
    settings: dict[str, Any] = {"base_url": "http://localhost:11434/v1", "model": "qwen3:8b"}
    settings.update(overrides)
    with pytest.raises(ConfigError) as info:
        OpenAIChatConfig(**settings)
    assert f"set {needle}=" in str(info.value)
