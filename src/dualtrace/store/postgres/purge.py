"""Deletion SQL for PostgreSQL: the statements that find what a deleted turn takes with it
and remove it whole (`PostgresPurgeRows`; what they decide is store/deletion_rules.py, shared
with the SQLite store). They run on the cursor of the caller's transaction (deletion.py owns
it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from dualtrace.store.base import IndexEntry
from dualtrace.store.deletion_rules import PurgeRows
from dualtrace.store.postgres import graph as graph_sql
from dualtrace.store.postgres import index
from dualtrace.store.postgres.connection import Cursor, now


def mark_pending(cur: Cursor, user_id: str, episode_ids: Iterable[str], at: datetime) -> None:
    """Mark turns extraction-pending (kept until their memories are stored)."""
    ids = list(episode_ids)
    if ids:
        cur.execute(
            "INSERT INTO extraction_pending (user_id, episode_id, since) SELECT user_id, id, %s "
            "FROM episodes WHERE user_id = %s AND id = ANY(%s) ON CONFLICT DO NOTHING",
            (at, user_id, ids),
        )


class PostgresPurgeRows(PurgeRows):
    """The deletion statements (deletion_rules.PurgeRows) on one PostgreSQL cursor."""

    def __init__(self, cur: Cursor) -> None:
        self._cur = cur

    def existing_episodes(self, user_id: str, ids: Iterable[str]) -> list[str]:
        """Those of these ids that are the user's episodes."""
        wanted = sorted(ids)
        if not wanted:
            return []
        rows = self._cur.execute(
            "SELECT id FROM episodes WHERE user_id = %s AND id = ANY(%s) ORDER BY id",
            (user_id, wanted),
        ).fetchall()
        return [r[0] for r in rows]

    def next_turn(self, user_id: str, episode_id: str) -> list[str]:
        """The id of the turn after this one in its session, if any (a list of at most one)."""
        rows = self._cur.execute(
            "SELECT n.id FROM episodes e JOIN episodes n ON n.user_id = e.user_id "
            "AND n.session_id IS NOT DISTINCT FROM e.session_id AND n.seq > e.seq "
            "WHERE e.user_id = %s AND e.id = %s ORDER BY n.seq LIMIT 1",
            (user_id, episode_id),
        ).fetchall()
        return [r[0] for r in rows]

    def co_sources(self, user_id: str, turns: Sequence[str]) -> list[str]:
        """The sources of every memory citing one of these turns."""
        rows = self._cur.execute(
            "SELECT DISTINCT o.episode_id FROM memory_sources s JOIN memory_sources o "
            "ON o.user_id = s.user_id AND o.memory_id = s.memory_id WHERE s.user_id = %s "
            "AND s.episode_id = ANY(%s) ORDER BY o.episode_id",
            (user_id, list(turns)),
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
                for r in self._cur.execute(
                    "SELECT DISTINCT s.memory_id FROM memory_sources s WHERE s.user_id = %s "
                    "AND s.episode_id = ANY(%s) AND NOT EXISTS (SELECT 1 FROM memory_sources o "
                    "WHERE o.user_id = s.user_id AND o.memory_id = s.memory_id "
                    "AND o.episode_id <> ALL(%s)) ORDER BY 1",
                    (user_id, list(within), list(within)),
                ).fetchall()
            ]
        if cited:
            found += [
                r[0]
                for r in self._cur.execute(
                    "SELECT DISTINCT memory_id FROM memory_sources WHERE user_id = %s "
                    "AND episode_id = ANY(%s) ORDER BY 1",
                    (user_id, list(cited)),
                ).fetchall()
            ]
        return list(dict.fromkeys(found))

    def drop_keys(self, user_id: str, record_id: str) -> None:
        """Delete a record's search keys (their tsvectors and vectors are columns of the row)."""
        index.drop_keys(self._cur, user_id, record_id)

    def write_keys(self, user_id: str, keys: Sequence[IndexEntry]) -> None:
        """Insert search keys."""
        index.write_keys(self._cur, user_id, keys)

    def drop_history(self, user_id: str, record_id: str) -> None:
        """Delete a record's history entries."""
        self._cur.execute(
            "DELETE FROM history WHERE user_id = %s AND record_id = %s", (user_id, record_id)
        )

    def drop_episode(self, user_id: str, episode_id: str) -> None:
        """Delete the turn's own row."""
        self._cur.execute(
            "DELETE FROM episodes WHERE user_id = %s AND id = %s", (user_id, episode_id)
        )

    def reopen_superseded(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Undo the supersessions these memories made, and purge their history entries (each
        holds the superseding memory's text)."""
        rows = self._cur.execute(
            "SELECT id, record_id, detail FROM history WHERE user_id = %s "
            "AND event = 'SUPERSEDE' AND detail ->> 'by' = ANY(%s) AND record_id <> ALL(%s)",
            (user_id, list(memory_ids), list(memory_ids)),
        ).fetchall()
        for _, record_id, d in rows:
            self._cur.execute(
                "UPDATE memories SET valid_to = %s::timestamptz, "
                "invalidated_at = %s::timestamptz, superseded_by = %s "
                "WHERE user_id = %s AND id = %s AND superseded_by = %s",
                (
                    d.get("valid_to_before"),
                    d.get("invalidated_at_before"),
                    d.get("superseded_by_before"),
                    user_id,
                    record_id,
                    d["by"],
                ),
            )
        ids = [int(r[0]) for r in rows]
        if ids:
            self._cur.execute(
                "DELETE FROM history WHERE user_id = %s AND (id = ANY(%s) OR (event = 'REVERT' "
                "AND (detail ->> 'reverts')::bigint = ANY(%s)))",
                (user_id, ids, ids),
            )

    def delete_memories(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Delete these memories' rows and their history entries."""
        ids = list(memory_ids)
        self._cur.execute(
            "DELETE FROM history WHERE user_id = %s AND record_id = ANY(%s)", (user_id, ids)
        )
        self._cur.execute(
            "DELETE FROM memories WHERE user_id = %s AND id = ANY(%s)", (user_id, ids)
        )

    def mark_pending(self, user_id: str, episode_ids: Sequence[str]) -> None:
        """Mark these turns extraction-pending, as of now."""
        mark_pending(self._cur, user_id, episode_ids, now())

    def drop_unused_entities(self, user_id: str) -> None:
        """Delete the user's entities that no memory mentions any more."""
        graph_sql.drop_unused_entities(self._cur, user_id)

    def content_hashes(self, user_id: str, record_ids: Sequence[str]) -> list[str]:
        """The distinct content hashes of these records' search keys."""
        rows = self._cur.execute(
            "SELECT DISTINCT content_hash FROM search_keys WHERE user_id = %s "
            "AND record_id = ANY(%s)",
            (user_id, list(record_ids)),
        ).fetchall()
        return [r[0] for r in rows]

    def all_content_hashes(self, user_id: str) -> list[str]:
        """The distinct content hashes of all the user's search keys."""
        rows = self._cur.execute(
            "SELECT DISTINCT content_hash FROM search_keys WHERE user_id = %s", (user_id,)
        ).fetchall()
        return [r[0] for r in rows]
