"""A scripted OpenAI-compatible chat server for tests: it answers POSTs on loopback with the
replies a test lines up, and keeps the requests it received."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast

from dualtrace.errors import LLMError
from dualtrace.llm.base import ChatMessage, Completion


@dataclass
class Script:
    """Replies the server gives in order, and the requests it received."""

    replies: list[tuple[int, str]] = field(default_factory=list)
    delays: dict[int, float] = field(default_factory=dict)  # request number -> seconds
    bodies: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class ScriptedServer(ThreadingHTTPServer):
    """ThreadingHTTPServer answering from a Script."""

    daemon_threads = True
    script: Script


class Handler(BaseHTTPRequestHandler):
    """Records each POST and answers with the next scripted reply (500 once exhausted)."""

    def do_POST(self) -> None:
        """Record the request, wait if scripted to, then send the next reply."""
        script = cast(ScriptedServer, self.server).script
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with script.lock:
            script.bodies.append(body)
            script.headers.append(dict(self.headers.items()))
            script.paths.append(self.path)
            number = len(script.bodies)
            reply = script.replies.pop(0) if script.replies else (500, '{"error": "unscripted"}')
        time.sleep(script.delays.get(number, 0.0))
        payload = reply[1].encode("utf-8")
        try:
            self.send_response(reply[0])
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            return  # the client timed out and hung up; that is what the test wanted

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""


def start(loopback: Callable[[ScriptedServer], None]) -> ScriptedServer:
    """A scripted chat server on a free loopback port, served for the test (`loopback`)."""
    httpd = ScriptedServer(("127.0.0.1", 0), Handler)
    httpd.script = Script()
    loopback(httpd)
    return httpd


def chat_reply(content: str, *, status: int = 200) -> tuple[int, str]:
    """A scripted reply: an OpenAI-compatible chat completion carrying `content`."""
    body = {
        "choices": [{"message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 60},
    }
    return status, json.dumps(body)


def user_memory(text: str, predicate: str, value: str, **more: Any) -> dict[str, Any]:
    """One memory as an extraction model writes it: the user's, stating `predicate` as
    `value`; `more` adds fields ("source_turn_ids", "importance")."""
    return {
        "kind": "fact",
        "text": text,
        "scene": "The user said so.",
        "subject": "The user",
        "predicate": predicate,
        "object": value,
        **more,
    }


def memories_reply(*memories: dict[str, Any]) -> tuple[int, str]:
    """A scripted extraction answer: the chat reply whose content lists these memories."""
    return chat_reply(json.dumps({"memories": list(memories)}))


class ScriptedLLM:
    """An in-process model: answers each call with the next scripted text, or raises the next
    scripted error (for checks that need no HTTP)."""

    def __init__(self, *answers: str | LLMError) -> None:
        self.answers = list(answers)
        self.calls: list[list[ChatMessage]] = []

    @property
    def id(self) -> str:
        return "scripted"

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int = 1024,
        temperature: float = 0.0,
    ) -> Completion:
        self.calls.append(messages)
        next_answer = self.answers.pop(0)
        if isinstance(next_answer, LLMError):
            raise next_answer
        return Completion(next_answer, 100, 20, "scripted")
