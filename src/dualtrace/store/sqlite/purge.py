"""Deletion SQL: the statements that find what a deleted turn takes with it and remove it
whole (`SQLitePurgeRows`; what they decide is store/deletion_rules.py).

They run on an open connection inside the caller's transaction (deletion.py owns it), so a
turn, the memories built from its words, the history entries quoting those words and the
re-derivation marks of the turns left to rebuild them change together or not at all.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime

from dualtrace.store.base import IndexEntry
from dualtrace.store.deletion_rules import PurgeRows
from dualtrace.store.sqlite import codec, index
from dualtrace.store.sqlite import graph as graph_sql
from dualtrace.store.sqlite.connection import now


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


def mark_pending(
    conn: sqlite3.Connection, user_id: str, episode_ids: Iterable[str], at: datetime
) -> None:
    """Mark turns extraction-pending (kept until their memories are stored)."""
    conn.executemany(
        "INSERT OR IGNORE INTO extraction_pending (episode_id, user_id, since) "
        "SELECT id, user_id, ? FROM episodes WHERE user_id = ? AND id = ?",
        [(codec.ts(at), user_id, e) for e in episode_ids],
    )


class SQLitePurgeRows(PurgeRows):
    """The deletion statements (deletion_rules.PurgeRows) on one SQLite connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def existing_episodes(self, user_id: str, ids: Iterable[str]) -> list[str]:
        """Those of these ids that are the user's episodes."""
        wanted = sorted(ids)
        if not wanted:
            return []
        rows = self._conn.execute(
            f"SELECT id FROM episodes WHERE +user_id = ? AND id IN ({_marks(wanted)})",
            [user_id, *wanted],
        )
        return [r[0] for r in rows]

    def next_turn(self, user_id: str, episode_id: str) -> list[str]:
        """The id of the turn after this one in its session, if any (a list of at most one)."""
        rows = self._conn.execute(
            "SELECT n.id FROM episodes e JOIN episodes n ON n.user_id = e.user_id "
            "AND n.session_id IS e.session_id AND n.seq > e.seq "
            "WHERE e.user_id = ? AND e.id = ? ORDER BY n.seq LIMIT 1",
            (user_id, episode_id),
        )
        return [r[0] for r in rows]

    def co_sources(self, user_id: str, turns: Sequence[str]) -> list[str]:
        """The sources of every memory citing one of these turns."""
        rows = self._conn.execute(
            f"SELECT DISTINCT o.episode_id FROM memory_sources s JOIN memory_sources o "
            f"ON o.memory_id = s.memory_id WHERE s.user_id = ? "
            f"AND s.episode_id IN ({_marks(turns)})",
            [user_id, *turns],
        ).fetchall()
        return [r[0] for r in rows]

    def memories_citing(
        self, user_id: str, within: Sequence[str], cited: Sequence[str]
    ) -> list[str]:
        """Memories whose every source is one of `within`, and memories citing any of `cited`."""
        found: list[str] = []
        if within:
            found += [
                r[0]
                for r in self._conn.execute(
                    f"SELECT DISTINCT s.memory_id FROM memory_sources s WHERE s.user_id = ? "
                    f"AND s.episode_id IN ({_marks(within)}) AND NOT EXISTS (SELECT 1 FROM "
                    f"memory_sources o WHERE o.memory_id = s.memory_id "
                    f"AND o.episode_id NOT IN ({_marks(within)}))",
                    [user_id, *within, *within],
                )
            ]
        if cited:
            found += [
                r[0]
                for r in self._conn.execute(
                    f"SELECT DISTINCT memory_id FROM memory_sources WHERE user_id = ? "
                    f"AND episode_id IN ({_marks(cited)})",
                    [user_id, *cited],
                )
            ]
        return list(dict.fromkeys(found))

    def drop_keys(self, user_id: str, record_id: str) -> None:
        """Delete a record's search keys and their FTS bodies and glosses."""
        index.drop_keys(self._conn, user_id, record_id)

    def write_keys(self, user_id: str, keys: Sequence[IndexEntry]) -> None:
        """Insert search keys."""
        index.write_keys(self._conn, user_id, keys)

    def drop_history(self, user_id: str, record_id: str) -> None:
        """Delete a record's history entries."""
        self._conn.execute(
            "DELETE FROM history WHERE user_id = ? AND record_id = ?", (user_id, record_id)
        )

    def drop_episode(self, user_id: str, episode_id: str) -> None:
        """Delete the turn's own row."""
        self._conn.execute(
            "DELETE FROM episodes WHERE user_id = ? AND id = ?", (user_id, episode_id)
        )

    def reopen_superseded(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Undo the supersessions these memories made, and purge their history entries (each
        holds the superseding memory's text)."""
        gone = set(memory_ids)
        rows = self._conn.execute(
            "SELECT id, record_id, detail FROM history WHERE user_id = ? AND event = 'SUPERSEDE'",
            (user_id,),
        ).fetchall()
        entries = [(r[0], r[1], json.loads(r[2] or "{}")) for r in rows]
        entries = [(i, rid, d) for i, rid, d in entries if d.get("by") in gone and rid not in gone]
        for _, record_id, d in entries:
            self._conn.execute(
                "UPDATE memories SET valid_to = ?, invalidated_at = ?, superseded_by = ? "
                "WHERE user_id = ? AND id = ? AND superseded_by = ?",
                (
                    d.get("valid_to_before"),
                    d.get("invalidated_at_before"),
                    d.get("superseded_by_before"),
                    user_id,
                    record_id,
                    d["by"],
                ),
            )
        ids = [i for i, _, _ in entries]
        for start in range(0, len(ids), 400):
            chunk = ids[start : start + 400]
            self._conn.execute(
                f"DELETE FROM history WHERE user_id = ? AND (id IN ({_marks(chunk)}) OR "
                f"(event = 'REVERT' AND json_extract(detail, '$.reverts') IN ({_marks(chunk)})))",
                [user_id, *chunk, *chunk],
            )

    def delete_memories(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Delete these memories' rows and their history entries, 400 at a time."""
        for start in range(0, len(memory_ids), 400):
            chunk = list(memory_ids[start : start + 400])
            self._conn.execute(
                f"DELETE FROM history WHERE user_id = ? AND record_id IN ({_marks(chunk)})",
                [user_id, *chunk],
            )
            self._conn.execute(
                f"DELETE FROM memories WHERE user_id = ? AND id IN ({_marks(chunk)})",
                [user_id, *chunk],
            )

    def mark_pending(self, user_id: str, episode_ids: Sequence[str]) -> None:
        """Mark these turns extraction-pending, as of now."""
        mark_pending(self._conn, user_id, episode_ids, now())

    def drop_unused_entities(self, user_id: str) -> None:
        """Delete the user's entities that no memory mentions any more."""
        graph_sql.drop_unused_entities(self._conn, user_id)

    def content_hashes(self, user_id: str, record_ids: Sequence[str]) -> list[str]:
        """The distinct content hashes of these records' search keys."""
        rows = self._conn.execute(
            f"SELECT DISTINCT content_hash FROM search_keys WHERE user_id = ? "
            f"AND record_id IN ({_marks(record_ids)})",
            [user_id, *record_ids],
        )
        return [r[0] for r in rows]

    def all_content_hashes(self, user_id: str) -> list[str]:
        """The distinct content hashes of all the user's search keys."""
        rows = self._conn.execute(
            "SELECT DISTINCT content_hash FROM search_keys WHERE user_id = ?", (user_id,)
        )
        return [r[0] for r in rows]
