"""`"async": true`: 202 once the turns are stored and full-text indexed; a worker in the
server embeds and derives; `GET /v1/operations/{id}` reports it; a restart finishes what a
stopped server left pending."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from service_live import Server, new_key

TURNS = [
    {"role": "user", "content": "I moved to Lisbon last month and I work at Feedzai now."},
    {"role": "user", "content": "My daughter Ana started violin lessons."},
]


def _wait_done(client: httpx.Client, operation_id: str, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        op: dict[str, Any] = client.get(f"/v1/operations/{operation_id}").json()
        if op["state"] == "done":
            return op
        time.sleep(0.1)
    raise AssertionError(f"operation {operation_id} still pending: {op}")


def test_async_add_is_acknowledged_then_derived(server: Server) -> None:
    key = new_key(server.db, "--user", "gina")
    with server.client(key) as c:
        r = c.post("/v1/memories", json={"messages": TURNS, "async": True})
        assert r.status_code == 202, r.text
        op = r.json()
        assert op["state"] in ("pending", "done") and len(op["episodes"]) == 2
        done = _wait_done(c, op["id"])
        assert done["pending"] == 0 and done["error"] is None
        turns = c.get("/v1/turns").json()["turns"]
        assert all(t["memory_ids"] for t in turns)
        assert c.get("/v1/operations/op_unknown").status_code == 404
    with server.as_("alice") as c:  # another user's operation is not found
        assert c.get(f"/v1/operations/{op['id']}").status_code == 404


def test_a_restart_finishes_what_was_pending(
    tmp_path: Path, servers: Callable[..., Server]
) -> None:
    db = tmp_path / "memory.db"
    key = new_key(db, "--user", "hana")
    idle = servers("--no-worker")
    with idle.client(key) as c:
        op = c.post("/v1/memories", json={"messages": TURNS, "async": True}).json()
        assert op["state"] == "pending" and op["pending"] == 2
        hits = c.post("/v1/search", json={"query": "violin lessons"}).json()["hits"]
        assert "violin" in hits[0]["text"]  # readable at once, through the full-text index
        assert all(t["memory_ids"] == [] for t in c.get("/v1/turns").json()["turns"])
    idle.stop()
    with sqlite3.connect(db) as conn:
        missing = conn.execute("SELECT COUNT(*) FROM search_keys WHERE vector IS NULL").fetchone()
    assert missing[0] == 2  # stored without vectors: embedding was deferred
    again = servers()
    with again.client(key) as c:
        assert _wait_done(c, op["id"])["pending"] == 0
        assert all(t["memory_ids"] for t in c.get("/v1/turns").json()["turns"])
    with sqlite3.connect(db) as conn:
        missing = conn.execute("SELECT COUNT(*) FROM search_keys WHERE vector IS NULL").fetchone()
    assert missing[0] == 0
