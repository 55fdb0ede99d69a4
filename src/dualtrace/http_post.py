"""POST JSON with retries, shared by the OpenAI-compatible LLM and embedder clients.

Transient failures (connection errors, timeouts, 429, 5xx) are retried with exponential
backoff; anything else fails at once. Only the URL and the failure are logged, never the
request body (it holds the user's words).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

import httpx

_log = logging.getLogger(__name__)

# Transient transport failures worth another try; anything else from httpx fails at once.
RETRYABLE_ERRORS: tuple[type[Exception], ...] = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)
EXCERPT_CHARS = 200


@dataclass(frozen=True)
class Endpoint:
    """Where to POST, how often to retry, and which errors a client raises."""

    what: str  # "chat request", "embedding request": how messages name the call
    url: str
    max_retries: int
    backoff_s: float
    error: type[Exception]  # a failure that retrying cannot fix
    reject_hint: str  # what to check when the server rejects the request (HTTP 4xx)
    unavailable: type[Exception]  # every attempt failed
    malformed: type[Exception]  # the answer is not JSON
    rate_limited: type[Exception] | None = None  # every attempt failed with HTTP 429


def post_json(client: httpx.Client, endpoint: Endpoint, body: dict[str, Any]) -> Any:
    """POST body, retrying transient failures; return the decoded JSON answer."""
    attempts = endpoint.max_retries + 1
    failure, last_status = "no attempt made", 0
    last_exc: Exception | None = None
    for attempt in range(attempts):
        if attempt:
            _sleep_before_retry(endpoint, attempt, failure)
        try:
            response = client.post(endpoint.url, json=body)
        except RETRYABLE_ERRORS as exc:
            failure, last_status, last_exc = f"{type(exc).__name__}: {exc}", 0, exc
            continue
        except httpx.HTTPError as exc:
            raise endpoint.error(
                f"{endpoint.what} to {endpoint.url} failed: {type(exc).__name__}: {exc}; "
                "check base_url"
            ) from exc
        status = response.status_code
        if status == 429 or status >= 500:
            failure, last_status, last_exc = f"HTTP {status}", status, None
            continue
        if not response.is_success:
            raise endpoint.error(
                f"{endpoint.what} to {endpoint.url} was rejected with HTTP {status}: "
                f"{response.text[:EXCERPT_CHARS]!r}; {endpoint.reject_hint}"
            )
        return _decode_json(response, endpoint)
    raise _give_up(endpoint, attempts, failure, last_status) from last_exc


def _give_up(endpoint: Endpoint, attempts: int, failure: str, last_status: int) -> Exception:
    if last_status == 429 and endpoint.rate_limited is not None:
        return endpoint.rate_limited(
            f"{endpoint.what} to {endpoint.url} was still rate limited (HTTP 429) after "
            f"{attempts} attempt(s); send fewer requests, or raise max_retries / backoff_s"
        )
    return endpoint.unavailable(
        f"{endpoint.what} to {endpoint.url} failed after {attempts} attempt(s), "
        f"last: {failure}; check the server is running and reachable, "
        "or raise max_retries / timeout_s"
    )


def _sleep_before_retry(endpoint: Endpoint, attempt: int, failure: str) -> None:
    """Wait backoff_s * 2**(attempt-1) seconds; log the URL and failure, never the body."""
    delay = endpoint.backoff_s * 2 ** (attempt - 1)
    _log.warning(
        "%s to %s failed (%s); retry %d of %d in %.2fs",
        endpoint.what,
        endpoint.url,
        failure,
        attempt,
        endpoint.max_retries,
        delay,
    )
    time.sleep(delay)


def _decode_json(response: httpx.Response, endpoint: Endpoint) -> Any:
    try:
        return response.json()
    except ValueError as exc:
        raise endpoint.malformed(
            f"{endpoint.url} answered HTTP {response.status_code} with a body that is not "
            f"JSON: {response.text[:EXCERPT_CHARS]!r}; check base_url points at an "
            "OpenAI-compatible API root (usually ending in /v1)"
        ) from exc
