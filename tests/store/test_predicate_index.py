"""The valid memories of some predicates (the profile's read) are found by the index
`memories_predicate` (user, predicate, valid_to): an index seek, not a visit of every memory
of the user (SQLite's query plan; PostgreSQL has the same index, migration 0006)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from dualtrace.store.sqlite import lifecycle
from dualtrace.store.sqlite.store import SQLiteStore


class _Plans:
    """A connection that answers each statement with its query plan, kept in `plans`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.plans = conn, list[str]()

    def execute(self, sql: str, params: Any) -> list[Any]:
        rows = self.conn.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
        self.plans += [str(r[3]) for r in rows]
        return []


@pytest.mark.parametrize("status", [None, "open"])
def test_valid_memories_of_a_predicate_are_an_index_seek(
    tmp_path: Path, status: str | None
) -> None:
    path = tmp_path / "m.db"
    SQLiteStore(path).close()
    with sqlite3.connect(path) as conn:
        explain = _Plans(conn)
        lifecycle.predicate_rows(explain, "u", ["lives_in", "task"], False, status)  # type: ignore[arg-type]
        lifecycle.predicate_rows(explain, "u", ["lives_in"], True, status)  # type: ignore[arg-type]
    valid, every = [p for p in explain.plans if "memories" in p]
    assert "memories_predicate (user_id=? AND predicate=? AND valid_to=?)" in valid
    assert "memories_predicate (user_id=? AND predicate=?)" in every  # closed ones too
