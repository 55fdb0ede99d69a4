"""A question that compares events ("before or after", "先…还是…") searches each event on
its own, and each event's best hits lead its context."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hit_builders import said_hit
from question_count import count_questions

from dualtrace import Memory
from dualtrace.models import Hit
from dualtrace.recall.events import EVENT_HITS, each_event, each_instance
from dualtrace.recall.question import analyse
from dualtrace.text import pastimes
from dualtrace.text.events import compared_events

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "events"),
    [
        (
            "Did I buy the kayak before or after I joined the rowing club?",
            ["Did I buy the kayak", "I joined the rowing club"],
        ),
        (
            "Which came first, the trip to Lyon or the dentist appointment?",
            ["the trip to Lyon", "the dentist appointment"],
        ),
        (
            "How many days passed between the day I sold my bike and the day I bought a car?",
            ["the day I sold my bike", "day I bought a car"],
        ),
        ("Who moved abroad first, Ines or Tomas?", ["Ines", "Tomas"]),
        # the part that asks keeps what follows its cue
        (
            "How many days had passed since I repainted the fence when I adopted the goat?",
            ["I repainted the fence", "I adopted the goat"],
        ),
        ("我是先考的驾照还是先买的车？", ["我是先考的驾照", "先买的车"]),
        ("换工作、搬家、养猫，这三件事的先后顺序是什么？", ["换工作", "搬家", "养猫"]),
    ],
)
def test_the_events_a_question_compares(question: str, events: list[str]) -> None:
    assert compared_events(question) == events
    assert analyse(question, NOW).events == tuple(events)


@pytest.mark.parametrize(
    "question",
    [
        "Where do I live?",
        "What did I buy first?",
        "What is the order of the talks I gave?",
        "What is the order of the gigs I went to this spring, starting from the earliest?",
        "我现在在哪里上班？",
        "How many books have I read this year?",
    ],
)
def test_a_question_that_compares_nothing_names_no_events(question: str) -> None:
    assert compared_events(question) == []


def _hit(id_: str, score: float) -> Hit:
    return said_hit(id_, "episode", id_, NOW, score=score)


def test_each_events_best_hits_lead_in_turns() -> None:
    whole = [_hit(f"q{i}", 1.0 - i / 100) for i in range(10)]
    fence = [_hit("f0", 0.9), _hit("q1", 0.8), _hit("f1", 0.7)]
    hooves = [_hit("h0", 0.5)]
    led = each_event([fence, hooves], whole)
    assert [h.id for h in led[:6]] == ["f0", "h0", "q0", "q1", "f1", "q2"]
    assert len(led) == 13 and len({h.id for h in led}) == 13
    scores = [h.score for h in led]
    assert scores == sorted(scores, reverse=True) and scores[0] == 1.0
    assert EVENT_HITS >= 2


def test_each_instance_leads_with_the_first_hit_naming_it() -> None:
    texts = {
        "a": "ran 10k along the canal",
        "b": "another long run, running feels easy now",
        "c": "the boiler broke",
        "d": "tried archery for the first time",
        "e": "running and archery on the same day",
    }
    hits = [said_hit(i, "episode", texts[i], NOW, score=1.0 - n / 10) for n, i in enumerate(texts)]
    led = each_instance(hits, pastimes.named)
    assert [h.id for h in led] == ["b", "d", "a", "c", "e"]
    scores = [h.score for h in led]
    assert scores == sorted(scores, reverse=True) and scores[0] == 1.0


def test_an_order_question_searches_each_event_and_shows_both(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the cat fills the history; the job is one turn among them
    for n in range(8):
        mem.add(
            f"The cat knocked over plant number {n} again, adopting a cat was wild.",
            user_id="u",
            timestamp=NOW - timedelta(days=200 - n),
        )
    mem.add(
        "I adopted a cat from the shelter today.", user_id="u", timestamp=NOW - timedelta(days=210)
    )
    mem.add(
        "First day at the new job at Acme, the onboarding was long.",
        user_id="u",
        timestamp=NOW - timedelta(days=100),
    )
    built = count_questions(monkeypatch)
    asked = "Did I adopt the cat before or after I started the new job?"
    ctx = mem.context(asked, user_id="u", max_tokens=120, now=NOW, reinforce=False)
    assert built == [asked, "Did I adopt the cat", "I started the new job"]
    assert "Acme" in ctx.text and "shelter" in ctx.text


@pytest.mark.parametrize(
    "question",
    [
        "Where was John between August 11 and August 15 2023?",
        "What did Ana and Bo talk about between meetings and lunch?",
    ],
)
def test_a_span_between_two_moments_is_no_pair_of_events(question: str) -> None:
    assert compared_events(question) == []
