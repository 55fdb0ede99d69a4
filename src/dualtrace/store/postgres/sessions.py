"""The SessionStore role in PostgreSQL: bookkeeping rows only (times, extraction mark, flags).

A session row never holds what was said (see the SQLite store's sessions.py). Every query is
scoped to one user, except `idle_sessions`, which the idle-timeout sweep runs across users.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from dualtrace.models import Episode, SessionRow
from dualtrace.store.postgres import codec
from dualtrace.store.postgres.codec import Row
from dualtrace.store.postgres.connection import PostgresConnection


class PostgresSessions(PostgresConnection):
    """SessionStore: open, touch, mark and end sessions; read the turns said in them."""

    def touch_session(self, user_id: str, session_id: str, at: datetime) -> None:
        """Create a session row (started at `at`) or move its last activity forward."""
        with self._tx(user_id, write=True) as cur:
            cur.execute(
                "INSERT INTO sessions (user_id, session_id, started_at, last_active_at) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT (user_id, session_id) DO UPDATE SET "
                "last_active_at = GREATEST(sessions.last_active_at, excluded.last_active_at)",
                (user_id, session_id, at, at),
            )

    def get_session(self, user_id: str, session_id: str) -> SessionRow | None:
        """A session's bookkeeping row, or None if this user has no such session."""
        rows = self._read(
            user_id,
            "SELECT * FROM sessions WHERE user_id = %s AND session_id = %s",
            (user_id, session_id),
        )
        return _row(rows[0]) if rows else None

    def set_session_extracted(self, user_id: str, session_id: str, seq: int) -> None:
        """Record that the session's turns up to `seq` are in long-term memory."""
        with self._tx(user_id, write=True) as cur:
            cur.execute(
                "UPDATE sessions SET extracted_seq = GREATEST(extracted_seq, %s) "
                "WHERE user_id = %s AND session_id = %s",
                (seq, user_id, session_id),
            )

    def end_session(self, user_id: str, session_id: str, at: datetime, reason: str) -> bool:
        """Mark an open session ended; False if it was already ended or does not exist."""
        with self._tx(user_id, write=True) as cur:
            cur.execute(
                "UPDATE sessions SET ended_at = %s, state = state || jsonb_build_object("
                "'end_reason', %s::text) WHERE user_id = %s AND session_id = %s "
                "AND ended_at IS NULL",
                (at, reason, user_id, session_id),
            )
            return cur.rowcount > 0

    def idle_sessions(self, before: datetime) -> list[tuple[str, str]]:
        """(user id, session id) of open sessions, of every user, last active before `before`
        (a deliberate cross-user read: the idle sweep)."""
        rows = self._read(
            None,
            "SELECT user_id, session_id FROM sessions WHERE ended_at IS NULL "
            "AND last_active_at < %s ORDER BY last_active_at, user_id, session_id",
            (before,),
        )
        return [(r[0], r[1]) for r in rows]

    def session_episodes(self, user_id: str, session_id: str, after_seq: int) -> list[Episode]:
        """The session's turns with seq > `after_seq`, in order."""
        rows = self._read(
            user_id,
            "SELECT * FROM episodes WHERE user_id = %s AND session_id = %s AND seq > %s "
            "ORDER BY seq",
            (user_id, session_id, after_seq),
        )
        return [codec.episode_from_row(r) for r in rows]

    def sessions_with_role(self, user_id: str, session_ids: Sequence[str], role: str) -> set[str]:
        """Those of these sessions in which a turn of `role` was said (e.g. "assistant")."""
        if not session_ids:
            return set()
        rows = self._read(
            user_id,
            "SELECT DISTINCT session_id FROM episodes WHERE user_id = %s AND role = %s "
            "AND session_id = ANY(%s)",
            (user_id, role, sorted(set(session_ids))),
        )
        return {row[0] for row in rows}


def _row(row: Row) -> SessionRow:
    return SessionRow(
        user_id=row["user_id"],
        session_id=row["session_id"],
        started_at=codec.utc_required(row["started_at"]),
        last_active_at=codec.utc_required(row["last_active_at"]),
        ended_at=codec.utc(row["ended_at"]),
        extracted_seq=int(row["extracted_seq"]),
        state=row["state"],
    )
