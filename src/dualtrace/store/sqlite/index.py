"""The SearchIndex role in SQLite: search keys (rows, FTS bodies, vectors) and the channels.

`write_keys` / `drop_keys` are called inside the writing role's transaction (episodes,
memories, deletion), so a record and its keys change together. The channels' SQL lives in
search.py (dense, lexical, scope filters) and graph.py (entities); here they are run on a
search thread's read connection and filtered by scope.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import partial

from dualtrace.models import Candidate
from dualtrace.store.base import IndexEntry, SearchScope, Vector
from dualtrace.store.languages import key_language
from dualtrace.store.ports.records import LanguageHits, LanguageQuery
from dualtrace.store.sqlite import bm25, codec
from dualtrace.store.sqlite import graph as graph_sql
from dualtrace.store.sqlite.connection import FTS_TABLES, SQLiteConnection
from dualtrace.store.sqlite.search import (
    allowed_ids,
    deepened,
    in_window,
    lexical_search,
    scope_token,
)

# Entity hits whose links the structural channel follows (one hop), best first.
HOP_SOURCES = 20

# The stored key a key given to `add_vectors` is (its parameters: user, record, trace, chunk,
# content hash).
_SAME_KEY = "user_id = ? AND record_id = ? AND trace = ? AND chunk = ? AND content_hash = ?"


def write_keys(conn: sqlite3.Connection, user_id: str, keys: Sequence[IndexEntry]) -> None:
    """Insert search keys (row with the text's language, FTS body, vector tagged with the
    store's embedder)."""
    if not keys:
        return
    token = scope_token(user_id)
    texts: dict[str, list[tuple[int, str]]] = {"fts": [], "fts_gloss": []}
    for key in keys:
        vector = None if key.vector is None else codec.blob(key.vector)
        dim = None if key.vector is None else int(key.vector.shape[0])
        cur = conn.execute(
            "INSERT INTO search_keys (user_id, record_id, trace, chunk, kind, session_id, "
            "content_hash, embedder_id, dim, vector, xvector, language) VALUES (?, ?, ?, ?, ?, "
            "?, ?, (SELECT value FROM store_meta WHERE key = 'embedder_id'), ?, ?, ?, ?)",
            (
                user_id,
                key.record_id,
                key.trace,
                key.chunk,
                key.kind,
                key.session_id,
                key.content_hash,
                dim,
                vector,
                None if key.xvector is None else codec.half_blob(key.xvector),
                key.language or key_language(key.body),
            ),
        )
        rowid = int(cur.lastrowid or 0)
        conn.execute(
            "INSERT INTO fts (rowid, scope, body, user_id) VALUES (?, ?, ?, ?)",
            (rowid, token, key.body, user_id),
        )
        texts["fts"].append((rowid, key.body))
        if key.gloss:
            conn.execute(
                "INSERT INTO fts_gloss (rowid, scope, gloss, user_id) VALUES (?, ?, ?, ?)",
                (rowid, token, key.gloss, user_id),
            )
            texts["fts_gloss"].append((rowid, key.gloss))
    for table, rows in texts.items():  # each row's terms and counts, for BM25 (bm25.py)
        bm25.store_terms(conn, user_id, table, rows)
    bump(conn, user_id)


def drop_keys(conn: sqlite3.Connection, user_id: str, record_id: str) -> None:
    """Delete a record's search keys, their FTS bodies and glosses, and their term counts."""
    conn.execute(
        "DELETE FROM fts_terms WHERE key_id IN "
        "(SELECT id FROM search_keys WHERE user_id = ? AND record_id = ?) AND user_id = ?",
        (user_id, record_id, user_id),
    )
    for table in FTS_TABLES:
        conn.execute(
            f"DELETE FROM {table} WHERE rowid IN "
            "(SELECT id FROM search_keys WHERE user_id = ? AND record_id = ?)",
            (user_id, record_id),
        )
    conn.execute(
        "DELETE FROM search_keys WHERE user_id = ? AND record_id = ?", (user_id, record_id)
    )
    bump(conn, user_id)


def bump(conn: sqlite3.Connection, user_id: str) -> None:
    """Move the user's index version forward (what searches may find has changed)."""
    # Versions come from one store-wide counter, so a user deleted and re-created never
    # repeats a version another process may still have cached.
    conn.execute(
        "INSERT INTO store_meta (key, value) VALUES ('index_seq', '1') "
        "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
    )
    conn.execute(
        "INSERT INTO index_versions (user_id, version) VALUES (?, "
        "(SELECT CAST(value AS INTEGER) FROM store_meta WHERE key = 'index_seq')) "
        "ON CONFLICT(user_id) DO UPDATE SET version = excluded.version",
        (user_id,),
    )
    # the dense cache notices the new version and reads only what changed


class SQLiteIndex(SQLiteConnection):
    """SearchIndex: key reuse and rebuilds, and the dense, lexical, entity and time channels."""

    def vectors_by_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, Vector]:
        """Vectors this user already has for these content hashes (reuse, never re-embed)."""
        rows = self._read_in(
            "SELECT content_hash, dim, vector FROM search_keys WHERE user_id = ? "
            "AND vector IS NOT NULL AND content_hash IN ({marks})",
            user_id,
            hashes,
        )
        return {r[0]: codec.unblob(r[2], r[1]) for r in rows}

    def xvectors_by_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, Vector]:
        """Cross-lingual vectors this user already has for these content hashes."""
        rows = self._read_in(
            "SELECT content_hash, xvector FROM search_keys WHERE user_id = ? "
            "AND xvector IS NOT NULL AND content_hash IN ({marks})",
            user_id,
            hashes,
        )
        return {r[0]: codec.unhalf(r[1]) for r in rows}

    def key_languages(self, user_id: str) -> dict[str, int]:
        """Keys with a vector by language, from the user's cached dense matrix."""
        with self._reading() as conn:
            row = conn.execute("SELECT value FROM store_meta WHERE key = 'embedder_dim'").fetchone()
            if row is None:  # no embedder bound yet: no vectors
                return {}
            return self._dense.languages(conn, user_id, int(row[0]))

    def records_lacking_xvectors(self, user_id: str, limit: int) -> list[str]:
        """Records with a key that has a vector but no cross-lingual one, by id."""
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT DISTINCT record_id FROM search_keys WHERE user_id = ? AND vector IS "
                "NOT NULL AND xvector IS NULL ORDER BY record_id LIMIT ?",
                (user_id, limit),
            ).fetchall()
        return [r[0] for r in rows]

    def replace_keys(self, user_id: str, record_id: str, keys: Sequence[IndexEntry]) -> None:
        """Rebuild a record's search keys (its text unchanged) and scrub the old ones."""
        with self._tx() as conn:
            drop_keys(conn, user_id, record_id)
            write_keys(conn, user_id, keys)
            self._mark_scrub(conn)
        self._scrub()

    def add_vectors(self, user_id: str, keys: Sequence[IndexEntry]) -> int:
        """Give stored keys without a vector (or without a cross-lingual one) the vectors of
        these keys (same record, trace, chunk and content hash); returns how many keys got
        one. No text changes, so nothing to scrub."""
        count = 0
        with self._tx() as conn:
            for key in keys:
                where = (user_id, key.record_id, key.trace, key.chunk, key.content_hash)
                got = 0
                if key.vector is not None:
                    got = conn.execute(
                        "UPDATE search_keys SET vector = ?, dim = ?, embedder_id = "
                        "(SELECT value FROM store_meta WHERE key = 'embedder_id') WHERE "
                        f"{_SAME_KEY} AND vector IS NULL",
                        (codec.blob(key.vector), int(key.vector.shape[0]), *where),
                    ).rowcount
                if key.xvector is not None:  # and the language of its own words, which keys
                    # written before were not labelled by (`IndexEntry.language`)
                    got |= conn.execute(
                        "UPDATE search_keys SET xvector = ?, language = COALESCE(NULLIF(?, ''), "
                        f"language) WHERE {_SAME_KEY} AND xvector IS NULL",
                        (codec.half_blob(key.xvector), key.language, *where),
                    ).rowcount
                count += got
            if count:
                bump(conn, user_id)
        return count

    def search_dense_languages(
        self,
        user_id: str,
        queries: Mapping[str, LanguageQuery],
        limit: int,
        scope: SearchScope,
    ) -> dict[str, LanguageHits]:
        """Each language's nearest records to its query, and how it scores all its keys."""
        if not queries:
            return {}
        dim = int(next(iter(queries.values())).vector.shape[0])
        with self._reading() as conn:
            admit = partial(_admit, conn, user_id, limit=limit, scope=scope)
            return self._dense.search_languages(conn, user_id, dim, queries, limit, scope, admit)

    def search_dense(
        self,
        user_id: str,
        vector: Vector,
        limit: int,
        scope: SearchScope,
        *,
        language_offset: Mapping[str, float] | None = None,
    ) -> list[Candidate]:
        """Nearest keys by cosine similarity (plus their language's offset), filtered by
        scope."""
        return self.search_dense_many(
            user_id, [vector], limit, scope, language_offset=language_offset
        )[0]

    def search_dense_many(
        self,
        user_id: str,
        vectors: Sequence[Vector],
        limit: int,
        scope: SearchScope,
        *,
        language_offset: Mapping[str, float] | None = None,
    ) -> list[list[Candidate]]:
        """`search_dense` for several vectors at once (one pass over the user's vectors)."""
        with self._reading() as conn:
            admit = partial(_admit, conn, user_id, limit=limit, scope=scope)
            return self._dense.search_many(
                conn, user_id, vectors, limit, scope, admit, language_offset or {}
            )

    def search_lexical(
        self,
        user_id: str,
        terms: Sequence[str],
        limit: int,
        scope: SearchScope,
        *,
        glosses: bool = False,
    ) -> list[Candidate]:
        """BM25 matches for the terms (in the keys' glosses with `glosses`), filtered by scope."""
        column = "gloss" if glosses else "body"
        with self._reading() as conn:
            admit = partial(_admit, conn, user_id, limit=limit, scope=scope)
            return lexical_search(
                conn, user_id, terms, limit, scope, admit, column, self._lengths, self._terms
            )

    def search_entities(
        self,
        user_id: str,
        canonicals: Sequence[str],
        limit: int,
        scope: SearchScope,
        max_share: float = 0.2,
    ) -> list[Candidate]:
        """Memories of these entities, scored by the entities' rarity (idf), filtered by scope."""
        with self._reading() as conn:

            def fetch(depth: int) -> tuple[list[Candidate], bool]:
                found = graph_sql.search_entities(conn, user_id, canonicals, depth, max_share)
                return found + _one_hop(conn, user_id, found), len(found) >= 3 * depth

            admit = partial(_admit, conn, user_id, limit=limit, scope=scope)
            return deepened(fetch, admit, limit, limit)

    def search_time(
        self,
        user_id: str,
        start: datetime,
        end: datetime,
        limit: int,
        scope: SearchScope,
        among: Sequence[str] = (),
    ) -> list[Candidate]:
        """Records that happened in [start, end) (episodes said then, memories valid from
        then): those of `among` first, then up to `limit` more, newest first. A busy window
        holds more records than `limit`; `among` makes sure the candidates the other
        channels found are judged by their time, not by whether they were among the newest."""
        lo, hi = codec.ts(start), codec.ts(end)
        with self._reading() as conn:
            inside = [
                Candidate(i, "time", 1.0) for i in in_window(conn, user_id, among, start, end)
            ]
            known = {c.record_id for c in inside}
            admitted = _admit(conn, user_id, inside, len(inside), scope)

            def fetch(depth: int) -> tuple[list[Candidate], bool]:
                rows = conn.execute(
                    "SELECT id, t FROM (SELECT id, occurred_at AS t FROM episodes "
                    "WHERE user_id = ? AND occurred_at >= ? AND occurred_at < ? UNION ALL "
                    "SELECT id, valid_from AS t FROM memories WHERE user_id = ? "
                    "AND valid_from >= ? AND valid_from < ?) ORDER BY t DESC LIMIT ?",
                    (user_id, lo, hi, user_id, lo, hi, depth * 3),
                ).fetchall()
                newest = [Candidate(r[0], "time", 1.0) for r in rows if r[0] not in known]
                return newest, len(rows) >= depth * 3

            room = len(inside) + limit - len(admitted)  # as many as before among's refusals
            admit = partial(_admit, conn, user_id, limit=room, scope=scope)
            return admitted + deepened(fetch, admit, room, limit)


def _one_hop(conn: sqlite3.Connection, user_id: str, found: list[Candidate]) -> list[Candidate]:
    """Memories linked to the entity hits, at half their score (one hop along links)."""
    score = {c.record_id: c.score for c in found[:HOP_SOURCES]}
    already = {c.record_id for c in found}
    hop: dict[str, float] = {}
    for src, dst, _ in graph_sql.neighbours(conn, user_id, list(score)):
        if dst not in already:
            hop[dst] = max(hop.get(dst, 0.0), 0.5 * score[src])
    return [Candidate(mid, "link", value) for mid, value in hop.items()]


def _admit(
    conn: sqlite3.Connection,
    user_id: str,
    found: list[Candidate],
    limit: int,
    scope: SearchScope,
) -> list[Candidate]:
    """The candidates the scope admits, in order, at most `limit`."""
    ok = allowed_ids(conn, user_id, [c.record_id for c in found], scope)
    return [c for c in found if c.record_id in ok][:limit]
