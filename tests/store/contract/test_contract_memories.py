"""MemoryStore: memories and their sources, record edits, history, undoable changes, archive."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from contract.rows import ACTOR, at, episode, fact_key, key, memory
from dualtrace.errors import ConflictError, DualtraceError, NotFoundError, ValidationError
from dualtrace.models import MemoryRecord
from dualtrace.store.base import MemoryChange, SearchScope, Store


def _said(store: Store, *ids: str) -> None:
    """Episodes the memories can cite."""
    turns = [episode("u", e, f"turn {e}", seq=i, minutes=i) for i, e in enumerate(ids)]
    store.insert_episodes("u", turns, [], ACTOR)


def _lexical(store: Store, *terms: str, scope: SearchScope | None = None) -> set[str]:
    return {c.record_id for c in store.search_lexical("u", terms, 10, scope or SearchScope())}


def test_inserted_memories_come_back_with_their_sources(store: Store) -> None:
    _said(store, "ep1", "ep2")
    full = memory(
        "u",
        "m1",
        "Ann lives in Lyon",
        scene="said over tea",
        subject="Ann",
        predicate="lives_in",
        object="Lyon",
        topic="home",
        importance=0.7,
        confidence=0.9,
        valid_from=at(-60),
        expire_at=at(600),
        session_id="s1",
        metadata={"mentions": 1},
        source_episode_ids=("ep1", "ep2"),
    )
    bare = memory("u", "m2", "likes tea", kind="preference")
    store.insert_memories("u", [full, bare], [fact_key(full), fact_key(bare)], ACTOR)
    got = store.get_memories("u", ["m1", "m2", "missing"])
    assert set(got) == {"m1", "m2"}
    assert replace(got["m1"], source_episode_ids=()) == replace(full, source_episode_ids=())
    assert sorted(got["m1"].source_episode_ids) == ["ep1", "ep2"]
    assert got["m2"] == bare


def test_an_unset_record_time_is_filled_in(store: Store) -> None:
    store.insert_memories("u", [memory("u", "m1", "x", recorded_at=None)], [], ACTOR)
    assert store.get_memories("u", ["m1"])["m1"].recorded_at is not None


def test_many_memories_are_read_at_once(store: Store) -> None:
    many = [memory("u", f"m{i}", f"fact {i}") for i in range(1200)]
    store.insert_memories("u", many, [], ACTOR)
    ids = [m.id for m in many]
    assert len(store.get_memories("u", ids)) == 1200
    assert len(store.record_kinds("u", ids)) == 1200


def test_memories_are_found_by_fact_hash_and_by_subject(store: Store) -> None:
    lyon = memory("u", "m1", "Ann lives in Lyon", subject="Ann", predicate="lives_in")
    nice = memory("u", "m2", "Bob lives in Nice", subject="Bob", predicate="lives_in")
    gone = memory(
        "u",
        "m3",
        "Ann lived in Rome",
        subject="ann",
        predicate="lives_in",
        invalidated_at=at(0),
        valid_to=at(0),
    )
    store.insert_memories(
        "u",
        [lyon, nice, gone],
        [fact_key(lyon), key("m2", "Bob", trace="scene", kind="fact", content_hash="scene-hash")],
        ACTOR,
    )
    found = store.memory_ids_by_fact_hash("u", ["hash-m1-fact", "scene-hash", "nothing"])
    assert found == {"hash-m1-fact": "m1"}  # fact traces only
    assert store.memory_ids_by_fact_hash("u", []) == {}
    assert [m.id for m in store.memories_by_subject("u", ["ANN"], ["lives_in"])] == ["m1"]
    assert store.memories_by_subject("u", ["Ann"], ["works_at"]) == []
    assert store.memories_by_subject("u", [], ["lives_in"]) == []
    assert [m.id for m in store.memories_by_predicate("u", ["lives_in"])] == ["m1", "m2"]
    found = store.memories_by_predicate("u", ["lives_in"], include_invalid=True)
    assert sorted(m.id for m in found) == ["m1", "m2", "m3"]
    assert store.memories_by_predicate("u", ["works_at"]) == []
    assert store.memories_by_predicate("u", []) == []


def test_memories_of_one_moment_come_in_one_order(store: Store) -> None:
    # one turn's two values of a slot, said at one time: by text, whatever their ids (random
    # in use), so which one a reader takes as the newest is the same on every run
    when = {"predicate": "hair", "valid_from": at(5)}
    later_id = memory("u", "m-a", "Dyed it ash brown", **when)
    first_id = memory("u", "m-z", "Cut it short", **when)
    store.insert_memories("u", [later_id, first_id], [], ACTOR)
    assert [m.id for m in store.memories_by_predicate("u", ["hair"])] == ["m-z", "m-a"]


def _plan(id: str, kind: str, minutes: int, status: str, **fields: Any) -> MemoryRecord:
    """A goal or task memory as a session end stores it (predicate = kind)."""
    meta = {"status": status, **fields.pop("metadata", {})}
    return memory(
        "u",
        id,
        f"{kind} {id}",
        kind=kind,
        predicate=kind,
        valid_from=at(minutes),
        metadata=meta,
        **fields,
    )


def test_memories_by_predicate_chooses_a_status(store: Store) -> None:
    """`status` picks goals and tasks by `metadata["status"]` in the store: the open ones
    without the closings (which stay valid), the closed ones too with `include_invalid`."""
    closed = _plan("t2", "task", 1, "open", valid_to=at(5), superseded_by="c2")
    closing = _plan("c2", "task", 5, "done", metadata={"closes": "t2"})
    plain = memory("u", "f1", "Ann lives in Lyon", predicate="lives_in", valid_from=at(3))
    plans = [_plan("t1", "task", 0, "open"), closed, closing, _plan("g1", "goal", 2, "open")]
    store.insert_memories("u", [*plans, plain], [], ACTOR)
    asked = ["task", "goal", "lives_in"]

    def ids(status: str | None, include_invalid: bool = False) -> list[str]:
        found = store.memories_by_predicate(
            "u", asked, include_invalid=include_invalid, status=status
        )
        return [m.id for m in found]

    assert ids(None) == ["t1", "g1", "f1", "c2"]
    assert ids("open") == ["t1", "g1"]
    assert ids("open", include_invalid=True) == ["t1", "t2", "g1"]
    assert ids("done") == ["c2"] and ids("dropped") == []
    assert store.memories_by_predicate("other", asked, status="open") == []


def test_record_kinds_and_list_records(store: Store) -> None:
    _said(store, "ep1")
    store.insert_memories(
        "u",
        [
            memory("u", "m1", "a", valid_from=at(10)),
            memory("u", "m2", "b", kind="event", valid_from=at(20)),
            memory("u", "m3", "c", valid_from=at(30), invalidated_at=at(31)),
        ],
        [],
        ACTOR,
    )
    assert store.record_kinds("u", ["ep1", "m1", "m2", "nope"]) == {
        "ep1": "episode",
        "m1": "fact",
        "m2": "event",
    }
    assert store.record_kinds("u", []) == {}
    assert store.list_records("u", None, False, None) == ["m2", "m1", "ep1"]  # newest first
    assert store.list_records("u", None, True, None) == ["m3", "m2", "m1", "ep1"]
    assert store.list_records("u", ("fact",), True, None) == ["m3", "m1"]
    assert store.list_records("u", ("episode", "event"), False, 1) == ["m2"]


@pytest.mark.parametrize("record_id", ["ep1", "m1"])
def test_update_text_replaces_text_keys_and_records_history(store: Store, record_id: str) -> None:
    _said(store, "ep1")
    store.insert_memories("u", [memory("u", "m1", "m1 says apples")], [], ACTOR)
    trace = "episode" if record_id == "ep1" else "fact"
    store.replace_keys("u", record_id, [key(record_id, "apples", trace=trace, kind=trace)])
    new_keys = [key(record_id, "pears on the tree", trace=trace, kind=trace)]
    old = store.update_text("u", record_id, "pears on the tree", new_keys, ACTOR)
    assert old in ("turn ep1", "m1 says apples")
    if record_id == "ep1":
        assert store.get_episodes("u", [record_id])[record_id].text == "pears on the tree"
    else:
        assert store.get_memories("u", [record_id])[record_id].text == "pears on the tree"
    assert _lexical(store, "pears") == {record_id}
    assert _lexical(store, "apples") == set()
    events = [(h.event, h.old_text, h.new_text) for h in store.history("u", record_id)]
    assert events == [("ADD", None, old), ("UPDATE", old, "pears on the tree")]
    with pytest.raises(NotFoundError):
        store.update_text("u", "missing", "x", [], ACTOR)


def test_history_of_an_unknown_record_or_entry_is_not_found(store: Store) -> None:
    with pytest.raises(NotFoundError):
        store.history("u", "missing")
    with pytest.raises(NotFoundError):
        store.history_entry("u", 123456)


def _changed(store: Store, change: MemoryChange) -> MemoryRecord:
    store.insert_memories("u", [], [], ACTOR, changes=[change])
    return store.get_memories("u", [change.memory_id])[change.memory_id]


def _base(store: Store) -> MemoryRecord:
    _said(store, "ep1", "ep2")
    lyon = memory(
        "u",
        "m1",
        "Ann lives in Lyon",
        object="Lyon",
        importance=0.4,
        confidence=0.5,
        source_episode_ids=("ep1",),
    )
    store.insert_memories("u", [lyon], [fact_key(lyon)], ACTOR)
    return lyon


def test_reinforce_change_and_its_undo(store: Store) -> None:
    before = _base(store)
    change = MemoryChange("REINFORCE", "m1", "Ann lives in Lyon", sources=("ep2",), importance=0.6)
    after = _changed(store, change)
    assert after.importance == 0.6 and after.confidence > before.confidence
    assert sorted(after.source_episode_ids) == ["ep1", "ep2"]
    entry = store.history("u", "m1")[-1]
    assert entry.event == "REINFORCE" and store.history_entry("u", entry.id) == entry
    store.revert_change("u", entry, [], ACTOR)
    undone = store.get_memories("u", ["m1"])["m1"]
    assert (undone.importance, undone.confidence) == (0.4, 0.5)
    assert undone.source_episode_ids == ("ep1",)
    assert store.history("u", "m1")[-1].event == "REVERT"
    with pytest.raises(ConflictError):
        store.revert_change("u", entry, [], ACTOR)  # undone once only


def test_merge_change_rewrites_text_and_keys_and_its_undo_restores_them(store: Store) -> None:
    _base(store)
    merged = "Ann lives in Lyon and Nice"
    change = MemoryChange(
        "MERGE",
        "m1",
        "Ann lives in Nice",
        text=merged,
        object="Lyon, Nice",
        values=("Lyon", "Nice"),
        keys=(key("m1", merged, trace="fact", kind="fact"),),
    )
    after = _changed(store, change)
    assert (after.text, after.object) == (merged, "Lyon, Nice")
    assert _lexical(store, "Nice") == {"m1"}
    entry = store.history("u", "m1")[-1]
    assert (entry.event, entry.old_text, entry.new_text) == ("MERGE", "Ann lives in Lyon", merged)
    store.revert_change(
        "u", entry, [key("m1", "Ann lives in Lyon", trace="fact", kind="fact")], ACTOR
    )
    undone = store.get_memories("u", ["m1"])["m1"]
    assert (undone.text, undone.object) == ("Ann lives in Lyon", "Lyon")
    assert _lexical(store, "Nice") == set() and _lexical(store, "Lyon") == {"m1"}


def test_supersede_change_closes_the_old_value_and_its_undo_reopens_it(store: Store) -> None:
    _base(store)
    nice = memory("u", "m2", "Ann lives in Nice", source_episode_ids=("ep2",))
    closing = MemoryChange("SUPERSEDE", "m1", nice.text, by_id="m2", valid_to=at(5))
    store.insert_memories("u", [nice], [fact_key(nice)], ACTOR, changes=[closing])
    old = store.get_memories("u", ["m1"])["m1"]
    assert (old.superseded_by, old.valid_to) == ("m2", at(5)) and old.invalidated_at is not None
    assert store.list_records("u", ("fact",), False, None) == ["m2"]
    assert _lexical(store, "Lyon") == set()  # default search: currently valid only
    assert _lexical(store, "Lyon", scope=SearchScope(include_invalid=True)) == {"m1"}
    assert _lexical(store, "Lyon", scope=SearchScope(valid_at=at(1))) == {"m1"}
    [entry] = store.superseded_by("u", "m2")
    assert entry.event == "SUPERSEDE" and entry.record_id == "m1"
    store.revert_change("u", entry, [], ACTOR)
    reopened = store.get_memories("u", ["m1"])["m1"]
    assert (reopened.superseded_by, reopened.valid_to, reopened.invalidated_at) == (None,) * 3
    assert store.superseded_by("u", "m2") == []


def test_only_consolidation_changes_can_be_reverted(store: Store) -> None:
    _base(store)
    [added] = store.history("u", "m1")
    with pytest.raises(ValidationError):
        store.revert_change("u", added, [], ACTOR)


def test_a_change_to_another_users_memory_fails_and_writes_nothing(store: Store) -> None:
    _base(store)
    with pytest.raises(DualtraceError):
        store.insert_memories(
            "v",
            [memory("v", "m9", "new")],
            [],
            ACTOR,
            changes=[MemoryChange("REINFORCE", "m1", "x")],
        )
    assert store.get_memories("v", ["m9"]) == {}  # one transaction: all or nothing


def test_a_change_to_a_memory_deleted_meanwhile_is_left_out(store: Store) -> None:
    # extraction decided against a memory that a delete (another thread or process)
    # removed before the write: the decision is moot, the rest of the write stands
    store.insert_memories(
        "u", [memory("u", "m9", "new")], [], ACTOR, changes=[MemoryChange("REINFORCE", "gone", "x")]
    )
    assert list(store.get_memories("u", ["m9", "gone"])) == ["m9"]


def test_reinforce_counts_access_and_keeps_the_mean_from_inflating(store: Store) -> None:
    store.insert_memories("u", [memory("u", f"m{i}", f"f{i}") for i in range(10)], [], ACTOR)
    store.reinforce("u", ["m0"], at(1), lambda importance, count: importance + 0.1)
    m0 = store.get_memories("u", ["m0"])["m0"]
    assert (m0.importance, m0.access_count, m0.last_accessed_at) == (0.6, 1, at(1))
    store.reinforce("u", [], at(2), lambda importance, count: 1.0)  # nothing to do
    ids = [f"m{i}" for i in range(10)]
    store.reinforce("u", ids, at(2), lambda importance, count: 0.95)
    values = [m.importance for m in store.get_memories("u", ids).values()]
    assert sum(values) / len(values) <= 0.7  # scaled back
    assert store.get_memories("u", ["m0"])["m0"].access_count == 2


def test_archive_takes_memories_out_of_default_search_and_restore_brings_them_back(
    store: Store,
) -> None:
    m = memory("u", "m1", "Ann plays the cello")
    store.insert_memories("u", [m], [fact_key(m)], ACTOR)
    assert store.archive_memories("u", ["m1", "missing"], "stale", ACTOR) == 1
    assert store.archive_memories("u", ["m1"], "stale", ACTOR) == 0  # already archived
    assert store.archive_memories("u", [], "stale", ACTOR) == 0
    assert store.get_memories("u", ["m1"])["m1"].archived
    assert store.list_records("u", None, False, None) == []
    assert _lexical(store, "cello") == set()
    assert _lexical(store, "cello", scope=SearchScope(include_archived=True)) == {"m1"}
    assert store.restore_memory("u", "m1", ACTOR) is True
    assert store.restore_memory("u", "m1", ACTOR) is False  # not archived any more
    assert _lexical(store, "cello") == {"m1"}
    assert [h.event for h in store.history("u", "m1")] == ["ADD", "ARCHIVE", "RESTORE"]
    with pytest.raises(NotFoundError):
        store.restore_memory("u", "missing", ACTOR)
