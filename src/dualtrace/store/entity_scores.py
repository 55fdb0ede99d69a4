"""The entity channel's scoring, shared by the backends (each reads the rows in its own SQL).

An entity mentioned by more than `max_share` of the user's memories (the speaker, say) tells
nothing apart and is ignored (in small stores, up to 5 mentions always count). A memory's
score is the idf of the query's informative entities it mentions over the idf of all of them,
so it lies in [0, 1].
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

from dualtrace.models import Candidate


def informative(counts: Mapping[str, int], total: int, max_share: float) -> dict[str, int]:
    """The entities (canonical name -> mentions) that tell memories apart among `total`."""
    most = max(5.0, max_share * total)
    return {c: n for c, n in counts.items() if n <= most}


def scored(mentions: Iterable[tuple[str, str]], total: int, limit: int) -> list[Candidate]:
    """The best `3 * limit` memories of (canonical name, memory id) mentions, best first."""
    memories: dict[str, set[str]] = {}
    for canonical, memory_id in mentions:
        memories.setdefault(canonical, set()).add(memory_id)
    idf = {c: math.log(1 + total / len(ids)) for c, ids in memories.items()}
    whole = sum(idf.values())
    scores: dict[str, float] = {}
    for canonical, ids in memories.items():
        for memory_id in ids:
            scores[memory_id] = scores.get(memory_id, 0.0) + idf[canonical] / whole
    best = sorted(scores.items(), key=lambda kv: -kv[1])[: limit * 3]
    return [Candidate(memory_id, "entity", score) for memory_id, score in best]


def related_groups(
    groups: Sequence[Sequence[str]],
    rows_of: Mapping[str, Sequence[tuple[str, int]]],
    valid: Collection[str],
    skip: Collection[str],
    limit: int,
) -> list[list[tuple[str, int]]]:
    """For each group of entities, the memories sharing the most of them (memory id, shared
    count), newest first on ties: `rows_of` holds each entity's (memory id, recency) rows,
    `valid` the memories that may be linked, `skip` those that may not."""
    out: list[list[tuple[str, int]]] = []
    for group in groups:
        shared: dict[str, int] = {}
        newest: dict[str, int] = {}
        for canonical in dict.fromkeys(group):
            rows = rows_of.get(canonical, [])
            for memory_id in {m for m, _ in rows} - set(skip):
                shared[memory_id] = shared.get(memory_id, 0) + 1
            for memory_id, recency in rows:
                newest[memory_id] = max(newest.get(memory_id, 0), recency)
        ranked = sorted((m for m in shared if m in valid), key=lambda m: (-shared[m], -newest[m]))
        out.append([(m, shared[m]) for m in ranked[:limit]])
    return out
