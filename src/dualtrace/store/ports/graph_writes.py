"""The graph role, write side."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class GraphWrites(Protocol):
    """Writing the structural trace: canonical entities and links between memories."""

    def set_canonical(self, user_id: str, canonical: dict[str, str]) -> None:
        """Re-point entities (norm → canonical norm) after an alias was learned."""
        ...

    def add_links(self, user_id: str, links: Sequence[tuple[str, str, str, float]]) -> None:
        """Insert links (src id, dst id, kind, weight); existing ones are kept."""
        ...
