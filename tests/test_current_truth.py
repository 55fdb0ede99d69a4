"""The current truth through the public API: a change in everyday words closes the old value,
the new one leads for questions about the present, controls keep their value, and every
decision is explained in history and can be undone (English and Chinese)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.recall.current import asks_own_now

MARCH, MAY, JUNE = "2025-03-03T10:00:00Z", "2025-05-05T10:00:00Z", "2025-06-02T10:00:00Z"


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as memory:
        yield memory


def _valid(mem: Memory) -> list[str]:
    return [i.text for i in mem.get_all(user_id="u") if i.kind != "episode"]


@pytest.mark.parametrize(
    ("old", "new", "question", "value", "stale"),
    [
        (
            "I live in Lyon with my partner.",
            "We finally relocated to Bordeaux last month.",
            "Which city do I live in?",
            "Bordeaux",
            "Lyon",
        ),
        (
            "My phone is an iPhone 12.",
            "I upgraded my phone to a Pixel 9 yesterday.",
            "What phone do I have?",
            "Pixel 9",
            "iPhone 12",
        ),
        (
            "I live in Hangzhou. My budget for the new car is 300k yuan.",
            "Also, let's raise the car budget to 350k yuan.",
            "What is the car budget?",
            "350k",
            "300k",
        ),
        (
            "我在阿里巴巴做产品经理。",
            "我已经从阿里离职了，现在在字节跳动上班。",
            "我现在在哪家公司工作？",
            "字节跳动",
            "阿里巴巴",
        ),
        ("买车预算大概20万。", "预算可以放宽到25万。", "我的买车预算是多少？", "25万", "20万"),
    ],
)
def test_the_new_value_leads_and_the_old_one_is_closed(
    mem: Memory, old: str, new: str, question: str, value: str, stale: str
) -> None:
    mem.add(old, user_id="u", timestamp=MARCH)
    mem.add(new, user_id="u", timestamp=MAY)
    assert not [t for t in _valid(mem) if stale in t and value not in t]  # closed, not deleted
    hits = mem.search(question, user_id="u", now=JUNE, reinforce=False)
    assert value in hits[0].text
    text = mem.context(question, user_id="u", max_tokens=300, now=JUNE).text
    assert value in text and (stale not in text or text.index(value) < text.index(stale))
    then = mem.search(question, user_id="u", as_of="2025-04-01T00:00:00Z", reinforce=False)
    assert stale in then[0].text


def test_a_change_to_one_fact_of_a_turn_leaves_the_other(mem: Memory) -> None:
    mem.add("My budget is 300k yuan and I live in Hangzhou.", user_id="u", timestamp=MARCH)
    mem.add("I moved to Shanghai last week.", user_id="u", timestamp=MAY)
    valid = _valid(mem)
    assert any("300k" in t for t in valid) and not any("Hangzhou" in t for t in valid)


def test_a_budget_raised_in_a_session_supersedes_the_old_one(mem: Memory) -> None:
    mem.add("My budget for the car is 300k yuan.", user_id="u", timestamp=MARCH)
    chat = mem.session(user_id="u")
    chat.add("user", "Let's raise the budget to 400k yuan.", timestamp=MAY)
    chat.end()
    valid = _valid(mem)
    assert any("400k" in t for t in valid) and not any("300k" in t for t in valid)


@pytest.mark.parametrize(
    ("old", "control", "kept"),
    [
        ("I live in Manchester.", "I might move to Berlin if I get the job.", "Manchester"),
        ("I live in Manchester.", "My sister moved to Berlin last month.", "Manchester"),
        ("My laptop budget is 8000.", "My bike budget is 3000.", "8000"),
        ("I love hiking.", "I also enjoy kayaking now.", "hiking"),
        ("我住在上海。", "我在考虑搬去深圳。", "上海"),
        ("我住在上海。", "我妹妹搬到北京了。", "上海"),
        ("我住在上海。", "帮我推荐一本周末看的书吧。", "上海"),
    ],
)
def test_controls_keep_their_value(mem: Memory, old: str, control: str, kept: str) -> None:
    mem.add(old, user_id="u", timestamp=MARCH)
    mem.add(control, user_id="u", timestamp=MAY)
    assert any(kept in t for t in _valid(mem))
    assert not [t for t in _valid(mem) if "推荐" in t]  # a request is not a fact


def test_the_decision_names_its_slot_cue_and_score_and_can_be_undone(mem: Memory) -> None:
    ((old, _, _),) = mem.add("I live in Lyon.", user_id="u", timestamp=MARCH).events
    mem.add("We finally relocated to Bordeaux.", user_id="u", timestamp=MAY)
    (entry,) = [h for h in mem.history(old, user_id="u") if h.event == "SUPERSEDE"]
    assert entry.detail["slot"] == "user/lives_in" and entry.detail["cue"] == "finally"
    assert entry.detail["score"] == 0.9 and entry.detail["decision"] == "SUPERSEDE"
    mem.revert(entry.id, user_id="u")
    assert any("Lyon" in t for t in _valid(mem))


def test_an_end_invalidates_and_can_be_undone(mem: Memory) -> None:
    ((old, _, _),) = mem.add("我在阿里巴巴工作。", user_id="u", timestamp=MARCH).events
    events = mem.add("我已经从阿里离职了。", user_id="u", timestamp=MAY).events
    assert (old, "INVALIDATE") in [(e[0], e[1]) for e in events]
    (entry,) = [h for h in mem.history(old, user_id="u") if h.event == "SUPERSEDE"]
    assert entry.detail["decision"] == "INVALIDATE"
    mem.revert(entry.id, user_id="u")
    assert mem.get(old, user_id="u").valid_to is None


def test_a_newer_statement_leads_even_when_no_rule_extracted_it(mem: Memory) -> None:
    mem.add("My phone is an iPhone 12.", user_id="u", timestamp=MARCH)
    mem.add("Work handed me a Pixel 9, so that's my phone now.", user_id="u", timestamp=MAY)
    hits = mem.search("What phone do I have?", user_id="u", now=JUNE, reinforce=False)
    assert "Pixel 9" in hits[0].text
    text = mem.context("What phone do I have?", user_id="u", max_tokens=300, now=JUNE).text
    assert text.index("Pixel 9") < text.index("iPhone 12")
    # a question about the past keeps the old order of relevance and time
    then = mem.search("What phone did I have before?", user_id="u", now=JUNE, reinforce=False)
    assert any("iPhone 12" in h.text for h in then)


def test_someone_elses_new_phone_does_not_lead(mem: Memory) -> None:
    mem.add("My phone is an iPhone 13.", user_id="u", timestamp=MARCH)
    mem.add(
        "Got my dad a new phone for his birthday, a Galaxy S24; he loves his phone.",
        user_id="u",
        timestamp=MAY,
    )
    hits = mem.search("What phone do I have?", user_id="u", now=JUNE, reinforce=False)
    assert "iPhone 13" in hits[0].text


@pytest.mark.parametrize(
    ("old", "new", "beside", "question", "value"),
    [
        (
            "I've been at Deloitte for three years now.",
            "Quick update: I started at Stripe this week!",
            "Can you explain how compound interest works, in simple terms?",
            "Who do I work for these days?",
            "Stripe",
        ),
        (
            "我每天早上一杯美式。",
            "胃不好，咖啡戒了，现在早上喝豆浆。",
            "帮我解释一下什么是复利。",
            "我早上喝什么？",
            "豆浆",
        ),
    ],
)
def test_a_request_said_after_the_change_does_not_lead(
    mem: Memory, old: str, new: str, beside: str, question: str, value: str
) -> None:
    """A request shares the question's words or sits beside the statement; it says nothing
    of the user and never takes the place of the newest statement."""
    mem.add(old, user_id="u", timestamp=MARCH)
    mem.add(
        [
            {"role": "user", "content": new, "timestamp": MAY},
            {"role": "user", "content": beside, "timestamp": "2025-05-05T10:03:00Z"},
        ],
        user_id="u",
    )
    hits = mem.search(question, user_id="u", now=JUNE, reinforce=False)
    assert value in hits[0].text


@pytest.mark.parametrize(
    ("old", "new", "question", "value", "stale"),
    [
        (
            "The wedding is on October 18th, at the vineyard.",
            "We had to shift the wedding to November 8th because the venue double-booked.",
            "When is the wedding?",
            "November 8th",
            "October 18th",
        ),
        (
            "婚礼定在十月二号。",
            "婚期改到明年五月了，酒店那边档期排不开。",
            "婚礼是什么时候？",
            "明年五月",
            "十月二号",
        ),
    ],
)
def test_a_question_that_names_no_one_asks_about_the_user(
    mem: Memory, old: str, new: str, question: str, value: str, stale: str
) -> None:
    mem.add(old, user_id="u", timestamp=MARCH)
    mem.add(new, user_id="u", timestamp=MAY)
    hits = mem.search(question, user_id="u", now=JUNE, reinforce=False)
    assert value in hits[0].text
    text = mem.context(question, user_id="u", max_tokens=300, now=JUNE).text
    assert text.index(value) < text.index(stale)


@pytest.mark.parametrize(
    ("old", "new", "question", "value"),
    [
        (
            "My son Leo goes to Maple Grove Elementary.",
            "Leo switched schools this term, he's at Riverside Academy now.",
            "Which school does my son go to?",
            "Riverside Academy",
        ),
        (
            "儿子在实验小学读二年级。",
            "孩子这学期转学了，现在在外国语学校上课。",
            "我儿子现在在哪所学校上学？",
            "外国语学校",
        ),
    ],
)
def test_a_child_said_by_name_or_as_the_kid_is_the_son_asked_about(
    mem: Memory, old: str, new: str, question: str, value: str
) -> None:
    mem.add(old, user_id="u", timestamp=MARCH)
    mem.add(new, user_id="u", timestamp=MAY)
    hits = mem.search(question, user_id="u", now=JUNE, reinforce=False)
    assert value in hits[0].text


@pytest.mark.parametrize(
    ("question", "own"),
    [
        ("Which city do I live in?", True),
        ("When is the wedding?", True),
        ("去云南旅游的预算是多少？", True),
        ("What car does the user drive?", True),
        ("What is Caroline's job?", False),
        ("Where does she live now?", False),
        ("梅兰妮住在哪？", False),
        ("What was my job before?", False),
        ("Where do I initially keep my old sneakers?", False),
        ("我最初住在哪个城市？", False),
    ],
)
def test_date_order_is_for_the_users_own_slots(question: str, own: bool) -> None:
    """About a named person or a pronoun, or in the past tense, the channels decide."""
    assert bool(asks_own_now(question)) is own


def test_as_of_knows_only_what_had_been_said_by_then(mem: Memory) -> None:
    """A memory said in May whose valid time starts earlier ("this year") was not known in
    April: `as_of` April shows the plan as it stood then."""
    mem.add("For Christmas we're heading to my in-laws in Ohio.", user_id="u", timestamp=MARCH)
    mem.add(
        "Plans changed, we'll spend Christmas in Mexico City this year.", user_id="u", timestamp=MAY
    )
    then = mem.search(
        "Where are we going for Christmas?",
        user_id="u",
        as_of="2025-04-01T00:00:00Z",
        reinforce=False,
    )
    assert "Ohio" in then[0].text
    assert not any("Mexico City" in h.text for h in then)


def test_of_several_asked_slots_the_one_the_channels_found_leads() -> None:
    from dualtrace.recall.current import SlotView, rerank
    from dualtrace.recall.retriever import Scored

    # "When does my driving licence run out?" says words of the vehicle and exercise slots
    view = SlotView(
        current=("m_car", "m_run"),
        said=frozenset({"e_car", "e_run"}),
        stale=frozenset(),
        attributes={"m_car": "vehicle", "m_run": "exercise"},
        sources={"m_car": ("e_car",), "m_run": ("e_run",)},
    )
    pool = [Scored("e_licence", 1.0, {}), Scored("e_car", 0.6, {}), Scored("e_run", 0.2, {})]
    ranked = [s.record_id for s in rerank(pool, view, 1.0, join=True)]
    assert ranked[:2] == ["m_car", "e_car"]  # the vehicle's value, then the turn that said it
    assert ranked[2] == "e_licence" and "m_run" not in ranked  # the exercise slot's is not
    # one asked slot the channels found: its current value leads
    lone = SlotView(
        ("m_run",), frozenset({"e_run"}), frozenset(), {"m_run": "exercise"}, {"m_run": ("e_run",)}
    )
    assert rerank(pool, lone, 1.0, join=True)[0].record_id == "m_run"
    # slots the channels found none of: no value leads (test_slot_found.py)
    unseen = [Scored("e_licence", 1.0, {})]
    assert [s.record_id for s in rerank(unseen, view, 1.0, join=True)] == ["e_licence"]


def test_a_value_said_again_later_closes_the_rival_said_beside_it(mem: Memory) -> None:
    # one turn names the job held and the offer taken; a later turn names the offer's firm
    # again, as where one works now: the newest statement decides the employer
    mem.add(
        "I work as a tester at Globex in Leeds. I got an offer from Initech!",
        user_id="u",
        timestamp=MARCH,
    )
    mem.add("first month at Initech done!", user_id="u", timestamp=MAY)
    profile = mem.profile("u", as_of=JUNE)
    assert [v.value for v in profile.values if v.attribute == "works_at"] == ["Initech"]
    assert not [t for t in _valid(mem) if "Globex" in t and "Initech" not in t]


def test_an_offer_with_a_start_date_said_apart_is_a_plan_until_then(mem: Memory) -> None:
    mem.add("I'm a data analyst at Globex.", user_id="u", timestamp=MARCH)
    mem.add("accepted an offer at Initech!! start date is june 20.", user_id="u", timestamp=MAY)
    now = [v.value for v in mem.profile("u", as_of=JUNE).values if v.attribute == "works_at"]
    later = mem.profile("u", as_of="2025-07-01T00:00:00Z").values
    assert now == ["Globex"]
    assert [v.value for v in later if v.attribute == "works_at"] == ["Initech"]
