"""Conversions between Python values and SQLite columns."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from dualtrace.models import Episode, MemoryRecord
from dualtrace.store.row_builders import episode_record, memory_record


def ts(value: datetime | None) -> str | None:
    """A sortable UTC timestamp string (fixed width), or None."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def dt(value: str | None) -> datetime | None:
    """Parse a stored timestamp back to an aware datetime."""
    return None if value is None else datetime.fromisoformat(value)


def dt_required(value: str) -> datetime:
    """Parse a stored, non-null timestamp."""
    return datetime.fromisoformat(value)


def utc_offset_seconds(value: datetime) -> int:
    """The UTC offset of an aware datetime, in seconds (kept so local dates survive storage)."""
    offset = value.utcoffset()
    return 0 if offset is None else int(offset.total_seconds())


# float16 holds what embedders give (unit vectors) at recall@50 0.999 against float32 for
# half the bytes (docs/benchmarks.md, "Scale"); a vector float16 cannot hold is kept float32.
HALF_MAX = 65_000.0


def blob(vector: np.ndarray) -> bytes:
    """Serialise a vector as float16 (float32 if a value is out of float16's range). Its
    length tells which: 2 or 4 bytes a dimension."""
    values = np.asarray(vector, dtype=np.float32)
    if values.size and float(np.max(np.abs(values))) > HALF_MAX:
        return values.tobytes()
    return values.astype(np.float16).tobytes()


def half_blob(vector: np.ndarray) -> bytes:
    """Serialise a unit vector as float16 (a cross-lingual key vector: its length is its
    dimension, without a `dim` column)."""
    return np.asarray(vector, dtype=np.float16).tobytes()


def unhalf(data: bytes) -> np.ndarray:
    """A `half_blob` as float32."""
    return np.frombuffer(data, dtype=np.float16).astype(np.float32)


def half_many(blobs: Sequence[bytes | None]) -> tuple[np.ndarray, np.ndarray]:
    """`half_blob`s as one float32 matrix, zero rows for None, and which rows had one."""
    has = np.array([b is not None for b in blobs], dtype=bool)
    width = next((len(b) // 2 for b in blobs if b is not None), 0)
    if has.all() and width:
        joined = np.frombuffer(b"".join(b for b in blobs if b is not None), dtype=np.float16)
        return joined.astype(np.float32).reshape(len(blobs), width), has
    out = np.zeros((len(blobs), width), np.float32)
    for i, data in enumerate(blobs):
        if data is not None:
            out[i] = np.frombuffer(data, dtype=np.float16, count=width)
    return out, has


def unblob(data: bytes, dim: int) -> np.ndarray:
    """Deserialise a vector of known dimension, float16 or float32 (stores before float16
    vectors hold float32), as float32."""
    if len(data) == 2 * dim:
        return np.frombuffer(data, dtype=np.float16, count=dim).astype(np.float32)
    return np.frombuffer(data, dtype=np.float32, count=dim)


def unblob_many(blobs: list[bytes], dim: int) -> np.ndarray:
    """Vectors of one dimension as the rows of a float32 matrix."""
    if all(len(b) == 2 * dim for b in blobs):
        joined = np.frombuffer(b"".join(blobs), dtype=np.float16).astype(np.float32)
        return joined.reshape(len(blobs), dim)
    return np.vstack([unblob(b, dim) for b in blobs]) if blobs else np.zeros((0, dim), np.float32)


def episode_from_row(row: sqlite3.Row) -> Episode:
    """Build an Episode from an `episodes` row."""
    return episode_record(row, dt_required, json.loads)


MEMORY_COLUMNS = (
    "id, user_id, kind, text, scene, subject, predicate, object, topic, importance, confidence, "
    "access_count, last_accessed_at, valid_from, valid_to, recorded_at, invalidated_at, "
    "superseded_by, expire_at, archived, session_id, metadata"
)


def memory_params(m: MemoryRecord, recorded_at: datetime) -> tuple[Any, ...]:
    """Column values for inserting a memory, in MEMORY_COLUMNS order."""
    return (
        m.id,
        m.user_id,
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
        ts(m.last_accessed_at),
        ts(m.valid_from),
        ts(m.valid_to),
        ts(m.recorded_at or recorded_at),
        ts(m.invalidated_at),
        m.superseded_by,
        ts(m.expire_at),
        int(m.archived),
        m.session_id,
        json.dumps(m.metadata, ensure_ascii=False),
    )


def memory_from_row(row: sqlite3.Row, sources: tuple[str, ...]) -> MemoryRecord:
    """Build a MemoryRecord from a `memories` row and its source episode ids."""
    return memory_record(row, sources, dt, json.loads)
