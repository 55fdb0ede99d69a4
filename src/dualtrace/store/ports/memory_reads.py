"""The memory role, read side."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from dualtrace.models import HistoryEntry, MemoryRecord


class MemoryReads(Protocol):
    """Reading derived memories, any record's kind and history.

    Methods taking record ids accept episode ids as well as memory ids.
    """

    def get_memories(self, user_id: str, ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Memories by id, with their source episode ids (missing ids are absent)."""
        ...

    def memory_ids_by_fact_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, str]:
        """Existing memories whose fact trace has one of these content hashes."""
        ...

    def memories_by_subject(
        self, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
    ) -> list[MemoryRecord]:
        """Valid memories with one of these predicates and subjects (case-insensitive)."""
        ...

    def memories_by_predicate(
        self,
        user_id: str,
        predicates: Sequence[str],
        *,
        include_invalid: bool = False,
        status: str | None = None,
    ) -> list[MemoryRecord]:
        """Memories with one of these predicates, any subject, oldest first; valid ones only
        unless `include_invalid` (then closed ones too; archived ones never). With `status`,
        only those whose `metadata["status"]` is it (a goal's or task's: "open", or a
        closing's "done" / "dropped"), chosen in the store, so that a reader of the open
        ones does not load every closing the user ever said."""
        ...

    def record_kinds(self, user_id: str, ids: Sequence[str]) -> dict[str, str]:
        """The kind of each id this user has ('episode' or a memory kind)."""
        ...

    def taken_ids(self, ids: Sequence[str]) -> set[str]:
        """Which of these ids any user's stored episode or memory holds (ids are unique
        store-wide; an import keeps an exported id only where it is free)."""
        ...

    def list_records(
        self, user_id: str, kinds: tuple[str, ...] | None, include_invalid: bool, limit: int | None
    ) -> list[str]:
        """Ids of the user's records, newest first."""
        ...

    def history(self, user_id: str, record_id: str) -> list[HistoryEntry]:
        """Every change to a record, oldest first (NotFoundError if there is no record)."""
        ...

    def history_entry(self, user_id: str, history_id: int) -> HistoryEntry:
        """One history entry of this user's (NotFoundError if there is none)."""
        ...

    def superseded_by(self, user_id: str, memory_id: str) -> list[HistoryEntry]:
        """The SUPERSEDE entries (not undone) that closed memories in favour of this one."""
        ...
