"""The BrowseStore role in SQLite: what the web inspector and the service's listings page
through (turns in conversation order, records newest first, per-user counts, a memory's
entities and links), with keyset cursors so a page never skips or repeats a row."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from dualtrace.models import Episode, UserSummary
from dualtrace.store.base import EntityRow
from dualtrace.store.sqlite import codec
from dualtrace.store.sqlite.connection import SQLiteConnection

_RECORDS = (
    "SELECT id, 'episode' AS kind, occurred_at AS t FROM episodes WHERE user_id = ? "
    "UNION ALL SELECT id, kind, COALESCE(valid_from, recorded_at) AS t FROM memories "
    "WHERE user_id = ?{mem_where}"
)


class SQLiteBrowse(SQLiteConnection):
    """BrowseStore: pages of turns and records, user counts, a memory's graph."""

    def user_summaries(self, user_ids: Sequence[str] | None) -> list[UserSummary]:
        """Turn and valid-memory counts per user (None: every user), by id."""
        users = self._read(
            "SELECT user_id FROM episodes UNION SELECT user_id FROM memories ORDER BY 1"
        )
        wanted = [r[0] for r in users] if user_ids is None else sorted(set(user_ids))
        found: list[UserSummary] = []
        for user_id in wanted:
            turns = self._read("SELECT COUNT(*) FROM episodes WHERE user_id = ?", (user_id,))
            memories = self._read(
                "SELECT COUNT(*) FROM memories WHERE user_id = ? AND invalidated_at IS NULL "
                "AND archived = 0",
                (user_id,),
            )
            found.append(UserSummary(user_id, int(turns[0][0]), int(memories[0][0])))
        return found

    def episode_page(
        self,
        user_id: str,
        session_id: str | None,
        after: tuple[datetime, str, int, str] | None,
        limit: int,
    ) -> list[Episode]:
        """Turns in conversation order after the cursor `after`, at most `limit`."""
        sql = "SELECT * FROM episodes WHERE user_id = ?"
        params: list[Any] = [user_id]
        if session_id is not None:
            sql += " AND session_id = ?"
            params.append(session_id)
        if after is not None:
            sql += " AND (occurred_at, COALESCE(session_id, ''), seq, id) > (?, ?, ?, ?)"
            params += [codec.ts(after[0]), after[1], after[2], after[3]]
        sql += " ORDER BY occurred_at, COALESCE(session_id, ''), seq, id LIMIT ?"
        params.append(limit)
        return [codec.episode_from_row(r) for r in self._read(sql, params)]

    def derived_memory_ids(self, user_id: str, episode_ids: Sequence[str]) -> dict[str, list[str]]:
        """For each turn, the valid memories citing it (oldest first)."""
        rows = self._read_in(
            "SELECT s.episode_id, m.id FROM memory_sources s JOIN memories m ON m.id = s.memory_id "
            "WHERE s.user_id = ? AND s.episode_id IN ({marks}) AND m.invalidated_at IS NULL "
            "AND m.archived = 0 ORDER BY m.recorded_at, m.id",
            user_id,
            episode_ids,
        )
        found: dict[str, list[str]] = {}
        for episode_id, memory_id in rows:
            found.setdefault(episode_id, []).append(memory_id)
        return found

    def record_page(
        self,
        user_id: str,
        kinds: tuple[str, ...] | None,
        include_invalid: bool,
        limit: int,
        after: tuple[datetime, str] | None,
    ) -> list[tuple[str, datetime]]:
        """(id, sort time) of records newest first, after the cursor `after`."""
        mem_where = "" if include_invalid else " AND invalidated_at IS NULL AND archived = 0"
        sql = f"SELECT id, t FROM ({_RECORDS.format(mem_where=mem_where)}) WHERE 1"
        params: list[Any] = [user_id, user_id]
        if kinds is not None:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        if after is not None:
            sql += " AND (t, id) < (?, ?)"
            params += [codec.ts(after[0]), after[1]]
        sql += " ORDER BY t DESC, id DESC LIMIT ?"
        params.append(limit)
        return [(r[0], codec.dt_required(r[1])) for r in self._read(sql, params)]

    def memory_graph(
        self, user_id: str, memory_id: str
    ) -> tuple[list[EntityRow], list[tuple[str, str, float]]]:
        """The memory's entities, and its links as (other memory id, kind, weight)."""
        entities = self._read(
            "SELECT e.name, e.norm_name, e.type, COALESCE(e.canonical_norm, e.norm_name) "
            "FROM memory_entities me JOIN entities e ON e.id = me.entity_id "
            "WHERE me.user_id = ? AND me.memory_id = ? ORDER BY e.name",
            (user_id, memory_id),
        )
        links = self._read(
            "SELECT dst_id, kind, weight FROM links WHERE user_id = ? AND src_id = ? "
            "UNION ALL SELECT src_id, kind, weight FROM links WHERE user_id = ? AND dst_id = ? "
            "ORDER BY 3 DESC, 1",
            (user_id, memory_id, user_id, memory_id),
        )
        return (
            [EntityRow(r[0], r[1], r[2], r[3]) for r in entities],
            [(r[0], r[1], float(r[2])) for r in links],
        )
