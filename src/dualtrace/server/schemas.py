"""The service's request and response bodies, as pydantic models (they are the OpenAPI
schema). Requests take only the fields they document (`extra="forbid"`); the facade checks
the values themselves, so the rules are the library's, in one place."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Time = datetime | str | float  # when something was said: ISO 8601 or epoch seconds
Instant = datetime | str  # a reference time (`now`, `as_of`): ISO 8601


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class MessageIn(_Request):
    role: str = Field("user", description="user, assistant, system or tool.")
    content: str = Field(description="What was said.")
    name: str | None = Field(None, description="The speaker's name.")
    id: str | None = Field(None, description="Your message id: adding it again is a no-op.")
    timestamp: Time | None = Field(None, description="When it was said (ISO 8601 or epoch).")


class AddIn(_Request):
    user_id: str | None = Field(None, description="Whose memory; a user key may omit it.")
    session_id: str | None = None
    messages: list[MessageIn]
    timestamp: Time | None = Field(None, description="Default time of the messages.")
    metadata: dict[str, Any] | None = None
    deferred: bool = Field(
        False,
        alias="async",
        description="Answer 202 once the turns are stored and full-text indexed; embed and "
        "derive memories in the background (see GET /v1/operations/{id}).",
    )


class SearchIn(_Request):
    user_id: str | None = None
    query: str
    limit: int = 10
    now: Instant | None = Field(None, description="Reference time of the question.")
    as_of: Instant | None = Field(None, description="Only what was valid then.")
    filters: dict[str, Any] | None = Field(None, description="Metadata keys to match exactly.")
    kinds: list[str] | None = None
    session_id: str | None = None
    explain: bool = Field(False, description="Add each channel's raw score to `scores`.")
    reinforce: bool = Field(
        True, description="Raise the importance of what is found; false: a read-only look."
    )


class ContextIn(_Request):
    user_id: str | None = None
    query: str | None = Field(
        None,
        description="The question or input to recall for; omit it for the context a "
        "conversation starts with (the user's profile, open goals and tasks, last summary).",
    )
    max_tokens: int = 1000
    now: Instant | None = None
    as_of: Instant | None = None
    session_id: str | None = None
    reinforce: bool = Field(
        True, description="Raise the importance of what is recalled; false: a read-only look."
    )
    profile: bool | None = Field(
        None,
        description="Lead with the user's profile, open goals and tasks and last summary "
        "(default: only when no query is given); false: never.",
    )


class UpdateIn(_Request):
    text: str


class SessionIn(_Request):
    user_id: str | None = None
    session_id: str | None = Field(None, description="Resume this session; omit to start one.")
    now: Instant | None = None


class TurnIn(_Request):
    user_id: str | None = None
    role: str = "user"
    content: str
    name: str | None = None
    id: str | None = None
    timestamp: Time | None = None


class SessionContextIn(_Request):
    user_id: str | None = None
    query: str | None = None
    max_tokens: int = 4000
    now: Instant | None = None


class SessionEndIn(_Request):
    user_id: str | None = None
    now: Instant | None = None


class MaintainIn(_Request):
    user_id: str | None = Field(None, description="Only this user; omit for every user.")
    now: Instant | None = None


# -- responses ------------------------------------------------------------------------------


class SourceOut(BaseModel):
    episode_id: str
    external_id: str | None
    session_id: str | None
    occurred_at: datetime
    speaker: str | None
    role: str | None
    text: str


_REFERENCES = (
    "Each source label the text cites ([2], or the caller's short message id) -> the id of "
    "the stored turn (GET /v1/memories/{id} reads it)."
)


class ItemOut(BaseModel):
    id: str
    kind: str
    text: str
    scene: str | None
    occurred_at: datetime
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    invalidated_at: datetime | None
    superseded_by: str | None
    archived: bool
    importance: float | None
    session_id: str | None
    metadata: dict[str, Any]
    sources: list[SourceOut]


class HitOut(ItemOut):
    score: float
    scores: dict[str, float] = Field(description="Per-channel and boost scores.")
    refs: list[str] = Field(
        default_factory=list,
        description="In a context: the labels its text cites this item's sources by, in the "
        "order of `sources` (`references` maps each to a stored turn id).",
    )


class EventOut(BaseModel):
    memory_id: str
    event: str
    text: str


class AddOut(BaseModel):
    episodes: list[str]
    events: list[EventOut]
    warnings: list[str]


class OperationOut(BaseModel):
    id: str
    user_id: str
    state: str = Field(description='"pending" or "done".')
    created_at: datetime
    episodes: list[str]
    pending: int = Field(description="Turns still waiting for their vectors and memories.")
    error: str | None


class SearchOut(BaseModel):
    hits: list[HitOut]


class ContextOut(BaseModel):
    text: str
    tokens: int
    items: list[HitOut]
    references: dict[str, str] = Field(default_factory=dict, description=_REFERENCES)


class PageOut(BaseModel):
    items: list[ItemOut]
    next_cursor: str | None


class EntityOut(BaseModel):
    name: str
    type: str


class LinkOut(BaseModel):
    id: str
    kind: str
    weight: float


class DetailOut(ItemOut):
    subject: str | None
    predicate: str | None
    object: str | None
    topic: str | None
    entities: list[EntityOut]
    links: list[LinkOut]
    supersedes: list[str]


class HistoryEntryOut(BaseModel):
    id: int
    record_id: str
    event: str
    old_text: str | None
    new_text: str | None
    at: datetime
    actor: str
    detail: dict[str, Any]


class HistoryOut(BaseModel):
    entries: list[HistoryEntryOut]


class DoneOut(BaseModel):
    ok: bool = True


class DeletedOut(DoneOut):
    deleted: str = Field(description="The id that was deleted.")


class DeletedUserOut(BaseModel):
    deleted: dict[str, int] = Field(description="Rows deleted per table.")


class UserOut(BaseModel):
    user_id: str
    turns: int
    memories: int


class UsersOut(BaseModel):
    users: list[UserOut]


class TurnOut(BaseModel):
    id: str
    external_id: str | None
    session_id: str | None
    role: str
    speaker: str | None
    text: str
    occurred_at: datetime
    memory_ids: list[str]


class TurnsOut(BaseModel):
    turns: list[TurnOut]
    next_cursor: str | None


class SessionOut(BaseModel):
    session_id: str
    user_id: str
    ended: bool


class SessionTurnOut(BaseModel):
    episode_id: str


class SessionContextOut(BaseModel):
    text: str
    tokens: int
    sections: dict[str, int]
    turns: list[str]
    memories: list[HitOut]
    summary: list[str]
    references: dict[str, str] = Field(default_factory=dict, description=_REFERENCES)


class MaintainOut(BaseModel):
    report: dict[str, Any]


class StatusOut(BaseModel):
    status: str


class ErrorBody(BaseModel):
    type: str
    message: str
    field: str | None = None


class ErrorOut(BaseModel):
    error: ErrorBody
