"""For a question about the user's own matter, what opens on someone else's is lowered; a
question about another person, or asking who, leaves the order as it was."""

from __future__ import annotations

from pathlib import Path

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder

THEIRS = "Marco's spot is on level two of the garage."
OURS = "Our parking spot is on level three of the garage, right by the lift and the bike racks."
# the weakest match, so that min-max fusion leaves the two above near each other
FAR = (
    "We talked for a long time about the garage door, the car wash, where the bins go on "
    "collection day and the noise on our level."
)


def _ask(path: Path, question: str, weight: float) -> list[tuple[str, float]]:
    # lexical channels only: the fake embedder's scores would decide the order by chance
    config = MemoryConfig(owner_weight=weight, dense_weight=0.0)
    with Memory(path, embedder=FakeEmbedder(), config=config) as mem:
        if not mem.search("garage", user_id="u", limit=1):
            for n, text in enumerate((THEIRS, OURS, FAR)):
                mem.add(text, user_id="u", session_id=f"s{n}", extract=False)
        hits = mem.search(question, user_id="u", limit=2, explain=True)
        return [(h.text, h.scores.get("owner_boost", 1.0)) for h in hits]


def test_someone_elses_matter_falls_below_the_users_own(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    question = "Which level of the garage is our spot on?"
    before = _ask(db, question, 0.0)
    assert before[0] == (THEIRS, 1.0)  # the shorter turn matches the words better
    assert (THEIRS, 0.75) in _ask(db, question, 0.25)
    assert _ask(db, question, 0.5) == [(OURS, 1.0), (THEIRS, 0.5)]


def test_questions_about_another_person_or_asking_who_are_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    for question in ("Which level is Marco's van on?", "Who parks on level two of the garage?"):
        assert all(boost == 1.0 for _, boost in _ask(db, question, 0.25))
