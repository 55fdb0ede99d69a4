"""MaintenanceStore: the users to visit, expired and idle memories, importance inflation."""

from __future__ import annotations

from contract.rows import ACTOR, at, episode, memory
from dualtrace.store.base import Store


def test_user_ids_are_those_with_turns_or_memories(store: Store) -> None:
    assert store.user_ids() == []
    store.insert_episodes("b", [episode("b", "ep1", "x")], [], ACTOR)
    store.insert_memories("a", [memory("a", "m1", "y")], [], ACTOR)
    store.touch_session("c", "s1", at(0))  # a session alone is not a user's data
    assert store.user_ids() == ["a", "b"]


def test_expired_memories_are_those_past_their_expiry_still_in_search(store: Store) -> None:
    store.insert_memories(
        "u",
        [
            memory("u", "gone", "a", expire_at=at(10)),
            memory("u", "later", "b", expire_at=at(100)),
            memory("u", "kept", "c"),
            memory("u", "archived", "d", expire_at=at(10), archived=True),
        ],
        [],
        ACTOR,
    )
    assert store.expired_memories("u", at(50)) == ["gone"]
    assert store.expired_memories("u", at(5)) == []


def test_memory_usage_is_the_last_recall_or_when_the_memory_began(store: Store) -> None:
    store.insert_memories(
        "u",
        [
            memory("u", "m1", "a", importance=0.3, valid_from=at(-10)),
            memory("u", "m2", "b", importance=0.8),
            memory("u", "m3", "c", archived=True),
        ],
        [],
        ACTOR,
    )
    store.reinforce("u", ["m2"], at(20), lambda importance, count: importance)
    usage = {m: (importance, used) for m, importance, used in store.memory_usage("u")}
    assert usage == {"m1": (0.3, at(-10)), "m2": (0.8, at(20))}


def test_normalise_importance_scales_an_inflated_mean_back(store: Store) -> None:
    store.insert_memories(
        "u", [memory("u", f"m{i}", "x", importance=0.9) for i in range(3)], [], ACTOR
    )
    assert store.normalise_importance("u") is False  # too few memories to judge
    store.insert_memories(
        "u", [memory("u", f"n{i}", "x", importance=0.9) for i in range(10)], [], ACTOR
    )
    assert store.normalise_importance("u") is True
    values = [m for _, m, _ in store.memory_usage("u")]
    assert max(values) <= 0.7 and len(set(values)) == 1
    assert store.normalise_importance("u") is False  # already back
