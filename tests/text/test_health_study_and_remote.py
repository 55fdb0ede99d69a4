"""Questions that ask about one's health in general words ("what health issue …", "有什么健康
问题", "身体有什么毛病") ask the health slot; a year of a course or a degree at a school is
where one studies; working remotely from a place is living there; and what only looks like
a value: a degree before 好了 ("太好了"), 方向 ("direction") before a title, a leading 的."""

from __future__ import annotations

import pytest

from dualtrace.text.slots import ask, find_statements


def _said(clause: str) -> set[tuple[str, str | None, bool]]:
    return {(s.attribute, s.value, s.ended) for s in find_statements(clause) if s.subject is None}


@pytest.mark.parametrize(
    "question",
    [
        "What health issue is Marguerite dealing with?",
        "does Olu have any health problems I should know about?",
        "Any medical conditions on file for me?",
        "佳琪有什么健康问题？",
        "我爸身体有什么需要注意的？",
        "我身体有啥毛病来着？",
    ],
)
def test_a_question_in_general_words_asks_the_health_slot(question: str) -> None:
    assert "health" in [q.attribute for q in ask(question)]


def test_a_health_question_about_someone_else_is_theirs() -> None:
    asked = [q for q in ask("我爸身体有什么需要注意的？") if q.attribute == "health"]
    assert asked and asked[0].subject is not None


@pytest.mark.parametrize(
    ("clause", "school"),
    [
        ("hey, I'm Oisin, final year pharmacy at Ulster", "Ulster"),
        ("second-year vet med student at Massey, so broke lol", "Massey"),
        ("4th year architecture at Delft and my studio tutor hates me", "Delft"),
        ("started a PhD at Uppsala in the autumn", "Uppsala"),
        ("masters student at Bocconi now", "Bocconi"),
    ],
)
def test_a_year_of_a_course_or_a_degree_at_a_school(clause: str, school: str) -> None:
    assert ("studies_at", school, False) in _said(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "my third year teaching at Brookfield Primary",  # a job
        "final year at work before I retire",
        "first year at Deloitte was brutal",  # no course named: a job, likely
    ],
)
def test_a_year_at_work_is_no_school(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.attribute == "studies_at"]


def test_working_remotely_from_a_place_is_living_there() -> None:
    assert ("lives_in", "Tallinn", False) in _said("data eng at Bolt, fully remote from Tallinn")
    assert ("lives_in", "Porto", False) in _said("I work remotely from Porto most of the year")
    assert not [s for s in find_statements("working remote from home today") if s.value]


def test_what_only_looks_like_a_value() -> None:
    assert _said("太好了，恭喜！先检查一下账户健康状况") == set()
    assert _said("我的鼻炎终于好了") == {("health", "鼻炎", True)}
    offer = find_statements("网易给了offer 游戏方向的产品经理")
    assert not [s for s in offer if s.attribute == "manager"]
    assert _said("现在直接向老周汇报") == {("manager", "老周", False)}
