"""Turns for extraction unit tests: a stored episode of one session, said by a named speaker
at a given time (no store needed), and what the rules extractor drafts of one."""

from __future__ import annotations

from datetime import UTC, datetime

from dualtrace.encode.base import MemoryDraft, Window
from dualtrace.encode.rules import RulesExtractor
from dualtrace.models import Episode

MAY_8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def turn(
    n: int, text: str, speaker: str = "Caroline", when: datetime = MAY_8, role: str = "user"
) -> Episode:
    """The `n`th turn of session "s1" of user "u"."""
    return Episode(
        id=f"ep_{n}",
        user_id="u",
        session_id="s1",
        agent_id=None,
        seq=n,
        role=role,
        speaker=speaker,
        text=text,
        occurred_at=when,
        recorded_at=when,
        external_id=f"D1:{n}",
        metadata={},
        content_hash=str(n),
    )


def drafts_of(text: str) -> list[MemoryDraft]:
    """The memories the rules extractor drafts of one user turn said by "Caroline"."""
    return RulesExtractor().extract(Window((turn(1, text),), (), ("Caroline",))).drafts


def slots_of(text: str, *, hedged: bool = True) -> dict[str, str]:
    """The slots those drafts fill, attribute -> value (`hedged=False`: only the held ones)."""
    return {
        d.slot["attribute"]: d.slot["value"]
        for d in drafts_of(text)
        if d.slot and (hedged or not d.slot["hedged"])
    }


def held_statements(text: str) -> set[tuple[str, str | None]]:
    """(attribute, value) of what a text says the speaker holds now, clause by clause: not
    someone else's, not ended, not only hedged."""
    from dualtrace.encode.rules import _clauses
    from dualtrace.text.slots import find_statements

    return {
        (s.attribute, s.value)
        for clause in _clauses(text)
        for s in find_statements(clause)
        if s.subject is None and not s.ended and not s.hedged
    }
