"""Reinforcement: a memory recalled, or said again, gains importance, damped and capped."""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import partial

from dualtrace.models import Hit, Item
from dualtrace.store.ports.memory_writes import MemoryWrites


def reinforced(importance: float, access_count: int, step: float) -> float:
    """Importance after one more recall: +step / sqrt(1 + access_count), capped at 1."""
    return min(1.0, importance + step / math.sqrt(1 + access_count))


def reinforce_recalled(
    store: MemoryWrites, user_id: str, recalled: Iterable[Hit | Item], step: float
) -> None:
    """Count a recall of each memory among `recalled` (turns are not reinforced)."""
    ids = [r.id for r in recalled if r.kind != "episode"]
    store.reinforce(user_id, ids, datetime.now(UTC), partial(reinforced, step=step))
