"""AccessStore: the service's API keys (stored by hash) and its deferred-add operations."""

from __future__ import annotations

from contract.rows import ACTOR, at, episode
from dualtrace.models import ApiKey
from dualtrace.store.ports.access import AccessStore
from dualtrace.store.ports.episode_writes import EpisodeWrites


class _Store(AccessStore, EpisodeWrites):
    """The roles these tests use (the fixture's store has every role)."""


def test_a_key_is_found_by_its_hash_and_revoked_once(store: AccessStore) -> None:
    key = ApiKey(key_id="k1", user_id="u", admin=False, created_at=at(0), label="laptop")
    admin = ApiKey(key_id="k2", user_id=None, admin=True, created_at=at(1))
    store.insert_api_key(key, "hash-1")
    store.insert_api_key(admin, "hash-2")
    assert store.api_key_by_hash("hash-1") == key
    assert store.api_key_by_hash("nope") is None
    assert [k.key_id for k in store.api_keys()] == ["k1", "k2"]  # oldest first
    assert store.revoke_api_key("k1", at(5)) is True
    assert store.revoke_api_key("k1", at(6)) is False
    assert store.revoke_api_key("missing", at(6)) is False
    revoked = store.api_key_by_hash("hash-1")  # still found: the caller checks revocation
    assert revoked is not None and revoked.revoked_at == at(5)


def test_an_operation_counts_its_pending_turns_per_user(store: _Store) -> None:
    turns = [episode("u", "ep1", "one"), episode("u", "ep2", "two", seq=1)]
    store.insert_episodes("u", turns, [], ACTOR, pending=True)
    store.insert_operation("u", "op1", ["ep1", "ep2"], at(0))
    op = store.get_operation("u", "op1")
    assert op is not None
    assert (op.episode_ids, op.pending, op.state) == (("ep1", "ep2"), 2, "pending")
    assert store.get_operation("v", "op1") is None  # another user's operation is not there
    store.note_operation_error("u", "the embedder was unreachable")
    failed = store.get_operation("u", "op1")
    assert failed is not None and failed.error == "the embedder was unreachable"
    store.note_operation_error("u", None)
    cleared = store.get_operation("u", "op1")
    assert cleared is not None and cleared.error is None
