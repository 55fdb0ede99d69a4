"""Query analysis: the terms, entities and time window a question refers to."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from dualtrace.models import EntityMention
from dualtrace.text.dates import time_window
from dualtrace.text.entities import extract_entities
from dualtrace.text.lexical import query_terms

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


def analyse(query: str, now: datetime) -> QueryAnalysis:
    """Terms, entities and the time window (resolved against `now`) of a question.

    A question refers to the past when it says so ("before", "used to") or when its whole
    time window has ended ("10 days ago", "in May 2023"): what was true then may since have
    expired or been superseded.
    """
    window = time_window(query, now)
    return QueryAnalysis(
        text=query,
        now=now,
        terms=query_terms(query),
        entities=extract_entities(query),
        window=window,
        refers_to_past=bool(_PAST_CUES.search(query))
        or (window is not None and window[1] < now.date()),
    )
