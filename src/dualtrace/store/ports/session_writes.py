"""The session role, write side."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class SessionWrites(Protocol):
    """Writing short-term session bookkeeping (never text)."""

    def touch_session(self, user_id: str, session_id: str, at: datetime) -> None:
        """Create a session row (started at `at`) or move its last activity forward."""
        ...

    def set_session_extracted(self, user_id: str, session_id: str, seq: int) -> None:
        """Record that the session's turns up to `seq` are in long-term memory."""
        ...

    def end_session(self, user_id: str, session_id: str, at: datetime, reason: str) -> bool:
        """Mark an open session ended; False if it was already ended or does not exist."""
        ...
