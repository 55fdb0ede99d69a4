"""What the forgetting and normalising passes read and adjust."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class MaintenanceStore(Protocol):
    """What the forgetting and normalising passes read and adjust, user by user."""

    def user_ids(self) -> list[str]:
        """Every user with stored turns or memories."""
        ...

    def expired_memories(self, user_id: str, now: datetime) -> list[str]:
        """Ids of memories in default search whose expire_at has passed."""
        ...

    def memory_usage(self, user_id: str) -> list[tuple[str, float, datetime]]:
        """(id, importance, last used) of the memories in default search."""
        ...

    def normalise_importance(self, user_id: str) -> bool:
        """Scale the user's importances back if their mean inflated; True if it did."""
        ...

    def refresh_search_index(self, user_id: str) -> bool:
        """Build or drop the index the user's size calls for; True if it changed one."""
        ...
