"""`/v1/sessions` routes over `Memory.session(...)`: start or resume, add a turn, get the
session's budgeted context, end it (its turns go to long-term memory)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from dualtrace.server import render
from dualtrace.server.api_records import ERRORS, Caller, KnownQuery, Svc
from dualtrace.server.schemas import (
    AddOut,
    SessionContextIn,
    SessionContextOut,
    SessionEndIn,
    SessionIn,
    SessionOut,
    SessionTurnOut,
    TurnIn,
)

router = APIRouter(
    prefix="/v1/sessions", responses=ERRORS, tags=["sessions"], dependencies=KnownQuery
)


@router.post("", response_model=SessionOut, summary="Start a session, or resume one by id")
def open_session(body: SessionIn, who: Caller, svc: Svc) -> dict[str, Any]:
    session = svc.memory.session(
        user_id=who.user(body.user_id), session_id=body.session_id, now=body.now
    )
    return {"session_id": session.id, "user_id": session.user_id, "ended": session.ended}


@router.post(
    "/{session_id}/turns",
    status_code=201,
    response_model=SessionTurnOut,
    summary="Store one turn of the session now",
)
def add_turn(session_id: str, body: TurnIn, who: Caller, svc: Svc) -> dict[str, Any]:
    session = svc.memory.session(
        user_id=who.user(body.user_id), session_id=session_id, actor=who.actor
    )
    episode_id = session.add(
        body.role, body.content, timestamp=body.timestamp, name=body.name, id=body.id
    )
    return {"episode_id": episode_id}


@router.post(
    "/{session_id}/context",
    response_model=SessionContextOut,
    summary="Memories, rolling summary and recent turns within max_tokens",
)
def session_context(
    session_id: str, body: SessionContextIn, who: Caller, svc: Svc
) -> dict[str, Any]:
    svc.check_query(body.query)
    session = svc.memory.session(user_id=who.user(body.user_id), session_id=session_id)
    return render.session_context(
        session.context(body.query, max_tokens=body.max_tokens, now=body.now)
    )


@router.post(
    "/{session_id}/end",
    response_model=AddOut,
    summary="End the session: derive long-term memories from its turns",
)
def end_session(session_id: str, body: SessionEndIn, who: Caller, svc: Svc) -> dict[str, Any]:
    session = svc.memory.session(
        user_id=who.user(body.user_id), session_id=session_id, actor=who.actor
    )
    return render.added(session.end(now=body.now))
