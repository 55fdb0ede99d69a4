"""A deterministic embedder for unit tests: hashed bag of words, so shared words mean similarity."""

from __future__ import annotations

import hashlib

import numpy as np

from dualtrace.embed.base import Matrix, normalise_rows
from dualtrace.text.lexical import query_terms


class FakeEmbedder:
    """Hashes each word (stop words removed) into one of `dimensions` buckets. Tests only."""

    language_gap = 0.0  # words hash alike in either language (see `Embedder`)

    def __init__(self, dimensions: int = 64, name: str = "fake") -> None:
        self._dimensions = dimensions
        self._name = name
        self.calls: list[int] = []  # batch sizes, so tests can prove caching and batching

    @property
    def id(self) -> str:
        return f"fake:{self._name}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    @property
    def max_batch(self) -> int:
        return 16

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self._dimensions, dtype=np.float32)
        for word in query_terms(text, max_terms=512):
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            vec[int.from_bytes(digest, "little") % self._dimensions] += 1.0
        return vec

    def _embed(self, texts: list[str]) -> Matrix:
        for start in range(0, len(texts), self.max_batch):
            self.calls.append(len(texts[start : start + self.max_batch]))
        if not texts:
            return np.zeros((0, self._dimensions), dtype=np.float32)
        return normalise_rows(np.vstack([self._vector(t) for t in texts]))

    def embed_passages(self, texts: list[str]) -> Matrix:
        """Embed stored texts."""
        return self._embed(texts)

    def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed queries (same space as passages)."""
        return self._embed(texts)
