"""The MaintenanceStore role in SQLite: what the forgetting and normalising passes read and
adjust, user by user (the passes themselves are in `lifecycle/`, above the port)."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from dualtrace.store.sqlite import codec, lifecycle
from dualtrace.store.sqlite.connection import SQLiteConnection


class SQLiteMaintenance(SQLiteConnection):
    """MaintenanceStore: users to visit, expired and idle memories, importance inflation."""

    def user_ids(self) -> list[str]:
        """Every user with stored turns or memories."""
        with self._lock:
            return users(self._conn)

    def expired_memories(self, user_id: str, now: datetime) -> list[str]:
        """Ids of memories in default search whose expire_at has passed."""
        with self._lock:
            return expired_ids(self._conn, user_id, now)

    def memory_usage(self, user_id: str) -> list[tuple[str, float, datetime]]:
        """(id, importance, last used) of the memories in default search."""
        with self._lock:
            return usage_rows(self._conn, user_id)

    def normalise_importance(self, user_id: str) -> bool:
        """Scale the user's importances back if their mean inflated; True if it did."""
        with self._tx() as conn:
            return rescale_importance(
                conn,
                user_id,
                lifecycle.MAX_MEAN_IMPORTANCE,
                lifecycle.NORMALISED_MEAN_IMPORTANCE,
                lifecycle.MIN_MEMORIES_TO_NORMALISE,
            )

    def refresh_search_index(self, user_id: str) -> bool:
        """Nothing to build: dense search here is exact, over the user's cached matrix of
        vectors (`search.py`), at every size. Always False."""
        return False


def users(conn: sqlite3.Connection) -> list[str]:
    """Every user with stored memories or turns."""
    rows = conn.execute(
        "SELECT user_id FROM episodes UNION SELECT user_id FROM memories ORDER BY 1"
    )
    return [r[0] for r in rows]


def expired_ids(conn: sqlite3.Connection, user_id: str, now: datetime) -> list[str]:
    """Memories in default search whose `expire_at` has passed."""
    rows = conn.execute(
        "SELECT id FROM memories WHERE user_id = ? AND archived = 0 AND expire_at IS NOT NULL "
        "AND expire_at <= ? ORDER BY id",
        (user_id, codec.ts(now)),
    )
    return [r[0] for r in rows]


def usage_rows(conn: sqlite3.Connection, user_id: str) -> list[tuple[str, float, datetime]]:
    """(id, importance, last used) of memories in default search; last used is the last
    recall, else when the memory began to hold, else when it was recorded."""
    rows = conn.execute(
        "SELECT id, importance, COALESCE(last_accessed_at, valid_from, recorded_at) "
        "FROM memories WHERE user_id = ? AND archived = 0",
        (user_id,),
    )
    return [(r[0], float(r[1]), codec.dt_required(r[2])) for r in rows]


def rescale_importance(
    conn: sqlite3.Connection, user_id: str, max_mean: float, target_mean: float, min_count: int
) -> bool:
    """Scale the user's importances back to `target_mean` when their mean passed `max_mean`."""
    count, mean = conn.execute(
        "SELECT COUNT(*), AVG(importance) FROM memories WHERE user_id = ?", (user_id,)
    ).fetchone()
    if count < min_count or mean is None or mean <= max_mean:
        return False
    conn.execute(
        "UPDATE memories SET importance = importance * ? WHERE user_id = ?",
        (target_mean / mean, user_id),
    )
    return True
