"""The city a district lies in, from the shipped table."""

from __future__ import annotations

from importlib import resources

import pytest

from dualtrace.cjk import has_cjk
from dualtrace.text.districts import DISTRICTS_FILE, city_of


@pytest.mark.parametrize(
    ("place", "city"),
    [
        ("Leith", "Edinburgh"),
        ("  leith ", "Edinburgh"),
        ("望京", "北京"),
        ("Edinburgh", None),  # a city is no district
        ("深圳南山", None),  # the value names its city already
        ("the flat upstairs", None),
    ],
)
def test_the_city_of_a_district(place: str, city: str | None) -> None:
    assert city_of(place) == city


def test_the_table_is_one_name_and_one_city_a_line_in_one_script() -> None:
    text = resources.files("dualtrace").joinpath("data", DISTRICTS_FILE).read_text("utf-8")
    names = []
    for line in text.splitlines():
        name, city = line.split("\t")
        assert name and city and name == name.strip() and city == city.strip()
        assert has_cjk(name) == has_cjk(city), line  # a city in its name's script
        if not has_cjk(name):
            assert name == name.casefold(), line
        names.append(name)
    assert len(names) == len(set(names))
