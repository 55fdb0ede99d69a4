"""The full-text merge after a deletion: any number of them leaves a sound index.

FTS5 'optimize' (SQLite 3.40) adds a level to the index's structure at each merge that
follows a write, and reads a structure of over 2,000 levels as corrupt: some 1,400 deletions
or merges in a store's life ended in "database disk image is malformed". `merge_fts`
rebuilds the index once its structure record grows long.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.sqlite import connection
from dualtrace.store.sqlite.connection import FTS_STRUCTURE_LIMIT, merge_fts
from dualtrace.store.sqlite.migrations import migrate

SAYINGS = (
    "I care about fuel economy {t}.",
    "I care about boot space {t}.",
    "I moved to Lyon {t} last week.",
    "My sister Ana {t} lives in Porto.",
    "I prefer tea {t} over coffee.",
)


def _check(conn: sqlite3.Connection) -> None:
    for fts in ("fts", "fts_gloss"):
        conn.execute(f"INSERT INTO {fts} ({fts}, rank) VALUES ('integrity-check', 1)")
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_two_thousand_merges_leave_the_index_sound() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn)
    for n in range(2000):  # with 'optimize' alone SQLite 3.40.1 broke at the 1,378th
        conn.execute(
            "INSERT INTO fts (rowid, scope, body, user_id) VALUES (?, 's', ?, 'u')",
            (n + 1, f"word{n} common"),
        )
        if n % 3 == 1:  # word{n-1} goes
            conn.execute("DELETE FROM fts WHERE rowid = ?", (n,))
        merge_fts(conn)
    size = conn.execute("SELECT length(block) FROM fts_data WHERE id = 10").fetchone()[0]
    assert size <= FTS_STRUCTURE_LIMIT + 16
    _check(conn)
    assert conn.execute("SELECT count(*) FROM fts WHERE fts MATCH 'word1999'").fetchone() == (1,)
    assert conn.execute("SELECT count(*) FROM fts WHERE fts MATCH 'word3'").fetchone() == (0,)
    conn.close()


def test_a_loop_of_adds_and_deletes_leaves_a_sound_file(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a low limit makes the loop cross it many times, as a long-lived store does
    monkeypatch.setattr(connection, "FTS_STRUCTURE_LIMIT", 48)
    rng, alive, dead = random.Random(3), {}, []
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        for n in range(160):
            if rng.random() < 0.65 or not alive:
                token = f"zq{n}w"
                text = rng.choice(SAYINGS).format(t=token)
                added = mem.add(text, user_id="u", session_id=f"s{rng.randint(0, 1)}")
                alive[added.episodes[0]] = token
            else:
                episode_id = rng.choice(sorted(alive))
                mem.delete(episode_id, user_id="u")
                dead.append(alive.pop(episode_id))
        for token in alive.values():
            assert mem.search(token, user_id="u", limit=3)
    with sqlite3.connect(db_path) as conn:
        _check(conn)
        conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, fts, row)")
        terms = {r[0] for r in conn.execute("SELECT term FROM temp.vocab")}
    assert len(dead) > 40
    assert not terms & set(dead)
