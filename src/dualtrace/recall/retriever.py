"""Hybrid retrieval: dense, lexical and entity channels over every searchable key, fused."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import partial

from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.models import Candidate, EntityMention
from dualtrace.recall.fusion import rrf_fusion, weighted_fusion
from dualtrace.recall.question import Question
from dualtrace.store.base import SearchScope, Store, Vector
from dualtrace.store.languages import KEY_LANGUAGES, key_language
from dualtrace.text.aliases import AliasIndex

# How much deeper channels look when metadata or as_of filters will drop most candidates.
FILTERED_DEPTH = 20

# The gloss channel (the question's words against the keys' words in the other language)
# weighs this share of `crosslingual_weight`: at the full weight it pulled the same-language
# ceiling of `bench crosslingual` down from 0.881 to 0.833 (docs/benchmarks.md).
GLOSS_SHARE = 0.5

# Channels whose scores already lie on a fixed [0, 1] scale (not min-max stretched).
ABSOLUTE_CHANNELS = frozenset({"entity", "time"})


@dataclass(frozen=True)
class Scored:
    """A fused result: record id, fused score, and the per-channel breakdown."""

    record_id: str
    score: float
    scores: dict[str, float]


class Retriever:
    """Runs each channel and fuses them (weighted min–max, or RRF)."""

    def __init__(self, store: Store, embedder: Embedder, config: MemoryConfig) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config
        self._aliases: dict[str, tuple[tuple[int, str], AliasIndex]] = {}
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="dualtrace-channel")

    def retrieve(
        self, user_id: str, query: Question, limit: int, scope: SearchScope
    ) -> list[Scored]:
        """The best `limit` records for the query, best first."""
        raw = self._channels(user_id, query, max(self.config.candidates, limit), scope)
        if self.config.fusion == "rrf":
            fused, parts = rrf_fusion({name: list(s) for name, s in raw.items()}, self.config.rrf_k)
        else:
            fused, parts = weighted_fusion(
                raw, self._weights(), self._min_spreads(raw), absolute=ABSOLUTE_CHANNELS
            )
        results = []
        for record_id, score in fused.items():
            breakdown = dict(parts[record_id])
            for name, scores in raw.items():
                if record_id in scores:
                    breakdown[f"{name}_raw"] = scores[record_id]
            results.append(Scored(record_id, score, breakdown))
        results.sort(key=lambda s: -s.score)
        return results[:limit]

    def _channels(
        self, user_id: str, query: Question, depth: int, scope: SearchScope
    ) -> dict[str, dict[str, float]]:
        if scope.metadata or scope.occurred_before is not None:
            # these filters apply after each channel's top keys: look deeper so that a rare
            # filter value still finds its records
            depth *= FILTERED_DEPTH
        # The query embedding runs first and alone: the model's own threads use every core,
        # and channel threads beside them slowed it 10 -> 26 ms (p50) on 2 cores.
        texts = [query.text]
        if self.config.crosslingual_dense and query.translated:
            texts.append(" ".join(query.translated))
        vectors = self.embedder.embed_queries(texts)
        jobs: dict[str, Callable[[], list[Candidate]]] = {
            "dense": partial(self._dense, user_id, list(vectors), depth, scope, query.text),
            "lexical": partial(self.store.search_lexical, user_id, query.terms, depth, scope),
        }
        if self.config.crosslingual_weight > 0:
            # the question's words in the other language against the keys' text, and its own
            # words against the keys' glosses (their words in the other language)
            if query.translated:
                jobs["crosslingual"] = partial(
                    self.store.search_lexical, user_id, query.translated, depth, scope
                )
            jobs["gloss"] = partial(
                self.store.search_lexical, user_id, query.terms, depth, scope, glosses=True
            )
        if self.config.entity_weight > 0 and query.entities:
            jobs["entity"] = partial(self._entities, user_id, query.entities, depth, scope)
        # The channels run at once: SQLite and numpy release the GIL, and the store gives
        # each thread its own read connection.
        futures = {name: self._pool.submit(job) for name, job in jobs.items()}
        channels = {name: future.result() for name, future in futures.items()}
        if self.config.temporal_weight > 0 and query.window is not None:
            # after the others: a busy window ("last Saturday", 450 records in a LongMemEval
            # haystack) holds more than the channel lists, and what the others found must be
            # judged by its own time
            tz = query.now.tzinfo or UTC
            start = datetime.combine(query.window[0], time(), tzinfo=tz)
            end = datetime.combine(query.window[1], time(), tzinfo=tz) + timedelta(days=1)
            found = [c.record_id for hits in channels.values() for c in hits]
            channels["time"] = self.store.search_time(user_id, start, end, depth, scope, found)
        return {name: {c.record_id: c.score for c in found} for name, found in channels.items()}

    def _dense(
        self, user_id: str, vectors: Sequence[Vector], depth: int, scope: SearchScope,
        text: str,
    ) -> list[Candidate]:  # fmt: skip
        """The dense channel: the query's vector, or the better of the query's and its
        translation's for each record. Keys in the other language than the question's get
        the embedder's `language_gap` back (e5-small rates its own language higher), times
        `dense_language_balance`."""
        gap = self.config.dense_language_balance * getattr(self.embedder, "language_gap", 0.0)
        own = key_language(text)
        offset = {lang: gap for lang in KEY_LANGUAGES if lang != own}
        if len(vectors) == 1:
            return self.store.search_dense(
                user_id, vectors[0], depth, scope, language_offset=offset
            )
        lists = self.store.search_dense_many(
            user_id, list(vectors), depth, scope, language_offset=offset
        )
        best: dict[str, Candidate] = {}
        for found in lists:
            for c in found:
                if c.record_id not in best or c.score > best[c.record_id].score:
                    best[c.record_id] = c
        return sorted(best.values(), key=lambda c: -c.score)[:depth]

    def _entities(
        self, user_id: str, mentions: list[EntityMention], depth: int, scope: SearchScope
    ) -> list[Candidate]:
        canonicals = self._canonical(user_id, mentions)
        return self.store.search_entities(
            user_id, canonicals, depth, scope, self.config.entity_max_share
        )

    def close(self) -> None:
        """Stop the channel threads."""
        self._pool.shutdown(wait=True)

    def _canonical(self, user_id: str, mentions: list[EntityMention]) -> list[str]:
        rows = self.store.entity_rows(user_id)
        # Building an AliasIndex compares each entity with the known ones: keep it per user
        # until the user's entities change.
        key = (len(rows), rows[-1].norm if rows else "")
        cached = self._aliases.get(user_id)
        if cached is None or cached[0] != key:
            cached = (key, AliasIndex(EntityMention(r.name, r.norm, r.type) for r in rows))
            self._aliases[user_id] = cached
        return sorted({cached[1].canonical(m).norm for m in mentions})

    def _weights(self) -> dict[str, float]:
        dense = self.config.dense_weight
        return {
            "dense": dense,
            "lexical": 1 - dense,
            "entity": self.config.entity_weight,
            "time": self.config.temporal_weight,
            "crosslingual": self.config.crosslingual_weight,
            "gloss": self.config.crosslingual_weight * GLOSS_SHARE,
        }

    def _min_spreads(self, raw: dict[str, dict[str, float]]) -> dict[str, float]:
        # Cosine similarities of one model sit in a narrow band (e5: ~0.75 unrelated, ~0.85
        # related); BM25 scores scale with the query, so its floor is relative.
        spreads = {"dense": self.config.dense_min_spread}
        for name in ("lexical", "crosslingual", "gloss"):  # BM25: relative to the top score
            spreads[name] = self.config.lexical_min_spread * max(
                raw.get(name, {}).values(), default=0.0
            )
        return spreads
