"""The Extractor port: a window of turns in, memory drafts out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from dualtrace.models import Episode, MemoryDraft


@dataclass(frozen=True)
class Window:
    """Turns to extract from (`episodes`), with the turns just before them (`context`).

    `participants` are the speakers' names in the conversation (used to write third-person
    statements and to resolve "you"); all episodes belong to one user and one session.
    """

    episodes: tuple[Episode, ...]
    context: tuple[Episode, ...] = ()
    participants: tuple[str, ...] = ()


@dataclass(frozen=True)
class Usage:
    """What an extraction cost: LLM calls and tokens (zero for the rules extractor)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(frozen=True)
class Extraction:
    """The drafts an extractor derived, what it cost, and the error if it failed."""

    drafts: list[MemoryDraft]
    extractor: str
    usage: Usage = field(default_factory=Usage)
    error: str | None = None


class Extractor(Protocol):
    """Derives typed memories (fact, preference, event) with fact and scene traces."""

    @property
    def name(self) -> str: ...

    def extract(self, window: Window) -> Extraction:
        """Drafts for the window's episodes; never raises for bad model output."""
        ...
