"""The first k hits of a search do not depend on `limit`, and scores fall in rank order."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dualtrace.demo import ingest, load_conversation
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.memory import Memory

DEMO_QUERIES = [
    "what colour car should I avoid?",
    "where do I live now?",
    "what do I do for work?",
]
MOST = 20
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


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    query=st.sampled_from([*DEMO_QUERIES, "car", "white", "my sister", "what did I buy?"]),
    k=st.integers(1, MOST),
    extra=st.integers(0, MOST),
)
def test_first_hits_do_not_depend_on_limit(demo_fake: Memory, query: str, k: int,
                                           extra: int) -> None:  # fmt: skip
    user = load_conversation()["user_id"]
    _check(demo_fake, user, query, k, min(k + extra, MOST))


def test_demo_store_default_embedder(tmp_path: Path) -> None:
    conversation = load_conversation()
    with Memory(tmp_path / "demo.db") as mem:
        ingest(mem, conversation)
        for query in DEMO_QUERIES:
            for k in (1, 5, 10):
                for deeper in (k, 13, 17, 20):
                    _check(mem, conversation["user_id"], query, k, deeper)
