"""The values the store ports pass: search keys, entities, graph rows, changes, scopes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from dualtrace.models import Candidate

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class IndexEntry:
    """One searchable key of a record: its full-text body and, optionally, its vector."""

    record_id: str
    trace: str  # "episode" | "fact" | "scene"
    kind: str
    session_id: str | None
    body: str
    content_hash: str
    vector: Vector | None = None
    chunk: int = 0  # a long turn has a key per chunk of its text, numbered from 0
    gloss: str = ""  # its words in the other language (full-text, cross-lingual search only)
    # the cross-lingual embedder's vector of the same text (`crosslingual_embedder`), which
    # scores the key for a question in the other language
    xvector: Vector | None = None
    # the language of the record's own words (`store.languages.key_language`); "": worked
    # out from `body`, which also holds the turn before and a turn's date and speaker
    language: str = ""


@dataclass(frozen=True)
class LanguageQuery:
    """The dense query for the keys of one language. Each key scores the z-score of its
    vector's cosine with `vector` among that language's keys (how far above their mean, in
    their standard deviations); with `crosslingual` (the cross-lingual embedder's vector of
    the question), that and the same z-score of its cross-lingual vector, weighted `1 -
    share` and `share`, and keys without a cross-lingual vector are left out (counted as
    `LanguageHits.missing`)."""

    vector: Vector
    crosslingual: Vector | None = None
    share: float = 0.5  # the cross-lingual embedder's share of the score, in [0, 1]


@dataclass(frozen=True)
class LanguageHits:
    """One language's best records by their `LanguageQuery` score (best first); `keys`:
    the language's keys that have a vector, `missing`: of those, how many lack the
    cross-lingual one the query asked for."""

    candidates: list[Candidate]
    keys: int
    missing: int = 0


@dataclass(frozen=True)
class EntityRow:
    """An entity as stored for a user: surface name, its normalised and canonical keys."""

    name: str
    norm: str
    type: str
    canonical: str


@dataclass(frozen=True)
class MemoryGraph:
    """The structural trace written with new memories: their entities and links."""

    entities: tuple[tuple[str, EntityRow], ...] = ()  # (memory id, entity)
    links: tuple[tuple[str, str, str, float], ...] = ()  # (src id, dst id, kind, weight)


@dataclass(frozen=True)
class MemoryChange:
    """A consolidation decision applied to a stored memory, in the same transaction as the
    new memories it was decided with (see `lifecycle/consolidate.py`)."""

    action: str  # REINFORCE | MERGE | SUPERSEDE
    memory_id: str  # the memory changed
    new_text: str  # what the decision was about (the new statement), kept in history
    by_id: str | None = None  # SUPERSEDE: the memory holding the newer value
    valid_to: datetime | None = None  # SUPERSEDE: when the old value stopped holding
    sources: tuple[str, ...] = ()  # REINFORCE / MERGE: episodes that said it again
    importance: float | None = None  # REINFORCE: the memory's new importance
    text: str | None = None  # MERGE: the memory's new text
    object: str | None = None  # MERGE: the values joined
    values: tuple[str, ...] = ()  # MERGE: each value
    keys: tuple[IndexEntry, ...] = ()  # MERGE: search keys of the merged text
    why: dict[str, Any] | None = None  # SUPERSEDE: what decided it (slot, cue, score), kept


@dataclass(frozen=True)
class SearchScope:
    """Which records a search may return."""

    kinds: tuple[str, ...] | None = None
    session_id: str | None = None
    valid_at: datetime | None = None  # memories valid at this time; None: currently valid
    include_invalid: bool = False
    include_archived: bool = False
    occurred_before: datetime | None = None  # episodes said after this time are left out
    traces: tuple[str, ...] | None = None  # search only these keys (episode, fact, scene)
    metadata: dict[str, Any] = field(default_factory=dict)
