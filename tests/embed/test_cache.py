"""The embedding cache: same text embedded once, in memory and across runs via a file."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dualtrace.embed.cache import CachedEmbedder
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.sqlite.embed_cache import EmbeddingCacheFile


def test_duplicates_are_embedded_once_and_order_is_kept() -> None:
    fake = FakeEmbedder()
    cached = CachedEmbedder(fake)
    out = cached.embed_passages(["alpha beta", "gamma", "alpha beta"])
    assert sum(fake.calls) == 2
    assert np.allclose(out[0], out[2]) and not np.allclose(out[0], out[1])
    cached.embed_passages(["gamma"])
    assert sum(fake.calls) == 2
    cached.embed_queries(["gamma"])  # queries are cached apart (other prefix)
    assert sum(fake.calls) == 3


def test_file_cache_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    first = FakeEmbedder()
    CachedEmbedder(first, persistent=EmbeddingCacheFile(path)).embed_passages(["one", "two"])
    second = FakeEmbedder()
    out = CachedEmbedder(second, persistent=EmbeddingCacheFile(path)).embed_passages(["two", "one"])
    assert second.calls == []
    assert out.shape == (2, 64) and out.dtype == np.float32
