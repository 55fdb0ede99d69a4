"""DeletionStore: deleting a record, an episode's derived memories or a user leaves nothing."""

from __future__ import annotations

import pytest

from contract.rows import ACTOR, at, episode, fact_key, key, memory, vec
from dualtrace.errors import NotFoundError
from dualtrace.store.base import EntityRow, MemoryChange, MemoryGraph, SearchScope, Store

LYON = EntityRow("Lyon", "lyon", "place", "lyon")


def _user(store: Store, user_id: str = "u", prefix: str = "") -> None:
    """ep1 supports m1 alone; ep1 and ep2 support m2; every record has keys."""
    ep1, ep2, m1, m2 = (prefix + name for name in ("ep1", "ep2", "m1", "m2"))
    store.insert_episodes(
        user_id,
        [
            episode(user_id, ep1, "I moved to Lyon"),
            episode(user_id, ep2, "Lyon again", seq=1, minutes=1),
        ],
        [key(ep1, "I moved to Lyon", vector=vec(1)), key(ep2, "Lyon again", vector=vec(1, 1))],
        ACTOR,
    )
    first = memory(user_id, m1, "lives in Lyon", source_episode_ids=(ep1,), valid_from=at(0))
    both = memory(user_id, m2, "likes Lyon", source_episode_ids=(ep1, ep2), valid_from=at(1))
    store.insert_memories(
        user_id,
        [first, both],
        [fact_key(first, vec(0, 1)), fact_key(both, vec(0, 1, 1))],
        ACTOR,
        MemoryGraph(((m1, LYON), (m2, LYON)), ((m2, m1, "related", 1.0),)),
    )
    store.touch_session(user_id, "s1", at(0))


def _found(store: Store, user_id: str = "u") -> set[str]:
    """Every record any channel finds for the user."""
    scope = SearchScope(include_invalid=True, include_archived=True)
    return {
        *(c.record_id for c in store.search_lexical(user_id, ["Lyon"], 50, scope)),
        *(
            c.record_id
            for v in (vec(1), vec(0, 1))
            for c in store.search_dense(user_id, v, 50, scope)
        ),
        *(c.record_id for c in store.search_time(user_id, at(-60), at(60), 50, scope)),
        *(c.record_id for c in store.search_entities(user_id, ["lyon"], 50, scope)),
    }


def test_deleting_an_episode_takes_every_memory_citing_it(store: Store) -> None:
    _user(store)
    assert _found(store) == {"ep1", "ep2", "m1", "m2"}
    assert store.delete_record("u", "ep1", ACTOR) == []
    # m2 was built from ep1's words too (and ep2's): it goes with ep1
    assert store.record_kinds("u", ["ep1", "ep2", "m1", "m2"]) == {"ep2": "episode"}
    assert _found(store) == {"ep2"}
    assert store.pending_episodes("u") == []  # without rederive nothing is owed
    with pytest.raises(NotFoundError):
        store.history("u", "ep1")
    with pytest.raises(NotFoundError):
        store.delete_record("u", "ep1", ACTOR)


def test_rederive_marks_the_surviving_sources_and_rekeys_the_next_turn(store: Store) -> None:
    _user(store)
    store.insert_episodes(
        "u",
        [episode("u", "ep3", "Paris now", seq=2, minutes=2)],
        [key("ep3", "Paris now", vector=vec(0, 0, 1))],
        ACTOR,
    )
    alone = memory("u", "m3", "ep2 alone", source_episode_ids=("ep2",))
    store.insert_memories("u", [alone], [fact_key(alone)], ACTOR)
    rekeyed = key("ep2", "Lyon again, quoting nothing", vector=vec(1, 1))
    redo = store.delete_record("u", "ep1", ACTOR, [rekeyed], rederive=True)
    assert redo == ["ep2"]  # the next turn, and m2's other source
    assert [e.id for e in store.pending_episodes("u")] == ["ep2"]
    assert store.pending_users() == ["u"]
    assert store.get_memories("u", ["m1", "m2", "m3"]) == {}  # ep2's own memory too
    scope = SearchScope()
    assert [c.record_id for c in store.search_lexical("u", ["quoting"], 5, scope)] == ["ep2"]
    assert store.search_lexical("u", ["moved"], 5, scope) == []


def test_deleting_a_memory_reopens_what_it_superseded(store: Store) -> None:
    old = memory("u", "old", "lives in Paris", valid_from=at(0))
    new = memory("u", "new", "lives in Lyon", valid_from=at(5))
    store.insert_memories("u", [old, new], [fact_key(old), fact_key(new)], ACTOR)
    store.insert_memories(
        "u",
        [],
        [],
        ACTOR,
        None,
        [MemoryChange("SUPERSEDE", "old", "lives in Lyon", by_id="new", valid_to=at(5))],
    )
    assert store.get_memories("u", ["old"])["old"].superseded_by == "new"
    store.delete_record("u", "new", ACTOR)
    reopened = store.get_memories("u", ["old"])["old"]
    assert reopened.superseded_by is None and reopened.valid_to is None
    assert "Lyon" not in repr(store.history("u", "old"))  # the entry quoting it went


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


def test_a_forgotten_users_audit_rows_no_longer_name_them(store: Store) -> None:
    _user(store, "alice@example.com")
    _user(store, "v", prefix="v-")
    store.delete_user("alice@example.com", ACTOR)
    entries = store.audit_entries("alice@example.com")  # still found by the id
    assert [e["action"] for e in entries][-1] == "forget_user"
    assert {e["user_id"] for e in entries} != {"alice@example.com"}
    assert "alice" not in repr(entries)
    assert store.count_records("alice@example.com")["audit_log"] == len(entries)
    assert {e["user_id"] for e in store.audit_entries("v")} == {"v"}


def test_deletion_hashes_name_the_keys_a_deletion_removes(store: Store) -> None:
    _user(store)
    assert set(store.deletion_hashes("u", "ep1")) == {
        "hash-ep1-episode",
        "hash-ep2-episode",
        "hash-m1-fact",
        "hash-m2-fact",
    }
    assert set(store.deletion_hashes("u", "m1")) == {"hash-m1-fact"}
    assert len(store.deletion_hashes("u", None)) == 4
    assert store.deletion_hashes("nobody", None) == []
    store.delete_user("u", ACTOR)
    assert store.finish_deletions() is False  # the clean-up ran with the deletion
