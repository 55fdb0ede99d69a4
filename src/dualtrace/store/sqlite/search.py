"""Dense and lexical retrieval for the SQLite store.

Dense search is exact (brute-force cosine over the user's vectors in numpy): at 10k keys per
user it takes about a millisecond, and it never misses a neighbour. Each user's matrix is
cached in memory and rebuilt only when that user's `index_versions` counter moves.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from dualtrace.models import Candidate
from dualtrace.store.base import SearchScope, Vector
from dualtrace.store.languages import KEY_LANGUAGES, Cosines, key_language, standardising
from dualtrace.store.ports.records import LanguageHits, LanguageQuery
from dualtrace.store.sqlite import bm25, codec
from dualtrace.store.sqlite.codec import ts

# A channel's candidates through the scope's filters (validity, archived, kind, metadata):
# those admitted, in order, at most the asked number.
Admit = Callable[[list[Candidate]], list[Candidate]]
# depth -> (candidates from the channel's top `3 * depth` keys, best first; whether it has
# keys beyond them)
Fetch = Callable[[int], tuple[list[Candidate], bool]]

# How much deeper than asked a channel reads to fill its list past records the scope
# refuses: a fact changed 120 times puts 119 closed values (238 keys) above the open one,
# which 4x finds; a search `as_of` a time before anything was said reads no deeper than this.
DEEPEST = 64


def deepened(fetch: Fetch, admit: Admit, want: int, depth: int) -> list[Candidate]:
    """Up to `want` admitted candidates, best first: the channel's top keys are read to
    `depth`, then four times deeper while too few pass and the channel has more.

    Filtering after a fixed depth let refused records (closed, archived, other kinds) fill
    the list and leave the search short of hits that exist.
    """
    deepest = depth * DEEPEST
    while True:
        found, more = fetch(depth)
        kept = admit(found)
        if len(kept) >= want or not more or depth >= deepest:
            return kept[:want]
        depth *= 4


def scope_token(user_id: str) -> str:
    """The full-text token that confines a MATCH to one user's rows (digits: no stemming)."""
    return "u" + str(int(hashlib.sha1(user_id.encode()).hexdigest()[:15], 16))


@dataclass
class _UserMatrix:
    version: int
    key_ids: np.ndarray
    record_ids: list[str]
    traces: list[str]
    trace_array: np.ndarray
    kinds: np.ndarray
    sessions: np.ndarray
    languages: np.ndarray  # `key_language` of each key's text
    buffer: np.ndarray  # rows [0, n) are the vectors; the rest is room to append into
    # the cross-lingual embedder's vectors, row for row (zeros where a key has none), and
    # which keys have one
    xbuffer: np.ndarray
    xhas: np.ndarray
    masks: dict[tuple[str, tuple[str, ...]], np.ndarray] = field(default_factory=dict)

    @property
    def matrix(self) -> np.ndarray:
        """The vectors, one row per key (a view: no copy)."""
        return self.buffer[: len(self.key_ids)]

    @property
    def xmatrix(self) -> np.ndarray:
        """The cross-lingual vectors, one row per key (a view: no copy)."""
        return self.xbuffer[: len(self.key_ids)]

    def mask(self, column: str, values: tuple[str, ...]) -> np.ndarray:
        """Rows whose kind, language or trace is one of `values` (computed once per matrix)."""
        key = (column, values)
        if key not in self.masks:
            array = {"kind": self.kinds, "language": self.languages}.get(column, self.trace_array)
            self.masks[key] = np.isin(array, list(values))
        return self.masks[key]


def _rows(
    conn: sqlite3.Connection, user_id: str, dim: int, where: str, params: list[object]
) -> _UserMatrix:
    # the full-text row of a key has the key's id (its text, Chinese segmented by spaces):
    # read only for keys written before their language was stored
    rows = conn.execute(
        "SELECT id, record_id, trace, kind, session_id, vector, xvector, language, CASE WHEN "
        "language IS NULL THEN (SELECT body FROM fts WHERE fts.rowid = search_keys.id) END AS "
        f"body FROM search_keys WHERE user_id = ? AND vector IS NOT NULL {where} ORDER BY id",
        [user_id, *params],
    ).fetchall()
    matrix = codec.unblob_many([r["vector"] for r in rows], dim)
    xmatrix, xhas = codec.half_many([r["xvector"] for r in rows])
    return _UserMatrix(
        version=0,
        key_ids=np.array([r["id"] for r in rows], dtype=np.int64),
        record_ids=[r["record_id"] for r in rows],
        traces=[r["trace"] for r in rows],
        trace_array=np.array([r["trace"] for r in rows], dtype=object),
        kinds=np.array([r["kind"] for r in rows], dtype=object),
        sessions=np.array([r["session_id"] for r in rows], dtype=object),
        languages=np.array(
            [r["language"] or key_language(r["body"] or "") for r in rows], dtype=object
        ),
        buffer=matrix,
        xbuffer=xmatrix,
        xhas=xhas,
    )


def _only_appended(conn: sqlite3.Connection, user_id: str, cached: _UserMatrix) -> bool:
    """True when none of the cached keys was deleted or given a vector since (keys are
    never otherwise updated in place: a change deletes and re-inserts; a deferred key that
    gets its vector later raises the count, and so does an old key given its cross-lingual
    vector), so the cache plus the newer rows is the index."""
    count, crossed = conn.execute(
        "SELECT COUNT(*), COUNT(xvector) FROM search_keys WHERE user_id = ? AND id <= ? "
        "AND vector IS NOT NULL",
        (user_id, int(cached.key_ids[-1])),
    ).fetchone()
    return bool(count == len(cached.key_ids) and crossed == int(cached.xhas.sum()))


def _concat(old: _UserMatrix, new: _UserMatrix, version: int) -> _UserMatrix:
    """The old matrix with the new rows appended. Vectors go into spare room at the end of
    the old buffer (doubled when full), so a write costs its own rows, not the user's
    whole matrix; rows of the old view are never touched, so readers holding it are safe."""
    n = len(old.key_ids)
    buffer = _appended(old.buffer, n, new.matrix)
    xold, xnew = old.xbuffer, new.xmatrix
    if xold.shape[1] != xnew.shape[1]:  # the first cross-lingual vectors (or none new)
        width = max(xold.shape[1], xnew.shape[1])
        xold = _widened(xold[:n], width)
        xnew = _widened(xnew, width)
    xbuffer = _appended(xold, n, xnew)
    return _UserMatrix(
        version=version,
        key_ids=np.concatenate([old.key_ids, new.key_ids]),
        record_ids=old.record_ids + new.record_ids,
        traces=old.traces + new.traces,
        trace_array=np.concatenate([old.trace_array, new.trace_array]),
        kinds=np.concatenate([old.kinds, new.kinds]),
        sessions=np.concatenate([old.sessions, new.sessions]),
        languages=np.concatenate([old.languages, new.languages]),
        buffer=buffer,
        xbuffer=xbuffer,
        xhas=np.concatenate([old.xhas, new.xhas]),
    )


def _appended(buffer: np.ndarray, n: int, rows: np.ndarray) -> np.ndarray:
    """`buffer` with `rows` written after its first `n` rows, into its spare room, or into
    a new buffer twice as big (the first `n` rows copied) when they do not fit."""
    k = len(rows)
    if n + k > len(buffer):
        grown = np.empty((max(2 * len(buffer), n + k, 64), buffer.shape[1]), np.float32)
        grown[:n] = buffer[:n]
        buffer = grown
    buffer[n : n + k] = rows
    return buffer


def _widened(rows: np.ndarray, width: int) -> np.ndarray:
    """Rows padded with zero columns to `width` (a matrix of no columns: all zeros)."""
    if rows.shape[1] == width:
        return rows
    out = np.zeros((len(rows), width), np.float32)
    out[:, : rows.shape[1]] = rows
    return out


class DenseIndex:
    """Per-user cached vector matrices over `search_keys`."""

    def __init__(self) -> None:
        self._cache: dict[str, _UserMatrix] = {}
        self._lock = threading.Lock()

    def invalidate(self, user_id: str) -> None:
        """Forget a user's cached matrix (after this process changed it)."""
        self._cache.pop(user_id, None)

    def _load(self, conn: sqlite3.Connection, user_id: str, dim: int) -> _UserMatrix:
        row = conn.execute(
            "SELECT version FROM index_versions WHERE user_id = ?", (user_id,)
        ).fetchone()
        version = row[0] if row else 0
        cached = self._cache.get(user_id)
        if cached is not None and cached.version == version:
            return cached
        with self._lock:  # one thread appends into a shared buffer at a time
            cached = self._cache.get(user_id)
            if cached is not None and cached.version == version:
                return cached
            return self._reload(conn, user_id, dim, version, cached)

    def _reload(
        self,
        conn: sqlite3.Connection,
        user_id: str,
        dim: int,
        version: int,
        cached: _UserMatrix | None,
    ) -> _UserMatrix:
        if cached is not None and len(cached.key_ids) and _only_appended(conn, user_id, cached):
            # keys were only added since (the common case: a write): read just the new ones
            last = int(cached.key_ids[-1])
            new = _rows(conn, user_id, dim, "AND id > ?", [last])
            loaded = _concat(cached, new, version)
        else:
            loaded = _rows(conn, user_id, dim, "", [])
            loaded.version = version
        self._cache[user_id] = loaded
        return loaded

    def search_many(
        self,
        conn: sqlite3.Connection,
        user_id: str,
        vectors: Sequence[Vector],
        limit: int,
        scope: SearchScope,
        admit: Admit | None = None,
        language_offset: Mapping[str, float] | None = None,
    ) -> list[list[Candidate]]:
        """Top keys by cosine similarity for each vector, in one pass over the user's matrix,
        best per record, pre-filtered by kind and session (and, with `admit`, read deeper
        until `limit` records pass it; see `deepened`); a key's score is its cosine plus its
        language's `language_offset`."""
        if not vectors:
            return []
        um = self._load(conn, user_id, int(vectors[0].shape[0]))
        if not len(um.record_ids):
            return [[] for _ in vectors]
        # einsum, not `@`: a BLAS matvec wakes OpenBLAS's thread pool, whose spinning threads
        # then starve the embedder's OpenMP threads (query embedding 16 ms -> 118 ms on 2
        # cores). einsum's own loop takes ~0.8 ms for 10k x 384 and leaves no threads behind.
        queries = np.stack([v.astype(np.float32) for v in vectors])
        table = np.einsum("ij,kj->ki", um.matrix, queries)
        for language, offset in (language_offset or {}).items():
            if offset:
                table += np.float32(offset) * um.mask("language", (language,))
        mask = _scope_mask(um, scope)
        rows = [np.where(mask, row, -np.inf) for row in table]
        if admit is None:
            return [_best(um, row, limit)[0] for row in rows]
        return [deepened(partial(_best, um, row), admit, limit, limit) for row in rows]

    def languages(self, conn: sqlite3.Connection, user_id: str, dim: int) -> dict[str, int]:
        """How many of the user's keys with a vector are in each key language."""
        um = self._load(conn, user_id, dim)
        return {language: int(um.mask("language", (language,)).sum()) for language in KEY_LANGUAGES}

    def search_languages(
        self,
        conn: sqlite3.Connection,
        user_id: str,
        dim: int,
        queries: Mapping[str, LanguageQuery],
        limit: int,
        scope: SearchScope,
        admit: Admit,
    ) -> dict[str, LanguageHits]:
        """For each language, the best records among its keys by that language's query's
        standardised score (`LanguageQuery`), read deeper until `limit` pass `admit`."""
        um = self._load(conn, user_id, dim)
        mask = _scope_mask(um, scope)
        cosines = _Cosines(um)  # each query vector's cosines, once for all languages
        found: dict[str, LanguageHits] = {}
        for language, query in queries.items():
            keys = um.mask("language", (language,))
            usable = keys if query.crosslingual is None else keys & um.xhas
            count, missing = int(keys.sum()), int(keys.sum() - usable.sum())
            if not usable.any():
                found[language] = LanguageHits([], count, missing)
                continue
            every = None if query.crosslingual is None else um.xhas
            score = _standard(cosines.of(query.vector, cross=False), usable, every)
            if query.crosslingual is not None:
                crossed = _standard(cosines.of(query.crosslingual, cross=True), usable, um.xhas)
                score = (1 - query.share) * score + query.share * crossed
            row = np.where(mask & usable, score, -np.inf).astype(np.float32)
            hits = deepened(partial(_best, um, row), admit, limit, limit)
            found[language] = LanguageHits(hits, count, missing)
        return found


class _Cosines:
    """Every key's cosine with a query vector, by its main or cross-lingual vector,
    computed once per vector (None where the widths differ: no vectors of that kind yet)."""

    def __init__(self, um: _UserMatrix) -> None:
        self._um = um
        self._done: dict[tuple[bool, int], np.ndarray | None] = {}

    def of(self, vector: Vector, *, cross: bool) -> np.ndarray | None:
        key = (cross, id(vector))
        if key not in self._done:
            matrix = self._um.xmatrix if cross else self._um.matrix
            self._done[key] = (
                None
                if matrix.shape[1] != vector.shape[0]
                else np.einsum("ij,j->i", matrix, vector.astype(np.float32))
            )
        return self._done[key]


def _standard(cosine: np.ndarray | None, rows: np.ndarray, every: np.ndarray | None) -> np.ndarray:
    """Each key's cosine as a z-score among the `rows` chosen, their mean and spread drawn
    towards those of the `every` rows (None: all) by `standardising`; zeros without
    cosines."""
    if cosine is None:
        return np.zeros(len(rows), np.float32)
    reference = cosine if every is None else cosine[every]
    mean, spread = standardising(_cosines(cosine[rows]), _cosines(reference))
    standard: np.ndarray = (cosine - mean) / spread
    return standard


def _cosines(values: np.ndarray) -> Cosines:
    return Cosines(len(values), float(values.mean()), float(values.var()))


def _scope_mask(um: _UserMatrix, scope: SearchScope) -> np.ndarray:
    """The keys the scope's key filters admit: kind, session and trace."""
    mask = np.ones(len(um.key_ids), dtype=bool)
    if scope.kinds is not None:
        mask &= um.mask("kind", tuple(sorted(scope.kinds)))
    if scope.session_id is not None:
        mask &= um.sessions == scope.session_id
    if scope.traces is not None and not set(scope.traces) >= ALL_TRACES:
        mask &= um.mask("trace", tuple(sorted(scope.traces)))
    return mask


def _best(
    um: _UserMatrix, scores: npt.NDArray[np.float32], limit: int
) -> tuple[list[Candidate], bool]:
    """The best key per record among the top `3 * limit` keys, best first; and whether
    keys the scope allows lie beyond them."""
    ranked = int(np.isfinite(scores).sum())
    take = min(ranked, limit * 3)
    if take == 0:
        return [], False
    top = np.argpartition(-scores, take - 1)[:take]
    top = top[np.argsort(-scores[top])]
    best: dict[str, Candidate] = {}
    for i in top:
        rid = um.record_ids[i]
        if rid not in best:
            best[rid] = Candidate(rid, um.traces[i], float(scores[i]))
    return list(best.values()), take < ranked


def lexical_search(
    conn: sqlite3.Connection,
    user_id: str,
    terms: Sequence[str],
    limit: int,
    scope: SearchScope,
    admit: Admit | None = None,
    column: str = "body",
    lengths: bm25.UserLengths | None = None,
    counts: bm25.TermCounts | None = None,
) -> list[Candidate]:
    """BM25 over the user's full-text keys as a share of a full match (`bm25.ranked_keys`
    with `as_share`; higher is better), best key per record (and, with `admit`, read deeper
    until `limit` records pass it; see `deepened`). `column`: "body" (the keys' text) or
    "gloss" (their words in the other language)."""
    if not terms:
        return []
    table, token = _FTS_OF[column], scope_token(user_id)
    rows = (lengths or bm25.UserLengths()).of(conn, table, token, user_id)
    ranked = bm25.ranked_keys(
        conn, table, column, token, terms, rows, counts, user_id, as_share=True
    )
    keys = _LexicalKeys(conn, user_id, scope, ranked)
    if admit is None:
        return keys.fetch(limit)[0]
    return deepened(keys.fetch, admit, limit, limit)


class _LexicalKeys:
    """The keys of ranked full-text rows that pass the scope's key filters (kind, session,
    trace), looked up only as deep as a fetch asks: a common word matches thousands of a
    big user's rows, and reading every key took ~18 ms of a 30 ms search at 10,000 keys."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        user_id: str,
        scope: SearchScope,
        ranked: list[tuple[int, float]],
    ) -> None:
        self._conn, self._user_id, self._ranked = conn, user_id, ranked
        self._filters, self._params = _key_filters(scope)
        self._read = 0  # rows of `ranked` looked up
        self._passed: list[tuple[str, str, float]] = []

    def fetch(self, depth: int) -> tuple[list[Candidate], bool]:
        """The best key per record among the top `3 * depth` passing keys; and whether
        more keys may pass beyond them."""
        want = depth * 3
        while len(self._passed) < want and self._read < len(self._ranked):
            chunk = self._ranked[self._read : self._read + 2 * max(want - len(self._passed), 32)]
            self._read += len(chunk)
            found = self._conn.execute(
                "SELECT id, record_id, trace FROM search_keys WHERE id IN "
                f"({_LISTED}) AND +user_id = ?{self._filters}",
                [json.dumps([rowid for rowid, _ in chunk]), self._user_id, *self._params],
            ).fetchall()
            keys = {row[0]: (row[1], row[2]) for row in found}
            self._passed += [(*keys[rowid], score) for rowid, score in chunk if rowid in keys]
        more = len(self._passed) > want or self._read < len(self._ranked)
        return _best_per_record(self._passed[:want], want)[0], more


def _key_filters(scope: SearchScope) -> tuple[str, list[object]]:
    """SQL (and its parameters) keeping the search keys of the scope's kinds, session and
    traces."""
    sql, params = "", list[object]()
    if scope.kinds is not None:
        sql += f" AND kind IN ({','.join('?' * len(scope.kinds))})"
        params.extend(scope.kinds)
    if scope.session_id is not None:
        sql += " AND session_id = ?"
        params.append(scope.session_id)
    if scope.traces is not None and not set(scope.traces) >= ALL_TRACES:
        sql += f" AND trace IN ({','.join('?' * len(scope.traces))})"
        params.extend(scope.traces)
    return sql, params


# The full-text table of each searchable column: the keys' text, or their glosses.
_FTS_OF = {"body": "fts", "gloss": "fts_gloss"}
ALL_TRACES = frozenset({"episode", "fact", "scene"})


def _best_per_record(rows: Sequence[Sequence[Any]], asked: int) -> tuple[list[Candidate], bool]:
    """The best key per record; and whether the query may have more rows than `asked`."""
    best: dict[str, Candidate] = {}
    for row in rows:
        if row[0] not in best:
            best[row[0]] = Candidate(row[0], row[1], float(row[2]))
    return list(best.values()), len(rows) >= asked


_LISTED = "SELECT value FROM json_each(?)"  # the ids of a JSON array parameter


def in_window(
    conn: sqlite3.Connection, user_id: str, ids: Sequence[str], start: datetime, end: datetime
) -> list[str]:
    """The ids (episodes said, memories valid from) in [start, end), in the order given.
    The ids travel as one JSON array: a deep search has more than SQLite's variable limit."""
    ids = list(dict.fromkeys(ids))
    if not ids:
        return []
    listed = json.dumps(ids)
    lo, hi = ts(start), ts(end)
    rows = conn.execute(
        f"SELECT id FROM episodes WHERE +user_id = ? AND id IN ({_LISTED}) AND occurred_at >= ? "
        f"AND occurred_at < ? UNION ALL SELECT id FROM memories WHERE +user_id = ? "
        f"AND id IN ({_LISTED}) AND valid_from >= ? AND valid_from < ?",
        (user_id, listed, lo, hi, user_id, listed, lo, hi),
    )
    inside = {r[0] for r in rows}
    return [i for i in ids if i in inside]


def allowed_ids(
    conn: sqlite3.Connection, user_id: str, ids: Sequence[str], scope: SearchScope
) -> set[str]:
    """The subset of candidate ids that the scope admits (kind, session, validity, metadata)."""
    if not ids:
        return set()
    listed = json.dumps(list(ids))  # one parameter: a deep search passes many ids
    common_sql, common_params = _metadata_filter(scope)
    if scope.session_id is not None:
        common_sql += " AND session_id = ?"
        common_params.append(scope.session_id)
    found: set[str] = set()
    if scope.kinds is None or "episode" in scope.kinds:
        sql = f"SELECT id FROM episodes WHERE +user_id = ? AND id IN ({_LISTED}){common_sql}"
        params: list[object] = [user_id, listed, *common_params]
        if scope.occurred_before is not None:
            sql += " AND occurred_at <= ?"
            params.append(ts(scope.occurred_before))
        found |= {r[0] for r in conn.execute(sql, params)}
    mem_sql, mem_params = _memory_validity(scope)
    if scope.kinds is not None:
        mem_sql += f" AND kind IN ({','.join('?' * len(scope.kinds))})"
        mem_params.extend(scope.kinds)
    sql = f"SELECT id FROM memories WHERE +user_id = ? AND id IN ({_LISTED}){common_sql}{mem_sql}"
    found |= {r[0] for r in conn.execute(sql, [user_id, listed, *common_params, *mem_params])}
    return found


def _metadata_filter(scope: SearchScope) -> tuple[str, list[object]]:
    sql = ""
    params: list[object] = []
    # The key is compared as a value, not spelled into a JSON path: a path cannot quote a
    # key holding `"`, which then matched nothing.
    for key, value in scope.metadata.items():
        if value is None:  # a stored null's value is SQL NULL, equal to nothing
            sql += " AND EXISTS (SELECT 1 FROM json_each(metadata) WHERE key = ? AND type = 'null')"
            params.append(key)
            continue
        sql += (
            " AND EXISTS (SELECT 1 FROM json_each(metadata) WHERE key = ? "
            "AND value = json_extract(?, '$'))"
        )
        params.extend([key, json.dumps(value)])
    return sql, params


def _memory_validity(scope: SearchScope) -> tuple[str, list[object]]:
    sql = "" if scope.include_archived else " AND archived = 0"
    if scope.include_invalid:
        return sql, []
    if scope.valid_at is None:
        return sql + " AND invalidated_at IS NULL AND valid_to IS NULL", []
    at = ts(scope.valid_at)
    sql += (
        " AND (valid_from IS NULL OR valid_from <= ?) AND (valid_to IS NULL OR valid_to > ?)"
        " AND (invalidated_at IS NULL OR invalidated_at > ?)"
        " AND (expire_at IS NULL OR expire_at > ?)"
    )
    return sql, [at, at, at, at]
