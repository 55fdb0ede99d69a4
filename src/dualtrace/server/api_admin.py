"""Routes on users and the service: health, metrics, maintenance, users and their turns
(what the web inspector browses), and deleting a user."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from dualtrace.server import render
from dualtrace.server.api_records import ERRORS, Caller, KnownQuery, PageLimit, Svc, UserQuery
from dualtrace.server.schemas import (
    DeletedUserOut,
    MaintainIn,
    MaintainOut,
    StatusOut,
    TurnsOut,
    UsersOut,
)

router = APIRouter(responses=ERRORS, dependencies=KnownQuery)


@router.get("/health/live", response_model=StatusOut, tags=["health"], summary="Alive")
def live() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/health/ready",
    response_model=StatusOut,
    tags=["health"],
    summary="Store opened and model loaded (503 until then)",
)
def ready(svc: Svc) -> Any:
    if not svc.ready:
        return JSONResponse({"status": "starting"}, status_code=503)
    return {"status": "ok"}


@router.get(
    "/metrics",
    tags=["health"],
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text"}},
    summary="Prometheus metrics (admin key)",
)
def metrics(request: Request, who: Caller) -> Response:
    who.require_admin()
    body = generate_latest(request.app.state.metrics.registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


@router.post("/v1/maintain", response_model=MaintainOut, summary="Maintenance pass (admin)")
def maintain(body: MaintainIn, who: Caller, svc: Svc) -> dict[str, Any]:
    who.require_admin()
    report = svc.memory.maintain(user_id=body.user_id, now=body.now)
    return {"report": dataclasses.asdict(report)}


@router.get("/v1/users", response_model=UsersOut, summary="Users with their counts")
def users(who: Caller, svc: Svc) -> dict[str, Any]:
    found = svc.memory.users(None if who.admin else [who.user(None)])
    return {"users": [dataclasses.asdict(u) for u in found]}


@router.delete(
    "/v1/users/{user_id}",
    response_model=DeletedUserOut,
    summary="Forget a user: every row deleted for real",
)
def delete_user(user_id: str, who: Caller, svc: Svc) -> dict[str, Any]:
    return {"deleted": svc.memory.delete_all(user_id=who.user(user_id), actor=who.actor)}


@router.get("/v1/turns", response_model=TurnsOut, summary="Turns, oldest first, with memories")
def turns(
    who: Caller,
    svc: Svc,
    user_id: UserQuery = None,
    limit: PageLimit = 50,
    cursor: Annotated[str | None, Query(max_length=1000)] = None,
    session_id: Annotated[str | None, Query(max_length=512)] = None,
) -> dict[str, Any]:
    page = svc.memory.turns(
        user_id=who.user(user_id), session_id=session_id, limit=limit, cursor=cursor
    )
    return {"turns": [render.turn(t) for t in page.items], "next_cursor": page.next_cursor}
