"""What only says what will or may be, and which questions it answers.

A question about the present is answered by what holds: a hit that only says what will or
may be (`only_ahead`: a maybe, a condition, or days still to come) goes after what holds
(`current.plans_lowered`) and leads no slot's newest statements (`current.newest_first`),
unless the question wants plans (`wants_plans`). `stated` gives the sentences of a turn
that state something, which these and the slot checks of `current.py` read.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from dualtrace.models import Item
from dualtrace.recall.question import Question
from dualtrace.text.dates import find_times, without_note
from dualtrace.text.question_cues import ASKS_AHEAD, NAMES_NOW, stated_part
from dualtrace.text.script import simplified
from dualtrace.text.sentences import split_sentences
from dualtrace.text.slots import BY_NAME, cues, find_statements, is_request
from dualtrace.text.tense import looks_ahead


def wants_plans(question: Question) -> bool:
    """Whether what will be may answer a question: one not about the present that asks no
    slot of the user's, or asks when or what is to come ("When is the move?", "What's my
    next job?", "Where is the wedding?"), one that looks ahead itself ("What am I doing
    this weekend?", a time still to come; not where it names the moment: "Which team am I
    playing for right now?") or one that asks a slot whose values are plans (a trip). A
    slot asked in the present tense ("Which part of town do I live in?") is asked as it
    holds: a move planned is not made yet."""
    if not question.present and (not question.own_slots or ASKS_AHEAD.search(question.text)):
        return True
    if looks_ahead(question.text) and not NAMES_NOW.search(question.text):
        return True
    if question.window is not None and question.window[1] > question.now.date():
        return True
    return any(BY_NAME[s.attribute].planned for s in question.slots)


def only_ahead(item: Item, now: datetime) -> bool:
    """Whether an item only says what will or may be, as seen at `now`: every sentence it
    states is a maybe or a condition, or names only days after `now` ("Lease starts April 1",
    "if I say yes I move in January", "也许换工作", "8月5号一起搬过去") and no part of it
    that names no day states a value. Once the days it names have come, a plan is what
    holds. (`state._ahead`, which marks a context line "planned", is looser: a tense cue
    alone makes a plan there, too weak a sign to reorder hits by.)"""
    said = item.said_at
    sentences = stated(item.text)
    return bool(sentences) and all(_not_yet(s, said, now) for s in sentences)


@lru_cache(maxsize=4096)
def _not_yet(sentence: str, said: datetime, now: datetime) -> bool:
    if not _maybe(sentence):  # a maybe is no value, whenever it names
        # the days it names: a tense cue alone is too weak a sign ("在盒马上下单" holds 马上)
        times = find_times(sentence, said)
        if not times or any(t.first_day <= now.date() for t in times):
            return False
    # ... unless a part of it that names no day and no maybe states a value: a change made
    # for what is ahead ("switched to Portuguese since we're relocating to Porto next
    # spring"), what holds beside what may ("still in York for now, might try Leeds")
    return not any(
        not find_times(part, said)
        and not _maybe(part)
        and any(not s.hedged for s in find_statements(part))
        for part in cues.PARTS.split(sentence)
        if part and part.strip()
    )


def _maybe(text: str) -> bool:
    return bool(cues.MAYBE.search(text) or cues.CONDITION.search(text))


@lru_cache(maxsize=4096)
def stated(text: str) -> tuple[str, ...]:
    """What the sentences of a turn state: a question or a request to the assistant ("Can
    you explain how compound interest works?") says nothing of the user, and a sentence
    that ends on one states what comes before it (`stated_part`). Cached: the plan, asking
    and change checks read the same hits' texts on every search."""
    parts = (stated_part(s) for s in split_sentences(without_note(simplified(text))))
    return tuple(s for s in parts if s and not is_request(s))
