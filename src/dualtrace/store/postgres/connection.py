"""The PostgreSQL store's connection: a pool, user-scoped transactions, audit and history rows.

`PostgresConnection` is the base every role mixin extends (as in the SQLite store, see
`store/sqlite/connection.py` for why mixins), and `PostgresStore` composes them.

Isolation is enforced twice. Every statement names its user (`WHERE user_id = %s`), and
every per-user table has row-level security keyed on the transaction's `dualtrace.user_id`
setting (`set_config(..., true)`: it ends with the transaction), forced for the tables'
owner too, so a statement that forgot its filter sees and changes nothing. The store refuses
to run as a superuser or a BYPASSRLS role, to which row-level security does not apply.

Cross-user work is deliberate: `_tx(None)` sets `dualtrace.all_users` instead, for the few
port methods that are not one user's (user listings, idle sessions, pending users, API
keys, the deletion clean-up), for the audit log of a forgotten user (its rows carry a
pseudonym, no live user's id), and for the check that a write names no other user's record
(`survivors.py`). A statement there still names the users it reads where it can.

Writes of one user are serialised by a transaction-scoped advisory lock on the user id, as
SQLite's single writer serialises them: what a write checked (a session's last seq, the
turns a memory cites) stays true until it commits. Different users write in parallel.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from dualtrace.errors import ConfigError, EmbedderMismatchError, NotFoundError, StoreError
from dualtrace.store.postgres import codec, graphs
from dualtrace.store.postgres.codec import Row
from dualtrace.store.postgres.migrations import (
    HALFVEC_MAX_DIM,
    MIGRATION_LOCK,
    migrate,
)

Cursor = psycopg.Cursor[Row]

# Connections per store handle: the search channels run in threads, one connection each.
POOL_SIZE = 8
CONNECT_TIMEOUT_S = 10

# store_meta key of a deletion's clean-up (VACUUM) still to run.
SCRUB_MARK = "scrub_pending"

# Tables a deletion removes rows from, VACUUMed after it (see deletion.py).
SCRUBBED_TABLES = (
    "search_keys",
    "episodes",
    "memories",
    "memory_sources",
    "memory_entities",
    "entities",
    "links",
    "history",
    "extraction_pending",
    "operations",
    "sessions",
    "audit_log",
)

_SCOPE = (
    "SELECT set_config('dualtrace.user_id', %s, true), set_config('dualtrace.all_users', %s, true)"
)


def now() -> datetime:
    """The current time, in UTC (when a change was made, for history and audit rows)."""
    return datetime.now(UTC)


def redacted(url: str) -> str:
    """The URL without its password (for messages)."""
    return re.sub(r"://([^:/@]*):[^@]*@", r"://\1:***@", url)


def store_error(exc: BaseException, url: str) -> StoreError:
    """The StoreError for a database error met on the server at `url`."""
    if isinstance(exc, PoolClosed):
        return StoreError(
            "the PostgreSQL store is closed (Memory.close() ran, or its `with` block ended); "
            "open a new Memory to use it again"
        )
    if isinstance(exc, PoolTimeout | psycopg.OperationalError):
        return StoreError(
            f"cannot reach PostgreSQL at {redacted(url)} ({exc}); check that the server is "
            "running and the URL's host, port, database, user and password"
        )
    return StoreError(f"PostgreSQL failed on {redacted(url)}: {exc}")


class PostgresConnection:
    """A pool of connections to one PostgreSQL database, migrated on open."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._closed = False
        # per user: (memories, mean importance when measured, importance gained since)
        self._means: dict[str, tuple[int, float, float]] = {}
        try:
            conninfo_to_dict(url)
        except psycopg.ProgrammingError as exc:
            raise ConfigError(
                f"{redacted(url)!r} is not a PostgreSQL URL ({str(exc).strip()}); use "
                "postgresql://user:password@host:5432/database"
            ) from exc
        self._check_and_migrate(url)
        # times come back in UTC; options the URL itself sets are kept
        options = f"{conninfo_to_dict(url).get('options') or ''} -c TimeZone=UTC".strip()
        self._pool: ConnectionPool[psycopg.Connection[Row]] = ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            open=False,
            timeout=30,
            kwargs={"options": options, "row_factory": codec.row_factory},
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
            self._scrub()  # a clean-up a crash cut short is finished first
        except BaseException as exc:
            self._pool.close()
            if isinstance(exc, PoolTimeout):
                raise store_error(exc, url) from exc
            raise

    @staticmethod
    def _check_and_migrate(url: str) -> None:
        """Connect once: a URL that cannot connect, or a role that row-level security would
        not apply to, is refused with the fix; then the schema is brought up to date."""
        try:
            conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
        except psycopg.Error as exc:
            raise store_error(exc, url) from exc
        with conn:
            row = conn.execute(
                "SELECT current_user, rolsuper OR rolbypassrls FROM pg_roles "
                "WHERE rolname = current_user"
            ).fetchone()
            if row is not None and row[1]:
                raise ConfigError(
                    f"PostgreSQL role {row[0]!r} at {redacted(url)} is a superuser or has "
                    "BYPASSRLS, so row-level security would not isolate users; connect as an "
                    "ordinary role that owns the database (CREATE ROLE dualtrace LOGIN; "
                    "CREATE DATABASE memory OWNER dualtrace; and, as a superuser in it, "
                    "CREATE EXTENSION vector)"
                )
            migrate(conn)

    # -- transactions ---------------------------------------------------------------------------

    @contextmanager
    def _tx(self, user_id: str | None, *, write: bool = False) -> Iterator[Cursor]:
        """One transaction scoped to `user_id` (None: deliberately all users; see the module
        docstring); with `write`, holding the user's write lock. Committed at the end,
        rolled back entirely on any error."""
        try:
            with self._pool.connection() as conn, conn.cursor() as cur:
                cur.execute(_SCOPE, (user_id or "", "off" if user_id is not None else "on"))
                if write and user_id is not None:
                    cur.execute("SELECT pg_advisory_xact_lock(1, hashtext(%s))", (user_id,))
                yield cur
        except psycopg.IntegrityError:
            raise  # a constraint failure is a bug in the statements that caused it
        except (psycopg.Error, PoolClosed, PoolTimeout) as exc:
            raise store_error(exc, self.url) from exc

    def _read(self, user_id: str | None, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one statement, in a transaction scoped to `user_id`."""
        with self._tx(user_id) as cur:
            return cur.execute(sql.encode(), params).fetchall()

    def close(self) -> None:
        """Close the pool's connections. A second call does nothing; any other use after it
        is a StoreError."""
        if not self._closed:
            self._closed = True
            self._pool.close()

    # -- deletion clean-up ------------------------------------------------------------------------

    @staticmethod
    def _mark_scrub(cur: Cursor) -> None:
        """Inside a transaction that removed text: mark the database for `_scrub`, so a crash
        before the VACUUM leaves the mark for the next open (or `maintain`) to finish."""
        cur.execute(
            "INSERT INTO store_meta (key, value) VALUES (%s, 'vacuum') ON CONFLICT (key) "
            "DO NOTHING",
            (SCRUB_MARK,),
        )

    def _scrub(self) -> bool:
        """VACUUM the tables deletions touch if a deletion marked them; returns whether one
        was pending. VACUUM removes the deleted rows' tuples from tables and indexes (the
        HNSW graph and the full-text GIN index included), so no scan or index can reach
        them; see deletion.py for what PostgreSQL still keeps."""
        with self._tx(None) as cur:
            marked = cur.execute(
                "SELECT value FROM store_meta WHERE key = %s", (SCRUB_MARK,)
            ).fetchone()
        if marked is None:
            return False
        skipped: list[str] = []
        try:
            with psycopg.connect(self.url, autocommit=True) as conn:  # VACUUM: no transaction
                # a role that may not VACUUM a table gets a warning, not an error
                conn.add_notice_handler(lambda n: skipped.append(n.message_primary or ""))
                conn.execute(("VACUUM " + ", ".join(SCRUBBED_TABLES)).encode())
                if not (skipped := [m for m in skipped if m and "skipping" in m]):
                    conn.execute("DELETE FROM store_meta WHERE key = %s", (SCRUB_MARK,))
        except psycopg.Error as exc:
            raise store_error(exc, self.url) from exc
        if skipped:
            raise StoreError(
                f"VACUUM after a deletion was refused ({skipped[0]}); the deleted rows stay in "
                "the tables' files until it runs: make the store's role the tables' owner, or "
                "GRANT MAINTAIN on them (PostgreSQL 17+); the next open or maintain() retries"
            )
        return True

    def _refresh_graph(self, user_id: str, keys: int, ready: bool | None) -> bool:
        """Build or drop the user's own HNSW graph for their number of `keys`, given the
        graph's `graphs.state` (graphs.py); a connection is opened only when one is due."""
        if not graphs.due(ready, keys):
            return False
        try:
            with psycopg.connect(self.url, autocommit=True) as conn:  # CONCURRENTLY: no tx
                return graphs.refresh(conn, user_id, keys)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise StoreError(
                f"cannot build or drop user {user_id!r}'s search index on {redacted(self.url)} "
                f"({exc}); make the store's role the owner of its tables (as `dualtrace` "
                "creates them), or run `dualtrace maintain` as that owner"
            ) from exc
        except psycopg.Error as exc:
            raise store_error(exc, self.url) from exc

    # -- embedder binding -----------------------------------------------------------------------

    def bind_embedder(self, embedder_id: str, dimensions: int) -> None:
        """Record the embedder on first use (typing the vector column to its dimension);
        refuse a different one afterwards."""
        with self._tx(None) as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            rows = {r[0]: r[1] for r in cur.execute("SELECT key, value FROM store_meta")}
            if "embedder_id" not in rows:
                cur.executemany(
                    "INSERT INTO store_meta (key, value) VALUES (%s, %s)",
                    [("embedder_id", embedder_id), ("embedder_dim", str(dimensions))],
                )
                if not 0 < dimensions <= HALFVEC_MAX_DIM:
                    raise ConfigError(
                        f"embedder {embedder_id!r} makes {dimensions}-dimension vectors; the "
                        f"PostgreSQL store holds 1 to {HALFVEC_MAX_DIM}: use another embedder"
                    )
                column = f"halfvec({dimensions:d})"
                cur.execute(f"ALTER TABLE search_keys ALTER COLUMN vector TYPE {column}".encode())
                return
        stored_id, stored_dim = rows["embedder_id"], int(rows["embedder_dim"])
        if stored_id != embedder_id or stored_dim != dimensions:
            raise EmbedderMismatchError(
                f"this store's vectors come from embedder {stored_id!r} ({stored_dim} dims), "
                f"but it was opened with {embedder_id!r} ({dimensions} dims); open it with "
                "the same embedder, or use a new database"
            )

    # -- rows every role writes or checks -----------------------------------------------------

    @staticmethod
    def _audit(
        cur: Cursor,
        user_id: str,
        actor: str,
        action: str,
        target: str | None,
        detail: dict[str, Any] | None = None,
    ) -> None:
        cur.execute(
            "INSERT INTO audit_log (user_id, at, actor, action, target_id, detail) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            (user_id, now(), actor, action, target, codec.jsonb(detail or {})),
        )

    @staticmethod
    def _history(
        cur: Cursor,
        user_id: str,
        record_id: str,
        event: str,
        old: str | None,
        new: str | None,
        actor: str,
        at: datetime | None = None,
    ) -> None:
        """One history entry, at `at` (the transaction's moment; now when not given)."""
        cur.execute(
            "INSERT INTO history (user_id, record_id, event, old_text, new_text, at, actor) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (user_id, record_id, event, old, new, now() if at is None else at, actor),
        )

    def _kinds(self, user_id: str, ids: Sequence[str]) -> dict[str, str]:
        """The kind of each id that exists for this user ('episode' or a memory kind)."""
        if not ids:
            return {}
        with self._tx(user_id) as cur:
            return kinds(cur, user_id, ids)

    def _require(self, user_id: str, record_id: str) -> str:
        """The record's kind; NotFoundError if this user has no such record."""
        kind = self._kinds(user_id, [record_id]).get(record_id)
        if kind is None:
            raise NotFoundError(
                f"no record {record_id!r} for user {user_id!r}; list the user's ids with "
                "Memory.get_all(user_id=...) or `dualtrace list --user ...`"
            )
        return kind


def kinds(cur: Cursor, user_id: str, ids: Sequence[str]) -> dict[str, str]:
    """The kind of each of `ids` the user has ('episode' or a memory kind)."""
    rows = cur.execute(
        "SELECT id, 'episode' FROM episodes WHERE user_id = %s AND id = ANY(%s) "
        "UNION ALL SELECT id, kind FROM memories WHERE user_id = %s AND id = ANY(%s)",
        (user_id, list(ids), user_id, list(ids)),
    ).fetchall()
    return {r[0]: r[1] for r in rows}
