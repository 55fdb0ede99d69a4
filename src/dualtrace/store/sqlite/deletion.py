"""The DeletionStore role in SQLite: real deletion, and the counts and audit log that prove it.

Deleting is more than `DELETE`: `secure_delete` zeroes freed pages, and `_scrub` merges the
full-text segments and empties the WAL, so a deleted turn's words leave the file.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from dualtrace.store.sqlite import graph as graph_sql
from dualtrace.store.sqlite.connection import SQLiteConnection
from dualtrace.store.sqlite.index import drop_keys

# Tables holding per-user rows, children first (deletion order).
USER_TABLES = (
    "memory_entities", "memory_sources", "links", "entities", "history", "search_keys",
    "memories", "episodes", "index_versions", "sessions",
)  # fmt: skip


class SQLiteDeletion(SQLiteConnection):
    """DeletionStore: delete a record, an episode's derived memories, or a whole user."""

    def delete_record(self, user_id: str, record_id: str, actor: str) -> None:
        """Delete one record, its keys, links and history, and scrub it from the file."""
        kind = self._require(user_id, record_id)
        with self._tx() as conn:
            drop_keys(conn, user_id, record_id)
            conn.execute(
                "DELETE FROM history WHERE user_id = ? AND record_id = ?", (user_id, record_id)
            )
            if kind == "episode":
                # A memory whose only source is this episode would cite nothing: it goes too.
                _delete_orphans(conn, user_id, record_id)
                conn.execute(
                    "DELETE FROM episodes WHERE user_id = ? AND id = ?", (user_id, record_id)
                )
            else:
                conn.execute(
                    "DELETE FROM memories WHERE user_id = ? AND id = ?", (user_id, record_id)
                )
            graph_sql.drop_unused_entities(conn, user_id)
            self._audit(conn, user_id, actor, "delete", record_id, {"kind": kind})
        self._scrub(vacuum=False)

    def delete_derived(self, user_id: str, episode_id: str, actor: str) -> list[str]:
        """Delete the memories that only this episode supports (before re-deriving them)."""
        with self._tx() as conn:
            gone = _delete_orphans(conn, user_id, episode_id)
            graph_sql.drop_unused_entities(conn, user_id)
            if gone:
                self._audit(
                    conn, user_id, actor, "delete_derived", episode_id, {"count": len(gone)}
                )
        if gone:
            self._scrub(vacuum=False)
        return gone

    def delete_user(self, user_id: str, actor: str) -> dict[str, int]:
        """Delete every row of a user (audit log aside) and scrub the file; returns counts."""
        counts: dict[str, int] = {}
        with self._tx() as conn:
            conn.execute(
                "DELETE FROM fts WHERE rowid IN (SELECT id FROM search_keys WHERE user_id = ?)",
                (user_id,),
            )
            for table in USER_TABLES:
                cur = conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
                counts[table] = cur.rowcount
            self._audit(conn, user_id, actor, "forget_user", None, counts)
        self._dense.invalidate(user_id)
        self._means.pop(user_id, None)
        self._scrub(vacuum=True)
        return counts

    def count_records(self, user_id: str) -> dict[str, int]:
        """Row counts of every per-user table."""
        return {
            t: int(self._read(f"SELECT COUNT(*) FROM {t} WHERE user_id = ?", (user_id,))[0][0])
            for t in (*USER_TABLES, "audit_log")
        }

    def audit_entries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit log, oldest first (no memory text is ever written there)."""
        rows = self._read("SELECT * FROM audit_log WHERE user_id = ? ORDER BY id", (user_id,))
        return [dict(r) | {"detail": json.loads(r["detail"])} for r in rows]


def _delete_orphans(conn: sqlite3.Connection, user_id: str, episode_id: str) -> list[str]:
    """Delete the memories (keys and history too) whose only source is this episode."""
    orphans = [
        r[0]
        for r in conn.execute(
            "SELECT memory_id FROM memory_sources s WHERE user_id = ? AND episode_id = ? "
            "AND NOT EXISTS (SELECT 1 FROM memory_sources o WHERE o.memory_id = s.memory_id "
            "AND o.episode_id != s.episode_id)",
            (user_id, episode_id),
        )
    ]
    for memory_id in orphans:
        drop_keys(conn, user_id, memory_id)
        conn.execute(
            "DELETE FROM history WHERE user_id = ? AND record_id = ?", (user_id, memory_id)
        )
        conn.execute("DELETE FROM memories WHERE user_id = ? AND id = ?", (user_id, memory_id))
    return orphans
