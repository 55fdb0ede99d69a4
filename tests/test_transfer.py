"""Export and import: round trips, idempotency, all-or-nothing checks, progress."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dualtrace import Memory, ValidationError
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.models import MemoryRecord


def test_round_trip_keeps_episodes_and_memories(
    mem: Memory, conversation: list[dict[str, str]]
) -> None:
    res = mem.add(conversation, user_id="a", session_id="s1")
    episodes, derived = res.episodes, len(res.events)
    memory = MemoryRecord(
        id="mem_budget",
        user_id="a",
        kind="fact",
        text="Alice's car budget is 300k yuan.",
        scene="On Mon 2 Mar 2026 Alice told the assistant her budget.",
        valid_from=datetime(2026, 3, 2, tzinfo=UTC),
        source_episode_ids=(episodes[2],),
    )
    mem.store.insert_memories("a", [memory], mem.memory_keys("a", memory), "test")
    exported = list(mem.export(user_id="a"))
    assert [r["type"] for r in exported] == ["episode"] * 4 + ["memory"] * (derived + 1)

    seen: list[int] = []
    total = len(exported)
    assert mem.import_records(exported, user_id="b", progress=seen.append) == total
    assert sum(seen) == total
    items = {i.text: i for i in mem.get_all(user_id="b")}
    assert set(items) == {i.text for i in mem.get_all(user_id="a")}
    copied = items["Alice's car budget is 300k yuan."]
    assert copied.kind == "fact" and copied.id != "mem_budget"
    assert [s.external_id for s in copied.sources] == ["a3"]
    # the copy is searchable (the budget memory drawn from a3 fills the slot and leads)
    assert copied.id in [h.id for h in mem.search("car budget", user_id="b", kinds=["fact"])[:2]]
    assert mem.import_records(exported, user_id="b") == 0


def test_a_bad_record_late_in_a_big_import_stores_nothing(mem: Memory) -> None:
    records = [{"content": f"turn {i}", "id": f"t{i}"} for i in range(300)]
    records.append({"content": "bad time", "timestamp": "someday"})
    with pytest.raises(ValidationError, match=r"record 301: .*'someday'.*nothing was imported"):
        mem.import_records(records, user_id="u", batch=50)
    assert mem.get_all(user_id="u") == []


def test_reimport_into_the_same_user_adds_nothing(
    mem: Memory, conversation: list[dict[str, str]]
) -> None:
    mem.add(conversation, user_id="u")
    before = len(mem.get_all(user_id="u"))
    assert mem.import_records(list(mem.export(user_id="u")), user_id="u") == 0
    assert len(mem.get_all(user_id="u")) == before


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("valid_from", "yesterday", "'yesterday'"),
        ("importance", "high", "importance='high'"),
        ("kind", "gossip", "kind='gossip'"),
        ("metadata", ["x"], "metadata must be an object"),
    ],
)
def test_bad_memory_record_imports_nothing(
    mem: Memory, field: str, value: object, fragment: str
) -> None:
    records = [
        {"content": "a message that must not be stored"},
        {"type": "memory", "id": "m1", "text": "Alice likes tea.", field: value},
    ]
    with pytest.raises(ValidationError, match=fragment):
        mem.import_records(records, user_id="u")
    assert mem.get_all(user_id="u") == []


def test_round_trip_keeps_the_supersede_chain_and_the_archive(mem: Memory) -> None:
    mem.add("I live in Hangzhou.", user_id="a", timestamp="2024-01-10")
    events = mem.add("I just moved to Shanghai.", user_id="a", timestamp="2024-03-05").events
    assert [e[1] for e in events] == ["ADD", "SUPERSEDE"]
    new_id = events[0][0]
    mem.store.archive_memories("a", [new_id], "test", "test")
    assert mem.import_records(list(mem.export(user_id="a")), user_id="b") == 4
    copied = {i.text: i for i in mem.get_all(user_id="b", include_invalid=True)}
    old, new = copied["The user lives in Hangzhou."], copied["The user just moved to Shanghai."]
    assert old.superseded_by == new.id and old.valid_to is not None
    assert new.archived and not old.archived


def _chain(mem: Memory, user: str) -> None:
    mem.add("I live in Hangzhou.", user_id=user, timestamp="2024-01-10")
    mem.add("I just moved to Shanghai.", user_id=user, timestamp="2024-03-05")


def test_an_import_into_another_store_keeps_the_exported_ids(mem: Memory, tmp_path) -> None:
    _chain(mem, "a")
    exported = list(mem.export(user_id="a"))
    ids = {r["id"]: r for r in exported if r["type"] == "memory"}
    renames: list[tuple[str, str]] = []
    with Memory(tmp_path / "other.db", embedder=FakeEmbedder()) as other:
        assert other.import_records(exported, user_id="a", renamed=lambda *p: renames.append(p))
        copied = {
            i.id: i for i in other.get_all(user_id="a", include_invalid=True) if i.kind != "episode"
        }
        assert set(copied) == set(ids) and renames == []
        for memory_id, record in ids.items():
            assert copied[memory_id].text == record["text"]
            assert copied[memory_id].superseded_by == record["superseded_by"]
            assert other.get(memory_id, user_id="a").id == memory_id
        turns = [r for r in exported if r["type"] == "episode"]
        for turn in turns:  # the turns keep theirs too, and the memories still cite them
            assert other.get(turn["episode_id"], user_id="a").text == turn["content"]
        cited = {s.episode_id for i in copied.values() for s in i.sources}
        assert cited and cited <= {t["episode_id"] for t in turns}


def test_ids_another_user_holds_are_renamed_and_reported(any_mem: Memory) -> None:
    mem = any_mem
    _chain(mem, "a")
    exported = list(mem.export(user_id="a"))
    mine = {r["id"] for r in exported if r["type"] == "memory"}
    turns = {r["episode_id"] for r in exported if r["type"] == "episode"}
    renames: dict[str, str] = {}
    mem.import_records(exported, user_id="b", renamed=renames.__setitem__)
    assert set(renames) == mine | turns  # every id is user a's: each got a new one, reported
    assert {mem.get(renames[t], user_id="b").kind for t in turns} == {"episode"}
    copied = {i.id: i for i in mem.get_all(user_id="b", include_invalid=True)}
    assert set(renames.values()) <= set(copied) and not mine & set(copied)
    old = next(i for i in copied.values() if "Hangzhou" in i.text)
    assert (
        old.superseded_by
        == renames[next(r["superseded_by"] for r in exported if r.get("superseded_by"))]
    )
    assert {i.id for i in mem.get_all(user_id="a", include_invalid=True)} >= mine  # a's unchanged
    again: dict[str, str] = {}
    assert mem.import_records(exported, user_id="b", renamed=again.__setitem__) == 0
    assert again == {}
