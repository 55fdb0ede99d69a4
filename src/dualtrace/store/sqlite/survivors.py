"""Derived memories checked, inside their write's transaction, against what still exists.

Extraction runs outside any transaction (it may wait on an LLM), so by the time its memories
are written another thread or process may have deleted a turn they cite, or a stored memory
a consolidation decision changes. Written as decided, they would fail a foreign key (a raw
IntegrityError) or, worse, bring a deleted turn's words back. `surviving` keeps what still
has a source, trims the sources that vanished, and leaves out the changes and links whose
records are gone. The write transaction holds the file's write lock, so what it sees exists
stays so until the write commits, whichever process deletes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from dualtrace.errors import ConflictError
from dualtrace.models import MemoryRecord
from dualtrace.store.base import IndexEntry, MemoryChange, MemoryGraph


@dataclass(frozen=True)
class MemoryWrite:
    """What `insert_memories` writes: new memories, their keys and graph, and changes."""

    memories: Sequence[MemoryRecord]
    keys: Sequence[IndexEntry]
    graph: MemoryGraph | None
    changes: Sequence[MemoryChange]


def surviving(conn: sqlite3.Connection, user_id: str, write: MemoryWrite) -> MemoryWrite:
    """The write without what cites deleted records: a memory all of whose source turns
    are gone is not stored (nor its keys, entities and links); a change to a memory that is
    gone, or made by a new memory left out, or whose every repeating turn is gone, is not
    applied; vanished turns are dropped from the sources of the rest."""
    new = {m.id for m in write.memories}
    cited = {e for m in write.memories for e in m.source_episode_ids}
    cited |= {e for c in write.changes for e in c.sources}
    named = {c.memory_id for c in write.changes} | {c.by_id for c in write.changes if c.by_id}
    if write.graph is not None:
        named |= {end for link in write.graph.links for end in link[:2]}
    named -= new
    turns = _existing(conn, "episodes", user_id, cited)
    stored = _existing(conn, "memories", user_id, named)
    if turns == cited and stored == named:
        return write  # the common case: nothing was deleted meanwhile
    _refuse_others(conn, user_id, cited - turns, named - stored)
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


def _refuse_others(
    conn: sqlite3.Connection, user_id: str, turns: set[str], memories: set[str]
) -> None:
    """ConflictError if a missing id is another user's record: that is no race but a
    write across users, which must fail loudly rather than be trimmed away."""
    for table, ids in (("episodes", turns), ("memories", memories)):
        if not ids:
            continue
        theirs = [r[0] for r in conn.execute(
            f"SELECT id FROM {table} WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(ids)),),
        )]  # fmt: skip
        if theirs:
            raise ConflictError(
                f"{table} {sorted(theirs)[:3]} are not user {user_id!r}'s; a memory may cite, "
                "and a change may name, only records of the user it is written for"
            )


def _applies(change: MemoryChange, alive: set[str], turns: set[str]) -> bool:
    if change.memory_id not in alive or (change.by_id is not None and change.by_id not in alive):
        return False
    # said again (or merged) only by turns that are gone: there is nothing left to apply
    return not change.sources or bool(set(change.sources) & turns)


def _trimmed(change: MemoryChange, turns: set[str]) -> MemoryChange:
    if not change.sources:
        return change
    return replace(change, sources=tuple(e for e in change.sources if e in turns))


def _existing(conn: sqlite3.Connection, table: str, user_id: str, ids: Iterable[str]) -> set[str]:
    """Those of `ids` this user has in `table` (episodes or memories)."""
    listed = sorted(ids)
    if not listed:
        return set()
    rows = conn.execute(
        f"SELECT id FROM {table} WHERE +user_id = ? AND id IN (SELECT value FROM json_each(?))",
        (user_id, json.dumps(listed)),
    )
    return {r[0] for r in rows}
