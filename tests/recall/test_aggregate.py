"""Aggregation questions: list, count, total and order recognised in both languages, read
deeper so that every instance across sessions reaches the context, and one user's only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dualtrace import Memory
from dualtrace.recall.question import analyse
from dualtrace.text.aggregate_cues import aggregate_kind

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many concerts did I go to last summer?", "count"),
        ("What's the number of plants I've repotted?", "count"),
        ("我去年一共看了几场电影？", "count"),
        ("我这两年养过几只狗？", "count"),
        ("How much did the kitchen renovation cost me altogether?", "total"),
        ("What did I spend on groceries in total?", "total"),
        ("How much have I spent on taxis?", "total"),
        ("装修总共花了多少钱？", "total"),
        ("Did I start yoga before or after I moved flats?", "order"),
        ("Which did I visit first, the museum or the aquarium?", "order"),
        ("我是先换的工作还是先搬的家？", "order"),
        ("What instruments have I tried?", "list"),
        ("List all the restaurants I've recommended to my sister.", "list"),
        ("我都学过哪些语言？", "list"),
        ("What hobbies does my sister pick up each winter?", "list"),
        ("What regions of the U.K. has Tom cycled through?", "list"),
        ("What are Priya's favourite podcasts?", "list"),
        ("What are the names of my nephews?", "list"),
        ("What people has Omar coached?", "list"),
    ],
)
def test_aggregation_questions_are_recognised(question: str, kind: str) -> None:
    assert aggregate_kind(question) == kind
    assert analyse(question, NOW).aggregate == kind


@pytest.mark.parametrize(
    "question",
    [
        "Where does my brother work?",
        "What's my favourite tea?",
        "When is the dentist appointment?",
        "我这几个月住在哪里？",
        "我女儿叫什么名字？",
        "How do I reset my router?",
        "What was the name of her dog?",
        "What status does my visa have?",
        "What does Leo think about cats?",
        "What is Nadia allergic to?",
        "How much can I spend on the new sofa?",
        "How much does the climbing gym cost?",
        # a name in -s is no plural
        "What car does Charles drive now?",
        "Which part of Leeds does my sister live in?",
        "What instrument does Agnes play these days?",
    ],
)
def test_single_fact_questions_are_not_aggregations(question: str) -> None:
    assert aggregate_kind(question) is None
    assert analyse(question, NOW).aggregate is None


HIKES = ["Snowdon", "Ben Nevis", "Scafell Pike", "Helvellyn", "Pen y Fan", "Tryfan"]


def _six_sessions(mem: Memory, user_id: str) -> list[str]:
    """Six sessions, each with one hike among small talk; the hike turns' external ids."""
    ids = []
    for n, peak in enumerate(HIKES):
        start = NOW - timedelta(days=300 - 40 * n)
        turns = [
            {"id": f"{user_id}-{n}-a", "role": "user", "content": f"Can you explain topic {n}?"},
            {"id": f"{user_id}-{n}-b", "role": "assistant", "content": f"Sure, topic {n} is ..."},
            {"id": f"{user_id}-{n}-c", "role": "user", "content": f"I hiked up {peak} today."},
            {"id": f"{user_id}-{n}-d", "role": "assistant", "content": "Great views, I bet."},
        ]
        for i, turn in enumerate(turns):
            turn["timestamp"] = (start + timedelta(minutes=2 * i)).isoformat()
        mem.add(turns, user_id=user_id, session_id=f"{user_id}-s{n}")
        ids.append(f"{user_id}-{n}-c")
    return ids


def test_a_count_question_context_holds_every_instance(mem: Memory) -> None:
    ids = _six_sessions(mem, "walker")
    ctx = mem.context(
        "How many mountains have I hiked?",
        user_id="walker",
        max_tokens=1000,
        now=NOW,
        reinforce=False,
    )
    cited = {s.external_id for item in ctx.items for s in item.sources}
    assert set(ids) <= cited
    for peak in HIKES:
        assert peak in ctx.text


def test_an_aggregation_reads_one_user_only(mem: Memory) -> None:
    _six_sessions(mem, "walker")
    mem.add("I hiked up Mont Blanc today.", user_id="other", timestamp=NOW - timedelta(days=5))
    ctx = mem.context(
        "How many mountains have I hiked?",
        user_id="walker",
        max_tokens=2000,
        now=NOW,
        reinforce=False,
    )
    assert "Mont Blanc" not in ctx.text
    assert all(s.external_id.startswith("walker-") for i in ctx.items for s in i.sources)


def test_a_question_for_every_instance_asks_no_newest_value() -> None:
    cities = analyse("Which cities have I been to this year?", NOW)
    assert cities.aggregate == "list" and not cities.present
    assert "lives_in" not in {s.attribute for s in cities.slots}
    assert analyse("Which city do I live in these days?", NOW).present
    # a many-valued slot keeps every member current: it still answers a list
    pets = analyse("What pets do I have now?", NOW)
    assert [s.attribute for s in pets.own_slots] == ["pet"]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which cities have I been to this year?", "place"),
        ("我今年一共出了几趟差？", "place"),
        ("How many companies did I interview with?", "org"),
        ("我面试过哪些公司？", "org"),
        ("Which sports have I tried since I moved?", "pastime"),
        ("How many hobbies did I pick up this year?", "pastime"),
        ("我这两年都学过哪些运动？", "pastime"),
        ("What books have I read?", None),
        ("Which city do I live in?", None),  # one value, not every instance
        ("What sport do I play on Sundays?", None),  # one, not every one
    ],
)
def test_the_kind_of_instance_a_question_asks_for(question: str, kind: str | None) -> None:
    assert analyse(question, NOW).instance_type == kind


def test_a_question_for_every_place_finds_turns_naming_one(mem: Memory) -> None:
    said = [
        "Long week. Spent Saturday wandering around Lisbon, the custard tarts were unreal.",
        "Work was fine, nothing new. Made lentil soup again.",
        "Flew back from Kyoto last night, jet lag is brutal.",
        "My manager wants the report by Friday.",
    ]
    _days_apart(mem, "ana", said, first=100, step=20)
    mem.add("Had a great time in Reykjavik.", user_id="bo", timestamp=NOW - timedelta(days=3))
    typed = _typed(mem, "Which cities have I been to?")
    assert any("Lisbon" in t for t in typed) and any("Kyoto" in t for t in typed)
    assert not any("lentil" in t or "report" in t or "Reykjavik" in t for t in typed)
    # a question about one named place keeps the entity channel as it was
    one = mem.search("What did I do in Lisbon?", user_id="ana", now=NOW, reinforce=False)
    assert all("type" not in h.scores for h in one)


def test_a_question_for_every_pastime_leads_with_one_turn_of_each(mem: Memory) -> None:
    # the climbing turns outnumber the rest; sailing is said once, in passing
    for n in range(12):
        mem.add(
            f"Climbing session {n} done, my fingers are shredded but I sent the blue route.",
            user_id="ana",
            timestamp=NOW - timedelta(days=200 - 10 * n),
        )
    said = [
        "Spent the whole Saturday sailing off Howth with my cousin, got properly sunburnt.",
        "My landlord still hasn't fixed the boiler.",
        "Went to a pottery class after work, made a wonky mug.",
    ]
    _days_apart(mem, "ana", said, first=150, step=30)
    mem.add("Fencing club again tonight.", user_id="bo", timestamp=NOW - timedelta(days=2))
    ctx = mem.context(
        "Which activities have I done this year?",
        user_id="ana",
        max_tokens=120,
        now=NOW,
        reinforce=False,
    )
    assert "sailing" in ctx.text and "pottery" in ctx.text and "Climbing" in ctx.text
    assert "boiler" not in ctx.text and "Fencing" not in ctx.text
    typed = _typed(mem, "What sports do I do?")
    assert any("sailing" in t for t in typed) and any("pottery" in t for t in typed)


def _days_apart(mem: Memory, user_id: str, said: list[str], *, first: int, step: int) -> None:
    """Each text said `step` days after the one before, the first `first` days ago."""
    for n, text in enumerate(said):
        mem.add(text, user_id=user_id, timestamp=NOW - timedelta(days=first - step * n))


def _typed(mem: Memory, question: str) -> set[str]:
    """The texts of ana's hits for `question` that the type channel found."""
    hits = mem.search(question, user_id="ana", now=NOW, reinforce=False)
    return {h.text for h in hits if h.scores.get("type") == 1.0}
