"""DeletionStore: deleting a record, an episode's derived memories or a user leaves nothing."""

from __future__ import annotations

import pytest

from contract.rows import ACTOR, at, episode, fact_key, key, memory, vec
from dualtrace.errors import NotFoundError
from dualtrace.store.base import EntityRow, MemoryGraph, SearchScope, Store

LYON = EntityRow("Lyon", "lyon", "place", "lyon")


def _user(store: Store, user_id: str = "u", prefix: str = "") -> None:
    """ep1 supports m1 alone; ep1 and ep2 support m2; every record has keys."""
    ep1, ep2, m1, m2 = (prefix + name for name in ("ep1", "ep2", "m1", "m2"))
    store.insert_episodes(
        user_id, [episode(user_id, ep1, "I moved to Lyon"), episode(user_id, ep2, "Lyon again",
                  seq=1, minutes=1)],
        [key(ep1, "I moved to Lyon", vector=vec(1)), key(ep2, "Lyon again", vector=vec(1, 1))],
        ACTOR,
    )  # fmt: skip
    first = memory(user_id, m1, "lives in Lyon", source_episode_ids=(ep1,), valid_from=at(0))
    both = memory(user_id, m2, "likes Lyon", source_episode_ids=(ep1, ep2), valid_from=at(1))
    store.insert_memories(
        user_id, [first, both], [fact_key(first, vec(0, 1)), fact_key(both, vec(0, 1, 1))],
        ACTOR, MemoryGraph(((m1, LYON), (m2, LYON)), ((m2, m1, "related", 1.0),)),
    )  # fmt: skip
    store.touch_session(user_id, "s1", at(0))


def _found(store: Store, user_id: str = "u") -> set[str]:
    """Every record any channel finds for the user."""
    scope = SearchScope(include_invalid=True, include_archived=True)
    return {
        *(c.record_id for c in store.search_lexical(user_id, ["Lyon"], 50, scope)),
        *(c.record_id for v in (vec(1), vec(0, 1)) for c in
          store.search_dense(user_id, v, 50, scope)),
        *(c.record_id for c in store.search_time(user_id, at(-60), at(60), 50, scope)),
        *(c.record_id for c in store.search_entities(user_id, ["lyon"], 50, scope)),
    }  # fmt: skip


def test_deleting_an_episode_takes_the_memories_only_it_supports(store: Store) -> None:
    _user(store)
    assert _found(store) == {"ep1", "ep2", "m1", "m2"}
    store.delete_record("u", "ep1", ACTOR)
    assert store.record_kinds("u", ["ep1", "ep2", "m1", "m2"]) == {"ep2": "episode", "m2": "fact"}
    assert store.get_memories("u", ["m2"])["m2"].source_episode_ids == ("ep2",)
    assert _found(store) == {"ep2", "m2"}
    with pytest.raises(NotFoundError):
        store.history("u", "ep1")
    with pytest.raises(NotFoundError):
        store.delete_record("u", "ep1", ACTOR)


def test_deleting_a_memory_keeps_its_episodes(store: Store) -> None:
    _user(store)
    store.delete_record("u", "m1", ACTOR)
    assert store.get_memories("u", ["m1"]) == {}
    assert set(store.get_episodes("u", ["ep1", "ep2"])) == {"ep1", "ep2"}
    assert _found(store) == {"ep1", "ep2", "m2"}
    store.delete_record("u", "m2", ACTOR)
    assert store.entity_rows("u") == []  # no memory mentions Lyon any more


def test_delete_derived_removes_memories_but_keeps_the_episode(store: Store) -> None:
    _user(store)
    assert store.delete_derived("u", "ep1", ACTOR) == ["m1"]
    assert store.delete_derived("u", "ep1", ACTOR) == []
    assert store.get_episodes("u", ["ep1"])["ep1"].text == "I moved to Lyon"
    assert set(store.get_memories("u", ["m1", "m2"])) == {"m2"}


def test_deleting_a_user_leaves_nothing_of_theirs(store: Store) -> None:
    _user(store, "u")
    _user(store, "v", prefix="v-")
    counts = store.delete_user("u", ACTOR)
    assert counts["episodes"] == 2 and counts["memories"] == 2
    left = store.count_records("u")
    assert left.pop("audit_log") > 0  # the log of what happened (never any text) stays
    assert set(left.values()) == {0}
    assert _found(store, "u") == set()
    assert list(store.iter_episodes("u")) == []
    assert store.list_records("u", None, True, None) == []
    assert store.vectors_by_hash("u", ["hash-ep1-episode"]) == {}
    assert store.entity_rows("u") == [] and store.get_session("u", "s1") is None
    assert store.user_ids() == ["v"]
    assert _found(store, "v") == {"v-ep1", "v-ep2", "v-m1", "v-m2"}  # the other user: intact


def test_the_audit_log_names_actions_but_holds_no_text(store: Store) -> None:
    _user(store)
    store.delete_record("u", "ep1", ACTOR)
    entries = store.audit_entries("u")
    actions = [e["action"] for e in entries]
    assert actions[0] == "add_episodes" and actions[-1] == "delete"
    assert all(e["actor"] == ACTOR for e in entries)
    assert "Lyon" not in repr(entries)
