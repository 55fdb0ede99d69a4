"""The per-user dense cache reads only new keys after appends, and everything after a delete
(also when another connection made the change)."""

from __future__ import annotations

from pathlib import Path

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder


def _dense_ids(mem: Memory, query: str) -> set[str]:
    hits = mem.search(query, user_id="u", limit=50, explain=True, reinforce=False)
    return {h.id for h in hits if "dense" in h.scores}


def test_appends_deletes_and_other_writers_reach_the_cache(tmp_path: Path) -> None:
    config = MemoryConfig(extract=False)
    with (
        Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as mem,
        Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as other,
    ):
        first = mem.add(["apples in the orchard", "pears on the tree"], user_id="u").episodes
        assert _dense_ids(mem, "apples") == set(first)
        cached = mem.store._dense._cache["u"]  # type: ignore[attr-defined]
        later = other.add("plums in the basket", user_id="u").episodes  # another connection
        assert _dense_ids(mem, "apples") == {*first, *later}
        grown = mem.store._dense._cache["u"]  # type: ignore[attr-defined]
        assert grown.matrix.shape[0] == cached.matrix.shape[0] + 1  # appended, not reloaded
        other.delete(first[0], user_id="u")
        assert _dense_ids(mem, "apples") == {first[1], *later}
        again = mem.add("cherries", user_id="u").episodes
        assert _dense_ids(mem, "apples") == {first[1], *later, *again}
