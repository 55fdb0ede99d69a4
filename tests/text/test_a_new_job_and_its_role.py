"""A new job said with its role beside the employer ("started at Monzo as a data scientist",
"accepted a position at Arup", "我是协和的住院医"), a role one is made ("they made me team
lead", "升教导主任了"), and what only looks like one (a passenger at an airport, a dinner
someone made, a class one teaches)."""

from __future__ import annotations

from pathlib import Path

import pytest
from episode_builders import held_statements
from profile_builders import profile_after, values


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "I start at Fernhill Bank on Monday as a risk analyst.",
            {("works_at", "Fernhill Bank"), ("occupation", "risk analyst")},
        ),
        (
            "Accepted a position at Corvid Labs as a research engineer!",
            {("works_at", "Corvid Labs"), ("occupation", "research engineer")},
        ),
        ("I accepted a role with Tallis Group.", {("works_at", "Tallis Group")}),
        (
            "Joined Pellucid in May as a product designer.",
            {("works_at", "Pellucid"), ("occupation", "product designer")},
        ),
        (
            "first month at Brightwater as a junior accountant, so far so good",
            {("works_at", "Brightwater"), ("occupation", "junior accountant")},
        ),
        (
            "started my new job as a sound engineer at Halcyon Studios",
            {("works_at", "Halcyon Studios"), ("occupation", "sound engineer")},
        ),
        (
            "I'm the new staff nurse at Kingsmead Hospital.",
            {("works_at", "Kingsmead Hospital"), ("occupation", "staff nurse")},
        ),
        ("My boss made me shift manager this week.", {("occupation", "shift manager")}),
        ("I've been made a partner, finally.", {("occupation", "partner")}),
        ("这学期我升教导主任了", {("occupation", "教导主任")}),
        ("终于升主治了", {("occupation", "主治")}),
        ("刚从联想跳到大疆了", {("works_at", "大疆")}),
        ("我是仁济的规培医生，天天值班", {("works_at", "仁济"), ("occupation", "规培医生")}),
        ("我现在是顺丰的快递员", {("works_at", "顺丰"), ("occupation", "快递员")}),
        ("I got a job with Fenwick Group.", {("works_at", "Fenwick Group")}),
        # a firm whose name opens like a little-known place's is the firm, not a town
        ("我在顺川物流做调度", {("works_at", "顺川物流"), ("occupation", "调度")}),
        # ... while a city a firm is described in is where one lives
        ("在呼和浩特一家健身房当私教", {("lives_in", "呼和浩特"), ("occupation", "私教")}),
    ],
)
def test_a_new_job_says_its_role(text: str, said: set[tuple[str, str | None]]) -> None:
    assert said <= held_statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "Now at Gatwick as a passenger for once, lol.",
        "My gran made me a jumper for Christmas.",
        "She made me dinner after the match.",
        "I started my morning at Greggs as a treat.",
        "I joined a support group.",
        "There's a product designer role at Lumen I might apply for.",
    ],
)
def test_what_only_looks_like_a_job(text: str) -> None:
    said = held_statements(text)
    assert not {a for a, _ in said} & {"works_at", "occupation"}


def test_a_class_or_a_person_is_no_employer() -> None:
    assert ("works_at", "三年级") not in held_statements("我是三年级的班主任")
    assert ("works_at", "正式") not in held_statements("转正了 现在是正式的产品经理了")
    assert not {a for a, _ in held_statements("我是他的老师")} & {"works_at"}


def test_a_new_job_replaces_the_employer_and_the_role(tmp_path: Path) -> None:
    profile = profile_after(
        tmp_path,
        [
            ("2026-02-02", ["I'm a paralegal at Moorfield Law."]),
            ("2026-07-06", ["Accepted a position at Quayside Legal as a trainee solicitor."]),
        ],
        "2026-10-01T00:00:00+00:00",
    )
    assert values(profile, "works_at") == ["Quayside Legal"]
    assert values(profile, "occupation") == ["trainee solicitor"]
