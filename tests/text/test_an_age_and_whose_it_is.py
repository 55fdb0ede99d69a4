"""An age and whose it is: one who types to an assistant is ten or more, so an age under ten
said alone is a child's or a pet's, never the user's; a Chinese clause that goes on after one
opening on kin ("我女儿叫朵朵，今年五岁") is about that person."""

from __future__ import annotations

import pytest

from dualtrace.encode.rules import _clauses
from dualtrace.text.slots import find_statements


def _ages(text: str) -> list[tuple[str | None, str | None]]:
    return [
        (s.value, s.subject)
        for clause in _clauses(text)
        for s in find_statements(clause)
        if s.attribute == "age"
    ]


@pytest.mark.parametrize(
    ("text", "ages"),
    [
        ("我今年二十九岁，在做运营", [("二十九", None)]),
        ("just turned 41 lol", [("41", None)]),
        ("我儿子叫乐乐，今年四岁", [("四", "儿子")]),
        ("我家猫咪今年两岁了", []),
        ("I'm 4 months pregnant!", []),
        ("I'm 6 weeks into the couch to 5k plan", []),
    ],
)
def test_an_age_is_the_users_only_where_it_can_be(
    text: str, ages: list[tuple[str | None, str | None]]
) -> None:
    assert _ages(text) == ages
