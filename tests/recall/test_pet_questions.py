"""A question for a pet's name by its kind is answered by the pet of that kind (a breed is its
kind's), not by the newest pet of another kind."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.text.slots import ask
from dualtrace.text.slots.pets import asked_pet, names_kind

NOW = datetime(2026, 9, 1, 9, tzinfo=UTC)
SESSIONS = [
    ("2026-02-02T19:00:00+00:00", "my bunny Clementine chewed through the lamp cable again"),
    ("2026-04-11T19:00:00+00:00", "we rescued a whippet! meet our greyhound mix Bolt"),
    ("2026-07-30T19:00:00+00:00", "we adopted a kitten called Saffi, she is tiny"),
]


def test_the_pet_of_the_asked_kind_answers(tmp_path: Path) -> None:
    # lexical channels only: the fake embedder's scores would decide the order by chance
    config = MemoryConfig(dense_weight=0.0)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as mem:
        for n, (when, text) in enumerate(SESSIONS):
            mem.add(text, user_id="u", session_id=f"s{n}", timestamp=when)
        for question, name in (
            ("What is my rabbit called?", "Clementine"),
            ("What's the name of our dog?", "Bolt"),
        ):
            hits = mem.search(question, user_id="u", limit=3, now=NOW, reinforce=False)
            assert name in hits[0].text, (question, [h.text for h in hits])


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("what's my puppy's name again", "dog"),
        ("我家那只猫叫什么来着", "cat"),
        ("What pets do I have?", None),
        ("How old is my dog?", None),
    ],
)
def test_a_question_asks_a_pets_name_by_its_kind(question: str, kind: str | None) -> None:
    assert asked_pet(question) == kind
    if kind is not None:
        assert [(q.attribute, q.qualifier) for q in ask(question)] == [("pet", kind)]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How much does my cat weigh these days?", "cat"),
        ("我家的狗现在几岁了？", "dog"),
        ("What pets do I have?", None),  # no kind named
    ],
)
def test_a_question_about_ones_own_pet_of_a_kind_asks_that_kind(
    question: str, kind: str | None
) -> None:
    pets = [q.qualifier for q in ask(question) if q.attribute == "pet"]
    assert pets == [kind]


def test_the_pet_of_the_kind_named_leads_another_question(tmp_path: Path) -> None:
    config = MemoryConfig(dense_weight=0.0)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as mem:
        for n, (when, text) in enumerate(SESSIONS):
            mem.add(text, user_id="u", session_id=f"s{n}", timestamp=when)
        hits = mem.search(
            "How old is my rabbit now?", user_id="u", limit=3, now=NOW, reinforce=False
        )
        assert "Clementine" in hits[0].text, [h.text for h in hits]


def test_a_breed_names_its_kind() -> None:
    assert names_kind("our greyhound mix Bolt", "dog")
    assert not names_kind("my bunny Clementine", "dog")
    # every breed the statements read a pet by ("Juniper (our lab)", "my kelpie Dash")
    for said in ("Juniper (our lab)", "my kelpie Dash", "our staffy Tank", "我家萨摩耶雪球"):
        assert names_kind(said, "dog"), said
    for said in ("our ragdoll Miso", "my maine coon Atlas", "我家狸花猫"):
        assert names_kind(said, "cat"), said
    assert not names_kind("our ragdoll Miso", "dog")


def test_a_pet_that_died_or_flew_off_leaves_the_profile(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        for n, (when, text) in enumerate(
            [
                ("2026-02-02T19:00:00+00:00", "my dog Pepper is 14 now and slowing down"),
                ("2026-03-02T19:00:00+00:00", "我家鹦鹉豆包会说你好了"),
                ("2026-05-02T19:00:00+00:00", "Pepper passed last night. peaceful at least"),
                ("2026-06-02T19:00:00+00:00", "郁闷 豆包飞走了 窗户没关"),
            ]
        ):
            mem.add(text, user_id="u", session_id=f"s{n}", timestamp=when)
        pets = [v.value for v in mem.profile("u", as_of=NOW).values if v.attribute == "pet"]
        assert pets == []
        then = mem.profile("u", as_of="2026-04-01T00:00:00+00:00").values
        assert sorted(v.value for v in then if v.attribute == "pet") == ["dog Pepper", "鹦鹉豆包"]
