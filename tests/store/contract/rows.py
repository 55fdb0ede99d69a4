"""Small hand-built rows for the contract: episodes, memories, search keys and vectors.

Ids are unique across users (as generated ids are), so two users' rows never share one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from dualtrace.models import Episode, MemoryRecord
from dualtrace.store.base import IndexEntry, Vector

EMBEDDER = "contract-test"
DIM = 8
T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
ACTOR = "contract"


def at(minutes: float) -> datetime:
    """T0 plus some minutes."""
    return T0 + timedelta(minutes=minutes)


def vec(*weights: float) -> Vector:
    """A unit vector of the store's dimension from its first few weights (`vec(1)`: axis 0)."""
    v = np.zeros(DIM, dtype=np.float32)
    v[: len(weights)] = weights
    return (v / np.linalg.norm(v)).astype(np.float32)


def episode(
    user_id: str,
    id: str,
    text: str,
    *,
    session_id: str | None = "s1",
    seq: int = 0,
    minutes: float = 0,
    role: str = "user",
    external_id: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Episode:
    """A turn said `minutes` after T0."""
    return Episode(
        id=id,
        user_id=user_id,
        session_id=session_id,
        agent_id=None,
        seq=seq,
        role=role,
        speaker=None,
        text=text,
        occurred_at=at(minutes),
        recorded_at=T0,
        external_id=external_id,
        metadata=metadata or {},
        content_hash=f"hash-{id}",
    )


def memory(user_id: str, id: str, text: str, **fields: Any) -> MemoryRecord:
    """A memory (a fact unless `kind` says otherwise), recorded at T0."""
    fields.setdefault("kind", "fact")
    fields.setdefault("recorded_at", T0)
    return MemoryRecord(id=id, user_id=user_id, text=text, **fields)


def key(
    record_id: str,
    body: str,
    *,
    trace: str = "episode",
    kind: str = "episode",
    session_id: str | None = "s1",
    vector: Vector | None = None,
    content_hash: str | None = None,
    xvector: Vector | None = None,
    language: str = "",
) -> IndexEntry:
    """A search key (hash: derived from the record and trace unless given)."""
    return IndexEntry(
        record_id=record_id,
        trace=trace,
        kind=kind,
        session_id=session_id,
        body=body,
        content_hash=content_hash or f"hash-{record_id}-{trace}",
        vector=vector,
        xvector=xvector,
        language=language,
    )


def fact_key(m: MemoryRecord, vector: Vector | None = None) -> IndexEntry:
    """The fact-trace key of a memory (its text)."""
    return key(m.id, m.text, trace="fact", kind=m.kind, session_id=m.session_id, vector=vector)
