"""Query analysis: the terms, entities and time window a question refers to."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from dualtrace.models import EntityMention
from dualtrace.text.dates import time_window
from dualtrace.text.entities import extract_entities
from dualtrace.text.lexical import query_terms
from dualtrace.text.lexicon import translate_terms

_PAST_CUES = re.compile(
    r"\b(?:last time|as I (?:said|mentioned)|before|previously|earlier|used to|remember|initially|"
    r"originally|at first|in the beginning)\b"
    r"|上次|之前|以前|那个|刚才|记得|最初|起初|一开始|原先|本来",
    re.I,
)


@dataclass(frozen=True)
class QueryAnalysis:
    """What a question asks about: search terms, named entities, a time window."""

    text: str
    now: datetime
    terms: list[str]
    entities: list[EntityMention]
    window: tuple[date, date] | None
    refers_to_past: bool
    #: The terms in the other language (Chinese <-> English), for the cross-lingual channel.
    translated: list[str] = field(default_factory=list)


def analyse(query: str, now: datetime, *, translate: bool = False) -> QueryAnalysis:
    """Terms, entities and the time window (resolved against `now`) of a question; with
    `translate`, its terms in the other language too.

    A question refers to the past when it says so ("before", "used to") or when its whole
    time window has ended ("10 days ago", "in May 2023"): what was true then may since have
    expired or been superseded.
    """
    window = time_window(query, now)
    terms = query_terms(query)
    return QueryAnalysis(
        text=query,
        now=now,
        terms=terms,
        entities=extract_entities(query),
        window=window,
        refers_to_past=bool(_PAST_CUES.search(query))
        or (window is not None and window[1] < now.date()),
        translated=translate_terms(terms) if translate else [],
    )
