"""Short-term sessions: every turn stored at once, a rolling fact summary, and a context that
splits a token budget between long-term memories, that summary and the recent turns."""

from dualtrace.session.session import Session, SessionParts, end_idle_sessions

__all__ = ["Session", "SessionParts", "end_idle_sessions"]
