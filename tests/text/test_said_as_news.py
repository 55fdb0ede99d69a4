"""Values said the way chat says them: news first and what it was about after ("moved!!
porto is gorgeous"), the one drink left, an allergy before its word, a partner named first
in Chinese, an internship, a car driven for a while; and a wish, which is no trip yet."""

from __future__ import annotations

import pytest
from episode_builders import slots_of

from dualtrace.text.slots import find_statements


def _slots(text: str) -> dict[str, str]:
    """The slots the extractor stores for one user turn and holds: attribute -> value."""
    return slots_of(text, hedged=False)


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("moved!! porto is gorgeous, the dog loves the beach", "lives_in", "Porto"),
        ("we finally moved. Bonn feels like home already", "lives_in", "Bonn"),
        ("got promoted!!! senior buyer as of monday, still in shock", "occupation", "senior buyer"),
        (
            "got promoted!! officially Principal Data Engineer from march",
            "occupation",
            "Principal Data Engineer",
        ),
    ],
)
def test_news_then_what_it_was_about_is_one_statement(
    text: str, attribute: str, value: str
) -> None:
    assert _slots(text).get(attribute) == value


@pytest.mark.parametrize(
    "text",
    [
        "moved!!! the cat hated the car ride though",  # no place after the news
        "so excited!! Lisbon is lovely in spring",  # news of nothing said
        "got promoted! so happy",
    ],
)
def test_news_alone_or_a_clause_after_it_of_something_else_states_no_value(text: str) -> None:
    slots = _slots(text)
    assert "lives_in" not in slots and "occupation" not in slots


@pytest.mark.parametrize(
    ("clause", "drink"),
    [
        ("ditched coffee in october, only rooibos tea now", "rooibos tea"),
        ("switched to sparkling water for the afternoons", "sparkling water"),
        ("it's oat latte only these days", "oat latte"),
        ("switched from cola to iced tea", "iced tea"),
    ],
)
def test_the_drink_one_keeps_to(clause: str, drink: str) -> None:
    said = {(s.attribute, s.value) for s in find_statements(clause) if not s.ended}
    assert ("drink", drink) in said


@pytest.mark.parametrize(
    ("clause", "attribute", "value"),
    [
        ("我也芒果过敏，所以不敢吃", "health", "芒果"),
        ("官宣啦 林夏是我女朋友了", "partner", "林夏"),
        ("王磊现在是我老公了哈哈", "partner", "王磊"),
        ("在网易实习快三个月了", "works_at", "网易"),
        ("小鹏开了快两年 还挺省心", "vehicle", "小鹏"),
    ],
)
def test_chinese_values_said_before_their_word(clause: str, attribute: str, value: str) -> None:
    assert _slots(clause).get(attribute) == value


@pytest.mark.parametrize(
    "clause",
    [
        "我有点过敏，不知道是不是花粉",  # no allergen before the word
        "林夏是我女朋友的闺蜜",  # the partner's friend
        "他是我男朋友",  # a pronoun names no one
    ],
)
def test_what_only_looks_like_an_allergy_or_a_partner(clause: str) -> None:
    slots = _slots(clause)
    assert slots.get("health") is None and slots.get("partner") is None


def test_a_wish_is_no_trip_and_a_plan_is() -> None:
    assert "trip" not in _slots("明年想去京都玩")
    assert _slots("明年打算去京都玩").get("trip") == "京都"
