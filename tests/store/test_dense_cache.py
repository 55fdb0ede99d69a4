"""The per-user dense cache reads only new keys after appends, and everything after a delete
(also when another connection made the change); several vectors or link groups at once find
what each finds alone."""

from __future__ import annotations

from pathlib import Path

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.base import SearchScope


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


def test_many_vectors_at_once_find_what_each_finds_alone(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    with Memory(tmp_path / "m.db", embedder=embedder, config=MemoryConfig(extract=False)) as mem:
        texts = ["apples in the orchard", "pears on the tree", "plums in the basket", "tea"]
        mem.add(texts, user_id="u")
        mem.add("apples for someone else", user_id="v")
        vectors = list(embedder.embed_queries(["apples", "basket of plums", "green tea"]))
        scope = SearchScope(kinds=["episode"])
        together = mem.store.search_dense_many("u", vectors, 2, scope)
        alone = [mem.store.search_dense("u", v, 2, scope) for v in vectors]
        assert together == alone and all(len(found) == 2 for found in together)
        assert mem.store.search_dense_many("u", [], 2, scope) == []
        assert mem.store.search_dense_many("nobody", vectors, 2, scope) == [[], [], []]


def test_links_for_many_groups_match_one_group_at_a_time(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.add(
            ["I met Alice in Paris.", "Alice and Bob visited Berlin.", "Bob moved to Paris."],
            user_id="u",
        )
        store = mem.store
        groups = [["alice"], ["paris", "bob"], [], ["berlin", "alice", "paris"]]
        together = store.related_memories_many("u", groups, [], 5)
        alone = [store.related_memories("u", g, [], 5) for g in groups]
        assert together == alone and together[0] and together[2] == []
        assert store.related_memories_many("v", groups, [], 5) == [[], [], [], []]


def test_key_languages_are_stored_and_worked_out_for_keys_written_before(tmp_path: Path) -> None:
    texts = ["The parking space is 5.2 m long", "我家车位在地下二层", "Pears on the tree"]
    config = MemoryConfig(extract=False)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as mem:
        for n, text in enumerate(texts):  # a session each: no neighbouring turn in a key
            mem.add(text, user_id="u", session_id=f"s{n}")
        query = FakeEmbedder().embed_queries(["parking space"])[0]
        offset = {"zh": 0.3}
        fresh = mem.store.search_dense("u", query, 3, SearchScope(), language_offset=offset)
        plain = {c.record_id: c.score for c in mem.store.search_dense("u", query, 3, SearchScope())}
        lifted = {c.record_id for c in fresh if abs(c.score - plain[c.record_id] - 0.3) < 1e-6}
        assert len(lifted) == 1  # the Chinese key, by its stored language
        stored = mem.store._conn.execute(  # type: ignore[attr-defined]
            "SELECT language FROM search_keys ORDER BY id"
        ).fetchall()
        assert [r[0] for r in stored] == ["en", "zh", "en"]
        mem.store._conn.execute("UPDATE search_keys SET language = NULL")  # type: ignore[attr-defined]
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as mem:
        before = mem.store.search_dense("u", query, 3, SearchScope(), language_offset=offset)
    assert before == fresh  # worked out from the text, as stored
