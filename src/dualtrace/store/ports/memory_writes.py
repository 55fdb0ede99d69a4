"""The memory role, write side: inserts, edits, undo, reinforcement, archiving."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from dualtrace.models import HistoryEntry, MemoryRecord
from dualtrace.store.ports.records import IndexEntry, MemoryChange, MemoryGraph


class MemoryWrites(Protocol):
    """Writing memories, and changes that history can undo (records by memory or episode id)."""

    def insert_memories(
        self,
        user_id: str,
        memories: Sequence[MemoryRecord],
        keys: Sequence[IndexEntry],
        actor: str,
        graph: MemoryGraph | None = None,
        changes: Sequence[MemoryChange] = (),
        extracted: Sequence[str] = (),
    ) -> bool:
        """Insert memories with their keys and graph, then apply `changes` to stored ones;
        in the same transaction, clear the extraction-pending mark of the `extracted` turns.

        Returns False, having written nothing, if one of `extracted` is no longer marked
        (another process stored its memories first: extraction stays idempotent).
        What cites a record deleted since extraction began is left out: memories all of
        whose source turns are gone, their keys, entities and links, and changes to gone
        memories; another user's record named here is a ConflictError.
        """
        ...

    def update_text(
        self, user_id: str, record_id: str, text: str, keys: Sequence[IndexEntry], actor: str
    ) -> str:
        """Replace a record's text and search keys; returns the old text."""
        ...

    def revert_change(
        self, user_id: str, entry: HistoryEntry, keys: Sequence[IndexEntry], actor: str
    ) -> None:
        """Undo a REINFORCE, MERGE or SUPERSEDE entry (MERGE: `keys` index the old text)."""
        ...

    def reinforce(
        self,
        user_id: str,
        memory_ids: Sequence[str],
        at: datetime,
        update: Callable[[float, int], float],
    ) -> None:
        """Set importance to update(importance, access_count), count the access; no inflation."""
        ...

    def archive_memories(self, user_id: str, ids: Sequence[str], reason: str, actor: str) -> int:
        """Take memories out of default search (restorable); returns how many changed."""
        ...

    def restore_memory(self, user_id: str, memory_id: str, actor: str) -> bool:
        """Bring an archived memory back; False if it was not archived."""
        ...
