"""The SearchIndex role in PostgreSQL: search keys (rows, tsvectors, vectors) and the channels.

`write_keys` / `drop_keys` run inside the writing role's transaction (episodes, memories,
deletion), so a record and its keys change together. The channels' SQL is in search.py
(dense, lexical, scope filters) and graph.py (entities); each search is one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import partial

from dualtrace.models import Candidate
from dualtrace.store.base import IndexEntry, SearchScope, Vector
from dualtrace.store.languages import key_language
from dualtrace.store.ports.records import LanguageHits, LanguageQuery
from dualtrace.store.postgres import codec
from dualtrace.store.postgres import graph as graph_sql
from dualtrace.store.postgres.connection import Cursor, PostgresConnection
from dualtrace.store.postgres.search import (
    TSVECTOR_SQL,
    LanguageStats,
    allowed_ids,
    deepened,
    dense_search,
    in_window,
    language_search,
    language_stats,
    lexical_search,
    split_scripts,
)

# Entity hits whose links the structural channel follows (one hop), best first.
HOP_SOURCES = 20

# The stored key a key given to `add_vectors` is (its parameters: user, record, trace, chunk,
# content hash).
_SAME_KEY = "user_id = %s AND record_id = %s AND trace = %s AND chunk = %s AND content_hash = %s"


def write_keys(cur: Cursor, user_id: str, keys: Sequence[IndexEntry]) -> None:
    """Insert search keys: row, text and gloss tsvectors (and the texts themselves, for a
    copy to another backend), the text's language, vector tagged with the embedder."""
    if not keys:
        return
    cur.executemany(
        "INSERT INTO search_keys (user_id, record_id, trace, chunk, kind, session_id, "
        "content_hash, embedder_id, vector, xvector, tsv, gloss_tsv, body, gloss, language) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, (SELECT value FROM store_meta WHERE key = "
        f"'embedder_id'), %s::halfvec, %s::halfvec, {TSVECTOR_SQL}, CASE WHEN %s THEN "
        f"{TSVECTOR_SQL} END, %s, %s, %s)",
        [
            (
                user_id,
                k.record_id,
                k.trace,
                k.chunk,
                k.kind,
                k.session_id,
                k.content_hash,
                None if k.vector is None else codec.vector_text(k.vector),
                None if k.xvector is None else codec.vector_text(k.xvector),
                *split_scripts(k.body),
                bool(k.gloss),
                *split_scripts(k.gloss),
                k.body,
                k.gloss,
                k.language or key_language(k.body),
            )
            for k in keys
        ],
    )


def drop_keys(cur: Cursor, user_id: str, record_id: str) -> None:
    """Delete a record's search keys (their tsvectors and vectors are columns of the row)."""
    cur.execute(
        "DELETE FROM search_keys WHERE user_id = %s AND record_id = %s", (user_id, record_id)
    )


class PostgresIndex(PostgresConnection):
    """SearchIndex: key reuse and rebuilds, and the dense, lexical, entity and time channels."""

    def vectors_by_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, Vector]:
        """Vectors this user already has for these content hashes (reuse, never re-embed)."""
        if not hashes:
            return {}
        rows = self._read(
            user_id,
            "SELECT content_hash, vector::text FROM search_keys WHERE user_id = %s "
            "AND vector IS NOT NULL AND content_hash = ANY(%s)",
            (user_id, list(hashes)),
        )
        return {r[0]: codec.vector_from_text(r[1]) for r in rows}

    def xvectors_by_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, Vector]:
        """Cross-lingual vectors this user already has for these content hashes."""
        if not hashes:
            return {}
        rows = self._read(
            user_id,
            "SELECT content_hash, xvector::text FROM search_keys WHERE user_id = %s "
            "AND xvector IS NOT NULL AND content_hash = ANY(%s)",
            (user_id, list(hashes)),
        )
        return {r[0]: codec.vector_from_text(r[1]) for r in rows}

    def key_languages(self, user_id: str) -> dict[str, int]:
        """Keys with a vector by language."""
        rows = self._read(
            user_id,
            "SELECT language, count(*) FROM search_keys WHERE user_id = %s AND vector IS NOT "
            "NULL GROUP BY language",
            (user_id,),
        )
        return {r[0]: int(r[1]) for r in rows if r[0] is not None}

    def records_lacking_xvectors(self, user_id: str, limit: int) -> list[str]:
        """Records with a key that has a vector but no cross-lingual one, by id."""
        rows = self._read(
            user_id,
            "SELECT DISTINCT record_id FROM search_keys WHERE user_id = %s AND vector IS NOT "
            "NULL AND xvector IS NULL ORDER BY record_id LIMIT %s",
            (user_id, limit),
        )
        return [r[0] for r in rows]

    def replace_keys(self, user_id: str, record_id: str, keys: Sequence[IndexEntry]) -> None:
        """Rebuild a record's search keys (its text unchanged) and scrub the old ones."""
        with self._tx(user_id, write=True) as cur:
            drop_keys(cur, user_id, record_id)
            write_keys(cur, user_id, keys)
            self._mark_scrub(cur)
        self._scrub()

    def add_vectors(self, user_id: str, keys: Sequence[IndexEntry]) -> int:
        """Give stored keys without a vector (or without a cross-lingual one) the vectors of
        these keys (same record, trace, chunk and content hash); returns how many keys got
        one."""
        count = 0
        with self._tx(user_id, write=True) as cur:
            for key in keys:
                where = (user_id, key.record_id, key.trace, key.chunk, key.content_hash)
                got = 0
                if key.vector is not None:
                    cur.execute(
                        "UPDATE search_keys SET vector = %s::halfvec, embedder_id = "
                        "(SELECT value FROM store_meta WHERE key = 'embedder_id') WHERE "
                        f"{_SAME_KEY} AND vector IS NULL",
                        (codec.vector_text(key.vector), *where),
                    )
                    got = cur.rowcount
                if key.xvector is not None:  # and the language of its own words, which keys
                    # written before were not labelled by (`IndexEntry.language`)
                    cur.execute(
                        "UPDATE search_keys SET xvector = %s::halfvec, language = "
                        f"COALESCE(NULLIF(%s, ''), language) WHERE {_SAME_KEY} AND xvector IS NULL",
                        (codec.vector_text(key.xvector), key.language, *where),
                    )
                    got |= cur.rowcount
                count += got
        return count

    def search_dense_languages(
        self,
        user_id: str,
        queries: Mapping[str, LanguageQuery],
        limit: int,
        scope: SearchScope,
    ) -> dict[str, LanguageHits]:
        """Each language's nearest records to its query, and how it scores all its keys
        (exact, whatever the user's size; one transaction)."""
        found: dict[str, LanguageHits] = {}
        with self._tx(user_id) as cur:
            admit = partial(_admit, cur, user_id, limit=limit, scope=scope)
            read: dict[tuple[bytes, bytes | None], dict[str | None, LanguageStats]] = {}
            for language, query in queries.items():
                # one pass over the keys for every language asked with the same vectors
                cross = query.crosslingual
                seen = (query.vector.tobytes(), None if cross is None else cross.tobytes())
                if seen not in read:
                    read[seen] = language_stats(cur, user_id, query.vector, cross)
                found[language] = language_search(
                    cur, user_id, language, query, read[seen], limit, scope, admit
                )
        return found

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
        """`search_dense` for several vectors at once (one transaction)."""
        if not vectors:
            return []
        with self._tx(user_id) as cur:
            admit = partial(_admit, cur, user_id, limit=limit, scope=scope)
            return dense_search(cur, user_id, vectors, limit, scope, admit, language_offset)

    def search_lexical(
        self,
        user_id: str,
        terms: Sequence[str],
        limit: int,
        scope: SearchScope,
        *,
        glosses: bool = False,
    ) -> list[Candidate]:
        """Full-text matches for the terms (in the keys' glosses with `glosses`), by scope."""
        column = "gloss_tsv" if glosses else "tsv"
        with self._tx(user_id) as cur:
            admit = partial(_admit, cur, user_id, limit=limit, scope=scope)
            return lexical_search(cur, user_id, terms, limit, scope, admit, column)

    def search_entities(
        self,
        user_id: str,
        canonicals: Sequence[str],
        limit: int,
        scope: SearchScope,
        max_share: float = 0.2,
    ) -> list[Candidate]:
        """Memories of these entities, scored by the entities' rarity (idf), filtered by scope."""
        with self._tx(user_id) as cur:

            def fetch(depth: int) -> tuple[list[Candidate], bool]:
                found = graph_sql.search_entities(cur, user_id, canonicals, depth, max_share)
                return found + _one_hop(cur, user_id, found), len(found) >= 3 * depth

            admit = partial(_admit, cur, user_id, limit=limit, scope=scope)
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
        """Records that happened in [start, end): those of `among` first, then up to `limit`
        more, newest first (see the SQLite store's `search_time` for why `among`)."""
        with self._tx(user_id) as cur:
            inside = [Candidate(i, "time", 1.0) for i in in_window(cur, user_id, among, start, end)]
            known = {c.record_id for c in inside}
            admitted = _admit(cur, user_id, inside, len(inside), scope)

            def fetch(depth: int) -> tuple[list[Candidate], bool]:
                rows = cur.execute(
                    "SELECT id, t FROM (SELECT id, occurred_at AS t FROM episodes "
                    "WHERE user_id = %s AND occurred_at >= %s AND occurred_at < %s UNION ALL "
                    "SELECT id, valid_from AS t FROM memories WHERE user_id = %s "
                    "AND valid_from >= %s AND valid_from < %s) w ORDER BY t DESC LIMIT %s",
                    (user_id, start, end, user_id, start, end, depth * 3),
                ).fetchall()
                newest = [Candidate(r[0], "time", 1.0) for r in rows if r[0] not in known]
                return newest, len(rows) >= depth * 3

            room = len(inside) + limit - len(admitted)
            admit = partial(_admit, cur, user_id, limit=room, scope=scope)
            return admitted + deepened(fetch, admit, room, limit)


def _one_hop(cur: Cursor, user_id: str, found: list[Candidate]) -> list[Candidate]:
    """Memories linked to the entity hits, at half their score (one hop along links)."""
    score = {c.record_id: c.score for c in found[:HOP_SOURCES]}
    already = {c.record_id for c in found}
    hop: dict[str, float] = {}
    for src, dst, _ in graph_sql.neighbours(cur, user_id, list(score)):
        if dst not in already:
            hop[dst] = max(hop.get(dst, 0.0), 0.5 * score[src])
    return [Candidate(mid, "link", value) for mid, value in hop.items()]


def _admit(
    cur: Cursor, user_id: str, found: list[Candidate], limit: int, scope: SearchScope
) -> list[Candidate]:
    """The candidates the scope admits, in order, at most `limit`."""
    ok = allowed_ids(cur, user_id, [c.record_id for c in found], scope)
    return [c for c in found if c.record_id in ok][:limit]
