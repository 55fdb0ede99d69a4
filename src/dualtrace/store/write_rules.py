"""What every store backend applies the same way when it writes: the ids of entities, the
tuning of consolidation changes, and which parts of a memory write survive deletions made
while it was extracted.

The SQL that finds what still exists is each backend's (`store/<backend>/survivors.py`);
the decisions about a write, given that, are here, so the backends cannot drift apart.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from dualtrace.models import MemoryRecord
from dualtrace.store.base import IndexEntry, MemoryChange, MemoryGraph


def entity_id(user_id: str, norm: str, type_: str) -> str:
    """A stable id for a user's entity (same user, name and type → same id). Both backends
    store it, so a store moved by `dualtrace migrate` keeps its entities' ids.

    >>> entity_id("u", "paris", "place")
    'ent_5f0802b0e94e609dd627c7ae8b14fd7b'
    """
    digest = hashlib.sha256(f"{user_id}\x1f{norm}\x1f{type_}".encode()).hexdigest()[:32]
    return f"ent_{digest}"


# A fact said again gains this much confidence (of what it lacks).
CONFIDENCE_STEP = 0.2

# Reinforcement raises importance; once a user's mean passes this, all are scaled back
# (a mean over a handful of memories says nothing about inflation).
MAX_MEAN_IMPORTANCE = 0.7
MIN_MEMORIES_TO_NORMALISE = 10
NORMALISED_MEAN_IMPORTANCE = 0.5

# History events that `revert_change` undoes.
REVERTIBLE = ("REINFORCE", "MERGE", "SUPERSEDE")


@dataclass(frozen=True)
class MemoryWrite:
    """What `insert_memories` writes: new memories, their keys and graph, and changes."""

    memories: Sequence[MemoryRecord]
    keys: Sequence[IndexEntry]
    graph: MemoryGraph | None
    changes: Sequence[MemoryChange]


def cited_and_named(write: MemoryWrite) -> tuple[set[str], set[str]]:
    """(turns the write cites, stored memories it names) — what must still exist."""
    new = {m.id for m in write.memories}
    cited = {e for m in write.memories for e in m.source_episode_ids}
    cited |= {e for c in write.changes for e in c.sources}
    named = {c.memory_id for c in write.changes} | {c.by_id for c in write.changes if c.by_id}
    if write.graph is not None:
        named |= {end for link in write.graph.links for end in link[:2]}
    return cited, named - new


def trimmed_write(write: MemoryWrite, turns: set[str], stored: set[str]) -> MemoryWrite:
    """The write given the cited `turns` and named memories (`stored`) that still exist: a
    memory all of whose source turns are gone is not stored (nor its keys, entities and
    links); a change to a memory that is gone, or made by a new memory left out, or whose
    every repeating turn is gone, is not applied; vanished turns leave the sources of the
    rest."""
    memories = [
        replace(m, source_episode_ids=tuple(e for e in m.source_episode_ids if e in turns))
        for m in write.memories
        if not m.source_episode_ids or set(m.source_episode_ids) & turns
    ]
    alive = {m.id for m in memories} | stored
    changes = [_trimmed(c, turns) for c in write.changes if _applies(c, alive, turns)]
    graph = write.graph
    if graph is not None:
        graph = MemoryGraph(
            entities=tuple((mid, row) for mid, row in graph.entities if mid in alive),
            links=tuple(link for link in graph.links if link[0] in alive and link[1] in alive),
        )
    keys = [k for k in write.keys if k.record_id in alive]
    return MemoryWrite(memories, keys, graph, changes)


def _applies(change: MemoryChange, alive: set[str], turns: set[str]) -> bool:
    if change.memory_id not in alive or (change.by_id is not None and change.by_id not in alive):
        return False
    # said again (or merged) only by turns that are gone: there is nothing left to apply
    return not change.sources or bool(set(change.sources) & turns)


def _trimmed(change: MemoryChange, turns: set[str]) -> MemoryChange:
    if not change.sources:
        return change
    return replace(change, sources=tuple(e for e in change.sources if e in turns))
