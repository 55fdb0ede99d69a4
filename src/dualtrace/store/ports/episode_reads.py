"""The episode role, read side: what recall and the lifecycle passes look up."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from dualtrace.models import Episode


class EpisodeReads(Protocol):
    """Reading the lossless trace: turns as they were said."""

    def episode_ids_by_external(self, user_id: str, external_ids: Sequence[str]) -> dict[str, str]:
        """Map ids already stored (as external ids, or as episode ids) to episode ids."""
        ...

    def pending_users(self) -> list[str]:
        """Every user with extraction-pending turns."""
        ...

    def pending_episodes(self, user_id: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """The user's extraction-pending turns (all, or those among `ids`), in time order."""
        ...

    def get_episodes(self, user_id: str, ids: Sequence[str]) -> dict[str, Episode]:
        """Episodes by id (ids this user lacks are simply absent)."""
        ...

    def iter_episodes(self, user_id: str) -> Iterator[Episode]:
        """All of the user's episodes in time order."""
        ...

    def recent_episodes(
        self, user_id: str, session_id: str | None, before_seq: int, limit: int
    ) -> list[Episode]:
        """The session's turns just before `before_seq`, oldest first."""
        ...

    def next_episode(self, user_id: str, episode_id: str) -> Episode | None:
        """The turn right after this one in its session, if any."""
        ...
