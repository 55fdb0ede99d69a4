"""`/v1` routes on one user's records: add, search, context, list, get, change, history,
undo, restore, and the state of deferred adds. Each parses, makes facade calls, renders.

Route functions are plain `def`: FastAPI runs them in its thread pool, off the event loop,
so several clients are served at once (SQLite in WAL mode lets readers run beside a writer).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.dependencies.models import Dependant
from fastapi.responses import JSONResponse

from dualtrace.errors import ValidationError
from dualtrace.server import render
from dualtrace.server.schemas import (
    AddIn,
    AddOut,
    ContextIn,
    ContextOut,
    DeletedOut,
    DetailOut,
    DoneOut,
    ErrorOut,
    HistoryOut,
    ItemOut,
    OperationOut,
    PageOut,
    SearchIn,
    SearchOut,
    UpdateIn,
)
from dualtrace.server.service import Principal, Service, caller, service

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 413, 422, 429, 500, 503)
}


def _query_names(dependant: Dependant) -> set[str]:
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def known_query(request: Request) -> None:
    """Refuse query parameters the route does not take, as unknown body fields are refused
    (a misspelt filter must not be silently ignored)."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if dependant is None:
        return
    taken = _query_names(dependant)
    unknown = sorted(set(request.query_params) - taken)
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        known = ", ".join(sorted(taken)) or "none"
        raise ValidationError(f"unknown query parameter {names}; {request.url.path} takes: {known}")


KnownQuery = [Depends(known_query)]
router = APIRouter(prefix="/v1", responses=ERRORS, dependencies=KnownQuery)
Caller = Annotated[Principal, Depends(caller)]
Svc = Annotated[Service, Depends(service)]
UserQuery = Annotated[
    str | None, Query(description="Whose memory; a user key may omit it.", max_length=512)
]
# The library checks the range, in the wording every surface uses.
PageLimit = Annotated[
    int,
    Query(description="Most records, 1 to 500.", json_schema_extra={"minimum": 1, "maximum": 500}),
]


@router.post(
    "/memories",
    status_code=201,
    response_model=AddOut,
    responses={202: {"model": OperationOut, "description": "Accepted (`async`)."}},
    summary="Store messages and derive memories",
)
def add(body: AddIn, who: Caller, svc: Svc) -> Any:
    svc.check_messages(len(body.messages))
    user_id = who.user(body.user_id)
    messages = [m.model_dump(exclude_none=True) for m in body.messages]
    mem = svc.memory
    result = mem.add(
        messages,
        user_id=user_id,
        session_id=body.session_id,
        timestamp=body.timestamp,
        metadata=body.metadata,
        defer=body.deferred,
        actor=who.actor,
    )
    if not body.deferred:
        return render.added(result)
    op = mem.track(result.episodes, user_id=user_id)
    if svc.worker is not None:
        svc.worker.wake()
    accepted = OperationOut.model_validate(render.operation(op))
    return JSONResponse(accepted.model_dump(mode="json"), status_code=202)


@router.get("/operations/{operation_id}", response_model=OperationOut, summary="A deferred add")
def operation(operation_id: str, who: Caller, svc: Svc, user_id: UserQuery = None) -> Any:
    return render.operation(svc.memory.operation(operation_id, user_id=who.user(user_id)))


@router.post("/search", response_model=SearchOut, summary="Hybrid search, best first")
def search(body: SearchIn, who: Caller, svc: Svc) -> dict[str, Any]:
    svc.check_query(body.query)
    hits = svc.memory.search(
        body.query,
        user_id=who.user(body.user_id),
        limit=body.limit,
        now=body.now,
        as_of=body.as_of,
        filters=body.filters,
        kinds=body.kinds,
        session_id=body.session_id,
        explain=body.explain,
        reinforce=body.reinforce,
    )
    return {"hits": [render.hit(h) for h in hits]}


@router.post(
    "/context",
    response_model=ContextOut,
    summary="A prompt-ready context block (no query: the one a conversation starts with)",
)
def context(body: ContextIn, who: Caller, svc: Svc) -> dict[str, Any]:
    svc.check_query(body.query)
    ctx = svc.memory.context(
        body.query,
        user_id=who.user(body.user_id),
        max_tokens=body.max_tokens,
        now=body.now,
        as_of=body.as_of,
        session_id=body.session_id,
        reinforce=body.reinforce,
        profile=body.profile,
    )
    return render.context(ctx)


@router.get("/memories", response_model=PageOut, summary="List records, newest first")
def list_records(
    who: Caller,
    svc: Svc,
    user_id: UserQuery = None,
    limit: PageLimit = 50,
    cursor: Annotated[str | None, Query(max_length=1000)] = None,
    include_invalid: bool = False,
    kinds: Annotated[
        list[str] | None, Query(description="Only these kinds; repeatable (`kind` too).")
    ] = None,
    kind: Annotated[list[str] | None, Query(description="Same as `kinds`.")] = None,
) -> dict[str, Any]:
    page = svc.memory.get_page(
        user_id=who.user(user_id),
        kinds=[*(kinds or ()), *(kind or ())] or None,
        include_invalid=include_invalid,
        limit=limit,
        cursor=cursor,
    )
    return {"items": [render.item(i) for i in page.items], "next_cursor": page.next_cursor}


@router.get("/memories/{record_id}", response_model=DetailOut, summary="One record, in full")
def get(record_id: str, who: Caller, svc: Svc, user_id: UserQuery = None) -> dict[str, Any]:
    return render.detail(svc.memory.detail(record_id, user_id=who.user(user_id)))


@router.patch("/memories/{record_id}", response_model=ItemOut, summary="Replace a record's text")
def update(
    record_id: str, body: UpdateIn, who: Caller, svc: Svc, user_id: UserQuery = None
) -> dict[str, Any]:
    user = who.user(user_id)
    return render.item(svc.memory.update(record_id, body.text, user_id=user, actor=who.actor))


@router.delete("/memories/{record_id}", response_model=DeletedOut, summary="Delete for good")
def delete(record_id: str, who: Caller, svc: Svc, user_id: UserQuery = None) -> dict[str, Any]:
    svc.memory.delete(record_id, user_id=who.user(user_id), actor=who.actor)
    return {"ok": True, "deleted": record_id}


@router.get("/memories/{record_id}/history", response_model=HistoryOut, summary="Changes")
def history(record_id: str, who: Caller, svc: Svc, user_id: UserQuery = None) -> dict[str, Any]:
    return render.history(svc.memory.history(record_id, user_id=who.user(user_id)))


@router.post("/history/{entry_id}/revert", response_model=DoneOut, summary="Undo a change")
def revert(entry_id: int, who: Caller, svc: Svc, user_id: UserQuery = None) -> dict[str, Any]:
    svc.memory.revert(entry_id, user_id=who.user(user_id), actor=who.actor)
    return {"ok": True}


@router.post("/memories/{record_id}/restore", response_model=ItemOut, summary="Unarchive")
def restore(record_id: str, who: Caller, svc: Svc, user_id: UserQuery = None) -> dict[str, Any]:
    user = who.user(user_id)
    return render.item(svc.memory.restore(record_id, user_id=user, actor=who.actor))
