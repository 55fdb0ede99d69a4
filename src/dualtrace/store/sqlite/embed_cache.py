"""A file of embeddings keyed by (embedder id, prefix kind, text hash), shared across runs.

It holds vectors, never text, so it can live outside any user's store (for benchmarks and
re-imports) without keeping what a deleted user said.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from dualtrace.errors import StoreError


class EmbeddingCacheFile:
    """Get and put vectors by key in a small SQLite file."""

    def __init__(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            # several processes (benchmark workers, app instances) share one cache file:
            # a writer waits for another's transaction, as the store's connections do
            self._conn = sqlite3.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=30
            )
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA secure_delete = ON")  # forgotten vectors: zeroed
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS embeddings (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open embedding cache {str(path)!r}: {exc}") from exc
        self._lock = threading.Lock()

    def get_many(self, keys: Sequence[str], dim: int) -> dict[str, np.ndarray]:
        """Cached vectors for the keys that have one."""
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = list(keys[start : start + 500])
                marks = ",".join("?" * len(chunk))
                rows = self._conn.execute(
                    f"SELECT key, vector FROM embeddings WHERE key IN ({marks})",
                    chunk,
                ).fetchall()
                found.update({k: np.frombuffer(v, dtype=np.float32, count=dim) for k, v in rows})
        return found

    def put_many(self, items: dict[str, np.ndarray]) -> None:
        """Store vectors (existing keys are kept)."""
        rows = [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()]
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.executemany(
                    "INSERT OR IGNORE INTO embeddings (key, vector) VALUES (?, ?)", rows
                )
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise StoreError(
                    f"cannot write to the embedding cache file ({exc}); check its disk space "
                    "and permissions, or leave `embed_cache_path` unset"
                ) from exc

    def delete_many(self, keys: Sequence[str]) -> None:
        """Forget these keys' vectors (zeroed in the file, the WAL emptied)."""
        with self._lock:
            self._conn.execute("BEGIN")
            for start in range(0, len(keys), 500):
                chunk = list(keys[start : start + 500])
                self._conn.execute(
                    f"DELETE FROM embeddings WHERE key IN ({','.join('?' * len(chunk))})", chunk
                )
            self._conn.execute("COMMIT")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._conn.close()
