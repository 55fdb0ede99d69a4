"""A value ended or switched as chat says it: a phone that died and the one got after it, a
language given up on, a sport switched from, a sport said without its "I" ("Doing pilates
now."), a pet counted and named in one breath ("养了一只猫叫年糕") or gone with its day said
("狗狗上周去世了"), a break-up that names no one ("我和男朋友分手了"), a school by its degree
("在北大读博")."""

from __future__ import annotations

from pathlib import Path

import pytest
from profile_builders import profile_after, values

from dualtrace.text.slots import find_statements


def _said(text: str) -> set[tuple[str, str | None, bool]]:
    return {(s.attribute, s.value, s.ended) for s in find_statements(text)}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "My Galaxy S21 finally died so I got a Pixel 8.",
            {("phone", "Galaxy S21", True), ("phone", "Pixel 8", False)},
        ),
        ("my iPhone 12 got stolen at the festival", {("phone", "iPhone 12", True)}),
        ("sold my old Galaxy S10 to a mate", {("phone", "Galaxy S10", True)}),
        (
            "小米12坏了，换了个荣耀Magic6",
            {("phone", "小米12", True), ("phone", "荣耀Magic6", False)},
        ),
        ("I gave up on German, it was too much.", {("language", "German", True)}),
        ("dropped my French classes after Easter", {("language", "French", True)}),
        ("韩语早就放弃了", {("language", "韩语", True)}),
        ("Doing spin classes now, three mornings a week.", {("exercise", "spin", False)}),
        ("Switched from swimming to rowing this spring.", {("exercise", "rowing", False)}),
        ("我们养了一只兔子叫团团", {("pet", "团团", False)}),
        ("家里有条金毛叫可乐", {("pet", "可乐", False)}),
        ("我家猫猫前几天去世了", {("pet", "猫猫", True)}),
        ("我在南开读博，第三年了", {("studies_at", "南开", False)}),
        ("we broke up in the summer, it's fine", {("partner", None, True)}),
        ("I split up with my girlfriend last month", {("partner", None, True)}),
        ("我跟男朋友分手了，心累", {("partner", None, True)}),
        ("我们俩离婚了", {("partner", None, True)}),
    ],
)
def test_what_ended_and_what_came_after(text: str, said: set[tuple[str, str | None, bool]]) -> None:
    assert said <= _said(text)


def test_a_phone_is_named_by_its_make_and_model_not_by_what_it_did() -> None:
    assert _said("my Pixel died on the train") == {("phone", "Pixel", True)}


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Doing the dishes now, brb.", "exercise"),
        ("那只猫叫了一晚上", "pet"),
        ("楼下那只猫叫咪咪", "pet"),  # a cat pointed at, no one's own
        ("my sister broke up with her boyfriend", "partner"),
        ("我爸妈离婚了", "partner"),
        ("考上教师编了", "studies_at"),
    ],
)
def test_what_names_no_value(text: str, attribute: str) -> None:
    assert not {s for s in find_statements(text) if s.attribute == attribute}


def test_a_break_up_that_names_no_one_ends_the_partner(tmp_path: Path) -> None:
    profile = profile_after(
        tmp_path,
        [("2026-02-01", ["My girlfriend Saoirse is a vet."]), ("2026-08-01", ["we broke up :("])],
        "2026-10-01T00:00:00+00:00",
    )
    assert values(profile, "partner") == []
