"""The search index, read side: the dense, lexical, time and entity channels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

from dualtrace.models import Candidate
from dualtrace.store.ports.records import LanguageHits, LanguageQuery, SearchScope, Vector


class IndexReads(Protocol):
    """Records' search keys (full text and vectors) and the channels that search them.

    Each channel returns up to `limit` records the scope admits: it reads past the records
    the scope refuses (closed, archived, other kinds), however many rank above them.
    """

    def vectors_by_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, Vector]:
        """This user's vectors for these content hashes, to reuse (PostgreSQL's are float16)."""
        ...

    def xvectors_by_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, Vector]:
        """This user's cross-lingual vectors for these content hashes, to reuse (float16
        on both backends)."""
        ...

    def key_languages(self, user_id: str) -> dict[str, int]:
        """How many of this user's keys with a vector are in each key language
        (`store.languages.KEY_LANGUAGES`; a language without any: absent or 0)."""
        ...

    def records_lacking_xvectors(self, user_id: str, limit: int) -> list[str]:
        """Up to `limit` of this user's records with a key that has a vector but no
        cross-lingual one (written before `crosslingual_embedder` was on), by id."""
        ...

    def search_dense(
        self,
        user_id: str,
        vector: Vector,
        limit: int,
        scope: SearchScope,
        *,
        language_offset: Mapping[str, float] | None = None,
    ) -> list[Candidate]:
        """Nearest keys by cosine similarity, best key per record, filtered by scope; with
        `language_offset`, plus the offset of each key's `store.languages.key_language`."""
        ...

    def search_dense_many(
        self,
        user_id: str,
        vectors: Sequence[Vector],
        limit: int,
        scope: SearchScope,
        *,
        language_offset: Mapping[str, float] | None = None,
    ) -> list[list[Candidate]]:
        """`search_dense` for several vectors at once."""
        ...

    def search_dense_languages(
        self,
        user_id: str,
        queries: Mapping[str, LanguageQuery],
        limit: int,
        scope: SearchScope,
    ) -> dict[str, LanguageHits]:
        """For each key language named (`store.languages.KEY_LANGUAGES`), the nearest
        records among the keys in that language to its query, filtered by scope, with how
        that query scores all of them (the mean and spread that put languages on one scale:
        `recall/retriever.py`)."""
        ...

    def search_lexical(
        self,
        user_id: str,
        terms: Sequence[str],
        limit: int,
        scope: SearchScope,
        *,
        glosses: bool = False,
    ) -> list[Candidate]:
        """Full-text (BM25) matches for any of the terms, filtered by scope; with `glosses`,
        in the keys' glosses (their words in the other language) instead of their text.
        Scores are shares of a full match: over what a key of average length holding each
        term once would score (about 0 to 1.4), comparable across questions."""
        ...

    def search_time(
        self,
        user_id: str,
        start: datetime,
        end: datetime,
        limit: int,
        scope: SearchScope,
        among: Sequence[str] = (),
    ) -> list[Candidate]:
        """Records in [start, end) by scope: those of `among` first, then `limit` more, newest."""
        ...

    def search_entities(
        self,
        user_id: str,
        canonicals: Sequence[str],
        limit: int,
        scope: SearchScope,
        max_share: float = 0.2,
    ) -> list[Candidate]:
        """Memories of these entities, scored by the entities' rarity (idf), filtered by scope."""
        ...
