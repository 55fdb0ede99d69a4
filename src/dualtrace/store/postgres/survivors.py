"""Derived memories checked, inside their write's transaction, against what still exists.

The same rules as the SQLite store's survivors.py (read it for why): extraction runs outside
any transaction, so a turn it cites, or a memory a decision changes, may be gone by the
time its memories are written. The write holds the user's write lock (connection.py), so
what it sees exists stays so until it commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from dualtrace.errors import ConflictError
from dualtrace.store.base import MemoryGraph
from dualtrace.store.postgres.connection import Cursor
from dualtrace.store.sqlite.survivors import MemoryWrite, _applies, _trimmed


def surviving(cur: Cursor, user_id: str, write: MemoryWrite) -> MemoryWrite:
    """The write without what cites deleted records (see the SQLite store's `surviving`)."""
    new = {m.id for m in write.memories}
    cited = {e for m in write.memories for e in m.source_episode_ids}
    cited |= {e for c in write.changes for e in c.sources}
    named = {c.memory_id for c in write.changes} | {c.by_id for c in write.changes if c.by_id}
    if write.graph is not None:
        named |= {end for link in write.graph.links for end in link[:2]}
    named -= new
    turns = _existing(cur, "episodes", user_id, cited)
    stored = _existing(cur, "memories", user_id, named)
    if turns == cited and stored == named:
        return write  # the common case: nothing was deleted meanwhile
    _refuse_others(cur, user_id, cited - turns, named - stored)
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


def _refuse_others(cur: Cursor, user_id: str, turns: set[str], memories: set[str]) -> None:
    """ConflictError if a missing id is another user's record: a write across users, which
    must fail loudly rather than be trimmed away. Row-level security hides other users'
    rows, so this one check looks across users on purpose (`dualtrace.all_users`, for this
    statement only); it reads ids, never text."""
    for table, ids in (("episodes", turns), ("memories", memories)):
        if not ids:
            continue
        cur.execute("SELECT set_config('dualtrace.all_users', 'on', true)")
        theirs = [r[0] for r in cur.execute(
            f"SELECT id FROM {table} WHERE id = ANY(%s) AND user_id <> %s".encode(),
            (sorted(ids), user_id),
        ).fetchall()]  # fmt: skip
        cur.execute("SELECT set_config('dualtrace.all_users', 'off', true)")
        if theirs:
            raise ConflictError(
                f"{table} {sorted(theirs)[:3]} are not user {user_id!r}'s; a memory may cite, "
                "and a change may name, only records of the user it is written for"
            )


def _existing(cur: Cursor, table: str, user_id: str, ids: Iterable[str]) -> set[str]:
    """Those of `ids` this user has in `table` (episodes or memories)."""
    listed = sorted(ids)
    if not listed:
        return set()
    rows = cur.execute(
        f"SELECT id FROM {table} WHERE user_id = %s AND id = ANY(%s)".encode(), (user_id, listed)
    ).fetchall()
    return {r[0] for r in rows}
