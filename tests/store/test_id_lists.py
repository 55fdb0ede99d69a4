"""Candidate id lists longer than SQLite's variable limit still filter by scope (the limit
is 250,000 in Debian's build, 32,766 in SQLite's default and 999 in older ones)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.base import SearchScope
from dualtrace.store.sqlite.search import allowed_ids, in_window

MANY = [f"ep_{i:05d}" for i in range(5_000)]


def test_scope_and_window_checks_take_more_ids_than_sqlite_variables(db_path: Path) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        res = mem.add(
            "I moved to Lyon.",
            user_id="u",
            timestamp="2024-03-05T10:00:00Z",
            metadata={"topic": "home"},
        )
        other = mem.add(
            "I moved to Nice.",
            user_id="v",
            timestamp="2024-03-05T10:00:00Z",
            metadata={"topic": "home"},
        )
    mine, theirs = res.episodes[0], other.episodes[0]
    with sqlite3.connect(db_path) as conn:
        conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
        ids = [*MANY, mine, theirs]
        assert allowed_ids(conn, "u", ids, SearchScope(metadata={"topic": "home"})) == {mine}
        assert allowed_ids(conn, "u", ids, SearchScope(metadata={"topic": "work"})) == set()
        day = (datetime(2024, 3, 5, tzinfo=UTC), datetime(2024, 3, 6, tzinfo=UTC))
        assert in_window(conn, "u", ids, *day) == [mine]
        assert in_window(conn, "u", ids, day[1], datetime(2024, 3, 7, tzinfo=UTC)) == []
