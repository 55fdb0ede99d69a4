"""The DeletionStore role in SQLite: real deletion, and the counts and audit log that prove it.

Deleting is more than `DELETE`: `secure_delete` zeroes freed pages, `_mark_scrub` marks the
clean-up inside the deleting transaction, and `_scrub` merges the full-text segments,
VACUUMs and empties the WAL after it, resumed on the next open if a crash came first. So a
deleted turn's words leave the file, and what was derived from them goes in the same
transaction (the SQL of that is in purge.py, what it decides in store/deletion_rules.py).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from typing import Any

from dualtrace.store import deletion_rules
from dualtrace.store.base import IndexEntry
from dualtrace.store.sqlite.connection import FTS_TABLES, SQLiteConnection
from dualtrace.store.sqlite.purge import SQLitePurgeRows

# Tables holding per-user rows, children first (deletion order).
USER_TABLES = (
    "memory_entities",
    "memory_sources",
    "links",
    "entities",
    "history",
    "search_keys",
    "extraction_pending",
    "operations",
    "memories",
    "episodes",
    "index_versions",
    "sessions",
)

# store_meta key of the secret that turns a forgotten user's id into its audit pseudonym.
AUDIT_KEY = "audit_key"


class SQLiteDeletion(SQLiteConnection):
    """DeletionStore: delete a record, an episode's derived memories, or a whole user."""

    def delete_record(
        self,
        user_id: str,
        record_id: str,
        actor: str,
        next_keys: Sequence[IndexEntry] = (),
        rederive: bool = False,
    ) -> list[str]:
        """Delete one record, its keys, history and what was derived from it, in one
        transaction (the rules: `deletion_rules.delete_record`), and scrub it from the file.

        Returns the turns marked extraction-pending with `rederive`: the caller extracts them
        again, or the next open does if a crash comes first.
        """
        kind = self._require(user_id, record_id)
        with self._tx() as conn:
            redo = deletion_rules.delete_record(
                SQLitePurgeRows(conn), user_id, record_id, kind, next_keys, rederive
            )
            self._audit(conn, user_id, actor, "delete", record_id, {"kind": kind})
            # VACUUM too: secure_delete zeroes the deleted cells, but not the stale copies
            # of them that b-tree rebalancing left in pages' unused space
            self._mark_scrub(conn, vacuum=True)
        self._scrub()
        return redo

    def delete_derived(self, user_id: str, episode_id: str, actor: str) -> list[str]:
        """Delete the memories that only this episode supports (before re-deriving them)."""
        with self._tx() as conn:
            gone = deletion_rules.delete_derived(SQLitePurgeRows(conn), user_id, episode_id)
            if gone:
                self._audit(
                    conn, user_id, actor, "delete_derived", episode_id, {"count": len(gone)}
                )
                self._mark_scrub(conn)
        if gone:
            self._scrub()
        return gone

    def delete_user(self, user_id: str, actor: str) -> dict[str, int]:
        """Delete every row of a user and scrub the file; returns counts. The audit log
        stays, its rows re-keyed to the user's pseudonym (`_forgotten_id`)."""
        counts: dict[str, int] = {}
        with self._tx() as conn:
            conn.execute("DELETE FROM fts_terms WHERE user_id = ?", (user_id,))
            for fts in FTS_TABLES:
                conn.execute(
                    f"DELETE FROM {fts} WHERE rowid IN "
                    "(SELECT id FROM search_keys WHERE user_id = ?)",
                    (user_id,),
                )
            for table in USER_TABLES:
                cur = conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
                counts[table] = cur.rowcount
            pseudonym = _forgotten_id(conn, user_id, create=True) or ""  # created: never ""
            conn.execute("UPDATE audit_log SET user_id = ? WHERE user_id = ?", (pseudonym, user_id))
            self._audit(conn, pseudonym, actor, "forget_user", None, counts)
            self._mark_scrub(conn, vacuum=True)
        self._dense.invalidate(user_id)
        self._means.pop(user_id, None)
        self._scrub()
        return counts

    def deletion_hashes(self, user_id: str, record_id: str | None) -> list[str]:
        """Content hashes of the keys deleting this record (an episode: with the memories
        citing it and the next turn's keys) or the whole user (None) would remove."""
        with self._lock:
            return deletion_rules.key_hashes(SQLitePurgeRows(self._conn), user_id, record_id)

    def finish_deletions(self) -> bool:
        """Finish a deletion's clean-up that a crash cut short; True if one was pending."""
        return self._scrub()

    def count_records(self, user_id: str) -> dict[str, int]:
        """Row counts of every per-user table (audit rows under the pseudonym too)."""
        counts = {
            t: int(self._read(f"SELECT COUNT(*) FROM {t} WHERE user_id = ?", (user_id,))[0][0])
            for t in USER_TABLES
        }
        ids = self._audit_ids(user_id)
        marks = ",".join("?" * len(ids))
        counts["audit_log"] = int(
            self._read(f"SELECT COUNT(*) FROM audit_log WHERE user_id IN ({marks})", ids)[0][0]
        )
        return counts

    def audit_entries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit log, oldest first (no memory text is ever written there); a
        forgotten user's rows are found by the pseudonym their id maps to."""
        ids = self._audit_ids(user_id)
        rows = self._read(
            f"SELECT * FROM audit_log WHERE user_id IN ({','.join('?' * len(ids))}) ORDER BY id",
            ids,
        )
        return [dict(r) | {"detail": json.loads(r["detail"])} for r in rows]

    def _audit_ids(self, user_id: str) -> list[str]:
        with self._lock:
            pseudonym = _forgotten_id(self._conn, user_id, create=False)
        return [user_id] if pseudonym is None else [user_id, pseudonym]


def _forgotten_id(conn: sqlite3.Connection, user_id: str, *, create: bool) -> str | None:
    """The pseudonym a forgotten user's audit rows carry (`deletion_rules.pseudonym`), under
    this store's own random key, made with `create`; None if the store has no key yet."""
    if create:
        conn.execute(
            "INSERT OR IGNORE INTO store_meta (key, value) VALUES (?, ?)",
            (AUDIT_KEY, secrets.token_hex(32)),
        )
    row = conn.execute("SELECT value FROM store_meta WHERE key = ?", (AUDIT_KEY,)).fetchone()
    return None if row is None else deletion_rules.pseudonym(row[0], user_id)
