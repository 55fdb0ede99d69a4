"""The AccessStore role in PostgreSQL: the HTTP service's API keys (hashes only) and the
operations of deferred adds (their state is read from `extraction_pending`).

`api_keys` is a global table (a key is looked up by its hash before anyone knows which user
it acts for, and admin keys act for none); its row-level security admits only transactions
that deliberately act for all users, which is how every method here reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from dualtrace.models import ApiKey, Operation
from dualtrace.store.postgres import codec
from dualtrace.store.postgres.codec import Row
from dualtrace.store.postgres.connection import PostgresConnection


class PostgresAccess(PostgresConnection):
    """AccessStore: API keys and deferred-add operations."""

    def insert_api_key(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key under the hash of its secret."""
        with self._tx(None) as cur:
            cur.execute(
                "INSERT INTO api_keys (key_id, key_hash, user_id, admin, created_at, label) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (key.key_id, key_hash, key.user_id, key.admin, key.created_at, key.label),
            )

    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash (revoked ones too), or None."""
        rows = self._read(None, "SELECT * FROM api_keys WHERE key_hash = %s", (key_hash,))
        return _key(rows[0]) if rows else None

    def api_keys(self) -> list[ApiKey]:
        """Every key, oldest first."""
        rows = self._read(None, "SELECT * FROM api_keys ORDER BY created_at, key_id")
        return [_key(r) for r in rows]

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        """Revoke a key; False if there is none or it was revoked already."""
        with self._tx(None) as cur:
            cur.execute(
                "UPDATE api_keys SET revoked_at = %s WHERE key_id = %s AND revoked_at IS NULL",
                (at, key_id),
            )
            return cur.rowcount > 0

    def insert_operation(
        self, user_id: str, operation_id: str, episode_ids: Sequence[str], at: datetime
    ) -> None:
        """Record a deferred add and the turns it stored."""
        with self._tx(user_id, write=True) as cur:
            cur.execute(
                "INSERT INTO operations (user_id, id, created_at, episode_ids) "
                "VALUES (%s, %s, %s, %s)",
                (user_id, operation_id, at, list(episode_ids)),
            )

    def get_operation(self, user_id: str, operation_id: str) -> Operation | None:
        """The user's operation with the number of its turns still pending, or None."""
        rows = self._read(
            user_id,
            "SELECT o.id, o.created_at, o.episode_ids, o.error, (SELECT count(*) FROM "
            "extraction_pending p WHERE p.user_id = o.user_id AND p.episode_id = "
            "ANY(o.episode_ids)) FROM operations o WHERE o.user_id = %s AND o.id = %s",
            (user_id, operation_id),
        )
        if not rows:
            return None
        row = rows[0]
        pending = int(row[4])
        return Operation(
            id=row[0],
            user_id=user_id,
            created_at=codec.utc_required(row[1]),
            episode_ids=tuple(row[2]),
            pending=pending,
            error=row[3] if pending else None,
        )

    def note_operation_error(self, user_id: str, error: str | None) -> None:
        """Record (or clear) why finishing the user's pending operations failed."""
        with self._tx(user_id, write=True) as cur:
            cur.execute("UPDATE operations SET error = %s WHERE user_id = %s", (error, user_id))


def _key(row: Row) -> ApiKey:
    return ApiKey(
        key_id=row["key_id"],
        user_id=row["user_id"],
        admin=bool(row["admin"]),
        created_at=codec.utc_required(row["created_at"]),
        revoked_at=codec.utc(row["revoked_at"]),
        label=row["label"],
    )
