"""The answer boost is read only for the hits that could reach the best `keep`: ranking a
pool with `keep` gives exactly the first `keep` hits of reading every one."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from dualtrace import MemoryConfig
from dualtrace.models import Item, Source
from dualtrace.recall import ranking
from dualtrace.recall.question import analyse
from dualtrace.recall.retriever import Scored

NOW = datetime(2026, 3, 1, tzinfo=UTC)
TEXTS = (
    "We walked 12 km along the river.",  # a length: the question asks one
    "The shelf is oak and sits by the window.",
    "Thanks, that sounds great!",  # small talk when the assistant says it
    "The hallway is 3 m long, give or take.",
    "I painted the hall last weekend.",
)


def _item(n: int, rng: random.Random) -> Item:
    when = NOW - timedelta(days=rng.randrange(400))
    role = rng.choice(("user", "assistant"))
    source = Source(
        episode_id=f"e{n}",
        external_id=None,
        session_id="s",
        occurred_at=when,
        speaker=role,
        text="",
        role=role,
    )
    return Item(
        id=f"e{n}",
        kind="episode",
        text=f"{rng.choice(TEXTS)} ({n})",
        scene=None,
        valid_from=when,
        valid_to=None,
        recorded_at=when,
        session_id="s",
        sources=[source],
    )


@pytest.mark.parametrize("seed", range(20))
def test_ranking_with_keep_is_the_head_of_reading_every_hit(seed: int) -> None:
    rng = random.Random(seed)
    items = {f"e{n}": _item(n, rng) for n in range(rng.randrange(5, 120))}
    pool = [Scored(i, rng.random(), {"dense": 1.0}) for i in items]
    question = analyse("How long is the hallway?", NOW)
    assert question.asked_kinds  # the answer boost applies
    config = MemoryConfig()
    every = ranking.rank(pool, items, question, config, explain=True)
    for keep in (1, 3, 10, 50):
        head = ranking.rank(pool, items, question, config, explain=True, keep=keep)
        assert [(h.id, h.score) for h in head] == [(h.id, h.score) for h in every[:keep]]


def test_hits_that_cannot_reach_the_head_are_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    items = {f"e{n}": _item(n, rng) for n in range(300)}
    pool = [Scored(i, 1.0 / (1 + n), {"dense": 1.0}) for n, i in enumerate(items)]
    read: list[str] = []
    states = ranking.states_any

    def counted(text: str, kinds: frozenset[str]) -> bool:
        read.append(text)
        return states(text, kinds)

    monkeypatch.setattr(ranking, "states_any", counted)
    ranking.rank(pool, items, analyse("How long is the hallway?", NOW), MemoryConfig(), keep=10)
    assert 10 <= len(read) < 60
