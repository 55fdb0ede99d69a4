"""A session's rolling summary: the current value of each one-valued fact, notes, the active
goal and pending tasks, read from the stored turns with the rule extractor.

Which value is current is decided as the writer decides it for long-term memory
(`lifecycle/consolidate.decide`, on the slots of `text/slots`): a new value of a one-valued
slot replaces the held one, an ended one removes it, a hedge or an older value learned late
leaves it, and another person's slot is theirs. A session and the long-term store therefore
agree on every statement (tests/test_session_slots.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from dualtrace.encode import patterns
from dualtrace.encode.base import Window
from dualtrace.encode.rules import RulesExtractor
from dualtrace.lifecycle import consolidate
from dualtrace.models import Episode, MemoryDraft, MemoryRecord
from dualtrace.text.dates import resolve_text
from dualtrace.text.sentences import split_sentences
from dualtrace.text.slots.stored import holds_value, slot_of

GOAL_PREDICATES = frozenset({"plans_to", "decided_to"})
MAX_NOTES = 12  # the summary stays small: the newest notes and tasks only
MAX_TASKS = 5
_TASK = re.compile(
    r"\b(?:remind me|to-?do|to do list|I need to|I have to|I must|don['’]?t (?:let me )?forget"
    r"|make sure (?:I|to))\b|别忘了|别忘记|记得|提醒我|待办|我需要|我得",
    re.I,
)
_NOT_WORD = re.compile(r"[\W_]+")
Key = tuple[str, str]  # (subject casefolded, predicate)


@dataclass(frozen=True)
class TurnFacts:
    """What one turn adds to the summary."""

    keyed: tuple[tuple[Key, str, str], ...] = ()  # (key, object, subject as written)
    stated: tuple[MemoryRecord, ...] = ()  # the one-valued statements, as the writer sees them
    notes: tuple[str, ...] = ()
    goal: str | None = None
    tasks: tuple[str, ...] = ()


@dataclass
class _Value:
    subject: str
    predicate: str
    object: str
    seq: int
    record: MemoryRecord | None = None


@dataclass
class RollingSummary:
    """The rolling summary: single-valued facts by key (newest wins), notes, goal, tasks."""

    values: dict[Key, _Value] = field(default_factory=dict)
    notes: dict[str, tuple[str, int]] = field(default_factory=dict)
    goal: str | None = None
    tasks: dict[str, str] = field(default_factory=dict)

    def fold(self, seq: int, facts: TurnFacts) -> None:
        """Take in one turn's facts (turns arrive oldest first)."""
        for record in facts.stated:
            self._decide(seq, record)
        for note in facts.notes:
            self.notes.pop(normalise_value(note), None)  # said again: it moves to the newest place
            self.notes[normalise_value(note)] = (note, seq)
        for task in facts.tasks:
            self.tasks.pop(normalise_value(task), None)
            self.tasks[normalise_value(task)] = task
        self.goal = facts.goal or self.goal
        for table, cap in ((self.notes, MAX_NOTES), (self.tasks, MAX_TASKS)):
            for stale in list(table)[:-cap]:
                del table[stale]

    def _decide(self, seq: int, record: MemoryRecord) -> None:
        """Take in one statement as the writer would (see the module docstring)."""
        key = value_key(record)
        held = [v.record for v in self.values.values() if v.record is not None]
        keys = consolidate.keys_considered(record)
        same = [m for m in held if consolidate.subject_key(m) in keys]
        decision = consolidate.decide(record, same, [])
        if decision.action in ("SUPERSEDE", "INVALIDATE") and not decision.older:
            gone = {m.id for m in decision.targets}
            self.values = {
                k: v for k, v in self.values.items() if v.record is None or v.record.id not in gone
            }
        if key is None or decision.older or decision.action in ("NOOP", "REINFORCE"):
            return
        if decision.action != "INVALIDATE" and holds_value(record):
            subject = record.subject or ""
            self.values[key] = _Value(subject, key[1], record.object or "", seq, record)

    def current(self) -> dict[Key, str]:
        """Each single-valued fact's newest value, normalised for comparison."""
        return {key: normalise_value(v.object) for key, v in self.values.items()}

    def lines(self, before_seq: int | None = None) -> list[str]:
        """Summary lines, most important first: goal, tasks, facts and notes (newest first).

        Facts and notes whose newest statement is a turn at or after `before_seq` are left
        out: that turn is shown in full. The goal and tasks are always shown.
        """
        folded = (lambda seq: True) if before_seq is None else (lambda seq: seq < before_seq)
        lines = [f"Goal: {self.goal}"] if self.goal else []
        lines += [f"To do: {task}" for task in reversed(self.tasks.values())]
        values = sorted(self.values.values(), key=lambda v: -v.seq)
        lines += [
            f"{capitalise(v.subject)} — {v.predicate.replace('_', ' ')}: {v.object}"
            for v in values
            if folded(v.seq)
        ]
        lines += [note for note, seq in reversed(self.notes.values()) if folded(seq)]
        return lines

    def profile(self) -> dict[Key, str]:
        """The single-valued facts learned in this session: (subject, predicate) → value."""
        return {key: v.object for key, v in self.values.items()}


def read_turn(turn: Episode, extractor: RulesExtractor) -> TurnFacts:
    """What a turn adds to a session summary, read sentence by sentence with the rules.

    Single-valued facts (patterns.SINGLE_VALUED) are keyed by (subject, predicate); the
    latest plan or decision is the goal; "remind me", "记得"… sentences are tasks; other
    memorable statements are notes. Only the roles the extractor mines are read.
    """
    if turn.role not in extractor.config.roles:
        return TurnFacts()
    keyed: list[tuple[Key, str, str]] = []
    stated: list[MemoryRecord] = []
    notes: list[str] = []
    tasks: list[str] = []
    goal: str | None = None
    for sentence in split_sentences(turn.text, clauses=True):
        drafts = extractor.extract(Window((replace(turn, text=sentence),))).drafts
        if _TASK.search(sentence):
            tasks.append(drafts[0].text if drafts else resolve_text(sentence, turn.occurred_at))
            continue
        for d in drafts:
            record = _as_record(d, turn, len(stated))
            key = value_key(record)
            if one_valued(record) or many_valued(record):
                stated.append(record)
                if key is not None and holds_value(record):
                    keyed.append((key, d.object or "", d.subject or ""))
            elif d.predicate in GOAL_PREDICATES:
                goal = d.text
            else:
                notes.append(d.text)
    return TurnFacts(tuple(keyed), tuple(stated), tuple(notes), goal, tuple(tasks))


def one_valued(record: MemoryRecord) -> bool:
    """Whether a statement is about a fact with one value at a time: a slot that holds one
    (said, ended or hedged), or a one-valued predicate of the pattern tables."""
    if not record.subject or not record.predicate:
        return False
    slot = slot_of(record)
    if slot is not None:
        return not slot.get("many")
    return record.predicate in patterns.SINGLE_VALUED and bool(record.object)


def many_valued(record: MemoryRecord) -> bool:
    """Whether a statement is of a slot that holds several values at once (pets, languages,
    children): each value is kept, or removed when it ends, on its own."""
    slot = slot_of(record)
    return slot is not None and bool(slot.get("many")) and bool(record.subject)


def value_key(record: MemoryRecord) -> Key | None:
    """(subject, predicate) of a one-valued statement, with its slot's qualifier if any
    ("budget:car"), or of a many-valued one with its value ("pet=可乐"); None when it
    states none."""
    subject = (record.subject or "").casefold()
    if many_valued(record) and record.object:
        return subject, f"{record.predicate}={normalise_value(record.object)}"
    if not one_valued(record):
        return None
    qualifier = (slot_of(record) or {}).get("qualifier")
    predicate = f"{record.predicate}:{qualifier}" if qualifier else str(record.predicate)
    return subject, predicate


def _as_record(d: MemoryDraft, turn: Episode, n: int) -> MemoryRecord:
    """A draft as the writer would store it: dated, sourced, its slot in its metadata."""
    return MemoryRecord(
        id=f"{turn.id}#{n}",
        user_id="",
        kind=d.kind,
        text=d.text,
        subject=d.subject,
        predicate=d.predicate,
        object=d.object,
        valid_from=d.valid_from or turn.occurred_at,
        source_episode_ids=(turn.id,),
        metadata={"slot": d.slot} if d.slot else {},
    )


def normalise_value(text: str) -> str:
    """A value or note as compared: case, spaces and punctuation ignored."""
    return _NOT_WORD.sub("", text.casefold())


_FACT_LINE = re.compile(r"^(?P<subject>.+?) — (?P<predicate>[^:]+): (?P<value>.+)$")


def outdated_line(line: str, current: dict[Key, str]) -> bool:
    """Whether a summary line (as `RollingSummary.lines` writes a fact) states another value
    of a single-valued fact than `current` holds (a later session's newer value)."""
    found = _FACT_LINE.match(line)
    if found is None:
        return False
    key = (found["subject"].casefold(), found["predicate"].replace(" ", "_"))
    return key in current and normalise_value(found["value"]) != current[key]


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]
