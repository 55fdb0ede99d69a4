"""Hits for read-path unit tests: a stored turn or memory as search returns it, said by the
user at a given time (no store needed)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dualtrace.models import Hit, Source


def said_hit(
    i: str,
    kind: str,
    text: str,
    said: datetime,
    *,
    happened: datetime | None = None,
    score: float = 1.0,
    source_id: str | None = None,
    **fields: Any,
) -> Hit:
    """A hit of `kind` whose one source turn the user said at `said`; its validity starts at
    `happened` (default: when said). `fields` set any other `Hit` field."""
    source = Source(source_id or f"{i}-t", None, None, said, "user", text, role="user")
    values: dict[str, Any] = {
        "valid_from": happened or said,
        "valid_to": None,
        "metadata": {},
        **fields,
    }
    return Hit(
        i,
        kind,
        text,
        None,
        recorded_at=said,
        session_id=None,
        sources=[source],
        score=score,
        **values,
    )
