"""Memory lifecycle SQL for PostgreSQL: the statements of consolidation changes, their undo
and archiving (`PostgresLifecycleRows`; what they decide is store/memory_changes.py, shared
with the SQLite store), history entries.

Functions and rows take an open cursor inside the caller's transaction; the MemoryStore
mixin (memories.py) owns the transactions, the search-key writes and the audit log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from dualtrace.models import HistoryEntry
from dualtrace.store.memory_changes import LifecycleRows, LockedMemory, with_subjects
from dualtrace.store.postgres import codec
from dualtrace.store.postgres.codec import Row
from dualtrace.store.postgres.connection import Cursor

# The same tuning on both backends.
from dualtrace.store.write_rules import (
    MAX_MEAN_IMPORTANCE,
    MIN_MEMORIES_TO_NORMALISE,
    NORMALISED_MEAN_IMPORTANCE,
)

__all__ = [
    "MAX_MEAN_IMPORTANCE",
    "MIN_MEMORIES_TO_NORMALISE",
    "NORMALISED_MEAN_IMPORTANCE",
    "PostgresLifecycleRows",
    "entry_from_row",
    "history_detail",
    "history_entry",
    "predicate_rows",
    "subject_rows",
    "superseded_by",
]


def subject_rows(
    cur: Cursor, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
) -> list[str]:
    """Ids of valid memories with one of these predicates and subjects (case-insensitive)."""
    if not subjects or not predicates:
        return []
    rows = cur.execute(
        "SELECT id, subject FROM memories WHERE user_id = %s AND predicate = ANY(%s) "
        "AND invalidated_at IS NULL AND valid_to IS NULL AND NOT archived ORDER BY recorded_at, id",
        (user_id, list(predicates)),
    ).fetchall()
    return with_subjects(rows, subjects)


def predicate_rows(
    cur: Cursor,
    user_id: str,
    predicates: Sequence[str],
    include_invalid: bool,
    status: str | None = None,
) -> list[str]:
    """Ids of memories with one of these predicates, oldest first, those of one moment by
    their text's bytes as SQLite orders it (valid ones only unless `include_invalid`; never
    archived ones; with `status`, those whose metadata's "status" is it). Index
    `memories_predicate` (user, predicate, valid_to) finds the valid ones."""
    if not predicates:
        return []
    valid = "" if include_invalid else "AND invalidated_at IS NULL AND valid_to IS NULL "
    marked = "" if status is None else "AND metadata->>'status' = %s "
    rows = cur.execute(
        f"SELECT id FROM memories WHERE user_id = %s AND predicate = ANY(%s) {valid}{marked}"
        "AND NOT archived "
        'ORDER BY valid_from NULLS FIRST, recorded_at, text COLLATE "C", id'.encode(),
        (user_id, list(predicates), *([] if status is None else [status])),
    ).fetchall()
    return [r[0] for r in rows]


def history_detail(
    cur: Cursor,
    user_id: str,
    record_id: str,
    event: str,
    old: str | None,
    new: str | None,
    at: datetime,
    actor: str,
    detail: dict[str, Any],
) -> int:
    """Append a history entry with its undo detail; returns its id."""
    row = cur.execute(
        "INSERT INTO history (user_id, record_id, event, old_text, new_text, at, actor, detail) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
        (user_id, record_id, event, old, new, at, actor, codec.jsonb(detail)),
    ).fetchone()
    return int(row[0]) if row is not None else 0


def history_entry(cur: Cursor, user_id: str, history_id: int) -> HistoryEntry | None:
    """One history entry of the user's, or None."""
    r = cur.execute(
        "SELECT * FROM history WHERE user_id = %s AND id = %s", (user_id, history_id)
    ).fetchone()
    return None if r is None else entry_from_row(r)


def entry_from_row(r: Row) -> HistoryEntry:
    """A HistoryEntry from a `history` row."""
    return HistoryEntry(
        r["id"],
        r["record_id"],
        r["event"],
        r["old_text"],
        r["new_text"],
        codec.utc_required(r["at"]),
        r["actor"],
        r["detail"],
    )


def superseded_by(cur: Cursor, user_id: str, memory_id: str) -> list[HistoryEntry]:
    """SUPERSEDE entries, not undone, whose newer value is this memory."""
    rows = cur.execute(
        "SELECT h.* FROM history h JOIN memories m ON m.user_id = h.user_id "
        "AND m.id = h.record_id WHERE h.user_id = %s AND h.event = 'SUPERSEDE' "
        "AND h.detail ->> 'by' = %s AND m.superseded_by = %s ORDER BY h.id",
        (user_id, memory_id, memory_id),
    ).fetchall()
    return [entry_from_row(r) for r in rows]


class PostgresLifecycleRows(LifecycleRows):
    """The lifecycle statements (memory_changes.LifecycleRows) on one PostgreSQL cursor.

    A memory read here is locked (`FOR UPDATE`) until the transaction ends; times are
    written as timestamptz, and read back for history details as `codec.ts` text.
    """

    def __init__(self, cur: Cursor) -> None:
        self._cur = cur

    def memory(self, user_id: str, memory_id: str) -> LockedMemory | None:
        """The memory's columns a change reads, locked; None if it is gone."""
        r = self._cur.execute(
            "SELECT * FROM memories WHERE user_id = %s AND id = %s FOR UPDATE",
            (user_id, memory_id),
        ).fetchone()
        if r is None:
            return None
        return LockedMemory(
            r["text"],
            r["object"],
            r["confidence"],
            r["importance"],
            dict(r["metadata"]),
            codec.ts(r["valid_to"]),
            codec.ts(r["invalidated_at"]),
            r["superseded_by"],
        )

    def add_source(self, user_id: str, memory_id: str, episode_id: str) -> bool:
        """Cite this episode as a source of the memory; False if it already was."""
        self._cur.execute(
            "INSERT INTO memory_sources (user_id, memory_id, episode_id) "
            "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            (user_id, memory_id, episode_id),
        )
        return bool(self._cur.rowcount)

    def drop_source(self, user_id: str, memory_id: str, episode_id: str) -> None:
        """Stop citing this episode as a source of the memory."""
        self._cur.execute(
            "DELETE FROM memory_sources WHERE user_id = %s AND memory_id = %s AND episode_id = %s",
            (user_id, memory_id, episode_id),
        )

    def set_scores(
        self,
        user_id: str,
        memory_id: str,
        confidence: float,
        importance: float,
        metadata: dict[str, Any],
    ) -> None:
        """Write the memory's confidence, importance and metadata."""
        self._cur.execute(
            "UPDATE memories SET confidence = %s, importance = %s, metadata = %s "
            "WHERE user_id = %s AND id = %s",
            (confidence, importance, codec.jsonb(metadata), user_id, memory_id),
        )

    def set_text(
        self,
        user_id: str,
        memory_id: str,
        text: str | None,
        obj: str | None,
        metadata: dict[str, Any],
    ) -> None:
        """Write the memory's text, object and metadata."""
        self._cur.execute(
            "UPDATE memories SET text = %s, object = %s, metadata = %s "
            "WHERE user_id = %s AND id = %s",
            (text, obj, codec.jsonb(metadata), user_id, memory_id),
        )

    def close(
        self,
        user_id: str,
        memory_id: str,
        valid_to: datetime,
        invalidated_at: datetime,
        superseded_by: str,
    ) -> None:
        """End the memory's validity: superseded by a newer memory."""
        self._cur.execute(
            "UPDATE memories SET valid_to = %s, invalidated_at = %s, superseded_by = %s "
            "WHERE user_id = %s AND id = %s",
            (valid_to, invalidated_at, superseded_by, user_id, memory_id),
        )

    def reopen(
        self,
        user_id: str,
        memory_id: str,
        valid_to: str | None,
        invalidated_at: str | None,
        superseded_by: str | None,
    ) -> None:
        """Put back the validity a history detail kept (its times are text)."""
        self._cur.execute(
            "UPDATE memories SET valid_to = %s::timestamptz, invalidated_at = %s::timestamptz, "
            "superseded_by = %s WHERE user_id = %s AND id = %s",
            (valid_to, invalidated_at, superseded_by, user_id, memory_id),
        )

    def link_supersedes(self, user_id: str, newer: str, older: str) -> None:
        """Add the 'supersedes' link from the newer memory to the older (if not there)."""
        self._cur.execute(
            "INSERT INTO links (user_id, src_id, dst_id, kind, weight) "
            "VALUES (%s, %s, %s, 'supersedes', 1.0) ON CONFLICT DO NOTHING",
            (user_id, newer, older),
        )

    def unlink_supersedes(self, user_id: str, newer: str | None, older: str) -> None:
        """Remove the 'supersedes' link from the newer memory to the older."""
        self._cur.execute(
            "DELETE FROM links WHERE user_id = %s AND src_id = %s AND dst_id = %s "
            "AND kind = 'supersedes'",
            (user_id, newer, older),
        )

    def history(
        self,
        user_id: str,
        record_id: str,
        event: str,
        old: str | None,
        new: str | None,
        at: datetime,
        actor: str,
        detail: dict[str, Any],
    ) -> int:
        """Append a history entry with its undo detail; returns its id."""
        return history_detail(self._cur, user_id, record_id, event, old, new, at, actor, detail)

    def reverted_by(self, user_id: str, entry: HistoryEntry) -> int | None:
        """The id of the REVERT entry that undid this entry, or None."""
        done = self._cur.execute(
            "SELECT id FROM history WHERE user_id = %s AND record_id = %s AND event = 'REVERT' "
            "AND detail ->> 'reverts' = %s",
            (user_id, entry.record_id, str(entry.id)),
        ).fetchone()
        return None if done is None else int(done[0])

    def pending_count(self, user_id: str, episode_ids: Sequence[str]) -> int:
        """How many of these (distinct) turns are marked extraction-pending."""
        row = self._cur.execute(
            "SELECT count(*) FROM extraction_pending WHERE user_id = %s AND episode_id = ANY(%s)",
            (user_id, list(episode_ids)),
        ).fetchone()
        return 0 if row is None else int(row[0])

    def drop_pending(self, user_id: str, episode_ids: Sequence[str]) -> None:
        """Clear these turns' extraction-pending marks."""
        self._cur.execute(
            "DELETE FROM extraction_pending WHERE user_id = %s AND episode_id = ANY(%s)",
            (user_id, list(episode_ids)),
        )

    def archive(self, user_id: str, memory_id: str, at: datetime) -> bool:
        """Archive the memory; False if it already was."""
        self._cur.execute(
            "UPDATE memories SET archived = true, archived_at = %s WHERE user_id = %s "
            "AND id = %s AND NOT archived",
            (at, user_id, memory_id),
        )
        return bool(self._cur.rowcount)

    def restore(self, user_id: str, memory_id: str) -> bool:
        """Take the memory out of the archive; False if it was not archived."""
        self._cur.execute(
            "UPDATE memories SET archived = false, archived_at = NULL WHERE user_id = %s "
            "AND id = %s AND archived",
            (user_id, memory_id),
        )
        return bool(self._cur.rowcount)
