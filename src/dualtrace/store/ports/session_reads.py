"""The session role, read side."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from dualtrace.models import Episode, SessionRow


class SessionReads(Protocol):
    """Reading short-term sessions: bookkeeping rows and the turns said in them."""

    def get_session(self, user_id: str, session_id: str) -> SessionRow | None:
        """A session's bookkeeping row, or None if this user has no such session."""
        ...

    def idle_sessions(self, before: datetime) -> list[tuple[str, str]]:
        """(user id, session id) of open sessions, of every user, last active before `before`."""
        ...

    def session_episodes(self, user_id: str, session_id: str, after_seq: int) -> list[Episode]:
        """The session's turns with seq > `after_seq`, in order."""
        ...

    def sessions_with_role(self, user_id: str, session_ids: Sequence[str], role: str) -> set[str]:
        """Those of these sessions in which a turn of `role` was said (e.g. "assistant")."""
        ...
