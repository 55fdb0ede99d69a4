"""Values named beside their role (a family member, a partner, a pet), an old and a new value
in one clause, words that only look like a hedge, and a Chinese employer that opens on a
city."""

from __future__ import annotations

import pytest

from dualtrace.text.slots import ask, find_statements
from dualtrace.text.slots.frames import clean_value


def _said(clause: str) -> list[tuple[str, str | None, str | None, bool, bool]]:
    return [(s.attribute, s.value, s.subject, s.ended, s.hedged) for s in find_statements(clause)]


@pytest.mark.parametrize(
    ("clause", "member"),
    [
        ("honestly my son Teddy finds the whole thing hilarious", "son Teddy"),
        ("rent is brutal, my twin sister Greta says move out", "twin sister Greta"),
        ("Our daughter Lily Rose starts school in May.", "daughter Lily Rose"),
        ("周末带女儿甜甜去公园放风筝", "女儿甜甜"),
        ("我儿子叫小杰，刚上幼儿园", "小杰"),
        ("我姐李娟在银行上班", "姐李娟"),
    ],
)
def test_a_family_member_is_named_beside_the_relation(clause: str, member: str) -> None:
    family = [s for s in find_statements(clause) if s.attribute == "family"]
    assert [(s.value, s.subject, s.hedged, s.many) for s in family] == [(member, None, False, True)]


@pytest.mark.parametrize(
    "clause",
    [
        "Where does my brother live?",  # a relation alone names no one
        "my brother's son Tom is visiting",  # the brother's family, said without "my son"
        "我同事的儿子乐乐在学钢琴",  # a colleague's son
        "我女儿小学毕业了",  # 小学 is a word, not a name
    ],
)
def test_no_family_member_where_none_of_the_speaker_is_named(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.attribute == "family"]


def test_a_question_never_asks_the_family_by_a_name_in_it() -> None:
    assert [q.attribute for q in ask("Does my son Alfie like football?")] == []
    assert [q.attribute for q in ask("Where does my brother live?")] == ["lives_in"]


def test_a_value_named_beside_its_role_is_no_hedge() -> None:
    # the clause hedges what Sanne would do, not who she is
    said = "I nearly signed up for the marathon but my boyfriend Marco would laugh at me"
    assert ("partner", "Marco", None, False, False) in _said(said)
    said = _said("老公阿强本来想周末去钓鱼")  # the husband only meant to go fishing
    assert ("partner", "阿强", None, False, False) in said
    assert all(s[0] == "partner" or s[2] is not None for s in said)
    # someone else's partner is theirs
    assert _said("我弟弟的女朋友小美说这家店好吃")[0][:3] == ("partner", "小美", "弟弟")
    assert not [
        s for s in find_statements("我前女友小雪昨天给我发消息了") if s.attribute == "partner"
    ]


@pytest.mark.parametrize(
    ("clause", "pet"),
    [
        ("Pepper (my cat) knocked my mug off the desk again", "Pepper"),
        ("我家狗可乐今天又拆家了", "狗可乐"),
        ("我们家的猫叫馒头", "馒头"),
    ],
)
def test_a_pet_named_beside_its_kind(clause: str, pet: str) -> None:
    assert ("pet", pet, None, False, False) in _said(clause)


def test_no_pet_name_cut_out_of_the_kind() -> None:
    assert not [s for s in find_statements("我家猫咪最近不爱吃饭") if s.attribute == "pet"]


def test_a_value_that_ended_and_the_one_that_took_its_place() -> None:
    said = _said("finally sold my Mazda and bought a Tesla Model Y, no regrets")
    assert said == [
        ("vehicle", "Mazda", None, True, False),
        ("vehicle", "Tesla Model Y", None, False, False),
    ]
    assert _said("I'm not vegan anymore") == [("diet", "vegan", None, True, False)]


@pytest.mark.parametrize("clause", ["上个月提了理想L7", "我在美团上班比想象中忙"])
def test_words_that_hold_the_character_for_want_are_no_intention(clause: str) -> None:
    assert all(not s.hedged for s in find_statements(clause))
    assert find_statements(clause)


def test_an_intention_still_hedges() -> None:
    assert all(s.hedged for s in find_statements("我想买一辆特斯拉Model 3"))


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("我在成都做设计师", [("lives_in", "成都"), ("occupation", "设计师")]),
        (
            "你好，在深圳华为做测试",
            [("lives_in", "深圳"), ("occupation", "测试"), ("works_at", "华为")],
        ),
        # a company described, not named, is no employer
        ("我在上海一家小公司做运营", [("lives_in", "上海"), ("occupation", "运营")]),
        ("我在京东做客服", [("occupation", "客服"), ("works_at", "京东")]),
    ],
)
def test_a_chinese_employer_that_opens_on_a_city(
    clause: str, expected: list[tuple[str, str]]
) -> None:
    said = [(s.attribute, s.value) for s in find_statements(clause)]
    found = [pair for pair in said if pair[0] in ("lives_in", "works_at", "occupation")]
    assert sorted(found) == expected


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("成都", "成都"),
        ("台州", "台州"),
        ("在成都", "成都"),
        ("一辆特斯拉", "特斯拉"),
        ("新的理想L7", "理想L7"),
    ],
)
def test_a_chinese_value_keeps_a_word_that_lead_words_only_spell(said: str, value: str) -> None:
    assert clean_value(said) == value


def test_a_spot_beside_something_is_no_home_place() -> None:
    said = [(s.attribute, s.value) for s in find_statements("去年搬到了苏州，住在公园旁边")]
    assert said == [("lives_in", "苏州")]


def test_a_greeting_then_a_name_and_a_role_at_a_place_introduces_the_speaker() -> None:
    said = [(s.attribute, s.value) for s in find_statements("hey! Priya, data scientist at Monzo")]
    assert sorted(said) == [
        ("name", "Priya"),
        ("occupation", "data scientist"),
        ("works_at", "Monzo"),
    ]
    said = [(s.attribute, s.value) for s in find_statements("hi! Ilse. QA tester at Mollie")]
    assert sorted(said) == [("name", "Ilse"), ("occupation", "QA tester"), ("works_at", "Mollie")]
    for greeting in ("Hi Tom, how was your trip to Rome?", "hey Mel, you at the office at Google?"):
        said_to = [s for s in find_statements(greeting) if s.attribute in ("name", "works_at")]
        assert said_to == []  # said to someone greeted


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ("What's my son's name again?", "son"),
        ("what is our eldest daughter called", "daughter"),
        ("Remind me of the name of my little sister?", "sister"),
        ("我女儿叫什么名字？", "女儿"),
        ("我哥叫啥来着", "哥"),
    ],
)
def test_a_question_for_a_members_name_asks_the_family(question: str, relation: str) -> None:
    assert [(q.attribute, q.qualifier) for q in ask(question)] == [("family", relation)]


def test_a_question_about_a_member_that_is_no_name_asks_their_slot() -> None:
    assert [(q.attribute, q.subject) for q in ask("Where does my brother live now?")] == [
        ("lives_in", "brother")
    ]


@pytest.mark.parametrize(
    "clause",
    [
        "We moved to Ghent in May, finally",
        "Since May I work at Elm Park School",
        "主要是我在苏州住",
    ],
)
def test_the_month_may_and_a_word_holding_if_are_no_hedge(clause: str) -> None:
    assert [s.hedged for s in find_statements(clause)] == [False]


def test_the_modal_may_still_hedges() -> None:
    assert [s.hedged for s in find_statements("we may move to Ghent")] == [True]
