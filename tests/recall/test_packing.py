"""Context packing: budget, order, dates and provenance."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from dualtrace.models import Hit, Source
from dualtrace.recall.packing import HEADER, order_for_context, pack
from dualtrace.tokens import count_tokens

BASE = datetime(2026, 1, 1, 9, tzinfo=UTC)


def hit(n: int, text: str, score: float, days: int = 0) -> Hit:
    when = BASE + timedelta(days=days)
    src = Source(f"ep_{n}", f"D1:{n}", "s1", when, "Alice", text)
    return Hit(
        id=f"ep_{n}", kind="episode", text=text, scene=None, valid_from=when, valid_to=None,
        recorded_at=when, session_id="s1", sources=[src], score=score,
    )  # fmt: skip


def test_newest_first_within_equal_relevance() -> None:
    old, new, best = hit(1, "room B2", 0.800, 0), hit(2, "room B3", 0.801, 31), hit(3, "x", 0.99)
    assert [h.id for h in order_for_context([old, new, best])] == ["ep_3", "ep_2", "ep_1"]


def test_lines_are_dated_and_sourced() -> None:
    ctx = pack([hit(1, "I live in Hangzhou.", 1.0)], 100)
    assert ctx.text.splitlines() == [
        HEADER,
        "- [2026-01-01 Thu] Alice: I live in Hangzhou. (source: D1:1)",
    ]
    assert ctx.tokens == count_tokens(ctx.text)


def test_long_item_is_cut_but_keeps_its_source() -> None:
    ctx = pack([hit(1, "word " * 500, 1.0)], 80)
    assert ctx.items and ctx.tokens <= 80
    assert ctx.text.endswith("(source: D1:1)") and "…" in ctx.text


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
