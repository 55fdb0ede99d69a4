"""The service's limits: body size, messages per request and query length (413), and the
per-key rate limit (429 with Retry-After), all from DUALTRACE_* settings."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from service_live import Server, new_key, start_server

TIGHT = {
    "DUALTRACE_MAX_BODY_BYTES": "5000",
    "DUALTRACE_MAX_MESSAGES": "3",
    "DUALTRACE_MAX_QUERY_CHARS": "40",
    "DUALTRACE_RATE_LIMIT": "6",
}


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One tight service for the module ("big" stays well under its 6 requests)."""
    db = tmp_path_factory.mktemp("tight") / "memory.db"
    keys = {name: new_key(db, "--user", name) for name in ("big", "fast", "slow")}
    running = start_server(db, env=TIGHT)
    running.keys = keys
    yield running
    running.stop()


def test_over_the_limits_is_413_and_nothing_is_stored(tight: Server) -> None:
    with tight.as_("big") as c:
        body = c.post("/v1/memories", json={"messages": [{"content": "x" * 6000}]})
        assert body.status_code == 413 and body.json()["error"]["type"] == "PayloadTooLargeError"
        many = c.post("/v1/memories", json={"messages": [{"content": "hi"}] * 4})
        assert many.status_code == 413 and "4 messages" in many.json()["error"]["message"]
        query = c.post("/v1/search", json={"query": "q" * 41})
        assert query.status_code == 413
        assert c.get("/v1/users").json()["users"][0]["turns"] == 0


def test_a_streamed_body_over_the_limit_is_413(tight: Server) -> None:
    def chunks() -> object:
        yield b'{"messages": [{"content": "'
        for _ in range(10):
            yield b"y" * 1000
        yield b'"}]}'

    with tight.as_("big") as c:
        r = c.post("/v1/memories", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text


def test_over_the_rate_limit_is_429_per_key(tight: Server) -> None:
    with tight.as_("fast") as c:
        codes = [c.get("/v1/users").status_code for _ in range(8)]
        assert codes[:6] == [200] * 6 and codes[6] == 429
        limited = c.get("/v1/users")
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
        assert limited.json()["error"]["type"] == "TooManyRequestsError"
    with tight.as_("slow") as c:  # another key has its own budget
        assert c.get("/v1/users").status_code == 200
    assert httpx.get(f"{tight.base}/health/live").status_code == 200  # health is never limited
