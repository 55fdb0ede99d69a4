"""Deletion SQL for PostgreSQL: which memories a deleted turn takes with it, and removing them
whole (the same rules as the SQLite store's purge.py). Functions take the cursor of the
caller's transaction (deletion.py owns it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from dualtrace.store.postgres.connection import Cursor
from dualtrace.store.postgres.index import drop_keys


def rederived_turns(cur: Cursor, user_id: str, episode_id: str) -> list[str]:
    """The turns to re-derive when this one goes: the next turn of its session and the
    other sources of every memory citing either of them."""
    turns = [episode_id, *next_turn(cur, user_id, episode_id)]
    rows = cur.execute(
        "SELECT DISTINCT o.episode_id FROM memory_sources s JOIN memory_sources o "
        "ON o.user_id = s.user_id AND o.memory_id = s.memory_id WHERE s.user_id = %s "
        "AND s.episode_id = ANY(%s) ORDER BY o.episode_id",
        (user_id, turns),
    ).fetchall()
    found = [*turns[1:], *(r[0] for r in rows)]
    return list(dict.fromkeys(t for t in found if t != episode_id))


def next_turn(cur: Cursor, user_id: str, episode_id: str) -> list[str]:
    """The id of the turn after this one in its session, if any (a list of at most one)."""
    rows = cur.execute(
        "SELECT n.id FROM episodes e JOIN episodes n ON n.user_id = e.user_id "
        "AND n.session_id IS NOT DISTINCT FROM e.session_id AND n.seq > e.seq "
        "WHERE e.user_id = %s AND e.id = %s ORDER BY n.seq LIMIT 1",
        (user_id, episode_id),
    ).fetchall()
    return [r[0] for r in rows]


def memories_citing(
    cur: Cursor, user_id: str, within: Sequence[str], cited: Sequence[str]
) -> list[str]:
    """Memories whose every source is one of `within`, and memories citing any of `cited`."""
    found: list[str] = []
    if within:
        found += [r[0] for r in cur.execute(
            "SELECT DISTINCT s.memory_id FROM memory_sources s WHERE s.user_id = %s "
            "AND s.episode_id = ANY(%s) AND NOT EXISTS (SELECT 1 FROM memory_sources o "
            "WHERE o.user_id = s.user_id AND o.memory_id = s.memory_id "
            "AND o.episode_id <> ALL(%s)) ORDER BY 1",
            (user_id, list(within), list(within)),
        ).fetchall()]  # fmt: skip
    if cited:
        found += [r[0] for r in cur.execute(
            "SELECT DISTINCT memory_id FROM memory_sources WHERE user_id = %s "
            "AND episode_id = ANY(%s) ORDER BY 1",
            (user_id, list(cited)),
        ).fetchall()]  # fmt: skip
    return list(dict.fromkeys(found))


def drop_memories(cur: Cursor, user_id: str, memory_ids: Sequence[str]) -> None:
    """Delete memories with their keys and history; the memories they had superseded hold
    again, and the history entries that quoted them (SUPERSEDE, its REVERT) go."""
    if not memory_ids:
        return
    for memory_id in memory_ids:
        drop_keys(cur, user_id, memory_id)
    _reopen_superseded(cur, user_id, memory_ids)
    ids = list(memory_ids)
    cur.execute(
        "DELETE FROM history WHERE user_id = %s AND record_id = ANY(%s)", (user_id, ids)
    )
    cur.execute("DELETE FROM memories WHERE user_id = %s AND id = ANY(%s)", (user_id, ids))


def _reopen_superseded(cur: Cursor, user_id: str, memory_ids: Sequence[str]) -> None:
    """Undo the supersessions these memories made, and purge their history entries (each
    holds the superseding memory's text)."""
    rows = cur.execute(
        "SELECT id, record_id, detail FROM history WHERE user_id = %s AND event = 'SUPERSEDE' "
        "AND detail ->> 'by' = ANY(%s) AND record_id <> ALL(%s)",
        (user_id, list(memory_ids), list(memory_ids)),
    ).fetchall()
    for _, record_id, d in rows:
        cur.execute(
            "UPDATE memories SET valid_to = %s::timestamptz, invalidated_at = %s::timestamptz, "
            "superseded_by = %s WHERE user_id = %s AND id = %s AND superseded_by = %s",
            (d.get("valid_to_before"), d.get("invalidated_at_before"),
             d.get("superseded_by_before"), user_id, record_id, d["by"]),
        )  # fmt: skip
    ids = [int(r[0]) for r in rows]
    if ids:
        cur.execute(
            "DELETE FROM history WHERE user_id = %s AND (id = ANY(%s) OR (event = 'REVERT' "
            "AND (detail ->> 'reverts')::bigint = ANY(%s)))",
            (user_id, ids, ids),
        )


def mark_pending(cur: Cursor, user_id: str, episode_ids: Iterable[str], at: datetime) -> None:
    """Mark turns extraction-pending (kept until their memories are stored)."""
    ids = list(episode_ids)
    if ids:
        cur.execute(
            "INSERT INTO extraction_pending (user_id, episode_id, since) SELECT user_id, id, %s "
            "FROM episodes WHERE user_id = %s AND id = ANY(%s) ON CONFLICT DO NOTHING",
            (at, user_id, ids),
        )


def existing_episodes(cur: Cursor, user_id: str, ids: Iterable[str]) -> list[str]:
    """Those of these ids that are the user's episodes."""
    wanted = sorted(ids)
    if not wanted:
        return []
    rows = cur.execute(
        "SELECT id FROM episodes WHERE user_id = %s AND id = ANY(%s) ORDER BY id",
        (user_id, wanted),
    ).fetchall()
    return [r[0] for r in rows]


def key_hashes(cur: Cursor, user_id: str, record_id: str | None) -> list[str]:
    """Content hashes of the keys a deletion would remove: the user's all (None), or the
    record's, with (an episode) the memories citing it and the next turn's."""
    if record_id is None:
        rows = cur.execute(
            "SELECT DISTINCT content_hash FROM search_keys WHERE user_id = %s", (user_id,)
        ).fetchall()
        return [r[0] for r in rows]
    ids = [record_id, *next_turn(cur, user_id, record_id)]
    ids += memories_citing(cur, user_id, [], ids)
    rows = cur.execute(
        "SELECT DISTINCT content_hash FROM search_keys WHERE user_id = %s "
        "AND record_id = ANY(%s)",
        (user_id, ids),
    ).fetchall()
    return [r[0] for r in rows]
