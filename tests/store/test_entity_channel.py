"""The entity channel: rare entities find their memories; ubiquitous ones are ignored."""

from __future__ import annotations

from pathlib import Path

from dualtrace.models import MemoryRecord
from dualtrace.store.base import EntityRow, MemoryGraph, SearchScope
from dualtrace.store.sqlite.store import SQLiteStore


def test_rare_entities_score_and_common_ones_are_ignored(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    alice = EntityRow("Alice", "alice", "person", "alice")
    boston = EntityRow("Boston", "boston", "place", "boston")
    memories, links = [], []
    for i in range(40):
        memories.append(MemoryRecord(id=f"m{i}", user_id="u", kind="fact", text=f"fact {i}"))
        links.append((f"m{i}", alice))
        if i < 3:
            links.append((f"m{i}", boston))
    store.insert_memories("u", memories, [], "test", MemoryGraph(tuple(links)))
    found = store.search_entities("u", ["alice", "boston"], 10, SearchScope())
    assert {c.record_id for c in found} == {"m0", "m1", "m2"}
    assert all(c.score == 1.0 for c in found)  # every informative query entity matched
    assert store.search_entities("u", ["alice"], 10, SearchScope()) == []
    assert store.search_entities("other-user", ["boston"], 10, SearchScope()) == []
    store.close()


def test_one_hop_along_links_at_half_score(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    boston = EntityRow("Boston", "boston", "place", "boston")
    memories = [MemoryRecord(id=f"m{i}", user_id="u", kind="fact", text=f"f{i}") for i in range(3)]
    graph = MemoryGraph(((("m0", boston),)), (("m1", "m0", "related", 1.0),))
    store.insert_memories("u", memories, [], "test", graph)
    found = {
        c.record_id: c.score for c in store.search_entities("u", ["boston"], 10, SearchScope())
    }
    assert found == {"m0": 1.0, "m1": 0.5}
    store.close()
