"""Isolation: for every public operation, user B never sees, changes or deletes A's data."""

from __future__ import annotations

import pytest

from dualtrace import Memory, NotFoundError


@pytest.fixture
def mem(any_mem: Memory) -> Memory:
    """This module's API runs on every backend (see conftest.any_mem)."""
    return any_mem


@pytest.fixture
def two_users(mem: Memory, conversation: list[dict[str, str]]) -> tuple[list[str], list[str]]:
    """Every id (episodes and derived memories) of Alice, then of Bob."""
    res_a = mem.add(conversation, user_id="alice", session_id="s1")
    res_b = mem.add(
        [{"id": "a1", "name": "Bob", "content": "I live in Shenzhen and I like hiking."}],
        user_id="bob",
        session_id="s1",
    )
    assert res_a.events and res_b.events
    a = res_a.episodes + [e[0] for e in res_a.events]
    b = res_b.episodes + [e[0] for e in res_b.events]
    return a, b


def test_same_external_id_in_two_users_is_two_episodes(
    two_users: tuple[list[str], list[str]],
) -> None:
    a, b = two_users
    assert a[0] != b[0]


def test_search_and_context_stay_in_scope(
    mem: Memory, two_users: tuple[list[str], list[str]]
) -> None:
    a, _ = two_users
    for query in ("Hangzhou West Lake", "car budget", "白色的车", "Shenzhen hiking"):
        assert {h.id for h in mem.search(query, user_id="bob")} <= set(two_users[1])
        assert {h.id for h in mem.search(query, user_id="alice")} <= set(a)
        assert "Hangzhou" not in mem.context(query, user_id="bob").text
    assert mem.search("Hangzhou", user_id="nobody") == []


def test_reads_of_other_users_ids_are_not_found(
    mem: Memory, two_users: tuple[list[str], list[str]]
) -> None:
    a, _ = two_users
    with pytest.raises(NotFoundError):
        mem.get(a[0], user_id="bob")
    with pytest.raises(NotFoundError):
        mem.history(a[0], user_id="bob")
    assert {i.id for i in mem.get_all(user_id="bob")} == set(two_users[1])
    assert all(
        "Hangzhou" not in str(r.get("content") or r.get("text")) for r in mem.export(user_id="bob")
    )


def test_writes_to_other_users_ids_fail_and_change_nothing(
    mem: Memory, two_users: tuple[list[str], list[str]]
) -> None:
    a, _ = two_users
    before = mem.get(a[0], user_id="alice").text
    with pytest.raises(NotFoundError):
        mem.update(a[0], "hacked", user_id="bob")
    with pytest.raises(NotFoundError):
        mem.delete(a[0], user_id="bob")
    assert mem.get(a[0], user_id="alice").text == before
    assert [e.event for e in mem.history(a[0], user_id="alice")] == ["ADD"]


def test_re_adding_an_id_of_another_user_does_not_touch_theirs(
    mem: Memory, two_users: tuple[list[str], list[str]]
) -> None:
    a, _ = two_users
    res = mem.add([{"id": "a2", "content": "Bob's own turn"}], user_id="bob")
    assert res.episodes[0] not in a
    assert mem.get(a[1], user_id="alice").text == "Hangzhou is lovely in spring."


def test_delete_all_removes_only_that_user(
    mem: Memory, two_users: tuple[list[str], list[str]]
) -> None:
    mem.delete_all(user_id="bob")
    assert mem.get_all(user_id="bob") == []
    assert {i.id for i in mem.get_all(user_id="alice")} == set(two_users[0])
    assert mem.search("West Lake", user_id="alice")[0].id in two_users[0]
    counts = mem.store.count_records("alice")  # type: ignore[attr-defined]
    assert counts["entities"] and counts["memory_entities"] and counts["memories"]


def test_import_into_one_user_leaves_the_other(
    mem: Memory, two_users: tuple[list[str], list[str]]
) -> None:
    exported = list(mem.export(user_id="alice"))
    assert mem.import_records(exported, user_id="carol") == len(exported)
    assert len(mem.get_all(user_id="carol")) == len(two_users[0])
    assert {i.id for i in mem.get_all(user_id="bob")} == set(two_users[1])
    assert mem.import_records(exported, user_id="carol") == 0


def test_another_process_sees_a_recreated_user(db_path: object) -> None:
    from dualtrace.embed.fake import FakeEmbedder

    with (
        Memory(db_path, embedder=FakeEmbedder()) as a,  # type: ignore[arg-type]
        Memory(db_path, embedder=FakeEmbedder()) as b,  # type: ignore[arg-type]
    ):
        a.add("first note about tulips", user_id="u", extract=False)
        assert a.search("tulips", user_id="u")
        b.delete_all(user_id="u")
        b.add("second note about roses", user_id="u", extract=False)
        hits = a.search("roses", user_id="u", explain=True)
        assert [h.text for h in hits] == ["second note about roses"]
        assert "dense" in hits[0].scores and hits[0].scores["dense"] > 0


def test_profile_stays_in_scope(mem: Memory, two_users: tuple[list[str], list[str]]) -> None:
    a, b = two_users
    for user, own in (("alice", a), ("bob", b)):
        profile = mem.profile(user, history=True)
        assert profile.values
        assert {v.memory_id for v in profile.values} <= set(own)
        assert set(profile.references.values()) <= set(own)
    assert "Hangzhou" not in mem.profile("bob").text
    assert mem.profile("nobody").values == []
