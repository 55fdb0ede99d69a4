"""Derived memories checked, inside their write's transaction, against what still exists.

Extraction runs outside any transaction, so a turn it cites, or a memory a decision changes,
may be gone by the time its memories are written; the rules for what is then left out are
`write_rules.trimmed_write` (the SQLite store's survivors.py says why they are needed). The
write holds the user's write lock (connection.py), so what it sees exists stays so until it
commits.
"""

from __future__ import annotations

from collections.abc import Iterable

from dualtrace.errors import ConflictError
from dualtrace.store.postgres.connection import Cursor
from dualtrace.store.write_rules import MemoryWrite, cited_and_named, trimmed_write


def surviving(cur: Cursor, user_id: str, write: MemoryWrite) -> MemoryWrite:
    """The write without what cites deleted records (the rules: `write_rules.trimmed_write`)."""
    cited, named = cited_and_named(write)
    turns = _existing(cur, "episodes", user_id, cited)
    stored = _existing(cur, "memories", user_id, named)
    if turns == cited and stored == named:
        return write  # the common case: nothing was deleted meanwhile
    _refuse_others(cur, user_id, cited - turns, named - stored)
    return trimmed_write(write, turns, stored)


def _refuse_others(cur: Cursor, user_id: str, turns: set[str], memories: set[str]) -> None:
    """ConflictError if a missing id is another user's record: a write across users, which
    must fail loudly rather than be trimmed away. Row-level security hides other users'
    rows, so this one check looks across users on purpose (`dualtrace.all_users`, for this
    statement only); it reads ids, never text."""
    for table, ids in (("episodes", turns), ("memories", memories)):
        if not ids:
            continue
        cur.execute("SELECT set_config('dualtrace.all_users', 'on', true)")
        theirs = [
            r[0]
            for r in cur.execute(
                f"SELECT id FROM {table} WHERE id = ANY(%s) AND user_id <> %s".encode(),
                (sorted(ids), user_id),
            ).fetchall()
        ]
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
