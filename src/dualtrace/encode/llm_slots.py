"""The slot an LLM's memory fills, read from its triple as the rules read one from a clause.

The profile, the read path's lead for a question about a slot and consolidation by slot all
read `MemoryDraft.slot` (`text/slots`). The rules set it from the statements they find; a
model states a memory as a triple instead. The extraction prompt lists the catalogue's
attributes (`ATTRIBUTE_LINES`) and asks for one as the predicate where a memory states it,
with the value copied from the turns as the object, and two flags: `ended` (the value no
longer holds) and `maybe` (hoped for, weighed or guessed). `llm_slot` turns such a triple
into the slot the rules would have written, and refuses what it cannot trust:

- a predicate that is no attribute of the catalogue fills no slot (the memory stays);
- a value that none of the memory's turns by a person (not an assistant) says, word for
  word up to case and spacing, fills none: a model's paraphrase or guess is not what was
  said, and "New York City" for "NYC" would be a second value beside the first;
- the speaker's own value is the speaker's (subject "the user", or the named speaker, as
  the rules write it, so the two extractors' memories of one slot meet in consolidation);
  anyone else's keeps whose it is ("Alice's daughter" → "daughter", the rules' way).

Example:
    a memory {"subject": "The user", "predicate": "lives_in", "object": "Porto"} drawn from
    "we finally moved to porto!" fills lives_in with "Porto" for the user.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dualtrace.models import Episode
from dualtrace.text.script import simplified
from dualtrace.text.slots import ATTRIBUTES, BY_NAME

__all__ = ["ATTRIBUTE_LINES", "LLMSlot", "llm_slot"]

#: The attributes as the prompt lists them, each with what its value says of a person X:
#: "lives_in (X lives in V), works_at (X works at V), …" (~320 tokens of a ~2,480-token call).
ATTRIBUTE_LINES = ", ".join(
    f"{a.name} ({a.say[0].format(s='X', v='V').rstrip('.')})" for a in ATTRIBUTES
)

_SPACE = re.compile(r"\s+")
# how an own value's subject may be written: the speaker, or the user as the prompt names one
_SELF = frozenset({"user", "the user", "用户", "i", "me", "myself", "我"})
_POSSESSIVE = re.compile(r"^(?P<whose>.+?)(?:['’]s?\s+|的)(?P<relation>.+)$")


@dataclass(frozen=True)
class LLMSlot:
    """What a model's triple fills: the slot as the memory's metadata keeps it, and the
    triple's subject written as the rules write it."""

    slot: dict[str, Any]
    subject: str


def llm_slot(
    subject: str | None,
    predicate: str | None,
    value: str | None,
    flags: dict[str, Any],
    sources: Sequence[Episode],
) -> LLMSlot | None:
    """The slot a model's triple fills (see the module docstring), or None; `flags` is the
    item as the model wrote it (its "ended" and "maybe"), `sources` the memory's turns."""
    attribute = BY_NAME.get(predicate or "")
    said_by = [e for e in sources if e.role != "assistant"]
    if attribute is None or not said_by:
        return None
    ended = flags.get("ended") is True
    if value is None and not ended:
        return None  # only an end may leave its value unnamed ("I quit my job")
    if value is not None and not _said(value, said_by):
        return None
    speaker = _speaker_name(said_by[0])
    relation = _relation(subject, speaker)
    slot = {
        "attribute": attribute.name,
        # as the rules write it: Traditional Chinese in Simplified, as questions are read
        "value": None if value is None else simplified(value),
        "subject": relation,
        "qualifier": None,
        "ended": ended,
        "hedged": flags.get("maybe") is True,
        "cue": None,
        "many": attribute.many,
    }
    return LLMSlot(slot, speaker if relation is None else subject or speaker)


def _said(value: str, turns: Sequence[Episode]) -> bool:
    """Whether one of the turns says the value, up to case, width, spacing and Chinese script
    (a model may write 台积电 for 台積電)."""
    wanted = _flat(value)
    return bool(wanted) and any(wanted in _flat(e.text) for e in turns)


def _flat(text: str) -> str:
    return _SPACE.sub(" ", simplified(unicodedata.normalize("NFKC", text))).strip().casefold()


def _speaker_name(episode: Episode) -> str:
    """Whom an own value is about, as the rules name them: the speaker, "the user" for a
    user's turn without a name."""
    name = episode.speaker or episode.role
    return "the user" if name == "user" else name


def _relation(subject: str | None, speaker: str) -> str | None:
    """None for the speaker's own value; else whose it is, without the speaker's possessive
    ("Alice's daughter", "用户的女儿" → "daughter", "女儿")."""
    if subject is None:
        return None
    flat = _flat(subject)
    mine = _SELF | {_flat(speaker)}
    if flat in mine:
        return None
    found = _POSSESSIVE.match(subject.strip())
    if found and _flat(found["whose"]) in mine | {"my"}:
        return found["relation"].strip()
    if flat.startswith(("my ", "我的")):
        return subject.strip()[3 if flat.startswith("my ") else 2 :].strip()
    return subject.strip()
