"""`add(defer=True)`: turns stored and full-text indexed at once, vectors and memories made by
`finish_pending()` (or the next open); operations report it; a reopened store finishes it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import NotFoundError


def _missing_vectors(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT COUNT(*) FROM search_keys WHERE vector IS NULL").fetchone()
    return int(row[0])


def test_deferred_turns_are_searchable_at_once_and_derived_later(
    mem: Memory, db_path: Path, conversation: list[dict[str, str]]
) -> None:
    user_turns = [m for m in conversation if m["role"] == "user"]
    res = mem.add(user_turns, user_id="alice", defer=True)
    assert res.events == [] and len(res.episodes) == 3
    op = mem.track(res.episodes, user_id="alice")
    assert op.state == "pending" and op.pending == 3
    assert _missing_vectors(db_path) == 3
    assert "Hangzhou" in mem.search("Hangzhou", user_id="alice")[0].text
    assert mem.pending_users() == ["alice"]
    assert mem.finish_pending() == 3
    assert mem.operation(op.id, user_id="alice").state == "done"
    assert _missing_vectors(db_path) == 0 and mem.pending_users() == []
    assert [t.memory_ids != () for t in mem.turns(user_id="alice").items] == [True] * 3


def test_a_reopened_store_finishes_deferred_turns(
    db_path: Path, conversation: list[dict[str, str]]
) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        mem.add(conversation[:1], user_id="alice", defer=True)
    with Memory(db_path, embedder=FakeEmbedder(), resume=False) as mem:
        assert mem.pending_users() == ["alice"]  # resume=False leaves it to a worker
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        assert mem.pending_users() == []
        assert mem.users()[0].memories >= 1
    assert _missing_vectors(db_path) == 0


def test_operations_are_scoped_to_their_user(mem: Memory) -> None:
    res = mem.add("I live in Hangzhou", user_id="alice", defer=True)
    op = mem.track(res.episodes, user_id="alice")
    with pytest.raises(NotFoundError):
        mem.operation(op.id, user_id="bob")
