"""Every row as stored, page by page, and loading it back (`dualtrace migrate`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from dualtrace.models import (
    ApiKey,
    AuditRow,
    Episode,
    HistoryEntry,
    MemoryRecord,
    Operation,
    SessionRow,
)
from dualtrace.store.ports.records import EntityRow, IndexEntry

# A user's rows by part, in the order `load_rows` needs them (a turn before its memories).
COPY_PARTS = (
    "episodes",
    "pending",
    "memories",
    "keys",
    "entities",
    "links",
    "history",
    "sessions",
    "operations",
    "audit",
)


@dataclass(frozen=True)
class UserRows:
    """Rows of one user exactly as stored (ids, times, vectors): a page of `CopyStore`."""

    episodes: tuple[Episode, ...] = ()
    pending: tuple[tuple[str, datetime], ...] = ()  # (episode id, extraction-pending since)
    memories: tuple[MemoryRecord, ...] = ()  # with their source episode ids
    keys: tuple[IndexEntry, ...] = ()  # with their bodies, glosses and vectors
    entities: tuple[tuple[str, EntityRow], ...] = ()  # (memory id, an entity it mentions)
    links: tuple[tuple[str, str, str, float], ...] = ()  # (src id, dst id, kind, weight)
    history: tuple[HistoryEntry, ...] = ()  # oldest first
    sessions: tuple[SessionRow, ...] = ()
    operations: tuple[Operation, ...] = ()  # `pending` is read from the turns, not loaded
    audit: tuple[AuditRow, ...] = ()  # oldest first


class CopyStore(Protocol):
    """The whole store, row by row, for moving it to another backend (`dualtrace migrate`)."""

    def embedder_binding(self) -> tuple[str, int] | None:
        """The (embedder id, dimensions) the store's vectors come from; None if unbound."""
        ...

    def copy_page(
        self, user_id: str, part: str, after: str | None, limit: int
    ) -> tuple[UserRows, str | None]:
        """Up to `limit` of the user's rows of one of COPY_PARTS after the cursor `after`
        (None: the first), in a stable order, and the next page's cursor (None: no more)."""
        ...

    def load_rows(self, user_id: str, rows: UserRows) -> list[int]:
        """Write rows as `copy_page` read them (ids, times, vectors kept; no history or audit
        rows of its own) in one transaction; returns the ids its history entries got here."""
        ...

    def api_key_rows(self) -> list[tuple[ApiKey, str]]:
        """Every API key with the hash it is stored under, oldest first."""
        ...
