"""The search index, write side: a record's keys and their vectors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from dualtrace.store.ports.records import IndexEntry


class IndexWrites(Protocol):
    """Writing records' search keys (full text and vectors)."""

    def replace_keys(self, user_id: str, record_id: str, keys: Sequence[IndexEntry]) -> None:
        """Rebuild a record's search keys (its text unchanged) and scrub the old ones."""
        ...

    def add_vectors(self, user_id: str, keys: Sequence[IndexEntry]) -> int:
        """Give stored keys that have no vector yet the vectors of these keys (matched by
        record id, trace and content hash; a key changed or gone since is left alone);
        returns how many keys got one. Text and full-text rows are untouched."""
        ...
