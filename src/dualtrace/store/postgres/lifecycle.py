"""Memory lifecycle SQL for PostgreSQL: consolidation changes, their undo, history entries,
archiving (the same decisions as the SQLite store's lifecycle.py, in PostgreSQL's dialect).

Functions take an open cursor inside the caller's transaction; the MemoryStore mixin
(memories.py) owns the transactions, the search-key writes and the audit log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from dualtrace.errors import ConflictError, ValidationError
from dualtrace.models import HistoryEntry
from dualtrace.store.base import MemoryChange
from dualtrace.store.postgres import codec
from dualtrace.store.postgres.codec import Row
from dualtrace.store.postgres.connection import Cursor

# The same tuning on both backends.
from dualtrace.store.write_rules import (
    CONFIDENCE_STEP,
    MAX_MEAN_IMPORTANCE,
    MIN_MEMORIES_TO_NORMALISE,
    NORMALISED_MEAN_IMPORTANCE,
    REVERTIBLE,
)

__all__ = [
    "CONFIDENCE_STEP", "MAX_MEAN_IMPORTANCE", "MIN_MEMORIES_TO_NORMALISE",
    "NORMALISED_MEAN_IMPORTANCE", "REVERTIBLE", "apply_change", "archive", "clear_pending",
    "entry_from_row", "history_detail", "history_entry", "predicate_rows", "restore", "revert",
    "subject_rows", "superseded_by",
]  # fmt: skip


def subject_rows(
    cur: Cursor, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
) -> list[str]:
    """Ids of valid memories with one of these predicates and subjects (case-insensitive)."""
    if not subjects or not predicates:
        return []
    folded = sorted({s.casefold() for s in subjects})
    rows = cur.execute(
        "SELECT id, subject FROM memories WHERE user_id = %s AND predicate = ANY(%s) "
        "AND invalidated_at IS NULL AND valid_to IS NULL AND NOT archived ORDER BY recorded_at, id",
        (user_id, list(predicates)),
    ).fetchall()
    return [r[0] for r in rows if (r[1] or "").casefold() in folded]


def predicate_rows(
    cur: Cursor, user_id: str, predicates: Sequence[str], include_invalid: bool
) -> list[str]:
    """Ids of memories with one of these predicates, oldest first (valid ones only unless
    `include_invalid`; never archived ones)."""
    if not predicates:
        return []
    valid = "" if include_invalid else "AND invalidated_at IS NULL AND valid_to IS NULL "
    rows = cur.execute(
        f"SELECT id FROM memories WHERE user_id = %s AND predicate = ANY(%s) {valid}"
        "AND NOT archived ORDER BY valid_from NULLS FIRST, recorded_at, id".encode(),
        (user_id, list(predicates)),
    ).fetchall()
    return [r[0] for r in rows]


def history_detail(
    cur: Cursor, user_id: str, record_id: str, event: str, old: str | None,
    new: str | None, at: datetime, actor: str, detail: dict[str, Any],
) -> int:  # fmt: skip
    """Append a history entry with its undo detail; returns its id."""
    row = cur.execute(
        "INSERT INTO history (user_id, record_id, event, old_text, new_text, at, actor, detail) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
        (user_id, record_id, event, old, new, at, actor, codec.jsonb(detail)),
    ).fetchone()
    return int(row[0]) if row is not None else 0


def _memory_row(cur: Cursor, user_id: str, memory_id: str) -> Row:
    row: Row | None = cur.execute(
        "SELECT * FROM memories WHERE user_id = %s AND id = %s FOR UPDATE", (user_id, memory_id)
    ).fetchone()
    if row is None:
        raise ConflictError(f"memory {memory_id!r} of user {user_id!r} is gone; nothing to change")
    return row


def _add_sources(
    cur: Cursor, user_id: str, memory_id: str, sources: Sequence[str]
) -> list[str]:
    added = []
    for episode_id in sources:
        cur.execute(
            "INSERT INTO memory_sources (user_id, memory_id, episode_id) "
            "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            (user_id, memory_id, episode_id),
        )
        if cur.rowcount:
            added.append(episode_id)
    return added


def apply_change(
    cur: Cursor, user_id: str, change: MemoryChange, at: datetime, actor: str
) -> None:
    """Apply one REINFORCE / MERGE / SUPERSEDE to a stored memory, with its history entry.

    (MERGE's new search keys are written by the caller.)
    """
    row = _memory_row(cur, user_id, change.memory_id)
    apply = _APPLY.get(change.action)
    if apply is None:
        raise ValueError(f"unknown change {change.action!r}")
    apply(cur, user_id, change, row, at, actor)


def _reinforce(
    cur: Cursor, user_id: str, change: MemoryChange, row: Row,
    at: datetime, actor: str,
) -> None:  # fmt: skip
    metadata = dict(row["metadata"])
    added = _add_sources(cur, user_id, change.memory_id, change.sources)
    mentions = int(metadata.get("mentions", 1))
    metadata["mentions"] = mentions + 1
    confidence = row["confidence"] + CONFIDENCE_STEP * (1.0 - row["confidence"])
    importance = row["importance"] if change.importance is None else change.importance
    cur.execute(
        "UPDATE memories SET confidence = %s, importance = %s, metadata = %s "
        "WHERE user_id = %s AND id = %s",
        (confidence, importance, codec.jsonb(metadata), user_id, change.memory_id),
    )  # fmt: skip
    detail = {"sources_added": added, "confidence_before": row["confidence"],
              "importance_before": row["importance"], "mentions_before": mentions}  # fmt: skip
    history_detail(cur, user_id, change.memory_id, "REINFORCE", None, change.new_text,
                   at, actor, detail)  # fmt: skip


def _merge(
    cur: Cursor, user_id: str, change: MemoryChange, row: Row,
    at: datetime, actor: str,
) -> None:  # fmt: skip
    metadata = dict(row["metadata"])
    added = _add_sources(cur, user_id, change.memory_id, change.sources)
    values_before = metadata.get("values")
    metadata["values"] = list(change.values)
    cur.execute(
        "UPDATE memories SET text = %s, object = %s, metadata = %s WHERE user_id = %s AND id = %s",
        (change.text or row["text"], change.object, codec.jsonb(metadata), user_id,
         change.memory_id),
    )  # fmt: skip
    detail = {"sources_added": added, "object_before": row["object"],
              "values_before": values_before, "merged": change.new_text,
              "value": change.values[-1] if change.values else None}  # fmt: skip
    history_detail(cur, user_id, change.memory_id, "MERGE", row["text"],
                   change.text or row["text"], at, actor, detail)  # fmt: skip


def _supersede(
    cur: Cursor, user_id: str, change: MemoryChange, row: Row,
    at: datetime, actor: str,
) -> None:  # fmt: skip
    assert change.by_id is not None, "SUPERSEDE needs the newer memory"
    cur.execute(
        "UPDATE memories SET valid_to = %s, invalidated_at = %s, superseded_by = %s "
        "WHERE user_id = %s AND id = %s",
        (change.valid_to or at, at, change.by_id, user_id, change.memory_id),
    )  # fmt: skip
    cur.execute(
        "INSERT INTO links (user_id, src_id, dst_id, kind, weight) "
        "VALUES (%s, %s, %s, 'supersedes', 1.0) ON CONFLICT DO NOTHING",
        (user_id, change.by_id, change.memory_id),
    )
    detail = {"by": change.by_id, "valid_to_before": codec.ts(row["valid_to"]),
              "invalidated_at_before": codec.ts(row["invalidated_at"]),
              "superseded_by_before": row["superseded_by"], **(change.why or {})}  # fmt: skip
    history_detail(cur, user_id, change.memory_id, "SUPERSEDE", row["text"],
                   change.new_text, at, actor, detail)  # fmt: skip


_Apply = Callable[[Cursor, str, MemoryChange, Row, datetime, str], None]
_APPLY: dict[str, _Apply] = {"REINFORCE": _reinforce, "MERGE": _merge, "SUPERSEDE": _supersede}


def history_entry(cur: Cursor, user_id: str, history_id: int) -> HistoryEntry | None:
    """One history entry of the user's, or None."""
    r = cur.execute(
        "SELECT * FROM history WHERE user_id = %s AND id = %s", (user_id, history_id)
    ).fetchone()
    return None if r is None else entry_from_row(r)


def entry_from_row(r: Row) -> HistoryEntry:
    """A HistoryEntry from a `history` row."""
    return HistoryEntry(
        r["id"], r["record_id"], r["event"], r["old_text"], r["new_text"],
        codec.utc_required(r["at"]), r["actor"], r["detail"],
    )  # fmt: skip


def superseded_by(cur: Cursor, user_id: str, memory_id: str) -> list[HistoryEntry]:
    """SUPERSEDE entries, not undone, whose newer value is this memory."""
    rows = cur.execute(
        "SELECT h.* FROM history h JOIN memories m ON m.user_id = h.user_id "
        "AND m.id = h.record_id WHERE h.user_id = %s AND h.event = 'SUPERSEDE' "
        "AND h.detail ->> 'by' = %s AND m.superseded_by = %s ORDER BY h.id",
        (user_id, memory_id, memory_id),
    ).fetchall()
    return [entry_from_row(r) for r in rows]




def revert(
    cur: Cursor, user_id: str, entry: HistoryEntry, at: datetime, actor: str
) -> None:
    """Undo a REINFORCE, MERGE or SUPERSEDE entry (MERGE's old keys are the caller's)."""
    if entry.event not in REVERTIBLE:
        raise ValidationError(
            f"history entry {entry.id} is a {entry.event}; only {', '.join(REVERTIBLE)} "
            "(and ADD/UPDATE through Memory.revert) can be undone"
        )
    done = cur.execute(
        "SELECT id FROM history WHERE user_id = %s AND record_id = %s AND event = 'REVERT' "
        "AND detail ->> 'reverts' = %s",
        (user_id, entry.record_id, str(entry.id)),
    ).fetchone()
    if done is not None:
        raise ConflictError(f"history entry {entry.id} was already undone (entry {done[0]})")
    row = _memory_row(cur, user_id, entry.record_id)
    if entry.event in ("REINFORCE", "MERGE"):
        for episode_id in entry.detail.get("sources_added", []):
            cur.execute(
                "DELETE FROM memory_sources WHERE user_id = %s AND memory_id = %s "
                "AND episode_id = %s",
                (user_id, entry.record_id, episode_id),
            )
    _UNDO[entry.event](cur, user_id, entry, dict(row["metadata"]))
    history_detail(cur, user_id, entry.record_id, "REVERT", entry.new_text, entry.old_text,
                   at, actor, {"reverts": entry.id, "event": entry.event})  # fmt: skip


def _undo_reinforce(
    cur: Cursor, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    metadata["mentions"] = d.get("mentions_before", 1)
    cur.execute(
        "UPDATE memories SET confidence = %s, importance = %s, metadata = %s "
        "WHERE user_id = %s AND id = %s",
        (d["confidence_before"], d["importance_before"], codec.jsonb(metadata), user_id,
         entry.record_id),
    )  # fmt: skip


def _undo_merge(
    cur: Cursor, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    if d.get("values_before") is None:
        metadata.pop("values", None)
    else:
        metadata["values"] = d["values_before"]
    cur.execute(
        "UPDATE memories SET text = %s, object = %s, metadata = %s WHERE user_id = %s AND id = %s",
        (entry.old_text, d.get("object_before"), codec.jsonb(metadata), user_id,
         entry.record_id),
    )  # fmt: skip


def _undo_supersede(
    cur: Cursor, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    cur.execute(
        "UPDATE memories SET valid_to = %s::timestamptz, invalidated_at = %s::timestamptz, "
        "superseded_by = %s WHERE user_id = %s AND id = %s",
        (d.get("valid_to_before"), d.get("invalidated_at_before"),
         d.get("superseded_by_before"), user_id, entry.record_id),
    )  # fmt: skip
    cur.execute(
        "DELETE FROM links WHERE user_id = %s AND src_id = %s AND dst_id = %s "
        "AND kind = 'supersedes'",
        (user_id, d.get("by"), entry.record_id),
    )


_Undo = Callable[[Cursor, str, HistoryEntry, dict[str, Any]], None]
_UNDO: dict[str, _Undo] = {
    "REINFORCE": _undo_reinforce, "MERGE": _undo_merge, "SUPERSEDE": _undo_supersede,
}  # fmt: skip


def clear_pending(cur: Cursor, user_id: str, episode_ids: Sequence[str]) -> bool:
    """Clear these turns' extraction-pending marks; False (nothing cleared) if one of them
    was not marked, i.e. its memories were stored already."""
    ids = list(dict.fromkeys(episode_ids))
    row = cur.execute(
        "SELECT count(*) FROM extraction_pending WHERE user_id = %s AND episode_id = ANY(%s)",
        (user_id, ids),
    ).fetchone()
    if row is None or row[0] != len(ids):
        return False
    cur.execute(
        "DELETE FROM extraction_pending WHERE user_id = %s AND episode_id = ANY(%s)",
        (user_id, ids),
    )
    return True


# -- archive --------------------------------------------------------------------------------


def archive(
    cur: Cursor, user_id: str, ids: Sequence[str], reason: str, at: datetime,
    actor: str,
) -> int:  # fmt: skip
    """Take memories out of default search (restorable); returns how many changed."""
    changed = 0
    for memory_id in ids:
        cur.execute(
            "UPDATE memories SET archived = true, archived_at = %s WHERE user_id = %s "
            "AND id = %s AND NOT archived",
            (at, user_id, memory_id),
        )
        if cur.rowcount:
            changed += 1
            history_detail(cur, user_id, memory_id, "ARCHIVE", None, None, at, actor,
                           {"reason": reason})  # fmt: skip
    return changed


def restore(
    cur: Cursor, user_id: str, memory_id: str, at: datetime, actor: str
) -> bool:
    """Bring an archived memory back into default search; False if it was not archived."""
    cur.execute(
        "UPDATE memories SET archived = false, archived_at = NULL WHERE user_id = %s "
        "AND id = %s AND archived",
        (user_id, memory_id),
    )
    if cur.rowcount:
        history_detail(cur, user_id, memory_id, "RESTORE", None, None, at, actor, {})
    return bool(cur.rowcount)
