"""From fused candidates to ranked hits: engram boosts, then best first."""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from dualtrace.config import MemoryConfig
from dualtrace.models import Hit, Item
from dualtrace.recall.items import as_hit
from dualtrace.recall.question import Question
from dualtrace.recall.retriever import Scored
from dualtrace.recall.scoring import boost, engram_score
from dualtrace.recall.state import assistant_turn, small_talk
from dualtrace.text.owners import about_other
from dualtrace.text.quantities import states_any
from dualtrace.text.script import simplified

SMALL_TALK_SHARE = 0.5  # small talk scores at most this share of the lowest other hit
# What an assistant's turn scores, unless the question asks what the assistant said: it
# replies to the user's words, which are the user's statement of their own matters ("Glad the
# new place is working out!" is no answer to where the user works).
ASSISTANT_SHARE = 0.7


def rank(
    pool: Sequence[Scored],
    items: dict[str, Item],
    question: Question,
    config: MemoryConfig,
    *,
    explain: bool = False,
    keep: int | None = None,
) -> list[Hit]:
    """Hits for the fused pool, re-scored with bounded recency (from `question.now`) and
    importance boosts, a speaker boost for what the people the question names said, an
    answer boost for what states a quantity of a kind the question asks for
    (`text.quantities`), for a question about the user's own matter a cut for what opens on
    another person's (`text.owners`), and an assistant's turn at ASSISTANT_SHARE unless the
    question asks what it said; an assistant's small talk goes after every other hit
    (`state.small_talk`); only the best `keep` are made into hits (None: all).
    The answer boost is read only for the hits it could bring into the best `keep`
    (`_answers_lifted`): reading a text's quantities costs ~0.1 ms, and a pool holds
    hundreds of candidates for a context's one hundred.

    `scores` always holds each channel's normalised score; with `explain` it also holds the
    raw channel scores, the relevance before boosts, and each boost.
    """
    now, named, asks = question.now, question.named, question.asked_kinds
    speaker_weight = config.speaker_weight if named else 0.0
    answer_weight = config.answer_weight if asks else 0.0
    owner_weight = config.owner_weight if question.about_user else 0.0
    scored: list[tuple[float, Scored, Item, dict[str, float]]] = []
    for s in pool:
        item = items.get(s.record_id)
        if item is None:
            continue
        score, boosts = engram_score(
            s.score,
            occurred_at=item.occurred_at,
            importance=item.importance,
            now=now,
            recency_weight=config.recency_weight,
            importance_weight=config.importance_weight,
            halflife_days=config.recency_halflife_days,
        )
        if speaker_weight > 0:
            # the question is read in Simplified Chinese, a speaker named as typed
            said = any(simplified(src.speaker or "").casefold() in named for src in item.sources)
            boosts["speaker_boost"] = boost(1.0 if said else 0.5, speaker_weight)
            score *= boosts["speaker_boost"]
        if owner_weight > 0:
            boosts["owner_boost"] = boost(0.0 if about_other(item.text) else 0.5, owner_weight)
            score *= boosts["owner_boost"]
        if not question.asks_assistant and assistant_turn(item):
            boosts["reply_share"] = ASSISTANT_SHARE
            score *= ASSISTANT_SHARE
        scored.append((score, s, item, boosts))
    scored.sort(key=lambda t: -t[0])
    if answer_weight > 0:
        scored = _answers_lifted(scored, asks, answer_weight, keep)
    scored = _small_talk_last(scored)
    return [
        as_hit(item, score, _scores(s, boosts, explain)) for score, s, item, boosts in scored[:keep]
    ]


Ranked = list[tuple[float, Scored, Item, dict[str, float]]]


def _answers_lifted(
    scored: Ranked, asks: frozenset[str], weight: float, keep: int | None
) -> Ranked:
    """The ranked pool (best first) with the answer boost on each hit that states a
    quantity of an asked kind, read best first until no hit left could reach the best
    `keep` that are not small talk (their order is exact); the rest follow unread, with
    a neutral boost, below every one of those. With `keep` None every hit is read."""
    lift = boost(1.0, weight)
    best: list[float] = []  # the `keep` best scores read that are not small talk (a heap)
    read: Ranked = []
    for n, (score, s, item, boosts) in enumerate(scored):
        if best and len(best) == keep and score * lift < best[0]:
            rest = [(sc, si, it, {**b, "answer_boost": 1.0}) for sc, si, it, b in scored[n:]]
            return sorted(read, key=lambda t: -t[0]) + rest
        states = states_any(item.text, asks)
        boosts["answer_boost"] = boost(1.0 if states else 0.5, weight)
        read.append((score * boosts["answer_boost"], s, item, boosts))
        if keep is not None and keep > 0 and not small_talk(item):
            if len(best) < keep:
                heapq.heappush(best, read[-1][0])
            else:
                heapq.heappushpop(best, read[-1][0])
    return sorted(read, key=lambda t: -t[0])


def _small_talk_last(scored: Ranked) -> Ranked:
    """The ranked pool with an assistant's small talk (`state.small_talk`) after every other
    hit, scored below the lowest of them: a greeting never takes a statement's place."""
    said = [t for t in scored if not small_talk(t[2])]
    talk = [t for t in scored if small_talk(t[2])]
    if not talk or not said:
        return scored
    floor = said[-1][0] * SMALL_TALK_SHARE
    return [*said, *((min(score, floor), s, i, b) for score, s, i, b in talk)]


def _scores(s: Scored, boosts: dict[str, float], explain: bool) -> dict[str, float]:
    scores = {k: v for k, v in s.scores.items() if explain or not k.endswith("_raw")}
    if explain:
        scores.update(boosts, relevance=s.score)
    return scores
