"""Where a value ends: what is said after a place (an adverb, a doing with its object, who
one lives with, the new home) is not the place's name."""

from __future__ import annotations

import pytest

from dualtrace.text.slots import find_statements


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("grew up in Leeds watching my dad's team every week", "from", "Leeds"),
        ("moved to Bristol finally, the van was a nightmare", "lives_in", "Bristol"),
        ("we live in Hackney honestly it's loud", "lives_in", "Hackney"),
        ("I'm working at Ocado actually, since the spring", "works_at", "Ocado"),
        ("现在住在杭州跟室友一起合租", "lives_in", "杭州"),
        ("上个月搬到苏州的新家了", "lives_in", "苏州"),
        ("我现在住在学校宿舍里", "lives_in", "学校宿舍"),
        ("我住在WG里，跟四个人合租", "lives_in", "WG"),
        ("I live in Fremantle most of the year", "lives_in", "Fremantle"),
        ("we live in Leith near the docks", "lives_in", "Leith"),
        ("living in Hobart means cold mornings", "lives_in", "Hobart"),
        ("I work for a courier firm out of Derby", "works_at", "courier firm"),
        # a name's own ending stays
        ("我在阿里上班，天天加班", "works_at", "阿里"),
        ("moved to Reading last spring", "lives_in", "Reading"),
    ],
)
def test_a_value_ends_where_its_name_does(text: str, attribute: str, value: str) -> None:
    assert value in {s.value for s in find_statements(text) if s.attribute == attribute}
