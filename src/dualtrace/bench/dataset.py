"""What a benchmark hands the runner: users with dated sessions of turns, and their questions.

Loaders (`locomo.py`, `longmemeval.py`) turn a benchmark's files into these shapes, so the
runner, the metrics and the report never look at a benchmark's own JSON layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Turn:
    """One message as it is stored: its external id, role, speaker name and text."""

    external_id: str
    role: str
    speaker: str | None
    text: str

    def message(self) -> dict[str, Any]:
        """The message dict for `Memory.add`."""
        msg: dict[str, Any] = {"id": self.external_id, "role": self.role, "content": self.text}
        if self.speaker is not None:
            msg["name"] = self.speaker
        return msg


@dataclass(frozen=True)
class Session:
    """A session of turns that took place at one date."""

    session_id: str
    when: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    """A question with its gold evidence.

    `evidence`: external ids of the turns that hold the answer. `answer_sessions`: session
    ids that hold it (empty when the benchmark does not say). `scored`: whether it counts in
    the overall figures (LoCoMo category 5 and LongMemEval abstention are reported apart).
    """

    qid: str
    text: str
    answer: str | None
    category: str
    evidence: frozenset[str]
    now: datetime
    scored: bool = True
    answer_sessions: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Unit:
    """One user's history and the questions asked about it (a conversation, or one question)."""

    user_id: str
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]

    @property
    def turn_count(self) -> int:
        """How many turns the history holds."""
        return sum(len(s.turns) for s in self.sessions)

    def evidence_text(self, question: Question) -> str:
        """The text of the question's evidence turns, one per line."""
        return "\n".join(
            t.text for s in self.sessions for t in s.turns if t.external_id in question.evidence
        )


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark: its units, category names in display order, and loader notes."""

    name: str
    units: tuple[Unit, ...]
    categories: tuple[str, ...]
    notes: tuple[str, ...] = ()

    @property
    def questions(self) -> list[tuple[Unit, Question]]:
        """Every question with the unit it belongs to."""
        return [(u, q) for u in self.units for q in u.questions]
