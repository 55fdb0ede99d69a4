"""Values named beside their role (a family member, a partner, a pet), an old and a new value
in one clause, words that only look like a hedge, and a Chinese employer that opens on a
city."""

from __future__ import annotations

import pytest

from dualtrace.text.slots import ask, find_statements


def _said(clause: str) -> list[tuple[str, str | None, str | None, bool, bool]]:
    return [(s.attribute, s.value, s.subject, s.ended, s.hedged) for s in find_statements(clause)]


@pytest.mark.parametrize(
    ("clause", "member"),
    [
        ("my son Alfie thinks it's hilarious", "son Alfie"),
        ("parking is a pain, my twin brother Noah keeps saying sell it", "twin brother Noah"),
        ("Our daughter Lily Rose starts school in May.", "daughter Lily Rose"),
        ("最近想给女儿朵朵报个兴趣班", "女儿朵朵"),
        ("我女儿叫朵朵，今年五岁", "朵朵"),
        ("我哥王磊在腾讯上班", "哥王磊"),
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
        "用户闺蜜的女儿果果在学芭蕾",  # a friend's daughter
        "我儿子小学三年级了",  # 小学 is a word, not a name
    ],
)
def test_no_family_member_where_none_of_the_speaker_is_named(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.attribute == "family"]


def test_a_question_never_asks_the_family_by_a_name_in_it() -> None:
    assert [q.attribute for q in ask("Does my son Alfie like football?")] == []
    assert [q.attribute for q in ask("Where does my brother live?")] == ["lives_in"]


def test_a_value_named_beside_its_role_is_no_hedge() -> None:
    # the clause hedges what Sanne would do, not who she is
    said = "I almost took a job in Berlin but my girlfriend Sanne would kill me"
    assert ("partner", "Sanne", None, False, False) in _said(said)
    assert _said("男朋友阿杰本来想让我去杭州") == [("partner", "阿杰", None, False, False)]
    # someone else's partner is theirs
    assert _said("用户兄弟的老婆小芳说金鱼难养")[0][:3] == ("partner", "小芳", "兄弟")
    assert not [s for s in find_statements("我前男友阿杰又来找我了") if s.attribute == "partner"]


@pytest.mark.parametrize(
    ("clause", "pet"),
    [
        ("ok-ish. Biscotto (my dog) is keeping me sane", "Biscotto"),
        ("对了我家猫糯米最近老是半夜跑酷", "猫糯米"),
        ("我家的狗叫豆豆", "豆豆"),
    ],
)
def test_a_pet_named_beside_its_kind(clause: str, pet: str) -> None:
    assert ("pet", pet, None, False, False) in _said(clause)


def test_no_pet_name_cut_out_of_the_kind() -> None:
    assert not [s for s in find_statements("我们家猫咪最近老是掉毛") if s.attribute == "pet"]


def test_a_value_that_ended_and_the_one_that_took_its_place() -> None:
    said = _said("update: sold the Civic, picked up a used Kia Niro last weekend, love it")
    assert said == [
        ("vehicle", "Civic", None, True, False),
        ("vehicle", "Kia Niro", None, False, False),
    ]
    assert _said("I'm not vegan anymore") == [("diet", "vegan", None, True, False)]


@pytest.mark.parametrize("clause", ["换车了，买了理想L6", "我在腾讯上班比想象中累"])
def test_words_that_hold_the_character_for_want_are_no_intention(clause: str) -> None:
    assert all(not s.hedged for s in find_statements(clause))
    assert find_statements(clause)


def test_an_intention_still_hedges() -> None:
    assert all(s.hedged for s in find_statements("我想买一辆特斯拉Model 3"))


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("我在重庆做程序员", [("lives_in", "重庆"), ("occupation", "程序员")]),
        ("你好，在南京中兴做测试", [("lives_in", "南京"), ("works_at", "中兴")]),
        ("我在北京一家小公司做前端", [("lives_in", "北京")]),  # described, not named
        ("我在阿里做HR", [("works_at", "阿里")]),
    ],
)
def test_a_chinese_employer_that_opens_on_a_city(
    clause: str, expected: list[tuple[str, str]]
) -> None:
    said = [(s.attribute, s.value) for s in find_statements(clause)]
    assert [pair for pair in said if pair[0] in ("lives_in", "works_at", "occupation")] == expected
