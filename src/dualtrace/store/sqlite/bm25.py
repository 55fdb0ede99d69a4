"""BM25 over one user's full-text rows, scored here instead of by FTS5's `bm25()`.

FTS5's `bm25()` counts, for every query, the rows holding each term across the whole table
(it walks the term's entire posting list, every user's rows), so its cost grows with the
store rather than with the user: at a million keys a common word took 10-35 ms for a user
with 100 keys, while matching that user's rows took 0.3 ms. Here each term's rows are found
by a MATCH confined to the user's scope token, which FTS5 answers by seeking through the
posting lists; a row's count of the term comes from `highlight()`, and the user's rows with
their lengths from FTS5's `docsize` table, cached per user.

A term's rows and counts are read from `fts_terms`, written with the rows (`store_terms`:
each row's terms as FTS5's own tokenizer makes them, `_Tokenizer`), so a user's first
search reads an index rather than every matched row's text; a term that is several tokens
(a phrase: "e-mail") is still counted by `highlight()`.

The score is FTS5's (k1 1.2, b 0.75, an idf of log((N - n + 0.5) / (n + 0.5)) floored at
1e-6, lengths over all columns) with the row count N, the term's row count n and the average
length all taken over the user's rows: on a store of one user it ranks exactly as
`bm25(fts, 0.0, 1.0, 0.0)` does (tests/store/test_bm25.py), and a user's ranking no longer
depends on what other users stored — as on PostgreSQL, and no statistic of another user's
text reaches this user's results.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

K1 = 1.2
B = 0.75
IDF_FLOOR = 1e-6
# The column that is ranked (the text, or its glosses); `scope` and `user_id` weigh nothing.
RANKED_COLUMN = 1
MAX_CACHED_ROWS = 2_000_000  # rows whose length norms are kept, over all users (~24 MB)
MAX_CACHED_TERMS = 4096  # (user, table, column, term) row counts kept (`TermCounts`)
_MARK = "\x01"  # highlight()'s opening mark: one per instance of the term in the row
# The full-text tables' tokenizer (store/sqlite/migrations.py): the scratch table that
# tokenizes rows and question terms for `fts_terms` must split and stem as they do.
TOKENIZER = "porter unicode61 remove_diacritics 2"
MAX_CACHED_TOKENS = 65_536  # question terms whose tokens are kept (`_tokens`)


def _varints(blob: bytes) -> list[int]:
    """The integers of an FTS5 record: SQLite varints, 7 bits a byte, most significant
    first (a set high bit: more bytes follow; the ninth byte, if any, holds 8 bits)."""
    values, value, used = [], 0, 0
    for byte in blob:
        used += 1
        if used == 9:
            values.append((value << 8) | byte)
            value, used = 0, 0
        elif byte & 0x80:
            value = (value << 7) | (byte & 0x7F)
        else:
            values.append((value << 7) | byte)
            value, used = 0, 0
    return values


def row_lengths(blobs: Sequence[bytes]) -> npt.NDArray[np.float64]:
    """Each FTS5 `docsize` record's sum of column lengths, all records decoded at once
    (byte by byte in Python: ~1 ms per 1,000 rows, most of reading a user's lengths).
    A varint's bytes with the high bit set carry 7 bits each, the last byte (high bit clear)
    7 more; nine-byte varints (lengths over 2^56) fall back to `_varints`."""
    data = np.frombuffer(b"".join(blobs), dtype=np.uint8)
    sizes = np.fromiter(map(len, blobs), np.int64, len(blobs))
    last = (data & 0x80) == 0
    ends = np.flatnonzero(last)
    if len(ends) and int(np.diff(ends, prepend=-1).max()) >= 9:
        return np.fromiter((sum(_varints(b)) for b in blobs), np.float64, len(blobs))
    varint = np.cumsum(last) - last  # the varint each byte belongs to
    shift = 7 * (ends[varint] - np.arange(len(data)))  # its place from the varint's end
    values = np.bincount(varint, (data & 0x7F).astype(np.float64) * 2.0**shift, len(ends))
    # each record's varints: those whose last byte lies inside it
    record = np.searchsorted(np.cumsum(sizes), ends, side="right")
    return np.bincount(record, values, len(blobs)).astype(np.float64)  # weighted: floats


@dataclass(frozen=True)
class UserRows:
    """A user's rows in one full-text table: ids (ascending), lengths in tokens over all
    columns, and each row's BM25 length norm k1 · (1 - b + b · length / average length)."""

    version: int
    rowids: npt.NDArray[np.int64]
    lengths: npt.NDArray[np.float64]
    norms: npt.NDArray[np.float64]

    @property
    def last(self) -> int:
        """The newest row's id (0: none)."""
        return int(self.rowids[-1]) if len(self.rowids) else 0


def _user_rows(
    version: int, rowids: npt.NDArray[np.int64], lengths: npt.NDArray[np.float64]
) -> UserRows:
    average = float(lengths.sum()) / len(lengths) if len(lengths) else 1.0
    return UserRows(version, rowids, lengths, K1 * (1 - B + B * lengths / average))


class UserLengths:
    """Per user and full-text table, the user's rows and their length norms (`UserRows`),
    brought up to date when the user's `index_versions` counter moves: by reading only the
    rows added since when none of the cached ones was deleted (what a write does: full-text
    rows are never changed in place, and their ids only grow), else all of them (10,000
    rows: ~11 ms)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], UserRows] = {}
        self._held = 0  # rows cached, over all users
        self._lock = threading.Lock()

    def of(self, conn: sqlite3.Connection, table: str, scope: str, user_id: str) -> UserRows:
        row = conn.execute(
            "SELECT version FROM index_versions WHERE user_id = ?", (user_id,)
        ).fetchone()
        version = row[0] if row else 0
        cached = self._cache.get((user_id, table))
        if cached is not None and cached.version == version:
            return cached
        if cached is not None and _only_appended(conn, table, scope, cached):
            rowids, lengths = _sizes(conn, table, scope, cached.last)
            rows = _user_rows(
                version,
                np.concatenate([cached.rowids, rowids]),
                np.concatenate([cached.lengths, lengths]),
            )
        else:
            rows = _user_rows(version, *_sizes(conn, table, scope, 0))
        with self._lock:
            old = self._cache.pop((user_id, table), None)
            self._held -= 0 if old is None else len(old.rowids)
            while self._cache and self._held + len(rows.rowids) > MAX_CACHED_ROWS:
                self._held -= len(self._cache.pop(next(iter(self._cache))).rowids)
            self._cache[(user_id, table)] = rows
            self._held += len(rows.rowids)
        return rows


def _sizes(
    conn: sqlite3.Connection, table: str, scope: str, after: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The ids and lengths of the user's rows (`scope`) with an id above `after`."""
    sizes = conn.execute(
        f"SELECT id, sz FROM {table}_docsize WHERE id IN "
        f"(SELECT rowid FROM {table} WHERE {table} MATCH ? AND rowid > ?) ORDER BY id",
        (_match(scope), after),
    ).fetchall()
    rowids = np.fromiter((rowid for rowid, _ in sizes), np.int64, len(sizes))
    return rowids, row_lengths([sz for _, sz in sizes])


def _only_appended(conn: sqlite3.Connection, table: str, scope: str, cached: UserRows) -> bool:
    """True when every cached row is still there (so the cache plus the newer rows is the
    user's table): as many of the user's rows up to the newest cached one as are cached."""
    (count,) = conn.execute(
        f"SELECT count(*) FROM {table} WHERE {table} MATCH ? AND rowid <= ?",
        (_match(scope), cached.last),
    ).fetchone()
    return bool(count == len(cached.rowids))


class _Tokenizer:
    """Text split and stemmed as the full-text tables do it: through a scratch FTS5 table
    with their tokenizer and its per-instance vocabulary, in a process-wide in-memory
    database (a search thread's connection is query-only, and the tokens depend on the text
    alone). Question terms' tokens are kept (MAX_CACHED_TOKENS): the same words are asked
    again and again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._terms: OrderedDict[str, tuple[str, ...]] = OrderedDict()

    def _scratch(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            conn.execute(f"CREATE VIRTUAL TABLE scratch USING fts5(body, tokenize = '{TOKENIZER}')")
            conn.execute("CREATE VIRTUAL TABLE scratch_terms USING fts5vocab(scratch, instance)")
            self._conn = conn
        return self._conn

    def texts(self, texts: Sequence[str]) -> list[list[str]]:
        """Each text's tokens, in order."""
        tokens: list[list[str]] = [[] for _ in texts]
        with self._lock:
            conn = self._scratch()
            conn.execute("BEGIN")
            try:
                conn.executemany(
                    "INSERT INTO scratch (rowid, body) VALUES (?, ?)", enumerate(texts, 1)
                )
                for doc, term in conn.execute(
                    "SELECT doc, term FROM scratch_terms ORDER BY doc, offset"
                ):
                    tokens[doc - 1].append(term)
            finally:
                conn.execute("ROLLBACK")  # the scratch table stays empty
        return tokens

    def term(self, term: str) -> tuple[str, ...]:
        """A question term's tokens."""
        with self._lock:
            cached = self._terms.get(term)
        if cached is None:
            cached = tuple(self.texts([term])[0])
            with self._lock:
                self._terms[term] = cached
                while len(self._terms) > MAX_CACHED_TOKENS:
                    self._terms.popitem(last=False)
        return cached


_tokenizer = _Tokenizer()


def store_terms(
    conn: sqlite3.Connection, user_id: str, table: str, rows: Sequence[tuple[int, str]]
) -> None:
    """Record how often each term occurs in each new full-text row (row id, text) of the
    user's `table` ("fts" or "fts_gloss"), for `TermCounts` (deleted with the rows' search
    keys: `index.drop_keys`, `delete_user`)."""
    if not rows:
        return
    tokens = _tokenizer.texts([text for _, text in rows])
    conn.executemany(
        "INSERT INTO fts_terms (user_id, tbl, term, key_id, freq) VALUES (?, ?, ?, ?, ?)",
        (
            (user_id, table, term, rowid, freq)
            for (rowid, _), said in zip(rows, tokens, strict=True)
            for term, freq in Counter(said).items()
        ),
    )


Counts = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]


class TermCounts:
    """The user's rows holding a term, and how often each holds it, kept per user, table,
    column and term (the least recently used go past MAX_CACHED_TERMS) up to a row id.
    Read from `fts_terms` (an index seek) for a user's rows, else (a phrase, or a table
    without `fts_terms`) by `highlight()`, which re-reads every matched row's text: for a
    common word over 1,300 LongMemEval turns, a megabyte per term. A row's text never
    changes under its id and new rows get higher ids, so after a write only the rows added
    since are read (an agent's next `context()` after its `add`), and rows deleted since
    are left for the caller to skip (`ranked_keys` keeps only the user's current rows)."""

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[str, str, str, str], tuple[int, Counts]] = OrderedDict()
        self._lock = threading.Lock()

    def of(
        self,
        conn: sqlite3.Connection,
        table: str,
        column: str,
        scope: str,
        term: str,
        upto: int,
        user_id: str | None = None,
    ) -> Counts:
        """The rows up to id `upto` holding the term, and their counts of it (`user_id`: the
        scope's user, whose rows `fts_terms` holds; None: counted by `highlight()`)."""
        key = (table, column, scope, term)
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None and cached[0] >= upto:
                self._cache.move_to_end(key)
                ids, freqs = cached[1]
                if cached[0] == upto:
                    return cached[1]
                keep = ids <= upto  # an older view of the user's rows than the one cached
                return ids[keep], freqs[keep]
        after = 0 if cached is None else cached[0]
        tokens = () if user_id is None else _tokenizer.term(term)
        if len(tokens) == 1:
            found = conn.execute(
                "SELECT key_id, freq FROM fts_terms WHERE user_id = ? AND tbl = ? AND term = ? "
                "AND key_id > ? AND key_id <= ? ORDER BY key_id",
                (user_id, table, tokens[0], after, upto),
            ).fetchall()
        else:
            found = [
                (rowid, marked.count(_MARK))
                for rowid, marked in conn.execute(
                    f"SELECT rowid, highlight({table}, {RANKED_COLUMN}, ?, '') FROM {table} "
                    f"WHERE {table} MATCH ? AND rowid > ? AND rowid <= ? ORDER BY rowid",
                    (_MARK, _match(scope, column, term), after, upto),
                )
            ]
        ids = np.fromiter((rowid for rowid, _ in found), np.int64, len(found))
        freqs = np.fromiter((freq for _, freq in found), np.float64, len(found))
        if cached is not None:
            ids = np.concatenate([cached[1][0], ids])
            freqs = np.concatenate([cached[1][1], freqs])
        counts = (ids, freqs)
        with self._lock:
            self._cache[key] = (upto, counts)
            self._cache.move_to_end(key)
            while len(self._cache) > MAX_CACHED_TERMS:
                self._cache.popitem(last=False)
        return counts


def _match(scope: str, column: str | None = None, term: str = "") -> str:
    """A MATCH for the user's rows (`scope`), or for those holding `term` in `column`."""
    if column is None:
        return f'scope : "{scope}"'
    return f'scope : "{scope}" AND {column} : "' + term.replace('"', '""') + '"'


def ranked_keys(
    conn: sqlite3.Connection,
    table: str,
    column: str,
    scope: str,
    terms: Sequence[str],
    rows: UserRows,
    counts: TermCounts | None = None,
    user_id: str | None = None,
    *,
    as_share: bool = False,
) -> list[tuple[int, float]]:
    """(row id, score) of every row of the user (`scope`, `rows`: `UserLengths.of`)
    holding any of the terms in `column`, best first (equal scores: the lower id first);
    `user_id` reads the counts from `fts_terms` (`TermCounts.of`).

    With `as_share`, each score is divided by the sum of the terms' idf (a term no row holds
    counting at its highest): the score of a row of average length holding every term once.
    The order is the same; the scores compare across questions (a row holding only a common
    word of a long question scores near 0, one holding all its words about 1)."""
    scores = np.zeros(len(rows.rowids))
    matched = np.zeros(len(rows.rowids), dtype=bool)
    counts = counts or TermCounts()
    full = 0.0  # the sum of the terms' idf
    for term in dict.fromkeys(terms):
        ids, freqs = counts.of(conn, table, column, scope, term, rows.last, user_id)
        at = np.searchsorted(rows.rowids, ids)
        known = at < len(rows.rowids)
        known[known] = rows.rowids[at[known]] == ids[known]  # rows deleted since: skipped
        at, freqs = at[known], freqs[known]
        n = len(at)
        idf = max(math.log((len(rows.rowids) - n + 0.5) / (n + 0.5)), IDF_FLOOR)
        full += idf
        if not n:
            continue
        # FTS5's sum, term by term in query order: the same float operations as bm25()
        scores[at] += idf * ((freqs * (K1 + 1.0)) / (freqs + rows.norms[at]))
        matched[at] = True
    if as_share and full > 0:
        scores /= full
    hit = np.flatnonzero(matched)
    order = hit[np.lexsort((rows.rowids[hit], -scores[hit]))]
    return list(zip(rows.rowids[order].tolist(), scores[order].tolist(), strict=True))
