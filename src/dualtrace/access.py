"""API keys of the HTTP service: made here, shown once, stored only as a SHA-256 hash.

A key is `dt_<key id>_<secret>`: the key id (public, shown by `dualtrace keys list`) names
it for revocation; the secret is 32 random bytes, so a plain hash is as strong as a slow
one (there is nothing to guess) and a lookup costs one indexed read.

    keys = ApiKeys(mem.store)
    key, token = keys.create(user_id="alice")   # token: give it to the client, once
    keys.verify(token)                          # the ApiKey, or None
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime

from dualtrace.errors import NotFoundError, ValidationError
from dualtrace.inputs import check_optional_id, check_user_id
from dualtrace.models import ApiKey
from dualtrace.store.base import AccessStore

PREFIX = "dt_"


def key_hash(token: str) -> str:
    """The stored form of a key."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class ApiKeys:
    """Create, verify, list and revoke the service's API keys."""

    def __init__(self, store: AccessStore) -> None:
        self.store = store

    def create(
        self, *, user_id: str | None, admin: bool = False, label: str | None = None
    ) -> tuple[ApiKey, str]:
        """A new key for one user (or, `admin`, for any); returns it and its secret token."""
        if not admin and user_id is None:
            raise ValidationError("a key acts for one user: pass user_id, or admin=True")
        user_id = None if user_id is None else check_user_id(user_id)
        label = check_optional_id("label", label)
        key_id = secrets.token_hex(6)
        token = f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
        key = ApiKey(key_id, user_id, admin, datetime.now(UTC), label=label)
        self.store.insert_api_key(key, key_hash(token))
        return key, token

    def verify(self, token: str) -> ApiKey | None:
        """The live key this token is, or None (unknown, malformed or revoked)."""
        if not token.startswith(PREFIX) or len(token) > 200:
            return None
        key = self.store.api_key_by_hash(key_hash(token))
        if key is None or key.revoked_at is not None:
            return None
        return key

    def list(self) -> list[ApiKey]:
        """Every key (revoked ones too), oldest first; never the secrets."""
        return self.store.api_keys()

    def active(self) -> bool:
        """Whether any key can still be used."""
        return any(k.revoked_at is None for k in self.store.api_keys())

    def revoke(self, key_id: str) -> None:
        """Revoke a key by its id (NotFoundError if there is no live key with that id)."""
        if not self.store.revoke_api_key(key_id, datetime.now(UTC)):
            raise NotFoundError(
                f"no live API key {key_id!r}; see the keys with `dualtrace keys list`"
            )
