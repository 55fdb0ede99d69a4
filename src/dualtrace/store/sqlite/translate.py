"""SQLite's errors as StoreErrors that name the file and the fix, at the one place every
statement passes: the connection's `execute`, and the cursor's fetches.

A damaged file, a read-only file, a lock held too long or a closed store would otherwise
reach the caller as a bare `sqlite3.DatabaseError` from whichever query met it first.
IntegrityError is left as it is: a constraint failure is a bug in the statements that
caused it, which the store's own code handles where it expects one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from dualtrace.errors import SchemaError, StoreError


def store_error(exc: sqlite3.Error, path: str) -> StoreError:
    """The StoreError for a SQLite error met on the file `path`."""
    text = str(exc)
    lowered = text.lower()
    if isinstance(exc, sqlite3.ProgrammingError) and "closed" in lowered:
        return StoreError(
            f"the store {path!r} is closed (Memory.close() ran, or its `with` block ended); "
            "open a new Memory to use it again"
        )
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return StoreError(
            f"SQLite file {path!r} is damaged or is not a dualtrace database ({text}); "
            "restore it from a backup, or open another path"
        )
    if "readonly" in lowered or "read-only" in lowered:
        return StoreError(
            f"cannot write to SQLite file {path!r} ({text}); make the file and its folder "
            "writable by this user, or open a writable copy"
        )
    if "locked" in lowered or "busy" in lowered:
        return StoreError(
            f"SQLite file {path!r} stayed locked by another connection for 30 s ({text}); "
            "retry, or find the process that holds a long write transaction"
        )
    if "disk" in lowered and ("full" in lowered or "i/o" in lowered):
        return StoreError(f"SQLite could not write {path!r} ({text}); free disk space and retry")
    return StoreError(f"SQLite failed on {path!r}: {text}")


def _translated(exc: sqlite3.Error, conn: sqlite3.Connection) -> BaseException:
    if isinstance(exc, sqlite3.IntegrityError) or getattr(conn, "raw", False):
        return exc
    return store_error(exc, getattr(conn, "label", "?"))


class StoreCursor(sqlite3.Cursor):
    """A cursor whose errors, while stepping or fetching, are StoreErrors."""

    def execute(self, sql: str, parameters: Any = (), /) -> StoreCursor:
        try:
            super().execute(sql, parameters)
        except sqlite3.Error as exc:
            raise _translated(exc, self.connection) from exc
        return self

    def executemany(self, sql: str, seq_of_parameters: Iterable[Any], /) -> StoreCursor:
        try:
            super().executemany(sql, seq_of_parameters)
        except sqlite3.Error as exc:
            raise _translated(exc, self.connection) from exc
        return self

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except sqlite3.Error as exc:
            raise _translated(exc, self.connection) from exc

    def fetchmany(self, size: int | None = 1) -> list[Any]:
        try:
            return super().fetchmany(size if size is not None else self.arraysize)
        except sqlite3.Error as exc:
            raise _translated(exc, self.connection) from exc

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except sqlite3.Error as exc:
            raise _translated(exc, self.connection) from exc

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except sqlite3.Error as exc:
            raise _translated(exc, self.connection) from exc


class StoreConnection(sqlite3.Connection):
    """A connection (pass as `factory=` to sqlite3.connect) whose statements raise
    StoreErrors; `label` names the file in messages, and while `raw` is set (migrations,
    which roll back on sqlite3 errors themselves) errors pass untouched."""

    label = "?"
    raw = False

    def execute(self, sql: str, parameters: Any = (), /) -> StoreCursor:
        return self._cursor().execute(sql, parameters)

    def executemany(self, sql: str, seq_of_parameters: Iterable[Any], /) -> StoreCursor:
        return self._cursor().executemany(sql, seq_of_parameters)

    def _cursor(self) -> StoreCursor:
        try:
            return self.cursor(StoreCursor)
        except sqlite3.Error as exc:  # a closed connection refuses a new cursor
            raise _translated(exc, self) from exc


def connect(path: str, *, reader: bool = False) -> StoreConnection:
    """A StoreConnection to `path`, set up as the store uses it: WAL, foreign keys and secure
    delete for the writer; query-only for a search thread's reader.

    A file SQLite cannot open or read (a folder, a damaged or foreign file) is a StoreError.
    """
    try:
        conn = sqlite3.connect(
            path,
            isolation_level=None,
            check_same_thread=False,
            timeout=30,
            factory=StoreConnection,
        )
    except sqlite3.Error as exc:
        raise StoreError(
            f"cannot open SQLite file {path!r}: {exc}; check the path and permissions"
        ) from exc
    conn.label = path
    conn.row_factory = sqlite3.Row
    pragmas = (
        ("query_only = ON",)
        if reader
        else (
            "journal_mode = WAL",
            "foreign_keys = ON",
            "secure_delete = ON",
            "synchronous = NORMAL",
        )
    )
    try:
        # reading the schema is what finds a file that is not a database, or is cut short;
        # another program's database is refused before WAL mode or a table changes it
        refuse_foreign(conn, path)
        for pragma in pragmas:
            conn.execute(f"PRAGMA {pragma}")
    except StoreError:
        conn.close()
        raise
    return conn


def refuse_foreign(conn: sqlite3.Connection, path: str) -> None:
    """A SchemaError if `path` is a database with tables but no dualtrace store in it (no
    `schema_migrations` table of ours): an empty file or a new path is a new store."""
    names = sorted(
        row[0]
        for row in conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    )
    if not names:
        return
    if "schema_migrations" in names:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(schema_migrations)")}
        if {"name", "applied_at"} <= columns:
            return
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    raise SchemaError(
        f"SQLite file {path!r} is another program's database (it holds {shown}, and no "
        "dualtrace store); nothing in it was changed. Point --db (or the sqlite:/// URL) "
        "at a new file or at a dualtrace store"
    )


@contextmanager
def migrating(conn: StoreConnection) -> Iterator[None]:
    """Migrations see SQLite's own errors (each rolls itself back on one); what escapes
    them unhandled still leaves as a StoreError."""
    conn.raw = True
    try:
        yield
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.IntegrityError):
            raise
        raise store_error(exc, conn.label) from exc
    finally:
        conn.raw = False
