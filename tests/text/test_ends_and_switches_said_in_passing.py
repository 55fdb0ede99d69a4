"""A value ended or switched as chat says it: a phone that died and the one got after it, a
language given up on, a sport switched from, a sport said without its "I" ("Doing pilates
now."), and a pet counted and named in one breath ("养了一只猫叫年糕")."""

from __future__ import annotations

import pytest

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
    ],
)
def test_what_ended_and_what_came_after(text: str, said: set[tuple[str, str | None, bool]]) -> None:
    assert said <= _said(text)


def test_a_phone_is_named_by_its_make_and_model_not_by_what_it_did() -> None:
    assert _said("my Pixel died on the train") == {("phone", "Pixel", True)}


@pytest.mark.parametrize(
    ("text", "attribute"),
    [("Doing the dishes now, brb.", "exercise"), ("那只猫叫了一晚上", "pet")],
)
def test_what_names_no_value(text: str, attribute: str) -> None:
    assert not {s for s in find_statements(text) if s.attribute == attribute}
