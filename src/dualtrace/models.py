"""Pure data passed between the parts of dualtrace (no I/O, no project imports)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

EventKind = Literal["ADD", "UPDATE", "SUPERSEDE", "INVALIDATE", "MERGE", "NOOP", "REINFORCE"]
MEMORY_KINDS = ("fact", "preference", "event", "episode_chunk", "summary", "goal", "task")
ITEM_KINDS = ("episode", *MEMORY_KINDS)


@dataclass(frozen=True)
class Message:
    """One validated input message, ready to be stored as an episode."""

    content: str
    role: str
    name: str | None
    occurred_at: datetime
    external_id: str | None
    metadata: dict[str, Any]


@dataclass(frozen=True)
class Episode:
    """A stored turn: the lossless record of what was said."""

    id: str
    user_id: str
    session_id: str | None
    agent_id: str | None
    seq: int
    role: str
    speaker: str | None
    text: str
    occurred_at: datetime
    recorded_at: datetime
    external_id: str | None
    metadata: dict[str, Any]
    content_hash: str


@dataclass(frozen=True)
class MemoryRecord:
    """A derived memory with its fact trace (text) and scene trace."""

    id: str
    user_id: str
    kind: str
    text: str
    scene: str | None = None
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    topic: str | None = None
    importance: float = 0.5
    confidence: float = 1.0
    access_count: int = 0
    last_accessed_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    recorded_at: datetime | None = None
    invalidated_at: datetime | None = None
    superseded_by: str | None = None
    expire_at: datetime | None = None
    archived: bool = False
    session_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    source_episode_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class EntityMention:
    """An entity named in text: as written, its normalised key, and its type."""

    name: str
    norm: str
    type: str  # person | place | org | product | other


@dataclass(frozen=True)
class TimeMention:
    """A time expression in text, resolved against an anchor date to a day range."""

    text: str
    start: int  # character offsets of the expression in the text
    end: int
    first_day: date
    last_day: date
    granularity: str  # day | week | weekend | month | season | year

    @property
    def label(self) -> str:
        """The resolved range as text: `Sun 7 May 2023`, `May 2023`, `1 May 2023 – 7 May 2023`."""
        first, last = self.first_day, self.last_day
        if first == last:
            return f"{first:%a} {first.day} {first:%B %Y}"
        if self.granularity == "month":
            return f"{first:%B %Y}"
        if self.granularity == "year":
            return f"{first:%Y}"
        return f"{first.day} {first:%B %Y} – {last.day} {last:%B %Y}"


@dataclass(frozen=True)
class MemoryDraft:
    """A memory proposed by an extractor, before consolidation gives it an id."""

    kind: str  # fact | preference | event
    text: str  # the fact trace: one declarative third-person statement
    scene: str  # the scene trace: when, where, who, what led to it
    source_episode_ids: tuple[str, ...]
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    topic: str | None = None
    importance: float = 0.5
    valid_from: datetime | None = None
    expire_at: datetime | None = None
    entities: tuple[EntityMention, ...] = ()
    keyphrases: tuple[str, ...] = ()
    # The slot the fact fills (attribute, qualifier, subject, value, ended, hedged, cue,
    # many), kept in the memory's metadata as "slot"; None when it fills none.
    slot: dict[str, Any] | None = None


@dataclass(frozen=True)
class Source:
    """The episode a hit came from (provenance)."""

    episode_id: str
    external_id: str | None
    session_id: str | None
    occurred_at: datetime
    speaker: str | None
    text: str
    role: str | None = None  # "user", "assistant", … (None where not known)


@dataclass
class Item:
    """A stored record as the public API returns it: an episode or a memory."""

    id: str
    kind: str
    text: str
    scene: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    session_id: str | None
    sources: list[Source]
    metadata: dict[str, Any] = field(default_factory=dict)
    importance: float | None = None  # memories only: 0..1, reinforced when recalled
    invalidated_at: datetime | None = None  # memories only: when it was found to be stale
    superseded_by: str | None = None  # memories only: the memory holding the newer value
    archived: bool = False  # memories only: out of default search, restorable

    @property
    def occurred_at(self) -> datetime:
        """When what this item says happened or was said (its validity start, else record time)."""
        if self.valid_from is not None:
            return self.valid_from
        if self.sources:
            return self.sources[0].occurred_at
        return self.recorded_at

    @property
    def said_at(self) -> datetime:
        """When this item was first said: a turn's time, a memory's earliest source turn
        (its `occurred_at` when its sources are not read). "I stopped drinking back in March",
        said in May, happened in March but is the newest word on drinking."""
        if self.kind != "episode" and self.sources:
            return min(s.occurred_at for s in self.sources)
        return self.occurred_at


@dataclass
class Hit(Item):
    """A search result: an item with its fused score and per-channel scores."""

    score: float = 0.0
    scores: dict[str, float] = field(default_factory=dict)
    #: In a `Context`: the labels its text cites this item's sources by, in the order of
    #: `sources` (`Context.references` maps each label to a stored turn id).
    refs: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class AddResult:
    """What `Memory.add` stored: episode ids, memory events (id, event, text), and warnings.

    A warning says that something was degraded but nothing was lost, e.g. the LLM extractor
    failed and the rules extractor covered the turns instead.
    """

    episodes: list[str]
    events: list[tuple[str, EventKind, str]]
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Context:
    """A prompt-ready block of memories under a token budget."""

    text: str
    items: list[Hit]
    tokens: int
    #: Each source label the text cites ("[2]", or the caller's short message id) -> the id
    #: of the stored turn (`Memory.get` reads it).
    references: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class HistoryEntry:
    """One change to a record, oldest first in `Memory.history`."""

    id: int
    record_id: str
    event: str
    old_text: str | None
    new_text: str | None
    at: datetime
    actor: str
    detail: dict[str, Any] = field(default_factory=dict)  # what an undo needs (ids, old values)


@dataclass(frozen=True)
class Candidate:
    """A store search result before fusion: which record, through which trace, how well."""

    record_id: str
    trace: str
    score: float


@dataclass(frozen=True)
class SessionRow:
    """A short-term session's bookkeeping: times, how far it was extracted, non-text flags.

    It never holds what was said; a session's turns are episodes with its session id.
    """

    user_id: str
    session_id: str
    started_at: datetime
    last_active_at: datetime
    ended_at: datetime | None
    extracted_seq: int  # turns with seq <= this were written to long-term memory (-1: none)
    state: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SessionContext:
    """A session's prompt-ready context: memories, rolling summary and recent turns.

    `sections` gives the tokens of each section ("memories", "summary", "turns"); `turns`
    lists the episode ids of the recent turns included, oldest first; `summary` the
    summary lines included.
    """

    text: str
    tokens: int
    sections: dict[str, int]
    turns: list[str]
    memories: list[Hit]
    summary: list[str]
    #: Each source label the memories section cites ("[2]", or the caller's short message
    #: id) -> the id of the stored turn, as in `Context.references`.
    references: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ApiKey:
    """An API key of the HTTP service as stored (never the key itself, only its hash).

    `user_id` is the one user the key acts for; None for an admin key, which may name any.
    """

    key_id: str
    user_id: str | None
    admin: bool
    created_at: datetime
    revoked_at: datetime | None = None
    label: str | None = None


@dataclass(frozen=True)
class Operation:
    """A deferred add: the turns it stored, and how many still wait for their memories."""

    id: str
    user_id: str
    created_at: datetime
    episode_ids: tuple[str, ...]
    pending: int
    error: str | None = None

    @property
    def state(self) -> str:
        """ "pending" while some of its turns wait for embedding and extraction, else "done"."""
        return "pending" if self.pending else "done"


@dataclass(frozen=True)
class UserSummary:
    """A user as an administrator sees it: how many turns and valid memories it has."""

    user_id: str
    turns: int
    memories: int


@dataclass(frozen=True)
class Turn:
    """A stored turn with the ids of the valid memories derived from it."""

    episode: Episode
    memory_ids: tuple[str, ...]


@dataclass(frozen=True)
class Page:
    """One page of a listing, and the cursor of the next (None on the last page)."""

    items: list[Any]
    next_cursor: str | None


@dataclass(frozen=True)
class MemoryDetail:
    """Everything stored about one record: the item, its triple, entities, links and the
    memories it superseded (episodes have only the item)."""

    item: Item
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    topic: str | None = None
    entities: list[dict[str, str]] = field(default_factory=list)  # name, type
    links: list[dict[str, Any]] = field(default_factory=list)  # id, kind, weight
    supersedes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class AuditRow:
    """One audit-log row of a user's, as stored (it never holds memory text)."""

    at: datetime
    actor: str
    action: str
    target_id: str | None
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ProfileValue:
    """One current value in a user's profile: a slot's value (or an open goal or task) with
    its date, the memory that holds it and the turns that said it.

    `subject` is None for the user's own slots, else whose ("the user's daughter");
    `replaced` lists what this value replaced, and what those replaced in turn, newest first
    (with `history=True`; their own `replaced` is empty); `city`, for a place that names
    only its district ("leith", "望京"), the city it lies in ("Edinburgh", "北京").
    """

    attribute: str
    value: str
    text: str
    memory_id: str
    since: datetime | None
    sources: tuple[str, ...] = ()
    subject: str | None = None
    qualifier: str | None = None
    until: datetime | None = None
    replaced: tuple[ProfileValue, ...] = ()
    city: str | None = None


@dataclass(frozen=True)
class Profile:
    """A user's current picture, from what is stored: every slot's current value, open goals
    and tasks, and the last session's summary, rendered within a token budget.

    `values` are the user's own slots; `people` the slots of others the user spoke of (a
    sister's city, a partner's job), each with its `subject`, in a section of their own.
    `text` cites source turns as `[n]`; `references` maps each label to the turn's id.
    """

    user_id: str
    text: str
    tokens: int
    values: list[ProfileValue]
    goals: list[ProfileValue] = field(default_factory=list)
    tasks: list[ProfileValue] = field(default_factory=list)
    summary: str | None = None
    as_of: datetime | None = None
    references: dict[str, str] = field(default_factory=dict)
    people: list[ProfileValue] = field(default_factory=list)
