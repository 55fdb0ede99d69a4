"""Short-term sessions: turns stored at once, budgeted context, rolling summary, end, resume."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dualtrace import ConfigError, Memory, MemoryConfig, Session, ValidationError
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.session import end_idle_sessions
from dualtrace.text.tokens import count_tokens

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)

_FILLER_EN = [
    "Can you compare the range of the two hatchbacks we looked at?",
    "The blue one charges faster, but the grey one has a bigger boot for the dog.",
    "I visited the showroom in Hangzhou and liked the test drive a lot.",
    "What about insurance costs for a new driver in the city?",
]
_FILLER_ZH = ["我们周末去试驾了那辆蓝色的车，感觉很不错。", "充电桩装在小区的地下车库可以吗？"]


def _chat(mem: Memory, turns: int, **kwargs: str) -> Session:
    """A session of `turns` varied turns (EN and ZH, user and assistant, short and long)."""
    chat = mem.session(user_id="u", **kwargs)
    fillers = [*_FILLER_EN, *_FILLER_ZH]
    for i in range(turns):
        role = "user" if i % 2 == 0 else "assistant"
        text = fillers[i % len(fillers)] + (" More detail here." * (i % 7))
        chat.add(role, f"[{i}] {text}", timestamp=T0 + timedelta(minutes=i))
    return chat


def test_turns_are_stored_at_once_and_extracted_at_end(mem: Memory) -> None:
    chat = mem.session(user_id="u", now=T0)
    ids = [
        chat.add("user", "I live in Hangzhou near the West Lake.", timestamp=T0),
        chat.add("assistant", "Hangzhou is lovely.", name="bot", id="m2"),
    ]
    assert [mem.get(i, user_id="u").text for i in ids] == [
        "I live in Hangzhou near the West Lake.",
        "Hangzhou is lovely.",
    ]
    assert chat.add("assistant", "Hangzhou is lovely.", id="m2") == ids[1]  # idempotent by id
    assert mem.get_all(user_id="u", kinds=["fact"]) == []  # extraction waits for end()
    done = chat.end()
    assert done.events and set(done.episodes) == set(ids)
    assert any("Hangzhou" in i.text for i in mem.get_all(user_id="u", kinds=["fact"]))
    assert chat.ended and chat.end().events == []  # a second end() does nothing
    with pytest.raises(ValidationError, match=rf"{chat.id}.*Memory\.session\(user_id='u'\)"):
        chat.add("user", "one more thing")


def test_context_never_exceeds_budget_and_keeps_whole_turns(mem: Memory) -> None:
    mem.add("My dog Biscuit loves the car boot.", user_id="u", timestamp=T0 - timedelta(days=9))
    chat = _chat(mem, 60)
    turns = mem.store.session_episodes("u", chat.id, -1)
    previous = 0
    for budget in range(200, 4001, 190):
        ctx = chat.context("which car suits the dog?", max_tokens=budget, reinforce=False)
        assert ctx.tokens == count_tokens(ctx.text) <= budget
        assert sum(ctx.sections.values()) <= budget
        assert ctx.turns == [t.id for t in turns[len(turns) - len(ctx.turns) :]]  # newest
        shown = {t.id: t for t in turns}
        assert all(f"{shown[i].speaker}: {shown[i].text}" in ctx.text for i in ctx.turns)
        assert len(ctx.turns) >= previous  # more room never shows fewer turns
        previous = len(ctx.turns)
    assert 0 < len(chat.context(max_tokens=400).turns) < len(turns) == previous
    assert "Biscuit" in chat.context("which car suits the dog?", max_tokens=4000).text


def test_tiny_budgets_stay_within_budget(mem: Memory) -> None:
    chat = _chat(mem, 8)
    for budget in (1, 5, 20, 60, 120):
        ctx = chat.context(max_tokens=budget)
        assert ctx.tokens == count_tokens(ctx.text) <= budget
    with pytest.raises(ValidationError, match="max_tokens"):
        chat.context(max_tokens=0)


def test_older_turns_fold_into_a_summary_where_the_newest_value_wins(mem: Memory) -> None:
    chat = mem.session(user_id="u")
    chat.add("user", "My budget is 300k.")
    chat.add("user", "I'm planning to buy an electric car before June.")
    chat.add("user", "Actually, I'd raise my budget to 350k.")
    chat.add("user", "Remind me to call the dealer on Friday.")
    chat.add("user", "OK, let's raise the budget to 400k.")
    for i in range(30):
        chat.add("assistant", f"Here is option {i}: " + "a long description " * 10)
    ctx = chat.context(max_tokens=600, reinforce=False)
    shown = "".join(mem.get(i, user_id="u").text for i in ctx.turns)
    assert ctx.turns and "400k" not in shown  # the budget turns were folded
    assert "The user — budget: 400k" in ctx.summary
    assert "400k" in ctx.text and "300k" not in ctx.text and "350k" not in ctx.text
    summary = "\n".join(chat.summary)
    assert "400k" in summary and "300k" not in summary and "350k" not in summary
    assert chat.goal is not None and "electric car" in chat.goal
    assert any("call the dealer" in t for t in chat.tasks)
    assert chat.profile == {("the user", "budget"): "400k"}


def test_chinese_summary_keeps_the_newest_value(mem: Memory) -> None:
    chat = mem.session(user_id="u")
    chat.add("user", "我的预算是30万。")
    chat.add("user", "预算从30万提到35万。")
    chat.add("user", "别忘了提醒我周五去4S店。")
    summary = chat.summary
    assert any("35万" in line for line in summary)
    assert not any("30万" in line for line in summary)
    assert any("4S店" in t for t in chat.tasks)


def test_the_session_value_beats_an_older_long_term_memory(mem: Memory) -> None:
    before = mem.session(user_id="u", now=T0)
    before.add("user", "My budget is 300k.", timestamp=T0)
    before.add("user", "I live in Hangzhou near the West Lake.", timestamp=T0)
    assert before.end().events
    control = mem.session(user_id="u")
    control.add("user", "What was my budget again?")
    assert "300k" in control.context(max_tokens=2000, reinforce=False).text

    chat = mem.session(user_id="u")
    chat.add("user", "Let's raise the budget to 400k.")
    chat.add("assistant", "Noted, 400k it is.")
    ctx = chat.context("what is my budget? where do I live?", max_tokens=2000)
    assert "400k" in ctx.text and "300k" not in ctx.text
    assert ctx.memories and "Hangzhou" in ctx.text  # other long-term memories stay


def test_session_context_maps_its_memory_labels_to_stored_turns(mem: Memory) -> None:
    """The memories section cites turns by short labels, and `references` says which stored
    turn each label is, as `Memory.context` does."""
    before = mem.session(user_id="u", now=T0)
    before.add("user", "My budget is 300k.", timestamp=T0)
    before.add("user", "I live in Hangzhou near the West Lake.", timestamp=T0)
    before.end()
    ctx = mem.session(user_id="u").context("where do I live?", max_tokens=2000)
    assert ctx.memories and ctx.references
    for hit in ctx.memories:
        assert hit.refs and all(
            f"[{label}" in ctx.text or f" {label}]" in ctx.text for label in hit.refs
        )
        assert [ctx.references[label] for label in hit.refs] == [
            s.episode_id for s in hit.sources[: len(hit.refs)]
        ]
    assert {mem.get(i, user_id="u").kind for i in ctx.references.values()} == {"episode"}


CHILD = """
import sys
from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder

mem = Memory(sys.argv[1], embedder=FakeEmbedder())
chat = mem.session(user_id="u", session_id="live")
i = 0
while True:
    turn_id = chat.add("user", f"I visited showroom {i} in Hangzhou and my budget is {i}00k.")
    print(turn_id, flush=True)
    i += 1
"""


def test_a_killed_process_loses_no_acknowledged_turn(db_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acked: list[str] = []
    try:
        while len(acked) < 5:
            line = child.stdout.readline()
            assert line, f"the child failed: {child.stderr.read() if child.stderr else ''}"
            acked.append(line.strip())
    finally:
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    acked += [line for line in rest.splitlines(keepends=True) if line.endswith("\n")]
    acked = [line.strip() for line in acked]

    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        stored = mem.store.get_episodes("u", acked)
        assert set(stored) == set(acked)  # every acknowledged turn survived
        chat = mem.session(user_id="u", session_id="live")
        last = max(e.seq for e in mem.store.session_episodes("u", "live", -1))
        new_id = chat.add("user", "I'm back. I live in Suzhou now.")
        assert mem.store.get_episodes("u", [new_id])[new_id].seq == last + 1
        assert chat.context(max_tokens=300).turns[-1] == new_id
        done = chat.end()
        assert done.events and new_id in done.episodes
        assert any("Suzhou" in i.text for i in mem.get_all(user_id="u", kinds=["fact"]))


def test_resume_by_id_rebuilds_buffer_and_summary(db_path: Path) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        chat = mem.session(user_id="u")
        chat.add("user", "My budget is 300k.")
        chat.add("user", "Let's raise the budget to 400k.")
        sid = chat.id
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        chat = mem.session(user_id="u", session_id=sid)
        assert chat.profile == {("the user", "budget"): "400k"}
        assert len(chat.context(max_tokens=500).turns) == 2
        assert not chat.ended


def test_idle_sessions_end_with_extraction(mem: Memory) -> None:
    idle = mem.session(user_id="u", now=T0)
    idle.add("user", "I adopted a puppy named Biscuit.", timestamp=T0)
    other = mem.session(user_id="v", now=T0)
    other.add("user", "I moved to Suzhou.", timestamp=T0 + timedelta(minutes=5))
    active = mem.session(user_id="u", now=T0)
    active.add("user", "I started learning the guitar.", timestamp=T0 + timedelta(minutes=40))

    ended = end_idle_sessions(mem, T0 + timedelta(minutes=45), 30)
    assert sorted(ended) == sorted([("u", idle.id), ("v", other.id)])
    assert idle.ended and other.ended and not active.ended
    assert any("Biscuit" in i.text for i in mem.get_all(user_id="u", kinds=["event", "fact"]))
    assert not any("guitar" in i.text for i in mem.get_all(user_id="u", kinds=["event", "fact"]))
    row = mem.store.get_session("u", idle.id)
    assert row is not None and row.state == {"end_reason": "idle"}
    assert end_idle_sessions(mem, T0 + timedelta(minutes=45), 30) == []
    assert end_idle_sessions(mem, T0 + timedelta(hours=2)) == [("u", active.id)]  # config's 30
    with pytest.raises(ValidationError, match="idle_minutes"):
        end_idle_sessions(mem, T0, 0)


def test_sessions_are_scoped_to_their_user(mem: Memory) -> None:
    alice = mem.session(user_id="alice", session_id="shared")
    alice.add("user", "My budget is 300k and I live in Hangzhou.")
    bob = mem.session(user_id="bob", session_id="shared")  # same id, another user
    assert bob.summary == [] and bob.context(max_tokens=1000).text == ""
    first = bob.add("user", "I live in Shenzhen.")
    assert mem.store.get_episodes("bob", [first])[first].seq == 0
    assert "Hangzhou" not in bob.context("where do I live?", max_tokens=1000).text
    assert "Shenzhen" not in alice.context("where do I live?", max_tokens=1000).text
    bob.end()
    assert bob.ended and not alice.ended
    assert mem.get_all(user_id="alice", kinds=["fact"]) == []  # bob's end touched only bob's
    assert mem.store.get_session("carol", "shared") is None


def test_session_rows_hold_no_text_and_deleted_turns_leave_the_summary(
    mem: Memory, db_path: Path
) -> None:
    chat = mem.session(user_id="u")
    secret = chat.add("user", "My budget is 987k.")
    chat.add("user", "I live in Hangzhou.")
    chat.end()
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT * FROM sessions").fetchall()
    assert rows and not any("987k" in str(v) or "Hangzhou" in str(v) for v in rows[0])
    mem.delete(secret, user_id="u")
    assert not any("987k" in line for line in chat.summary)


def test_delete_all_removes_session_rows(mem: Memory) -> None:
    chat = mem.session(user_id="u")
    chat.add("user", "I live in Hangzhou.")
    mem.session(user_id="v").add("user", "I live in Suzhou.")
    assert mem.store.count_records("u")["sessions"] == 1
    assert mem.delete_all(user_id="u")["sessions"] == 1
    assert mem.store.get_session("u", chat.id) is None
    assert mem.store.count_records("v")["sessions"] == 1


def test_bad_input_gives_clear_errors(mem: Memory) -> None:
    with pytest.raises(ValidationError, match="user_id"):
        mem.session(user_id="")
    with pytest.raises(ValidationError, match="session_id"):
        mem.session(user_id="u", session_id="  ")
    chat = mem.session(user_id="u")
    with pytest.raises(ValidationError, match="role='robot'"):
        chat.add("robot", "hello")
    with pytest.raises(ValidationError, match="content is empty"):
        chat.add("user", "   ")
    with pytest.raises(ValidationError, match="timestamp"):
        chat.add("user", "hello", timestamp="yesterday-ish")
    with pytest.raises(ValidationError, match=r"\.id="):
        chat.add("user", "hello", id="")
    assert mem.store.session_episodes("u", chat.id, -1) == []  # nothing half-stored


def test_session_shares_are_validated() -> None:
    with pytest.raises(ConfigError, match=r"session shares sum to 1\.33"):
        MemoryConfig(session_turns_share=0.93)
    with pytest.raises(ConfigError, match=r"session_memory_share=-0\.1"):
        MemoryConfig(session_memory_share=-0.1)
    with pytest.raises(ConfigError, match="session_idle_minutes"):
        MemoryConfig(session_idle_minutes=0)
    env = {"DUALTRACE_SESSION_TURNS_SHARE": "0.5", "DUALTRACE_SESSION_IDLE_MINUTES": "5"}
    cfg = MemoryConfig.from_env(env)
    assert (cfg.session_turns_share, cfg.session_idle_minutes) == (0.5, 5.0)


def test_end_extracts_long_sessions_in_batches(mem: Memory) -> None:
    chat = mem.session(user_id="u")
    for i in range(120):
        chat.add("user", f"I visited museum number {i} in Paris.")
    done = chat.end()
    assert len(done.episodes) == 120 and len(done.events) >= 120
    row = mem.store.get_session("u", chat.id)
    assert row is not None and row.extracted_seq == 119 and row.state["end_reason"] == "explicit"


def test_end_derives_nothing_when_extraction_is_off(db_path: Path) -> None:
    config = MemoryConfig(extract=False)
    with Memory(db_path, embedder=FakeEmbedder(), config=config) as mem:
        chat = mem.session(user_id="u")
        chat.add("user", "I live in Hangzhou near the West Lake.")
        assert chat.end().events == [] and chat.ended
        assert mem.get_all(user_id="u", kinds=["fact"]) == []
