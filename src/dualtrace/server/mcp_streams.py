"""Limits on `GET /mcp` event streams: how many one caller and all callers may hold open,
and for how long.

A GET on /mcp opens a server-sent event stream that, in the service's stateless mode,
never carries a message and never ended: 1,500 of them from one key held 118 MiB. Now a
caller (one API key; without a key, one client address) may hold `max_streams_per_key`,
everyone together `max_streams`; one more gets 429 or 503 with a JSON message (a
JSON-RPC error an MCP client can show). Each stream is ended, cleanly, after
`stream_seconds` (a client reconnects if it wants one). Other methods pass through.

    app.router.routes.append(Route("/mcp", StreamLimits(endpoint, config)))
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dualtrace.config import ServiceConfig


class StreamsFull(Exception):
    """No room for another stream: `status` 429 (the caller's share) or 503 (everyone's)."""

    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind = status, kind


class StreamCounts:
    """Open streams per caller and in all, within the limits."""

    def __init__(self, per_caller: int, total: int) -> None:
        self.per_caller, self.total = per_caller, total
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    @contextmanager
    def held(self, caller: str) -> Iterator[None]:
        """One stream of `caller` while the block runs; StreamsFull if there is no room."""
        with self._lock:
            if self._open[caller] >= self.per_caller:
                raise StreamsFull(
                    429,
                    "TooManyRequestsError",
                    f"this caller already holds {self.per_caller} open GET /mcp event "
                    "streams, the most one API key may; close one first (the tools need "
                    "none: POST /mcp answers each call)",
                )
            if sum(self._open.values()) >= self.total:
                raise StreamsFull(
                    503,
                    "ServiceUnavailable",
                    f"the service holds {self.total} open GET /mcp event streams, its "
                    "limit; retry later",
                )
            self._open[caller] += 1
        try:
            yield
        finally:
            with self._lock:
                self._open[caller] -= 1
                if not self._open[caller]:
                    del self._open[caller]


def caller_of(scope: Scope) -> str:
    """Whose stream this is: the credential sent (hashed; a wrong one is refused by the
    endpoint at once, so it holds nothing), or else the client address."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return "key:" + hashlib.sha256(value.strip()).hexdigest()
    client = scope.get("client")
    return f"client:{client[0] if client else '?'}"


class StreamLimits:
    """ASGI middleware for the MCP endpoint: GETs counted, refused over the limits, and
    ended after `stream_seconds`."""

    def __init__(self, app: ASGIApp, config: ServiceConfig) -> None:
        self.app = app
        self.seconds = config.stream_seconds
        self.counts = StreamCounts(config.max_streams_per_key, config.max_streams)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        try:
            with self.counts.held(caller_of(scope)):
                await self._stream(scope, receive, send)
        except StreamsFull as full:
            await _refusal(full)(scope, receive, send)

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        state = {"started": False, "ended": False}

        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                state["ended"] = True
            await send(message)

        with anyio.move_on_after(self.seconds):
            await self.app(scope, receive, tracked)
        if state["started"] and not state["ended"]:  # time is up: end the stream cleanly
            await send({"type": "http.response.body", "body": b"", "more_body": False})


def _refusal(full: StreamsFull) -> JSONResponse:
    body = {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32000, "message": str(full), "data": {"type": full.kind}},
    }
    headers = {"Retry-After": "30"} if full.status in (429, 503) else None
    return JSONResponse(body, status_code=full.status, headers=headers)
