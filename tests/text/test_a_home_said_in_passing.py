"""A home said in passing: a new place named by its town ("our new place in Bath has a
garden"), and a town whose clause goes on with someone doing something ("since moving to
Oxford I cycle everywhere": the town is Oxford, not "Oxford I cycle everywhere")."""

from __future__ import annotations

import pytest

from dualtrace.text.slots import find_statements


def _homes(text: str) -> list[str | None]:
    return [s.value for s in find_statements(text) if s.attribute == "lives_in"]


@pytest.mark.parametrize(
    ("text", "town"),
    [
        ("Our new place in Truro has a proper garden.", "Truro"),
        ("my new flat in Stockbridge is freezing lol", "Stockbridge"),
        ("Since moving to Harrogate I walk everywhere.", "Harrogate"),
        ("After moving to Lancaster we finally got a dog", "Lancaster"),
        ("we live in a cramped little flat in Jesmond", "Jesmond"),
    ],
)
def test_a_home_said_in_passing(text: str, town: str) -> None:
    assert _homes(text) == [town]


def test_someone_elses_new_place_is_not_the_users() -> None:
    assert _homes("their new house in Truro is lovely") == []
