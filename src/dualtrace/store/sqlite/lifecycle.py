"""Memory lifecycle SQL: consolidation changes, their undo, history entries, archiving.

Functions take an open connection inside the caller's transaction; the MemoryStore mixin
(memories.py) owns the transactions, the search-key writes and the audit log.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from dualtrace.errors import ConflictError, ValidationError
from dualtrace.models import HistoryEntry
from dualtrace.store.base import MemoryChange
from dualtrace.store.sqlite import codec
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
    conn: sqlite3.Connection, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
) -> list[str]:
    """Ids of valid memories with one of these predicates and subjects (case-insensitive)."""
    if not subjects or not predicates:
        return []
    folded = sorted({s.casefold() for s in subjects})
    rows = conn.execute(
        f"SELECT id, subject FROM memories WHERE user_id = ? "
        f"AND predicate IN ({','.join('?' * len(predicates))}) "
        "AND invalidated_at IS NULL AND valid_to IS NULL AND archived = 0",
        [user_id, *predicates],
    )
    return [r[0] for r in rows if (r[1] or "").casefold() in folded]


def predicate_rows(
    conn: sqlite3.Connection, user_id: str, predicates: Sequence[str], include_invalid: bool
) -> list[str]:
    """Ids of memories with one of these predicates, oldest first (valid ones only unless
    `include_invalid`; never archived ones)."""
    if not predicates:
        return []
    valid = "" if include_invalid else "AND invalidated_at IS NULL AND valid_to IS NULL "
    rows = conn.execute(
        f"SELECT id FROM memories WHERE user_id = ? "
        f"AND predicate IN ({','.join('?' * len(predicates))}) {valid}AND archived = 0 "
        "ORDER BY valid_from, recorded_at, id",
        [user_id, *predicates],
    )
    return [r[0] for r in rows]


def history_detail(
    conn: sqlite3.Connection, user_id: str, record_id: str, event: str, old: str | None,
    new: str | None, at: datetime, actor: str, detail: dict[str, Any],
) -> int:  # fmt: skip
    """Append a history entry with its undo detail; returns its id."""
    cur = conn.execute(
        "INSERT INTO history (user_id, record_id, event, old_text, new_text, at, actor, detail) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (user_id, record_id, event, old, new, codec.ts(at), actor,
         json.dumps(detail, ensure_ascii=False)),
    )  # fmt: skip
    return int(cur.lastrowid or 0)


def _memory_row(conn: sqlite3.Connection, user_id: str, memory_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM memories WHERE user_id = ? AND id = ?", (user_id, memory_id)
    ).fetchone()
    if row is None:
        raise ConflictError(f"memory {memory_id!r} of user {user_id!r} is gone; nothing to change")
    return row


def _add_sources(
    conn: sqlite3.Connection, user_id: str, memory_id: str, sources: Sequence[str]
) -> list[str]:
    added = []
    for episode_id in sources:
        cur = conn.execute(
            "INSERT OR IGNORE INTO memory_sources (user_id, memory_id, episode_id) "
            "VALUES (?, ?, ?)",
            (user_id, memory_id, episode_id),
        )
        if cur.rowcount:
            added.append(episode_id)
    return added


def apply_change(
    conn: sqlite3.Connection, user_id: str, change: MemoryChange, at: datetime, actor: str
) -> None:
    """Apply one REINFORCE / MERGE / SUPERSEDE to a stored memory, with its history entry.

    (MERGE's new search keys are written by the caller.)
    """
    row = _memory_row(conn, user_id, change.memory_id)
    apply = _APPLY.get(change.action)
    if apply is None:
        raise ValueError(f"unknown change {change.action!r}")
    apply(conn, user_id, change, row, at, actor)


def _reinforce(
    conn: sqlite3.Connection, user_id: str, change: MemoryChange, row: sqlite3.Row,
    at: datetime, actor: str,
) -> None:  # fmt: skip
    metadata = json.loads(row["metadata"])
    added = _add_sources(conn, user_id, change.memory_id, change.sources)
    mentions = int(metadata.get("mentions", 1))
    metadata["mentions"] = mentions + 1
    confidence = row["confidence"] + CONFIDENCE_STEP * (1.0 - row["confidence"])
    importance = row["importance"] if change.importance is None else change.importance
    conn.execute(
        "UPDATE memories SET confidence = ?, importance = ?, metadata = ? "
        "WHERE user_id = ? AND id = ?",
        (confidence, importance, json.dumps(metadata, ensure_ascii=False), user_id,
         change.memory_id),
    )  # fmt: skip
    detail = {"sources_added": added, "confidence_before": row["confidence"],
              "importance_before": row["importance"], "mentions_before": mentions}  # fmt: skip
    history_detail(conn, user_id, change.memory_id, "REINFORCE", None, change.new_text,
                   at, actor, detail)  # fmt: skip


def _merge(
    conn: sqlite3.Connection, user_id: str, change: MemoryChange, row: sqlite3.Row,
    at: datetime, actor: str,
) -> None:  # fmt: skip
    metadata = json.loads(row["metadata"])
    added = _add_sources(conn, user_id, change.memory_id, change.sources)
    values_before = metadata.get("values")
    metadata["values"] = list(change.values)
    conn.execute(
        "UPDATE memories SET text = ?, object = ?, metadata = ? WHERE user_id = ? AND id = ?",
        (change.text or row["text"], change.object, json.dumps(metadata, ensure_ascii=False),
         user_id, change.memory_id),
    )  # fmt: skip
    detail = {"sources_added": added, "object_before": row["object"],
              "values_before": values_before, "merged": change.new_text,
              "value": change.values[-1] if change.values else None}  # fmt: skip
    history_detail(conn, user_id, change.memory_id, "MERGE", row["text"],
                   change.text or row["text"], at, actor, detail)  # fmt: skip


def _supersede(
    conn: sqlite3.Connection, user_id: str, change: MemoryChange, row: sqlite3.Row,
    at: datetime, actor: str,
) -> None:  # fmt: skip
    assert change.by_id is not None, "SUPERSEDE needs the newer memory"
    conn.execute(
        "UPDATE memories SET valid_to = ?, invalidated_at = ?, superseded_by = ? "
        "WHERE user_id = ? AND id = ?",
        (codec.ts(change.valid_to or at), codec.ts(at), change.by_id, user_id,
         change.memory_id),
    )  # fmt: skip
    conn.execute(
        "INSERT OR IGNORE INTO links (user_id, src_id, dst_id, kind, weight) "
        "VALUES (?, ?, ?, 'supersedes', 1.0)",
        (user_id, change.by_id, change.memory_id),
    )
    detail = {"by": change.by_id, "valid_to_before": row["valid_to"],
              "invalidated_at_before": row["invalidated_at"],
              "superseded_by_before": row["superseded_by"], **(change.why or {})}  # fmt: skip
    history_detail(conn, user_id, change.memory_id, "SUPERSEDE", row["text"],
                   change.new_text, at, actor, detail)  # fmt: skip


_Apply = Callable[[sqlite3.Connection, str, MemoryChange, sqlite3.Row, datetime, str], None]
_APPLY: dict[str, _Apply] = {"REINFORCE": _reinforce, "MERGE": _merge, "SUPERSEDE": _supersede}


def history_entry(conn: sqlite3.Connection, user_id: str, history_id: int) -> HistoryEntry | None:
    """One history entry of the user's, or None."""
    r = conn.execute(
        "SELECT * FROM history WHERE user_id = ? AND id = ?", (user_id, history_id)
    ).fetchone()
    return None if r is None else entry_from_row(r)


def entry_from_row(r: sqlite3.Row) -> HistoryEntry:
    """A HistoryEntry from a `history` row."""
    return HistoryEntry(
        r["id"], r["record_id"], r["event"], r["old_text"], r["new_text"],
        codec.dt_required(r["at"]), r["actor"], json.loads(r["detail"] or "{}"),
    )  # fmt: skip


def superseded_by(conn: sqlite3.Connection, user_id: str, memory_id: str) -> list[HistoryEntry]:
    """SUPERSEDE entries, not undone, whose newer value is this memory."""
    rows = conn.execute(
        "SELECT h.* FROM history h JOIN memories m ON m.id = h.record_id AND m.user_id = h.user_id "
        "WHERE h.user_id = ? AND h.event = 'SUPERSEDE' AND json_extract(h.detail, '$.by') = ? "
        "AND m.superseded_by = ? ORDER BY h.id",
        (user_id, memory_id, memory_id),
    )
    return [entry_from_row(r) for r in rows]


def revert(
    conn: sqlite3.Connection, user_id: str, entry: HistoryEntry, at: datetime, actor: str
) -> None:
    """Undo a REINFORCE, MERGE or SUPERSEDE entry (MERGE's old keys are the caller's)."""
    if entry.event not in REVERTIBLE:
        raise ValidationError(
            f"history entry {entry.id} is a {entry.event}; only {', '.join(REVERTIBLE)} "
            "(and ADD/UPDATE through Memory.revert) can be undone"
        )
    done = conn.execute(
        "SELECT id FROM history WHERE user_id = ? AND record_id = ? AND event = 'REVERT' "
        "AND json_extract(detail, '$.reverts') = ?",
        (user_id, entry.record_id, entry.id),
    ).fetchone()
    if done is not None:
        raise ConflictError(f"history entry {entry.id} was already undone (entry {done[0]})")
    row = _memory_row(conn, user_id, entry.record_id)
    if entry.event in ("REINFORCE", "MERGE"):
        for episode_id in entry.detail.get("sources_added", []):
            conn.execute(
                "DELETE FROM memory_sources WHERE user_id = ? AND memory_id = ? AND episode_id = ?",
                (user_id, entry.record_id, episode_id),
            )
    _UNDO[entry.event](conn, user_id, entry, json.loads(row["metadata"]))
    history_detail(conn, user_id, entry.record_id, "REVERT", entry.new_text, entry.old_text,
                   at, actor, {"reverts": entry.id, "event": entry.event})  # fmt: skip


def _undo_reinforce(
    conn: sqlite3.Connection, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    metadata["mentions"] = d.get("mentions_before", 1)
    conn.execute(
        "UPDATE memories SET confidence = ?, importance = ?, metadata = ? "
        "WHERE user_id = ? AND id = ?",
        (d["confidence_before"], d["importance_before"],
         json.dumps(metadata, ensure_ascii=False), user_id, entry.record_id),
    )  # fmt: skip


def _undo_merge(
    conn: sqlite3.Connection, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    if d.get("values_before") is None:
        metadata.pop("values", None)
    else:
        metadata["values"] = d["values_before"]
    conn.execute(
        "UPDATE memories SET text = ?, object = ?, metadata = ? WHERE user_id = ? AND id = ?",
        (entry.old_text, d.get("object_before"), json.dumps(metadata, ensure_ascii=False),
         user_id, entry.record_id),
    )  # fmt: skip


def _undo_supersede(
    conn: sqlite3.Connection, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    conn.execute(
        "UPDATE memories SET valid_to = ?, invalidated_at = ?, superseded_by = ? "
        "WHERE user_id = ? AND id = ?",
        (d.get("valid_to_before"), d.get("invalidated_at_before"),
         d.get("superseded_by_before"), user_id, entry.record_id),
    )  # fmt: skip
    conn.execute(
        "DELETE FROM links WHERE user_id = ? AND src_id = ? AND dst_id = ? AND kind = 'supersedes'",
        (user_id, d.get("by"), entry.record_id),
    )


_Undo = Callable[[sqlite3.Connection, str, HistoryEntry, dict[str, Any]], None]
_UNDO: dict[str, _Undo] = {
    "REINFORCE": _undo_reinforce, "MERGE": _undo_merge, "SUPERSEDE": _undo_supersede,
}  # fmt: skip


def clear_pending(conn: sqlite3.Connection, user_id: str, episode_ids: Sequence[str]) -> bool:
    """Clear these turns' extraction-pending marks; False (nothing cleared) if one of them
    was not marked, i.e. its memories were stored already."""
    ids = list(dict.fromkeys(episode_ids))
    marks = ",".join("?" * len(ids))
    (marked,) = conn.execute(
        f"SELECT COUNT(*) FROM extraction_pending WHERE user_id = ? AND episode_id IN ({marks})",
        [user_id, *ids],
    ).fetchone()
    if marked != len(ids):
        return False
    conn.execute(
        f"DELETE FROM extraction_pending WHERE user_id = ? AND episode_id IN ({marks})",
        [user_id, *ids],
    )
    return True


# -- archive --------------------------------------------------------------------------------


def archive(
    conn: sqlite3.Connection, user_id: str, ids: Sequence[str], reason: str, at: datetime,
    actor: str,
) -> int:  # fmt: skip
    """Take memories out of default search (restorable); returns how many changed."""
    changed = 0
    for memory_id in ids:
        cur = conn.execute(
            "UPDATE memories SET archived = 1, archived_at = ? WHERE user_id = ? AND id = ? "
            "AND archived = 0",
            (codec.ts(at), user_id, memory_id),
        )
        if cur.rowcount:
            changed += 1
            history_detail(conn, user_id, memory_id, "ARCHIVE", None, None, at, actor,
                           {"reason": reason})  # fmt: skip
    return changed


def restore(
    conn: sqlite3.Connection, user_id: str, memory_id: str, at: datetime, actor: str
) -> bool:
    """Bring an archived memory back into default search; False if it was not archived."""
    cur = conn.execute(
        "UPDATE memories SET archived = 0, archived_at = NULL WHERE user_id = ? AND id = ? "
        "AND archived = 1",
        (user_id, memory_id),
    )
    if cur.rowcount:
        history_detail(conn, user_id, memory_id, "RESTORE", None, None, at, actor, {})
    return bool(cur.rowcount)
