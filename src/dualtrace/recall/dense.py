"""The dense channel across languages: each language's keys scored by the embedder that
ranks them best for the question, on one scale.

e5-small (the bundled embedder) scores text in a question's own language higher whatever it
says, and ranks the other language's text poorly. With a cross-lingual embedder
(`crosslingual_embedder`), keys in the question's language are scored mostly by the main
embedder and keys in the other language mostly by the cross-lingual one; each embedder's
cosines are standardised by how that same query scores all of the language's keys (its mean
and spread), so that a question meets both languages on equal terms. A store whose keys are
all in the question's language is searched by the main embedder alone, exactly as before
(`Retriever`).
"""

from __future__ import annotations

from collections.abc import Mapping

from dualtrace.models import Candidate
from dualtrace.store.languages import KEY_LANGUAGES
from dualtrace.store.ports.records import LanguageHits, LanguageQuery, Vector

#: The cross-lingual embedder's share of a key's score in the other language than the
#: question's, and in the question's own (the main embedder has the rest). Each language
#: is scored 3:1 by the embedder that ranks it better for the question, so both are
#: mixes of two z-scores that spread alike; over 132 pairs each way the other language's
#: share of 0.5 / 0.75 / 1.0 (own 0) gave cross recall@3 0.795 / 0.848 / 0.856 (en→zh),
#: and an own share of 0.25 lifted zh→en 0.826 → 0.856 and both same-language ceilings
#: (docs/benchmarks.md, "Cross-lingual recall").
CROSSLINGUAL_SHARE = 0.75
OWN_LANGUAGE_SHARE = 0.25


def language_queries(own: str, vector: Vector, crosslingual: Vector) -> dict[str, LanguageQuery]:
    """Every key language's query: the main and the cross-lingual embedder's vectors of the
    question, the latter weighing `OWN_LANGUAGE_SHARE` in the question's language and
    `CROSSLINGUAL_SHARE` in the other."""
    return {
        language: LanguageQuery(
            vector,
            crosslingual,
            OWN_LANGUAGE_SHARE if language == own else CROSSLINGUAL_SHARE,
        )
        for language in KEY_LANGUAGES
    }


def standardised(found: Mapping[str, LanguageHits], limit: int) -> list[Candidate] | None:
    """The best `limit` records over every language by their standardised scores; None when
    a language searched with the cross-lingual embedder has keys without its vector (written
    before it was on, until `Memory.maintain` gives them one): the caller then falls back
    to one embedder."""
    if any(hits.missing for hits in found.values()):
        return None
    best: dict[str, Candidate] = {}
    for hits in found.values():
        for c in hits.candidates:
            if c.record_id not in best or c.score > best[c.record_id].score:
                best[c.record_id] = c
    return sorted(best.values(), key=lambda c: -c.score)[:limit]
