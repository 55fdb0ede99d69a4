"""Writes that race other writers and deleters, and channels past refused records.

Several processes (or threads) write one store: an external id a retry stored first is
answered with the stored turn; memories whose source turns were deleted while they were
being extracted are not stored, and nothing they name fails a foreign key. Every channel
fills its list with records the scope admits, however many closed or archived ones rank
above them.
"""

from __future__ import annotations

from dataclasses import replace

from contract.conftest import StoreFactory
from contract.rows import ACTOR, T0, at, episode, fact_key, key, memory, vec
from dualtrace.store.base import EntityRow, MemoryChange, MemoryGraph, SearchScope, Store


def test_an_external_id_stored_meanwhile_answers_with_the_stored_turn(
    store_factory: StoreFactory,
) -> None:
    first, retry = store_factory.open(), store_factory.open()
    # both looked the id up, found nothing, and built their own episode for it
    mine = episode("u", "ep-first", "hello", external_id="msg-1")
    theirs = episode("u", "ep-retry", "hello", external_id="msg-1")
    fresh = episode("u", "ep-new", "and more", seq=1, external_id="msg-2")
    assert first.insert_episodes("u", [mine], [key("ep-first", "hello")], ACTOR) == [mine]
    stored = retry.insert_episodes(
        "u", [theirs, fresh], [key("ep-retry", "hello"), key("ep-new", "and more")], ACTOR
    )
    assert [e.id for e in stored] == ["ep-first", "ep-new"]
    assert stored[0] == first.get_episodes("u", ["ep-first"])["ep-first"]
    assert retry.episode_ids_by_external("u", ["msg-1", "msg-2"]) == {
        "msg-1": "ep-first",
        "msg-2": "ep-new",
    }
    assert retry.get_episodes("u", ["ep-retry"]) == {}  # nothing stored for the loser
    assert retry.count_records("u")["search_keys"] == 2  # and none of its keys
    assert [e.event for e in retry.history("u", "ep-first")] == ["ADD"]


def test_the_same_external_id_of_another_user_is_theirs_alone(store: Store) -> None:
    store.insert_episodes("a", [episode("a", "ep-a", "hi", external_id="msg-1")], [], ACTOR)
    stored = store.insert_episodes(
        "b", [episode("b", "ep-b", "hi", external_id="msg-1")], [], ACTOR
    )
    assert [e.id for e in stored] == ["ep-b"]


def test_memories_of_a_turn_deleted_during_extraction_are_not_stored(store: Store) -> None:
    store.insert_episodes(
        "u",
        [episode("u", "ep1", "I live in Lyon"), episode("u", "ep2", "I like tea", seq=1)],
        [],
        ACTOR,
    )
    kept = memory("u", "m-kept", "Ann likes tea", source_episode_ids=("ep2",))
    store.insert_memories("u", [kept], [fact_key(kept)], ACTOR)
    # extraction of ep1 and ep2 runs; meanwhile ep1 is deleted
    lyon = memory("u", "m-lyon", "Ann lives in Lyon", source_episode_ids=("ep1",))
    both = memory("u", "m-both", "Ann, of Lyon, likes tea", source_episode_ids=("ep1", "ep2"))
    store.delete_record("u", "ep1", ACTOR)
    graph = MemoryGraph(
        entities=(
            ("m-lyon", EntityRow("Lyon", "lyon", "place", "lyon")),
            ("m-both", EntityRow("Ann", "ann", "person", "ann")),
        ),
        links=(
            ("m-lyon", "m-kept", "related", 1.0),
            ("m-both", "m-kept", "related", 1.0),
            ("m-both", "m-lyon", "related", 1.0),
        ),
    )
    changes = [
        MemoryChange("REINFORCE", "m-kept", "Ann likes tea", sources=("ep1",)),
        MemoryChange("SUPERSEDE", "m-kept", "Ann lives in Lyon", by_id="m-lyon", valid_to=T0),
    ]
    store.insert_memories(
        "u", [lyon, both], [fact_key(lyon), fact_key(both)], ACTOR, graph, changes
    )
    found = store.get_memories("u", ["m-lyon", "m-both", "m-kept"])
    assert sorted(found) == ["m-both", "m-kept"]
    assert found["m-both"].source_episode_ids == ("ep2",)
    assert found["m-kept"] == replace(
        kept, recorded_at=found["m-kept"].recorded_at, metadata=found["m-kept"].metadata
    )
    assert [e.norm for e in store.entity_rows("u")] == ["ann"]
    assert store.related_memories("u", ["ann"], [], 5) == [("m-both", 1)]
    assert {c.record_id for c in store.search_lexical("u", ["Lyon"], 10, SearchScope())} == {
        "m-both"
    }


def test_memories_whose_every_source_is_gone_leave_nothing_behind(store: Store) -> None:
    store.insert_episodes("u", [episode("u", "ep1", "I live in Lyon")], [], ACTOR)
    before = store.count_records("u")
    store.delete_record("u", "ep1", ACTOR)
    lyon = memory("u", "m-lyon", "Ann lives in Lyon", source_episode_ids=("ep1",))
    store.insert_memories("u", [lyon], [fact_key(lyon, vec(1))], ACTOR)
    counts = store.count_records("u")
    assert counts["memories"] == counts["search_keys"] == counts["memory_sources"] == 0
    assert before["episodes"] == 1 and counts["episodes"] == 0


def _crowded(store: Store) -> set[str]:
    """40 closed and 8 archived values of a budget above 6 valid memories, in every channel:
    nearer the query vector, more lexical matches, newer, and naming the same entity."""
    store.insert_episodes("u", [], [], ACTOR)
    refused = [
        memory(
            "u",
            f"old{i}",
            f"budget budget budget {i}",
            valid_from=at(100 + i),
            valid_to=at(101 + i),
            invalidated_at=at(101 + i),
        )
        for i in range(40)
    ] + [
        memory(
            "u",
            f"arch{i}",
            f"budget budget budget archived {i}",
            valid_from=at(200 + i),
            archived=True,
        )
        for i in range(8)
    ]
    valid = [memory("u", f"ok{i}", f"budget note {i}", valid_from=at(i)) for i in range(6)]
    keys = [fact_key(m, vec(1, 0.01 * i)) for i, m in enumerate(refused)]
    keys += [fact_key(m, vec(1, 0.5 + 0.1 * i)) for i, m in enumerate(valid)]
    budget = EntityRow("Budget", "budget", "other", "budget")
    graph = MemoryGraph(entities=tuple((m.id, budget) for m in [*refused, *valid]))
    store.insert_memories("u", [*refused, *valid], keys, ACTOR, graph)
    return {m.id for m in valid}


def test_every_channel_fills_its_list_past_closed_and_archived_records(store: Store) -> None:
    valid = _crowded(store)
    scope = SearchScope()
    channels = {
        "dense": store.search_dense("u", vec(1), 5, scope),
        "dense_many": store.search_dense_many("u", [vec(1)], 5, scope)[0],
        "lexical": store.search_lexical("u", ["budget"], 5, scope),
        "entity": store.search_entities("u", ["budget"], 5, scope, max_share=1.0),
        "time": store.search_time("u", at(-10), at(300), 5, scope),
    }
    for name, found in channels.items():
        assert len(found) == 5 and {c.record_id for c in found} <= valid, name
    everything = SearchScope(include_invalid=True, include_archived=True)
    assert {c.record_id for c in store.search_dense("u", vec(1), 5, everything)} <= {
        f"old{i}" for i in range(40)
    }  # the refused ones do rank first: the channel read past them
    assert len(store.search_lexical("u", ["budget"], 20, scope)) == 6  # all there are
