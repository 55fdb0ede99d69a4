"""The DeletionStore role in PostgreSQL: real deletion, and the counts and audit log that
prove it.

A record, its search keys (text tsvector, gloss tsvector and vector are columns of one
row), its history and what was derived from it go in one transaction (the SQL of that is in
purge.py), which also marks the database for clean-up; after the commit, `_scrub` runs a
plain VACUUM of the tables deletions touch, and a crash before it leaves the mark for the
next open or `maintain` (`finish_deletions`). VACUUM's cost grows with the tables (it reads
every page with dead rows and scans each index whole, big users' HNSW graphs included), so
at a million keys a deletion takes seconds of it; the deleting call waits for it, as SQLite's
deletion waits for its VACUUM.

What PostgreSQL keeps after that, and how long:
- VACUUM removes the deleted rows from the tables and from every index (big users' HNSW
  graphs and the GIN full-text index included), so no query, index or planner statistic
  reaches them. Their bytes may stay in the pages' free space until new rows overwrite it; only
  `VACUUM FULL` (which locks each table for every user while it rewrites it, so the store
  never runs it itself) rewrites the files without them.
- A transaction still open when the deletion committed (a long report, a replica's
  `hot_standby_feedback`) holds the dead rows until it ends; VACUUM then cannot remove
  them, and autovacuum does later.
- The write-ahead log holds the deleted rows' inserts until its segments are recycled
  (after checkpoints, subject to `wal_keep_size`, replication slots and WAL archiving);
  archived WAL and base backups hold them until they expire. Point-in-time recovery can
  bring a deleted row back: deletion is complete only once the backups made before it
  are gone, so keep their retention as short as the service promises.
- Streaming replicas apply the same deletions and VACUUMs.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from dualtrace.store import deletion_rules
from dualtrace.store.base import IndexEntry
from dualtrace.store.postgres import codec, graphs
from dualtrace.store.postgres.connection import Cursor, PostgresConnection
from dualtrace.store.postgres.purge import PostgresPurgeRows

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
    "sessions",
)

# store_meta key of the secret that turns a forgotten user's id into its audit pseudonym.
AUDIT_KEY = "audit_key"


class PostgresDeletion(PostgresConnection):
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
        transaction, then VACUUM (the rules: `deletion_rules.delete_record`)."""
        kind = self._require(user_id, record_id)
        with self._tx(user_id, write=True) as cur:
            redo = deletion_rules.delete_record(
                PostgresPurgeRows(cur), user_id, record_id, kind, next_keys, rederive
            )
            self._audit(cur, user_id, actor, "delete", record_id, {"kind": kind})
            self._mark_scrub(cur)
        self._scrub()
        return redo

    def delete_derived(self, user_id: str, episode_id: str, actor: str) -> list[str]:
        """Delete the memories that only this episode supports (before re-deriving them)."""
        with self._tx(user_id, write=True) as cur:
            gone = deletion_rules.delete_derived(PostgresPurgeRows(cur), user_id, episode_id)
            if gone:
                self._audit(cur, user_id, actor, "delete_derived", episode_id, {"count": len(gone)})
                self._mark_scrub(cur)
        if gone:
            self._scrub()
        return gone

    def delete_user(self, user_id: str, actor: str) -> dict[str, int]:
        """Delete every row of a user and VACUUM; returns counts. The audit log stays, its
        rows moved to the user's pseudonym (`_forgotten_id`)."""
        counts: dict[str, int] = {}
        with self._tx(user_id, write=True) as cur:
            for table in USER_TABLES:
                cur.execute(f"DELETE FROM {table} WHERE user_id = %s".encode(), (user_id,))
                counts[table] = cur.rowcount
            pseudonym = _forgotten_id(cur, create=True, user_id=user_id) or ""
            # Moved, not updated in place: Citus cannot change a row's distribution column.
            # The rows become the pseudonym's, so this step acts across users on purpose.
            cur.execute("SELECT set_config('dualtrace.all_users', 'on', true)")
            cur.execute(
                "INSERT INTO audit_log (user_id, at, actor, action, target_id, detail) "
                "SELECT %s, at, actor, action, target_id, detail FROM audit_log "
                "WHERE user_id = %s ORDER BY id",
                (pseudonym, user_id),
            )
            cur.execute("DELETE FROM audit_log WHERE user_id = %s", (user_id,))
            self._audit(cur, pseudonym, actor, "forget_user", None, counts)
            self._mark_scrub(cur)
            graph = graphs.state(cur, user_id)
        self._means.pop(user_id, None)
        self._scrub()
        self._refresh_graph(user_id, 0, graph)  # the user's own HNSW graph, if any, goes too
        return counts

    def deletion_hashes(self, user_id: str, record_id: str | None) -> list[str]:
        """Content hashes of the keys deleting this record (an episode: with the memories
        citing it and the next turn's keys) or the whole user (None) would remove."""
        with self._tx(user_id) as cur:
            return deletion_rules.key_hashes(PostgresPurgeRows(cur), user_id, record_id)

    def finish_deletions(self) -> bool:
        """Finish a deletion's clean-up that a crash cut short; True if one was pending."""
        return self._scrub()

    def count_records(self, user_id: str) -> dict[str, int]:
        """Row counts of every per-user table (audit rows under the pseudonym too)."""
        with self._tx(user_id) as cur:
            counts = {}
            for table in USER_TABLES:
                row = cur.execute(
                    f"SELECT count(*) FROM {table} WHERE user_id = %s".encode(), (user_id,)
                ).fetchone()
                counts[table] = int(row[0]) if row is not None else 0
        counts["audit_log"] = len(self.audit_entries(user_id))
        return counts

    def audit_entries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit log, oldest first (it never holds memory text); a forgotten
        user's rows are found by the pseudonym their id maps to (a read across users on
        purpose: those rows belong to no live user)."""
        with self._tx(None) as cur:
            ids = [user_id, *filter(None, [_forgotten_id(cur, create=False, user_id=user_id)])]
            rows = cur.execute(
                "SELECT user_id, id, at, actor, action, target_id, detail FROM audit_log "
                "WHERE user_id = ANY(%s) ORDER BY id",
                (ids,),
            ).fetchall()
        return [r.as_dict() | {"at": codec.ts(r["at"])} for r in rows]


def _forgotten_id(cur: Cursor, *, create: bool, user_id: str) -> str | None:
    """The pseudonym a forgotten user's audit rows carry (`deletion_rules.pseudonym`), under
    this store's own random key, made with `create`; None if the store has no key yet."""
    if create:
        cur.execute(
            "INSERT INTO store_meta (key, value) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            (AUDIT_KEY, secrets.token_hex(32)),
        )
    row = cur.execute("SELECT value FROM store_meta WHERE key = %s", (AUDIT_KEY,)).fetchone()
    return None if row is None else deletion_rules.pseudonym(row[0], user_id)
