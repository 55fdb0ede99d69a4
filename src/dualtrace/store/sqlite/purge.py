"""Deletion SQL: which memories a deleted turn takes with it, and removing them whole.

Functions take an open connection inside the caller's transaction (deletion.py owns it), so
a turn, the memories built from its words, the history entries quoting those words and the
re-derivation marks of the turns left to rebuild them change together or not at all.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime

from dualtrace.store.sqlite import codec
from dualtrace.store.sqlite.index import drop_keys


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


def rederived_turns(conn: sqlite3.Connection, user_id: str, episode_id: str) -> list[str]:
    """The turns to re-derive when this one goes: the next turn of its session (its keys,
    and the scenes of its memories, quoted it) and the other sources of every memory citing
    either of them."""
    turns = [episode_id, *next_turn(conn, user_id, episode_id)]
    rows = conn.execute(
        f"SELECT DISTINCT o.episode_id FROM memory_sources s JOIN memory_sources o "
        f"ON o.memory_id = s.memory_id WHERE s.user_id = ? "
        f"AND s.episode_id IN ({_marks(turns)})",
        [user_id, *turns],
    ).fetchall()
    found = [*turns[1:], *(r[0] for r in rows)]
    return list(dict.fromkeys(t for t in found if t != episode_id))


def next_turn(conn: sqlite3.Connection, user_id: str, episode_id: str) -> list[str]:
    """The id of the turn after this one in its session, if any (a list of at most one)."""
    rows = conn.execute(
        "SELECT n.id FROM episodes e JOIN episodes n ON n.user_id = e.user_id "
        "AND n.session_id IS e.session_id AND n.seq > e.seq "
        "WHERE e.user_id = ? AND e.id = ? ORDER BY n.seq LIMIT 1",
        (user_id, episode_id),
    )
    return [r[0] for r in rows]


def memories_citing(
    conn: sqlite3.Connection, user_id: str, within: Sequence[str], cited: Sequence[str]
) -> list[str]:
    """Memories whose every source is one of `within`, and memories citing any of `cited`."""
    found: list[str] = []
    if within:
        found += [r[0] for r in conn.execute(
            f"SELECT DISTINCT s.memory_id FROM memory_sources s WHERE s.user_id = ? "
            f"AND s.episode_id IN ({_marks(within)}) AND NOT EXISTS (SELECT 1 FROM "
            f"memory_sources o WHERE o.memory_id = s.memory_id "
            f"AND o.episode_id NOT IN ({_marks(within)}))",
            [user_id, *within, *within],
        )]  # fmt: skip
    if cited:
        found += [r[0] for r in conn.execute(
            f"SELECT DISTINCT memory_id FROM memory_sources WHERE user_id = ? "
            f"AND episode_id IN ({_marks(cited)})",
            [user_id, *cited],
        )]  # fmt: skip
    return list(dict.fromkeys(found))


def drop_memories(conn: sqlite3.Connection, user_id: str, memory_ids: Sequence[str]) -> None:
    """Delete memories with their keys and history; the memories they had superseded hold
    again, and the history entries that quoted them (SUPERSEDE, its REVERT) go."""
    if not memory_ids:
        return
    for memory_id in memory_ids:
        drop_keys(conn, user_id, memory_id)
    _reopen_superseded(conn, user_id, memory_ids)
    for start in range(0, len(memory_ids), 400):
        chunk = list(memory_ids[start : start + 400])
        conn.execute(
            f"DELETE FROM history WHERE user_id = ? AND record_id IN ({_marks(chunk)})",
            [user_id, *chunk],
        )
        conn.execute(
            f"DELETE FROM memories WHERE user_id = ? AND id IN ({_marks(chunk)})",
            [user_id, *chunk],
        )


def _reopen_superseded(conn: sqlite3.Connection, user_id: str, memory_ids: Sequence[str]) -> None:
    """Undo the supersessions these memories made, and purge their history entries (each
    holds the superseding memory's text)."""
    gone = set(memory_ids)
    rows = conn.execute(
        "SELECT id, record_id, detail FROM history WHERE user_id = ? AND event = 'SUPERSEDE'",
        (user_id,),
    ).fetchall()
    entries = [(r[0], r[1], json.loads(r[2] or "{}")) for r in rows]
    entries = [(i, rid, d) for i, rid, d in entries if d.get("by") in gone and rid not in gone]
    for _, record_id, d in entries:
        conn.execute(
            "UPDATE memories SET valid_to = ?, invalidated_at = ?, superseded_by = ? "
            "WHERE user_id = ? AND id = ? AND superseded_by = ?",
            (d.get("valid_to_before"), d.get("invalidated_at_before"),
             d.get("superseded_by_before"), user_id, record_id, d["by"]),
        )  # fmt: skip
    ids = [i for i, _, _ in entries]
    for start in range(0, len(ids), 400):
        chunk = ids[start : start + 400]
        conn.execute(
            f"DELETE FROM history WHERE user_id = ? AND (id IN ({_marks(chunk)}) OR "
            f"(event = 'REVERT' AND json_extract(detail, '$.reverts') IN ({_marks(chunk)})))",
            [user_id, *chunk, *chunk],
        )


def mark_pending(
    conn: sqlite3.Connection, user_id: str, episode_ids: Iterable[str], at: datetime
) -> None:
    """Mark turns extraction-pending (kept until their memories are stored)."""
    conn.executemany(
        "INSERT OR IGNORE INTO extraction_pending (episode_id, user_id, since) "
        "SELECT id, user_id, ? FROM episodes WHERE user_id = ? AND id = ?",
        [(codec.ts(at), user_id, e) for e in episode_ids],
    )


def existing_episodes(conn: sqlite3.Connection, user_id: str, ids: Iterable[str]) -> list[str]:
    """Those of these ids that are the user's episodes."""
    wanted = sorted(ids)
    if not wanted:
        return []
    rows = conn.execute(
        f"SELECT id FROM episodes WHERE +user_id = ? AND id IN ({_marks(wanted)})",
        [user_id, *wanted],
    )
    return [r[0] for r in rows]


def key_hashes(conn: sqlite3.Connection, user_id: str, record_id: str | None) -> list[str]:
    """Content hashes of the keys a deletion would remove: the user's all (None), or the
    record's, with (an episode) the memories citing it and the next turn's."""
    if record_id is None:
        rows = conn.execute(
            "SELECT DISTINCT content_hash FROM search_keys WHERE user_id = ?", (user_id,)
        )
        return [r[0] for r in rows]
    ids = [record_id, *next_turn(conn, user_id, record_id)]
    ids += memories_citing(conn, user_id, [], ids)
    rows = conn.execute(
        f"SELECT DISTINCT content_hash FROM search_keys WHERE user_id = ? "
        f"AND record_id IN ({_marks(ids)})",
        [user_id, *ids],
    )
    return [r[0] for r in rows]
