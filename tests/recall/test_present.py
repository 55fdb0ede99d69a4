"""A question about the present is answered by the latest word on it: the context shows its
lines in one section by when they were said, and another person's statement is no answer
about the user's own value."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hit_builders import said_hit

from dualtrace.models import Hit
from dualtrace.recall.ahead import only_ahead, wants_plans
from dualtrace.recall.current import (
    ANSWER_DEPTH,
    asking_lowered,
    later_word_first,
    name_lowered,
    newest_first,
    plans_lowered,
)
from dualtrace.recall.packing import pack
from dualtrace.recall.question import analyse

NOW = datetime(2026, 6, 1, 9, tzinfo=UTC)
MARCH = datetime(2026, 3, 10, 19, tzinfo=UTC)
MAY = datetime(2026, 5, 12, 20, tzinfo=UTC)


def _hit(
    i: str,
    kind: str,
    text: str,
    said: datetime,
    *,
    happened: datetime | None = None,
    score: float = 1.0,
) -> Hit:
    return said_hit(i, kind, text, said, happened=happened, score=score)


@pytest.mark.parametrize(
    ("question", "present"),
    [
        ("Do I still play the cello these days?", True),
        ("Which gym am I going to at the moment?", True),
        ("我现在每天几点起床？", True),
        ("我还在学法语吗？", True),
        ("Which gym did I go to before?", False),
        ("What did I cook last night?", False),
        ("我以前在哪家健身房？", False),
        ("What is my favourite colour?", False),
        # "have at the moment" is no perfect tense
        ("What phone do I have at the moment?", True),
        ("what do I drive as things stand?", True),
        ("who is my GP right now", True),
    ],
)
def test_a_question_about_the_present_is_read_as_one(question: str, present: bool) -> None:
    assert analyse(question, NOW).present is present


def test_the_newer_word_on_it_leads_the_context_whatever_its_kind() -> None:
    # an older fact and a newer turn the rules drew nothing from: for a question about the
    # present, the facts-then-events sections would put the old value first
    old = _hit("f1", "fact", "The user keeps a herb garden on the balcony.", MARCH)
    new = _hit(
        "e1", "episode", "The pigeons wrecked the herbs, balcony is empty now.", MAY, score=0.6
    )
    question = analyse("Do I still have the balcony herb garden these days?", NOW)
    assert not question.own_slots  # no rule knows this matter: the layout alone decides
    text = pack([old, new], 300, query=question).text
    assert text.index("pigeons") < text.index("keeps a herb garden")
    assert "### Facts and preferences" not in text


def test_a_memory_is_placed_by_when_it_was_said_not_the_date_it_names() -> None:
    old = _hit("f1", "fact", "The user drinks two espressos every morning.", MARCH)
    # said in May about a change in early March: the newest word on coffee
    new = _hit(
        "f2",
        "event",
        "The user gave up coffee at the start of March (March 2026).",
        MAY,
        happened=datetime(2026, 3, 1, tzinfo=UTC),
    )
    text = pack([old, new], 300, query=analyse("Do I drink coffee these days?", NOW)).text
    assert text.index("gave up coffee") < text.index("two espressos")
    assert "Tue 12 May 2026" in text  # its group is the day it was said


def test_another_persons_statement_is_no_answer_about_the_users_own_value() -> None:
    question = analyse("What language am I learning these days?", NOW)
    mine = _hit("f1", "fact", "The user is learning Spanish on a phone app.", MARCH)
    mine.metadata["slot"] = {"attribute": "language", "subject": None, "value": "Spanish"}
    theirs = _hit("f2", "fact", "The user's coworker is learning Korean from dramas.", MAY)
    ranked = newest_first([theirs, mine], question)
    assert ranked[0].id == "f1"


def _said_by_user(hit: Hit, dense: float) -> Hit:
    return replace(hit, scores={"dense": dense})


def test_a_later_statement_of_a_change_leads_an_older_slot_value() -> None:
    question = analyse("Which gym am I going to these days?", NOW)
    old = _said_by_user(_hit("f1", "fact", "The user trains at Iron Works gym.", MARCH), 1.0)
    new = _said_by_user(
        _hit("e1", "episode", "Cancelled Iron Works, I'm at the climbing hall now.", MAY), 0.9
    )
    ranked = later_word_first([old, new], question)
    assert [h.id for h in ranked] == ["e1", "f1"]
    assert ranked[0].score >= ranked[1].score


@pytest.mark.parametrize(
    "text",
    [
        "My brother switched to the climbing hall now.",  # someone else's change
        "Maybe I'll switch to the climbing hall next month.",  # a hedge, a plan
        "Which is better now, the climbing hall or Iron Works?",  # a question
    ],
)
def test_no_change_of_the_users_own_leads(text: str) -> None:
    question = analyse("Which gym am I going to these days?", NOW)
    old = _said_by_user(_hit("f1", "fact", "The user trains at Iron Works gym.", MARCH), 1.0)
    later = _said_by_user(_hit("e1", "episode", text, MAY), 0.9)
    assert later_word_first([old, later], question)[0].id == "f1"


def test_a_change_far_from_the_question_in_meaning_does_not_lead() -> None:
    question = analyse("我现在住在哪个城市？", NOW)
    old = _said_by_user(_hit("f1", "fact", "用户住在北京朝阳区。", MARCH), 1.0)
    diet = _said_by_user(_hit("e1", "episode", "我现在不吃素了，开始吃鱼。", MAY), 0.5)
    assert later_word_first([old, diet], question)[0].id == "f1"


def test_a_plan_is_no_answer_about_the_present_until_its_day() -> None:
    # said in May: the move is dated in July; asked in June the old city holds, asked in
    # August the plan has come to pass
    plan = _hit("e2", "episode", "We move to Leeds on July 4th, the van is booked.", MAY)
    home = _hit("e1", "episode", "We rent a small flat in York.", MARCH, score=0.9)
    june = analyse("Which city do we live in now?", NOW)
    assert only_ahead(plan, NOW)
    assert [h.id for h in plans_lowered([plan, home], june, 10)] == ["e1", "e2"]
    august = datetime(2026, 8, 10, 9, tzinfo=UTC)
    assert not only_ahead(plan, august)
    later = analyse("Which city do we live in now?", august)
    assert [h.id for h in plans_lowered([plan, home], later, 10)] == ["e2", "e1"]


@pytest.mark.parametrize(
    "text",
    [
        "If the offer comes through I move to Lyon in January.",
        "Maybe we'll get a dog next spring.",
        "明年三月打算搬去杭州。",
        "也许下个月换工作。",
        "We move to Leeds in August, so I'm packing already.",  # the sequel states nothing
    ],
)
def test_plans_and_maybes_only_look_ahead(text: str) -> None:
    assert only_ahead(_hit("e1", "episode", text, MAY), NOW)


@pytest.mark.parametrize(
    "text",
    [
        "We rent a small flat in York.",
        "I started at the bakery in April.",
        "我现在住在苏州。",
        "Moving is next month, still in York until then.",
        # a change made for what is ahead: the change holds
        "Switched to Portuguese since we're relocating to Porto next spring.",
        "我们明年要去首尔，所以改学韩语了。",
        # what holds beside what may
        "Still living in Hull for now, might buy in Beverley one day.",
        "现在还在顺丰上班，可能年底跳槽。",
    ],
)
def test_what_holds_is_not_a_plan(text: str) -> None:
    assert not only_ahead(_hit("e1", "episode", text, MAY), NOW)


def test_a_question_that_looks_ahead_keeps_its_plans() -> None:
    plan = _hit("e2", "episode", "This weekend we are hiking the Dales.", MAY)
    other = _hit("e1", "episode", "We hike most weekends.", MARCH, score=0.9)
    question = analyse("What am I doing this weekend?", NOW)
    assert plans_lowered([plan, other], question, 10)[0].id == "e2"


def test_a_change_dated_ahead_does_not_take_the_lead() -> None:
    # a later statement of a change, with a change cue, whose day has not come: the city
    # said before still leads
    home = _hit("f1", "fact", "The user lives in Porto.", MARCH)
    move = _hit("e2", "episode", "Got the keys, we move to Lisbon on July 2nd, finally!", MAY)
    move.scores = {"dense": 1.0}
    question = analyse("Which city do I live in now?", NOW)
    assert only_ahead(move, NOW)
    assert later_word_first([home, move], question)[0].id == "f1"


def test_a_change_of_another_matter_does_not_answer_a_slot() -> None:
    job = _hit("f1", "fact", "The user works at the Hollis bakery.", MARCH)
    job.metadata["slot"] = {"attribute": "works_at", "subject": None, "value": "Hollis bakery"}
    bus = _hit("e2", "episode", "Sold the car, it's the bus for me now.", MAY)
    bus.scores = {"dense": 1.0}
    question = analyse("Where do I work now?", NOW)
    assert later_word_first([job, bus], question)[0].id == "f1"
    # the same change answers a question about getting around, which no slot asks
    assert later_word_first([job, bus], analyse("How do I get around now?", NOW))[0].id == "e2"


def test_a_turn_that_only_asks_goes_below_a_statement_for_the_users_own_matter() -> None:
    # a question to the assistant shares the topic, not the answer
    asking = _hit("e2", "episode", "how often should a ferret see the vet", MAY)
    said = _hit("e1", "episode", "our ferret Biscuit hides socks everywhere lol", MARCH, score=0.8)
    question = analyse("what pet do i have rn?", NOW)
    assert [h.id for h in asking_lowered([asking, said], question, 10)] == ["e1", "e2"]
    # what the user asked, and a list of every instance, keep the order relevance gave
    for other in ("What did I ask about the vet before?", "How many pets have I had?"):
        assert asking_lowered([asking, said], analyse(other, NOW), 10)[0].id == "e2"


def test_a_turn_that_only_shares_the_slots_word_does_not_lead() -> None:
    # "吃" puts both turns in the diet's domain; the cat's food is far from the question
    question = analyse("我现在早饭一般吃什么？", NOW)
    mine = _said_by_user(_hit("e0", "episode", "最近早饭都吃燕麦配酸奶", MARCH), 1.0)
    far = _said_by_user(_hit("e1", "episode", "周末带猫去宠物店，猫吃的是冻干", MAY), 0.1)
    rest = [  # a full window: nearness is read over ANSWER_DEPTH hits
        _said_by_user(_hit(f"x{i}", "episode", f"第{i}次去图书馆还书", MARCH, score=0.1), 0.5)
        for i in range(ANSWER_DEPTH - 2)
    ]
    assert [h.id for h in newest_first([mine, far, *rest], question)][:2] == ["e0", "e1"]
    near = _said_by_user(far, 0.9)  # near in meaning, the newer statement leads
    assert newest_first([mine, near, *rest], question)[0].id == "e1"
    # in a store of fewer records than the window, min-max says nothing of distance
    assert newest_first([mine, far], question)[0].id == "e1"


def test_a_memory_holding_the_slot_leads_however_it_is_worded() -> None:
    question = analyse("Where do I live now?", NOW)
    old = _said_by_user(_hit("e0", "episode", "I live in a tiny flat in Porto.", MARCH), 1.0)
    moved = _said_by_user(
        _hit("f1", "fact", "The user finally packed the van and relocated to Braga.", MAY), 0.1
    )
    moved.metadata["slot"] = {"attribute": "lives_in", "subject": None, "value": "Braga"}
    assert newest_first([old, moved], question)[0].id == "f1"


def test_a_memory_s_date_note_is_no_statement_of_its_own() -> None:
    # the note after a memory's text resolves its dates; the plan it dates is still a plan
    plan = _hit(
        "f1",
        "fact",
        "The user is moving to Tampere in March. (March = March 2027)",
        MAY,
    )
    home = _hit("f2", "fact", "The user rents a flat in Turku.", MARCH, score=0.9)
    assert only_ahead(plan, NOW)
    question = analyse("Which city do I live in now?", NOW)
    assert [h.id for h in plans_lowered([plan, home], question, 10)] == ["f2", "f1"]


@pytest.mark.parametrize(
    ("question", "plans"),
    [
        ("Which team am I playing for right now?", False),
        ("What is Noor up to at the moment?", False),
        ("我目前带的是哪个班？", False),
        ("What am I doing this weekend?", True),
        ("Where am I flying to next?", True),
        ("When is the move?", True),
        # a slot of the user's asked in the present tense is asked as it holds
        ("Which part of town do I live in?", False),
        ("What do I drive?", False),
        ("我在哪家公司上班？", False),
        ("我们什么时候搬家？", True),  # asks when: a plan's day answers it
        ("What's my next job?", True),  # asks what is to come
        ("我下一份工作在哪家公司？", True),
        ("Where is the wedding?", True),  # no slot of the user's
        ("Where will I be working in spring?", True),
    ],
)
def test_a_question_that_names_the_moment_wants_no_plans(question: str, plans: bool) -> None:
    assert wants_plans(analyse(question, NOW)) is plans


def _own_name(text: str, value: str, score: float) -> Hit:
    slot = {"attribute": "name", "value": value, "subject": None}
    return said_hit("m1", "fact", text, MARCH, score=score, metadata={"slot": slot})


@pytest.mark.parametrize(
    "question",
    [
        "What's my daughter called?",
        "我的女儿叫什么？",  # as "周以宁的女儿叫什么？" is read once the user's name is known
        "What health problems do I have?",
        "我到底算哪里人？",
    ],
)
def test_the_users_own_name_is_no_answer_to_another_question(question: str) -> None:
    name = _own_name("The user's name is Ines.", "Ines", 1.0)
    said = _hit(
        "e2", "episode", "my daughter Mira and I moved to Lyon, I'm from Porto", MAY, score=0.8
    )
    assert [h.id for h in name_lowered([name, said], analyse(question, NOW), 10)] == ["e2", "m1"]


@pytest.mark.parametrize(
    "question", ["What's my name again?", "我叫什么名字？", "你还记得我是谁吗"]
)
def test_the_users_own_name_answers_a_question_for_it(question: str) -> None:
    name = _own_name("用户叫周以宁", "周以宁", 1.0)
    said = _hit("e2", "episode", "我女儿叫朵朵", MAY, score=0.8)
    assert name_lowered([name, said], analyse(question, NOW), 10)[0].id == "m1"


def test_someone_elses_name_is_not_lowered() -> None:
    theirs = said_hit(
        "m1",
        "fact",
        "The user's sister is called Ana.",
        MARCH,
        metadata={"slot": {"attribute": "name", "value": "Ana", "subject": "sister"}},
    )
    said = _hit("e2", "episode", "Ana moved to Faro", MAY, score=0.8)
    question = analyse("What's my sister's name?", NOW)
    assert name_lowered([theirs, said], question, 10)[0].id == "m1"


def test_a_planned_move_does_not_answer_where_one_lives() -> None:
    home = _hit("f1", "fact", "We moved to Ostend last year.", MARCH, score=0.9)
    home.scores = {"dense": 1.0}
    plan = _hit("f2", "event", "We are planning to move to Ghent next summer.", MAY)
    plan.scores = {"dense": 1.0}
    question = analyse("Which town do I live in?", NOW)
    assert newest_first([plan, home], question)[0].id == "f1"
