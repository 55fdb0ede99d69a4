"""The whole store: every role port of `store/ports/` joined, always scoped to one user.

`Store` is what a backend implements and what `Memory` holds. Code that needs less takes the
roles it uses, each from its own module under `store/ports/` (its docstring lists them), so
a reader of a consumer's imports sees what it may do to the store. The pairs below keep the
names the ports had before they were split into read and write sides:

    EpisodeStore      turns as said (the lossless trace)            EpisodeReads + Writes
    MemoryStore       derived memories, history, undoable changes   MemoryReads + Writes
    GraphStore        entities and links between memories          GraphReads + Writes
    SearchIndex       search keys and the channels that search them IndexReads + Writes
    SessionStore      short-term session bookkeeping and turns      SessionReads + Writes

Every method but `idle_sessions`, `user_ids`, `pending_users`, `taken_ids`, `finish_deletions`,
`backup`, `embedder_binding`, the API-key methods and `user_summaries(None)` is scoped to one user.
Backends live under `store/<backend>/`; only they contain SQL. Code above these ports never
asks which backend it has.
"""

from __future__ import annotations

from typing import Protocol

from dualtrace.store.ports.access import AccessStore
from dualtrace.store.ports.browse import BrowseStore
from dualtrace.store.ports.copy import COPY_PARTS, CopyStore, UserRows
from dualtrace.store.ports.deletion import DeletionStore
from dualtrace.store.ports.episode_reads import EpisodeReads
from dualtrace.store.ports.episode_writes import EpisodeWrites
from dualtrace.store.ports.graph_reads import GraphReads
from dualtrace.store.ports.graph_writes import GraphWrites
from dualtrace.store.ports.index_reads import IndexReads
from dualtrace.store.ports.index_writes import IndexWrites
from dualtrace.store.ports.lifecycle import StoreLifecycle
from dualtrace.store.ports.maintenance import MaintenanceStore
from dualtrace.store.ports.memory_reads import MemoryReads
from dualtrace.store.ports.memory_writes import MemoryWrites
from dualtrace.store.ports.records import (
    EntityRow,
    IndexEntry,
    MemoryChange,
    MemoryGraph,
    SearchScope,
    Vector,
)
from dualtrace.store.ports.session_reads import SessionReads
from dualtrace.store.ports.session_writes import SessionWrites

__all__ = [
    "COPY_PARTS",
    "AccessStore",
    "BrowseStore",
    "CopyStore",
    "DeletionStore",
    "EntityRow",
    "EpisodeReads",
    "EpisodeStore",
    "EpisodeWrites",
    "GraphReads",
    "GraphStore",
    "GraphWrites",
    "IndexEntry",
    "IndexReads",
    "IndexWrites",
    "MaintenanceStore",
    "MemoryChange",
    "MemoryGraph",
    "MemoryReads",
    "MemoryStore",
    "MemoryWrites",
    "SearchIndex",
    "SearchScope",
    "SessionReads",
    "SessionStore",
    "SessionWrites",
    "Store",
    "StoreLifecycle",
    "UserRows",
    "Vector",
]


class EpisodeStore(EpisodeReads, EpisodeWrites, Protocol):
    """The lossless trace: turns as they were said, numbered within their session."""


class MemoryStore(MemoryReads, MemoryWrites, Protocol):
    """Derived memories, any record's text and history, and changes that history can undo."""


class GraphStore(GraphReads, GraphWrites, Protocol):
    """The structural trace: the entities memories mention and the links between memories."""


class SearchIndex(IndexReads, IndexWrites, Protocol):
    """Records' search keys (full text and vectors) and the channels that search them."""


class SessionStore(SessionReads, SessionWrites, Protocol):
    """Short-term sessions: bookkeeping rows (never text) and the turns said in them."""


class Store(
    StoreLifecycle,
    EpisodeStore,
    MemoryStore,
    GraphStore,
    SearchIndex,
    SessionStore,
    MaintenanceStore,
    DeletionStore,
    AccessStore,
    BrowseStore,
    CopyStore,
    Protocol,
):
    """Persistence for episodes, memories, their search keys, history and audit: every role.

    Code that needs one role takes that port; `Memory` holds the whole store.
    """
