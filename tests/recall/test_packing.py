"""Context packing: budget, order, dates and provenance."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from dualtrace.models import Hit, Source
from dualtrace.recall.packing import (
    HEADER,
    MOMENTS,
    PROFILE,
    order_for_context,
    pack,
)
from dualtrace.text.tokens import count_tokens

BASE = datetime(2026, 1, 1, 9, tzinfo=UTC)


def hit(n: int, text: str, score: float, days: int = 0, kind: str = "episode") -> Hit:
    when = BASE + timedelta(days=days)
    src = Source(f"ep_{n}", f"D1:{n}", "s1", when, "Alice", text)
    return Hit(
        id=f"ep_{n}",
        kind=kind,
        text=text,
        scene=None,
        valid_from=when,
        valid_to=None,
        recorded_at=when,
        session_id="s1",
        sources=[src],
        score=score,
    )


def test_newest_first_within_equal_relevance() -> None:
    old, new, best = hit(1, "room B2", 0.800, 0), hit(2, "room B3", 0.801, 31), hit(3, "x", 0.99)
    assert [h.id for h in order_for_context([old, new, best])] == ["ep_3", "ep_2", "ep_1"]


def test_lines_are_dated_and_sourced() -> None:
    ctx = pack([hit(1, "I live in Hangzhou.", 1.0)], 100)
    assert ctx.text.splitlines() == [
        HEADER,
        MOMENTS,
        "Thu 1 January 2026",
        "- Alice: I live in Hangzhou. [D1:1]",
    ]
    assert ctx.tokens == count_tokens(ctx.text)


def test_a_date_is_written_once_per_group_newest_group_first() -> None:
    hits = [
        hit(1, "We walked by the lake.", 0.9, days=0),
        hit(2, "We ate noodles.", 0.8, days=3),
        hit(3, "We took the boat.", 0.7, days=0),
    ]
    ctx = pack(hits, 200)
    assert ctx.text.splitlines()[2:] == [
        "Sun 4 January 2026",
        "- Alice: We ate noodles. [D1:2]",
        "Thu 1 January 2026",
        "- Alice: We walked by the lake. [D1:1]",
        "- Alice: We took the boat. [D1:3]",
    ]


def test_a_new_date_group_is_paid_for_in_the_budget() -> None:
    same_day = [hit(i, f"Fact number {i} about the garden.", 1.0 - i / 100) for i in range(1, 9)]
    other_days = [
        hit(i, f"Fact number {i} about the garden.", 1.0 - i / 100, days=i) for i in range(1, 9)
    ]
    # all eight lines under one date (the frame keeps room for the unused profile heading)
    room = pack(same_day, 10_000).tokens + count_tokens("\n" + PROFILE)
    assert len(pack(same_day, room).items) == 8
    spread = pack(other_days, room)  # eight dates cost more: fewer lines, still in budget
    assert len(spread.items) < 8 and spread.tokens <= room


def test_long_item_is_cut_but_keeps_its_source() -> None:
    ctx = pack([hit(1, "word " * 500, 1.0)], 80)
    assert ctx.items and ctx.tokens <= 80
    assert ctx.text.endswith("[D1:1]") and "…" in ctx.text


def test_budget_smaller_than_header_gives_empty_context() -> None:
    ctx = pack([hit(1, "hello", 1.0)], 3)
    assert ctx.text == "" and ctx.tokens == 0 and ctx.items == []


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.text(min_size=1, max_size=300), min_size=1, max_size=12),
    budget=st.integers(min_value=1, max_value=400),
)
def test_never_above_budget(texts: list[str], budget: int) -> None:
    hits = [hit(i, t, 1.0 / (i + 1), i) for i, t in enumerate(texts)]
    ctx = pack(hits, budget)
    assert ctx.tokens == count_tokens(ctx.text) <= budget
    assert all(h.id in ctx.text for h in ctx.items) or all(
        (h.sources[0].external_id or "") in ctx.text for h in ctx.items
    )


def test_near_copies_take_no_budget() -> None:
    ctx = pack(
        [
            hit(1, "Alice lives in Hangzhou now.", 1.0),
            hit(2, "Alice lives in Hangzhou now!", 0.9),
            hit(3, "Alice likes tea.", 0.5),
        ],
        200,
    )
    assert [h.id for h in ctx.items] == ["ep_1", "ep_3"]


def test_profile_comes_first_newest_value_on_top() -> None:
    old = hit(1, "Budget is 300k yuan.", 0.9, days=0, kind="fact")
    new = hit(2, "Budget was raised to 350k yuan.", 0.8, days=30, kind="fact")
    chat = hit(3, "We talked about cars.", 1.0, days=31)
    lines = pack([old, new, chat], 300).text.splitlines()
    assert lines[1] == PROFILE and lines[2] == "Sat 31 January 2026" and "350k" in lines[3]
    assert lines[4] == "Thu 1 January 2026" and "300k" in lines[5]
    assert lines[6] == MOMENTS and lines[7] == "Sun 1 February 2026" and "cars" in lines[8]


def fact_from(n: int, turn: Hit, text: str, score: float) -> Hit:
    """A fact derived from `turn` (it cites the same source)."""
    return replace(turn, id=f"fact_{n}", kind="fact", text=text, score=score)


LONG_TURN = (
    "I've heard of Teva and Merrell, they're great brands for hiking sandals. "
    "I'll check out their latest collections. By the way, I keep my old sneakers "
    "under my bed for storage."
)


def test_the_turn_behind_a_fact_comes_back_when_it_adds_words() -> None:
    turn = hit(1, LONG_TURN, 0.6)
    fact = fact_from(1, turn, "The user keeps the user's old sneakers under the user's bed.", 1.0)
    other = hit(2, "We talked about the weather on the coast.", 0.5)
    ctx = pack([fact, turn, other], 400)
    assert [h.id for h in ctx.items] == ["fact_1", "ep_2", "ep_1"]  # new turns first
    assert "under my bed" in ctx.text


def test_the_turn_behind_a_fact_is_skipped_when_it_adds_nothing() -> None:
    turn = hit(1, "I keep my old sneakers under my bed.", 0.9)
    fact = fact_from(1, turn, "The user keeps old sneakers under the bed.", 1.0)
    assert [h.id for h in pack([fact, turn], 400).items] == ["fact_1"]


def test_a_long_turn_shows_its_sentences_nearest_the_query() -> None:
    tips = " ".join(f"Tip {n}: water the plants number {n} every morning." for n in range(40))
    turn = hit(1, tips + " I keep my old sneakers under my bed.", 1.0)
    whole = pack([turn], 2000)
    focused = pack([turn], 2000, query="Where do I keep my old sneakers?", snippet_tokens=60)
    assert focused.items and "under my bed" in focused.text and "Tip 3:" not in focused.text
    assert focused.tokens < 100 < whole.tokens
    assert "…" in focused.text and focused.text.endswith("[D1:1]")


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(
        st.lists(
            st.sampled_from(["Tea is warm.", "我住在杭州。", "Where?", "x" * 40, "ok"]),
            min_size=1,
            max_size=60,
        ).map(" ".join),
        min_size=1,
        max_size=8,
    ),
    budget=st.integers(min_value=1, max_value=400),
    snippet_tokens=st.sampled_from([0, 20, 60]),
)
def test_snippets_and_repeats_never_go_above_budget(
    texts: list[str], budget: int, snippet_tokens: int
) -> None:
    turns = [hit(i, t, 1.0 / (i + 1), i) for i, t in enumerate(texts)]
    facts = [fact_from(i, t, "Tea is warm in 杭州.", 0.9 / (i + 1)) for i, t in enumerate(turns)]
    ctx = pack([*turns, *facts], budget, query="杭州 tea", snippet_tokens=snippet_tokens)
    assert ctx.tokens == count_tokens(ctx.text) <= budget
    assert len({h.id for h in ctx.items}) == len(ctx.items)


@settings(max_examples=30, deadline=None)
@given(
    texts=st.lists(
        st.text(alphabet=st.sampled_from(list("abc xyz.,我们")), min_size=1, max_size=60),
        min_size=1,
        max_size=25,
    ),
    budget=st.integers(min_value=20, max_value=160),
    ids=st.booleans(),
)
def test_skipping_hits_without_room_changes_no_context(
    texts: list[str], budget: int, ids: bool
) -> None:
    # `_no_room` lets the packer skip a hit once its frame alone fills the room left: the
    # context must be the one the packer makes trying every hit
    from unittest import mock

    import dualtrace.recall.packing as packing

    hits = [hit(n, t, 1.0 - n / 100, days=n % 3) for n, t in enumerate(texts)]
    if not ids:  # cited by per-context numbers, which grow as the context fills
        hits = [replace(h, sources=[replace(s, external_id=None) for s in h.sources]) for h in hits]
    fast = pack(hits, budget, query="abc xyz", snippet_tokens=8)
    with mock.patch.object(packing, "_no_room", lambda *a: False):
        slow = pack(hits, budget, query="abc xyz", snippet_tokens=8)
    assert fast == slow
