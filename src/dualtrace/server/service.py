"""What the routes share: the Memory, the settings, API-key checks, the per-key rate limit
and the background worker. Routes reach it through `service(request)`."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from fastapi import Request

from dualtrace.config import ServiceConfig
from dualtrace.errors import (
    AuthError,
    ForbiddenError,
    PayloadTooLargeError,
    ProviderError,
    TooManyRequestsError,
    ValidationError,
)
from dualtrace.memory import Memory

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Principal:
    """Who is calling: an API key acting for one user, or for any (admin; dev mode too)."""

    key_id: str | None
    user_id: str | None
    admin: bool

    def user(self, requested: str | None) -> str:
        """The user a request acts for: the key's own (a user key), or the one named (admin).
        A user key naming another user is a ForbiddenError."""
        if not self.admin:
            assert self.user_id is not None
            if requested is not None and requested != self.user_id:
                raise ForbiddenError(
                    f"this API key acts for user {self.user_id!r} only, not {requested!r}; "
                    "omit user_id or use a key of that user"
                )
            return self.user_id
        if requested is None:
            who = "an admin key" if self.key_id is not None else "--dev mode without a key"
            raise ValidationError(f"user_id is required: {who} acts for any user, so name one")
        return requested

    @property
    def actor(self) -> str | None:
        """Who history and the audit log name for this caller's changes: its key's id
        ("key:<id>"); None (the store's configured actor) in dev mode without a key."""
        return None if self.key_id is None else f"key:{self.key_id}"

    def require_admin(self) -> None:
        if not self.admin:
            raise ForbiddenError("this route needs an admin key (`dualtrace keys create --admin`)")


class RateLimiter:
    """A token bucket per key: `per_minute` requests a minute, bursts up to as many."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last time)
        self._lock = threading.Lock()

    def take(self, key: str) -> None:
        if self.per_minute <= 0:
            return
        rate = self.per_minute / 60.0
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.per_minute), now))
            tokens = min(float(self.per_minute), tokens + (now - last) * rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                raise TooManyRequestsError(
                    f"rate limit of {self.per_minute} requests a minute reached for this key; "
                    "retry later (see Retry-After)",
                    retry_after=(1.0 - tokens) / rate,
                )
            self._buckets[key] = (tokens - 1.0, now)


class Worker:
    """One background thread that embeds and derives what deferred adds stored: woken by
    each one, and every few seconds (a restart finds the backlog the same way)."""

    def __init__(self, memory: Memory, idle_seconds: float = 5.0) -> None:
        self.memory = memory
        self.idle_seconds = idle_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dualtrace-worker", daemon=True)
        self.finished = 0  # turns finished since start (for /metrics)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        backoff = self.idle_seconds
        while not self._stop.is_set():
            try:
                self.finished += self.memory.finish_pending()
                backoff = self.idle_seconds
            except ProviderError as exc:  # the turns stay pending; the operation says why
                log.warning("background derivation failed (%s); retrying", type(exc).__name__)
                backoff = min(backoff * 2, 300.0)
            except Exception:  # a bug must not kill the worker silently: logged, retried
                log.exception("background derivation failed")
                backoff = min(backoff * 2, 300.0)
            if self._stop.is_set():
                break
            self._wake.wait(backoff)
            self._wake.clear()


class Service:
    """The state every request shares."""

    def __init__(self, memory: Memory, config: ServiceConfig) -> None:
        self.memory = memory
        self.config = config
        self.keys = memory.api_keys
        self.limiter = RateLimiter(config.rate_limit)
        self.worker = Worker(memory) if config.worker else None
        self.ready = False

    def authenticate(self, authorization: str | None, client: str) -> Principal:
        """The caller of a request with this Authorization header; rate limited per key."""
        if authorization is None and self.config.dev:
            self.limiter.take(f"dev:{client}")
            return Principal(None, None, admin=True)
        if authorization is None:
            raise AuthError("no API key: send `Authorization: Bearer <key>`")
        scheme, _, token = authorization.partition(" ")
        key = self.keys.verify(token.strip()) if scheme.lower() == "bearer" else None
        if key is None:
            raise AuthError(
                "the API key is unknown or revoked; create one with `dualtrace keys create`"
            )
        self.limiter.take(key.key_id)
        return Principal(key.key_id, key.user_id, key.admin)

    def check_messages(self, count: int) -> None:
        if count > self.config.max_messages:
            raise PayloadTooLargeError(
                f"{count} messages in one request; the limit is {self.config.max_messages} "
                "(split them over several requests, or raise DUALTRACE_MAX_MESSAGES)"
            )

    def check_query(self, query: str | None) -> None:
        if query is not None and len(query) > self.config.max_query_chars:
            raise PayloadTooLargeError(
                f"the query has {len(query)} characters; the limit is "
                f"{self.config.max_query_chars} (raise DUALTRACE_MAX_QUERY_CHARS)"
            )


def service(request: Request) -> Service:
    """The app's Service."""
    found: Service = request.app.state.service
    return found


def caller(request: Request) -> Principal:
    """Dependency: the authenticated caller (401 without a valid key, 429 over the limit)."""
    client = request.client.host if request.client else "?"
    return service(request).authenticate(request.headers.get("authorization"), client)
