"""`Memory.profile`: each slot's current value with its date and source turns, every member
of a many-valued slot, what a value replaced on request, the past with `as_of`, and the text
within a token budget (both backends)."""

from __future__ import annotations

import re

import pytest

from dualtrace import Memory, Profile, ValidationError
from dualtrace.recall.profile import HEADER, PEOPLE_HEADER, gather
from dualtrace.text.tokens import count_tokens

JAN, MAR, APR = "2025-01-05T10:00:00Z", "2025-03-01T10:00:00Z", "2025-04-01T10:00:00Z"


def _said(mem: Memory) -> None:
    mem.add("I live in Lyon with my partner.", user_id="u", timestamp=JAN)
    mem.add("I work at Google as an engineer.", user_id="u", timestamp=JAN)
    mem.add("We have a dog named Rex.", user_id="u", timestamp=JAN)
    mem.add("我们搬到了波尔多。", user_id="u", timestamp=MAR)
    mem.add("We just adopted a cat called Miso.", user_id="u", timestamp=APR)


def _values(profile: Profile) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for v in profile.values:
        found.setdefault(v.attribute, []).append(v.value)
    return found


def test_current_values_with_dates_and_sources(any_mem: Memory) -> None:
    _said(any_mem)
    profile = any_mem.profile("u")
    values = _values(profile)
    assert values["lives_in"] == ["波尔多"]  # the newer one-valued value, not Lyon
    assert values["pet"] == ["dog named Rex", "cat called Miso"]  # every member
    assert values["works_at"] == ["Google"]
    home = next(v for v in profile.values if v.attribute == "lives_in")
    assert home.since is not None and home.since.isoformat().startswith("2025-03-01")
    assert any_mem.get(home.sources[0], user_id="u").text == "我们搬到了波尔多。"
    assert "Lyon" not in profile.text and "波尔多 (since 1 Mar 2025) [" in profile.text
    assert home.replaced == ()  # history only when asked
    label = profile.text.split("波尔多 (since 1 Mar 2025) [")[1].split("]")[0]
    assert profile.references[label] == home.sources[0]
    assert profile.tokens == count_tokens(profile.text)


def test_history_lists_what_a_value_replaced(any_mem: Memory) -> None:
    _said(any_mem)
    home = next(v for v in any_mem.profile("u", history=True).values if v.attribute == "lives_in")
    assert [r.value for r in home.replaced] == ["Lyon"]
    assert home.replaced[0].until == home.since
    assert "replaced Lyon (5 Jan 2025 – 1 Mar 2025)" in any_mem.profile("u", history=True).text


def test_as_of_reads_the_past(any_mem: Memory) -> None:
    _said(any_mem)
    then = _values(any_mem.profile("u", as_of="2025-02-01T00:00:00Z"))
    assert then["lives_in"] == ["Lyon"] and then["pet"] == ["dog named Rex"]
    assert _values(any_mem.profile("u", as_of="2024-12-01T00:00:00Z")) == {}


def test_the_text_keeps_within_the_budget(mem: Memory) -> None:
    _said(mem)
    whole = mem.profile("u")
    small = mem.profile("u", max_tokens=30)
    assert small.tokens <= 30 < whole.tokens
    assert small.text and whole.text.startswith(small.text)
    assert len(small.values) == len(whole.values)  # the structured values are all there
    assert set(small.references) < set(whole.references)


def test_other_users_and_empty_profiles(mem: Memory) -> None:
    _said(mem)
    empty = mem.profile("someone-else")
    assert empty.values == [] and empty.text == "" and empty.tokens == 0


@pytest.mark.parametrize(
    ("kwargs", "names"),
    [
        ({"max_tokens": 0}, "max_tokens"),
        ({"max_tokens": "many"}, "max_tokens"),
        ({"as_of": "next week"}, "as_of"),
        ({"history": "yes"}, "history"),
    ],
)
def test_bad_arguments_are_named(mem: Memory, kwargs: dict[str, object], names: str) -> None:
    with pytest.raises(ValidationError, match=names):
        mem.profile("u", **kwargs)  # type: ignore[arg-type]


def test_a_bad_user_id_is_named(mem: Memory) -> None:
    with pytest.raises(ValidationError, match="user_id"):
        mem.profile("")


def test_labels_are_shared_with_the_context_and_a_cut_line_keeps_none(mem: Memory) -> None:
    """A turn the context's other part already labels keeps its label, new turns take the
    numbers left free, and a line the budget cuts leaves no label behind."""
    _said(mem)
    picture = gather(mem.store, "u", as_of=None, history=False)
    home = next(v for v in picture.values if v.attribute == "lives_in")
    shared = picture.render(None, cited={"1": "turn-elsewhere", "2": home.sources[0]})
    assert "波尔多 (since 1 Mar 2025) [2]" in shared.text and "[1]" not in shared.text
    assert shared.references["2"] == home.sources[0] and "3" in shared.references
    for budget in range(20, count_tokens(shared.text), 7):
        cut = picture.render(budget)
        assert set(re.findall(r"\[(\d+)\]", cut.text)) == set(cut.references)


def test_the_family_and_a_replaced_car_said_in_passing(mem: Memory) -> None:
    mem.add(
        "40 min in the Ford Focus, my son Alfie thinks it's hilarious", user_id="f", timestamp=JAN
    )
    mem.add("My twin brother Noah keeps saying sell the car.", user_id="f", timestamp=MAR)
    mem.add("Sold the Ford Focus, picked up a used Kia Niro.", user_id="f", timestamp=APR)
    mem.add("我女儿朵朵上小学了。", user_id="f", timestamp=APR)
    mem.add("我姐林悦在杭州上班。", user_id="f", timestamp=APR)
    profile = mem.profile("f")
    values = _values(profile)
    assert values["family"] == ["son Alfie", "女儿朵朵"]  # every child, none replaced
    assert values["vehicle"] == ["Kia Niro"]
    # a brother or sister is a person the user speaks of, with the others
    relatives = [v.value for v in profile.people if v.attribute == "family"]
    assert relatives == ["twin brother Noah", "姐林悦"]
    assert "twin brother Noah" in profile.text.split(PEOPLE_HEADER)[1]


def test_other_peoples_values_have_a_section_of_their_own(mem: Memory) -> None:
    mem.add("I live in Lyon.", user_id="o", timestamp=JAN)
    mem.add("My sister lives in Boston and works at Pfizer.", user_id="o", timestamp=MAR)
    mem.add("我弟弟住在杭州。", user_id="o", timestamp=APR)
    profile = mem.profile("o")
    assert _values(profile) == {"lives_in": ["Lyon"]}  # the user's own, nobody else's
    people = {(v.subject, v.attribute, v.value) for v in profile.people}
    assert people == {
        ("the user's sister", "lives_in", "Boston"),
        ("the user's sister", "works_at", "Pfizer"),
        ("用户的弟弟", "lives_in", "杭州"),
    }
    own, others = profile.text.split(PEOPLE_HEADER)
    assert own.startswith(HEADER) and "Lyon" in own and "Boston" not in own
    assert "the user's sister — lives in: Boston (since 1 Mar 2025) [" in others
    # a small budget keeps the user's own values first and cuts the others'
    small = mem.profile("o", max_tokens=count_tokens(own) + 3)
    assert "Lyon" in small.text and PEOPLE_HEADER not in small.text
    # a named speaker's own values are theirs (a chat between people), a friend's are not
    mem.add(
        [{"name": "Alice", "content": "I live in Hangzhou and my friend Jo lives in Xi'an."}],
        user_id="n",
        timestamp=JAN,
    )
    named = mem.profile("n")
    assert [(v.subject, v.value) for v in named.values] == [("Alice", "Hangzhou")]
    assert [v.value for v in named.people] == ["Xi'an"]


def test_a_plan_reads_as_one(mem: Memory) -> None:
    mem.add("We're planning a trip to Lisbon in May.", user_id="p", timestamp=JAN)
    (trip,) = mem.profile("p").values
    assert trip.attribute == "trip"
    assert "- trip (planned): Lisbon (said 5 Jan 2025) [" in mem.profile("p").text


def test_a_home_named_by_its_district_shows_its_city(mem: Memory) -> None:
    mem.add("Finally unpacked in Leith, the stairs are brutal.", user_id="u", timestamp=JAN)
    mem.add("上个月搬到望京了，离公司近。", user_id="v", timestamp=JAN)
    mem.add("我们搬到了深圳南山。", user_id="w", timestamp=JAN)
    for user, value, city in (("u", "Leith", "Edinburgh"), ("v", "望京", "北京")):
        profile = mem.profile(user)
        home = next(v for v in profile.values if v.attribute == "lives_in")
        assert (home.value, home.city) == (value, city)
        assert f"{value}, {city} (since 5 Jan 2025)" in profile.text
    # a value that names its city, or a city, shows no other
    home = next(v for v in mem.profile("w").values if v.attribute == "lives_in")
    assert home.city is None
    _said(mem)
    assert all(v.city is None for v in mem.profile("u").values if v.value == "波尔多")


def test_the_city_a_home_s_district_lies_in_keeps_the_district(mem: Memory) -> None:
    # said in one turn, or in a later one: the city says no move, only less
    mem.add("住在前海，到深圳两个月了，夏天太热了", user_id="u", timestamp=JAN)
    mem.add("Still renting in Leith and loving it.", user_id="v", timestamp=JAN)
    mem.add("Edinburgh in the rain is grim, I live in Edinburgh after all.", user_id="v")
    for user, value, city in (("u", "前海", "深圳"), ("v", "Leith", "Edinburgh")):
        home = [v for v in mem.profile(user).values if v.attribute == "lives_in"]
        assert [(v.value, v.city) for v in home] == [(value, city)]
    # ... while another city is a move
    mem.add("We moved to Glasgow last month.", user_id="v")
    home = [v.value for v in mem.profile("v").values if v.attribute == "lives_in"]
    assert home == ["Glasgow"]


def test_a_budget_for_one_purchase_is_no_part_of_the_picture(mem: Memory) -> None:
    mem.add("I work at Arup as a structural engineer.", user_id="u", timestamp=JAN)
    mem.add("ok so the budget for the bathroom redo is 12k", user_id="u", timestamp=MAR)
    mem.add("这次换沙发预算定在八千", user_id="u", timestamp=APR)
    values = _values(mem.profile("u"))
    assert "budget" not in values and values["works_at"] == ["Arup"]
    # the budget is still a slot a question finds
    hits = mem.search("what's my budget for the bathroom?", user_id="u", limit=3)
    assert any("12k" in h.text for h in hits)
