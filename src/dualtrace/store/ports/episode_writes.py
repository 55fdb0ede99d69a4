"""The episode role, write side: storing turns (the write path only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from dualtrace.models import Episode
from dualtrace.store.ports.records import IndexEntry


class EpisodeWrites(Protocol):
    """Storing turns, numbered within their session."""

    def next_seq(self, user_id: str, session_id: str | None) -> int:
        """The next turn number in a session (0 for a new one)."""
        ...

    def insert_episodes(
        self,
        user_id: str,
        episodes: Sequence[Episode],
        keys: Sequence[IndexEntry],
        actor: str,
        pending: bool = False,
    ) -> list[Episode]:
        """Store episodes and keys; returns them as stored (moved past turns added meanwhile).
        An external id already stored (by another writer since the caller looked) is not
        stored again: its place holds the stored episode (`INSERT … ON CONFLICT` semantics).

        `pending`: mark the new turns extraction-pending in the same transaction (cleared
        by `insert_memories(extracted=...)`), so a crash before their memories are stored
        leaves them marked for `pending_episodes` to find.
        """
        ...
