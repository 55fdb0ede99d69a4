"""Which kind of quantity a question asks for, and which kinds a text states."""

from __future__ import annotations

import random

import pytest

from dualtrace.text.quantities import asked_kinds, stated_kinds, states_any


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("How wide is the new desk?", {"length"}),
        ("新买的书桌有多宽？", {"length"}),
        ("How long is the parking space?", {"length", "duration"}),
        ("我第一次跑半马用了多长时间？", {"duration"}),
        ("我现在多重？", {"weight"}),
        ("How much do I weigh now?", {"weight"}),
        ("How much did the sofa cost?", {"money"}),
        ("首付打算攒多少钱？", {"money"}),
        ("How old is my son?", {"age"}),
        ("猫今年多大了？", {"age"}),
        ("What's the capacity of the fridge?", {"capacity"}),
        ("我一年有几天年假？", {"duration"}),
        ("Where do I live?", set()),
        ("我在哪家公司上班？", set()),
        ("兽医称了猫有几公斤？", {"weight"}),
        ("How many kilos can you lift?", {"weight"}),
        ("车位还差多少米？", {"length"}),
        ("How many in total?", set()),
    ],
)
def test_the_kind_a_question_asks_for(question: str, kinds: set[str]) -> None:
    assert asked_kinds(question) == kinds


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("my space in the garage is only 5.2 m", {"length"}),
        ("书桌宽一米四，一百四十厘米", {"length"}),
        ("Weighed myself: 68.5 kg", {"weight"}),
        ("现在一百二十斤", {"weight"}),
        ("Finished the half marathon in 2:07:40", {"duration"}),
        ("空调开了十年了", {"duration"}),
        ("The target is 1.2 million RMB", {"money"}),
        ("预算三十万", {"money"}),
        ("it was $40", {"money"}),
        ("Our cat turned nine last week", {"age"}),
        ("儿子今年六岁", {"age"}),
        ("容量五百四十升", {"capacity"}),
        ("a 540 litre fridge", {"capacity"}),
        ("Japanese on Duolingo: 63-day streak", {"duration"}),
        ("a 10-minute walk", {"duration"}),
        ("2026年3月我们搬家", set()),
        ("I moved to Lyon in May", set()),
        ("每周三晚上打球", set()),
        ("Ten of us someone phoned", set()),
        ("Call me at 7:30", {"duration"}),
    ],
)
def test_the_kinds_a_text_states(text: str, kinds: set[str]) -> None:
    assert stated_kinds(text) == kinds


_KINDS = ("length", "weight", "duration", "money", "age", "capacity")
_PIECES = (
    "5.2 m",
    "一米四",
    "68.5 kg",
    "一百二十斤",
    "2:07:40",
    "十年",
    "1.2 million RMB",
    "三十万",
    "$40",
    "turned nine",
    "六岁",
    "五百四十升",
    "63-day",
    "2026年3月",
    "in May",
    "Ten of us",
    "a few weeks",
    "3 in total",
    "两万",
    "the hall",
    "空调",
    "7:30",
)


@pytest.mark.parametrize("seed", range(30))
def test_states_any_is_stated_kinds_met_with_the_asked(seed: int) -> None:
    rng = random.Random(seed)
    text = " ".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 5)))
    kinds = frozenset(rng.sample(_KINDS, rng.randrange(1, 3)))
    assert states_any(text, kinds) == bool(stated_kinds(text) & kinds)
