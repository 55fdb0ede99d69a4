"""Open a store named by a URL or a file path: the one place a backend is chosen by name.

`sqlite:///path/to/memory.db` or a plain file path opens a SQLite file; `postgresql://…` is
the PostgreSQL backend's once it is installed (until then `sqlite_path_from_url` says so).
"""

from __future__ import annotations

from pathlib import Path

from dualtrace.config import sqlite_path_from_url
from dualtrace.errors import ConfigError
from dualtrace.store.base import Store

EXAMPLES = "sqlite:///path/to/memory.db, a file path such as memory.db, or postgresql://host/db"


def open_store_url(value: str, *, must_exist: bool = False) -> Store:
    """The store `value` names (a store URL, or a SQLite file path).

    `must_exist`: a SQLite file that does not exist is a ConfigError instead of a new,
    empty store (a migration's source, say).

    >>> store = open_store_url("sqlite:///:memory:")
    >>> store.close()
    """
    from dualtrace.store.sqlite.store import SQLiteStore

    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"store {value!r} names nothing; use {EXAMPLES}")
    path = sqlite_path_from_url(value) if "://" in value else value
    if path != ":memory:" and must_exist and not Path(path).expanduser().is_file():
        raise ConfigError(
            f"store {value!r}: no such file {str(Path(path).expanduser())!r}; check the path "
            f"(a store to read from must exist), e.g. {EXAMPLES}"
        )
    return SQLiteStore(":memory:" if path == ":memory:" else Path(path).expanduser())


def store_identity(value: str) -> str:
    """What tells two stores apart: a SQLite file's resolved path, or the URL itself."""
    if "://" in value and not value.startswith("sqlite:///"):
        return value
    path = sqlite_path_from_url(value) if "://" in value else value
    return path if path == ":memory:" else str(Path(path).expanduser().resolve())
