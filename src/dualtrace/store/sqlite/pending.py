"""Extraction-pending turns in SQLite: the durable mark that an `add`, or a deletion's
re-derivation, still owes these turns their memories (set and cleared in episodes.py,
memories.py and deletion.py, inside the transactions that store or remove them)."""

from __future__ import annotations

from collections.abc import Sequence

from dualtrace.models import Episode
from dualtrace.store.sqlite import codec
from dualtrace.store.sqlite.connection import SQLiteConnection


class SQLitePending(SQLiteConnection):
    """The EpisodeStore's pending-extraction reads."""

    def pending_users(self) -> list[str]:
        """Every user with turns marked extraction-pending."""
        rows = self._read("SELECT DISTINCT user_id FROM extraction_pending ORDER BY 1")
        return [r[0] for r in rows]

    def pending_episodes(self, user_id: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """The user's extraction-pending turns (all, or those among `ids`), in time order."""
        if ids is None:
            rows = self._read(
                "SELECT e.* FROM extraction_pending p JOIN episodes e ON e.id = p.episode_id "
                "WHERE p.user_id = ? ORDER BY e.occurred_at, e.session_id, e.seq",
                (user_id,),
            )
            return [codec.episode_from_row(r) for r in rows]
        rows = self._read_in(
            "SELECT e.* FROM extraction_pending p JOIN episodes e ON e.id = p.episode_id "
            "WHERE p.user_id = ? AND p.episode_id IN ({marks})",
            user_id,
            ids,
        )
        found = [codec.episode_from_row(r) for r in rows]
        return sorted(found, key=lambda e: (e.occurred_at, e.session_id or "", e.seq))
