"""A job left without naming it ("I quit my job", "我辞职了", "got laid off") ends the employer
and the role held before; leaving a named employer ends that employer only. A plan to
leave, a question, or someone else's job ends nothing of the user's. Every sentence here is
written for this file (none comes from a benchmark case)."""

from __future__ import annotations

from pathlib import Path

import pytest
from profile_builders import profile_after, values

from dualtrace.text.slots import find_statements


@pytest.mark.parametrize(
    "clause",
    [
        "so I quit my job on friday, no regrets",
        "got laid off last week, the whole team did",
        "I just retired!",
        "I'm officially retired now",
        "handed in my resignation this morning",
        "我辞职了！终于解脱",
        "上个月被公司裁了",
        "工作丢了，心情很差",
    ],
)
def test_a_job_left_unnamed_ends_the_users_job(clause: str) -> None:
    ended = [s for s in find_statements(clause) if s.attribute == "works_at"]
    assert [(s.value, s.subject, s.ended) for s in ended] == [(None, None, True)]


@pytest.mark.parametrize(
    "clause",
    [
        "thinking of quitting my job",
        "I might quit my job if this goes on",
        "I quit sugar for lent",
        "我想辞职",
        "我快退休了",
        "你辞职了吗",
        "他辞职了",
        "I lost my role model when grandpa died",
        "cigarettes? honestly I quit, best decision ever",  # smoking, said before
        "I'm about to quit my job",
        "Rosa finally retired lol",
        "老孙退休了以后天天钓鱼",
        "她还在公司上班，月底辞职",
        "等退休了就回老家种菜",
        "还有两年就退休了",
    ],
)
def test_a_plan_a_habit_or_someone_elses_end_is_no_end_of_the_users_job(clause: str) -> None:
    ended = [s for s in find_statements(clause) if s.ended and s.subject is None]
    assert not [s for s in ended if s.attribute == "works_at" and s.value is None]


def test_a_relatives_job_left_is_theirs() -> None:
    (said,) = [s for s in find_statements("老公辞职了，在家带娃") if s.attribute == "works_at"]
    assert (said.value, said.subject, said.ended) == (None, "老公", True)
    (said,) = find_statements("my husband got laid off")
    assert (said.value, said.subject) == (None, "husband")


def test_quitting_ends_the_employer_and_the_role(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-12", ["hello! I'm Ottilie, a radiographer at Kingsmead Hospital"]),
        ("2026-04-03", ["big news: I quit my job yesterday, taking the summer off"]),
    ]
    profile = profile_after(tmp_path, sessions, "2026-05-01T00:00:00+00:00")
    assert values(profile, "works_at") == []
    assert values(profile, "occupation") == []
    assert values(profile, "name") == ["Ottilie"]


def test_quitting_in_chinese_and_a_new_role_the_same_day(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-12", ["我在顺丰做仓库主管，天天加班"]),
        ("2026-04-03", ["我辞职了！现在是全职妈妈"]),
    ]
    profile = profile_after(tmp_path, sessions, "2026-05-01T00:00:00+08:00")
    assert values(profile, "works_at") == []
    assert values(profile, "occupation") == ["全职妈妈"]


def test_leaving_a_named_employer_ends_it_and_keeps_the_role(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-12", ["I'm a UX writer at Fabrikam, based in Leeds"]),
        ("2026-04-03", ["big move: leaving Fabrikam, joining Northwind in June"]),
    ]
    profile = profile_after(tmp_path, sessions, "2026-07-01T00:00:00+00:00")
    assert values(profile, "works_at") == ["Northwind"]
    assert values(profile, "occupation") == ["UX writer"]


def test_a_plan_to_quit_ends_nothing(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-12", ["I'm a solicitor at Hartwell & Stone"]),
        ("2026-04-03", ["honestly thinking of quitting my job this summer"]),
    ]
    profile = profile_after(tmp_path, sessions, "2026-05-01T00:00:00+00:00")
    assert values(profile, "works_at") == ["Hartwell & Stone"]
    assert values(profile, "occupation") == ["solicitor"]


def test_a_relatives_job_left_leaves_the_users(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-12", ["I work at Fenwick Analytics as a data engineer"]),
        ("2026-04-03", ["my husband got laid off, so money is tight"]),
    ]
    profile = profile_after(tmp_path, sessions, "2026-05-01T00:00:00+00:00")
    assert values(profile, "works_at") == ["Fenwick Analytics"]


def test_an_introduction_then_a_role_is_said_as_given() -> None:
    """ "hi, I'm Dana, nurse at …": the role after the name is "nurse", not "I nurse"."""
    from dualtrace.encode.rules import _clauses

    assert _clauses("hi, I'm Rosalind, midwife at the Whittington") == [
        "hi, I'm Rosalind, midwife at the Whittington"
    ]


def test_a_job_left_ahead_of_time_ends_on_its_day(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-12", ["我在顺丰做仓库主管"]),
        ("2026-05-03", ["明年就退休了，真快"]),
    ]
    before = profile_after(tmp_path, sessions, "2026-06-01T00:00:00+08:00")
    after = profile_after(tmp_path / "b", sessions, "2027-02-01T00:00:00+08:00")
    assert (values(before, "works_at"), values(after, "works_at")) == (["顺丰"], [])
