"""Open a store from what a user names: a file path or a URL (`sqlite:///…`, `postgresql://…`).

The facade, the CLI and tools that move data between backends call `open_store`; the URL is
parsed here, once, and the backend's module imported only when it is used (psycopg is an
optional dependency: the `postgres` extra).
"""

from __future__ import annotations

from pathlib import Path

from dualtrace.environment import sqlite_path_from_url
from dualtrace.errors import ConfigError
from dualtrace.store.base import Store

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: object) -> bool:
    """Whether `target` is a PostgreSQL URL."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def open_store(target: str | Path) -> Store:
    """The store `target` names: a PostgreSQL URL, a `sqlite:///path` URL, or a file path
    (":memory:" for a throwaway SQLite store).

    >>> store = open_store(":memory:")
    >>> store.close()
    """
    if is_postgres_url(target):
        try:
            from dualtrace.store.postgres.store import PostgresStore
        except ImportError as exc:
            raise ConfigError(
                f"the PostgreSQL backend needs psycopg ({exc}); install it with "
                "`pip install 'dualtrace[postgres]'`"
            ) from exc
        return PostgresStore(str(target))
    from dualtrace.store.sqlite.store import SQLiteStore

    if isinstance(target, str) and "://" in target:
        return SQLiteStore(sqlite_path_from_url(target))
    return SQLiteStore(target)
