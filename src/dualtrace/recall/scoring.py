"""Engram scoring: bounded recency and importance boosts applied after relevance fusion.

A boost is a multiplier within [1 - w, 1 + w]: time or importance can reorder near-equals
but never bury a clearly more relevant memory under a weakly relevant one.
"""

from __future__ import annotations

import math
from datetime import datetime


def recency(occurred_at: datetime, now: datetime, halflife_days: float) -> float:
    """exp(-λ·Δt) with Δt in days from `now` (never negative), λ = ln 2 / half-life."""
    days = max(0.0, (now - occurred_at).total_seconds() / 86_400)
    return math.exp(-math.log(2) * days / halflife_days)


def boost(value: float, weight: float) -> float:
    """A multiplier in [1 - weight, 1 + weight] for a value in [0, 1] (0.5 is neutral)."""
    return 1.0 + weight * (2.0 * min(max(value, 0.0), 1.0) - 1.0)


def engram_score(
    relevance: float,
    *,
    occurred_at: datetime,
    importance: float | None,
    now: datetime,
    recency_weight: float,
    importance_weight: float,
    halflife_days: float,
) -> tuple[float, dict[str, float]]:
    """The final score and its parts: relevance × recency boost × importance boost."""
    rec = boost(recency(occurred_at, now, halflife_days), recency_weight)
    imp = boost(0.5 if importance is None else importance, importance_weight)
    return relevance * rec * imp, {"recency_boost": rec, "importance_boost": imp}
