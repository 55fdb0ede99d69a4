"""What no longer holds though no "not" says so: a value of a time gone by ("I used to
drive a Prius", "我以前住天河"), a car that died or was sold ("RIP my Altima", "朗逸报废了"),
a pet given away ("had to rehome Milo", "豆豆送回老家给我爸妈养了"); and the people whose
values they are (a friend, a senior at school, a cousin) said by words a user says them by."""

from __future__ import annotations

import pytest

from dualtrace import Memory
from dualtrace.text.slots import find_statements


def _slots(clause: str) -> set[tuple[str, str | None, str | None, bool]]:
    return {(s.attribute, s.value, s.subject, s.ended) for s in find_statements(clause)}


@pytest.mark.parametrize(
    ("clause", "slot"),
    [
        ("I used to live in Croydon before all this", ("lives_in", "Croydon", None, True)),
        ("i used to drive a Honda Jazz tbh", ("vehicle", "Honda Jazz", None, True)),
        ("back in uni I worked at Greggs on weekends", ("works_at", "Greggs", None, True)),
        ("我以前住在闵行，离公司太远", ("lives_in", "闵行", None, True)),
        ("我曾经在美团做过运营", ("works_at", "美团", None, True)),
        ("以前每周都去游泳 现在完全没空", ("exercise", "游泳", None, True)),
    ],
)
def test_a_value_of_a_time_gone_by_has_ended(
    clause: str, slot: tuple[str, str, str | None, bool]
) -> None:
    assert slot in _slots(clause)


@pytest.mark.parametrize(
    ("clause", "slot"),
    [
        # being used to something is no past
        ("I'm used to driving the Honda Jazz in snow", ("vehicle", "Honda Jazz", None, False)),
        # ... nor is a time ago, nor a former someone
        ("一年以前我搬到了闵行", ("lives_in", "闵行", None, False)),
        # the word for now after it says what holds now
        ("used to teach and now I work at Zalando", ("works_at", "Zalando", None, False)),
    ],
)
def test_what_is_no_past(clause: str, slot: tuple[str, str, str | None, bool]) -> None:
    assert slot in _slots(clause)


@pytest.mark.parametrize(
    ("clause", "slot"),
    [
        ("my old Skoda Fabia finally died on the A30", ("vehicle", "Skoda Fabia", None, True)),
        ("rip my camry, 310k miles", ("vehicle", "camry", None, True)),
        ("and my Nissan Leaf finally died on the bypass", ("vehicle", "Nissan Leaf", None, True)),
        ("the Prius got written off last week", ("vehicle", "Prius", None, True)),
        ("我的思域上个月卖了", ("vehicle", "思域", None, True)),
        ("家里那辆宝来报废了", ("vehicle", "宝来", None, True)),
        ("we had to rehome Waffles, my landlord found out", ("pet", "Waffles", None, True)),
        ("我家猫糯米送给表姐养了", ("pet", "猫糯米", None, True)),
        ("我家狗旺财送回老家了，城里太小", ("pet", "狗旺财", None, True)),
    ],
)
def test_a_car_gone_and_a_pet_given_away(
    clause: str, slot: tuple[str, str, str | None, bool]
) -> None:
    assert slot in _slots(clause)


@pytest.mark.parametrize(
    ("clause", "slot"),
    [
        ("physio says no more netball for me this season", ("exercise", "netball", None, True)),
        ("quit spin class, the instructor was awful", ("exercise", "spin", None, True)),
        ("we don't play padel these days", ("exercise", "padel", None, True)),
        ("乒乓球早就不打了，改成每天快走", ("exercise", "乒乓球", None, True)),
        ("普拉提课退了，太贵", ("exercise", "普拉提", None, True)),
        ("honestly done with paleo, I missed rice too much", ("diet", "paleo", None, True)),
        ("not pescatarian anymore btw", ("diet", "pescatarian", None, True)),
        ("轻断食停了 胃受不了", ("diet", "轻断食", None, True)),
        ("小提琴早就不拉了", ("instrument", "小提琴", None, True)),
    ],
)
def test_a_pastime_or_a_diet_given_up(clause: str, slot: tuple[str, str, str | None, bool]) -> None:
    assert slot in _slots(clause)


def test_what_is_taken_up_beside_what_is_given_up() -> None:
    slots = _slots("轻断食放弃了 太饿 现在改成吃素")
    assert ("diet", "轻断食", None, True) in slots and ("diet", "吃素", None, False) in slots


@pytest.mark.parametrize(
    "clause",
    [
        "the heater in the Corolla died again",  # a part of the car, not the car
        "my Mazda3 died on the motorway, waiting for the AA",  # a breakdown
        "卖了三万二，还行吧",  # what it sold for
    ],
)
def test_no_car_ends_by_a_part_or_a_price(clause: str) -> None:
    assert not any(ended for attribute, _, _, ended in _slots(clause) if attribute == "vehicle")


@pytest.mark.parametrize(
    ("clause", "slot"),
    [
        ("my mate Olly works at Arup these days", ("works_at", "Arup", "mate")),
        ("my bestie lives in Hove now", ("lives_in", "Hove", "bestie")),
        ("my ex still drives a Tesla lol", ("vehicle", "Tesla", "ex")),
        ("我师兄在深圳做芯片", ("lives_in", "深圳", "师兄")),
        ("我老表住在东莞", ("lives_in", "东莞", "老表")),
        ("儿媳妇想让孙子学钢琴", ("instrument", "钢琴", "孙子")),  # the grandson would learn
    ],
)
def test_friends_and_schoolmates_are_someone_else(
    clause: str, slot: tuple[str, str, str | None]
) -> None:
    assert slot in {(a, v, s) for a, v, s, _ in _slots(clause)}


def test_a_dead_car_leaves_the_profile(mem: Memory) -> None:
    jan, mar, apr = "2025-01-05T10:00:00Z", "2025-03-01T10:00:00Z", "2025-04-01T10:00:00Z"
    mem.add("I drive a Mazda 3, bought it used in 2019", user_id="u", timestamp=jan)
    mem.add("My sister Jo lives in Hove.", user_id="u", timestamp=jan)
    mem.add("my old Mazda 3 finally died this morning", user_id="u", timestamp=mar)
    mem.add("以前住在静安，现在搬到了徐汇", user_id="u", timestamp=apr)
    values = {(v.attribute, v.value) for v in mem.profile("u").values}
    assert not any(attribute == "vehicle" for attribute, _ in values)
    assert ("lives_in", "徐汇") in values and ("lives_in", "静安") not in values


@pytest.mark.parametrize(
    ("clause", "attribute"),
    [
        ("my aunt keeps telling me to move to Galway", "lives_in"),
        ("Sam wants me to start working at Monzo", "works_at"),
        ("我妈让我搬到杭州住", "lives_in"),
        ("同事叫我去打网球", "exercise"),
    ],
)
def test_what_someone_would_have_the_speaker_do_is_no_fact(clause: str, attribute: str) -> None:
    held = [s for s in find_statements(clause) if s.attribute == attribute]
    assert held and all(s.hedged for s in held)


def test_what_one_is_asked_to_give_up_still_holds() -> None:
    held = [
        s
        for s in find_statements("my dad wants me to sell my Fiat Panda")
        if s.attribute == "vehicle"
    ]
    assert held and not any(s.hedged or s.ended for s in held)


@pytest.mark.parametrize(
    "clause",
    [
        "stopped swimming for now, ear infection",
        "can't do pilates tomorrow, any stretches instead?",
        "no more climbing until the finger heals",
        "这周羽毛球不能打了 脚崴了",
    ],
)
def test_a_sport_paused_for_a_while_has_not_ended(clause: str) -> None:
    assert not any(s.ended for s in find_statements(clause) if s.attribute == "exercise")


def test_a_wife_called_by_the_everyday_word_is_the_partner() -> None:
    assert ("partner", "李娟", None, False) in _slots("我媳妇李娟最近在学跳舞")


def test_a_break_up_ends_the_partner_named_not_a_word_of_chat() -> None:
    said = [(s.attribute, s.value, s.ended) for s in find_statements("Milo and I broke up lol")]
    assert said == [("partner", "Milo", True)]
    assert not [s for s in find_statements("the band broke up lol") if s.value == "lol"]
