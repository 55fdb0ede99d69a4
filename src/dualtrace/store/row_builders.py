"""Records from stored rows, shared by the backends: each passes how its columns decode
(SQLite keeps times as fixed-width UTC ISO text and JSON as text; PostgreSQL as timestamptz and
jsonb)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

from dualtrace.models import Episode, MemoryRecord


class Columns(Protocol):
    """A stored row, read by column name (sqlite3.Row, a psycopg dict row)."""

    def __getitem__(self, name: str, /) -> Any: ...


Time = Callable[[Any], datetime | None]
Json = Callable[[Any], dict[str, Any]]
RequiredTime = Callable[[Any], datetime]


def memory_record(row: Columns, sources: tuple[str, ...], time: Time, json: Json) -> MemoryRecord:
    """A MemoryRecord from a `memories` row and its source episode ids."""
    return MemoryRecord(
        id=row["id"],
        user_id=row["user_id"],
        kind=row["kind"],
        text=row["text"],
        scene=row["scene"],
        subject=row["subject"],
        predicate=row["predicate"],
        object=row["object"],
        topic=row["topic"],
        importance=row["importance"],
        confidence=row["confidence"],
        access_count=row["access_count"],
        last_accessed_at=time(row["last_accessed_at"]),
        valid_from=time(row["valid_from"]),
        valid_to=time(row["valid_to"]),
        recorded_at=time(row["recorded_at"]),
        invalidated_at=time(row["invalidated_at"]),
        superseded_by=row["superseded_by"],
        expire_at=time(row["expire_at"]),
        archived=bool(row["archived"]),
        session_id=row["session_id"],
        metadata=json(row["metadata"]),
        source_episode_ids=sources,
    )


def episode_record(row: Columns, time: RequiredTime, json: Json) -> Episode:
    """An Episode from an `episodes` row; its time is shown in the offset it was said in."""
    said_in = timezone(timedelta(seconds=row["occurred_tz"]))
    return Episode(
        id=row["id"],
        user_id=row["user_id"],
        session_id=row["session_id"],
        agent_id=row["agent_id"],
        seq=row["seq"],
        role=row["role"],
        speaker=row["speaker"],
        text=row["text"],
        occurred_at=time(row["occurred_at"]).astimezone(said_in),
        recorded_at=time(row["recorded_at"]),
        external_id=row["external_id"],
        metadata=json(row["metadata"]),
        content_hash=row["content_hash"],
    )
