"""User isolation, port by port: user B never sees, changes or deletes user A's rows.

A has rows of every kind; B has a few of its own. Each test asks as B, with A's ids, terms,
vectors, hashes, entities and sessions, and then checks that A's rows are as they were.
"""

from __future__ import annotations

from typing import Any

import pytest

from contract.rows import ACTOR, at, episode, fact_key, key, memory, vec
from dualtrace.errors import DualtraceError, NotFoundError
from dualtrace.store.base import EntityRow, MemoryChange, MemoryGraph, SearchScope, Store

A, B = "alice", "bob"
A_IDS = ["a-ep1", "a-ep2", "a-m1", "a-m2", "a-m3"]
LYON = EntityRow("Lyon", "lyon", "place", "lyon")
EVERYTHING = SearchScope(include_invalid=True, include_archived=True)


@pytest.fixture
def store(store: Store) -> Store:
    """A's rows of every kind: turns, memories (one superseded, one archived, one expiring),
    keys with vectors, entities, links, a session; and a few rows of B's own."""
    store.insert_episodes(
        A,
        [
            episode(A, "a-ep1", "I moved to Lyon", external_id="x1"),
            episode(A, "a-ep2", "Lyon is lovely", seq=1, minutes=1, role="assistant"),
        ],
        [
            key("a-ep1", "I moved to Lyon", vector=vec(1), content_hash="h-a1"),
            key("a-ep2", "Lyon is lovely", vector=vec(1, 1)),
        ],
        ACTOR,
    )
    old = memory(
        A,
        "a-m1",
        "Alice lives in Paris",
        subject="Alice",
        predicate="lives_in",
        source_episode_ids=("a-ep1",),
        valid_from=at(-5),
        importance=0.9,
    )
    new = memory(
        A,
        "a-m2",
        "Alice lives in Lyon",
        subject="Alice",
        predicate="lives_in",
        source_episode_ids=("a-ep1",),
        valid_from=at(0),
        expire_at=at(10),
    )
    kept = memory(A, "a-m3", "Alice likes Lyon", source_episode_ids=("a-ep1", "a-ep2"))
    graph = MemoryGraph((("a-m2", LYON), ("a-m3", LYON)), (("a-m3", "a-m2", "related", 1.0),))
    store.insert_memories(A, [old], [fact_key(old, vec(0, 1))], ACTOR)
    store.insert_memories(
        A,
        [new, kept],
        [fact_key(new, vec(0, 1, 1)), fact_key(kept, vec(0, 0, 1))],
        ACTOR,
        graph,
        [MemoryChange("SUPERSEDE", "a-m1", new.text, by_id="a-m2", valid_to=at(0))],
    )
    store.archive_memories(A, ["a-m3"], "test", ACTOR)
    store.touch_session(A, "s1", at(0))
    nice = episode(B, "b-ep1", "I live in Nice")
    store.insert_episodes(B, [nice], [key(nice.id, nice.text, vector=vec(0, 0, 0, 1))], ACTOR)
    return store


def _snapshot(store: Store) -> dict[str, Any]:
    """Everything A's rows show through the ports."""
    return {
        "episodes": store.get_episodes(A, A_IDS),
        "memories": store.get_memories(A, A_IDS),
        "history": {i: store.history(A, i) for i in A_IDS},
        "records": store.list_records(A, None, True, None),
        "entities": store.entity_rows(A),
        "session": store.get_session(A, "s1"),
        "found": {c.record_id for c in store.search_lexical(A, ["Lyon", "Paris"], 50, EVERYTHING)},
        "dense": store.search_dense(A, vec(1), 50, EVERYTHING),
        "counts": store.count_records(A),
    }


def test_episode_reads(store: Store) -> None:
    assert store.get_episodes(B, A_IDS) == {}
    assert store.episode_ids_by_external(B, ["x1", *A_IDS]) == {}
    assert store.next_seq(B, "s1") == 1  # B's own turn only
    assert [e.id for e in store.iter_episodes(B)] == ["b-ep1"]
    assert [e.id for e in store.recent_episodes(B, "s1", 10, 10)] == ["b-ep1"]
    assert store.next_episode(B, "a-ep1") is None


def test_memory_reads(store: Store) -> None:
    assert store.get_memories(B, A_IDS) == {}
    assert store.memory_ids_by_fact_hash(B, ["hash-a-m1-fact", "hash-a-m2-fact"]) == {}
    assert store.memories_by_subject(B, ["Alice"], ["lives_in"]) == []
    assert store.memories_by_predicate(B, ["lives_in"], include_invalid=True) == []
    assert store.record_kinds(B, A_IDS) == {}
    assert store.list_records(B, None, True, None) == ["b-ep1"]
    assert store.superseded_by(B, "a-m2") == []
    for record_id in A_IDS:
        with pytest.raises(NotFoundError):
            store.history(B, record_id)
    for entry in store.history(A, "a-m1"):
        with pytest.raises(NotFoundError):
            store.history_entry(B, entry.id)


def test_graph_reads(store: Store) -> None:
    assert store.entity_rows(B) == []
    assert store.related_memories(B, ["lyon"], [], 10) == []
    assert store.related_memories_many(B, [["lyon"], []], [], 10) == [[], []]
    assert store.unlinked_memories(B, 10) == []


def test_search_channels(store: Store) -> None:
    for scope in (SearchScope(), EVERYTHING):
        found = {
            *(c.record_id for c in store.search_lexical(B, ["Lyon", "Paris", "Nice"], 50, scope)),
            *(
                c.record_id
                for v in (vec(1), vec(0, 1), vec(0, 0, 1), vec(0, 0, 0, 1))
                for c in store.search_dense(B, v, 50, scope)
            ),
            *(
                c.record_id
                for found in store.search_dense_many(B, [vec(1), vec(0, 1)], 50, scope)
                for c in found
            ),
            *(c.record_id for c in store.search_time(B, at(-60), at(60), 50, scope, among=A_IDS)),
            *(c.record_id for c in store.search_entities(B, ["lyon"], 50, scope)),
        }
        assert found == {"b-ep1"}, scope
    assert store.vectors_by_hash(B, ["h-a1", "hash-a-m1-fact"]) == {}


def test_session_reads(store: Store) -> None:
    assert store.get_session(B, "s1") is None
    assert store.session_episodes(B, "s1", -1) == [store.get_episodes(B, ["b-ep1"])["b-ep1"]]
    assert store.sessions_with_role(B, ["s1"], "assistant") == set()
    assert store.idle_sessions(at(60)) == [(A, "s1")]  # every user's, each named with its user


def test_maintenance_and_deletion_reads(store: Store) -> None:
    assert store.expired_memories(B, at(60)) == []
    assert store.memory_usage(B) == []
    assert store.normalise_importance(B) is False
    counts = store.count_records(B)
    assert counts["episodes"] == 1 and counts["memories"] == 0 and counts["entities"] == 0
    assert {e["action"] for e in store.audit_entries(B)} == {"add_episodes"}


def test_writes_through_b_leave_a_unchanged(store: Store) -> None:
    before = _snapshot(store)
    for record_id in A_IDS:
        with pytest.raises(NotFoundError):
            store.update_text(B, record_id, "hacked", [], ACTOR)
        with pytest.raises(NotFoundError):
            store.delete_record(B, record_id, ACTOR)
    with pytest.raises(NotFoundError):
        store.restore_memory(B, "a-m3", ACTOR)
    assert store.archive_memories(B, ["a-m2"], "B's pass", ACTOR) == 0
    store.reinforce(B, ["a-m1", "a-m2"], at(30), lambda importance, count: 1.0)
    store.set_canonical(B, {"lyon": "paris"})
    assert store.delete_derived(B, "a-ep1", ACTOR) == []
    store.touch_session(B, "s1", at(30))  # B's own session of that name
    assert store.end_session(B, "s1", at(31), "explicit") is True
    store.set_session_extracted(B, "s1", 9)
    with pytest.raises(DualtraceError):
        store.insert_memories(B, [], [], ACTOR, changes=[MemoryChange("REINFORCE", "a-m2", "x")])
    [superseding] = store.superseded_by(A, "a-m2")
    with pytest.raises(DualtraceError):
        store.revert_change(B, superseding, [], ACTOR)
    assert store.delete_user(B, ACTOR)["episodes"] == 1
    assert _snapshot(store) == before
