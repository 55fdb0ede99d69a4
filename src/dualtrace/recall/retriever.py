"""Hybrid retrieval: dense and lexical channels over every searchable key, fused."""

from __future__ import annotations

from dataclasses import dataclass

from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.lexical import query_terms
from dualtrace.recall.fusion import rrf_fusion, weighted_fusion
from dualtrace.store.base import SearchScope, Store


@dataclass(frozen=True)
class Scored:
    """A fused result: record id, fused score, and the per-channel breakdown."""

    record_id: str
    score: float
    scores: dict[str, float]


class Retriever:
    """Runs the dense and lexical channels and fuses them (weighted min–max, or RRF)."""

    def __init__(self, store: Store, embedder: Embedder, config: MemoryConfig) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config

    def _min_spreads(self, raw: dict[str, dict[str, float]]) -> dict[str, float]:
        # Cosine similarities of one model sit in a narrow band (e5: ~0.75 unrelated, ~0.85
        # related); BM25 scores scale with the query, so its floor is relative.
        top_lexical = max(raw["lexical"].values(), default=0.0)
        return {
            "dense": self.config.dense_min_spread,
            "lexical": self.config.lexical_min_spread * top_lexical,
        }

    def retrieve(self, user_id: str, query: str, limit: int, scope: SearchScope) -> list[Scored]:
        """The best `limit` records for the query, best first."""
        depth = max(self.config.candidates, limit)
        vector = self.embedder.embed_queries([query])[0]
        dense = self.store.search_dense(user_id, vector, depth, scope)
        lexical = self.store.search_lexical(user_id, query_terms(query), depth, scope)
        raw = {
            "dense": {c.record_id: c.score for c in dense},
            "lexical": {c.record_id: c.score for c in lexical},
        }
        if self.config.fusion == "rrf":
            ranked = {name: list(scores) for name, scores in raw.items()}
            fused, parts = rrf_fusion(ranked, self.config.rrf_k)
        else:
            weights = {"dense": self.config.dense_weight, "lexical": 1 - self.config.dense_weight}
            fused, parts = weighted_fusion(raw, weights, self._min_spreads(raw))
        results = []
        for record_id, score in fused.items():
            breakdown = dict(parts[record_id])
            for name, scores in raw.items():
                if record_id in scores:
                    breakdown[f"{name}_raw"] = scores[record_id]
            results.append(Scored(record_id, score, breakdown))
        results.sort(key=lambda s: -s.score)
        return results[:limit]
