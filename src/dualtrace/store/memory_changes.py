"""How consolidation changes, their undo and archiving alter stored memories, shared by the
backends so they cannot drift apart.

The decisions are here: what a REINFORCE, MERGE or SUPERSEDE writes and keeps for its undo,
what an undo restores and in what order it checks, which history entries go with them.
Each backend's lifecycle.py supplies the statements as a `LifecycleRows`, in its own
dialect, run inside the caller's transaction (as `write_rules.py` leaves the SQL that finds
surviving rows to each backend's survivors.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from dualtrace.errors import ConflictError, ValidationError
from dualtrace.models import HistoryEntry
from dualtrace.store.base import MemoryChange
from dualtrace.store.write_rules import CONFIDENCE_STEP, REVERTIBLE


@dataclass(frozen=True)
class LockedMemory:
    """The columns of a stored memory that a change or its undo reads, the row locked for
    the rest of the transaction; times as the history details keep them (UTC ISO text)."""

    text: str
    object: str | None
    confidence: float
    importance: float
    metadata: dict[str, Any]
    valid_to: str | None
    invalidated_at: str | None
    superseded_by: str | None


class LifecycleRows(Protocol):
    """The statements the lifecycle decisions run, in one backend's dialect; each names its
    user, and runs inside the caller's transaction."""

    def memory(self, user_id: str, memory_id: str) -> LockedMemory | None:
        """The memory, locked until the transaction ends; None if it is gone."""
        ...

    def add_source(self, user_id: str, memory_id: str, episode_id: str) -> bool:
        """Cite this episode as a source of the memory; False if it already was."""
        ...

    def drop_source(self, user_id: str, memory_id: str, episode_id: str) -> None:
        """Stop citing this episode as a source of the memory."""
        ...

    def set_scores(
        self,
        user_id: str,
        memory_id: str,
        confidence: float,
        importance: float,
        metadata: dict[str, Any],
    ) -> None:
        """Write the memory's confidence, importance and metadata."""
        ...

    def set_text(
        self,
        user_id: str,
        memory_id: str,
        text: str | None,
        obj: str | None,
        metadata: dict[str, Any],
    ) -> None:
        """Write the memory's text, object and metadata."""
        ...

    def close(
        self,
        user_id: str,
        memory_id: str,
        valid_to: datetime,
        invalidated_at: datetime,
        superseded_by: str,
    ) -> None:
        """End the memory's validity: superseded by a newer memory."""
        ...

    def reopen(
        self,
        user_id: str,
        memory_id: str,
        valid_to: str | None,
        invalidated_at: str | None,
        superseded_by: str | None,
    ) -> None:
        """Put back the validity a history detail kept (UTC ISO text, or None)."""
        ...

    def link_supersedes(self, user_id: str, newer: str, older: str) -> None:
        """Add the 'supersedes' link from the newer memory to the older (if not there)."""
        ...

    def unlink_supersedes(self, user_id: str, newer: str | None, older: str) -> None:
        """Remove the 'supersedes' link from the newer memory to the older."""
        ...

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
        ...

    def reverted_by(self, user_id: str, entry: HistoryEntry) -> int | None:
        """The id of the REVERT entry that undid this entry, or None."""
        ...

    def pending_count(self, user_id: str, episode_ids: Sequence[str]) -> int:
        """How many of these (distinct) turns are marked extraction-pending."""
        ...

    def drop_pending(self, user_id: str, episode_ids: Sequence[str]) -> None:
        """Clear these turns' extraction-pending marks."""
        ...

    def archive(self, user_id: str, memory_id: str, at: datetime) -> bool:
        """Archive the memory; False if it already was."""
        ...

    def restore(self, user_id: str, memory_id: str) -> bool:
        """Take the memory out of the archive; False if it was not archived."""
        ...


class Positional(Protocol):
    """A stored row, read by position (sqlite3.Row, the PostgreSQL store's Row)."""

    def __getitem__(self, index: int, /) -> Any: ...


def with_subjects(rows: Iterable[Positional], subjects: Sequence[str]) -> list[str]:
    """The ids of (id, subject) rows whose subject is one of these, ignoring case."""
    folded = {s.casefold() for s in subjects}
    return [r[0] for r in rows if (r[1] or "").casefold() in folded]


def clear_pending(rows: LifecycleRows, user_id: str, episode_ids: Sequence[str]) -> bool:
    """Clear these turns' extraction-pending marks; False (nothing cleared) if one of them
    was not marked, i.e. its memories were stored already."""
    ids = list(dict.fromkeys(episode_ids))
    if rows.pending_count(user_id, ids) != len(ids):
        return False
    rows.drop_pending(user_id, ids)
    return True


def _locked(rows: LifecycleRows, user_id: str, memory_id: str) -> LockedMemory:
    memory = rows.memory(user_id, memory_id)
    if memory is None:
        raise ConflictError(f"memory {memory_id!r} of user {user_id!r} is gone; nothing to change")
    return memory


def apply_change(
    rows: LifecycleRows, user_id: str, change: MemoryChange, at: datetime, actor: str
) -> None:
    """Apply one REINFORCE / MERGE / SUPERSEDE to a stored memory, with its history entry.

    (MERGE's new search keys are written by the caller.)
    """
    memory = _locked(rows, user_id, change.memory_id)
    apply = _APPLY.get(change.action)
    if apply is None:
        raise ValueError(f"unknown change {change.action!r}")
    apply(rows, user_id, change, memory, at, actor)


def _reinforce(
    rows: LifecycleRows,
    user_id: str,
    change: MemoryChange,
    memory: LockedMemory,
    at: datetime,
    actor: str,
) -> None:
    metadata = dict(memory.metadata)
    added = [e for e in change.sources if rows.add_source(user_id, change.memory_id, e)]
    mentions = int(metadata.get("mentions", 1))
    metadata["mentions"] = mentions + 1
    confidence = memory.confidence + CONFIDENCE_STEP * (1.0 - memory.confidence)
    importance = memory.importance if change.importance is None else change.importance
    rows.set_scores(user_id, change.memory_id, confidence, importance, metadata)
    detail = {
        "sources_added": added,
        "confidence_before": memory.confidence,
        "importance_before": memory.importance,
        "mentions_before": mentions,
    }
    rows.history(user_id, change.memory_id, "REINFORCE", None, change.new_text, at, actor, detail)


def _merge(
    rows: LifecycleRows,
    user_id: str,
    change: MemoryChange,
    memory: LockedMemory,
    at: datetime,
    actor: str,
) -> None:
    metadata = dict(memory.metadata)
    added = [e for e in change.sources if rows.add_source(user_id, change.memory_id, e)]
    values_before = metadata.get("values")
    metadata["values"] = list(change.values)
    rows.set_text(user_id, change.memory_id, change.text or memory.text, change.object, metadata)
    detail = {
        "sources_added": added,
        "object_before": memory.object,
        "values_before": values_before,
        "merged": change.new_text,
        "value": change.values[-1] if change.values else None,
    }
    rows.history(
        user_id,
        change.memory_id,
        "MERGE",
        memory.text,
        change.text or memory.text,
        at,
        actor,
        detail,
    )


def _supersede(
    rows: LifecycleRows,
    user_id: str,
    change: MemoryChange,
    memory: LockedMemory,
    at: datetime,
    actor: str,
) -> None:
    assert change.by_id is not None, "SUPERSEDE needs the newer memory"
    rows.close(user_id, change.memory_id, change.valid_to or at, at, change.by_id)
    rows.link_supersedes(user_id, change.by_id, change.memory_id)
    detail = {
        "by": change.by_id,
        "valid_to_before": memory.valid_to,
        "invalidated_at_before": memory.invalidated_at,
        "superseded_by_before": memory.superseded_by,
        **(change.why or {}),
    }
    rows.history(
        user_id, change.memory_id, "SUPERSEDE", memory.text, change.new_text, at, actor, detail
    )


_Apply = Callable[[LifecycleRows, str, MemoryChange, LockedMemory, datetime, str], None]
_APPLY: dict[str, _Apply] = {"REINFORCE": _reinforce, "MERGE": _merge, "SUPERSEDE": _supersede}


def revert(
    rows: LifecycleRows, user_id: str, entry: HistoryEntry, at: datetime, actor: str
) -> None:
    """Undo a REINFORCE, MERGE or SUPERSEDE entry (MERGE's old keys are the caller's)."""
    if entry.event not in REVERTIBLE:
        raise ValidationError(
            f"history entry {entry.id} is a {entry.event}; only {', '.join(REVERTIBLE)} "
            "(and ADD/UPDATE through Memory.revert) can be undone"
        )
    done = rows.reverted_by(user_id, entry)
    if done is not None:
        raise ConflictError(f"history entry {entry.id} was already undone (entry {done})")
    memory = _locked(rows, user_id, entry.record_id)
    if entry.event in ("REINFORCE", "MERGE"):
        for episode_id in entry.detail.get("sources_added", []):
            rows.drop_source(user_id, entry.record_id, episode_id)
    _UNDO[entry.event](rows, user_id, entry, dict(memory.metadata))
    rows.history(
        user_id,
        entry.record_id,
        "REVERT",
        entry.new_text,
        entry.old_text,
        at,
        actor,
        {"reverts": entry.id, "event": entry.event},
    )


def _undo_reinforce(
    rows: LifecycleRows, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    metadata["mentions"] = d.get("mentions_before", 1)
    rows.set_scores(
        user_id, entry.record_id, d["confidence_before"], d["importance_before"], metadata
    )


def _undo_merge(
    rows: LifecycleRows, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    if d.get("values_before") is None:
        metadata.pop("values", None)
    else:
        metadata["values"] = d["values_before"]
    rows.set_text(user_id, entry.record_id, entry.old_text, d.get("object_before"), metadata)


def _undo_supersede(
    rows: LifecycleRows, user_id: str, entry: HistoryEntry, metadata: dict[str, Any]
) -> None:
    d = entry.detail
    rows.reopen(
        user_id,
        entry.record_id,
        d.get("valid_to_before"),
        d.get("invalidated_at_before"),
        d.get("superseded_by_before"),
    )
    rows.unlink_supersedes(user_id, d.get("by"), entry.record_id)


_Undo = Callable[[LifecycleRows, str, HistoryEntry, dict[str, Any]], None]
_UNDO: dict[str, _Undo] = {
    "REINFORCE": _undo_reinforce,
    "MERGE": _undo_merge,
    "SUPERSEDE": _undo_supersede,
}


def archive(
    rows: LifecycleRows,
    user_id: str,
    ids: Sequence[str],
    reason: str,
    at: datetime,
    actor: str,
) -> int:
    """Take memories out of default search (restorable); returns how many changed."""
    changed = 0
    for memory_id in ids:
        if rows.archive(user_id, memory_id, at):
            changed += 1
            rows.history(user_id, memory_id, "ARCHIVE", None, None, at, actor, {"reason": reason})
    return changed


def restore(rows: LifecycleRows, user_id: str, memory_id: str, at: datetime, actor: str) -> bool:
    """Bring an archived memory back into default search; False if it was not archived."""
    if not rows.restore(user_id, memory_id):
        return False
    rows.history(user_id, memory_id, "RESTORE", None, None, at, actor, {})
    return True
