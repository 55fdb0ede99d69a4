"""Engram scoring: bounded boosts, recency from `now`, damped reinforcement."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from dualtrace.lifecycle.reinforcement import reinforced
from dualtrace.recall.scoring import boost, engram_score, recency

NOW = datetime(2024, 1, 1, tzinfo=UTC)


@given(
    st.floats(0, 1),
    st.integers(-1000, 20_000),
    st.one_of(st.none(), st.floats(0, 1)),
    st.floats(0, 0.5),
    st.floats(0, 0.5),
)
def test_boosts_stay_within_their_bounds(
    relevance: float, days: int, importance: float | None, wr: float, wi: float
) -> None:
    score, parts = engram_score(
        relevance,
        occurred_at=NOW - timedelta(days=days),
        importance=importance,
        now=NOW,
        recency_weight=wr,
        importance_weight=wi,
        halflife_days=30,
    )
    assert 1 - wr - 1e-9 <= parts["recency_boost"] <= 1 + wr + 1e-9
    assert 1 - wi - 1e-9 <= parts["importance_boost"] <= 1 + wi + 1e-9
    assert relevance * (1 - wr) * (1 - wi) - 1e-9 <= score <= relevance * (1 + wr) * (1 + wi) + 1e-9


def test_recency_is_measured_from_now_not_the_wall_clock() -> None:
    said = datetime(2023, 5, 8, tzinfo=UTC)
    assert recency(said, said + timedelta(days=30), 30) == 0.5
    assert recency(said, said, 30) == 1.0
    assert recency(said, said - timedelta(days=5), 30) == 1.0  # said "after" now: no penalty


def test_time_never_buries_a_clearly_more_relevant_memory() -> None:
    # with ±10% boosts, relevance ahead by more than (1.1 × 1.1) / (0.9 × 0.9) ≈ 1.49× wins
    old, _ = engram_score(
        1.0,
        occurred_at=NOW - timedelta(days=3000),
        importance=0.2,
        now=NOW,
        recency_weight=0.1,
        importance_weight=0.1,
        halflife_days=90,
    )
    new, _ = engram_score(
        0.66,
        occurred_at=NOW,
        importance=1.0,
        now=NOW,
        recency_weight=0.1,
        importance_weight=0.1,
        halflife_days=90,
    )
    assert old > new


@given(st.floats(0, 1), st.integers(0, 10_000), st.floats(0, 0.2))
def test_reinforcement_is_damped_and_capped(importance: float, count: int, step: float) -> None:
    after = reinforced(importance, count, step)
    assert importance <= after <= 1.0
    assert after - importance <= step + 1e-12
    assert reinforced(importance, count + 10, step) - importance <= after - importance + 1e-12


def test_boost_is_neutral_at_half() -> None:
    assert boost(0.5, 0.3) == 1.0 and boost(1.0, 0.1) == 1.1 and boost(0.0, 0.1) == 0.9
