"""The dense channel across languages: each language's keys scored by the embedder that
ranks them best for the question, on one scale.

e5-small (the bundled embedder) scores text in a question's own language higher whatever it
says, and ranks the other language's text poorly. With a cross-lingual embedder
(`crosslingual_embedder`), keys in the question's language are scored by the main embedder
and keys in the other language mostly by the cross-lingual one; each language's cosines are
standardised by how that same query scores all of the language's keys (its mean and spread),
so that a question meets both languages on equal terms. Within one language nothing changes:
a store in one language ranks its own-language questions exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping

from dualtrace.models import Candidate
from dualtrace.store.languages import KEY_LANGUAGES
from dualtrace.store.ports.records import LanguageHits, LanguageQuery, Vector

#: The cross-lingual embedder's share of an other-language key's score (the main embedder
#: has the rest). An even mean of two correlated z-scores spreads less than either, so
#: the other language's best keys scored below the question language's on the same
#: footing; 0.75 and 1.0 gain the most cross-lingual recall over 132 pairs each way,
#: and 0.75 loses less of the same-language ceiling (docs/benchmarks.md, "Cross-lingual
#: recall").
CROSSLINGUAL_SHARE = 0.75


def language_queries(own: str, vector: Vector, crosslingual: Vector) -> dict[str, LanguageQuery]:
    """The question's own language by the main embedder's vector, every other language by
    the main and the cross-lingual embedder's vectors together (`CROSSLINGUAL_SHARE`)."""
    return {
        language: LanguageQuery(vector)
        if language == own
        else LanguageQuery(vector, crosslingual, CROSSLINGUAL_SHARE)
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
