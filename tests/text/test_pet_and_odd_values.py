"""A pet named in the sentence after the one it came in, or after a comma ("领养了一只猫，
叫馒头"); and words a frame takes that are no value: which way one moves ("又搬回去了"), a
letter ("living in C", the language), an emoji, where one sells ("在朋友圈"), the days
before a condition ("前几天鼻炎又犯了"), a cat that meows ("我的猫叫了一晚上")."""

from __future__ import annotations

import pytest
from episode_builders import drafts_of

from dualtrace.text.slots import find_statements


def _values(clause: str, attribute: str) -> list[str | None]:
    return [s.value for s in find_statements(clause) if s.attribute == attribute]


@pytest.mark.parametrize(
    ("text", "pet", "subject"),
    [
        (
            "We rescued a greyhound in March. Her name is Quince, she's terrified of stairs",
            "Quince",
            None,
        ),
        ("finally got a kitten!! his name's Biro", "Biro", None),
        ("my neighbour adopted a puppy. His name is Otis", "Otis", "neighbour"),
        ("上周领养了一只猫，叫馒头，超黏人", "馒头", None),
    ],
)
def test_a_pet_named_after_it_came(text: str, pet: str, subject: str | None) -> None:
    slots = [d.slot for d in drafts_of(text) if d.slot and d.slot["attribute"] == "pet"]
    assert [(s["value"], s["subject"]) for s in slots] == [(pet, subject)]


@pytest.mark.parametrize(
    ("clause", "attribute"),
    [
        ("住不惯，我们又搬回去了", "lives_in"),
        ("终于搬回来了", "lives_in"),
        ("been living in C, the compilers course is brutal", "lives_in"),
        ("out in the van all week now so my wife does the driving 😅", "vehicle"),
        ("我的猫叫了一晚上，没睡好", "pet"),
        ("楼下的狗，叫得好凶", "pet"),
        ("下班在朋友圈卖手工皂", "works_at"),  # where one sells, no employer
    ],
)
def test_words_a_frame_takes_that_are_no_value(clause: str, attribute: str) -> None:
    assert _values(clause, attribute) == []


def test_the_days_before_a_condition_are_not_its_name() -> None:
    assert _values("前几天鼻炎又犯了，喷嚏不停", "health") == ["鼻炎"]
    assert _values("前列腺炎又犯了", "health") == ["前列腺炎"]


@pytest.mark.parametrize(
    "clause",
    [
        "我老公放暑假了 在家带娃",  # what the partner does, not who
        "我老公跑去买菜了",
        "老婆预产期是下个月",  # the head of a word
    ],
)
def test_what_a_partner_does_is_no_name(clause: str) -> None:
    assert _values(clause, "partner") == []


@pytest.mark.parametrize(
    ("clause", "name"),
    [
        ("老公李伟说周末回来", "李伟"),
        ("女朋友佳琪下个月生日", "佳琪"),
        ("男朋友乐乐不吃辣", "乐乐"),
    ],
)
def test_a_partner_named_after_the_word(clause: str, name: str) -> None:
    assert _values(clause, "partner") == [name]
