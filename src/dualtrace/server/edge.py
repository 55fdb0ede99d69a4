"""The ASGI layer every request passes first: a request id on every response, the body size
limit (413 before the body is read, when Content-Length says so), and the Prometheus
metrics of each route (counts by status, latencies)."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dualtrace.memory import Memory
from dualtrace.server.errors import error_response, internal_error

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class StoreSizes(Collector):
    """Store sizes at scrape time: users, turns, valid memories, turns still pending."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    def collect(self) -> Any:
        users = self.memory.users()
        for name, value, doc in (
            ("dualtrace_store_users", len(users), "Users with stored turns or memories."),
            ("dualtrace_store_turns", sum(u.turns for u in users), "Stored turns."),
            ("dualtrace_store_memories", sum(u.memories for u in users), "Valid memories."),
            ("dualtrace_pending_users", len(self.memory.pending_users()),
             "Users with turns waiting for background derivation."),
        ):  # fmt: skip
            yield GaugeMetricFamily(name, doc, value=value)


class Metrics:
    """The service's own registry (never the process-global one)."""

    def __init__(self, memory: Memory) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "dualtrace_http_requests", "HTTP requests by route, method and status.",
            ["route", "method", "status"], registry=self.registry,
        )  # fmt: skip
        self.latency = Histogram(
            "dualtrace_http_request_seconds", "HTTP request latency by route and method.",
            ["route", "method"], buckets=BUCKETS, registry=self.registry,
        )  # fmt: skip
        self.registry.register(StoreSizes(memory))

    def observe(self, route: str, method: str, status: int, seconds: float) -> None:
        self.requests.labels(route, method, str(status)).inc()
        self.latency.labels(route, method).observe(seconds)


class Edge:
    """Pure ASGI middleware (it must see the raw body stream and every response)."""

    def __init__(self, app: ASGIApp, metrics: Metrics, max_body_bytes: int) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = _header(scope, b"x-request-id")
        request_id = given if given and _REQUEST_ID.match(given) else uuid.uuid4().hex
        status = [500]
        started = [False]
        start = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                started[0] = True
                MutableHeaders(scope=message)["X-Request-ID"] = request_id
            await send(message)

        try:
            length = _header(scope, b"content-length")
            if length is not None and length.isdigit():
                size: int | None = int(length)
            else:  # a streamed body: read it here, up to the limit, then hand it on
                size, receive = await self._buffered(receive)
            if size is not None and size > self.max_body_bytes:
                response = error_response(413, "PayloadTooLargeError", self._too_large(size))
                await response(scope, receive, send_with_id)
                return
            await self.app(scope, receive, send_with_id)
        except Exception as exc:  # a bug: answered here, so the 500 carries the request id
            if started[0]:
                raise
            await internal_error(exc)(scope, receive, send_with_id)
        finally:
            route = scope.get("route")
            path = getattr(route, "path", None) or "unmatched"
            self.metrics.observe(path, scope["method"], status[0], time.perf_counter() - start)

    def _too_large(self, size: int) -> str:
        return (
            f"the request body has {size}{'+' if size > self.max_body_bytes else ''} bytes; "
            f"the limit is {self.max_body_bytes} (send fewer messages per request, or raise "
            "DUALTRACE_MAX_BODY_BYTES)"
        )

    async def _buffered(self, receive: Receive) -> tuple[int | None, Receive]:
        """Read a body of unknown length; (its size, a receive that replays it), or (a size
        over the limit, the original receive) as soon as it passes the limit."""
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return None, receive
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.max_body_bytes:
                return seen, receive
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return seen, replay


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None
