"""A hit that states a quantity of the kind the question asks for is lifted, in either
language; the boost reorders what the channels found and adds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder

SIZED = "The new desk arrived today, 140 cm, oak, by the door."
PLACED = "The new desk arrived today, oak, by the window."
RAN = "I ran 5 km this morning before work."
# the weakest match, so that min-max fusion leaves the two above near each other
FAR = (
    "We talked for a long time about moving, painting the hall, a new lamp, shelves for "
    "the books and, last, where my old desk should go."
)


def _ask(path: Path, question: str, weight: float) -> list[tuple[str, float]]:
    # lexical channels only: the fake embedder's scores would decide the order by chance
    config = MemoryConfig(answer_weight=weight, dense_weight=0.0)
    with Memory(path, embedder=FakeEmbedder(), config=config) as mem:
        if not mem.search("desk", user_id="u", limit=1):
            for n, text in enumerate((PLACED, SIZED, RAN, FAR)):
                mem.add(text, user_id="u", session_id=f"s{n}", extract=False)
        hits = mem.search(question, user_id="u", limit=2, explain=True)
        return [(h.text, h.scores.get("answer_boost", 1.0)) for h in hits]


@pytest.mark.parametrize("question", ["How wide is the new desk?", "新买的书桌有多宽？"])
def test_the_statement_of_a_length_leads_a_question_asking_one(
    tmp_path: Path, question: str
) -> None:
    db = tmp_path / "m.db"
    assert _ask(db, question, 0.0) == [(PLACED, 1.0), (SIZED, 1.0)]  # the shorter turn first
    assert _ask(db, question, 0.25) == [(SIZED, 1.25), (PLACED, 1.0)]  # RAN: a length unasked


def test_a_question_asking_no_quantity_gets_no_boost(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    assert all(boost == 1.0 for _, boost in _ask(db, "Where is the new desk?", 0.25))
