"""The AccessStore role in SQLite: the HTTP service's API keys (hashes only) and the
operations of deferred adds (their state is read from `extraction_pending`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime

from dualtrace.models import ApiKey, Operation
from dualtrace.store.sqlite import codec
from dualtrace.store.sqlite.connection import CHUNK, SQLiteConnection


class SQLiteAccess(SQLiteConnection):
    """AccessStore: API keys and deferred-add operations."""

    def insert_api_key(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key under the hash of its secret."""
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO api_keys (key_id, key_hash, user_id, admin, created_at, label) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    key.key_id,
                    key_hash,
                    key.user_id,
                    int(key.admin),
                    codec.ts(key.created_at),
                    key.label,
                ),
            )

    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash (revoked ones too), or None."""
        rows = self._read("SELECT * FROM api_keys WHERE key_hash = ?", (key_hash,))
        return _key(rows[0]) if rows else None

    def api_keys(self) -> list[ApiKey]:
        """Every key, oldest first."""
        return [_key(r) for r in self._read("SELECT * FROM api_keys ORDER BY created_at, key_id")]

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        """Revoke a key; False if there is none or it was revoked already."""
        with self._tx() as conn:
            cur = conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL",
                (codec.ts(at), key_id),
            )
            return cur.rowcount > 0

    def insert_operation(
        self, user_id: str, operation_id: str, episode_ids: Sequence[str], at: datetime
    ) -> None:
        """Record a deferred add and the turns it stored."""
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO operations (id, user_id, created_at, episode_ids) VALUES (?, ?, ?, ?)",
                (operation_id, user_id, codec.ts(at), json.dumps(list(episode_ids))),
            )

    def get_operation(self, user_id: str, operation_id: str) -> Operation | None:
        """The user's operation with the number of its turns still pending, or None."""
        rows = self._read(
            "SELECT * FROM operations WHERE user_id = ? AND id = ?", (user_id, operation_id)
        )
        if not rows:
            return None
        row = rows[0]
        ids: list[str] = json.loads(row["episode_ids"])
        pending = 0
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            marks = ",".join("?" * len(chunk))
            pending += int(
                self._read(
                    f"SELECT COUNT(*) FROM extraction_pending WHERE user_id = ? "
                    f"AND episode_id IN ({marks})",
                    [user_id, *chunk],
                )[0][0]
            )
        return Operation(
            id=row["id"],
            user_id=user_id,
            created_at=codec.dt_required(row["created_at"]),
            episode_ids=tuple(ids),
            pending=pending,
            error=row["error"] if pending else None,
        )

    def note_operation_error(self, user_id: str, error: str | None) -> None:
        """Record (or clear) why finishing the user's pending operations failed."""
        with self._tx() as conn:
            conn.execute("UPDATE operations SET error = ? WHERE user_id = ?", (error, user_id))


def _key(row: sqlite3.Row) -> ApiKey:
    return ApiKey(
        key_id=row["key_id"],
        user_id=row["user_id"],
        admin=bool(row["admin"]),
        created_at=codec.dt_required(row["created_at"]),
        revoked_at=codec.dt(row["revoked_at"]),
        label=row["label"],
    )
