"""Slots from everyday phrasing, English and Chinese: attribute, value, subject, qualifier,
change / hedge / end cues, requests, and atomic clauses."""

from __future__ import annotations

import re

import pytest

from dualtrace.cjk import has_cjk
from dualtrace.text.slots import (
    ATTRIBUTES,
    ask,
    atomic_clauses,
    find_statements,
    is_request,
    same_subject,
    whose,
)


def _one(clause: str) -> tuple[str, str | None, str | None, str | None, bool, bool]:
    (s,) = find_statements(clause)
    return s.attribute, s.value, s.subject, s.qualifier, s.ended, s.hedged


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        (
            "We finally relocated to Bordeaux last month.",
            ("lives_in", "Bordeaux", None, None, False, False),
        ),
        ("These days I'm based in Berlin.", ("lives_in", "Berlin", None, None, False, False)),
        (
            "I upgraded my phone to a Pixel 9 yesterday.",
            ("phone", "Pixel 9", None, None, False, False),
        ),
        (
            "Also, let's raise the car budget to 350k yuan.",
            ("budget", "350k yuan", None, "car", False, False),
        ),
        ("I traded in my Civic for a Rav4.", ("vehicle", "Rav4", None, None, False, False)),
        ("I report to Mike now.", ("manager", "Mike", None, None, False, False)),
        ("My sister moved to Berlin.", ("lives_in", "Berlin", "sister", None, False, False)),
        (
            "I might move to Berlin if I get the job.",
            ("lives_in", "Berlin", None, None, False, True),
        ),
        ("I quit my job at Google.", ("works_at", "Google", None, None, True, False)),
        # what one should do is no fact (whoever says so)
        ("Mum says I should quit Deloitte.", ("works_at", "Deloitte", None, None, True, True)),
        ("我觉得我应该搬去杭州", ("lives_in", "杭州", None, None, False, True)),
        ("I quit playing the violin.", ("instrument", "violin", None, None, True, False)),
        (
            "My daughter is in third grade.",
            ("grade", "third grade", "daughter", None, False, False),
        ),
        ("预算可以放宽到25万。", ("budget", "25万", None, None, False, False)),
        ("买车预算大概20万。", ("budget", "20万", None, "car", False, False)),
        ("现在在字节跳动上班。", ("works_at", "字节跳动", None, None, False, False)),
        ("我已经从阿里离职了", ("works_at", "阿里", None, None, True, False)),
        ("我妹妹搬到北京了", ("lives_in", "北京", "妹妹", None, False, False)),
        ("我考虑搬去深圳", ("lives_in", "深圳", None, None, False, True)),
        ("我开始学日语了", ("language", "日语", None, None, False, False)),
        ("我的房租涨到4500了", ("rent", "4500", None, None, False, False)),
        (
            "另外，车的预算可以放宽到25万，想上个混动的。",
            ("budget", "25万", None, "car", False, False),
        ),
        ("If I get the job, I'll move to Berlin.", ("lives_in", "Berlin", None, None, False, True)),
        ("I moved to Berlin, maybe I'll stay.", ("lives_in", "Berlin", None, None, False, False)),
        (
            "I've moved my current account to Monzo.",
            ("provider", "Monzo", None, None, False, False),
        ),
        (
            "We adopted a rescue greyhound as well.",
            ("pet", "rescue greyhound", None, None, False, False),
        ),
        (
            "Got an Apple Watch Ultra for my birthday.",
            ("device", "Apple Watch Ultra", None, "watch", False, False),
        ),
        (
            "这个月起我调到风控组了，还是做测试。",
            ("department", "风控组", None, None, False, False),
        ),
        (
            "双方父母商量了一下，婚礼预算改成30万了。",
            ("budget", "30万", None, "wedding", False, False),
        ),
        (
            "My dad, who is retired, moved to Spain.",
            ("lives_in", "Spain", "dad", None, False, False),
        ),
        ("I negotiated a raise, I'm on 80k now.", ("salary", "80k", None, None, False, False)),
        ("I plan to move to Berlin next year.", ("lives_in", "Berlin", None, None, False, True)),
        (
            "国庆我们打算去西安玩。",
            ("trip", "西安", None, None, False, False),
        ),  # a plan is its value
        (
            "I chopped my hair into a pixie cut.",
            ("appearance", "pixie cut", None, None, False, False),
        ),
        ("我近视涨到了四百度", ("eyesight", "四百度", None, None, False, False)),
    ],
)
def test_a_statement_fills_its_slot(clause: str, expected: tuple[object, ...]) -> None:
    assert _one(clause) == expected


def test_the_catalogue_covers_thirty_attributes_in_both_languages() -> None:
    assert len(ATTRIBUTES) >= 30
    for attribute in ATTRIBUTES:
        frames = [frame.pattern for frame in attribute.frames]
        assert any(has_cjk(f) for f in frames), f"{attribute.name}: no Chinese frame"
        assert any(not has_cjk(f) for f in frames), f"{attribute.name}: no English frame"
        english, chinese = attribute.say
        assert not has_cjk(english) and has_cjk(chinese), attribute.name
        about = attribute.about.pattern
        assert has_cjk(about) and re.search(r"[a-z]{3}", about), attribute.name


def test_a_value_must_fit_its_attribute() -> None:
    assert find_statements("I joined a book club last week.") == []
    assert find_statements("We moved to the suburbs.")[0].value == "suburbs"
    assert find_statements("I finally moved to watching less TV.") == []


@pytest.mark.parametrize(
    "clause",
    [
        "Honestly the new job is the priority this year.",
        "My old bike is in the garage for winter.",
        "Our team is in Lisbon this week.",
        "My wife is still on her old laptop.",
        "The promotion is the main thing right now.",
    ],
)
def test_a_concern_a_place_or_an_adverb_is_no_value(clause: str) -> None:
    assert find_statements(clause) == []


def test_an_insurer_said_with_with_is_still_one() -> None:
    attribute, value = _one("My home insurance is with Aviva.")[:2]
    assert attribute == "provider" and "Aviva" in value


def test_an_opinion_of_a_thing_is_not_its_value() -> None:
    for clause in (
        "Our new landlord is honestly so nice.",
        "My commute is much easier now.",
        "The boss is a nightmare lol",
        "我的领导人挺好的",
        "通勤现在方便多了",
    ):
        assert find_statements(clause) == [], clause
    assert _one("My boss is Karen now.")[:2] == ("manager", "Karen")
    assert _one("My sister lives in Boston.")[:3] == ("lives_in", "Boston", "sister")
    assert _one("my boyfriend works for Deloitte")[:3] == ("works_at", "Deloitte", "boyfriend")


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("Marisol (my wife) says we need a bigger fridge", ("partner", "Marisol", None)),
        ("oskar (my boyfriend) can't cook at all", ("partner", "Oskar", None)),
        ("tomorrow is my last day at Ocado!", ("works_at", "Ocado", None)),
        ("finally handed in my notice at Halfords", ("works_at", "Halfords", None)),
        ("my psoriasis has been acting up since the cold snap", ("health", "psoriasis", None)),
        ("ugh my gout is flaring again", ("health", "gout", None)),
        ("ok i'm ingrid btw, hi", ("name", "Ingrid", None)),
        ("嗨 我叫思彤，刚毕业", ("name", "思彤", None)),
        ("汤圆（我家布偶）今天又把花瓶推倒了", ("pet", "汤圆", None)),
        ("小凯（我老公）今天又加班到十点", ("partner", "小凯", None)),
        ("换季了我荨麻疹又犯了", ("health", "荨麻疹", None)),
        ("最近肠胃炎又发作了", ("health", "肠胃炎", None)),  # not 最近肠胃炎
        ("终于搬进南山的新家了", ("lives_in", "南山", None)),
    ],
)
def test_news_said_in_passing(clause: str, expected: tuple[str, str, str | None]) -> None:
    assert _one(clause)[:3] == expected


def test_a_word_another_slot_takes_is_no_name() -> None:
    for clause in ("hey i'm pescatarian.", "i'm pescatarian, so no meat", "hi! I'm vegan."):
        assert [s.attribute for s in find_statements(clause)] == ["diet"], clause


@pytest.mark.parametrize(
    "clause",
    [
        "my last day at the beach was in June",  # no employer, a day out
        "my sister's eczema is acting up",  # someone else's
        "i'm starving btw, what's for dinner",  # a word, not a name
        "我叫车了，马上到",  # a car called
        "我叫外卖了，",
        "嗓子有点发炎，先不去了",  # inflamed, no condition named
        "明天一早去公司上班",  # a workplace by its kind, no employer
        "moved my pension from Aviva to Nest",  # money moved, not a home
        "ok, catch you later at the pub",  # "later" is no role
        "my dogs love and hate the rain",  # no names after a plural kind
    ],
)
def test_what_those_frames_must_not_take(clause: str) -> None:
    assert [(s.attribute, s.value) for s in find_statements(clause) if not s.ended] == [], clause


@pytest.mark.parametrize(
    ("clause", "employer"),
    [
        ("I work at a bakery called Crumbs in Hove", "Crumbs"),
        ("在一家叫青禾的公司上班", "青禾"),
    ],
)
def test_a_kind_of_workplace_with_its_name_gives_the_name(clause: str, employer: str) -> None:
    assert [(s.attribute, s.value) for s in find_statements(clause)] == [("works_at", employer)]


def test_driving_a_distance_or_a_manner_is_not_a_vehicle() -> None:
    for clause in (
        "I drive 40 km to the office every morning.",
        "I want something easy to drive when I'm tired.",
        "At weekends I drive slowly along the coast.",
    ):
        assert [s.attribute for s in find_statements(clause)] == [], clause
    assert _one("I drive a Volvo XC60.")[:2] == ("vehicle", "Volvo XC60")
    assert _one("These days I'm driving an old Golf.")[:2] == ("vehicle", "old Golf")


def test_requests_to_the_assistant_are_not_statements() -> None:
    for request in (
        "帮我推荐一本周末看的书吧。",
        "Can you recommend a book for the weekend?",
        "Please find me a cheaper flight to Lyon.",
    ):
        assert is_request(request) and find_statements(request) == []
    assert not is_request("Please remember that I'm allergic to peanuts.")
    assert not is_request("请记住我对花生过敏。")


def test_a_sentence_with_two_facts_becomes_two_clauses() -> None:
    assert atomic_clauses("My budget is 300k yuan and I live in Hangzhou.") == [
        "My budget is 300k yuan",
        "I live in Hangzhou.",
    ]
    assert atomic_clauses("我已经从阿里离职了，现在在字节跳动上班。") == [
        "我已经从阿里离职了",
        "我现在在字节跳动上班。",
    ]
    kept = "周末的时候，我们去了西湖，玩得很开心。"  # no slot on either side: left whole
    assert atomic_clauses(kept) == [kept]


def test_a_subject_of_two_cut_at_its_and_says_we() -> None:
    # "my wife Nadia and I are …": the piece after the cut is said by both, "we are …"
    assert atomic_clauses("my wife Nadia and I are flying to Porto in June") == [
        "my wife Nadia",
        "We are flying to Porto in June",
    ]
    assert atomic_clauses("I drive a Skoda and I live in Bath.") == [
        "I drive a Skoda",
        "I live in Bath.",
    ]


def test_questions_ask_about_slots() -> None:
    assert [q.attribute for q in ask("Which city do I live in?")] == ["lives_in"]
    (budget,) = ask("我的买车预算是多少？")
    assert (budget.attribute, budget.qualifier) == ("budget", "car")
    (sister,) = ask("Where does my sister live?")
    assert sister.subject == "sister"


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("新买的书桌有多宽？", []),
        ("我最近在看什么书？", ["reading"]),  # 书 inside 书桌: a desk
        ("我现在多少斤？", ["weight"]),
        ("剧院离我家多远？", []),
        ("我最近在追什么剧？", ["show"]),
        ("我们哪天搬家？", ["lives_in"]),
    ],  # 搬 "move" inside 搬家 "move house": the same sense
)
def test_a_one_character_chinese_cue_counts_only_where_it_keeps_its_meaning(
    question: str, attributes: list[str]
) -> None:
    assert [q.attribute for q in ask(question)] == attributes


def test_whose_reads_the_clause_that_names_the_attribute() -> None:
    assert whose("partner", "跟前任分了，现在的男朋友叫陈浩，是我同事。") is None
    assert whose("phone", "Bought my dad a Galaxy for his birthday.") == "someone"
    assert whose("phone", "I bought a new phone for my mom.") == "mom"
    assert whose("phone", "The user's phone is a Pixel 9.") is None


def test_a_chinese_part_that_names_no_one_goes_on_with_the_topic() -> None:
    (said,) = find_statements("孩子这学期转学了，现在在外国语学校上课，离家近多了。")
    assert (said.attribute, said.value, said.subject) == ("studies_at", "外国语学校", "孩子")


def test_a_job_title_keeps_its_modifiers() -> None:
    said = find_statements("I'm a junior data analyst on the marketing team.")
    assert ("occupation", "junior data analyst") in [(s.attribute, s.value) for s in said]
    said = find_statements("I'm a teacher and mother of two.")
    assert ("occupation", "teacher") in [(s.attribute, s.value) for s in said]


@pytest.mark.parametrize(
    ("asked", "said", "same"),
    [
        ("son", "孩子", True),
        ("儿子", "孩子", True),
        ("son", "someone", True),
        (None, "someone", False),
        ("son", "daughter", False),
        (None, None, True),
        ("sister", "kids", False),
        ("cousin", "表妹", True),
        ("mum", "妈妈", True),
        ("mother", "mum", True),
        ("grandma", "外婆", True),
        ("husband", "姐夫", False),
        ("father-in-law", "岳父", True),
        ("father", "岳父", False),
        ("kids", "孩子", True),
        ("boyfriend", "bf", True),
        ("男朋友", "bf", True),
        ("sister", "sis", True),
    ],
)
def test_same_subject(asked: str | None, said: str | None, same: bool) -> None:
    assert same_subject(asked, said) is same


@pytest.mark.parametrize(
    ("question", "hobby"),
    [
        ("What am I into these days?", True),
        ("What hobby did I pick up?", True),
        ("How much goes into my pension each month?", False),  # "into" a thing: no hobby
        ("I put the bikes into the garage; what else is in there?", False),
    ],
)
def test_into_asks_a_hobby_only_as_being_into_something(question: str, hobby: bool) -> None:
    assert ("hobby" in {q.attribute for q in ask(question)}) is hobby


@pytest.mark.parametrize(
    ("clause", "subject"),
    [
        ("隔壁小孩在学小提琴，每天晚上拉一个小时。", "小孩"),  # the neighbour's child, not the user
        ("邻居家小孩在练钢琴。", "小孩"),
        ("My classmate is learning the cello.", "classmate"),
    ],
)
def test_a_child_or_classmate_who_plays_is_not_the_user(clause: str, subject: str) -> None:
    (said,) = find_statements(clause)
    assert (said.attribute, said.subject) == ("instrument", subject)


@pytest.mark.parametrize(
    ("question", "age"),
    [
        ("How old is the air conditioner in the living room?", False),
        ("How old is that car of ours?", False),
        ("How old is my son?", True),
        ("How old are my parents?", True),
        ("How old is our cat?", True),
        ("How old am I?", True),
        ("How old is our Leo now?", True),
        ("我儿子今年几岁？", True),
    ],
)
def test_how_old_a_thing_is_asks_no_age_slot(question: str, age: bool) -> None:
    assert any(q.attribute == "age" for q in ask(question)) is age


@pytest.mark.parametrize(
    "question",
    [
        "What's my staff number at the hospital?",
        "Which seat number did I get at the office?",
        "What's the PIN for my work laptop?",
        "What's the registration plate on my car?",
        "公司给我的工号是多少？",
        "我车的车牌是什么？",
        "家里新路由器的密码是什么？",
    ],
)
def test_a_number_or_code_asks_no_slot(question: str) -> None:
    assert ask(question) == ()


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("What is the number of days I work from home?", "works_at"),
        ("Which phone do I use now?", "phone"),
        ("我现在开什么车？", "vehicle"),
    ],
)
def test_a_question_with_no_code_still_asks_its_slot(question: str, attribute: str) -> None:
    assert attribute in {q.attribute for q in ask(question)}


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("李明现在主要做什么运动？", {"exercise"}),  # 现在 "now", not 在… "at …"
        ("我在华为做什么来着？", {"works_at", "occupation"}),
    ],
)
def test_now_is_no_place_of_work(question: str, attributes: set[str]) -> None:
    assert {q.attribute for q in ask(question)} == attributes


@pytest.mark.parametrize(
    ("clause", "attribute", "subject"),
    [
        ("我弟在腾讯上班，天天加班。", "works_at", "弟弟"),  # the brother's job, not the user's
        ("用户弟在腾讯工作。", "works_at", "弟弟"),  # as a memory writes it
        ("我哥的女朋友叫小雨。", "partner", "哥哥"),
        ("我姐在浙大读研。", "studies_at", "姐姐"),
    ],
)
def test_a_parent_or_sibling_in_one_character_is_not_the_user(
    clause: str, attribute: str, subject: str
) -> None:
    (said,) = find_statements(clause)
    assert (said.attribute, said.subject) == (attribute, subject)


@pytest.mark.parametrize("clause", ["我在腾讯上班。", "妈呀，我在字节上班了！", "帅哥在腾讯上班。"])
def test_one_character_kin_needs_whose_it_is(clause: str) -> None:
    # 妈 or 哥 with no one's before it is no relative: the speaker's own job
    (said,) = find_statements(clause)
    assert (said.attribute, said.subject) == ("works_at", None)


@pytest.mark.parametrize(
    ("clause", "attribute", "value", "ended"),
    [
        # a habit given up is no employer left
        ("Big change: I quit coffee two weeks ago.", "drink", "coffee", True),
        ("I quit Accenture in March.", "works_at", "Accenture", True),
        ("quit accenture lol", "works_at", "accenture", True),  # a name typed in a hurry
        # a value ends where a time phrase or a chat filler begins
        ("I'm leaving my job at Initech end of June.", "works_at", "Initech", True),
        # a Chinese value ends before a place word or an adverb of time, and a verb after it
        ("华为那边已经办完离职了。", "works_at", "华为", True),
        ("我不在星巴克做了。", "works_at", "星巴克", True),
        # ... and before a span of time
        ("搬到青岛快半年了", "lives_in", "青岛", False),
        ("入职美团第三天", "works_at", "美团", False),
    ],
)
def test_a_value_is_the_name_alone(clause: str, attribute: str, value: str, ended: bool) -> None:
    said = find_statements(clause)
    assert [(s.attribute, s.value, s.ended) for s in said] == [(attribute, value, ended)]


@pytest.mark.parametrize(
    ("clause", "value"),
    [
        ("We moved to New Zealand a few months ago.", "New Zealand"),  # "New" of a name
        ("I drive a new Tesla now.", "Tesla"),
    ],
)
def test_new_is_a_name_s_own_only_before_a_capital(clause: str, value: str) -> None:
    (said,) = find_statements(clause)
    assert said.value == value


@pytest.mark.parametrize(
    ("clause", "value", "subject"),
    [
        ("Found a tiny two-bed flat in Gràcia, moving next weekend.", "Gràcia", None),
        ("our apartment in Queens is freezing all winter", "Queens", None),
        ("finally signed a lease in Roxbury!", "Roxbury", None),
        ("My cousin rented a studio in Brixton.", "Brixton", "cousin"),
        ("我们在徐汇租了个一居室，离地铁很近。", "徐汇", None),
        ("新家在五道口，终于不用挤地铁了。", "五道口", None),
    ],
)
def test_a_home_found_rented_or_bought_says_where_one_lives(
    clause: str, value: str, subject: str | None
) -> None:
    (said,) = find_statements(clause)
    assert (said.attribute, said.value, said.subject) == ("lives_in", value, subject)


@pytest.mark.parametrize(
    "clause", ["My old flat in Croydon was damp.", "I found a great ramen place in Soho."]
)
def test_an_old_home_or_a_place_to_eat_is_not_where_one_lives(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.attribute == "lives_in"]


@pytest.mark.parametrize(
    ("clause", "value", "ended"),
    [
        ("picked up a used Skoda Octavia last week", "Skoda Octavia", False),
        ("Finally sold the Mazda to my neighbour.", "Mazda", True),
        ("上个月换了台比亚迪海豹，很省电。", "比亚迪海豹", False),
        ("我现在开一台二手Yaris，够用了。", "Yaris", False),
        ("提了理想L7，周末去试驾了一圈。", "理想L7", False),
    ],
)
def test_a_car_make_names_the_car_without_the_word_car(
    clause: str, value: str, ended: bool
) -> None:
    (said,) = find_statements(clause)
    assert (said.attribute, said.value, said.ended) == ("vehicle", value, ended)


@pytest.mark.parametrize("clause", ["我们终于买了理想的房子。", "Ford is hiring engineers again."])
def test_a_make_that_is_an_everyday_word_or_an_employer_is_no_car(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.attribute == "vehicle"]


@pytest.mark.parametrize(
    ("clause", "attribute", "value"),
    [
        ("no more diet coke for me, it's sparkling water only now", "drink", "sparkling water"),
        ("最近每天只喝豆浆，咖啡不碰了。", "drink", "豆浆"),
        ("I've taken up fencing, twice a week.", "hobby", "fencing"),
        ("今年迷上了攀岩。", "hobby", "攀岩"),
    ],
)
def test_a_drink_or_a_hobby_said_the_everyday_way(clause: str, attribute: str, value: str) -> None:
    assert (attribute, value) in [(s.attribute, s.value) for s in find_statements(clause)]


@pytest.mark.parametrize(
    "clause", ["It's a one-day only sale.", "My water bottle only holds 500 ml."]
)
def test_only_after_a_thing_that_is_no_drink_says_nothing_of_one(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.attribute == "drink"]


@pytest.mark.parametrize(
    ("clause", "name"),
    [("我是陈静，在银行上班。", "陈静"), ("我是赵磊，想问个问题。", "赵磊")],
)
def test_a_name_said_first_with_no_greeting(clause: str, name: str) -> None:
    assert ("name", name) in [(s.attribute, s.value) for s in find_statements(clause)]


@pytest.mark.parametrize("clause", ["我是程序员，写后端的。", "我是高中生，想问个问题。"])
def test_a_role_that_opens_on_a_surname_is_no_name(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.attribute == "name"]


@pytest.mark.parametrize(
    ("clause", "attribute", "value"),
    [
        ("my girlfriend olivia got me into climbing", "partner", "olivia"),
        ("my new manager is nathan", "manager", "nathan"),
    ],
)
def test_a_first_name_typed_in_lower_case_is_a_name(
    clause: str, attribute: str, value: str
) -> None:
    found = find_statements(clause)
    assert [(s.attribute, s.value) for s in found if s.attribute == attribute] == [
        (attribute, value)
    ]


@pytest.mark.parametrize(
    "clause", ["my husband will drive us there", "my boyfriend grace-noted the song"]
)
def test_a_name_that_is_also_a_word_needs_its_capital(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.attribute == "partner"]


@pytest.mark.parametrize("question", ["我的狗叫啥来着？", "我那只猫叫什么来着"])
def test_an_animal_then_is_called_asks_the_pet(question: str) -> None:
    # jieba reads 狗叫 as "bark": the animal is still the word asked about
    assert [q.attribute for q in ask(question)] == ["pet"]


@pytest.mark.parametrize(
    ("clause", "attribute", "value"),
    [
        # a name no dictionary lists, typed in lower case
        ("my husband dmitri snores like a tractor", "partner", "Dmitri"),
        ("ugh my gf ngozi is mad at me", "partner", "Ngozi"),
        ("sorry, my kitten pumpkinette is on the laptop again", "pet", "kitten Pumpkinette"),
        ("zorba (my dog) ate my sandwich", "pet", "Zorba"),
        # a word of the dictionary is a name before a role in brackets, with chat's emoji
        ("waffle (our spaniel 🐾) rolled in fox poo", "pet", "Waffle"),
        ("honey (my gf) booked the ferry", "partner", "Honey"),
        ("we adopted a collie pup called Moss", "pet", "collie pup called Moss"),
        ("my cats Nori and Wasabi hate the vacuum", "pet", "cats Nori and Wasabi"),
        # a move said with where from, a household's diet, a start of work by its name
        ("we're moving from dalston to walthamstow in may", "lives_in", "walthamstow"),
        ("we are vegan at home so no eggs", "diet", "vegan"),
        ("first shifts at Whipps Cross on monday", "works_at", "Whipps Cross"),
        ("halfway through onboarding at wise, so many slack channels", "works_at", "wise"),
        ("starting my graduate placement at Arup in sept", "works_at", "Arup"),
        # a role at a place said beside the rest
        ("hey! dev here, SRE at cloudflare, quick q", "works_at", "cloudflare"),
        (
            "back from a night shift (icu nurse at st thomas) so bear with me",
            "works_at",
            "st thomas",
        ),
        ("my little sister wiktoria is visiting", "family", "little sister Wiktoria"),
        ("finally moved in with kwame, boxes everywhere", "partner", "Kwame"),
        # a first stretch at a place of work, or the field then the place
        ("first week at figma and i already broke staging", "works_at", "figma"),
        ("first day as a junior accountant at Deloitte, wish me luck", "works_at", "Deloitte"),
        ("2nd coffee of my first month at canva done lol", "works_at", "canva"),
        ("i work in payroll at bupa here in leeds", "works_at", "bupa"),
        # a home, a condition, a sport, a class, a drug, a commute, a language
        ("we finally moved to shimokitazawa, tiny flat but cute", "lives_in", "shimokitazawa"),
        ("i'm fructose intolerant so no apples", "health", "fructose intolerant"),
        ("ive got a sesame allergy fyi", "health", "sesame allergy"),
        ("knee's bad so im doing aqua swimming instead now", "exercise", "aqua swimming"),
        ("i've been doing a ceramics class on sundays", "hobby", "ceramics"),
        ("the gp put me on sertraline for now", "medication", "Sertraline"),
        ("honestly i walk to uni every day", "commute", "walk"),
        ("doing duolingo swedish before bed", "language", "swedish"),
        # Chinese, a Latin value after a space included
        ("我有鼻炎，春天特别难受", "health", "鼻炎"),
        ("我本来就有慢性咽炎，一降温就咳", "health", "咽炎"),
        ("下个月去京东方上班，有点紧张", "works_at", "京东方"),
        ("我家布丁（小白猫）又把杯子推下去了", "pet", "布丁"),
        ("楼下捡了一只狸花猫，取名土豆", "pet", "土豆"),
        ("我也有胃炎，辣的不敢吃", "health", "胃炎"),
        ("入职 notion 第三天，好多文档", "works_at", "notion"),
        ("上周搬到 tampines 了", "lives_in", "tampines"),
        ("男朋友 Kenji 下周来看我", "partner", "Kenji"),
        ("我家三只猫年糕最胖", "pet", "猫年糕"),
        ("寒假开始练素描了", "hobby", "素描"),
        ("下个月起我在当实验室助理啦", "occupation", "实验室助理"),
    ],
)
def test_a_value_said_in_passing_the_way_chat_types_it(
    clause: str, attribute: str, value: str
) -> None:
    assert (attribute, value) in [(s.attribute, s.value) for s in find_statements(clause)]


@pytest.mark.parametrize(
    ("clause", "attributes"),
    [
        # a word after a role is no name
        ("my husband snores like a tractor", ("partner", "pet", "family")),
        ("my gf says hi", ("partner", "pet", "family")),
        ("my cat keeps knocking things over", ("partner", "pet", "family")),
        ("my sister just went to rome", ("partner", "pet", "family")),
        ("my wife tbh is always right", ("partner", "pet", "family")),
        ("my dog walker quit", ("partner", "pet", "family")),
        # ordinary words in the new frames are no values
        ("we moved on to better things", ("lives_in", "exercise")),
        ("i'm doing the dance at their wedding now", ("lives_in", "exercise")),
        ("I'm tired", ("lives_in", "exercise")),
        ("we moved in with my in-laws for a bit", ("partner",)),
        ("the doctor put me on a waiting list", ("medication",)),
        ("i'm taking a new class", ("hobby",)),
    ],
)
def test_ordinary_words_in_those_frames_are_no_values(
    clause: str, attributes: tuple[str, ...]
) -> None:
    assert [s for s in find_statements(clause) if s.attribute in attributes] == []


@pytest.mark.parametrize(
    ("clause", "value"),
    [("heyy, oksana here.", "Oksana"), ("yo, jake here. quick q", "jake"), ("stuck here.", None)],
)
def test_a_name_then_here_introduces_the_speaker_in_lower_case(
    clause: str, value: str | None
) -> None:
    names = [s.value for s in find_statements(clause) if s.attribute == "name"]
    assert names == ([value] if value else [])


def test_a_request_takes_as_given_only_what_it_names_beside_a_role() -> None:
    found = find_statements("help me plan a surprise for my boyfriend Tomasz")
    assert [(s.attribute, s.value) for s in found] == [("partner", "Tomasz")]
    assert find_statements("help me move to Berlin") == []


def test_a_car_named_in_latin_letters_after_its_measure_word() -> None:
    found = find_statements("思域卖了，换了辆Model 3")
    assert ("vehicle", "Model 3") in [(s.attribute, s.value) for s in found]
    found = find_statements("车位租好了，上周买了台iPad")
    assert ("vehicle", "iPad") not in [(s.attribute, s.value) for s in found]


@pytest.mark.parametrize(
    ("clause", "attribute", "value"),
    [
        # a sport taken up or played on a weekday, in either language
        ("so i started swimming instead of the gym", "exercise", "swimming"),
        ("still playing hockey on tuesdays", "exercise", "hockey"),
        ("最近开始打羽毛球了", "exercise", "羽毛球"),
        ("周末都去海边冲浪", "exercise", "冲浪"),
        ("现在每周末打网球", "exercise", "网球"),
        ("打完篮球腿好酸", "exercise", "篮球"),
        # a language studied for an exam, one dropped, an instrument practised
        ("revising for the DELF B2 in french", "language", "french"),
        ("德语先不学了", "language", "德语"),
        ("been practising scales on my cello every night", "instrument", "cello"),
        # a choir, a pastime named as one's own, calligraphy
        ("i sing in a gospel choir on thursdays", "hobby", "gospel choir"),
        ("钓鱼算是我唯一的爱好", "hobby", "钓鱼"),
        # a flare-up, a doctor's word, time sober, smoking
        ("我的胃炎又犯了", "health", "胃炎"),
        ("医生说是肩周炎", "health", "肩周炎"),
        ("three months sober this week", "given_up", "three months sober"),
        ("我戒酒半年了", "given_up", "戒酒"),
        ("officially an ex-smoker as of today", "given_up", "ex-smoker"),
        ("我戒烟两年了", "given_up", "戒烟"),
        # a role made official, freelance work
        ("officially a certified electrician now", "occupation", "certified electrician"),
        ("辞职之后现在做自由职业", "occupation", "自由职业"),
        # a home where one stays or sets off from, a commute by e-bike
        ("living in a houseshare in hackney for now", "lives_in", "Hackney"),
        ("每天从回龙观坐地铁去公司", "lives_in", "回龙观"),
        ("每天骑电动车送孩子", "commute", "骑电动车"),
        # a partner met lately, being single again
        ("been seeing someone new, priya, and it's going well", "partner", "priya"),
        ("single again, honestly relieved", "partner", "single"),
        # a start said with a weekday after the place
        ("starting at ramp thursday!!", "works_at", "ramp"),
        ("进了比亚迪的厂，三班倒", "works_at", "比亚迪"),
        # a baby born, a diet given up for anything, a car with its model, the work one does
        ("baby theo arrived at 3am!!", "family", "baby Theo"),
        ("朵朵出生啦，六斤二两", "family", "朵朵"),
        ("减肥不减了，现在什么都吃", "diet", "什么都吃"),
        ("提了辆吉利星越L，开着挺稳", "vehicle", "吉利星越L"),
        ("我在美团做产品运营", "occupation", "产品运营"),
        # someone met and named, a school one got into, a commute left, a home settled in
        ("I met someone at salsa. his name is Tomasz", "partner", "Tomasz"),
        ("上个月认识了一个男生叫阿哲", "partner", "阿哲"),
        ("guess who got into Imperial!!", "studies_at", "Imperial"),
        ("car's gone, bus only now", "commute", "bus"),
        ("we're finally in Leith now, boxes everywhere", "lives_in", "Leith"),
        ("做数据分析的，base杭州", "lives_in", "杭州"),
        ("公司叫星河互娱，做游戏的", "works_at", "星河互娱"),
        ("我老家绍兴的", "from", "绍兴"),
        ("下个月从销售部调到运营部", "department", "运营部"),
        ("周末经常和朋友去露营", "hobby", "露营"),
        # hired as, a role started at a place, a sport as one's thing, a language begun
        ("finally got hired as a sous chef at Nopa!!", "works_at", "Nopa"),
        ("starting as a junior architect next week", "occupation", "junior architect"),
        ("Senior designer at Monzo, started last week", "works_at", "Monzo"),
        ("rowing is my thing now honestly", "exercise", "rowing"),
        ("dropped italian and started Korean", "language", "Korean"),
        # dates with someone named, moving in together, a team one is a fan of
        ("two dates with a girl called Ines so far", "partner", "Ines"),
        ("me and Dario are moving in together in May", "partner", "Dario"),
        ("lifelong Celtic fan, don't judge", "team", "Celtic"),
        # a degree, a pet of a rarer kind, a car by its make, a town one is still in
        ("halfway through my PhD in marine biology", "major", "marine biology"),
        ("my axolotl Pinky is thriving", "pet", "axolotl Pinky"),
        ("my old Honda Civic finally died", "vehicle", "Honda Civic"),
        ("still in Leeds until the lease ends", "lives_in", "Leeds"),
        ("taking the Elizabeth line now, so much faster", "commute", "Elizabeth"),
        # Chinese: a chat self-introduction, drinks, cars, pastimes with company, sports
        ("哈喽 我雨桐 想请教个问题", "name", "雨桐"),
        ("最近改喝椰子水了", "drink", "椰子水"),
        ("换了辆吉利银河 拉货方便", "vehicle", "吉利银河"),
        ("闲下来就带儿子去露营", "hobby", "露营"),
        ("每周六都和同事去打羽毛球", "exercise", "羽毛球"),
        ("现在一周打三次网球", "exercise", "网球"),
        ("我狗旺财今天洗澡了", "pet", "狗旺财"),
        ("字节给我发offer了！！", "works_at", "字节"),
        ("辞职了，以后自由职业接单", "occupation", "自由职业"),
        ("现在每天还是挤公交", "commute", "挤公交"),
        ("现在单身，挺好的", "partner", "单身"),
        ("周末一个人去江边骑行", "exercise", "骑行"),
        ("Staff engineer at Canva, hi! quick one", "works_at", "Canva"),
        # a later value someone else has leaves the speaker's own
        ("我开一辆二手Polo，同事们都开Audi", "vehicle", "Polo"),
    ],
)
def test_a_value_said_the_way_a_chat_reports_news(clause: str, attribute: str, value: str) -> None:
    assert (attribute, value) in [(s.attribute, s.value) for s in find_statements(clause)]


@pytest.mark.parametrize(
    ("clause", "attributes"),
    [
        # someone named doing it: their news, not the speaker's
        ("Meera just started at Deliveroo", ("works_at",)),
        ("noor just joined revolut", ("works_at",)),
        ("小林跳槽去美团了", ("works_at",)),
        # ... but a chat pronoun typed without its apostrophe is the speaker
        # a time, a generic place, an offer named for a firm that is also a place
        ("we start at 9 tomorrow", ("works_at",)),
        ("我在公司这边加班", ("lives_in",)),
        ("拿到苏宁的offer了", ("lives_in",)),
        ("officially a non-smoker now", ("occupation",)),
        ("我在这边做事情比较慢", ("occupation",)),
        ("我在考虑换工作，还没想好", ("works_at",)),
        ("we're in Rome now for a conference", ("lives_in",)),
        ("I got into trouble at work", ("studies_at",)),
        ("she starts at the new gig monday", ("works_at",)),
        ("we're officially married!!! 🥂", ("partner",)),  # a status names no one
        ("passed my driving test!!", ("vehicle",)),
        ("我在腾讯这边做后端开发", ("lives_in",)),
        ("我觉得 这样不太好", ("name",)),
        ("周末去奥森公园玩飞盘", ("trip",)),
        ("最近还迷上了攀岩", ("exercise",)),  # a pastime taken to: the hobby's
    ],
)
def test_what_those_news_frames_must_not_take(clause: str, attributes: tuple[str, ...]) -> None:
    assert [s for s in find_statements(clause) if s.attribute in attributes] == []


def test_a_chat_pronoun_without_its_apostrophe_is_still_the_speaker() -> None:
    assert ("works_at", "Plaid") in [
        (s.attribute, s.value) for s in find_statements("ive started at Plaid")
    ]


def test_a_clause_after_an_emoji_or_after_a_question_is_read_on_its_own() -> None:
    from dualtrace.text.question_cues import stated_part
    from dualtrace.text.sentences import split_sentences

    assert split_sentences("got the job 🎉 any tips for week one?", clauses=True) == [
        "got the job 🎉",
        "any tips for week one?",
    ]
    assert split_sentences("a run 🏃 in the rain", clauses=True) == ["a run 🏃 in the rain"]
    assert stated_part("what can i eat, i'm diabetic now") == "i'm diabetic now"
    assert stated_part("is it normal, my rent went up?") == ""
    assert stated_part("刚进了新公司 周末加班有啥说法") == "刚进了新公司"


def test_who_does_it_is_read_in_the_value_s_own_part_of_a_chinese_clause() -> None:
    # a space parts a Chinese clause: the boss scolded, the speaker is the accountant
    found = find_statements("今天又被领导骂了 在税务所做会计八年了")
    assert ("occupation", "会计", None) in [(s.attribute, s.value, s.subject) for s in found]
    # a companion is no subject
    found = find_statements("每周末都跟他去打网球")
    assert ("exercise", "网球", None) in [(s.attribute, s.value, s.subject) for s in found]


@pytest.mark.parametrize(
    "clause", ["Finished that cooking show last night.", "gave up on the heist series"]
)
def test_a_show_finished_is_one_that_ended(clause: str) -> None:
    (said,) = [s for s in find_statements(clause) if s.attribute == "show"]
    assert said.ended


@pytest.mark.parametrize(
    ("clause", "attribute", "value"),
    [
        ("we play squash most thursdays after work", "exercise", "squash"),
        ("my cousin got me into fencing last year", "exercise", "fencing"),
        ("went for a wild swim before work, freezing", "exercise", "wild swim"),
        ("first pickleball tournament this weekend, nervous lol", "exercise", "pickleball"),
        ("下班后想找人打羽毛球", "exercise", "羽毛球"),
        ("膝盖不行了，改练拳击了", "exercise", "拳击"),
        ("I really enjoy knitting in the evenings", "hobby", "knitting"),
        ("最近报了个陶艺，周六上课", "hobby", "陶艺"),
    ],
)
def test_a_sport_or_pastime_said_in_passing_is_the_users(
    clause: str, attribute: str, value: str
) -> None:
    found = [(s.attribute, s.value, s.subject) for s in find_statements(clause)]
    assert (attribute, value, None) in found


@pytest.mark.parametrize(
    "clause",
    [
        "my dad plays golf every sunday",
        "他们在打网球",
        "watching the rugby match tonight",
        "my football team lost again, gutted",
    ],
)
def test_someone_elses_sport_or_one_watched_is_not_the_users(clause: str) -> None:
    found = find_statements(clause)
    assert not [s for s in found if s.attribute in {"exercise", "hobby"} and s.subject is None]


@pytest.mark.parametrize(
    ("question", "exercise"),
    [
        ("What do I do for a living?", False),
        ("Where did I go when I went to Lisbon?", False),
        ("Which sport do we play on Fridays?", True),
    ],
)
def test_a_bare_verb_of_sport_asks_no_exercise(question: str, exercise: bool) -> None:
    assert any(q.attribute == "exercise" for q in ask(question)) is exercise
