"""Values said the way chat says them: news first and what it was about after ("moved!!
porto is gorgeous", "seeing someone 😳 tobias"), the one drink left, where one is from, an
allergy before its word, a partner named first in Chinese, an internship, a car driven for
a while; and a wish, which is no trip yet."""

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
        # news that ends on an emoji, then the name
        ("ok so i've been seeing someone 😳 tobias, he's a sound engineer", "partner", "Tobias"),
        ("been dating a girl called Odette since june", "partner", "Odette"),
        ("been seeing someone new, finley, we met at climbing", "partner", "Finley"),
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
        "seeing someone new, honestly it's nice",  # an adverb is no name
        "been seeing someone 🙈 lol anyway",
    ],
)
def test_news_alone_or_a_clause_after_it_of_something_else_states_no_value(text: str) -> None:
    slots = _slots(text)
    assert all(a not in slots for a in ("lives_in", "occupation", "partner"))


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
        # where one is from, said by its people
        ("我是潍坊人 在青岛读的研", "from", "潍坊"),
        ("其实我算是东北人哈哈", "from", "东北"),
        ("我是景德镇人，瓷器见多了", "from", "景德镇"),  # a city jieba tags as a person's name
        ("我老家张家口的", "from", "张家口"),
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
        "我是外地人，不太熟",  # no place
        "我是打工人，天天加班",
        "我是个急性子的人",
    ],
)
def test_what_only_looks_like_an_allergy_a_partner_or_a_home_town(clause: str) -> None:
    slots = _slots(clause)
    assert all(slots.get(a) is None for a in ("health", "partner", "from"))


def test_a_wish_is_no_trip_and_a_plan_is() -> None:
    assert "trip" not in _slots("明年想去京都玩")
    assert _slots("明年打算去京都玩").get("trip") == "京都"
