"""One read: `Memory.context` and `Session.context` read the question once, share one read
function (search → replies → pack → reinforce) and count as recalled only what they packed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from question_count import count_questions

import dualtrace.recall.start
import dualtrace.session.session
from dualtrace import Memory
from dualtrace.recall import read as read_module

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
# a question about a slot of the user's: search, current truth, ranking and packing all read it
ASKED = "Which city do I live in now?"


def _moves(mem: Memory) -> None:
    mem.add("I live in Hangzhou near the West Lake.", user_id="u", timestamp=T0)
    mem.add("We moved: I live in Shanghai now.", user_id="u", timestamp=T0 + timedelta(days=30))
    mem.add("My sister lives in Beijing.", user_id="u", timestamp=T0 + timedelta(days=31))


def test_context_reads_the_question_once(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    _moves(mem)
    built = count_questions(monkeypatch)
    ctx = mem.context(ASKED, user_id="u", now=T0 + timedelta(days=40), reinforce=False)
    assert "Shanghai" in ctx.text
    assert built == [ASKED]
    built.clear()
    mem.context(ASKED, user_id="u", as_of=T0 + timedelta(days=1), reinforce=False)
    assert built == [ASKED]


def test_session_context_reads_the_question_once(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    _moves(mem)
    chat = mem.session(user_id="u", now=T0 + timedelta(days=40))
    chat.add("user", "Any good tea houses near me?", timestamp=T0 + timedelta(days=40))
    built = count_questions(monkeypatch)
    ctx = chat.context(ASKED, max_tokens=1000, reinforce=False)
    assert any("Shanghai" in m.text for m in ctx.memories)
    assert built == [ASKED]
    built.clear()
    chat.context(max_tokens=1000, reinforce=False)  # the last user turn is the question
    assert built == ["Any good tea houses near me?"]


def test_memory_and_session_context_call_the_one_read(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    _moves(mem)
    calls: list[tuple[str, int]] = []
    real = read_module.read

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args[1], kwargs["max_tokens"]))
        return real(*args, **kwargs)

    # Memory.context reads through recall/start.py (which leads a new conversation with
    # the profile); Session.context calls the read itself
    assert dualtrace.recall.start.read is real and dualtrace.session.session.read is real
    monkeypatch.setattr(dualtrace.recall.start, "read", spy)
    monkeypatch.setattr(dualtrace.session.session, "read", spy)
    mem.context(ASKED, user_id="u", max_tokens=800, reinforce=False)
    chat = mem.session(user_id="u")
    # two turns in: past the session start, whose profile takes the share of its own
    chat.add("user", "I'm planning a weekend trip.")
    chat.add("assistant", "Nice, where to?")
    chat.context(ASKED, max_tokens=1000, reinforce=False)
    share = mem.config.session_memory_share
    assert calls == [(ASKED, 800), (ASKED, int(1000 * share))]


def _access(mem: Memory) -> dict[str, int]:
    ids = [i.id for i in mem.get_all(user_id="u") if i.kind != "episode"]
    return {i: m.access_count for i, m in mem.store.get_memories("u", ids).items()}


@pytest.mark.parametrize("where", ["memory", "session"])
def test_only_what_was_packed_counts_as_recalled(mem: Memory, where: str) -> None:
    for i in range(30):  # many memories share the question's words; few fit in 120 tokens
        text = f"I visited museum number {i} in Paris with my friend Anna {i}."
        mem.add(text, user_id="u", timestamp=T0 + timedelta(days=i))
    before = _access(mem)
    if where == "memory":
        packed = mem.context("museum Paris", user_id="u", max_tokens=120).items
    else:
        chat = mem.session(user_id="u")
        share = mem.config.session_memory_share
        packed = chat.context("museum Paris", max_tokens=int(120 / share)).memories
    shown = {h.id for h in packed if h.kind != "episode"}
    after = _access(mem)
    assert shown and len(shown) < len(before)
    assert {i for i in after if after[i] > before[i]} == shown
    assert all(after[i] == before[i] + 1 for i in shown)
