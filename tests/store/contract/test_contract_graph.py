"""GraphStore: entities with canonical names, memories related through them, links."""

from __future__ import annotations

from contract.rows import ACTOR, memory
from dualtrace.store.base import EntityRow, MemoryGraph, Store

ALICE = EntityRow("Alice", "alice", "person", "alice")
ALI = EntityRow("Ali", "ali", "person", "ali")
PARIS = EntityRow("Paris", "paris", "place", "paris")
BERLIN = EntityRow("Berlin", "berlin", "place", "berlin")


def _graph(store: Store) -> None:
    """m1: Alice, Paris; m2: Alice, Berlin; m3: Paris; m4: Ali; m5: none."""
    memories = [memory("u", f"m{i}", f"fact {i}") for i in range(1, 6)]
    mentions = (
        ("m1", ALICE),
        ("m1", PARIS),
        ("m2", ALICE),
        ("m2", BERLIN),
        ("m3", PARIS),
        ("m4", ALI),
    )
    store.insert_memories("u", memories, [], ACTOR, MemoryGraph(mentions))


def test_entity_rows_and_canonical_names(store: Store) -> None:
    _graph(store)
    assert {(e.name, e.canonical) for e in store.entity_rows("u")} == {
        ("Alice", "alice"),
        ("Paris", "paris"),
        ("Berlin", "berlin"),
        ("Ali", "ali"),
    }
    store.set_canonical("u", {"ali": "alice"})  # learned: Ali is Alice
    assert {e.norm: e.canonical for e in store.entity_rows("u")}["ali"] == "alice"
    assert {m for m, _ in store.related_memories("u", ["alice"], [], 10)} == {"m1", "m2", "m4"}


def test_related_memories_share_the_most_entities_first(store: Store) -> None:
    _graph(store)
    assert store.related_memories("u", ["alice", "paris"], [], 10)[0] == ("m1", 2)
    assert {m for m, _ in store.related_memories("u", ["alice", "paris"], ["m1"], 10)} == {
        "m2",
        "m3",
    }
    assert len(store.related_memories("u", ["alice", "paris"], [], 1)) == 1
    assert store.related_memories("u", ["nobody"], [], 10) == []
    groups = [["alice"], ["berlin", "paris"], []]
    assert store.related_memories_many("u", groups, [], 10) == [
        store.related_memories("u", g, [], 10) for g in groups
    ]


def test_unlinked_memories_until_links_are_added(store: Store) -> None:
    _graph(store)
    unlinked = dict(store.unlinked_memories("u", 10))
    assert set(unlinked) == {"m1", "m2", "m3", "m4"}  # m5 has no entities
    assert unlinked["m1"] == ["alice", "paris"]
    assert len(store.unlinked_memories("u", 2)) == 2
    store.add_links("u", [("m1", "m2", "related", 0.5), ("m3", "m1", "related", 1.0)])
    store.add_links("u", [("m1", "m2", "related", 0.5)])  # kept once
    store.add_links("u", [])
    assert [m for m, _ in store.unlinked_memories("u", 10)] == ["m4"]
