"""Messages to an assistant: the user's turns in a session where an assistant answers.

Such a message packs several facts into one request ("I'm looking for BBQ sauce recipes. I've
been making my own from scratch. By the way, I just got a smoker today."), and each memory
drawn from one of its sentences loses the others ("the user has been making the user's own
from scratch"). `context()` shows a memory drawn from such a message as the message itself
(`MemoryConfig.context_user_messages`); between people, a memory stands on its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from dualtrace.models import Hit
from dualtrace.store.ports.session_reads import SessionReads


def messages_to_assistant(store: SessionReads, user_id: str, hits: Sequence[Hit]) -> frozenset[str]:
    """Ids of the user turns behind memory hits that were said in a session with an
    assistant."""
    turns = {
        source.episode_id: source.session_id
        for hit in hits
        if hit.kind != "episode"
        for source in hit.sources
        if source.role == "user" and source.session_id is not None
    }
    if not turns:
        return frozenset()
    sessions = store.sessions_with_role(user_id, list(turns.values()), "assistant")
    return frozenset(turn for turn, session in turns.items() if session in sessions)
