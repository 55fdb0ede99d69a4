"""The store's lifecycle: the embedder binding, backups, closing."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol


class StoreLifecycle(Protocol):
    """Whole-store concerns: which embedder the store's vectors come from, backing it up,
    and closing it."""

    def bind_embedder(self, embedder_id: str, dimensions: int) -> None:
        """Record the store's embedder, or raise EmbedderMismatchError if it has another."""
        ...

    def backup(self, path: Path, *, overwrite: bool = False) -> Path:
        """Write a consistent copy of the whole store (every user) to the file `path` while
        others keep writing; returns `path`. The copy holds every write committed before
        the call and no half transaction, and can be opened as a store of its own.

        A ValidationError, with nothing written, if `path` exists (unless `overwrite`), is
        in a folder that does not exist, or is the store itself. A crash part-way leaves
        no file under `path`; a copy that fails its integrity check is a StoreError.
        """
        ...

    def close(self) -> None:
        """Flush and release the store (no call may follow)."""
        ...
