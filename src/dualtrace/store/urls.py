"""Open a store named by a URL or a file path: the one place a backend is chosen by name.

`sqlite:///path/to/memory.db` or a plain file path opens a SQLite file; `postgresql://…` a
PostgreSQL database. The opening itself is `store/open.py`'s `open_store`; this adds the
checks a tool naming a store to read from needs (`must_exist`).
"""

from __future__ import annotations

from pathlib import Path

from dualtrace.environment import sqlite_path_from_url
from dualtrace.errors import ConfigError
from dualtrace.store.base import Store
from dualtrace.store.open import is_postgres_url, open_store

EXAMPLES = "sqlite:///path/to/memory.db, a file path such as memory.db, or postgresql://host/db"


def open_store_url(value: str, *, must_exist: bool = False) -> Store:
    """The store `value` names (a store URL, or a SQLite file path).

    `must_exist`: a SQLite file that does not exist is a ConfigError instead of a new,
    empty store (a migration's source, say).

    >>> store = open_store_url("sqlite:///:memory:")
    >>> store.close()
    """
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"store {value!r} names nothing; use {EXAMPLES}")
    if is_postgres_url(value):
        return open_store(value)  # a database that does not exist fails to connect
    scheme = value.split("://", 1)[0] if "://" in value else None
    if scheme is not None and scheme != "sqlite":
        raise ConfigError(
            f"store {value.split('@')[-1]!r}: unknown scheme {scheme + '://'!r}; use {EXAMPLES}"
        )
    path = sqlite_path_from_url(value) if "://" in value else value
    if path != ":memory:" and must_exist and not Path(path).expanduser().is_file():
        raise ConfigError(
            f"store {value!r}: no such file {str(Path(path).expanduser())!r}; check the path "
            f"(a store to read from must exist), e.g. {EXAMPLES}"
        )
    return open_store(":memory:" if path == ":memory:" else Path(path).expanduser())


def store_identity(value: str) -> str:
    """What tells two stores apart: a SQLite file's resolved path, or the URL itself."""
    if "://" in value and not value.startswith("sqlite:///"):
        return value
    path = sqlite_path_from_url(value) if "://" in value else value
    return path if path == ":memory:" else str(Path(path).expanduser().resolve())
