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


class _Recording:
    """A connection that keeps the parameters of every statement it runs."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.params: list[tuple[object, ...]] = []

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        self.params.append(tuple(params))
        return self.conn.execute(sql, params)


def test_term_counts_read_only_the_rows_added_since() -> None:
    conn = sqlite3.connect(":memory:")
    _table(conn)
    _fill(conn, random.Random(4), "u", 40, 1)
    counts = bm25.TermCounts()
    spy = _Recording(conn)
    first = counts.of(spy, "fts", "body", scope_token("u"), "kiwi", 40)  # type: ignore[arg-type]
    assert counts.of(conn, "fts", "body", scope_token("u"), "kiwi", 40) is first  # kept
    conn.execute(
        "INSERT INTO fts (rowid, scope, body) VALUES (99, ?, 'kiwi kiwi')", (scope_token("u"),)
    )
    spy.params.clear()
    ids, freqs = counts.of(spy, "fts", "body", scope_token("u"), "kiwi", 99)  # type: ignore[arg-type]
    assert [p[-2:] for p in spy.params] == [(40, 99)]  # only the rows after 40 were read
    assert ids[-1] == 99 and freqs[-1] == 2 and len(ids) == len(first[0]) + 1
    older = counts.of(conn, "fts", "body", scope_token("u"), "kiwi", 40)  # an older view
    assert older[0].tolist() == first[0].tolist()
    assert len(counts.of(conn, "fts", "body", scope_token("v"), "kiwi", 99)[0]) == 0
    rows = bm25.UserLengths().of(conn, "fts", scope_token("u"), "u")
    fresh = bm25.ranked_keys(conn, "fts", "body", scope_token("u"), ["kiwi", "tea"], rows)
    cached = bm25.TermCounts()
    for _ in range(2):  # the second ranking from cached counts: the same
        again = bm25.ranked_keys(
            conn, "fts", "body", scope_token("u"), ["kiwi", "tea"], rows, cached
        )
        assert again == fresh


def test_user_lengths_read_only_the_rows_added_since_unless_one_was_deleted() -> None:
    conn = sqlite3.connect(":memory:")
    _table(conn)
    _fill(conn, random.Random(5), "u", 30, 1)
    lengths = bm25.UserLengths()
    before = lengths.of(conn, "fts", scope_token("u"), "u")
    _fill(conn, random.Random(6), "u", 5, 31)
    conn.execute("INSERT INTO index_versions VALUES ('u', 1)")
    spy = _Recording(conn)
    after = lengths.of(spy, "fts", scope_token("u"), "u")  # type: ignore[arg-type]
    assert after.rowids.tolist() == list(range(1, 36))
    scope = bm25._match(scope_token("u"))
    assert spy.params == [("u",), (scope, 30), (scope, 30)]  # the version, the count, and
    # the sizes of the rows after row 30 (a whole read: (scope, 0))
    whole = bm25.UserLengths().of(conn, "fts", scope_token("u"), "u")
    assert after.norms.tolist() == pytest.approx(whole.norms.tolist())
    conn.execute("DELETE FROM fts WHERE rowid = 7")
    conn.execute("UPDATE index_versions SET version = 2")
    gone = lengths.of(conn, "fts", scope_token("u"), "u")
    assert 7 not in gone.rowids.tolist() and len(gone.rowids) == 34
    assert gone.norms.tolist() == pytest.approx(
        bm25.UserLengths().of(conn, "fts", scope_token("u"), "u").norms.tolist()
    )
    assert len(before.rowids) == 30  # a reader's view is never changed under it


@pytest.mark.parametrize("seed", range(4))
def test_caches_kept_across_writes_and_deletions_rank_as_fresh_ones(seed: int) -> None:
    rng = random.Random(seed)
    conn = sqlite3.connect(":memory:")
    _table(conn)
    lengths, counts = bm25.UserLengths(), bm25.TermCounts()
    next_id = 1
    for version in range(1, 13):
        added = rng.randint(1, 8)
        _fill(conn, rng, "u", added, next_id)
        next_id += added
        if rng.random() < 0.4:  # a deletion among the user's rows
            (gone,) = rng.choice(conn.execute("SELECT rowid FROM fts").fetchall())
            conn.execute("DELETE FROM fts WHERE rowid = ?", (gone,))
        conn.execute("INSERT OR REPLACE INTO index_versions VALUES ('u', ?)", (version,))
        terms = rng.sample(["kiwi", "mangoes", "stone", "北京", "朋友", "climbing gym", "tea"], 3)
        rows = lengths.of(conn, "fts", scope_token("u"), "u")
        kept = bm25.ranked_keys(conn, "fts", "body", scope_token("u"), terms, rows, counts)
        assert kept == _ranked(conn, "u", terms)
        theirs = _fts5_order(conn, "u", terms)
        assert [r for r, _ in kept] == [r for r, _ in theirs], terms


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


def _terms_table(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE fts_terms (user_id TEXT, tbl TEXT, term TEXT, key_id INTEGER, freq INTEGER, "
        "PRIMARY KEY (user_id, tbl, term, key_id)) WITHOUT ROWID"
    )


@pytest.mark.parametrize("seed", range(4))
def test_counts_written_with_the_rows_rank_as_fts5_bm25(seed: int) -> None:
    rng = random.Random(seed)
    conn = sqlite3.connect(":memory:")
    _table(conn)
    _terms_table(conn)
    _fill(conn, rng, "u", rng.randint(5, 120), 1)
    rows = conn.execute("SELECT rowid, body FROM fts").fetchall()
    bm25.store_terms(conn, "u", "fts", rows)
    conn.commit()
    stats = bm25.UserLengths().of(conn, "fts", scope_token("u"), "u")
    for _ in range(10):
        # "mangoes" meets "mango" by its stem; "climbing gym", a phrase, by highlight()
        terms = rng.sample(["kiwi", "mangoes", "Stone", "北京", "朋友", "climbing gym", "tea"], 3)
        counts = bm25.TermCounts()
        ours = bm25.ranked_keys(conn, "fts", "body", scope_token("u"), terms, stats, counts, "u")
        theirs = _fts5_order(conn, "u", terms)
        assert [r for r, _ in ours] == [r for r, _ in theirs], terms
        assert all(abs(a[1] - b[1]) < 1e-9 for a, b in zip(ours, theirs, strict=True))


def test_stored_counts_are_what_highlight_counts() -> None:
    conn = sqlite3.connect(":memory:")
    _table(conn)
    _terms_table(conn)
    texts = ["Running runners ran; the runner RUNS.", "Café au lait, cafe noir", "我 周末 去 北京"]
    for n, text in enumerate(texts, 1):
        conn.execute(
            "INSERT INTO fts (rowid, scope, body, user_id) VALUES (?, ?, ?, 'u')",
            (n, scope_token("u"), text),
        )
    bm25.store_terms(conn, "u", "fts", list(enumerate(texts, 1)))
    for term in ["run", "runner", "cafe", "CAFÉ", "北京", "walk"]:
        stored = bm25.TermCounts().of(conn, "fts", "body", scope_token("u"), term, 3, "u")
        read = bm25.TermCounts().of(conn, "fts", "body", scope_token("u"), term, 3)
        assert stored[0].tolist() == read[0].tolist() and stored[1].tolist() == read[1].tolist()
