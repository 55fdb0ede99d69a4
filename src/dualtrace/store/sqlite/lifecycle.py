"""Memory lifecycle in SQLite: consolidation changes, their undo, and maintenance passes.

Functions take an open connection inside the caller's transaction; `SQLiteStore` owns the
transactions, the search-key writes and the audit log.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from dualtrace.errors import ConflictError, ValidationError
from dualtrace.models import HistoryEntry
from dualtrace.store.base import MemoryChange
from dualtrace.store.sqlite import codec

# A fact said again gains this much confidence (of what it lacks).
CONFIDENCE_STEP = 0.2


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
    metadata = json.loads(row["metadata"])
    if change.action == "REINFORCE":
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
    elif change.action == "MERGE":
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
    elif change.action == "SUPERSEDE":
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
                  "superseded_by_before": row["superseded_by"]}  # fmt: skip
        history_detail(conn, user_id, change.memory_id, "SUPERSEDE", row["text"],
                       change.new_text, at, actor, detail)  # fmt: skip
    else:
        raise ValueError(f"unknown change {change.action!r}")


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


REVERTIBLE = ("REINFORCE", "MERGE", "SUPERSEDE")


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
    d = entry.detail
    metadata = json.loads(row["metadata"])
    if entry.event in ("REINFORCE", "MERGE"):
        for episode_id in d.get("sources_added", []):
            conn.execute(
                "DELETE FROM memory_sources WHERE user_id = ? AND memory_id = ? AND episode_id = ?",
                (user_id, entry.record_id, episode_id),
            )
    if entry.event == "REINFORCE":
        metadata["mentions"] = d.get("mentions_before", 1)
        conn.execute(
            "UPDATE memories SET confidence = ?, importance = ?, metadata = ? "
            "WHERE user_id = ? AND id = ?",
            (d["confidence_before"], d["importance_before"],
             json.dumps(metadata, ensure_ascii=False), user_id, entry.record_id),
        )  # fmt: skip
    elif entry.event == "MERGE":
        if d.get("values_before") is None:
            metadata.pop("values", None)
        else:
            metadata["values"] = d["values_before"]
        conn.execute(
            "UPDATE memories SET text = ?, object = ?, metadata = ? WHERE user_id = ? AND id = ?",
            (entry.old_text, d.get("object_before"), json.dumps(metadata, ensure_ascii=False),
             user_id, entry.record_id),
        )  # fmt: skip
    else:  # SUPERSEDE
        conn.execute(
            "UPDATE memories SET valid_to = ?, invalidated_at = ?, superseded_by = ? "
            "WHERE user_id = ? AND id = ?",
            (d.get("valid_to_before"), d.get("invalidated_at_before"),
             d.get("superseded_by_before"), user_id, entry.record_id),
        )  # fmt: skip
        conn.execute(
            "DELETE FROM links WHERE user_id = ? AND src_id = ? AND dst_id = ? "
            "AND kind = 'supersedes'",
            (user_id, d.get("by"), entry.record_id),
        )
    history_detail(conn, user_id, entry.record_id, "REVERT", entry.new_text, entry.old_text,
                   at, actor, {"reverts": entry.id, "event": entry.event})  # fmt: skip


# -- maintenance ----------------------------------------------------------------------------


def user_ids(conn: sqlite3.Connection) -> list[str]:
    """Every user with stored memories or turns."""
    rows = conn.execute(
        "SELECT user_id FROM episodes UNION SELECT user_id FROM memories ORDER BY 1"
    )
    return [r[0] for r in rows]


def expired_ids(conn: sqlite3.Connection, user_id: str, now: datetime) -> list[str]:
    """Memories in default search whose `expire_at` has passed."""
    rows = conn.execute(
        "SELECT id FROM memories WHERE user_id = ? AND archived = 0 AND expire_at IS NOT NULL "
        "AND expire_at <= ? ORDER BY id",
        (user_id, codec.ts(now)),
    )
    return [r[0] for r in rows]


def usage_rows(conn: sqlite3.Connection, user_id: str) -> list[tuple[str, float, datetime]]:
    """(id, importance, last used) of memories in default search; last used is the last
    recall, else when the memory began to hold, else when it was recorded."""
    rows = conn.execute(
        "SELECT id, importance, COALESCE(last_accessed_at, valid_from, recorded_at) "
        "FROM memories WHERE user_id = ? AND archived = 0",
        (user_id,),
    )
    return [(r[0], float(r[1]), codec.dt_required(r[2])) for r in rows]


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


def normalise_importance(
    conn: sqlite3.Connection, user_id: str, max_mean: float, target_mean: float, min_count: int
) -> bool:
    """Scale the user's importances back to `target_mean` when their mean passed `max_mean`."""
    count, mean = conn.execute(
        "SELECT COUNT(*), AVG(importance) FROM memories WHERE user_id = ?", (user_id,)
    ).fetchone()
    if count < min_count or mean is None or mean <= max_mean:
        return False
    conn.execute(
        "UPDATE memories SET importance = importance * ? WHERE user_id = ?",
        (target_mean / mean, user_id),
    )
    return True


def unlinked(conn: sqlite3.Connection, user_id: str, limit: int) -> list[tuple[str, list[str]]]:
    """Memories in default search with entities but no links yet, with their canonical
    entities (most recent first, at most `limit`)."""
    rows = conn.execute(
        "SELECT m.id, GROUP_CONCAT(COALESCE(e.canonical_norm, e.norm_name), char(31)) "
        "FROM memories m JOIN memory_entities me ON me.memory_id = m.id AND me.user_id = m.user_id "
        "JOIN entities e ON e.id = me.entity_id "
        "WHERE m.user_id = ? AND m.archived = 0 AND NOT EXISTS "
        "(SELECT 1 FROM links l WHERE l.user_id = m.user_id "
        "AND (l.src_id = m.id OR l.dst_id = m.id)) "
        "GROUP BY m.id ORDER BY m.recorded_at DESC LIMIT ?",
        (user_id, limit),
    )
    return [(r[0], sorted(set(r[1].split("\x1f")))) for r in rows]
