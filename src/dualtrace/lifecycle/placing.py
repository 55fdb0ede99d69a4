"""Slots by meaning for the memories the rules placed in none: the writer's second signal.

The rules of `text/slots` find an attribute by the words they list; a statement worded
otherwise ("Packed up everything, I'm settled in Valencia now") fills no slot and so never
replaces the value it changes. Here the memory's own fact vector (already embedded by the
writer, in one batch) is placed among the catalogue's prototypes (`text/slots/meaning.py`);
a clear placement that one of the attribute's own words confirms (its `about` pattern: the
rules stay the precision layer) gives the memory the slot, without a value (no frame cut one).

The closed-class cues stay rules, and they are stricter here than for a value the rules
found: a statement about someone else ("my dad bought a Tesla", "他…") is not placed; a
hedge, a condition, an intention or a negation ("I'm not leaving Airbus") is placed but
marked hedged, so it never closes anything. Placed statements supersede as a plain value
does (`lifecycle/consolidate.py`): an older turn's value of the same slot is closed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from dualtrace.cjk import has_cjk
from dualtrace.models import MemoryRecord
from dualtrace.text.slots import cues
from dualtrace.text.slots.catalogue import BY_NAME
from dualtrace.text.slots.finder import qualifier_of
from dualtrace.text.slots.meaning import SlotMeaning

# Who else a third-person memory text names: "the user's dad", "用户的妈妈", "he", "她".
_OTHER_EN = re.compile(
    rf"\b(?:the\s+user['’]s|my|our)\s+(?:(?:{cues.KIN_MODIFIERS_EN})[-\s]?)?"
    rf"(?P<kin>{cues.KIN_WORDS_EN})\b|{cues.OTHER_EN.pattern}",
    re.I,
)
_NEGATION = re.compile(
    r"\b(?:not|never|no\s+longer|n['’]t)\b|不|没|别", re.I
)  # a denial states no new value: "I'm not leaving Airbus", "我不会离开华为"


# Triples the pattern tables give any statement of possession: a slot by meaning says more.
_GENERIC = frozenset({None, "has"})


def place(
    records: Sequence[MemoryRecord],
    vectors: Sequence[np.ndarray | None],
    meaning: SlotMeaning,
    speakers: Sequence[str],
) -> list[MemoryRecord]:
    """`records` with a slot by meaning where the rules gave none and one attribute is
    clearly nearest; `vectors` are their fact vectors, `speakers` who said each."""
    todo = [
        i
        for i, (r, v) in enumerate(zip(records, vectors, strict=True))
        if v is not None and r.predicate in _GENERIC and "slot" not in r.metadata
    ]
    if not todo:
        return list(records)
    chosen = [v for i in todo if (v := vectors[i]) is not None]
    placed = meaning.statements(np.vstack(chosen).astype(np.float32))
    found = list(records)
    for i, where in zip(todo, placed, strict=True):
        if where is None:
            continue
        record = records[i]
        attribute = BY_NAME.get(where.attribute)
        if attribute is None or not attribute.about.search(record.text):
            continue  # the rules' own words for the attribute confirm what meaning found
        if _someone_else(record.text, attribute.about):
            continue
        text = record.text
        hedged = bool(
            cues.HEDGE.search(text)
            or cues.CONDITION.search(text)
            or (not attribute.planned and cues.INTENT.search(text))
            or _NEGATION.search(text)
        )
        cue = cues.CHANGE.search(text)
        slot = {
            "attribute": attribute.name,
            "value": None,
            "subject": None,
            "qualifier": qualifier_of(attribute, text),
            "ended": False,
            "hedged": hedged,
            "cue": cue.group(0).strip() if cue else None,
            "many": attribute.many,
            "by": "meaning",
            "score": round(where.score, 3),
            "margin": round(where.margin, 3),
        }
        found[i] = replace(
            record,
            subject=speakers[i],
            predicate=attribute.name,
            metadata={**record.metadata, "slot": slot},
        )
    return found


def _someone_else(text: str, about: re.Pattern[str]) -> bool:
    """Whether a memory text is about a person other than the speaker: it names a relative
    or a pronoun (a relative that is the attribute's own word, like a partner, aside)."""
    if has_cjk(text):
        kin = [m.group("kin") for m in cues.KIN_ZH.finditer(text)]
        if cues.OTHER_ZH.search(text.replace("其他", "")):
            return True
    else:
        kin = [m.group("kin") or "" for m in _OTHER_EN.finditer(text)]
        if any(k == "" for k in kin):
            return True  # a pronoun: he, she, they, his, her
    return any(not about.search(k) for k in kin)
