"""The ASGI layer every request passes first: a request id on every response, the guard
against other sites (`Guard`: the Host must be one this service serves, 421; a request that
changes data must not come from a foreign origin, 403, and must send JSON, 415), the body
size limit (413 before the body is read, when Content-Length says so), and the Prometheus
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
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dualtrace.config import ServiceConfig
from dualtrace.errors import ConfigError
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
            (
                "dualtrace_pending_users",
                len(self.memory.pending_users()),
                "Users with turns waiting for background derivation.",
            ),
        ):
            yield GaugeMetricFamily(name, doc, value=value)


class Metrics:
    """The service's own registry (never the process-global one)."""

    def __init__(self, memory: Memory) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "dualtrace_http_requests",
            "HTTP requests by route, method and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "dualtrace_http_request_seconds",
            "HTTP request latency by route and method.",
            ["route", "method"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.registry.register(StoreSizes(memory))

    def observe(self, route: str, method: str, status: int, seconds: float) -> None:
        self.requests.labels(route, method, str(status)).inc()
        self.latency.labels(route, method).observe(seconds)


class Edge:
    """Pure ASGI middleware (it must see the raw body stream and every response)."""

    def __init__(
        self, app: ASGIApp, metrics: Metrics, max_body_bytes: int, guard: Guard | None = None
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body_bytes = max_body_bytes
        self.guard = guard

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
            refused = self.guard.refusal(scope) if self.guard is not None else None
            if refused is not None:  # before the body is read, and before any route runs
                await refused(scope, receive, send_with_id)
                return
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


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
_SETTING = "DUALTRACE_ALLOWED_HOSTS"


def split_host(value: str) -> tuple[str, int | None] | None:
    """`name[:port]` (IPv6 in brackets) as (lower-case name, port or None); None if malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        name, rest = value[: end + 1], value[end + 1 :]
        if end < 0 or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
    else:
        if value.count(":") > 1:
            return None
        name, colon, port_text = value.partition(":")
        port = port_text if colon else None
    if not name or (port is not None and not (port.isdigit() and 0 < int(port) < 65536)):
        return None
    return name, None if port is None else int(port)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class Guard:
    """Which hosts and origins the service serves: the loopback names and its own address
    (`--host`, the address a connection came to) on the port it listens on, and each entry
    of `allowed_hosts` ("name": any port, "name:port"; "*": any host at all)."""

    def __init__(self, config: ServiceConfig) -> None:
        self.port = config.port
        self.names = {*LOOPBACK_NAMES, _bracketed(config.host).lower()}
        self.any_host = "*" in config.allowed_hosts
        self.extra: set[tuple[str, int | None]] = set()
        for entry in config.allowed_hosts:
            parsed = split_host(entry) if entry != "*" else ("*", None)
            if parsed is None:
                raise ConfigError(
                    f"allowed_hosts entry {entry!r} is not a host name: use name or "
                    f"name:port, e.g. {_SETTING}=memory.example.com,10.0.0.5:8765"
                )
            self.extra.add(parsed)

    def serves(self, host: str, default_port: int, scope: Scope) -> bool:
        """Whether `host` (a Host header, or an origin's host[:port]) names this service."""
        if self.any_host:
            return True
        parsed = split_host(host)
        if parsed is None:
            return False
        name, port = parsed[0], parsed[1] or default_port
        if (name, port) in self.extra or (name, None) in self.extra:
            return True
        server = scope.get("server")
        own, listening = (server[0], server[1]) if server else ("", self.port)
        return (name in self.names or name == _bracketed(str(own)).lower()) and port == listening

    def refusal(self, scope: Scope) -> Response | None:
        """The answer to a request from where this service must not be reached, else None."""
        host = _header(scope, b"host")
        if host is None or not self.serves(host, _port_of(scope["scheme"]), scope):
            message = (
                f"this service does not answer for host {host!r} (a DNS-rebinding guard); it "
                f"serves {', '.join(sorted(self.names))} on port {self.port}; to reach it by "
                f"that name add it to {_SETTING} (e.g. {_SETTING}={host or 'name'})"
            )
            return error_response(421, "MisdirectedRequest", message)
        if scope["method"] not in UNSAFE_METHODS:
            return None
        origin = _header(scope, b"origin")
        site = (_header(scope, b"sec-fetch-site") or "").lower()
        if origin is not None and not self._own_origin(origin, scope):
            return _cross_site(f"origin {origin!r} is not one this service serves")
        if origin is None and site in ("cross-site", "same-site"):
            return _cross_site(f"the browser says it comes from another site ({site})")
        return _not_json(scope)

    def _own_origin(self, origin: str, scope: Scope) -> bool:
        scheme, sep, rest = origin.partition("://")
        if not sep or scheme.lower() not in ("http", "https") or "/" in rest:
            return False  # "null" (a sandboxed or file: page) included
        return self.serves(rest, _port_of(scheme.lower()), scope)


def _port_of(scheme: str) -> int:
    return 443 if scheme in ("https", "wss") else 80


def _cross_site(why: str) -> Response:
    message = (
        f"a request that changes data was refused: {why}, so a page on another site may have "
        "sent it; call the API from the inspector on this origin or from a client that sends "
        f"no Origin header, or add that host to {_SETTING} if it is yours"
    )
    return error_response(403, "ForbiddenError", message)


def _not_json(scope: Scope) -> Response | None:
    """415 for a body that is not JSON (a form or text body is what another site can send)."""
    length = _header(scope, b"content-length")
    has_body = _header(scope, b"transfer-encoding") is not None or (
        length is not None and length.strip() not in ("", "0")
    )
    kind = _header(scope, b"content-type")
    media = (kind or "").split(";")[0].strip().lower()
    if not has_body or media == "application/json":
        return None
    given = repr(kind) if kind else "a body without a Content-Type"
    message = (
        f"a {scope['method']} body must be JSON, not {given}; send Content-Type: application/json"
    )
    return error_response(415, "UnsupportedMediaType", message)
