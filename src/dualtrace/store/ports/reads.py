"""The reading roles joined, for consumers that read across them (the read path)."""

from __future__ import annotations

from typing import Protocol

from dualtrace.store.ports.browse import BrowseStore
from dualtrace.store.ports.episode_reads import EpisodeReads
from dualtrace.store.ports.graph_reads import GraphReads
from dualtrace.store.ports.index_reads import IndexReads
from dualtrace.store.ports.memory_reads import MemoryReads
from dualtrace.store.ports.session_reads import SessionReads


class RecordReads(EpisodeReads, MemoryReads, Protocol):
    """Turns and memories by id: what loading a hit's record and its sources reads."""


class ChannelReads(IndexReads, GraphReads, Protocol):
    """The search channels and the entities the entity channel resolves names to."""


class StoreReads(RecordReads, ChannelReads, SessionReads, Protocol):
    """Everything a search and its packing read: records, channels, sessions."""


class BrowseReads(BrowseStore, RecordReads, Protocol):
    """Pages of turns and records, and the records, sources and history a page shows."""
