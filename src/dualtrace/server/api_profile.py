"""`GET /v1/profile`: the user's current picture (`Memory.profile`), the user from the key
like the other routes, `as_of`, `max_tokens` and `history` as query parameters."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from dualtrace.models import Profile, ProfileValue
from dualtrace.server.api_records import ERRORS, Caller, KnownQuery, Svc, UserQuery

router = APIRouter(prefix="/v1", responses=ERRORS, dependencies=KnownQuery)


class ReplacedOut(BaseModel):
    attribute: str
    value: str
    text: str
    memory_id: str
    since: datetime | None
    sources: list[str]
    until: datetime | None = None


class ProfileValueOut(BaseModel):
    attribute: str
    value: str
    text: str
    memory_id: str
    since: datetime | None
    sources: list[str] = Field(description="Ids of the turns that said it.")
    subject: str | None = Field(None, description="Whose value; null for the user's own.")
    qualifier: str | None = None
    until: datetime | None = None
    city: str | None = Field(
        None, description="For a place naming only its district, the city it lies in."
    )
    replaced: list[ReplacedOut] = Field(
        default_factory=list,
        description="What it replaced, and so on back, newest first (with history).",
    )


class ProfileOut(BaseModel):
    user_id: str
    text: str = Field(description="Markdown, one dated line a value, [n] citing turns.")
    tokens: int
    values: list[ProfileValueOut] = Field(description="The user's own slots.")
    people: list[ProfileValueOut] = Field(
        default_factory=list, description="Slots of others the user spoke of, with `subject`."
    )
    goals: list[ProfileValueOut]
    tasks: list[ProfileValueOut]
    summary: str | None = Field(description="The last session's summary.")
    as_of: datetime | None
    references: dict[str, str] = Field(description="Each [n] label -> the turn's id.")


@router.get("/profile", response_model=ProfileOut, summary="The user's current picture")
def profile(
    who: Caller,
    svc: Svc,
    user_id: UserQuery = None,
    as_of: Annotated[
        str | None, Query(description="Read the past: what held then (ISO 8601).", max_length=64)
    ] = None,
    max_tokens: Annotated[
        int | None, Query(description="The text's budget in tokens; all values when omitted.")
    ] = None,
    history: Annotated[bool, Query(description="Add what each value replaced.")] = False,
) -> dict[str, Any]:
    found = svc.memory.profile(
        who.user(user_id), as_of=as_of, max_tokens=max_tokens, history=history
    )
    return render_profile(found)


def render_profile(found: Profile) -> dict[str, Any]:
    """The profile as JSON-ready data (the REST body; the MCP tool's structured part)."""
    body = asdict(found)
    for name in ("values", "people", "goals", "tasks"):
        body[name] = [_value(v) for v in getattr(found, name)]
    return body


def _value(v: ProfileValue) -> dict[str, Any]:
    body = asdict(v)
    body["sources"] = list(v.sources)
    body["replaced"] = [_value(r) for r in v.replaced]
    return body
