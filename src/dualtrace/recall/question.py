"""The question, read once: everything the read path asks of a question's words.

`Question` holds the search terms, named entities and time window (resolved against `now`),
whether it refers to the past, the slots it asks the current value of (all of them, and
those of the user's own), the kinds of quantity it asks for, whether it asks about the
user's own matter or names someone else, and the words that pick a long turn's sentences.
A question for every instance (a list, a count, a total, an order) asks no one-valued slot's
newest value and nothing of the present: "Which cities have I been to this year?" wants
each city, not where the user lives now.
Search, ranking, current truth and packing read these fields and never the text again
(`recall/read.py` builds one per `context()` call). The cue words of each notion are in
`text/question_cues.py`.

    >>> q = analyse("Which city do I live in now?", datetime(2026, 1, 1))
    >>> [s.attribute for s in q.own_slots], q.refers_to_past
    (['lives_in'], False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from dualtrace.models import EntityMention
from dualtrace.recall.snippets import focus_words
from dualtrace.text.aggregate_cues import aggregate_kind, asked_type
from dualtrace.text.dates import time_window
from dualtrace.text.entities import extract_entities
from dualtrace.text.events import compared_events
from dualtrace.text.lexical import query_terms
from dualtrace.text.lexicon import translate_terms
from dualtrace.text.owners import asks_about_self
from dualtrace.text.quantities import asked_kinds
from dualtrace.text.question_cues import (
    about_present,
    asks_assistant,
    in_past_tense,
    names_someone_else,
    refers_to_past,
    speaks_as_user,
)
from dualtrace.text.script import simplified
from dualtrace.text.slots import BY_NAME, SlotQuestion, ask


@dataclass(frozen=True)
class Question:
    """What a question asks about, read once (see the module docstring)."""

    #: As read: Traditional Chinese in Simplified (`text/script.py`).
    text: str
    now: datetime
    terms: list[str]
    entities: list[EntityMention]
    window: tuple[date, date] | None
    refers_to_past: bool
    #: The terms in the other language (Chinese <-> English), for the cross-lingual channel.
    translated: list[str] = field(default_factory=list)
    #: The slots asked about the present (none for a question in the past tense).
    slots: tuple[SlotQuestion, ...] = ()
    #: `slots` when they are the user's own, or the question names no one else.
    own_slots: tuple[SlotQuestion, ...] = ()
    #: Kinds of quantity asked for ("how much" → money; `text/quantities.py`).
    asked_kinds: frozenset[str] = frozenset()
    #: About the speaker's own matter, naming no one else's (`text/owners.py`).
    about_user: bool = False
    #: Names a person other than the user (a pronoun, a name, a person entity).
    names_someone_else: bool = False
    #: The stems of its content words, which pick a long turn's sentences to show.
    focus: frozenset[str] = frozenset()
    #: Asks for every instance: "list", "count", "total" or "order" (`text/aggregate_cues.py`).
    aggregate: str | None = None
    #: Asks what holds now ("these days", "现在"): the newest statement answers it.
    present: bool = False
    #: The events it compares ("before or after", "先…还是…"), each in its own words.
    events: tuple[str, ...] = ()
    #: The entity type a list or count asks every instance of ("Which cities …": "place").
    instance_type: str | None = None
    #: Asks what the assistant said ("the video you recommended", "你推荐的"): otherwise an
    #: assistant's turn is a reply to the user's words, not the answer.
    asks_assistant: bool = False

    @property
    def named(self) -> frozenset[str]:
        """The named entities, casefolded (what the speaker boost compares speakers to)."""
        return frozenset(m.name.casefold() for m in self.entities)


#: The name this analysis had before it grew (kept for code that imports it).
QueryAnalysis = Question


_THE_USER = frozenset({"user", "user's", "users", "用户"})


def analyse(query: str, now: datetime, *, translate: bool = False) -> Question:
    """The question `query`, read once: its time window is resolved against `now`; with
    `translate`, its terms in the other language too.

    A question refers to the past when it says so ("before", "used to") or when its whole
    time window has ended ("10 days ago", "in May 2023"): what was true then may since have
    expired or been superseded.
    """
    # the rules, the index and the dense keys read Simplified Chinese: a question typed in
    # Traditional is read in it (`text/script.py`)
    query = simplified(query)
    window = time_window(query, now)
    # "the user" names whom every memory is about ("Where does Sam work?" is read as "Where
    # does the user work?"): no search term, or the shortest memory would match it best
    terms = [t for t in query_terms(query) if t not in _THE_USER]
    entities = extract_entities(query)
    aggregate = aggregate_kind(query)
    slots = () if in_past_tense(query) else ask(query)
    if aggregate is not None:  # every instance, not one slot's newest value: a list of
        slots = tuple(s for s in slots if BY_NAME[s.attribute].many)  # members stays
    other = names_someone_else(query, entities)
    return Question(
        text=query,
        now=now,
        terms=terms,
        entities=entities,
        window=window,
        refers_to_past=refers_to_past(query) or (window is not None and window[1] < now.date()),
        translated=translate_terms(terms) if translate else [],
        slots=slots,
        own_slots=() if slots and not speaks_as_user(query) and other else slots,
        asked_kinds=asked_kinds(query),
        about_user=asks_about_self(query),
        names_someone_else=other,
        focus=focus_words(query),
        aggregate=aggregate,
        present=aggregate is None and not refers_to_past(query) and about_present(query),
        events=tuple(compared_events(query)),
        instance_type=asked_type(query, aggregate),
        asks_assistant=asks_assistant(query),
    )
