"""Pages of turns and records for a person browsing a user's memory."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from dualtrace.models import Episode, UserSummary
from dualtrace.store.ports.records import EntityRow


class BrowseStore(Protocol):
    """What a person browsing a user's memory pages through, in stable orders."""

    def user_summaries(self, user_ids: Sequence[str] | None) -> list[UserSummary]:
        """Turn and valid-memory counts of these users (None: of every user), by id."""
        ...

    def episode_page(
        self,
        user_id: str,
        session_id: str | None,
        after: tuple[datetime, str, int, str] | None,
        limit: int,
    ) -> list[Episode]:
        """Up to `limit` turns in conversation order (time, session, seq, id), of one
        session or all, after the turn whose (occurred_at, session id or "", seq, id) is
        `after`."""
        ...

    def derived_memory_ids(self, user_id: str, episode_ids: Sequence[str]) -> dict[str, list[str]]:
        """For each turn, the valid (not superseded, not archived) memories citing it."""
        ...

    def record_page(
        self,
        user_id: str,
        kinds: tuple[str, ...] | None,
        include_invalid: bool,
        limit: int,
        after: tuple[datetime, str] | None,
    ) -> list[tuple[str, datetime]]:
        """(id, sort time) of up to `limit` records, newest first (as `list_records`), after
        the record whose (sort time, id) is `after`."""
        ...

    def memory_graph(
        self, user_id: str, memory_id: str
    ) -> tuple[list[EntityRow], list[tuple[str, str, float]]]:
        """A memory's entities, and its links as (other memory id, kind, weight)."""
        ...
