"""The offline scene trace: when, with whom, about what, and after what a memory was learned."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from dualtrace.models import Episode, TimeMention


def day_label(when: datetime) -> str:
    """`Mon 8 May 2023`."""
    return f"{when:%a} {when.day} {when:%B %Y}"


def _quote(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _names(names: Sequence[str]) -> str:
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def build_scene(
    episode: Episode,
    sentence: str,
    *,
    listeners: Sequence[str],
    previous: Episode | None,
    times: Sequence[TimeMention],
    topic: str | None,
) -> str:
    """One or two sentences placing what was said in its moment, with dates resolved.

    "On Mon 8 May 2023, talking with Melanie about community, after Melanie said “How have
    you been?”, Caroline said: “I went to a support group yesterday.” (yesterday = Sun 7 May
    2023)"
    """
    speaker = episode.speaker or episode.role
    parts = [f"On {day_label(episode.occurred_at)}"]
    if listeners:
        parts.append(f"talking with {_names(listeners)}")
    if topic:
        parts.append(f"about {topic}")
    if previous is not None and previous.text.strip():
        who = previous.speaker or previous.role
        parts.append(f"after {who} said “{_quote(previous.text, 140)}”")
    scene = ", ".join(parts) + f", {speaker} said: “{_quote(sentence, 220)}”"
    notes = [f"{m.text} = {m.label}" for m in times]
    if notes:
        scene += f" ({'; '.join(notes)})"
    return scene + "."
