"""The SessionStore role in SQLite: bookkeeping rows only (times, extraction mark, flags).

A session row never holds what was said: turn text lives in `episodes`, and a session's
summary is rebuilt from those turns, so deleting a turn leaves none of its words here.
Every query is scoped to one user, except `idle`, which the idle-timeout sweep runs
across users.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from dualtrace.models import Episode, SessionRow
from dualtrace.store.sqlite import codec
from dualtrace.store.sqlite.connection import SQLiteConnection


class SQLiteSessions(SQLiteConnection):
    """SessionStore: open, touch, mark and end sessions; read the turns said in them."""

    def touch_session(self, user_id: str, session_id: str, at: datetime) -> None:
        """Create a session row (started at `at`) or move its last activity forward."""
        with self._tx() as conn:
            touch(conn, user_id, session_id, at)

    def get_session(self, user_id: str, session_id: str) -> SessionRow | None:
        """A session's bookkeeping row, or None if this user has no such session."""
        with self._lock:
            return get(self._conn, user_id, session_id)

    def set_session_extracted(self, user_id: str, session_id: str, seq: int) -> None:
        """Record that the session's turns up to `seq` are in long-term memory."""
        with self._tx() as conn:
            set_extracted(conn, user_id, session_id, seq)

    def end_session(self, user_id: str, session_id: str, at: datetime, reason: str) -> bool:
        """Mark an open session ended; False if it was already ended or does not exist."""
        with self._tx() as conn:
            return end(conn, user_id, session_id, at, reason)

    def idle_sessions(self, before: datetime) -> list[tuple[str, str]]:
        """(user id, session id) of open sessions, of every user, last active before `before`."""
        with self._lock:
            return idle(self._conn, before)

    def session_episodes(self, user_id: str, session_id: str, after_seq: int) -> list[Episode]:
        """The session's turns with seq > `after_seq`, in order."""
        with self._lock:
            return episodes_after(self._conn, user_id, session_id, after_seq)

    def sessions_with_role(self, user_id: str, session_ids: Sequence[str], role: str) -> set[str]:
        """Those of these sessions in which a turn of `role` was said (e.g. "assistant")."""
        if not session_ids:
            return set()
        rows = self._read(
            "SELECT DISTINCT session_id FROM episodes WHERE user_id = ? AND role = ? "
            "AND session_id IN (SELECT value FROM json_each(?))",
            (user_id, role, json.dumps(sorted(set(session_ids)))),
        )
        return {row[0] for row in rows}


def touch(conn: sqlite3.Connection, user_id: str, session_id: str, at: datetime) -> None:
    """Create the session row (started and active at `at`), or move its activity forward."""
    stamp = codec.ts(at)
    conn.execute(
        "INSERT INTO sessions (user_id, session_id, started_at, last_active_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT(user_id, session_id) DO UPDATE SET "
        "last_active_at = MAX(last_active_at, excluded.last_active_at)",
        (user_id, session_id, stamp, stamp),
    )


def get(conn: sqlite3.Connection, user_id: str, session_id: str) -> SessionRow | None:
    """The session's row, or None if this user has no such session."""
    row = conn.execute(
        "SELECT * FROM sessions WHERE user_id = ? AND session_id = ?", (user_id, session_id)
    ).fetchone()
    return None if row is None else _row(row)


def set_extracted(conn: sqlite3.Connection, user_id: str, session_id: str, seq: int) -> None:
    """Record that turns up to `seq` were extracted (the mark never moves back)."""
    conn.execute(
        "UPDATE sessions SET extracted_seq = MAX(extracted_seq, ?) "
        "WHERE user_id = ? AND session_id = ?",
        (seq, user_id, session_id),
    )


def end(conn: sqlite3.Connection, user_id: str, session_id: str, at: datetime, reason: str) -> bool:
    """Mark an open session ended (with why, as a flag); False if it was ended or unknown."""
    row = get(conn, user_id, session_id)
    if row is None or row.ended_at is not None:
        return False
    state = {**row.state, "end_reason": reason}
    conn.execute(
        "UPDATE sessions SET ended_at = ?, state = ? WHERE user_id = ? AND session_id = ?",
        (codec.ts(at), json.dumps(state), user_id, session_id),
    )
    return True


def idle(conn: sqlite3.Connection, before: datetime) -> list[tuple[str, str]]:
    """(user id, session id) of every open session last active before `before`, oldest first."""
    rows = conn.execute(
        "SELECT user_id, session_id FROM sessions WHERE ended_at IS NULL "
        "AND last_active_at < ? ORDER BY last_active_at, user_id, session_id",
        (codec.ts(before),),
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def episodes_after(
    conn: sqlite3.Connection, user_id: str, session_id: str, after_seq: int
) -> list[Episode]:
    """The session's turns with seq > `after_seq`, in order."""
    rows = conn.execute(
        "SELECT * FROM episodes WHERE user_id = ? AND session_id = ? AND seq > ? ORDER BY seq",
        (user_id, session_id, after_seq),
    ).fetchall()
    return [codec.episode_from_row(r) for r in rows]


def _row(row: sqlite3.Row) -> SessionRow:
    state: dict[str, Any] = json.loads(row["state"])
    return SessionRow(
        user_id=row["user_id"],
        session_id=row["session_id"],
        started_at=codec.dt_required(row["started_at"]),
        last_active_at=codec.dt_required(row["last_active_at"]),
        ended_at=codec.dt(row["ended_at"]),
        extracted_seq=int(row["extracted_seq"]),
        state=state,
    )
