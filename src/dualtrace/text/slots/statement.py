"""What a clause says about a slot, and what a question asks of one (`finder.py` reads
both)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SlotStatement:
    """What a clause says about one slot (see the module docstring)."""

    attribute: str
    value: str | None
    subject: str | None = None
    qualifier: str | None = None
    ended: bool = False
    hedged: bool = False
    cue: str | None = None
    many: bool = False
    start: int = 0  # where the statement's frame begins in the clause
    given: bool = False  # named beside its role ("my partner Arjun"): true in a question too

    @property
    def key(self) -> tuple[str, str, str]:
        """(subject, attribute, qualifier) with the speaker as ""."""
        return self.subject or "", self.attribute, self.qualifier or ""


@dataclass(frozen=True)
class SlotQuestion:
    """A slot a question asks about."""

    attribute: str
    subject: str | None = None
    qualifier: str | None = None
