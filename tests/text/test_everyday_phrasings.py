"""How people say who they are in chat, read into the profile's slots: a name given after
small talk, an introduction by "I'm" or "here" before a role, a grandchild, a partner named
first, a car by its model alone, a phone by its make, a language class, a sport one goes
to, a Chinese greeting before a given name, a role said after where it is held, a Chinese
job start; and what is not the value's: a joined clause's hedge or date, someone else's part,
a pronoun, a state or an opinion."""

from __future__ import annotations

import pytest
from episode_builders import drafts_of, slots_of, turn

from dualtrace.text.slots import ask, find_statements


def _said(clause: str) -> set[tuple[str, str | None, bool]]:
    return {(s.attribute, s.value, s.ended) for s in find_statements(clause) if s.subject is None}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "traffic was awful this morning 😩 anyway hello, I'm Ingrid. need a packing list",
            "Ingrid",
        ),
        ("ok so hi, I'm Desmond, first time using this", "Desmond"),
        ("Nadia here again lol. same question as before", "Nadia"),
        ("你好 我是志远 退休了 想学做饭", "志远"),
        ("早上好呀 我秀兰 想问个事", "秀兰"),
        ("行 以后叫我阿峰就好", "阿峰"),
    ],
)
def test_a_name_given_after_small_talk_or_in_chat_is_the_speakers(text: str, name: str) -> None:
    assert slots_of(text).get("name") == name


@pytest.mark.parametrize(
    "text",
    [
        "say hi, I'm Kemal's cousin from the gym",  # someone else's name, owned
        "你好，我是学生，想问问怎么选课",  # what one is, not who
        "你好 我是宝妈 孩子两岁",
        "Hi Tom, you still at the office?",  # said to someone greeted
    ],
)
def test_what_only_looks_like_an_introduction_names_no_one(text: str) -> None:
    assert "name" not in slots_of(text)


@pytest.mark.parametrize(
    ("text", "role", "place"),
    [
        (
            "ciao! I'm Paola, pastry chef at Forno Rosso in Turin. menu help?",
            "pastry chef",
            "Forno Rosso",
        ),
        (
            "hey, Anselm here, science teacher at a comprehensive in Derby.",
            "science teacher",
            "comprehensive",
        ),
        (
            "hello! I'm Mirela. branch manager at Raiffeisen here in Cluj",
            "branch manager",
            "Raiffeisen",
        ),
    ],
)
def test_an_introduction_by_im_or_here_then_a_role_at_a_place(
    text: str, role: str, place: str
) -> None:
    slots = slots_of(text)
    assert slots.get("occupation", "").casefold() == role
    assert slots.get("works_at") == place


def test_a_role_said_after_where_it_is_held() -> None:
    assert ("occupation", "住院医", False) in _said("我是同济的住院医，天天值班")
    assert ("occupation", "产品经理", False) in _said("我是美团的产品经理，最近很忙")
    assert ("occupation", "空姐", False) in _said("当空姐第三年了 有点累")
    assert ("occupation", "comparative literature phd", False) in _said(
        "i'm a comparative literature phd at Leiden and my thesis is late"
    )


def test_a_grandchild_is_family() -> None:
    assert ("family", "granddaughter Pia", False) in _said("My granddaughter Pia turned six today.")
    assert ("family", "外孙乐乐", False) in _said("我外孙乐乐下周来住几天")
    assert [(q.attribute, q.qualifier) for q in ask("我孙女叫什么来着？")] == [("family", "孙女")]


def test_a_partner_named_first_then_what_they_are_to_the_speaker() -> None:
    assert ("partner", "Selin", False) in _said("(Selin is my wife btw, she's the planner)")
    assert not [s for s in find_statements("She is my girlfriend") if s.attribute == "partner"]
    # the partner's brother is no partner
    assert not [
        s for s in find_statements("Ruben is my husband's brother") if s.attribute == "partner"
    ]


@pytest.mark.parametrize(
    ("clause", "car", "ended"),
    [
        ("picked up a used Octavia last weekend, estate, loads of room", "Octavia", False),
        ("my 2011 prius finally needs new brakes", "prius", False),
        ("sold our old Outback to a neighbour", "Outback", True),
    ],
)
def test_a_car_by_its_model_alone(clause: str, car: str, ended: bool) -> None:
    assert ("vehicle", car, ended) in _said(clause)


def test_a_word_that_is_also_a_model_names_no_car() -> None:
    assert not [
        s for s in find_statements("my civic duty is jury service") if s.attribute == "vehicle"
    ]


def test_sports_pastimes_and_languages_said_in_passing() -> None:
    assert ("exercise", "climbing", False) in _said("going climbing with Ollie after work")
    assert ("exercise", "boxing", False) in _said("treated myself to a boxing membership")
    assert ("hobby", "knitting", False) in _said("doing knitting in the evenings now")
    assert ("language", "Welsh", False) in _said("been going to Welsh evening classes since May")
    assert ("language", "韩语", False) in _said("最近想学点韩语，追剧方便")
    assert ("hobby", "钓鱼", False) in _said("退休以后天天去水库钓鱼")


def _hedged(clause: str, attribute: str) -> list[bool]:
    return [s.hedged for s in find_statements(clause) if s.attribute == attribute]


def test_a_hedge_in_a_clause_joined_to_the_value_is_that_clauses_own() -> None:
    # after the value: what the joined clause may or wants to do
    assert _hedged("i have a sesame allergy and some menus say 'may contain'", "health") == [False]
    assert _hedged("started Korean bc my flatmate and I want to visit Seoul", "language") == [False]
    assert _hedged("learning Greek so my kids can talk to their yiayia someday", "language") == [
        False
    ]
    # before it: what someone else wants, said before the speaker's own clause
    assert _hedged("my nephew wants to join in now that I've taken up pottery", "hobby") == [False]
    # a hedge the value's clause shares still hedges it
    assert _hedged("I might retire and move to Malaga", "lives_in") == [True]
    assert _hedged("I'd love to move to Porto because it's sunny", "lives_in") == [True]
    assert _hedged("if the visa comes through, I'll move to Oslo", "lives_in") == [True]


def test_quitting_and_going_on_names_no_employer() -> None:
    assert [s.attribute for s in find_statements("I might quit and move to Malaga")] == ["lives_in"]


def test_a_value_named_beside_its_role_is_not_dated_by_another_clause() -> None:
    # the partner is the speaker's now; June dates the move
    text = "my husband Farid got a transfer to Porto and we're moving there in June"
    drafts = drafts_of(text)
    partner = [d for d in drafts if d.predicate == "partner"]
    assert [(d.object, d.valid_from == turn(1, text).occurred_at) for d in partner] == [
        ("Farid", True)
    ]


def test_reporting_for_duty_somewhere_is_working_there() -> None:
    assert ("works_at", "网易", False) in _said("上周五去网易报到了，工位还没配好")
    assert not [s for s in find_statements("下周去复旦大学报到") if s.attribute == "works_at"]


def test_what_one_is_at_something_is_no_job_unless_it_is_a_trade() -> None:
    assert not [
        s for s in find_statements("I'm a beginner at climbing") if s.attribute == "works_at"
    ]
    assert not [
        s for s in find_statements("I'm basically a pescatarian") if s.attribute == "occupation"
    ]
    assert ("occupation", "junior doctor", False) in _said("technically a junior doctor now, lol")
    assert ("works_at", "Ocado", False) in _said("I'm a warehouse planner at Ocado")


def test_a_chinese_offer_said_as_news_and_a_start_that_names_no_employer() -> None:
    assert ("works_at", "小红书", False) in _said("工作总算定了 小红书的offer 做内容")
    assert not [s for s in find_statements("同事的offer比我多两千") if s.attribute == "works_at"]
    assert [s.value for s in find_statements("入职前要体检吗") if s.attribute == "works_at"] == []


def test_chinese_values_stop_at_emoji_and_a_new_job_said_by_its_stretch() -> None:
    assert ("lives_in", "苏州", False) in _said("定了！下周搬去苏州😭")
    assert ("works_at", "蔚来", False) in _said("在合肥安顿好了～蔚来入职第三周，流程好多")
    assert ("works_at", "携程", False) in _said("纠结了很久，携程的offer接了")
    assert ("lives_in", "合肥", False) in _said("在合肥安顿好了")


def test_a_move_done_and_a_drive_that_is_no_car() -> None:
    assert ("lives_in", "Calgary", False) in _said(
        "we made it, officially in calgary! boxes everywhere"
    )
    assert not [
        s for s in find_statements("finally in Rome for the wedding") if s.attribute == "lives_in"
    ]
    assert not [s for s in find_statements("the drive was brutal") if s.attribute == "vehicle"]


def test_a_part_with_no_subject_after_someone_else_goes_on_about_them() -> None:
    assert not [s for s in find_statements("昨天去相亲了 对方叫林峰 是个律师") if s.subject is None]
    assert ("works_at", "美团", False) in _said("我搬到北京了，在美团上班")
    # a pronoun is who, never what
    assert _said("她辞职了，我还在字节上班") == {("works_at", "字节", False)}


def test_a_phone_of_ones_own_by_its_make() -> None:
    assert ("phone", "iphone 13", False) in _said("my iphone 13 screen cracked again")
    assert ("phone", "nokia", False) in _said("still on my old nokia phone lol")
    assert not [
        s for s in find_statements("that was my galaxy brain moment") if s.attribute == "phone"
    ]


def test_a_state_or_an_opinion_is_no_value() -> None:
    for clause in (
        "the rent is so steep now",
        "my phone is dying again",
        "my sleep is wrecked",
    ):
        assert [s.value for s in find_statements(clause) if not s.ended] == [], clause


def test_a_greeting_in_another_language_introduces_the_speaker() -> None:
    said = _said("kia ora! Aroha, nurse at Middlemore, quick one about shifts")
    assert {("name", "Aroha", False), ("occupation", "nurse", False)} <= said


def test_where_one_lives_after_a_tilde_and_holders_of_a_new_role_word() -> None:
    assert ("lives_in", "余杭区", False) in _said("忙了一周～住余杭区，离园区近")
    # a new role word asks the role when the asker is said to be one, not when it names
    # someone who holds it
    assert [q.attribute for q in ask("我现在还是空姐吗？")] == ["occupation"]
    assert [q.attribute for q in ask("那个空姐叫什么名字")] == []


def _texts(text: str) -> list[str]:
    """The memory texts the extractor writes for one user turn."""
    return [d.text for d in drafts_of(text)]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "hi! I'm Tobias, sound engineer at Abbey Audio in Leeds",
            "works at Abbey Audio in Leeds.",
        ),
        ("hey, Sam here, ops lead at Northwind downtown Chicago", "works at Northwind in Chicago."),
        ("hey, I'm Lena, analyst at Fabrikam in Marketing", "works at Fabrikam."),
    ],
)
def test_the_city_a_place_of_work_is_in_is_said_with_it(text: str, said: str) -> None:
    assert f"Caroline {said}" in _texts(text)


def test_a_role_said_bare_is_written_with_its_article() -> None:
    assert "Caroline works as an analyst." in _texts("hey, I'm Lena, analyst at Fabrikam")


@pytest.mark.parametrize(
    ("clause", "pet"),
    [
        ("our dog pancake keeps stealing socks", "dog Pancake"),
        ("my cats pickle and olive have claimed the sofa", "cats Pickle and Olive"),
    ],
)
def test_a_pet_named_by_a_word_is_named_when_it_does_something(clause: str, pet: str) -> None:
    assert ("pet", pet, False) in _said(clause)


@pytest.mark.parametrize(
    "clause", ["my dog walker is on holiday", "our cat food has gone up again", "my dog is sick"]
)
def test_what_follows_a_pets_kind_is_no_name_when_it_is_the_pets(clause: str) -> None:
    assert not [s for s in _said(clause) if s[0] == "pet" and s[1] and " " in s[1]]


@pytest.mark.parametrize(
    ("text", "shop"),
    [
        ("面包店下周开业 就在学校对面 名字叫 麦香坊", "麦香坊"),
        ("店开在老城区，叫二两茶馆", "二两茶馆"),
    ],
)
def test_ones_own_shop_by_its_name_is_where_one_works(text: str, shop: str) -> None:
    assert slots_of(text).get("works_at") == shop


def test_a_shop_one_only_visited_is_no_employer() -> None:
    assert "works_at" not in slots_of("周末去了一家店叫老王烧烤 还不错")


@pytest.mark.parametrize(
    ("clause", "said"),
    [
        ("当幼儿园老师快两年了 累但开心", ("occupation", "幼儿园老师", False)),
        ("跟小林分了 三年感情", ("partner", "小林", True)),
        ("so I'm leaving Fabrikam end of june, new place in july", ("works_at", "Fabrikam", True)),
        ("finally stopped vaping after ten years", ("given_up", "stopped vaping", False)),
    ],
)
def test_a_stretch_a_break_up_and_a_way_out_are_read(
    clause: str, said: tuple[str, str, bool]
) -> None:
    assert said in _said(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "trying to quit smoking, day two, third go",  # tried, not done
        "工资就这么点 还天天加班",  # how little, no amount
        "leaving Lisbon on the night train",  # a city left, no employer
    ],
)
def test_a_try_a_shrug_or_a_city_left_is_no_value(clause: str) -> None:
    assert not [s for s in _said(clause) if s[0] in ("given_up", "salary", "works_at")]


@pytest.mark.parametrize(
    "clause",
    [
        "老伴每天去江边游泳",  # the spouse's
        "周末陪她去上游泳课",  # hers, the speaker goes along
    ],
)
def test_what_a_spouse_or_one_taken_along_does_is_theirs(clause: str) -> None:
    assert not [s for s in find_statements(clause) if s.subject is None]


@pytest.mark.parametrize(
    ("clause", "said"),
    [
        (
            "offer from Northwind, data engineer!! starting in march",
            ("works_at", "Northwind", False),
        ),
        (
            "offer from Northwind, data engineer!! starting in march",
            ("occupation", "data engineer", False),
        ),
        ("I'm leaving Fabrikam after five years", ("works_at", "Fabrikam", True)),
    ],
)
def test_an_offer_as_news_and_a_named_way_out(clause: str, said: tuple[str, str, bool]) -> None:
    assert said in _said(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "we fly out Friday, leaving March 3 and back on the 10th",  # a day
        "not leaving Fabrikam, the new offer was worse",  # staying
        "left Madrid at dawn, home by noon",  # a city
        "offer from Northwind on Monday",  # "on Monday" ends the name, no Monday employer
    ],
)
def test_a_day_a_stay_or_a_city_is_no_job_left(clause: str) -> None:
    assert not [s for s in _said(clause) if s[0] == "works_at" and s[2]]
    assert ("works_at", "Monday", False) not in _said(clause)


@pytest.mark.parametrize(
    ("clause", "said"),
    [
        ("我和老伴住在绍兴 孩子都在外地", ("lives_in", "绍兴", False)),
        ("我跟老公住在萧山 离他单位近", ("lives_in", "萧山", False)),
    ],
)
def test_one_lived_with_is_a_companion_not_the_subject(
    clause: str, said: tuple[str, str, bool]
) -> None:
    assert said in _said(clause)
    assert not [s for s in _said(clause) if s[0] == "partner"]  # "住在" is no partner's name


@pytest.mark.parametrize(
    ("clause", "when"),
    [("下个月辞职了 想歇一歇", "下个月"), ("we fly out Friday, leaving March 3", "March 3")],
)
def test_a_day_or_a_month_is_no_value(clause: str, when: str) -> None:
    assert not [s for s in _said(clause) if s[1] and when in s[1]]
