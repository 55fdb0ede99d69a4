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
from collections.abc import Iterable

from dualtrace.errors import ConflictError
from dualtrace.store.write_rules import MemoryWrite, cited_and_named, trimmed_write


def surviving(conn: sqlite3.Connection, user_id: str, write: MemoryWrite) -> MemoryWrite:
    """The write without what cites deleted records (the rules: `write_rules.trimmed_write`)."""
    cited, named = cited_and_named(write)
    turns = _existing(conn, "episodes", user_id, cited)
    stored = _existing(conn, "memories", user_id, named)
    if turns == cited and stored == named:
        return write  # the common case: nothing was deleted meanwhile
    _refuse_others(conn, user_id, cited - turns, named - stored)
    return trimmed_write(write, turns, stored)


def _refuse_others(
    conn: sqlite3.Connection, user_id: str, turns: set[str], memories: set[str]
) -> None:
    """ConflictError if a missing id is another user's record: that is no race but a
    write across users, which must fail loudly rather than be trimmed away."""
    for table, ids in (("episodes", turns), ("memories", memories)):
        if not ids:
            continue
        theirs = [
            r[0]
            for r in conn.execute(
                f"SELECT id FROM {table} WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps(sorted(ids)),),
            )
        ]
        if theirs:
            raise ConflictError(
                f"{table} {sorted(theirs)[:3]} are not user {user_id!r}'s; a memory may cite, "
                "and a change may name, only records of the user it is written for"
            )


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
