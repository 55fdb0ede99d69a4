"""A user's profile after sessions of their own turns (each a day and its user turns, a minute
apart), and one attribute's values in it: what the profile tests build and read."""

from __future__ import annotations

from pathlib import Path

from dualtrace import Memory, Profile
from dualtrace.embed.fake import FakeEmbedder


def profile_after(
    tmp_path: Path, sessions: list[tuple[str, list[str]]], as_of: str, *, history: bool = False
) -> Profile:
    """User "u"'s profile at `as_of` after `sessions` (one store in `tmp_path`); `history`:
    with what each value replaced."""
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        for n, (day, turns) in enumerate(sessions):
            messages = [
                {"role": "user", "content": text, "timestamp": f"{day}T10:{i:02d}:00+00:00"}
                for i, text in enumerate(turns)
            ]
            mem.add(messages, user_id="u", session_id=f"s{n}")
        return mem.profile("u", as_of=as_of, history=history)


def values(profile: Profile, attribute: str) -> list[str]:
    """The profile's values of one attribute, in its order."""
    return [v.value for v in profile.values if v.attribute == attribute]
