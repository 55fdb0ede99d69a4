"""The public API contract, end to end on a real SQLite file and a real PostgreSQL server."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime
from pathlib import Path

import pytest

import dualtrace
from dualtrace import AddResult, Context, Hit, Item, Memory, NotFoundError
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.text.tokens import count_tokens


@pytest.fixture
def mem(any_mem: Memory) -> Memory:
    """This module's API runs on every backend (see conftest.any_mem)."""
    return any_mem


def test_signatures_match_the_contract() -> None:
    params = inspect.signature(Memory.__init__).parameters
    assert list(params)[:7] == ["self", "path", "url", "embedder", "llm", "config", "store"]
    add = inspect.signature(Memory.add).parameters
    assert list(add)[:7] == [
        "self",
        "messages",
        "user_id",
        "session_id",
        "timestamp",
        "agent_id",
        "metadata",
    ]
    for name in ("user_id", "session_id", "timestamp", "agent_id", "metadata"):
        assert add[name].kind is inspect.Parameter.KEYWORD_ONLY
    search = inspect.signature(Memory.search).parameters
    for name in ("user_id", "limit", "as_of", "now", "kinds", "session_id", "filters", "explain"):
        assert search[name].kind is inspect.Parameter.KEYWORD_ONLY
    ctx = inspect.signature(Memory.context).parameters
    for name in ("user_id", "session_id", "max_tokens", "now", "as_of"):
        assert ctx[name].kind is inspect.Parameter.KEYWORD_ONLY
    for method in ("get", "get_all", "update", "delete", "delete_all", "history", "close"):
        assert callable(getattr(Memory, method))
    assert issubclass(dualtrace.ValidationError, dualtrace.DualtraceError)


def test_add_search_context_get_round_trip(mem: Memory, conversation: list[dict[str, str]]) -> None:
    res = mem.add(
        conversation, user_id="alice", session_id="s1", timestamp="2026-03-02T10:00:00+08:00"
    )
    assert isinstance(res, AddResult)
    assert len(res.episodes) == 4
    assert res.events[0][1:] == ("ADD", "Alice lives in Hangzhou near the West Lake.")
    assert all(event[0].startswith("mem_") for event in res.events)

    hits = mem.search(
        "Where does Alice live?", user_id="alice", limit=3, explain=True, kinds=["episode"]
    )
    assert hits and isinstance(hits[0], Hit)
    top = hits[0]
    assert top.text == "I live in Hangzhou near the West Lake."
    assert top.kind == "episode" and top.session_id == "s1"
    assert top.sources[0].external_id == "a1" and top.sources[0].speaker == "Alice"
    assert top.sources[0].occurred_at == datetime(2026, 3, 2, 2, 0, tzinfo=UTC)
    assert {"dense", "lexical", "dense_raw", "lexical_raw"} <= set(top.scores)
    assert top.valid_from is not None and top.recorded_at is not None

    ctx = mem.context("car budget", user_id="alice", max_tokens=200)
    assert isinstance(ctx, Context)
    assert "300k yuan" in ctx.text and "Mon 2 March 2026" in ctx.text and "a3" in ctx.text
    assert ctx.tokens == count_tokens(ctx.text) <= 200
    assert all(isinstance(i, Hit) for i in ctx.items)

    item = mem.get(res.episodes[2], user_id="alice")
    assert isinstance(item, Item) and item.text.startswith("My budget")
    assert {i.id for i in mem.get_all(user_id="alice", kinds=["episode"])} == set(res.episodes)
    memory_ids = {e[0] for e in res.events}
    assert {i.id for i in mem.get_all(user_id="alice")} == set(res.episodes) | memory_ids


def test_local_date_survives_storage(mem: Memory) -> None:
    mem.add(
        "Late-night note about the Tokyo trip", user_id="u", timestamp="2026-03-02T01:30:00+08:00"
    )
    items = mem.get_all(user_id="u")
    assert {i.kind for i in items} == {"episode", "fact"}
    for item in items:  # the memory shows its time in the conversation's zone too
        assert item.occurred_at.isoformat() == "2026-03-02T01:30:00+08:00"
    ctx = mem.context("note", user_id="u")
    assert "Mon 2 March 2026" in ctx.text


def test_update_history_and_delete(mem: Memory) -> None:
    (eid,) = mem.add("I work at a bank.", user_id="u").episodes
    assert [i.text for i in mem.get_all(user_id="u", kinds=["fact"])] == [
        "The user works at a bank."
    ]
    updated = mem.update(eid, "I work at a hospital.", user_id="u")
    assert updated.text == "I work at a hospital."
    assert mem.search("hospital", user_id="u", limit=1, kinds=["episode"])[0].id == eid
    assert not [h for h in mem.search("bank", user_id="u") if "bank" in h.text]
    # what was derived from the old words is derived again from the new ones
    assert [i.text for i in mem.get_all(user_id="u", kinds=["fact"])] == [
        "The user works at a hospital."
    ]
    events = mem.history(eid, user_id="u")
    assert [e.event for e in events] == ["ADD", "UPDATE"]
    assert (
        events[1].old_text == "I work at a bank." and events[1].new_text == "I work at a hospital."
    )
    assert events[0].at <= events[1].at
    mem.delete(eid, user_id="u")
    with pytest.raises(NotFoundError):
        mem.get(eid, user_id="u")
    with pytest.raises(NotFoundError):
        mem.history(eid, user_id="u")
    assert mem.get_all(user_id="u") == []  # the memory it alone supported went with it


def test_filters_kinds_session_and_as_of(mem: Memory) -> None:
    mem.add(
        "Trip to Paris planned",
        user_id="u",
        session_id="s1",
        timestamp="2026-01-05T09:00:00Z",
        metadata={"topic": "travel"},
    )
    mem.add(
        "Trip to Rome planned",
        user_id="u",
        session_id="s2",
        timestamp="2026-02-05T09:00:00Z",
        metadata={"topic": "work"},
    )
    assert {h.text for h in mem.search("trip", user_id="u", session_id="s1")} == {
        "Trip to Paris planned"
    }
    assert {h.text for h in mem.search("trip", user_id="u", filters={"topic": "work"})} == {
        "Trip to Rome planned"
    }
    assert {h.text for h in mem.search("trip", user_id="u", as_of="2026-01-31T00:00:00Z")} == {
        "Trip to Paris planned"
    }
    work = mem.search("trip", user_id="u", filters={"topic": "work"})
    assert {h.kind for h in work} == {"episode", "fact"}  # memories inherit their turns' metadata
    facts = mem.search("trip", user_id="u", kinds=["fact"])
    assert {(h.kind, h.text) for h in facts} == {
        ("fact", "Trip to Paris planned"),
        ("fact", "Trip to Rome planned"),
    }
    assert len(mem.search("trip", user_id="u", kinds=["episode"])) == 2


def test_context_never_exceeds_budget(mem: Memory) -> None:
    for i in range(30):
        mem.add(f"Note {i}: the project deadline moved again, " + "details " * 40, user_id="u")
    for budget in (1, 20, 50, 120, 400, 1000):
        ctx = mem.context("project deadline", user_id="u", max_tokens=budget)
        assert ctx.tokens == count_tokens(ctx.text) <= budget
    assert mem.context("project deadline", user_id="u", max_tokens=120).items


def test_default_path_uses_dualtrace_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUALTRACE_HOME", str(tmp_path / "home"))
    with Memory(embedder=FakeEmbedder()) as memory:
        memory.add("hello there", user_id="u")
    assert (tmp_path / "home" / "memory.db").exists()


def test_url_opens_sqlite_file(tmp_path: Path) -> None:
    target = tmp_path / "via-url.db"
    with Memory(url=f"sqlite:///{target}", embedder=FakeEmbedder()) as memory:
        memory.add("hello there", user_id="u")
    assert target.exists()


def test_reopen_keeps_everything(db_path: Path, conversation: list[dict[str, str]]) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as memory:
        memory.add(conversation, user_id="alice")
    with Memory(db_path, embedder=FakeEmbedder()) as memory:
        assert len(memory.get_all(user_id="alice", kinds=["episode"])) == 4
        assert memory.search("West Lake", user_id="alice")[0].sources[0].external_id == "a1"


def test_a_rare_filter_value_still_finds_its_record(mem: Memory) -> None:
    mem.add(
        [{"content": f"project alpha budget note {i}", "metadata": {"p": "A"}} for i in range(200)]
        + [{"content": "project alpha budget final", "metadata": {"p": "B"}}],
        user_id="u",
        extract=False,
    )
    hits = mem.search("project alpha budgets", user_id="u", filters={"p": "B"})
    assert [h.text for h in hits] == ["project alpha budget final"]
