"""Memory lifecycle SQL: the statements of consolidation changes, their undo and archiving
(`SQLiteLifecycleRows`; what they decide is store/memory_changes.py), history entries.

Functions and rows take an open connection inside the caller's transaction; the MemoryStore
mixin (memories.py) owns the transactions, the search-key writes and the audit log.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from dualtrace.models import HistoryEntry
from dualtrace.store.memory_changes import LifecycleRows, LockedMemory, with_subjects
from dualtrace.store.sqlite import codec
from dualtrace.store.write_rules import (
    MAX_MEAN_IMPORTANCE,
    MIN_MEMORIES_TO_NORMALISE,
    NORMALISED_MEAN_IMPORTANCE,
)

__all__ = [
    "MAX_MEAN_IMPORTANCE",
    "MIN_MEMORIES_TO_NORMALISE",
    "NORMALISED_MEAN_IMPORTANCE",
    "SQLiteLifecycleRows",
    "entry_from_row",
    "history_detail",
    "history_entry",
    "predicate_rows",
    "subject_rows",
    "superseded_by",
]


def subject_rows(
    conn: sqlite3.Connection, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
) -> list[str]:
    """Ids of valid memories with one of these predicates and subjects (case-insensitive)."""
    if not subjects or not predicates:
        return []
    rows = conn.execute(
        f"SELECT id, subject FROM memories WHERE user_id = ? "
        f"AND predicate IN ({','.join('?' * len(predicates))}) "
        "AND invalidated_at IS NULL AND valid_to IS NULL AND archived = 0",
        [user_id, *predicates],
    )
    return with_subjects(rows, subjects)


def predicate_rows(
    conn: sqlite3.Connection,
    user_id: str,
    predicates: Sequence[str],
    include_invalid: bool,
    status: str | None = None,
) -> list[str]:
    """Ids of memories with one of these predicates, oldest first, those of one moment (one
    turn's memories) by text, so that every run and both backends give one order (valid
    ones only unless `include_invalid`; never archived ones; with `status`, those whose
    metadata's "status" is it). Index `memories_predicate` (user, predicate, valid_to) finds
    the valid ones."""
    if not predicates:
        return []
    valid = "" if include_invalid else "AND invalidated_at IS NULL AND valid_to IS NULL "
    marked = "" if status is None else "AND json_extract(metadata, '$.status') = ? "
    rows = conn.execute(
        f"SELECT id FROM memories WHERE user_id = ? "
        f"AND predicate IN ({','.join('?' * len(predicates))}) {valid}{marked}AND archived = 0 "
        "ORDER BY valid_from, recorded_at, text, id",
        [user_id, *predicates, *([] if status is None else [status])],
    )
    return [r[0] for r in rows]


def history_detail(
    conn: sqlite3.Connection,
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
    cur = conn.execute(
        "INSERT INTO history (user_id, record_id, event, old_text, new_text, at, actor, detail) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            user_id,
            record_id,
            event,
            old,
            new,
            codec.ts(at),
            actor,
            json.dumps(detail, ensure_ascii=False),
        ),
    )
    return int(cur.lastrowid or 0)


def history_entry(conn: sqlite3.Connection, user_id: str, history_id: int) -> HistoryEntry | None:
    """One history entry of the user's, or None."""
    r = conn.execute(
        "SELECT * FROM history WHERE user_id = ? AND id = ?", (user_id, history_id)
    ).fetchone()
    return None if r is None else entry_from_row(r)


def entry_from_row(r: sqlite3.Row) -> HistoryEntry:
    """A HistoryEntry from a `history` row."""
    return HistoryEntry(
        r["id"],
        r["record_id"],
        r["event"],
        r["old_text"],
        r["new_text"],
        codec.dt_required(r["at"]),
        r["actor"],
        json.loads(r["detail"] or "{}"),
    )


def superseded_by(conn: sqlite3.Connection, user_id: str, memory_id: str) -> list[HistoryEntry]:
    """SUPERSEDE entries, not undone, whose newer value is this memory."""
    rows = conn.execute(
        "SELECT h.* FROM history h JOIN memories m ON m.id = h.record_id AND m.user_id = h.user_id "
        "WHERE h.user_id = ? AND h.event = 'SUPERSEDE' AND json_extract(h.detail, '$.by') = ? "
        "AND m.superseded_by = ? ORDER BY h.id",
        (user_id, memory_id, memory_id),
    )
    return [entry_from_row(r) for r in rows]


class SQLiteLifecycleRows(LifecycleRows):
    """The lifecycle statements (memory_changes.LifecycleRows) on one SQLite connection.

    Times are written as the fixed-width UTC text `codec.ts` makes, JSON as text; the
    writing transaction holds SQLite's one write lock, so a memory read here stays as read.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def memory(self, user_id: str, memory_id: str) -> LockedMemory | None:
        """The memory's columns a change reads; None if it is gone."""
        r = self._conn.execute(
            "SELECT * FROM memories WHERE user_id = ? AND id = ?", (user_id, memory_id)
        ).fetchone()
        if r is None:
            return None
        return LockedMemory(
            r["text"],
            r["object"],
            r["confidence"],
            r["importance"],
            json.loads(r["metadata"]),
            r["valid_to"],
            r["invalidated_at"],
            r["superseded_by"],
        )

    def add_source(self, user_id: str, memory_id: str, episode_id: str) -> bool:
        """Cite this episode as a source of the memory; False if it already was."""
        cur = self._conn.execute(
            "INSERT OR IGNORE INTO memory_sources (user_id, memory_id, episode_id) "
            "VALUES (?, ?, ?)",
            (user_id, memory_id, episode_id),
        )
        return bool(cur.rowcount)

    def drop_source(self, user_id: str, memory_id: str, episode_id: str) -> None:
        """Stop citing this episode as a source of the memory."""
        self._conn.execute(
            "DELETE FROM memory_sources WHERE user_id = ? AND memory_id = ? AND episode_id = ?",
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
        self._conn.execute(
            "UPDATE memories SET confidence = ?, importance = ?, metadata = ? "
            "WHERE user_id = ? AND id = ?",
            (confidence, importance, json.dumps(metadata, ensure_ascii=False), user_id, memory_id),
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
        self._conn.execute(
            "UPDATE memories SET text = ?, object = ?, metadata = ? WHERE user_id = ? AND id = ?",
            (text, obj, json.dumps(metadata, ensure_ascii=False), user_id, memory_id),
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
        self._set_validity(
            user_id, memory_id, codec.ts(valid_to), codec.ts(invalidated_at), superseded_by
        )

    def reopen(
        self,
        user_id: str,
        memory_id: str,
        valid_to: str | None,
        invalidated_at: str | None,
        superseded_by: str | None,
    ) -> None:
        """Put back the validity a history detail kept (stored as the detail has it)."""
        self._set_validity(user_id, memory_id, valid_to, invalidated_at, superseded_by)

    def _set_validity(
        self,
        user_id: str,
        memory_id: str,
        valid_to: str | None,
        invalidated_at: str | None,
        superseded_by: str | None,
    ) -> None:
        self._conn.execute(
            "UPDATE memories SET valid_to = ?, invalidated_at = ?, superseded_by = ? "
            "WHERE user_id = ? AND id = ?",
            (valid_to, invalidated_at, superseded_by, user_id, memory_id),
        )

    def link_supersedes(self, user_id: str, newer: str, older: str) -> None:
        """Add the 'supersedes' link from the newer memory to the older (if not there)."""
        self._conn.execute(
            "INSERT OR IGNORE INTO links (user_id, src_id, dst_id, kind, weight) "
            "VALUES (?, ?, ?, 'supersedes', 1.0)",
            (user_id, newer, older),
        )

    def unlink_supersedes(self, user_id: str, newer: str | None, older: str) -> None:
        """Remove the 'supersedes' link from the newer memory to the older."""
        self._conn.execute(
            "DELETE FROM links WHERE user_id = ? AND src_id = ? AND dst_id = ? "
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
        return history_detail(self._conn, user_id, record_id, event, old, new, at, actor, detail)

    def reverted_by(self, user_id: str, entry: HistoryEntry) -> int | None:
        """The id of the REVERT entry that undid this entry, or None."""
        done = self._conn.execute(
            "SELECT id FROM history WHERE user_id = ? AND record_id = ? AND event = 'REVERT' "
            "AND json_extract(detail, '$.reverts') = ?",
            (user_id, entry.record_id, entry.id),
        ).fetchone()
        return None if done is None else int(done[0])

    def pending_count(self, user_id: str, episode_ids: Sequence[str]) -> int:
        """How many of these (distinct) turns are marked extraction-pending."""
        (marked,) = self._conn.execute(
            f"SELECT COUNT(*) FROM extraction_pending WHERE user_id = ? "
            f"AND episode_id IN ({','.join('?' * len(episode_ids))})",
            [user_id, *episode_ids],
        ).fetchone()
        return int(marked)

    def drop_pending(self, user_id: str, episode_ids: Sequence[str]) -> None:
        """Clear these turns' extraction-pending marks."""
        self._conn.execute(
            f"DELETE FROM extraction_pending WHERE user_id = ? "
            f"AND episode_id IN ({','.join('?' * len(episode_ids))})",
            [user_id, *episode_ids],
        )

    def archive(self, user_id: str, memory_id: str, at: datetime) -> bool:
        """Archive the memory; False if it already was."""
        cur = self._conn.execute(
            "UPDATE memories SET archived = 1, archived_at = ? WHERE user_id = ? AND id = ? "
            "AND archived = 0",
            (codec.ts(at), user_id, memory_id),
        )
        return bool(cur.rowcount)

    def restore(self, user_id: str, memory_id: str) -> bool:
        """Take the memory out of the archive; False if it was not archived."""
        cur = self._conn.execute(
            "UPDATE memories SET archived = 0, archived_at = NULL WHERE user_id = ? AND id = ? "
            "AND archived = 1",
            (user_id, memory_id),
        )
        return bool(cur.rowcount)
