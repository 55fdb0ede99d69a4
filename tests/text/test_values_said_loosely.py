"""Values said loosely, as chat says them: a role "with" its employer after news ("got it!
project manager with Siemens Energy"), a diet gone back to or kept to, a partner or child
named by a word after ("男朋友… 他叫陈昊", "儿子 叫果果"), a pet left with someone ("团子送我
姐那了"), a role that heads something (产品负责人), a place one stays on in (还是在徐汇住着
吧), a car delivered, a sport by its kind ("wild swimming"), what a check-up found (体检说是
…); and what is none of these ("nurse with Covid again", "工资比我高一截")."""

from __future__ import annotations

import pytest

from dualtrace.encode.rules import _clauses
from dualtrace.text.slots import find_statements


def _slots(text: str) -> set[tuple[str, str | None, bool]]:
    return {
        (s.attribute, s.value, s.ended)
        for clause in _clauses(text)
        for s in find_statements(clause)
        if s.subject is None and not s.hedged
    }


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "Got it!! Project manager with Siemens Energy, from next month",
            ("works_at", "Siemens Energy", False),
        ),
        ("Senior analyst with Aviva since the spring", ("works_at", "Aviva", False)),
        ("Giving up on vegan, I'm back to vegetarian.", ("diet", "vegetarian", False)),
        ("went back to being pescatarian after the trip", ("diet", "pescatarian", False)),
        ("周末想请男朋友吃饭 他叫陈昊 特别爱吃辣", ("partner", "陈昊", False)),
        ("生了！3月2号 儿子 叫果果 七斤", ("family", "果果", False)),
        ("团子送我姐那了 她家有院子", ("pet", "团子", True)),
        ("我现在做产品负责人 管三个组", ("occupation", "产品负责人", False)),
        ("闵行不考虑了 还是在徐汇住着吧", ("lives_in", "徐汇", False)),
        ("我今年高一了 压力好大", ("grade", "高一", False)),
        # a diet kept to, a car delivered, a sport by its kind, a language by its name
        ("been veggie since uni tbh", ("diet", "veggie", False)),
        ("I've kept to my keto diet all winter", ("diet", "keto", False)),
        ("we do 5:2 intermittent fasting on weekdays", ("diet", "intermittent fasting", False)),
        ("Took delivery of a Skoda Enyaq on Friday.", ("vehicle", "Skoda Enyaq", False)),
        ("I joined a lawn bowls club in Penarth", ("exercise", "lawn bowls", False)),
        ("also started wild swimming with the neighbours", ("exercise", "wild swimming", False)),
        ("now playing walking football with the lads", ("exercise", "walking football", False)),
        ("started hitting the gym before work", ("exercise", "gym", False)),
        ("I've started Catalan on an app", ("language", "Catalan", False)),
        ("I work as sous chef at Dishoom now", ("works_at", "Dishoom", False)),
        ("Diagnosed asthma last month, inhaler twice a day.", ("health", "asthma", False)),
        ("sorry for the typos. name is oskar", ("name", "Oskar", False)),
        ("检查说是髌骨软化 先别跑了", ("health", "髌骨软化", False)),
        ("体检说是缺铁性贫血", ("health", "缺铁性贫血", False)),
        ("每天晚上跟着小区的阿姨们跳广场舞", ("exercise", "广场舞", False)),
        ("sold the Golf and bought one Kia Niro instead", ("vehicle", "Kia Niro", False)),
        ("the bike got nicked so I'm on the bus now", ("commute", "bus", False)),
        ("booked a bouldering course for the spring", ("exercise", "bouldering", False)),
        ("found a reformer pilates class near work", ("exercise", "reformer pilates", False)),
        ("done with paleo. going Mediterranean instead", ("diet", "Mediterranean", False)),
        ("ditching keto, it was making me grumpy", ("diet", "keto", True)),
        ("We have shifted to Hyderabad, near the office.", ("lives_in", "Hyderabad", False)),
    ],
)
def test_a_value_said_loosely(text: str, slot: tuple[str, str, bool]) -> None:
    assert slot in _slots(text)


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Nurse with Covid again ugh, any tips", "works_at"),
        ("teacher with two kids here, need a quick dinner", "works_at"),
        ("男朋友的同事 他叫小王 人挺好", "partner"),
        ("今天还是在公司待着吧 太冷了", "lives_in"),
        ("他工资比我高一截 酸了", "grade"),
        ("Gave up Gaelic football after the knee", "language"),
        ("I work as hard as I can for my kids", "works_at"),
        ("took delivery of the new sofa", "vehicle"),
        ("I've shifted to Rust for the backend", "lives_in"),
        ("我在杭州读研二 导师很凶", "studies_at"),  # the city, not the school
        ("等孩子再大一点再去", "grade"),
        ("正好赶上大年初一", "grade"),
    ],
)
def test_what_is_no_such_value(text: str, attribute: str) -> None:
    assert not [s for s in _slots(text) if s[0] == attribute]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("帮我写个自我介绍 我在苏州一家芯片公司做测试工程师", ("occupation", "测试工程师", False)),
        ("帮忙看下这份简历 我叫周子涵 明年毕业", ("name", "周子涵", False)),
        ("麻烦推荐几道菜，我吃素三年了", ("diet", "吃素", False)),
    ],
)
def test_a_chinese_request_tells_the_speakers_news_after_it(
    text: str, slot: tuple[str, str, bool]
) -> None:
    assert slot in _slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "帮我写个自我介绍",  # the request alone
        "help me write an intro, I am a test engineer at a chip firm",  # English: as before
    ],
)
def test_a_request_alone_or_in_english_tells_no_role(text: str) -> None:
    assert not {s for s in _slots(text) if s[0] == "occupation"}


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("Big news: a new arrival, a cocker spaniel puppy called Hazel!", "Hazel"),
        ("Biscuit, 3 year old greyhound from the rescue, sleeps all day.", "Biscuit"),
        ("Mabel (we adopted her in May) hates the hoover.", "Mabel"),
        ("我家可可最近不爱吃饭 它是只金毛 五岁了", "可可"),
    ],
)
def test_a_pet_named_with_its_age_its_adoption_or_its_kind_after(text: str, pet: str) -> None:
    assert any(a == "pet" and value is not None and pet in value for a, value, _ in _slots(text))


@pytest.mark.parametrize(
    "text",
    [
        "Sarah, 3 year old daughter of my neighbour, loves the park.",  # a child, no pet
        "Tom (we met him at uni) is coming over.",  # a friend met, not adopted
    ],
)
def test_a_person_said_so_is_no_pet(text: str) -> None:
    assert not any(a == "pet" for a, _, _ in _slots(text))


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        (
            "offer到手 杭州一家做跨境电商的公司 产品经理 下个月入职",
            {("works_at", "做跨境电商的公司", False), ("occupation", "产品经理", False)},
        ),
        (
            "我要去比亚迪了 坪山那边 做电池工程师",
            {("works_at", "比亚迪", False), ("occupation", "电池工程师", False)},
        ),
        ("Just got a new job offer from Atlassian, so pumped", {("works_at", "Atlassian", False)}),
        ("I start a traineeship with Deloitte in March", {("works_at", "Deloitte", False)}),
    ],
)
def test_a_new_job_said_as_news(text: str, slots: set[tuple[str, str, bool]]) -> None:
    assert slots <= _slots(text)


def test_a_training_post_with_no_named_firm_is_no_employer() -> None:
    assert not any(a == "works_at" for a, _, _ in _slots("A placement with a local firm helps."))


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("去三甲医院看了 医生说是中度抑郁 要吃药", "中度抑郁"),
        ("膝盖肿了好几天 医生说是痛风", "痛风"),
    ],
)
def test_a_condition_a_doctor_named(text: str, condition: str) -> None:
    assert ("health", condition, False) in _slots(text)


def test_feeling_anxious_is_no_condition() -> None:
    assert not any(a == "health" for a, _, _ in _slots("这两天开会有点焦虑"))


@pytest.mark.parametrize(
    ("text", "vehicle"),
    [("上周买了辆二手帕杰罗 周末去露营", "帕杰罗"), ("刚入手了辆电瓶车，通勤方便多了", "电瓶车")],
)
def test_a_vehicle_counted_as_one(text: str, vehicle: str) -> None:
    assert ("vehicle", vehicle, False) in _slots(text)


def test_a_vehicle_said_with_what_it_is_for_is_left() -> None:
    assert not any(a == "vehicle" for a, _, _ in _slots("买了辆入门的 练手用"))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("honestly my Italian is rusty after the move", ("language", "Italian", False)),
        ("I speak Setswana with my gran", ("language", "Setswana", False)),
        ("im flexitarian these days", ("diet", "flexitarian", False)),
        ("baby Noor is teething and nobody sleeps", ("family", "baby Noor", False)),
        ("Also my eczema has been awful this winter", ("health", "eczema", False)),
        ("Hello again. Retired now! Loving it.", ("occupation", "Retired", False)),
    ],
)
def test_said_in_passing(text: str, slot: tuple[str, str, bool]) -> None:
    assert slot in _slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "I speak English at work",  # the language everyone here speaks
        "my cousin's baby Noor is teething",  # someone else's baby
    ],
)
def test_said_in_passing_of_no_one_new(text: str) -> None:
    assert not any(a in ("language", "family") for a, _, _ in _slots(text))


@pytest.mark.parametrize(
    "text",
    [
        "果果今年上二年级了",  # a child by a doubled name
        "嗯 另外豆豆九月开学 上四年级",
        "Lena is vegetarian now",  # someone by name
        "睿睿最近在学小提琴",
    ],
)
def test_someone_named_at_the_opening_holds_the_value_not_the_speaker(text: str) -> None:
    assert not _slots(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("天天在学小提琴", ("instrument", "小提琴", False)),  # 天天 "every day", no name
        ("老车卖了，换了台比亚迪汉", ("vehicle", "比亚迪汉", False)),  # an old car
    ],
)
def test_a_word_like_a_name_leaves_the_value_the_speakers(
    text: str, slot: tuple[str, str, bool]
) -> None:
    assert slot in _slots(text)
