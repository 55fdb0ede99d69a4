"""The EpisodeStore role in PostgreSQL: turns as they were said, numbered within their session,
and the extraction-pending marks that an `add` or a deletion's re-derivation leaves on them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from dualtrace.models import Episode
from dualtrace.store.base import IndexEntry
from dualtrace.store.postgres import codec
from dualtrace.store.postgres.connection import Cursor, PostgresConnection, now
from dualtrace.store.postgres.index import write_keys
from dualtrace.store.postgres.purge import mark_pending

# Conversation order; NULL sessions first, as SQLite sorts them.
_ORDER = "occurred_at, session_id NULLS FIRST, seq"


def session_is(session_id: str | None) -> str:
    """The condition `session_id` names (`IS NULL` for None: index-friendly, unlike
    IS NOT DISTINCT FROM); its parameter is passed only when not None."""
    return "session_id IS NULL" if session_id is None else "session_id = %s"


class PostgresEpisodes(PostgresConnection):
    """EpisodeStore: insert, look up and walk a user's episodes."""

    def episode_ids_by_external(self, user_id: str, external_ids: Sequence[str]) -> dict[str, str]:
        """Map ids already stored (as external ids, or as episode ids) to episode ids."""
        if not external_ids:
            return {}
        ids = list(external_ids)
        with self._tx(user_id) as cur:
            by_id = cur.execute(
                "SELECT id, id FROM episodes WHERE user_id = %s AND id = ANY(%s)", (user_id, ids)
            ).fetchall()
            by_external = cur.execute(
                "SELECT external_id, id FROM episodes WHERE user_id = %s AND external_id = ANY(%s)",
                (user_id, ids),
            ).fetchall()
        found = {r[0]: r[1] for r in by_id}
        found.update({r[0]: r[1] for r in by_external})
        return found

    def next_seq(self, user_id: str, session_id: str | None) -> int:
        """The next turn number in a session (0 for a new one)."""
        with self._tx(user_id) as cur:
            return _next_seq(cur, user_id, session_id)

    def insert_episodes(
        self,
        user_id: str,
        episodes: Sequence[Episode],
        keys: Sequence[IndexEntry],
        actor: str,
        pending: bool = False,
    ) -> list[Episode]:
        """Store episodes and their search keys in one transaction; returns them as stored.

        Under the user's write lock, seq numbers follow the session's last stored turn, and
        an external id another writer stored meanwhile answers with that writer's episode
        (its keys are dropped), as in the SQLite store.
        """
        with self._tx(user_id, write=True) as cur:
            stored = [_insert_once(cur, user_id, e) for e in _after_last(cur, user_id, episodes)]
            new = {e.id for e in stored} & {e.id for e in episodes}
            for e in stored:
                if e.id in new:
                    self._history(cur, user_id, e.id, "ADD", None, e.text, actor)
            write_keys(cur, user_id, [k for k in keys if k.record_id in new])
            if pending:
                mark_pending(cur, user_id, sorted(new), now())
            if new:
                self._audit(cur, user_id, actor, "add_episodes", None, {"count": len(new)})
        return stored

    def get_episodes(self, user_id: str, ids: Sequence[str]) -> dict[str, Episode]:
        """Episodes by id (missing ids are simply absent)."""
        if not ids:
            return {}
        rows = self._read(
            user_id,
            "SELECT * FROM episodes WHERE user_id = %s AND id = ANY(%s)",
            (user_id, list(ids)),
        )
        return {r["id"]: codec.episode_from_row(r) for r in rows}

    def iter_episodes(self, user_id: str) -> Iterator[Episode]:
        """All of a user's episodes in time order."""
        rows = self._read(
            user_id, f"SELECT * FROM episodes WHERE user_id = %s ORDER BY {_ORDER}", (user_id,)
        )
        for row in rows:
            yield codec.episode_from_row(row)

    def recent_episodes(
        self, user_id: str, session_id: str | None, before_seq: int, limit: int
    ) -> list[Episode]:
        """The session's turns just before `before_seq`, oldest first."""
        params = [user_id, *([] if session_id is None else [session_id]), before_seq, limit]
        rows = self._read(
            user_id,
            f"SELECT * FROM episodes WHERE user_id = %s AND {session_is(session_id)} "
            "AND seq < %s ORDER BY seq DESC LIMIT %s",
            params,
        )
        return [codec.episode_from_row(r) for r in reversed(rows)]

    def next_episode(self, user_id: str, episode_id: str) -> Episode | None:
        """The turn right after this one in its session, if any."""
        rows = self._read(
            user_id,
            "SELECT n.* FROM episodes e JOIN episodes n ON n.user_id = e.user_id "
            "AND n.session_id IS NOT DISTINCT FROM e.session_id AND n.seq > e.seq "
            "WHERE e.user_id = %s AND e.id = %s ORDER BY n.seq LIMIT 1",
            (user_id, episode_id),
        )
        return codec.episode_from_row(rows[0]) if rows else None

    # -- extraction-pending turns ---------------------------------------------------------------

    def pending_users(self) -> list[str]:
        """Every user with turns marked extraction-pending (a deliberate cross-user read)."""
        rows = self._read(None, "SELECT DISTINCT user_id FROM extraction_pending ORDER BY 1")
        return [r[0] for r in rows]

    def pending_episodes(self, user_id: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """The user's extraction-pending turns (all, or those among `ids`), in time order."""
        rows = self._read(
            user_id,
            "SELECT e.* FROM extraction_pending p JOIN episodes e ON e.user_id = p.user_id "
            "AND e.id = p.episode_id WHERE p.user_id = %s "
            f"AND (%s::text[] IS NULL OR p.episode_id = ANY(%s)) ORDER BY {_ORDER}",
            (user_id, None if ids is None else list(ids), None if ids is None else list(ids)),
        )
        return [codec.episode_from_row(r) for r in rows]


def _next_seq(cur: Cursor, user_id: str, session_id: str | None) -> int:
    params = [user_id, *([] if session_id is None else [session_id])]
    row = cur.execute(
        "SELECT COALESCE(MAX(seq) + 1, 0) FROM episodes WHERE user_id = %s "
        f"AND {session_is(session_id)}".encode(),
        params,
    ).fetchone()
    return int(row[0]) if row is not None else 0


def _insert_once(cur: Cursor, user_id: str, e: Episode) -> Episode:
    """Insert an episode; if its external id is already stored, the stored episode instead
    (`ON CONFLICT DO NOTHING`: the unique index decides across processes)."""
    cur.execute(
        "INSERT INTO episodes (id, user_id, agent_id, session_id, seq, role, speaker, text, "
        "occurred_at, occurred_tz, recorded_at, external_id, metadata, content_hash) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (user_id, external_id) WHERE external_id IS NOT NULL DO NOTHING",
        (
            e.id,
            user_id,
            e.agent_id,
            e.session_id,
            e.seq,
            e.role,
            e.speaker,
            e.text,
            e.occurred_at,
            codec.utc_offset_seconds(e.occurred_at),
            e.recorded_at,
            e.external_id,
            codec.jsonb(e.metadata),
            e.content_hash,
        ),
    )
    if cur.rowcount:
        return e
    row = cur.execute(
        "SELECT * FROM episodes WHERE user_id = %s AND external_id = %s", (user_id, e.external_id)
    ).fetchone()
    assert row is not None, "the conflicting episode is stored"
    return codec.episode_from_row(row)


def _after_last(cur: Cursor, user_id: str, episodes: Sequence[Episode]) -> Sequence[Episode]:
    """The episodes renumbered to follow the session's last stored turn, if they would not."""
    if not episodes:
        return episodes
    first = episodes[0]
    following = _next_seq(cur, user_id, first.session_id)
    if following <= first.seq:
        return episodes
    shift = following - first.seq
    return [replace(e, seq=e.seq + shift) for e in episodes]
