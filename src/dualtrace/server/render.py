"""The facade's dataclasses as the JSON the response models describe (no logic here)."""

from __future__ import annotations

import dataclasses
from typing import Any

from dualtrace.models import (
    AddResult,
    Context,
    HistoryEntry,
    Hit,
    Item,
    MemoryDetail,
    Operation,
    SessionContext,
    Turn,
)


def item(value: Item) -> dict[str, Any]:
    return {
        "id": value.id,
        "kind": value.kind,
        "text": value.text,
        "scene": value.scene,
        "occurred_at": value.occurred_at,
        "valid_from": value.valid_from,
        "valid_to": value.valid_to,
        "recorded_at": value.recorded_at,
        "invalidated_at": value.invalidated_at,
        "superseded_by": value.superseded_by,
        "archived": value.archived,
        "importance": value.importance,
        "session_id": value.session_id,
        "metadata": value.metadata,
        "sources": [dataclasses.asdict(s) for s in value.sources],
    }


def hit(value: Hit) -> dict[str, Any]:
    return {**item(value), "score": value.score, "scores": value.scores, "refs": value.refs}


def added(result: AddResult) -> dict[str, Any]:
    return {
        "episodes": result.episodes,
        "events": [{"memory_id": m, "event": e, "text": t} for m, e, t in result.events],
        "warnings": result.warnings,
    }


def operation(op: Operation) -> dict[str, Any]:
    return {
        "id": op.id,
        "user_id": op.user_id,
        "state": op.state,
        "created_at": op.created_at,
        "episodes": list(op.episode_ids),
        "pending": op.pending,
        "error": op.error,
    }


def detail(value: MemoryDetail) -> dict[str, Any]:
    return {
        **item(value.item),
        "subject": value.subject,
        "predicate": value.predicate,
        "object": value.object,
        "topic": value.topic,
        "entities": value.entities,
        "links": value.links,
        "supersedes": value.supersedes,
    }


def history(entries: list[HistoryEntry]) -> dict[str, Any]:
    return {"entries": [dataclasses.asdict(e) for e in entries]}


def turn(value: Turn) -> dict[str, Any]:
    e = value.episode
    return {
        "id": e.id,
        "external_id": e.external_id,
        "session_id": e.session_id,
        "role": e.role,
        "speaker": e.speaker,
        "text": e.text,
        "occurred_at": e.occurred_at,
        "memory_ids": list(value.memory_ids),
    }


def context(ctx: Context) -> dict[str, Any]:
    return {
        "text": ctx.text,
        "tokens": ctx.tokens,
        "items": [hit(h) for h in ctx.items],
        "references": ctx.references,
    }


def session_context(ctx: SessionContext) -> dict[str, Any]:
    return {
        "text": ctx.text,
        "tokens": ctx.tokens,
        "sections": ctx.sections,
        "turns": ctx.turns,
        "memories": [hit(h) for h in ctx.memories],
        "summary": ctx.summary,
        "references": ctx.references,
    }
