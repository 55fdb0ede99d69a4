"""Loading items to rank without their memories' sources, then completing the kept hits."""

from __future__ import annotations

from dualtrace import Memory
from dualtrace.recall.items import as_hit, load_items, with_sources

TURNS = [
    "I moved to Porto in March and I love the tiles there.",
    "My sister Lena works as a nurse in Lisbon.",
    "Our dog Pico is a three-year-old beagle.",
]


def test_items_ranked_without_sources_are_completed_as_a_full_load(mem: Memory) -> None:
    mem.add(TURNS, user_id="u", session_id="s1", timestamp="2026-05-04T10:00:00Z")
    mem.add("The cat next door is called Mochi.", user_id="v", timestamp="2026-05-04T10:00:00Z")
    ids = [item.id for item in mem.get_all(user_id="u")]
    full = load_items(mem.store, "u", ids)
    bare = load_items(mem.store, "u", ids, sources=False)
    memories = [i for i in ids if full[i].kind != "episode"]
    assert memories and all(full[i].sources for i in memories)
    assert all(not bare[i].sources for i in memories)  # their valid_from gives their time
    assert all(bare[i].occurred_at == full[i].occurred_at for i in ids)  # ranked the same
    hits = [as_hit(bare[i], 1.0 - n / 10, {"dense": 0.5}) for n, i in enumerate(ids)]
    completed = with_sources(mem.store, "u", hits)
    assert completed == [as_hit(full[i], h.score, h.scores) for i, h in zip(ids, hits, strict=True)]
    assert with_sources(mem.store, "v", hits) == hits  # another user's reader adds nothing
