"""Turns for extraction unit tests: a stored episode of one session, said by a named speaker
at a given time (no store needed)."""

from __future__ import annotations

from datetime import UTC, datetime

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
