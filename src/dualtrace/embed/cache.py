"""An Embedder wrapper that never embeds the same text twice: memory LRU, then optional file."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Protocol

import numpy as np

from dualtrace.embed.base import Embedder, Matrix


class VectorCache(Protocol):
    """Persistent key → vector storage (see store/sqlite/embed_cache.py)."""

    def get_many(self, keys: list[str], dim: int) -> dict[str, np.ndarray]: ...

    def put_many(self, items: dict[str, np.ndarray]) -> None: ...

    def delete_many(self, keys: list[str]) -> None: ...


def text_hash(text: str) -> str:
    """The content hash used for caching and idempotency (sha256 of UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    """Wraps an Embedder; identical texts (per prefix kind) are embedded once."""

    def __init__(
        self, inner: Embedder, *, persistent: VectorCache | None = None, capacity: int = 50_000
    ) -> None:
        self.inner = inner
        self._persistent = persistent
        self._capacity = capacity
        self._memory: OrderedDict[str, np.ndarray] = OrderedDict()

    @property
    def id(self) -> str:
        return self.inner.id

    @property
    def dimensions(self) -> int:
        return self.inner.dimensions

    @property
    def max_batch(self) -> int:
        return self.inner.max_batch

    @property
    def language_gap(self) -> float:
        """The wrapped embedder's (see `Embedder`)."""
        return self.inner.language_gap

    def _key(self, kind: str, text: str) -> str:
        return self._key_of_hash(kind, text_hash(text))

    def _remember(self, key: str, vector: np.ndarray) -> None:
        self._memory[key] = vector
        self._memory.move_to_end(key)
        while len(self._memory) > self._capacity:
            self._memory.popitem(last=False)

    def _embed(self, texts: list[str], kind: str) -> Matrix:
        keys = [self._key(kind, t) for t in texts]
        found = {k: self._memory[k] for k in keys if k in self._memory}
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing and self._persistent is not None:
            found.update(self._persistent.get_many(missing, self.dimensions))
            missing = [k for k in missing if k not in found]
        if missing:
            by_key = {k: t for k, t in zip(keys, texts, strict=True)}
            todo = [by_key[k] for k in missing]
            fresh = (
                self.inner.embed_queries(todo) if kind == "q" else self.inner.embed_passages(todo)
            )
            new = dict(zip(missing, fresh, strict=True))
            found.update(new)
            if self._persistent is not None:
                self._persistent.put_many(new)
        for k in dict.fromkeys(keys):
            self._remember(k, found[k])
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.vstack([found[k] for k in keys]).astype(np.float32)

    def embed_passages(self, texts: list[str]) -> Matrix:
        """Embed stored texts, from cache where possible."""
        return self._embed(texts, "p")

    def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed queries, from cache where possible."""
        return self._embed(texts, "q")

    def forget(self, hashes: list[str]) -> None:
        """Drop the vectors of texts with these content hashes (`text_hash`), from memory
        and from the file: a deleted text's vector must not outlive it."""
        keys = [self._key_of_hash(kind, h) for h in hashes for kind in ("p", "q")]
        for key in keys:
            self._memory.pop(key, None)
        if self._persistent is not None and keys:
            self._persistent.delete_many(keys)

    def _key_of_hash(self, kind: str, digest: str) -> str:
        return f"{self.inner.id}|{kind}|{digest}"
