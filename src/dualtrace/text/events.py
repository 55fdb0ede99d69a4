"""The events a question compares: "Did I start yoga before or after I moved flats?",
"Which did I finish first, the fence or the goats' hooves?", "How many days passed between
the day I cancelled FarmFresh and the day I shopped on Instacart?", "我是先换的工作还是先搬的
家？", "搬家、跳槽、拿驾照，这三件事的先后顺序是什么？".

Such a question is answered by one statement of each event, often in different sessions
and in different words, and one search for the whole question finds the event its words
favour. `compared_events` gives each event's words, so that each is searched on its own
(`recall/read.py`); an event is a part of the question between its joints ("before or
after", "or", "and", a comma, "、", "还是") with a content word; of the part that asks ("which
… first", "how many days had passed since …"), only what follows its cue.

    >>> compared_events("Did I start yoga before or after I moved flats?")
    ['Did I start yoga', 'I moved flats']
    >>> compared_events("Where do I live?")
    []
"""

from __future__ import annotations

import re

from dualtrace.cjk import is_cjk
from dualtrace.text.lexical import content_words

# A question that compares events: their order, or the time between them ("how many days
# passed between A and B"; not "where was John between 11 and 15 August", a span of time).
_COMPARES = re.compile(
    r"\bbefore\s+or\s+after\b|\b(?:first|earlier|earliest|later|latest)\b|\border\b|"
    r"\b(?:how\s+(?:many|long)|passed)\b.+\bbetween\b.+\band\b|"
    r"\b(?:since|passed|how\s+(?:many|long))\b.+\bwhen\b|"
    r"还是|先后|顺序|哪个(?:先|在前|早)|谁先|之间",
    re.I,
)
# The joints between events.
_JOINTS = re.compile(
    r"\s*(?:\bbefore\s+or\s+after\b|,|;|:|\bor\b|\band\s+the\b|\bbetween\b|\bwhen\b|"
    r"[，、；：]|还是|和|跟|与)\s*",
    re.I,
)
# The part that asks: in English the first ("Which event did I attend first", "How many days
# had passed since I finished the book"), in Chinese any ("这三件事的先后顺序是什么"); what
# follows its last cue word is an event's words, if any.
_ASKS_EN = re.compile(
    r"\b(?:first|earlier|earliest|later|latest|order(?:\s+of)?|since|passed|ago)\b|"
    r"\bhow\s+(?:many|much|long)(?:\s+\w+)?\b",
    re.I,
)
_ASKS_ZH = re.compile(r"先后|顺序|哪个|谁先|几天|多少|多久")
MIN_WORDS = 1  # an event's content words (`_words`)
MAX_EVENTS = 4


def compared_events(question: str) -> list[str]:
    """The events `question` compares, each in its own words (see the module docstring);
    [] when it compares none, or names fewer than two."""
    if not _COMPARES.search(question):
        return []
    parts = [_event(p, first=n == 0) for n, p in enumerate(_JOINTS.split(question))]
    events = [p for p in parts if p and _words(p) >= MIN_WORDS]
    return events[:MAX_EVENTS] if len(events) >= 2 else []


def _event(part: str, *, first: bool) -> str:
    """A part's event words: the part, or in the part that asks, what follows its cue; a
    later part that ends on an English cue ("starting from the earliest") is none."""
    part = part.strip(" ?？。.!！'\"")
    english = list(_ASKS_EN.finditer(part))
    if not first and english and not _words(part[english[-1].end() :]):
        return ""
    cues = [*(english if first else ()), *_ASKS_ZH.finditer(part)]
    if cues:
        part = part[max(m.end() for m in cues) :]
    return part.strip(" ?？。.!！'\"")


def _words(part: str) -> int:
    """Content words, a Chinese one counted by its characters less one ("我升职": 1, "拿到
    驾照": 2): a name ("Rachel") is an event's words, "的" is none."""
    return sum(max(1, len(w) - 1) if is_cjk(w) else 1 for w in content_words(part))
