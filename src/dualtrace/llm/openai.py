"""LLM client for any OpenAI-compatible ``POST /chat/completions`` endpoint.

Works with OpenAI, Ollama, vLLM and llama.cpp servers. Transient failures (connection errors,
timeouts, 429, 5xx) are retried with exponential backoff; message text is never logged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self, get_args

import httpx

from dualtrace.endpoint_checks import check_base_url, check_seconds
from dualtrace.errors import (
    ConfigError,
    LLMError,
    MalformedOutputError,
    RateLimitedError,
    UnavailableError,
    ValidationError,
)
from dualtrace.http_post import EXCERPT_CHARS, Endpoint, post_json
from dualtrace.inputs import check_count, is_count
from dualtrace.llm.base import ChatMessage, Completion

__all__ = ["JsonMode", "OpenAIChatConfig", "OpenAIChatLLM"]


JsonMode = Literal["schema", "object", "none"]
_JSON_MODES: tuple[str, ...] = get_args(JsonMode)


@dataclass(frozen=True)
class OpenAIChatConfig:
    """Settings for an OpenAI-compatible chat endpoint; validated on construction.

    ``json_mode`` says how a JSON schema is passed on: "schema" sends it as
    ``response_format={"type": "json_schema", ...}`` (OpenAI, vLLM, recent Ollama and
    llama.cpp), "object" asks only for some JSON object (older servers), "none" sends no
    ``response_format`` (servers that reject it; the prompt must ask for JSON).
    ``api_key`` is kept out of ``repr`` so it cannot leak into logs.

    Example::

        OpenAIChatConfig("http://localhost:11434/v1", "qwen3:8b", json_mode="object")
    """

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_retries: int = 3
    backoff_s: float = 1.0
    json_mode: JsonMode = "schema"

    def __post_init__(self) -> None:
        """Raise ConfigError for any setting that cannot work."""
        check_base_url("OpenAIChatConfig", self.base_url)
        if not isinstance(self.model, str) or not self.model.strip():
            raise ConfigError(
                f"OpenAIChatConfig.model is {self.model!r}; set model= to the chat model name "
                "the server serves (e.g. 'qwen3:8b' or 'gpt-4o-mini')"
            )
        if self.api_key is not None and not isinstance(self.api_key, str):
            raise ConfigError(
                f"OpenAIChatConfig.api_key has type {type(self.api_key).__name__}; "
                "set api_key= to a string or None"
            )
        if not is_count(self.max_retries, least=0):
            raise ConfigError(
                f"OpenAIChatConfig.max_retries is {self.max_retries!r} but must be an integer "
                ">= 0; set max_retries= to 0 or more retries (e.g. 3)"
            )
        check_seconds(
            "OpenAIChatConfig", "timeout_s", self.timeout_s, allow_zero=False, example="60"
        )
        check_seconds(
            "OpenAIChatConfig", "backoff_s", self.backoff_s, allow_zero=True, example="1.0"
        )
        if self.json_mode not in _JSON_MODES:
            raise ConfigError(
                f"OpenAIChatConfig.json_mode is {self.json_mode!r}; set json_mode= to one of "
                f"{list(_JSON_MODES)} ('object' or 'none' for servers without json_schema)"
            )


class OpenAIChatLLM:
    """Completes chats through an OpenAI-compatible ``POST {base_url}/chat/completions``.

    One ``httpx.Client`` per instance; call ``close()`` or use it as a context manager.

    Example::

        with OpenAIChatLLM(OpenAIChatConfig("http://localhost:11434/v1", "qwen3:8b")) as llm:
            answer = llm.complete([ChatMessage("user", "Say hi")], max_tokens=16)
    """

    def __init__(self, config: OpenAIChatConfig) -> None:
        """Open an HTTP client for the configured endpoint."""
        self._config = config
        self._url = config.base_url.rstrip("/") + "/chat/completions"
        headers = {"Accept": "application/json"}
        if config.api_key:
            headers["Authorization"] = f"Bearer {config.api_key}"
        self._client = httpx.Client(timeout=config.timeout_s, headers=headers)
        self._endpoint = Endpoint(
            "chat request",
            self._url,
            config.max_retries,
            config.backoff_s,
            error=LLMError,
            reject_hint=f"check model={config.model!r}, api_key, base_url and json_mode",
            unavailable=UnavailableError,
            malformed=MalformedOutputError,
            rate_limited=RateLimitedError,
        )

    @property
    def id(self) -> str:
        """Model identity, independent of the host serving it."""
        return f"openai:{self._config.model}"

    @property
    def config(self) -> OpenAIChatConfig:
        """The settings this client was built with."""
        return self._config

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int = 1024,
        temperature: float = 0.0,
    ) -> Completion:
        """Send the messages and return the first choice's text with token usage."""
        body = self._request_body(messages, json_schema, max_tokens, temperature)
        payload = self._post(body)
        return _completion(payload, self._url, self._config.model)

    def close(self) -> None:
        """Close the underlying HTTP client."""
        self._client.close()

    def __enter__(self) -> Self:
        """Return self; the client is closed on exit."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the HTTP client."""
        self.close()

    def _request_body(
        self,
        messages: list[ChatMessage],
        json_schema: dict[str, Any] | None,
        max_tokens: int,
        temperature: float,
    ) -> dict[str, Any]:
        """Check the arguments and build the JSON body of one chat request."""
        if not isinstance(messages, list) or not messages:
            raise ValidationError("messages is empty; pass at least one ChatMessage")
        max_tokens = check_count(
            "max_tokens", max_tokens, fix="pass the longest answer in tokens, e.g. 512"
        )
        if not isinstance(temperature, int | float) or not 0 <= temperature <= 2:
            raise ValidationError(f"temperature={temperature!r} must be a number in 0..2")
        body: dict[str, Any] = {
            "model": self._config.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "max_tokens": max_tokens,
            "temperature": temperature,
            # Ollama and some proxies stream unless told otherwise.
            "stream": False,
        }
        mode = self._config.json_mode
        if json_schema is not None and mode == "schema":
            body["response_format"] = {
                "type": "json_schema",
                # strict=False: strict mode demands every property be required and
                # additionalProperties false, which our nullable fields do not declare.
                "json_schema": {"name": "memories", "schema": json_schema, "strict": False},
            }
        elif json_schema is not None and mode == "object":
            body["response_format"] = {"type": "json_object"}
        return body

    def _post(self, body: dict[str, Any]) -> Any:
        """POST body, retrying transient failures; return the decoded JSON answer."""
        return post_json(self._client, self._endpoint, body)


def _completion(payload: Any, url: str, model: str) -> Completion:
    """Read choices[0].message.content and the token usage from a chat answer."""
    content: object = None
    choices = payload.get("choices") if isinstance(payload, dict) else None
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        message = choices[0].get("message")
        if isinstance(message, dict):
            content = message.get("content")
    if not isinstance(content, str):
        raise MalformedOutputError(
            f"{url} answered without choices[0].message.content "
            f"(body starts {str(payload)[:EXCERPT_CHARS]!r}); check base_url points at an "
            "OpenAI-compatible chat endpoint and the model returns text, not tool calls"
        )
    usage = payload.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    answered_by = payload.get("model")
    return Completion(
        text=content,
        prompt_tokens=_token_count(usage.get("prompt_tokens")),
        completion_tokens=_token_count(usage.get("completion_tokens")),
        model=answered_by if isinstance(answered_by, str) and answered_by else model,
    )


def _token_count(value: object) -> int:
    """A reported token count, or 0 when the server left it out or sent nonsense."""
    return value if is_count(value, least=0) else 0
