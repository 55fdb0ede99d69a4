"""`GET /mcp` event streams on a real `dualtrace serve`: capped per API key and in all
(429 / 503 with a JSON message), released when their client goes, and ended by the service
after `stream_seconds`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
from service_live import Server, new_key

STREAM = {"Accept": "text/event-stream", "Mcp-Protocol-Version": "2025-06-18"}


@pytest.fixture
def server(tmp_path: Path, servers: Callable[..., Server]) -> Server:
    db = tmp_path / "memory.db"
    keys = {"a": new_key(db, "--user", "ann"), "b": new_key(db, "--user", "bo")}
    running = servers(
        env={
            "DUALTRACE_MAX_STREAMS_PER_KEY": "2",
            "DUALTRACE_MAX_STREAMS": "3",
            "DUALTRACE_STREAM_SECONDS": "3",
            "DUALTRACE_RATE_LIMIT": "0",
        }
    )
    running.keys = keys
    return running


@contextmanager
def _stream(server: Server, who: str) -> Iterator[httpx.Response]:
    """A GET /mcp of `who`'s key, open (headers read) until the block ends."""
    with (
        server.client(server.keys[who]) as client,
        client.stream("GET", "/mcp", headers=STREAM) as response,
    ):
        yield response


def test_streams_are_capped_per_key_and_in_all(server: Server) -> None:
    with ExitStack() as held:
        for who in ("a", "a", "b"):
            assert held.enter_context(_stream(server, who)).status_code == 200
        with _stream(server, "a") as over:  # a's third: its own share is used up
            assert over.status_code == 429
            over.read()
            assert "2 open GET /mcp event streams" in over.json()["error"]["message"]
        with _stream(server, "b") as full:  # b's second: everyone's share is used up
            assert full.status_code == 503
            full.read()
            assert "retry later" in full.json()["error"]["message"]
    deadline = time.monotonic() + 10  # the clients went: their streams are released
    while True:
        with _stream(server, "a") as again:
            if again.status_code == 200 or time.monotonic() > deadline:
                assert again.status_code == 200
                break
        time.sleep(0.2)


def test_a_stream_is_ended_after_stream_seconds(server: Server) -> None:
    start = time.monotonic()
    with _stream(server, "a") as response:
        assert response.status_code == 200
        for _ in response.iter_raw():  # ends once the service ends the stream
            assert time.monotonic() - start < 3 + 3, "the stream is still open"
    assert time.monotonic() - start < 3 + 3
    with server.client(server.keys["a"]) as client:  # the service still answers MCP
        reply = client.post(
            "/mcp",
            headers={"Accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
        assert reply.status_code == 200, reply.text
