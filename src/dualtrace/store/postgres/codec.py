"""Conversions between Python values and PostgreSQL columns, and the store's row type."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from dualtrace.models import Episode, MemoryRecord
from dualtrace.store.base import Vector
from dualtrace.store.row_builders import episode_record, memory_record


class Row:
    """A result row read by position (`row[0]`) or by column name (`row["id"]`)."""

    __slots__ = ("_names", "_values")

    def __init__(self, names: dict[str, int], values: Sequence[Any]) -> None:
        self._names = names
        self._values = values

    def __getitem__(self, key: int | str) -> Any:
        if isinstance(key, str):
            return self._values[self._names[key]]
        return self._values[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def as_dict(self) -> dict[str, Any]:
        """The row as {column: value}."""
        return {name: self._values[i] for name, i in self._names.items()}


def row_factory(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    """psycopg row factory making `Row`s (pass as `row_factory=`)."""
    names = {d.name: i for i, d in enumerate(cursor.description or ())}
    return lambda values: Row(names, values)


def ts(value: datetime | None) -> str | None:
    """A timestamp as the fixed-width UTC string history entries' details keep (JSON)."""
    return None if value is None else value.astimezone(UTC).isoformat(timespec="microseconds")


def utc(value: datetime | None) -> datetime | None:
    """A stored timestamp as an aware UTC datetime (as the SQLite store returns them)."""
    return None if value is None else value.astimezone(UTC)


def utc_required(value: datetime) -> datetime:
    """A stored, non-null timestamp in UTC."""
    return value.astimezone(UTC)


def utc_offset_seconds(value: datetime) -> int:
    """The UTC offset of an aware datetime, in seconds (kept so local dates survive storage)."""
    offset = value.utcoffset()
    return 0 if offset is None else int(offset.total_seconds())


def vector_text(vector: Vector) -> str:
    """A float32 vector as pgvector's text input (`[1,2,3]`); float32 values print exactly."""
    return "[" + ",".join(repr(float(x)) for x in np.asarray(vector, dtype=np.float32)) + "]"


def vector_from_text(text: str) -> Vector:
    """pgvector's text output back to a float32 vector."""
    return np.array(text[1:-1].split(","), dtype=np.float32)


def jsonb(value: Any) -> Jsonb:
    """A value for a jsonb column."""
    return Jsonb(value)


def episode_from_row(row: Row) -> Episode:
    """Build an Episode from an `episodes` row."""
    return episode_record(row, utc_required, dict)


MEMORY_COLUMNS = (
    "id, user_id, kind, text, scene, subject, predicate, object, topic, importance, confidence, "
    "access_count, last_accessed_at, valid_from, valid_to, recorded_at, invalidated_at, "
    "superseded_by, expire_at, archived, session_id, metadata"
)


def memory_params(m: MemoryRecord, user_id: str, recorded_at: datetime) -> tuple[Any, ...]:
    """Column values for inserting a memory, in MEMORY_COLUMNS order."""
    return (
        m.id,
        user_id,
        m.kind,
        m.text,
        m.scene,
        m.subject,
        m.predicate,
        m.object,
        m.topic,
        m.importance,
        m.confidence,
        m.access_count,
        m.last_accessed_at,
        m.valid_from,
        m.valid_to,
        m.recorded_at or recorded_at,
        m.invalidated_at,
        m.superseded_by,
        m.expire_at,
        bool(m.archived),
        m.session_id,
        jsonb(m.metadata),
    )


def memory_from_row(row: Row, sources: tuple[str, ...]) -> MemoryRecord:
    """Build a MemoryRecord from a `memories` row and its source episode ids."""
    return memory_record(row, sources, utc, dict)
