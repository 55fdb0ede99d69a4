"""From validated messages to stored episodes and their search keys."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from dualtrace.embed.cache import text_hash
from dualtrace.models import Episode
from dualtrace.text.lexical import index_text


def new_id(prefix: str) -> str:
    """A new record id such as `ep_3f9a…` (prefix says what kind of record it is)."""
    return f"{prefix}_{uuid.uuid4().hex}"


def date_label(when: datetime) -> str:
    """The date as it appears in indexed text and context lines: `2026-03-02 Mon`."""
    return when.strftime("%Y-%m-%d %a")


def episode_key_text(episode: Episode, text: str | None = None) -> str:
    """What a turn (or `text`, a chunk of it) is indexed as: its date, its speaker, its words."""
    speaker = episode.speaker or episode.role
    words = episode.text if text is None else text
    return f"[{date_label(episode.occurred_at)}] {speaker}: {words}"


def lexical_body(texts: Sequence[str]) -> str:
    """Full-text body: the given keys, with Chinese segmented for the index."""
    return index_text("\n".join(texts))


def content_hash(role: str, speaker: str | None, text: str) -> str:
    """Hash of what was said and by whom (identical turns share vectors)."""
    return text_hash(f"{role}\x1f{speaker or ''}\x1f{text}")
