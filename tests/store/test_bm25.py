"""The SQLite store's BM25 (store/sqlite/bm25.py) ranks one user's rows as FTS5's bm25() does
on a store of that user alone, and counts term rarity among the user's rows only."""

from __future__ import annotations

import random
import sqlite3

import pytest

from dualtrace.store.sqlite import bm25
from dualtrace.store.sqlite.search import scope_token

_WORDS = "kiwi mango plum stone sand river 北京 朋友 周末 climbing gym tea".split()


def _table(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE VIRTUAL TABLE fts USING fts5(scope, body, user_id UNINDEXED, "
        "tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    conn.execute("CREATE TABLE index_versions (user_id TEXT PRIMARY KEY, version INTEGER)")


def _fill(conn: sqlite3.Connection, rng: random.Random, user: str, rows: int, start: int) -> None:
    for n in range(start, start + rows):
        body = " ".join(rng.choices(_WORDS, k=rng.randint(1, 12)))
        conn.execute(
            "INSERT INTO fts (rowid, scope, body, user_id) VALUES (?, ?, ?, ?)",
            (n, scope_token(user), body, user),
        )


def _ranked(conn: sqlite3.Connection, user: str, terms: list[str]) -> list[tuple[int, float]]:
    stats = bm25.UserLengths().of(conn, "fts", scope_token(user), user)
    return bm25.ranked_keys(conn, "fts", "body", scope_token(user), terms, stats)


def _fts5_order(conn: sqlite3.Connection, user: str, terms: list[str]) -> list[tuple[int, float]]:
    quoted = " OR ".join(f'"{t}"' for t in terms)
    rows = conn.execute(
        "SELECT rowid, -bm25(fts, 0.0, 1.0, 0.0) FROM fts WHERE fts MATCH ?",
        (f'scope : "{scope_token(user)}" AND body : ({quoted})',),
    )
    return sorted(rows, key=lambda row: (-row[1], row[0]))  # FTS5 leaves ties in any order


@pytest.mark.parametrize("seed", range(6))
def test_one_user_ranks_as_fts5_bm25(seed: int) -> None:
    rng = random.Random(seed)
    conn = sqlite3.connect(":memory:")
    _table(conn)
    _fill(conn, rng, "u", rng.randint(5, 120), 1)
    conn.commit()
    for _ in range(10):
        terms = rng.sample(["kiwi", "mangoes", "stone", "北京", "朋友", "climbing gym", "tea"], 3)
        ours = _ranked(conn, "u", terms)
        theirs = _fts5_order(conn, "u", terms)
        assert [r for r, _ in ours] == [r for r, _ in theirs], terms
        assert all(abs(a[1] - b[1]) < 1e-9 for a, b in zip(ours, theirs, strict=True))


def test_other_users_rows_do_not_change_term_rarity() -> None:
    rng = random.Random(3)
    conn = sqlite3.connect(":memory:")
    _table(conn)
    _fill(conn, rng, "u", 60, 1)
    alone = _ranked(conn, "u", ["kiwi", "tea"])
    for n in range(1000, 1400):  # another user says "kiwi" in every row
        conn.execute(
            "INSERT INTO fts (rowid, scope, body, user_id) VALUES (?, ?, 'kiwi kiwi', 'v')",
            (n, scope_token("v")),
        )
    conn.commit()
    assert _ranked(conn, "u", ["kiwi", "tea"]) == alone
    assert _ranked(conn, "w", ["kiwi"]) == []


def test_user_lengths_follow_the_index_version() -> None:
    conn = sqlite3.connect(":memory:")
    _table(conn)
    lengths = bm25.UserLengths()
    for n in range(1, 301):  # past one byte of varint in the size records
        conn.execute(
            "INSERT INTO fts (rowid, scope, body) VALUES (?, ?, ?)",
            (n, scope_token("u"), "a b c d " * 40),
        )
    rows = lengths.of(conn, "fts", scope_token("u"), "u")  # each row: scope + 160 words
    assert rows.rowids.tolist() == list(range(1, 301))
    assert rows.norms.tolist() == [bm25.K1] * 300  # every row of average length
    conn.execute("INSERT INTO fts (rowid, scope, body) VALUES (301, ?, 'e')", (scope_token("u"),))
    assert lengths.of(conn, "fts", scope_token("u"), "u") is rows  # version unmoved
    conn.execute("INSERT INTO index_versions VALUES ('u', 1)")
    rows = lengths.of(conn, "fts", scope_token("u"), "u")
    average = (300 * 161 + 2) / 301
    assert rows.norms[-1] == pytest.approx(bm25.K1 * (1 - bm25.B + bm25.B * 2 / average))
    assert len(lengths.of(conn, "fts", scope_token("v"), "v").rowids) == 0


def test_term_counts_are_read_once_per_index_version() -> None:
    conn = sqlite3.connect(":memory:")
    _table(conn)
    _fill(conn, random.Random(4), "u", 40, 1)
    counts = bm25.TermCounts()
    first = counts.of(conn, "fts", "body", scope_token("u"), "kiwi", 0)
    conn.execute(
        "INSERT INTO fts (rowid, scope, body) VALUES (99, ?, 'kiwi kiwi')", (scope_token("u"),)
    )
    assert counts.of(conn, "fts", "body", scope_token("u"), "kiwi", 0) is first  # kept
    ids, freqs = counts.of(conn, "fts", "body", scope_token("u"), "kiwi", 1)  # moved: read
    assert ids[-1] == 99 and freqs[-1] == 2 and len(ids) == len(first[0]) + 1
    assert len(counts.of(conn, "fts", "body", scope_token("v"), "kiwi", 1)[0]) == 0
    rows = bm25.UserLengths().of(conn, "fts", scope_token("u"), "u")
    fresh = bm25.ranked_keys(conn, "fts", "body", scope_token("u"), ["kiwi", "tea"], rows)
    cached = bm25.TermCounts()
    for _ in range(2):  # the second ranking from cached counts: the same
        again = bm25.ranked_keys(
            conn, "fts", "body", scope_token("u"), ["kiwi", "tea"], rows, cached
        )
        assert again == fresh


def _varint(value: int) -> bytes:
    groups = [value & 0x7F]
    while value := value >> 7:
        groups.append(value & 0x7F)
    groups.reverse()
    return bytes([g | 0x80 for g in groups[:-1]] + [groups[-1]])


@pytest.mark.parametrize("seed", range(5))
def test_row_lengths_decode_docsize_records_as_varints_do(seed: int) -> None:
    rng = random.Random(seed)
    sizes = [0, 1, 127, 128, 300, 16_383, 16_384, 1 << 20, 1 << 40]
    blobs = [
        b"".join(_varint(rng.choice(sizes) + rng.randrange(3)) for _ in range(rng.randrange(1, 4)))
        for _ in range(rng.randrange(1, 60))
    ]
    assert bm25.row_lengths(blobs).tolist() == [float(sum(bm25._varints(b))) for b in blobs]
    nine = _varint(1) + bytes([0xFF] * 8 + [0x01])  # a nine-byte varint: decoded one by one
    assert bm25.row_lengths([nine]).tolist() == [float(sum(bm25._varints(nine)))]
