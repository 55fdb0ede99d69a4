"""A health question about allergies is answered by an allergy, not by the newest condition
("Which fruit am I allergic to?" after a torn ligament)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.text.slots import ask

NOW = datetime(2026, 9, 1, 9, tzinfo=UTC)
SESSIONS = [
    ("2026-02-02T19:00:00+00:00", "heads up, I'm allergic to kiwi, so no fruit salad for me"),
    ("2026-05-11T19:00:00+00:00", "I have asthma, it gets worse in the pollen season"),
    ("2026-07-30T19:00:00+00:00", "physio says it's a hamstring tear, no running for a month"),
]


def test_an_allergy_answers_an_allergy_question(tmp_path: Path) -> None:
    # lexical channels only: the fake embedder's scores would decide the order by chance
    config = MemoryConfig(dense_weight=0.0)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as mem:
        for n, (when, text) in enumerate(SESSIONS):
            mem.add(text, user_id="u", session_id=f"s{n}", timestamp=when)
        hits = mem.search("What am I allergic to?", user_id="u", limit=3, now=NOW)
        assert "kiwi" in hits[0].text, [h.text for h in hits]


@pytest.mark.parametrize(
    ("question", "narrowed"),
    [
        ("What am I allergic to?", True),
        ("我对什么过敏？", True),
        ("What health condition do I have?", False),
    ],
)
def test_a_health_question_is_narrowed_to_allergies(question: str, narrowed: bool) -> None:
    asked = [q for q in ask(question) if q.attribute == "health"]
    assert asked and (asked[0].qualifier == "allergy") is narrowed
