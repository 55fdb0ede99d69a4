"""The first k hits of a search do not depend on `limit` (any limit the API allows), and
scores fall in rank order."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dualtrace.demo import ingest, load_conversation
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.memory import Memory
from dualtrace.recall.search import MAX_LIMIT

DEMO_QUERIES = [
    "what colour car should I avoid?",
    "where do I live now?",
    "what do I do for work?",
]
MOST = MAX_LIMIT
NOW = "2030-01-01T00:00:00+00:00"  # recency measured from one moment for both searches


def _check(mem: Memory, user: str, query: str, k: int, deeper: int) -> None:
    short = mem.search(query, user_id=user, limit=k, now=NOW, reinforce=False)
    long = mem.search(query, user_id=user, limit=deeper, now=NOW, reinforce=False)
    assert [(h.id, h.score) for h in long[:k]] == [(h.id, h.score) for h in short]
    scores = [h.score for h in long]
    assert scores == sorted(scores, reverse=True)


@pytest.fixture(scope="module")
def demo_fake(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    path: Path = tmp_path_factory.mktemp("demo") / "demo.db"
    mem = Memory(path, embedder=FakeEmbedder())
    ingest(mem, load_conversation())
    return mem


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    """The demo conversation among 1,200 more turns: every pool a search ranks is full."""
    mem = Memory(tmp_path_factory.mktemp("crowded") / "crowded.db", embedder=FakeEmbedder())
    conversation = load_conversation()
    rng = random.Random(5)
    for s in range(60):
        mem.add(
            [
                {
                    "role": "user",
                    "content": " ".join(rng.choices(WORDS, k=12)),
                    "timestamp": f"2025-{1 + s // 28:02d}-{1 + s % 28:02d}"
                    f"T{8 + i // 6:02d}:{i:02d}:00Z",
                }
                for i in range(20)
            ],
            user_id=conversation["user_id"],
            session_id=f"noise{s}",
            extract=False,
        )
    ingest(mem, conversation)
    return mem


WORDS = (
    "car budget white colour school daughter hospital drive Shanghai Hangzhou parking "
    "garage battery hybrid charger weekend trip sister museum coffee train bike"
).split()
QUERIES = [*DEMO_QUERIES, "car", "white", "my sister", "what did I buy?", "battery charger"]
LIMITS = st.one_of(
    st.integers(1, 25), st.integers(1, MOST), st.sampled_from([20, 21, 100, 101, 400, 401, MOST])
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.sampled_from(QUERIES), k=LIMITS, extra=st.integers(0, MOST))
def test_first_hits_do_not_depend_on_limit(
    demo_fake: Memory, query: str, k: int, extra: int
) -> None:
    user = load_conversation()["user_id"]
    _check(demo_fake, user, query, k, min(k + extra, MOST))


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.sampled_from(QUERIES), k=LIMITS, deeper=LIMITS)
def test_up_to_the_largest_limit_in_a_crowded_store(
    crowded: Memory, query: str, k: int, deeper: int
) -> None:
    k, deeper = min(k, deeper), max(k, deeper)
    _check(crowded, load_conversation()["user_id"], query, k, deeper)


def test_demo_store_default_embedder(tmp_path: Path) -> None:
    conversation = load_conversation()
    with Memory(tmp_path / "demo.db") as mem:
        ingest(mem, conversation)
        for query in DEMO_QUERIES:
            for k in (1, 5, 10):
                for deeper in (k, 13, 17, 20, 100, MOST):
                    _check(mem, conversation["user_id"], query, k, deeper)
