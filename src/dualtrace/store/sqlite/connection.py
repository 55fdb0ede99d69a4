"""The SQLite store's connection: the file, its lock, transactions, audit and history rows.

`SQLiteConnection` is the base every role mixin (episodes.py, memories.py, graph.py,
index.py, sessions.py, maintenance.py, deletion.py) extends, and `SQLiteStore` composes
them. Mixins over one base, not role objects, because the roles share one connection, one
lock and one transaction: `insert_memories` writes memories, search keys and the graph
atomically, and deleting a record scrubs rows of every role. A base class also lets mypy
check each mixin's use of `_tx` and `_read`, which a mixin typed against nothing could not.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dualtrace.errors import EmbedderMismatchError, NotFoundError, StoreError
from dualtrace.store.sqlite import codec
from dualtrace.store.sqlite.bm25 import TermCounts, UserLengths
from dualtrace.store.sqlite.migrations import migrate
from dualtrace.store.sqlite.search import DenseIndex
from dualtrace.store.sqlite.translate import connect, migrating

# Ids per `IN (...)` list: far below SQLite builds' variable limit (32,766 on many).
CHUNK = 500

# store_meta key of a deletion's clean-up still to run ("checkpoint", or "vacuum").
SCRUB_MARK = "scrub_pending"

# Bytes of the full-text index's structure record past which it is rebuilt (see merge_fts).
FTS_STRUCTURE_LIMIT = 1024


def now() -> datetime:
    """The current time, in UTC (when a change was made, for history and audit rows)."""
    return datetime.now(UTC)


# The full-text tables: the keys' text, and their glosses (rows keyed by search key id).
FTS_TABLES = ("fts", "fts_gloss")


def merge_fts(conn: sqlite3.Connection) -> None:
    """Merge the full-text index into one segment, so a deleted row's words leave it.

    FTS5 'optimize' adds a level to the index's structure record each time it merges
    segments of several levels (any write since the last one), and FTS5 reads a record of
    more than 2,000 levels as corrupt: "database disk image is malformed" after some 1,400
    deletions or merges (SQLite 3.40; later releases cap the levels at 64). An empty level
    is 2 bytes of that record (row 10 of `fts_data`), so past FTS_STRUCTURE_LIMIT bytes the
    index is rebuilt from its content instead: one level again, also free of deleted words,
    and slower (every row is tokenized again), hence only then.
    """
    for table in FTS_TABLES:
        row = conn.execute(f"SELECT length(block) FROM {table}_data WHERE id = 10").fetchone()
        command = "rebuild" if row is not None and row[0] > FTS_STRUCTURE_LIMIT else "optimize"
        conn.execute(f"INSERT INTO {table} ({table}) VALUES ('{command}')")


class SQLiteConnection:
    """One SQLite file: WAL, foreign keys, secure delete. Thread-safe through one connection
    and a lock; the search channels read through per-thread read-only connections."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot open SQLite file {str(path)!r}: {exc}; check the path and permissions"
            ) from exc
        self._conn = connect(str(path))  # its errors are StoreErrors (translate.py)
        self._closed = False
        self._lock = threading.RLock()
        self._local = threading.local()  # each thread's read connection (see _reading)
        self._readers: list[sqlite3.Connection] = []
        self._dense = DenseIndex()  # the search index's cached matrices (index.py)
        self._lengths = UserLengths()  # users' full-text row counts and lengths (bm25.py)
        self._terms = TermCounts()  # users' rows holding a term, and how often (bm25.py)
        # per user: (memories, mean importance when measured, importance gained since);
        # kept by reinforcement (memories.py), dropped when the user is deleted
        self._means: dict[str, tuple[int, float, float]] = {}
        with self._lock, migrating(self._conn):
            migrate(self._conn)
        self._scrub()  # a clean-up a crash cut short (see `_mark_scrub`) is finished first

    # -- transactions and reads -------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; rolled back entirely on any error."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def _read_in(self, sql: str, user_id: str, values: Sequence[Any]) -> list[sqlite3.Row]:
        """Rows of `sql` (one user's, `?` first, `IN ({marks})` for the values) over `values`
        in chunks, so that a long list stays within SQLite's limit on parameters."""
        rows: list[sqlite3.Row] = []
        for start in range(0, len(values), CHUNK):
            chunk = list(values[start : start + CHUNK])
            rows += self._read(sql.format(marks=",".join("?" * len(chunk))), [user_id, *chunk])
        return rows

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A connection for the search channels: this thread's own read-only connection, so
        that channels run at once (WAL lets readers proceed beside each other and a writer);
        the shared one, under the lock, for an in-memory database."""
        if str(self.path) == ":memory:":
            with self._lock:
                yield self._conn
            return
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(str(self.path), reader=True)
            self._local.conn = conn
            with self._lock:
                self._readers.append(conn)
        yield conn

    def close(self) -> None:
        """Checkpoint the WAL and close the file (and the search threads' connections).

        A second call does nothing; any other use after it is a StoreError.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for reader in self._readers:
                reader.close()
            self._readers.clear()
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.close()

    @staticmethod
    def _mark_scrub(conn: sqlite3.Connection, *, vacuum: bool = False) -> None:
        """Inside a transaction that removed text: mark the file for `_scrub`.

        The mark commits with the deletion, so a crash before `_scrub` ran leaves it set and
        the next open (or `maintain`) finishes the clean-up; a deletion is never half done.
        """
        conn.execute(
            "INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE "
            "SET value = CASE WHEN value = 'vacuum' THEN value ELSE excluded.value END",
            (SCRUB_MARK, "vacuum" if vacuum else "checkpoint"),
        )

    def _scrub(self) -> bool:
        """Finish a marked clean-up: merge the full-text segments (a deleted row's words
        stay in the old segments until then), VACUUM after a deletion, then empty the
        WAL (its old frames still hold deleted text). Returns whether one was pending.

        The mark stays while another connection keeps the WAL busy, so a later open or
        `maintain` tries again.
        """
        with self._lock:
            row = self._conn.execute(
                "SELECT value FROM store_meta WHERE key = ?", (SCRUB_MARK,)
            ).fetchone()
            if row is None:
                return False
            merge_fts(self._conn)
            if row[0] == "vacuum":
                self._conn.execute("VACUUM")
            busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if not busy:
                self._conn.execute("DELETE FROM store_meta WHERE key = ?", (SCRUB_MARK,))
            return True

    # -- embedder binding -------------------------------------------------------------------

    def bind_embedder(self, embedder_id: str, dimensions: int) -> None:
        """Record the embedder on first use; refuse a different one afterwards."""
        with self._tx() as conn:
            rows = dict(conn.execute("SELECT key, value FROM store_meta").fetchall())
            if "embedder_id" not in rows:
                conn.executemany(
                    "INSERT INTO store_meta (key, value) VALUES (?, ?)",
                    [("embedder_id", embedder_id), ("embedder_dim", str(dimensions))],
                )
                return
        stored_id, stored_dim = rows["embedder_id"], int(rows["embedder_dim"])
        if stored_id != embedder_id or stored_dim != dimensions:
            raise EmbedderMismatchError(
                f"this store's vectors come from embedder {stored_id!r} ({stored_dim} dims), "
                f"but it was opened with {embedder_id!r} ({dimensions} dims); open it with "
                "the same embedder, or use a new store file"
            )

    # -- rows every role writes or checks -----------------------------------------------------

    @staticmethod
    def _audit(
        conn: sqlite3.Connection,
        user_id: str,
        actor: str,
        action: str,
        target: str | None,
        detail: dict[str, Any] | None = None,
    ) -> None:
        conn.execute(
            "INSERT INTO audit_log (user_id, at, actor, action, target_id, detail) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (user_id, codec.ts(now()), actor, action, target, json.dumps(detail or {})),
        )

    @staticmethod
    def _history(
        conn: sqlite3.Connection,
        user_id: str,
        record_id: str,
        event: str,
        old: str | None,
        new: str | None,
        actor: str,
        at: datetime | None = None,
    ) -> None:
        """One history entry, at `at` (the transaction's moment; now when not given)."""
        conn.execute(
            "INSERT INTO history (user_id, record_id, event, old_text, new_text, at, actor) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (user_id, record_id, event, old, new, codec.ts(now() if at is None else at), actor),
        )

    def _kinds(self, user_id: str, ids: Sequence[str]) -> dict[str, str]:
        """The kind of each id that exists for this user ('episode' or a memory kind)."""
        if len(ids) > CHUNK:
            return {
                k: v
                for i in range(0, len(ids), CHUNK)
                for k, v in self._kinds(user_id, ids[i : i + CHUNK]).items()
            }
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._read(
            f"SELECT id, 'episode' FROM episodes WHERE +user_id = ? AND id IN ({marks}) "
            f"UNION ALL SELECT id, kind FROM memories WHERE +user_id = ? AND id IN ({marks})",
            [user_id, *ids, user_id, *ids],
        )
        return {r[0]: r[1] for r in rows}

    def _require(self, user_id: str, record_id: str) -> str:
        """The record's kind; NotFoundError if this user has no such record."""
        kind = self._kinds(user_id, [record_id]).get(record_id)
        if kind is None:
            raise NotFoundError(
                f"no record {record_id!r} for user {user_id!r}; list the user's ids with "
                "Memory.get_all(user_id=...) or `dualtrace list --user ...`"
            )
        return kind
