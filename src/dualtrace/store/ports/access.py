"""The HTTP service's API keys and deferred-add operations."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from dualtrace.models import ApiKey, Operation


class AccessStore(Protocol):
    """The HTTP service's API keys (only hashes are stored) and its deferred-add operations."""

    def insert_api_key(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key under the hash of its secret."""
        ...

    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash (revoked ones too: the caller checks), or None."""
        ...

    def api_keys(self) -> list[ApiKey]:
        """Every key, oldest first."""
        ...

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        """Revoke a key; False if there is no such key or it was already revoked."""
        ...

    def insert_operation(
        self, user_id: str, operation_id: str, episode_ids: Sequence[str], at: datetime
    ) -> None:
        """Record a deferred add: the turns it stored (their pending marks tell its state)."""
        ...

    def get_operation(self, user_id: str, operation_id: str) -> Operation | None:
        """The user's operation, with how many of its turns are still pending, or None."""
        ...

    def note_operation_error(self, user_id: str, error: str | None) -> None:
        """Record (or clear, with None) why finishing the user's pending operations failed."""
        ...
