"""More of how people say what they are in chat, read into the profile's slots: a role
joined, begun, or held as of a day ("joining Stripe as a solutions engineer", "Product owner
as of today!", "new job: payroll specialist at Deel"), a home bought or found ("we closed on a
condo in Burnaby", "租在园区"), a pet named after its kind and a space ("买了只柯基 叫团团"), a
sport with how often, or a club of it joined, a way of eating kept to, a language's class;
and what only looks like one: a SQL join, a choir joined, a joining bonus, a sum for a home."""

from __future__ import annotations

import pytest
from episode_builders import held_statements

from dualtrace.encode.rules import _clauses
from dualtrace.text.slots import find_statements


def _read(text: str) -> set[tuple[str, str | None]]:
    return held_statements(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "joining Stripe as a solutions engineer from next week",
            {("works_at", "Stripe"), ("occupation", "solutions engineer")},
        ),
        (
            "starting as head of growth at Lumen on the 3rd",
            {("works_at", "Lumen"), ("occupation", "head of growth")},
        ),
        (
            "new job: payroll specialist at Deel, start in a month",
            {("works_at", "Deel"), ("occupation", "payroll specialist")},
        ),
        ("Product owner as of today!", {("occupation", "Product owner")}),
        (
            "first month as a freelance photographer and it's going ok",
            {("occupation", "freelance photographer")},
        ),
        (
            "data engineer at Zalando, mostly pipelines",
            {("works_at", "Zalando"), ("occupation", "data engineer")},
        ),
        ("下家是深圳的云帆科技，合同已经签了", {("works_at", "云帆科技")}),
        ("我是前端开发，天天写页面", {("occupation", "前端开发")}),
        ("and some news: I got charge nurse!", {("occupation", "charge nurse")}),
        (
            "I'm currently a QA engineer at Veritas in Pune",
            {("works_at", "Veritas"), ("occupation", "QA engineer")},
        ),
        ("我在飞鱼科技做了快两年UI设计师", {("works_at", "飞鱼科技"), ("occupation", "UI设计师")}),
        ("I'm now a nurse educator for the ICU", {("occupation", "nurse educator")}),
    ],
)
def test_a_role_joined_begun_or_held_as_of_a_day(text: str, said: set[tuple[str, str]]) -> None:
    assert said <= _read(text)


@pytest.mark.parametrize(
    ("text", "home"),
    [
        ("we bought a house in Decatur!", "Decatur"),
        ("finally closed on a condo in Burnaby", "Burnaby"),
        ("found a basement suite in East Van", "East Van"),
        ("found a permanent flat in Wedding near the canal", "Wedding"),
        ("到苏州了 租在园区", "园区"),
        ("我们在杭州余杭买了一套房", "杭州余杭"),
        ("喷了 好点 住望京这边树多", "望京"),
        ("landed in Lisbon last week, staying in a condo in Alfama", "Alfama"),
        ("we're in leytonstone now, so much quieter", "Leytonstone"),
        ("I'll be working from home in Sheffield from May", "Sheffield"),
        ("我在成都高新租的房子就一个电饭煲", "成都高新"),
        ("我们在广州天河买了一套二手房", "广州天河"),
    ],
)
def test_a_home_bought_found_or_rented(text: str, home: str) -> None:
    assert ("lives_in", home) in _read(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("家里新来了一只布偶 叫奶茶", ("pet", "奶茶")),
        ("买了只柯基 叫团团", ("pet", "团团")),
        ("馒头（我家柴犬）今天打疫苗", ("pet", "馒头")),
        ("my pit mix Luna sleeps all day", ("pet", "pit mix Luna")),
        ("boxing 3x a week keeps me sane", ("exercise", "boxing")),
        ("rowing twice a week with a club now", ("exercise", "rowing")),
        ("joined a sea swimming group at the beach", ("exercise", "sea swimming")),
        ("每周三晚上打羽毛球 雷打不动", ("exercise", "羽毛球")),
        ("报了个普拉提 核心好弱", ("exercise", "普拉提")),
        ("I'm type 1 diabetic so carbs matter", ("health", "type 1 diabetic")),
        ("doing low-carb since May", ("diet", "low-carb")),
        ("现在改成鱼素了", ("diet", "鱼素")),
        ("my Italian lessons at the Istituto are going well", ("language", "Italian")),
        ("在Duolingo学韩语 打卡50天了", ("language", "韩语")),
        ("自学法语，刚学完发音", ("language", "法语")),
        ("日语课也开始上了", ("language", "日语")),
        ("been seeing this guy Ravi, he's a chef", ("partner", "Ravi")),
        ("最近在跟一个叫陈阳的男生约会", ("partner", "陈阳")),
        ("also trading in the Golf for a Kia EV6", ("vehicle", "Kia EV6")),
        ("最后买了思域，油耗还行", ("vehicle", "思域")),
        ("周末开帕萨特带全家去海边", ("vehicle", "帕萨特")),
        ("Pumpkin is our new kitten 🧡", ("pet", "kitten Pumpkin")),
        ("Ziggy my bearded dragon has been lethargic", ("pet", "bearded dragon Ziggy")),
        ("Salt and Pepper (my cats) will be happy", ("pet", "Salt and Pepper")),
        ("asthma's been playing up with the cold", ("health", "asthma")),
        ("switching to pickleball with my neighbour", ("exercise", "pickleball")),
        ("跟同事去攀岩了，手都磨破了", ("exercise", "攀岩")),
        ("开始冬泳了 水好冰", ("exercise", "冬泳")),
        ("taking an ASL elective this term", ("language", "ASL")),
        ("德语B1了 准备考B2", ("language", "德语")),
        ("so Dev proposed last night!!", ("partner", "Dev")),
        ("周航求婚了 我答应了🥹", ("partner", "周航")),
    ],
)
def test_pets_pastimes_diets_languages_and_partners_said_in_passing(
    text: str, said: tuple[str, str]
) -> None:
    assert said in _read(text)


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * FROM orders o LEFT JOIN customers c ON c.id = o.customer_id",
        "I've joined the Hebden community choir instead",
        "how do I negotiate a joining bonus",
        "chain 4 and join into a ring",
        "my take home is about 3900/mo",
        "starting as an apprentice plumber with my cousin monday",
        "Tom, my dog walker, is away this week",
    ],
)
def test_what_only_looks_like_an_employer_or_a_home(text: str) -> None:
    assert not {a for a, _ in _read(text)} & {"works_at", "lives_in"}


def test_a_role_is_no_more_than_the_role() -> None:
    roles = [v for a, v in _read("been a nurse at Mercy for 4 yrs now") if a == "occupation"]
    assert not [v for v in roles if v and v.startswith("been")]
    assert ("occupation", "barista") in _read("im a barista at Stumptown, mornings mostly")
    assert _read("officially an ex-smoker as of today") == {("given_up", "ex-smoker")}


def test_what_a_car_sold_for_or_a_proposal_of_a_plan_is_no_value() -> None:
    sold = [s for c in _clauses("朗逸终于卖了 卖了三万二 还行吧") for s in find_statements(c)]
    assert "三万二" not in [s.value for s in sold]
    assert not [a for a, _ in _read("Priya proposed we split the bill") if a == "partner"]
    assert not [a for a, _ in _read("观察家里的猫狗或金鱼") if a == "pet"]
