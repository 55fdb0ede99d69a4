"""Call times as the one-call scripts report them (add_one, search_after_add, agent_turns)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def p50_p95_ms(seconds: Sequence[float]) -> tuple[float, float]:
    """The median and the 95th percentile (the value at rank ⌊0.95·n⌋ of the sorted times,
    no interpolation) of call times in seconds, in milliseconds."""
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return statistics.median(ordered) * 1000, p95 * 1000
