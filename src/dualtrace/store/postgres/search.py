"""Dense and lexical retrieval for the PostgreSQL store, and the scope filters.

Dense search: a user's keys are searched exactly (`ORDER BY` the cosine similarity, an
expression no index serves, over the user's rows found by their btree index) while the user
has at most `graphs.GRAPH_FROM` keys, or no graph of their own yet; beyond that, through the
user's own HNSW graph, a partial index over their keys alone (graphs.py says why, and when
it is built), with pgvector's iterative scan (`hnsw.iterative_scan = relaxed_order`) so the
walk goes on until enough keys pass the scope's filters (kinds, session, traces). The rows
it returns are re-sorted by score, since relaxed order may return them slightly out of
order. Exact search costs ~2 µs a key (a 10,000-key user in a 1M-key table: 61.0 / 96.7 ms
p50 / p95 with the lexical channel, `bench/scale.py`). The walk's candidate list: ef_search
800; a user's own graph of 30,000 random 384-dimension vectors gave recall@50 1.000 at 200,
400 and 800, of 30,000 real e5-small vectors 0.996 at 400 and 0.998 at 800, 20 -> 25 ms
(docs/notebook.md).

Lexical search: each key's text is indexed as a tsvector: its Latin-script words through
the `english` configuration (stemming, stop words), its Chinese words — segmented by the
caller with jieba, space-separated in `IndexEntry.body` — through `simple` (one lexeme per
word, as segmented). A query term goes through the configuration of its script, a key
matches if any term does, and matches are ranked in BM25's shape: the sum over the terms it
holds of the term's idf among the user's keys times `ts_rank` (its frequency, normalised by
the key's length: log2(1 + length)), as a share of a full match; see `lexical_sql`. Glosses
(a key's words in the other language) have their own tsvector column, ranked on their own,
as SQLite keeps them in their own FTS table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from dualtrace.cjk import CJK_RUN, has_cjk
from dualtrace.models import Candidate
from dualtrace.store.base import SearchScope, Vector
from dualtrace.store.languages import Cosines, standardising
from dualtrace.store.ports.records import LanguageHits, LanguageQuery
from dualtrace.store.postgres import codec, graphs
from dualtrace.store.postgres.connection import Cursor

Admit = Callable[[list[Candidate]], list[Candidate]]
Fetch = Callable[[int], tuple[list[Candidate], bool]]

# See the SQLite store's search.py: how much deeper than asked a channel may read.
DEEPEST = 64
ALL_TRACES = frozenset({"episode", "fact", "scene"})

# Iterative HNSW scans: the candidate list (pgvector allows up to 1,000), and how many index
# tuples a scan may visit.
EF_SEARCH = 800
MAX_SCAN_TUPLES = 200_000


def deepened(fetch: Fetch, admit: Admit, want: int, depth: int) -> list[Candidate]:
    """Up to `want` admitted candidates, best first: the channel's top keys are read to
    `depth`, then four times deeper while too few pass and the channel has more."""
    deepest = depth * DEEPEST
    while True:
        found, more = fetch(depth)
        kept = admit(found)
        if len(kept) >= want or not more or depth >= deepest:
            return kept[:want]
        depth *= 4


def split_scripts(text: str) -> tuple[str, str]:
    """(Latin-script part, Chinese part) of a text whose Chinese is segmented with spaces."""
    return CJK_RUN.sub(" ", text), " ".join(CJK_RUN.findall(text))


TSVECTOR_SQL = "(to_tsvector('english', %s) || to_tsvector('simple', %s))"


def _key_filters(scope: SearchScope) -> tuple[str, list[Any]]:
    sql, params = "", list[Any]()
    if scope.kinds is not None:
        sql += " AND kind = ANY(%s)"
        params.append(list(scope.kinds))
    if scope.session_id is not None:
        sql += " AND session_id = %s"
        params.append(scope.session_id)
    if scope.traces is not None and not set(scope.traces) >= ALL_TRACES:
        sql += " AND trace = ANY(%s)"
        params.append(list(scope.traces))
    return sql, params


def _best_per_record(rows: Sequence[Any], asked: int) -> tuple[list[Candidate], bool]:
    """The best key per record; and whether the query may have more rows than `asked`."""
    best: dict[str, Candidate] = {}
    for row in rows:
        if row[0] not in best:
            best[row[0]] = Candidate(row[0], row[1], float(row[2]))
    return list(best.values()), len(rows) >= asked


# -- dense -------------------------------------------------------------------------------------


def dense_search(
    cur: Cursor,
    user_id: str,
    vectors: Sequence[Vector],
    limit: int,
    scope: SearchScope,
    admit: Admit,
    language_offset: Mapping[str, float] | None = None,
) -> list[list[Candidate]]:
    """For each vector, the nearest keys by cosine similarity (plus the offset of the key's
    language, `store.languages.key_language` of its text, stored as `language`), best key
    per record, read deeper until `limit` records pass `admit` (exact or through the index:
    the module's docstring says which, by the user's number of keys; through the index the
    offset re-ranks the nearest keys the walk found)."""
    row = cur.execute("SELECT count(*) FROM search_keys WHERE user_id = %s", (user_id,)).fetchone()
    count = int(row[0]) if row is not None else 0
    if count == 0:
        return [[] for _ in vectors]
    exact = count <= graphs.GRAPH_FROM or not graphs.has_graph(cur, user_id)
    if not exact:
        through_index(cur)
    offset = _offset_sql(language_offset or {})
    found = []
    for vector in vectors:
        query = codec.vector_text(vector)
        fetch = partial(_dense_keys, cur, user_id, query, scope, exact, offset)
        found.append(deepened(fetch, admit, limit, limit))
    return found


def _offset_sql(language_offset: Mapping[str, float]) -> tuple[str, list[Any]]:
    """The SQL term adding each key's language offset to its score, and its parameters."""
    given = [(lang, float(value)) for lang, value in sorted(language_offset.items()) if value]
    if not given:
        return "", []
    whens = " ".join("WHEN %s THEN %s::double precision" for _ in given)
    return f" + CASE language {whens} ELSE 0 END", [x for pair in given for x in pair]


def through_index(cur: Cursor) -> None:
    """For the rest of the transaction, nearest-neighbour queries walk an HNSW index with
    iterative scans. Sorting is priced out so the planner walks the user's graph rather than
    sort the user's rows found through a btree (which it may prefer when its statistics
    underrate the user, and which is the exact search this path exists to avoid)."""
    cur.execute(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
        "set_config('hnsw.ef_search', %s, true), set_config('hnsw.max_scan_tuples', %s, true), "
        "set_config('enable_sort', 'off', true)",
        (str(EF_SEARCH), str(MAX_SCAN_TUPLES)),
    )


def _dense_keys(
    cur: Cursor,
    user_id: str,
    query: str,
    scope: SearchScope,
    exact: bool,
    offset: tuple[str, list[Any]],
    limit: int,
) -> tuple[list[Candidate], bool]:
    filters, params = _key_filters(scope)
    term, values = offset
    if exact:
        sql = (
            f"SELECT record_id, trace, 1 - (vector <=> %s::halfvec){term} AS score FROM "
            f"search_keys WHERE user_id = %s AND vector IS NOT NULL{filters} "
            "ORDER BY score DESC, id LIMIT %s"
        )
        rows = cur.execute(sql.encode(), [query, *values, user_id, *params, limit * 3]).fetchall()
    else:
        # the user id as a literal: what lets the planner prove the user's partial index
        # (graphs.py) applies
        user = graphs.user_literal(user_id)
        sql = (
            f"SELECT record_id, trace, 1 - d{term} AS score FROM (SELECT record_id, trace, id, "
            f"language, vector <=> %s::halfvec AS d FROM search_keys WHERE user_id = {user} "
            f"AND vector IS NOT NULL{filters} ORDER BY vector <=> %s::halfvec LIMIT %s) near "
            "ORDER BY score DESC, id"
        )
        rows = cur.execute(sql.encode(), [*values, query, *params, query, limit * 3]).fetchall()
    return _best_per_record(rows, limit * 3)


@dataclass(frozen=True)
class LanguageStats:
    """How a query's vectors score a set of keys (one language's, or all the user's): how
    many keys there are, how many have a cross-lingual vector, the main cosines' mean and
    variance over all of them and over those with both vectors, and the cross-lingual
    cosines' mean and variance."""

    keys: int
    crossed: int
    main: Cosines
    main_crossed: Cosines
    cross: Cosines


def language_stats(
    cur: Cursor, user_id: str, vector: Vector, crosslingual: Vector | None
) -> dict[str | None, LanguageStats]:
    """`LanguageStats` of each key language and (under None) of all the user's keys, read
    in one pass over the user's keys."""
    rows = cur.execute(
        "SELECT GROUPING(language), language, count(*), count(xvector), avg(mc), var_pop(mc), "
        "avg(mc) FILTER (WHERE xvector IS NOT NULL), var_pop(mc) FILTER (WHERE xvector IS "
        "NOT NULL), avg(xc), var_pop(xc) FROM (SELECT language, xvector, 1 - (vector <=> "
        "%s::halfvec) AS mc, 1 - (xvector <=> %s::halfvec) AS xc FROM search_keys WHERE "
        "user_id = %s AND vector IS NOT NULL) AS k GROUP BY GROUPING SETS ((language), ())",
        (
            codec.vector_text(vector),
            None if crosslingual is None else codec.vector_text(crosslingual),
            user_id,
        ),
    ).fetchall()
    return {
        None if total else language: LanguageStats(
            int(n),
            int(nx),
            Cosines(int(n), float(m or 0.0), float(v or 0.0)),
            Cosines(int(nx), float(mx or 0.0), float(vx or 0.0)),
            Cosines(int(nx), float(xm or 0.0), float(xv or 0.0)),
        )
        for total, language, n, nx, m, v, mx, vx, xm, xv in rows
    }


def language_search(
    cur: Cursor,
    user_id: str,
    language: str,
    query: LanguageQuery,
    stats: Mapping[str | None, LanguageStats],
    limit: int,
    scope: SearchScope,
    admit: Admit,
) -> LanguageHits:
    """The best records among the user's keys in `language` by the query's standardised
    score (`LanguageQuery`), exact, read deeper until `limit` pass `admit`; `stats`: how the
    query scores each language's keys and all of them (`language_stats`)."""
    mine, every = stats.get(language), stats.get(None)
    if mine is None or every is None:  # no key in this language (or none at all)
        return LanguageHits([], 0, 0)
    crossed = query.crosslingual is not None
    usable = mine.crossed if crossed else mine.keys
    missing = mine.keys - usable
    if not usable:
        return LanguageHits([], mine.keys, missing)
    main = codec.vector_text(query.vector)
    # the main cosines among the keys scored: those with both vectors when both are asked
    if crossed:
        mean, spread = standardising(mine.main_crossed, every.main_crossed)
    else:
        mean, spread = standardising(mine.main, every.main)
    score = "(1 - (vector <=> %s::halfvec) - %s) / %s"
    values: list[Any] = [main, mean, spread]
    both = ""
    if query.crosslingual is not None:
        xmean, xspread = standardising(mine.cross, every.cross)
        score = f"%s * {score} + %s * (1 - (xvector <=> %s::halfvec) - %s) / %s"
        cross = codec.vector_text(query.crosslingual)
        values = [1 - query.share, *values, query.share, cross, xmean, xspread]
        both = "AND xvector IS NOT NULL"
    filters, params = _key_filters(scope)

    def fetch(depth: int) -> tuple[list[Candidate], bool]:
        sql = (
            f"SELECT record_id, trace, {score} AS score FROM search_keys WHERE user_id = %s "
            f"AND language = %s AND vector IS NOT NULL {both}{filters} "
            "ORDER BY score DESC, id LIMIT %s"
        )
        rows = cur.execute(sql.encode(), [*values, user_id, language, *params, depth * 3])
        return _best_per_record(rows.fetchall(), depth * 3)

    return LanguageHits(deepened(fetch, admit, limit, limit), mine.keys, missing)


# -- lexical ------------------------------------------------------------------------------------


def lexical_sql(terms: Sequence[str], column: str, filters: str) -> tuple[str, list[str]]:
    """The ranking query for `terms` (their parameters first; then the user id twice, the
    filters' parameters and the limit): each term a phrase in its script's configuration,
    matched if any term is, scored Σ idf(term) · ts_rank(key, term) — BM25's shape, with
    each term's idf counted among the user's keys, so a rare term outweighs a common one —
    as a share of a full match, as on SQLite: over the score of a key of the matched keys'
    mean length holding every term once (`ts_rank` of one word, length-normalised).
    The counts are MATERIALIZED: the planner cannot size `m` and would otherwise recount
    them for every matched key (2.9 s instead of ms for a 5,000-key user)."""
    queries, params = [], []
    for i, term in enumerate(terms):
        config = "simple" if has_cjk(term) else "english"
        queries.append(f"phraseto_tsquery('{config}', %s) AS q{i}")
        params.append(term)
    n = range(len(terms))
    idf = [f"ln(1 + (total - d{i} + 0.5) / (d{i} + 0.5))" for i in n]
    score = " + ".join(
        f"CASE WHEN v @@ q{i} THEN {idf[i]} * ts_rank(v, q{i}, 1) ELSE 0 END" for i in n
    )
    # a term that is all stop words makes an empty query: it can match nothing, and weighs
    # nothing in the full match either
    full = " + ".join(f"CASE WHEN numnode(q{i}) > 0 THEN {idf[i]} ELSE 0 END" for i in n)
    sql = (
        f"WITH q AS (SELECT {', '.join(queries)}), "
        f"m AS MATERIALIZED (SELECT k.id, k.record_id, k.trace, k.kind, k.session_id, "
        f"k.{column} AS v FROM search_keys k, q WHERE k.user_id = %s "
        f"AND k.{column} @@ ({' || '.join(f'q{i}' for i in n)})), "
        f"df AS MATERIALIZED (SELECT "
        f"{', '.join(f'count(*) FILTER (WHERE v @@ q{i}) AS d{i}' for i in n)} FROM m, q), "
        "total AS MATERIALIZED (SELECT count(*) AS total FROM search_keys WHERE user_id = %s), "
        "ideal AS MATERIALIZED (SELECT ts_rank('x:1'::tsvector, 'x'::tsquery, 0)::float8 "
        "* ln(2.0) / ln(avg(length(v))::float8 + 1) AS one FROM m) "
        f"SELECT record_id, trace, ({score}) / (({full}) * one) AS score "
        f"FROM m, q, df, total, ideal WHERE true{filters} "
        "ORDER BY score DESC, id LIMIT %s"
    )
    return sql, params


def lexical_search(
    cur: Cursor,
    user_id: str,
    terms: Sequence[str],
    limit: int,
    scope: SearchScope,
    admit: Admit,
    column: str,
) -> list[Candidate]:
    """Full-text matches of any term in `column` ("tsv": the keys' text; "gloss_tsv":
    their words in the other language), best key per record, best first (`lexical_sql`)."""
    if not terms:
        return []
    filters, filter_params = _key_filters(scope)
    sql, params = lexical_sql(terms, column, filters)

    def fetch(depth: int) -> tuple[list[Candidate], bool]:
        rows = cur.execute(
            sql.encode(), [*params, user_id, user_id, *filter_params, depth * 3]
        ).fetchall()
        return _best_per_record(rows, depth * 3)

    return deepened(fetch, admit, limit, limit)


# -- scope filters ------------------------------------------------------------------------------


def in_window(
    cur: Cursor, user_id: str, ids: Sequence[str], start: datetime, end: datetime
) -> list[str]:
    """The ids (episodes said, memories valid from) in [start, end), in the order given."""
    ids = list(dict.fromkeys(ids))
    if not ids:
        return []
    rows = cur.execute(
        "SELECT id FROM episodes WHERE user_id = %s AND id = ANY(%s) AND occurred_at >= %s "
        "AND occurred_at < %s UNION ALL SELECT id FROM memories WHERE user_id = %s "
        "AND id = ANY(%s) AND valid_from >= %s AND valid_from < %s",
        (user_id, ids, start, end, user_id, ids, start, end),
    ).fetchall()
    inside = {r[0] for r in rows}
    return [i for i in ids if i in inside]


def allowed_ids(cur: Cursor, user_id: str, ids: Sequence[str], scope: SearchScope) -> set[str]:
    """The subset of candidate ids that the scope admits (kind, session, validity, metadata)."""
    if not ids:
        return set()
    listed = list(ids)
    common_sql, common_params = _metadata_filter(scope)
    if scope.session_id is not None:
        common_sql += " AND session_id = %s"
        common_params.append(scope.session_id)
    found: set[str] = set()
    if scope.kinds is None or "episode" in scope.kinds:
        sql = f"SELECT id FROM episodes WHERE user_id = %s AND id = ANY(%s){common_sql}"
        params: list[Any] = [user_id, listed, *common_params]
        if scope.occurred_before is not None:
            sql += " AND occurred_at <= %s"
            params.append(scope.occurred_before)
        found |= {r[0] for r in cur.execute(sql.encode(), params).fetchall()}
    mem_sql, mem_params = _memory_validity(scope)
    if scope.kinds is not None:
        mem_sql += " AND kind = ANY(%s)"
        mem_params.append(list(scope.kinds))
    sql = f"SELECT id FROM memories WHERE user_id = %s AND id = ANY(%s){common_sql}{mem_sql}"
    rows = cur.execute(sql.encode(), [user_id, listed, *common_params, *mem_params]).fetchall()
    return found | {r[0] for r in rows}


def _metadata_filter(scope: SearchScope) -> tuple[str, list[Any]]:
    sql = ""
    params: list[Any] = []
    for key, value in scope.metadata.items():
        # a stored JSON null equals 'null'; a missing key is SQL NULL, equal to nothing
        sql += " AND metadata -> %s = %s::jsonb"
        params.extend([key, json.dumps(value)])
    return sql, params


def _memory_validity(scope: SearchScope) -> tuple[str, list[Any]]:
    sql = "" if scope.include_archived else " AND NOT archived"
    if scope.include_invalid:
        return sql, []
    if scope.valid_at is None:
        return sql + " AND invalidated_at IS NULL AND valid_to IS NULL", []
    at = scope.valid_at
    sql += (
        " AND (valid_from IS NULL OR valid_from <= %s) AND (valid_to IS NULL OR valid_to > %s)"
        " AND (invalidated_at IS NULL OR invalidated_at > %s)"
        " AND (expire_at IS NULL OR expire_at > %s)"
    )
    return sql, [at, at, at, at]
