"""Browsing pages: turns oldest first with their memories, records newest first, a
record's detail, user counts, and API keys; cursors never skip or repeat a row."""

from __future__ import annotations

import pytest

from dualtrace import Memory
from dualtrace.errors import NotFoundError, ValidationError


def test_turn_pages_follow_the_conversation(
    mem: Memory, conversation: list[dict[str, str]]
) -> None:
    mem.add(conversation, user_id="alice", session_id="s1", timestamp="2026-03-02T19:10:00+08:00")
    mem.add("Another user's turn", user_id="bob")
    seen, cursor = [], None
    while True:
        page = mem.turns(user_id="alice", limit=3, cursor=cursor)
        seen += [t.episode.external_id for t in page.items]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == ["a1", "a2", "a3", "a4"]
    first = mem.turns(user_id="alice", limit=1).items[0]
    assert first.memory_ids and all(i.startswith("mem_") for i in first.memory_ids)
    assert mem.turns(user_id="alice", session_id="other").items == []
    with pytest.raises(ValidationError):
        mem.turns(user_id="alice", cursor="garbage")


def test_record_pages_equal_get_all(mem: Memory, conversation: list[dict[str, str]]) -> None:
    mem.add(conversation, user_id="alice")
    everything = [i.id for i in mem.get_all(user_id="alice")]
    seen, cursor = [], None
    while True:
        page = mem.get_page(user_id="alice", limit=2, cursor=cursor)
        seen += [i.id for i in page.items]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == everything


def test_detail_users_and_isolation(mem: Memory, conversation: list[dict[str, str]]) -> None:
    res = mem.add(conversation, user_id="alice")
    memory_id = next(m for m, _, text in res.events if "Hangzhou" in text)
    detail = mem.detail(memory_id, user_id="alice")
    assert detail.predicate and any(e["name"] == "Hangzhou" for e in detail.entities)
    assert detail.item.sources[0].external_id == "a1"
    assert mem.detail(res.episodes[0], user_id="alice").entities == []
    with pytest.raises(NotFoundError):
        mem.detail(memory_id, user_id="bob")
    mem.add("hello", user_id="bob")
    users = {u.user_id: u for u in mem.users()}
    assert users["alice"].turns == 4 and users["bob"].turns == 1
    assert [u.user_id for u in mem.users(["bob"])] == ["bob"]


def test_api_keys_are_verified_by_hash_and_revocable(mem: Memory) -> None:
    key, token = mem.api_keys.create(user_id="alice")
    admin, admin_token = mem.api_keys.create(user_id=None, admin=True)
    assert mem.api_keys.verify(token) == key and mem.api_keys.verify(admin_token) == admin
    assert mem.api_keys.verify(token + "x") is None and mem.api_keys.verify("nope") is None
    mem.api_keys.revoke(key.key_id)
    assert mem.api_keys.verify(token) is None and mem.api_keys.active()
    with pytest.raises(NotFoundError):
        mem.api_keys.revoke(key.key_id)
    with pytest.raises(ValidationError):
        mem.api_keys.create(user_id=None)
