"""The graph role, read side."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from dualtrace.store.ports.records import EntityRow


class GraphReads(Protocol):
    """Reading the structural trace: entities memories mention and memories sharing them."""

    def entity_rows(self, user_id: str) -> list[EntityRow]:
        """Every entity the user's memories mention."""
        ...

    def related_memories(
        self, user_id: str, canonicals: Sequence[str], exclude: Sequence[str], limit: int
    ) -> list[tuple[str, int]]:
        """Memories sharing these canonical entities: (memory id, shared count), best first."""
        ...

    def related_memories_many(
        self, user_id: str, groups: Sequence[Sequence[str]], exclude: Sequence[str], limit: int
    ) -> list[list[tuple[str, int]]]:
        """`related_memories` for several groups of entities at once."""
        ...

    def unlinked_memories(self, user_id: str, limit: int) -> list[tuple[str, list[str]]]:
        """Memories with entities but no links: (id, canonical entities), newest first."""
        ...
