"""A session's rolling summary: single-valued facts (newest value wins), notes, the active
goal and pending tasks, read from the stored turns with the rule extractor."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from dualtrace.encode import patterns
from dualtrace.encode.base import Window
from dualtrace.encode.rules import RulesExtractor
from dualtrace.models import Episode
from dualtrace.text.dates import resolve_text
from dualtrace.text.sentences import split_sentences

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
    notes: tuple[str, ...] = ()
    goal: str | None = None
    tasks: tuple[str, ...] = ()


@dataclass
class _Value:
    subject: str
    predicate: str
    object: str
    seq: int


@dataclass
class RollingSummary:
    """The rolling summary: single-valued facts by key (newest wins), notes, goal, tasks."""

    values: dict[Key, _Value] = field(default_factory=dict)
    notes: dict[str, tuple[str, int]] = field(default_factory=dict)
    goal: str | None = None
    tasks: dict[str, str] = field(default_factory=dict)

    def fold(self, seq: int, facts: TurnFacts) -> None:
        """Take in one turn's facts (turns arrive oldest first)."""
        for key, obj, subject in facts.keyed:
            self.values[key] = _Value(subject, key[1], obj, seq)
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
    notes: list[str] = []
    tasks: list[str] = []
    goal: str | None = None
    for sentence in split_sentences(turn.text, clauses=True):
        drafts = extractor.extract(Window((replace(turn, text=sentence),))).drafts
        if _TASK.search(sentence):
            tasks.append(drafts[0].text if drafts else resolve_text(sentence, turn.occurred_at))
            continue
        for d in drafts:
            if d.predicate in patterns.SINGLE_VALUED and d.subject and d.object:
                keyed.append(((d.subject.casefold(), d.predicate), d.object, d.subject))
            elif d.predicate in GOAL_PREDICATES:
                goal = d.text
            else:
                notes.append(d.text)
    return TurnFacts(tuple(keyed), tuple(notes), goal, tuple(tasks))


def normalise_value(text: str) -> str:
    """A value or note as compared: case, spaces and punctuation ignored."""
    return _NOT_WORD.sub("", text.casefold())


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]
