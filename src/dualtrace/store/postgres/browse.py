"""The BrowseStore role in PostgreSQL: what the web inspector and the service's listings page
through, with keyset cursors so a page never skips or repeats a row."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from dualtrace.models import Episode, UserSummary
from dualtrace.store.base import EntityRow
from dualtrace.store.postgres import codec
from dualtrace.store.postgres.connection import PostgresConnection

_RECORDS = (
    "SELECT id, 'episode' AS kind, occurred_at AS t FROM episodes WHERE user_id = %s "
    "UNION ALL SELECT id, kind, COALESCE(valid_from, recorded_at) AS t FROM memories "
    "WHERE user_id = %s{mem_where}"
)


class PostgresBrowse(PostgresConnection):
    """BrowseStore: pages of turns and records, user counts, a memory's graph."""

    def user_summaries(self, user_ids: Sequence[str] | None) -> list[UserSummary]:
        """Turn and valid-memory counts per user (None: every user, a deliberate cross-user
        read), by id."""
        if user_ids is None:
            wanted = [
                r[0]
                for r in self._read(
                    None,
                    "SELECT user_id FROM episodes UNION SELECT user_id FROM memories ORDER BY 1",
                )
            ]
        else:
            wanted = sorted(set(user_ids))
        found: list[UserSummary] = []
        for user_id in wanted:
            with self._tx(user_id) as cur:
                turns = cur.execute(
                    "SELECT count(*) FROM episodes WHERE user_id = %s", (user_id,)
                ).fetchone()
                memories = cur.execute(
                    "SELECT count(*) FROM memories WHERE user_id = %s AND invalidated_at IS NULL "
                    "AND NOT archived",
                    (user_id,),
                ).fetchone()
            found.append(
                UserSummary(
                    user_id, int(turns[0] if turns else 0), int(memories[0] if memories else 0)
                )
            )
        return found

    def episode_page(
        self,
        user_id: str,
        session_id: str | None,
        after: tuple[datetime, str, int, str] | None,
        limit: int,
    ) -> list[Episode]:
        """Turns in conversation order after the cursor `after`, at most `limit`."""
        sql = "SELECT * FROM episodes WHERE user_id = %s"
        params: list[Any] = [user_id]
        if session_id is not None:
            sql += " AND session_id = %s"
            params.append(session_id)
        if after is not None:
            sql += " AND (occurred_at, COALESCE(session_id, ''), seq, id) > (%s, %s, %s, %s)"
            params += [after[0], after[1], after[2], after[3]]
        sql += " ORDER BY occurred_at, COALESCE(session_id, ''), seq, id LIMIT %s"
        params.append(limit)
        return [codec.episode_from_row(r) for r in self._read(user_id, sql, params)]

    def derived_memory_ids(self, user_id: str, episode_ids: Sequence[str]) -> dict[str, list[str]]:
        """For each turn, the valid memories citing it (oldest first)."""
        if not episode_ids:
            return {}
        rows = self._read(
            user_id,
            "SELECT s.episode_id, m.id FROM memory_sources s JOIN memories m "
            "ON m.user_id = s.user_id AND m.id = s.memory_id WHERE s.user_id = %s "
            "AND s.episode_id = ANY(%s) AND m.invalidated_at IS NULL AND NOT m.archived "
            "ORDER BY m.recorded_at, m.id",
            (user_id, list(episode_ids)),
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
        mem_where = "" if include_invalid else " AND invalidated_at IS NULL AND NOT archived"
        sql = f"SELECT id, t FROM ({_RECORDS.format(mem_where=mem_where)}) r WHERE true"
        params: list[Any] = [user_id, user_id]
        if kinds is not None:
            sql += " AND kind = ANY(%s)"
            params.append(list(kinds))
        if after is not None:
            sql += " AND (t, id) < (%s, %s)"
            params += [after[0], after[1]]
        sql += " ORDER BY t DESC, id DESC LIMIT %s"
        params.append(limit)
        return [(r[0], codec.utc_required(r[1])) for r in self._read(user_id, sql, params)]

    def memory_graph(
        self, user_id: str, memory_id: str
    ) -> tuple[list[EntityRow], list[tuple[str, str, float]]]:
        """The memory's entities, and its links as (other memory id, kind, weight)."""
        with self._tx(user_id) as cur:
            entities = cur.execute(
                "SELECT e.name, e.norm_name, e.type, COALESCE(e.canonical_norm, e.norm_name) "
                "FROM memory_entities me JOIN entities e ON e.user_id = me.user_id "
                "AND e.id = me.entity_id WHERE me.user_id = %s AND me.memory_id = %s "
                'ORDER BY e.name COLLATE "C"',
                (user_id, memory_id),
            ).fetchall()
            links = cur.execute(
                "SELECT dst_id, kind, weight FROM links WHERE user_id = %s AND src_id = %s "
                "UNION ALL SELECT src_id, kind, weight FROM links WHERE user_id = %s "
                "AND dst_id = %s ORDER BY 3 DESC, 1",
                (user_id, memory_id, user_id, memory_id),
            ).fetchall()
        return (
            [EntityRow(r[0], r[1], r[2], r[3]) for r in entities],
            [(r[0], r[1], float(r[2])) for r in links],
        )
