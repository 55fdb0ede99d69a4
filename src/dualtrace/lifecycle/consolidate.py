"""Consolidation: what a new memory does to the user's existing ones.

Pure decisions, no I/O. For each new memory the writer gathers the user's *valid* memories
with the same subject and predicate, and its near-duplicates by embedding; `decide` then
says which of these happens:

- NOOP: the same statement from the same turns (re-deriving a turn changes nothing);
- REINFORCE: the same statement again (same object, or the same words, or nearly the same
  by embedding) — no new row; the old memory gains the new source;
- MERGE: another value of a predicate that gathers values into one memory
  ("cares about fuel consumption" + "boot space" → one memory naming both);
- SUPERSEDE: another value of a single-valued predicate (lives in Hangzhou → Shanghai,
  budget 300k → 350k): the older value's validity is closed at the newer one's start;
  nothing is deleted. If the new memory is the *older* value (a history imported late), it
  is the one stored as closed;
- INVALIDATE: the new memory says a value stopped holding ("I quit Alibaba", "不再吃素"):
  the memories holding that value are closed by it, and it holds no value itself;
- ADD: anything else. Multi-valued predicates (likes, visited, has) accumulate.

A memory that fills a slot (`metadata["slot"]`, from `text/slots`) is decided by its slot:
(subject, attribute, qualifier). A hedged statement ("I might move to Berlin") never closes
anything; another person's slot is not the speaker's; a qualifier keeps slots apart ("laptop
budget" and "bike budget"), and a statement without one ("raise the budget to 400k") is
about the qualified slot when the user has only one. Each closing decision carries `why`:
the slot, the change cue and a score (0.9 with a cue, 0.7 for a new value said plainly),
kept in the history entry.

Two memories derived from the same turn never close each other unless the turn says the value
changed (a change cue: "now I drive a Tesla"): said at one moment, neither value is the newer,
and where a turn seems to give one slot two plain values the extractor has cut one of them from
something else ("I drive 40 km to work … I drive slowly at weekends"). Both are kept.

Invalidation only ever touches memories of the same user, subject and predicate, and of the
attributes that end with the ended one where the end names no value (`Attribute.ends_too`:
"I quit my job" ends every employer and role held before; "leaving Fabrikam" ends Fabrikam only).

The name an assistant calls the user by (`slot["addressed"]`: "Hi Solveig!") is stored only
while the user has no name; beside one, it changes nothing (NOOP).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from dualtrace.cjk import has_cjk
from dualtrace.encode.patterns import MERGEABLE, SINGLE_VALUED
from dualtrace.models import MemoryRecord
from dualtrace.text.districts import lies_in
from dualtrace.text.lexical import query_terms
from dualtrace.text.slots import BY_NAME, same_value
from dualtrace.text.slots.stored import holds_value, slot_of

Action = Literal["ADD", "NOOP", "REINFORCE", "MERGE", "SUPERSEDE", "INVALIDATE"]
CUED_SCORE = 0.9  # a new value said with a change cue ("moved", "换成", "now")
PLAIN_SCORE = 0.7  # a new value of a one-value slot said plainly

# Near-duplicates by embedding must also share most of their words: small multilingual
# embedders put unrelated Chinese sentences above 0.93 cosine.
MIN_WORD_OVERLAP = 0.5

_ARTICLES = re.compile(r"^(?:the|a|an|my|our|his|her|their)\s+", re.I)
_PUNCT = re.compile(r"[\s\"'“”‘’.,;:!?，。；：！？、()（）]+")


@dataclass(frozen=True)
class Decision:
    """What to do with one new memory."""

    action: Action
    targets: tuple[MemoryRecord, ...] = ()  # the existing memories it reinforces/merges/closes
    text: str | None = None  # MERGE: the target's new text
    object: str | None = None  # MERGE: the target's new object (the values joined)
    older: bool = False  # SUPERSEDE: the new memory is the older value and is closed itself
    why: dict[str, Any] | None = None  # SUPERSEDE / INVALIDATE of a slot: slot, cue, score


def normalise(value: str | None) -> str:
    """A value compared loosely: case, articles, punctuation and spacing ignored."""
    if not value:
        return ""
    return _PUNCT.sub(" ", _ARTICLES.sub("", value.strip())).strip().casefold()


def subject_key(record: MemoryRecord) -> tuple[str, str] | None:
    """(subject, predicate) compared loosely, or None when the memory has no triple."""
    if not record.subject or not record.predicate:
        return None
    return normalise(record.subject), record.predicate


def keys_considered(record: MemoryRecord) -> set[tuple[str, str]]:
    """The (subject, predicate) keys whose memories a new one is decided against: its own,
    and for a slot's end the attributes that end with it (a job left ends its role)."""
    key = subject_key(record)
    if key is None:
        return set()
    slot = slot_of(record) or {}
    found = BY_NAME.get(str(slot.get("attribute"))) if slot.get("ended") else None
    return {key} | {(key[0], other) for other in (found.ends_too if found else ())}


def values_of(record: MemoryRecord) -> list[str]:
    """The values a memory states for its predicate (a merged memory holds several)."""
    merged = record.metadata.get("values")
    if isinstance(merged, list) and merged:
        return [str(v) for v in merged]
    return [record.object] if record.object else []


def decide(
    new: MemoryRecord,
    same_subject: Sequence[MemoryRecord],
    near: Sequence[MemoryRecord],
) -> Decision:
    """Choose ADD / NOOP / REINFORCE / MERGE / SUPERSEDE for `new`.

    `same_subject`: valid memories with the same subject and predicate as `new`.
    `near`: valid memories whose fact trace says the same as `new`'s (same normalised text,
    or cosine at or above the writer's near-duplicate threshold), best first.
    """
    slot = slot_of(new)
    if slot is not None and subject_key(new) is not None:
        return _decide_slot(new, slot, same_subject, near)
    key = subject_key(new)
    if key is not None:
        same = [m for m in same_subject if subject_key(m) == key]
        value = normalise(new.object)
        repeats = [m for m in same if value and value in {normalise(v) for v in values_of(m)}]
        if repeats:
            return _repeat(new, repeats[0])
        # (a memory the slot catalogue read is closed by slot reasoning only: "我是五年多次"
        # of a visa is no new occupation)
        older = [m for m in same if not same_turn(new, m) and slot_of(m) is None]
        if older and new.predicate in SINGLE_VALUED:
            return _supersede(new, older)
        if same and new.predicate in MERGEABLE and new.object:
            return _merge(same[0], new.object)
    for other in near:
        if _separate(new, other):
            continue
        return _repeat(new, other)
    return Decision("ADD")


def _decide_slot(
    new: MemoryRecord,
    slot: dict[str, Any],
    same_subject: Sequence[MemoryRecord],
    near: Sequence[MemoryRecord],
) -> Decision:
    key = subject_key(new)
    holders = [m for m in same_subject if subject_key(m) == key and holds_value(m)]
    holders = same_qualifier(slot.get("qualifier"), holders)
    # what ends with it: the role held in a job that ended
    tied_keys = keys_considered(new) - {key}
    tied = [m for m in same_subject if subject_key(m) in tied_keys and holds_value(m)]
    value = slot.get("value") or new.object
    repeats = [m for m in holders if any(_same_place(new, value, v) for v in values_of(m))]
    why = {
        "slot": slot_label(slot),
        "cue": slot.get("cue"),
        "score": CUED_SCORE if slot.get("cue") else PLAIN_SCORE,
    }
    if slot.get("ended"):
        if not value:  # "I quit my job": whatever it held before, and what ends with it
            repeats = [m for m in holders + tied if not same_turn(new, m) and not _later(m, new)]
        # (a named employer left keeps the role: "leaving Fabrikam, joining Northwind" is one
        # UX designer's move)
        if repeats and not slot.get("hedged"):
            return Decision("INVALIDATE", tuple(repeats), why={**why, "score": CUED_SCORE})
        return Decision("ADD")
    if slot.get("addressed") and holders:
        # the name an assistant called the user by fills the name only while none is held:
        # the user's own word stands (its sources stay the user's), and so does the first
        # name the assistant used
        return Decision("NOOP", ((repeats or holders)[0],))
    if repeats:
        # a value said again, later, while a rival still holds ("works in QA at Andela … an
        # offer from Monzo", then "first month at Monzo done!"): the newest statement names
        # the value, so it is stored and the rival closed
        rivals = [
            m for m in holders if m not in repeats and not same_turn(new, m) and not _later(m, new)
        ]
        if rivals and not slot.get("many") and not slot.get("hedged"):
            decision = _supersede(new, rivals)
            return Decision(decision.action, decision.targets, older=decision.older, why=why)
        return _repeat(new, repeats[0])
    if not slot.get("cue"):  # a value said plainly closes only what earlier turns said
        holders = [m for m in holders if not same_turn(new, m)]
    if slot.get("hedged") or slot.get("many") or not holders:
        others = [m for m in near if not _separate(new, m) and holds_value(m) == holds_value(new)]
        return _repeat(new, others[0]) if others else Decision("ADD")
    decision = _supersede(new, holders)
    return Decision(decision.action, decision.targets, older=decision.older, why=why)


def _same_place(new: MemoryRecord, value: str | None, held: str) -> bool:
    """Whether a value says the held one again: loosely alike, or, for where one lives, the
    city the held district lies in ("住西乡", then "深圳这边…": still 西乡)."""
    if same_value(value, held):
        return True
    return new.predicate == "lives_in" and bool(value) and lies_in(held, str(value))


def same_qualifier(qualifier: str | None, holders: list[MemoryRecord]) -> list[MemoryRecord]:
    """The holders a statement with this qualifier is about: the same qualifier or none; a
    statement without one is about the one qualified slot the user has, if just one."""

    def of(m: MemoryRecord) -> str | None:
        return (slot_of(m) or {}).get("qualifier")

    if qualifier:
        return [m for m in holders if of(m) in (qualifier, None)]
    qualified = {of(m) for m in holders} - {None}
    if len(qualified) <= 1:
        return holders
    return [m for m in holders if of(m) is None]


def same_turn(new: MemoryRecord, other: MemoryRecord) -> bool:
    """Whether two memories were derived from a turn in common (said at the same moment)."""
    return not set(new.source_episode_ids).isdisjoint(other.source_episode_ids)


def slot_label(slot: dict[str, Any]) -> str:
    """ "subject/attribute/qualifier" for history entries ("user/budget/car")."""
    parts = [slot.get("subject") or "user", str(slot.get("attribute"))]
    if slot.get("qualifier"):
        parts.append(str(slot["qualifier"]))
    return "/".join(parts)


def _repeat(new: MemoryRecord, old: MemoryRecord) -> Decision:
    if set(new.source_episode_ids) <= set(old.source_episode_ids):
        return Decision("NOOP", (old,))
    return Decision("REINFORCE", (old,))


def _supersede(new: MemoryRecord, same: Sequence[MemoryRecord]) -> Decision:
    start = new.valid_from
    newer = [
        m for m in same if m.valid_from is not None and start is not None and m.valid_from > start
    ]
    if newer:  # the new memory is an older value, learned late: it is the one closed
        return Decision("SUPERSEDE", (min(newer, key=_valid_from),), older=True)
    return Decision("SUPERSEDE", tuple(same))


def _later(a: MemoryRecord, b: MemoryRecord) -> bool:
    """Whether `a` holds from a later moment than `b`."""
    return a.valid_from is not None and b.valid_from is not None and a.valid_from > b.valid_from


def _valid_from(m: MemoryRecord) -> str:
    return "" if m.valid_from is None else m.valid_from.isoformat()


def _merge(target: MemoryRecord, value: str) -> Decision:
    values = [*values_of(target), value.strip()]
    joiner = "、" if has_cjk("".join(values)) else " and "
    joined = joiner.join(values) if joiner == "、" else _english_list(values)
    old = target.object or ""
    if old and old in target.text:
        text = target.text.replace(old, joined, 1)
    else:
        text = f"{target.text.rstrip('.。')}; {value.strip()}"
    return Decision("MERGE", (target,), text=text, object=joined)


def _english_list(values: list[str]) -> str:
    if len(values) <= 2:
        return " and ".join(values)
    return ", ".join(values[:-1]) + " and " + values[-1]


_CARRIED = ("goal", "task", "summary")  # what a session end stores (session/carry.py)


def _separate(new: MemoryRecord, other: MemoryRecord) -> bool:
    """True when two similar-sounding memories are known to say different things."""
    if word_overlap(new.text, other.text) < MIN_WORD_OVERLAP:
        return True
    if (new.kind in _CARRIED) != (other.kind in _CARRIED):
        return True  # a fact is not a repeat of a goal, a task or a session's summary
    if new.subject and other.subject and normalise(new.subject) != normalise(other.subject):
        return True  # "Mel likes hiking" is not "Caroline likes hiking"
    if (
        new.predicate
        and new.predicate == other.predicate
        and normalise(new.object) not in {normalise(v) for v in values_of(other)}
    ):
        return True  # another value: accumulate (or supersede, decided above)
    if new.kind == "event" or other.kind == "event":  # the same words on another day
        day = new.valid_from.date() if new.valid_from else None
        return day != (other.valid_from.date() if other.valid_from else None)
    return False


def word_overlap(a: str, b: str) -> float:
    """Jaccard overlap of two texts' search terms (stop words dropped, Chinese segmented)."""
    x, y = set(query_terms(a, max_terms=64)), set(query_terms(b, max_terms=64))
    if not x or not y:
        return 1.0 if normalise(a) == normalise(b) else 0.0
    return len(x & y) / len(x | y)
