"""Real deletion, row counts and the audit log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from dualtrace.store.ports.records import IndexEntry


class DeletionStore(Protocol):
    """Real deletion (scrubbed from the file), and the counts and audit log that prove it."""

    def delete_record(
        self,
        user_id: str,
        record_id: str,
        actor: str,
        next_keys: Sequence[IndexEntry] = (),
        rederive: bool = False,
    ) -> list[str]:
        """Delete a record with its keys, links and history, in one transaction.

        A memory's deletion re-opens what it had superseded (those history entries quote
        it, and go). An episode takes every memory citing it; `next_keys` replace the keys
        of the turn after it (they quoted it). With `rederive`, that next turn and the
        other sources of the memories that went lose their own memories and are marked
        extraction-pending, to be extracted again from what survives; returns their ids.
        """
        ...

    def delete_derived(self, user_id: str, episode_id: str, actor: str) -> list[str]:
        """Delete the memories that only this episode supports; returns their ids."""
        ...

    def delete_user(self, user_id: str, actor: str) -> dict[str, int]:
        """Delete every row of the user; returns rows deleted per table. The audit log stays,
        its rows re-keyed from the user id to a keyed hash of it (`audit_entries` and
        `count_records` still find them by the id)."""
        ...

    def deletion_hashes(self, user_id: str, record_id: str | None) -> list[str]:
        """Content hashes of the keys deleting this record (an episode: with the memories
        citing it and the next turn's keys) or the whole user (None) would remove: what an
        embedding cache should forget first (a crash then costs a re-embedding, never a
        kept vector of deleted text)."""
        ...

    def finish_deletions(self) -> bool:
        """Finish a deletion's clean-up (compaction, so deleted words leave the files) that a
        crash cut short; True if one was pending. Stores do this on open as well."""
        ...

    def count_records(self, user_id: str) -> dict[str, int]:
        """Row counts of every per-user table, audit log included."""
        ...

    def audit_entries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit log, oldest first (it never holds memory text)."""
        ...
