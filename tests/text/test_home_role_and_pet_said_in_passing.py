"""Where one lives, said in passing: a home one is in or rents there ("we're in a cramped
terrace in headingley", "still renting in leith"), settling in, "now in …" after a move, a
big Chinese city one is in as one says what one does there (我在大连，这边…), a district one
sets off from for work, the place given with one's name (杭州西湖区的); a role held in a team
("I'm the only pharmacist on the ward") or given with one's name alone; a grade started,
a grandchild's; a pet named in brackets, after it came ("we named her Juniper"), said to be
one (豆包是只小橘猫) or with a pet's emoji. And what is none of these: a trip (我在上海出差,
"now in London for the weekend")."""

from __future__ import annotations

import pytest
from episode_builders import held_statements

from dualtrace.encode.rules import _clauses
from dualtrace.text.slots import find_statements
from dualtrace.text.slots.catalogue import BY_NAME
from dualtrace.text.slots.values import plausible


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("still renting in leith while we save for a deposit", ("lives_in", "Leith")),
        (
            "we're in a cramped terrace in headingley so no room for a piano",
            ("lives_in", "Headingley"),
        ),
        ("Settling in nicely in Fremantle, the sea air helps my chest", ("lives_in", "Fremantle")),
        ("now in Hackney sharing with two nurses", ("lives_in", "Hackney")),
        ("we're staying in Porto for now, the rent is fair", ("lives_in", "Porto")),
        ("我在大连，这边海鲜便宜，想学做辣炒蛤蜊", ("lives_in", "大连")),
        ("你好 我在成都开了个小面馆 想做个菜单", ("lives_in", "成都")),
        # (the city, not the street the shop is on)
        ("我在成都春熙路开了家火锅店 想做个菜单", ("lives_in", "成都")),
        ("现在从陆家嘴坐地铁到公司要四十分钟", ("lives_in", "陆家嘴")),
        ("我叫陈静 杭州西湖区的 想问个事", ("lives_in", "杭州西湖区")),
        (
            "Priya here, secondary school maths teacher.",
            ("occupation", "secondary school maths teacher"),
        ),
        ("i'm the only pharmacist on the ward tonight", ("occupation", "pharmacist")),
        ("I'm the new barista at Ground Up, first week done", ("occupation", "barista")),
    ],
)
def test_a_value_said_in_passing_is_the_speakers(text: str, held: tuple[str, str]) -> None:
    assert held in held_statements(text)


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("我在上海出差，明天就回去", "lives_in"),
        ("我在杭州玩两天 有啥推荐", "lives_in"),
        ("now in London for the weekend, any brunch spots?", "lives_in"),
        ("Tom here, quick question about my boiler.", "occupation"),
        ("I'm the one in charge of snacks for the trip", "occupation"),
    ],
)
def test_a_trip_or_a_greeting_holds_no_such_value(text: str, attribute: str) -> None:
    assert not any(a == attribute for a, _ in held_statements(text))


def test_a_grade_started_is_the_childs_the_clause_names() -> None:
    said = [s for c in _clauses("my son just started 2nd grade") for s in find_statements(c)]
    assert [(s.attribute, s.value, s.subject) for s in said if s.attribute == "grade"] == [
        ("grade", "2nd grade", "son")
    ]


def test_a_grade_is_the_grandchilds_or_the_childs_a_part_opens_on() -> None:
    said = [s for c in _clauses("孙女今年上二年级了 作业好多") for s in find_statements(c)]
    assert ("grade", "二年级", "孙女") in {(s.attribute, s.value, s.subject) for s in said}
    assert ("grade", "三年级") not in held_statements("下个月就搬过去 朵朵今年上三年级 好紧张")


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("waffles and pip (my dogs) are snoring on the sofa", "waffles and pip"),
        ("nacho (the cat) knocked my tea over", "Nacho"),
        ("brought home a rescue greyhound yesterday!! we named her Juniper.", "Juniper"),
        ("豆包是只小橘猫 两岁了", "豆包"),
        ("我家布丁和奶茶又在抢猫砂盆🐱", "布丁和奶茶"),
        ("路边捡了只小奶狗 黄色的 叫大福", "大福"),
        ("Mango, a cockatiel", "Mango"),
    ],
)
def test_a_pet_named_in_passing_is_the_speakers(text: str, pet: str) -> None:
    assert ("pet", pet) in held_statements(text)


def test_a_pet_of_someone_elses_typed_without_its_apostrophe_is_not_the_speakers() -> None:
    assert not [v for a, v in held_statements("Bruno is our neighbours dog") if a == "pet"]


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("每天一杯生椰拿铁 钱包顶不住了", ("drink", "生椰拿铁")),
        ("下班喝点啤酒 看会儿球", ("drink", "啤酒")),
        ("trying the salad instead of fries tonight", None),
        ("having green tea instead, the coffee was wrecking my sleep", ("drink", "green tea")),
        ("still sober, six months on Sunday", ("given_up", "sober")),
        ("traded in my old Polo for a Skoda Fabia last week", ("vehicle", "Skoda Fabia")),
        ("换了辆电瓶车代步 方便多了", ("vehicle", "电瓶车")),
        ("practising my portuguese on the tram every morning", ("language", "portuguese")),
        ("keeping a Japanese streak going on Duolingo", ("language", "Japanese")),
    ],
)
def test_a_habit_a_car_or_a_language_said_in_passing(
    text: str, held: tuple[str, str] | None
) -> None:
    said = held_statements(text)
    if held is None:
        assert not any(a == "drink" for a, _ in said)
    else:
        assert held in said


def test_a_city_one_only_meant_to_go_to_is_no_word_of_home() -> None:
    # "宁波的" given with a name says where one is from; "想去西安的" does not
    about = BY_NAME["lives_in"].about
    assert about.search("我是周敏，宁波的，做外贸")
    assert not about.search("本来想去西安的，最后留在了家里")


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("帮我出几道初三的物理练习题 下周要用", None),  # what a year's work is, not one's year
        ("下学期我要带高二的班 有点慌", None),
        ("我是大二的学生 想转专业", "大二"),
        ("我现在高一 数学跟不上", "高一"),
    ],
)
def test_a_grade_held_and_a_years_work(text: str, grade: str | None) -> None:
    held = {v for a, v in held_statements(text) if a == "grade"}
    assert held == ({grade} if grade else set())


def test_here_is_no_place_one_lives() -> None:
    # "孙女在我这住了一个暑假": where she stays is "here", no place
    assert not plausible("lives_in", "这") and not plausible("lives_in", "那边")
    assert plausible("lives_in", "宁波")


def test_a_polite_ask_of_the_listener_hedges_nothing_said_before_it() -> None:
    held = held_statements("嗨 我是Marco 在Grab做product manager 想请你帮我改一下简历")
    assert ("name", "Marco") in held and ("works_at", "Grab") in held
    # ... but a wish is still a wish: 想请假 is "want to take leave"
    assert ("trip", "厦门") not in held_statements("下个月想请假去厦门玩几天")


def test_a_year_and_its_subject_is_what_is_taught_not_ones_grade() -> None:
    assert not any(a == "grade" for a, _ in held_statements("周末带家教 教初三物理 学生挺聪明"))
    assert ("grade", "高一") in held_statements("我今年高一，物理有点跟不上")


@pytest.mark.parametrize(
    ("text", "school"),
    [
        ("I teach year 2 at Hillcrest Primary, the kids are wild", "Hillcrest Primary"),
        ("我在实验二小教英语 十年了", "实验二小"),
        ("在三中教化学 今年带高三", "三中"),
    ],
)
def test_the_school_one_teaches_at_is_where_one_works(text: str, school: str) -> None:
    assert ("works_at", school) in held_statements(text)


@pytest.mark.parametrize("text", ["I teach piano at home on weekends", "我在家教孩子写作业"])
def test_teaching_at_home_names_no_employer(text: str) -> None:
    assert not any(a == "works_at" for a, _ in held_statements(text))


def test_a_class_one_teaches_is_no_grade_and_a_numbered_school_no_city() -> None:
    held = held_statements("我在五中教语文 今年带初三")
    assert ("works_at", "五中") in held
    assert not any(a in ("grade", "lives_in") for a, _ in held)
