"""Hybrid retrieval: dense, lexical and entity channels over every searchable key, fused."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import partial

from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.models import Candidate, EntityMention
from dualtrace.recall.dense import language_queries, standardised
from dualtrace.recall.fusion import weighted_fusion
from dualtrace.recall.question import Question
from dualtrace.store.languages import KEY_LANGUAGES, key_language
from dualtrace.store.ports.reads import ChannelReads
from dualtrace.store.ports.records import EntityRow, SearchScope, Vector
from dualtrace.text.aggregate_cues import TYPE_WORDS
from dualtrace.text.aliases import AliasIndex
from dualtrace.text.entities import normalise_name

# How much deeper channels look when metadata or as_of filters will drop most candidates.
FILTERED_DEPTH = 20

# The gloss channel (the question's words against the keys' words in the other language)
# weighs this share of `crosslingual_weight`: at the full weight it pulled the same-language
# ceiling of `bench crosslingual` down from 0.881 to 0.833 (docs/notebook.md).
GLOSS_SHARE = 0.5

# Channels whose scores already lie on a fixed [0, 1] scale (not min-max stretched).
ABSOLUTE_CHANNELS = frozenset({"entity", "time", "type"})

# In a store of two languages, the lexical channel weighs its full share only when its best
# key holds at least this share of a full match of the question's words (`search_lexical`),
# and proportionally less below it. Min–max scaling gives the best of a weak list a score of
# 1: a question asked in the other language than its answer's matches only a common word or
# two of its own language's keys (a median share of 0.23 over 544 such questions, against
# 0.53 for the same questions asked in the answer's language), and those keys outranked the
# answer the dense and cross-lingual channels found. Over the ten dev sets of `bench
# crosslingual`, 0.3 / 0.35 / 0.4 / 0.5 gained 8 / 9 / 10 / 13 cross-lingual pairs at
# recall@3 and lost 1 / 1 / 2 / 9 same-language ones (docs/benchmarks.md). The list keeps
# at least LEXICAL_TRUST_FLOOR of its weight: without it, a question whose own words are all
# common ones lost its own-language answer (knowledge updates: repo first hit 87 -> 86 of 88,
# fresh2 context 44 -> 42 of 44; with it 87 and 43, and one cross-lingual pair fewer). A store
# of one language ranks as before.
LEXICAL_TRUST_SHARE = 0.35
LEXICAL_TRUST_FLOOR = 0.5
# The same for the question's words in the other language (the cross-lingual channel), whose
# shares run lower: each word brings every sense the lexicon gives it ("家" home, family), and
# a key matches one of them, so a key that shares one common sense ("家": "family") is the
# best of a weak list. A list whose best key holds less than this share weighs proportionally
# less (down to LEXICAL_TRUST_FLOOR). Over the ten dev sets of `bench crosslingual`, 0.2 / 0.3
# kept 492 / 491 of 544 cross-lingual pairs at recall@3 (492 before) and lifted the
# same-language ones 507 -> 513 / 516 (docs/benchmarks.md).
CROSSLINGUAL_TRUST_SHARE = 0.2

# How many users' alias indexes a long-lived service keeps (the least recently asked go).
ALIAS_CACHE_USERS = 256


def _trust(scores: dict[str, float], share: float) -> float:
    """How far a full-text list is trusted (a factor of its weight): fully when its best key
    holds at least `share` of a full match of the question's words, proportionally less
    below, never below LEXICAL_TRUST_FLOOR."""
    best = max(scores.values(), default=0.0)
    return max(LEXICAL_TRUST_FLOOR, min(1.0, best / share))


@dataclass(frozen=True)
class Scored:
    """A fused result: record id, fused score, and the per-channel breakdown."""

    record_id: str
    score: float
    scores: dict[str, float]


class AliasCache:
    """The AliasIndex of each of the last `users` users asked about: building one compares
    each entity with the known ones, so it is kept until the user's entities differ in any
    way from those it was built from (added, deleted, renamed or re-pointed)."""

    def __init__(self, users: int) -> None:
        self.users = users
        self._lock = threading.Lock()  # the service searches for many users at once
        self._built: OrderedDict[str, tuple[tuple[EntityRow, ...], AliasIndex]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._built)

    def index(self, user_id: str, rows: tuple[EntityRow, ...]) -> AliasIndex:
        """The user's AliasIndex over `rows` (their entities as stored now)."""
        with self._lock:
            cached = self._built.get(user_id)
            if cached is not None and cached[0] == rows:
                self._built.move_to_end(user_id)
                return cached[1]
        index = AliasIndex(EntityMention(r.name, r.norm, r.type) for r in rows)
        with self._lock:
            self._built[user_id] = (rows, index)
            self._built.move_to_end(user_id)
            while len(self._built) > self.users:
                self._built.popitem(last=False)
        return index


class Retriever:
    """Runs each channel and fuses them (weighted min–max)."""

    def __init__(
        self,
        store: ChannelReads,
        embedder: Embedder,
        config: MemoryConfig,
        crosslingual: Embedder | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config
        self.crosslingual = crosslingual  # scores keys in the other language (dense.py)
        self._aliases = AliasCache(ALIAS_CACHE_USERS)
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="dualtrace-channel")

    def retrieve(
        self, user_id: str, query: Question, limit: int, scope: SearchScope
    ) -> list[Scored]:
        """The best `limit` records for the query, best first."""
        mixed = self._has_other_language(user_id, query.text)
        raw = self._channels(user_id, query, max(self.config.candidates, limit), scope, mixed)
        weights = self._weights()
        if mixed:
            weights["lexical"] *= _trust(raw["lexical"], LEXICAL_TRUST_SHARE)
            weights["crosslingual"] *= _trust(raw.get("crosslingual", {}), CROSSLINGUAL_TRUST_SHARE)
        fused, parts = weighted_fusion(raw, weights, absolute=ABSOLUTE_CHANNELS)
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
        self, user_id: str, query: Question, depth: int, scope: SearchScope, mixed: bool
    ) -> dict[str, dict[str, float]]:
        """Each channel's scores by record; `mixed`: the user has keys in the other language
        than the question's (only then does the cross-lingual embedder run)."""
        if scope.metadata or scope.occurred_before is not None:
            # these filters apply after each channel's top keys: look deeper so that a rare
            # filter value still finds its records
            depth *= FILTERED_DEPTH
        # The query embedding runs first and alone: the model's own threads use every core,
        # and channel threads beside them slowed it 10 -> 26 ms (p50) on 2 cores.
        vector = self.embedder.embed_queries([query.text])[0]
        crossed = None
        if self.crosslingual is not None and mixed:
            crossed = self.crosslingual.embed_queries([query.text])[0]
        jobs: dict[str, Callable[[], list[Candidate]]] = {
            "dense": partial(self._dense, user_id, (vector, crossed), depth, scope, query.text),
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
        if self.config.entity_weight > 0 and query.instance_type is not None:
            jobs["type"] = partial(self._typed, user_id, query.instance_type, depth, scope)
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
        self,
        user_id: str,
        vectors: tuple[Vector, Vector | None],
        depth: int,
        scope: SearchScope,
        text: str,
    ) -> list[Candidate]:
        """The dense channel: with a cross-lingual embedder (its vector of the question
        second in `vectors`), each language by both, on one scale (dense.py).
        Without one, or while some keys lack its vectors, keys in the other language than
        the question's get the embedder's `language_gap` back (e5-small rates its own
        language higher), times `dense_language_balance`."""
        vector, crossed = vectors
        own = key_language(text)
        if crossed is not None:
            queries = language_queries(own, vector, crossed)
            found = standardised(
                self.store.search_dense_languages(user_id, queries, depth, scope), depth
            )
            if found is not None:
                return found
        gap = self.config.dense_language_balance * self.embedder.language_gap
        offset = {lang: gap for lang in KEY_LANGUAGES if lang != own}
        return self.store.search_dense(user_id, vector, depth, scope, language_offset=offset)

    def _has_other_language(self, user_id: str, text: str) -> bool:
        """Whether the user has keys in another language than the question's: only those
        are scored by the cross-lingual embedder (a store in the question's language ranks
        the same without it, and its ~2 ms are saved)."""
        own = key_language(text)
        return any(n > 0 for lang, n in self.store.key_languages(user_id).items() if lang != own)

    def _entities(
        self, user_id: str, mentions: list[EntityMention], depth: int, scope: SearchScope
    ) -> list[Candidate]:
        canonicals = self._canonical(user_id, mentions)
        return self.store.search_entities(
            user_id, canonicals, depth, scope, self.config.entity_max_share
        )

    def _typed(self, user_id: str, kind: str, depth: int, scope: SearchScope) -> list[Candidate]:
        """The channel for a question that asks every instance of a kind of thing, not a
        named one ("Which cities have I been to?"), each record scored 1: for a kind known by
        its words (`TYPE_WORDS`: pastimes), the keys holding any of them; else the memories
        that mention any of the user's entities of that type (an entity in most memories,
        the home town, tells nothing apart and is left out, as in `_entities`)."""
        words = TYPE_WORDS.get(kind)
        if words is not None:
            found = self.store.search_lexical(user_id, words, depth, scope)
            return [Candidate(c.record_id, "type", 1.0) for c in found]
        canonicals = sorted(
            {r.canonical for r in self.store.entity_rows(user_id) if r.type == kind}
        )
        if not canonicals:
            return []
        found = self.store.search_entities(
            user_id, canonicals, depth, scope, self.config.entity_max_share
        )
        return [Candidate(c.record_id, "type", 1.0) for c in found if c.trace == "entity"]

    def close(self) -> None:
        """Stop the channel threads."""
        self._pool.shutdown(wait=True)

    def knows(self, user_id: str, name: str) -> bool:
        """Whether an entity the user's memories mention goes by `name` (an alias too: "Mel"
        of "Melanie")."""
        mention = EntityMention(name, normalise_name(name), "person")
        return bool(self._alias_index(user_id).aliases(mention))

    def aliases(self, user_id: str, name: str) -> tuple[str, ...]:
        """The names (normalised) of the entity the user's memories know by `name`: "melanie"
        of "Mel"; () where none goes by it."""
        mention = EntityMention(name, normalise_name(name), "person")
        return self._alias_index(user_id).aliases(mention)

    def _canonical(self, user_id: str, mentions: list[EntityMention]) -> list[str]:
        aliases = self._alias_index(user_id)
        return sorted({aliases.canonical(m).norm for m in mentions})

    def _alias_index(self, user_id: str) -> AliasIndex:
        """The user's alias index over their entities as stored now (cached while they last)."""
        return self._aliases.index(user_id, tuple(self.store.entity_rows(user_id)))

    def _weights(self) -> dict[str, float]:
        dense = self.config.dense_weight
        return {
            "dense": dense,
            "lexical": 1 - dense,
            "entity": self.config.entity_weight,
            "type": self.config.entity_weight,
            "time": self.config.temporal_weight,
            "crosslingual": self.config.crosslingual_weight,
            "gloss": self.config.crosslingual_weight * GLOSS_SHARE,
        }
