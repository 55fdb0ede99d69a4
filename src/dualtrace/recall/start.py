"""The context a conversation starts with: who the user is first, then what the input needs.

Seed 002's layout puts the user's current profile before the relevant memories. At session
start (a new session's context, or `Memory.context` without a query, or with
`profile=True`) the long-term part therefore leads with the profile — each slot's current
value, the open goals and tasks, the last session's summary, read from what the write path
keeps (`profile.gather`: one store read, no search) — and the memories relevant to the input
(`read.read`) follow. `start_profile_share` of the budget is the profile's; the memories get
the rest and, as the profile is rendered after them, whatever room they leave. Both parts cite
the same turn by the same label.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from dualtrace.errors import ValidationError
from dualtrace.inputs import check_count, check_flag, check_query, parse_time
from dualtrace.models import Context, Hit, MemoryRecord, Profile
from dualtrace.recall.profile import Picture, gather
from dualtrace.recall.read import Keep, Reinforce, read
from dualtrace.recall.search import Searcher, search_scope
from dualtrace.text.tokens import count_tokens

SEPARATOR = "\n\n"
#: Whether a memory of the profile states a value the caller knows to be outdated (a
#: session's own newer turn said another).
Stale = Callable[[MemoryRecord], bool]


@dataclass(frozen=True)
class Opening:
    """A starting context's two parts: the profile, then the memories for the input."""

    profile: Profile
    memories: Context

    def joined(self) -> Context:
        """One context: the profile's text, then the memories'; the memories' items, and
        every label either part cites."""
        text = SEPARATOR.join(t for t in (self.profile.text, self.memories.text) if t)
        references = {**self.memories.references, **self.profile.references}
        return Context(
            text=text,
            items=list(self.memories.items),
            tokens=count_tokens(text) if text else 0,
            references=references,
        )


def context(
    searcher: Searcher,
    query: str | None,
    *,
    profile: bool | None,
    user_id: str,
    max_tokens: int,
    now: datetime | str | None = None,
    as_of: datetime | str | None = None,
    session_id: str | None = None,
    limit: int | None = None,
    reinforce: Reinforce | None = None,
) -> Context:
    """`Memory.context`: the memories for `query` (`read.read`), led by the user's profile
    when `profile` is True, or None and there is no query (a conversation starting)."""
    leads = query is None if profile is None else check_flag("profile", profile)
    if not leads:
        if query is None:
            raise ValidationError(
                "query is None and profile=False: nothing to read; pass a query, or leave "
                "profile unset (or True) for the context a conversation starts with"
            )
        return read(
            searcher,
            query,
            user_id=user_id,
            max_tokens=max_tokens,
            now=now,
            as_of=as_of,
            session_id=session_id,
            limit=limit,
            reinforce=reinforce,
        )
    return opening(
        searcher,
        query,
        user_id=user_id,
        max_tokens=max_tokens,
        share=searcher.config.start_profile_share,
        now=now,
        as_of=as_of,
        session_id=session_id,
        limit=limit,
        reinforce=reinforce,
    ).joined()


def opening(
    searcher: Searcher,
    query: str | None,
    *,
    user_id: str,
    max_tokens: int,
    share: float,
    now: datetime | str | None = None,
    as_of: datetime | str | None = None,
    session_id: str | None = None,
    limit: int | None = None,
    keep: Keep | None = None,
    reinforce: Reinforce | None = None,
    stale: Stale | None = None,
    stale_line: Callable[[str], bool] | None = None,
) -> Opening:
    """The profile and the memories for `query` (none when None) in `max_tokens`: the
    profile has `share` of it for sure, the memories the rest (see the module docstring).
    `stale` drops profile values, `stale_line` lines of the last summary; `keep` and
    `reinforce` are `read`'s."""
    max_tokens = check_count(
        "max_tokens", max_tokens, fix="pass the context's size in tokens, e.g. 2000"
    )
    user_id, _ = searcher.check(user_id, 1 if limit is None else limit)
    if query is not None:  # checked here too: with no room left for memories, not read
        query = check_query(query, searcher.config.max_message_chars)
    search_scope(searcher.config, as_of, now, None, session_id, None)  # checks them
    at = None if as_of is None else parse_time(as_of, field="as_of")
    picture = gather(searcher.store, user_id, as_of=at, history=False)
    if stale is not None:
        picture = picture.without(i for i, m in picture.records.items() if stale(m))
    if stale_line is not None:
        picture = picture.summary_without(stale_line)
    empty = Context(text="", items=[], tokens=0)
    if query is None:
        return Opening(picture.render(max_tokens), empty)
    first = picture.render(int(max_tokens * share))
    gap = count_tokens(SEPARATOR) if first.text else 0
    room = max_tokens - first.tokens - gap
    memories = empty
    if room >= 1:
        memories = read(
            searcher,
            query,
            user_id=user_id,
            max_tokens=room,
            now=now,
            as_of=as_of,
            session_id=session_id,
            limit=limit,
            keep=_not_shown(picture, keep),
            reinforce=reinforce,
        )
    return Opening(_beside(picture, memories, max_tokens), memories)


def _not_shown(picture: Picture, keep: Keep | None) -> Keep:
    """The caller's `keep`, less the values, goals and tasks the profile shows itself."""
    shown = picture.shown_ids()

    def kept(hits: list[Hit]) -> list[Hit]:
        hits = keep(hits) if keep is not None else hits
        return [h for h in hits if h.id not in shown]

    return kept


def _beside(picture: Picture, memories: Context, max_tokens: int) -> Profile:
    """The profile rendered in the room the memories left, sharing their labels; a token
    less each time BPE joins the two parts into more than `max_tokens`."""
    gap = count_tokens(SEPARATOR) if memories.text else 0
    room = max_tokens - memories.tokens - gap
    while room >= 1:
        profile = picture.render(room, cited=memories.references)
        joined = Opening(profile, memories).joined()
        if joined.tokens <= max_tokens:
            return profile
        room -= joined.tokens - max_tokens
    return picture.render(0, cited=memories.references)  # no room: an empty text
