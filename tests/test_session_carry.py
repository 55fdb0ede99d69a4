"""What a session carries to the next: `Session.end` stores the active goal, the pending
tasks and the summary; a later session's turn that says one is done or dropped closes it
(superseded at that turn's time); `Memory.profile` lists the open ones and the last summary."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from dualtrace import Memory
from dualtrace.models import MemoryRecord
from dualtrace.recall.profile import gather
from dualtrace.store.ports.memory_reads import MemoryReads
from dualtrace.text.tasks import closes

JAN, FEB = "2025-01-05T10:0{}:00Z", "2025-02-05T10:0{}:00Z"


def _first_session(mem: Memory) -> None:
    chat = mem.session(user_id="u")
    chat.add("user", "我打算学日语。", timestamp=JAN.format(0))
    chat.add("user", "Remind me to book the flights to Tokyo.", timestamp=JAN.format(1))
    chat.add("user", "记得订酒店。", timestamp=JAN.format(2))
    chat.end(now=JAN.format(9))


def test_a_goal_opened_in_one_session_is_closed_in_a_later_one(any_mem: Memory) -> None:
    _first_session(any_mem)
    before = any_mem.profile("u")
    assert [g.text for g in before.goals] == ["用户打算学日语。"]
    assert [t.text for t in before.tasks] == [
        "Remind me to book the flights to Tokyo.",
        "记得订酒店。",
    ]
    assert "## Open goals and tasks" in before.text and "## Last session" in before.text
    assert before.summary is not None and "Goal: 用户打算学日语。" in before.summary
    later = any_mem.session(user_id="u")
    later.add("user", "日语不学了，太忙。", timestamp=FEB.format(0))
    later.add("user", "I booked the flights yesterday.", timestamp=FEB.format(1))
    later.end(now=FEB.format(9))
    after = any_mem.profile("u")
    assert after.goals == []
    assert [t.text for t in after.tasks] == ["记得订酒店。"]  # not said to be done: still open
    assert "学日语" not in after.text.split("## Last session")[0]
    # closed like a supersession: the past still shows it, and its history says by what
    then = any_mem.profile("u", as_of="2025-01-20T00:00:00Z")
    goal = then.goals[0]
    assert goal.until is not None and goal.until.isoformat().startswith("2025-02-05T10:00")
    entries = any_mem.history(goal.memory_id, user_id="u")
    assert [e.event for e in entries] == ["ADD", "SUPERSEDE"]
    assert entries[-1].new_text == "日语不学了，太忙。"


def test_a_task_dropped_in_chinese_is_closed(mem: Memory) -> None:
    _first_session(mem)
    later = mem.session(user_id="u")
    later.add("user", "不用订酒店了，我住朋友家。", timestamp=FEB.format(0))
    later.end(now=FEB.format(9))
    assert [t.text for t in mem.profile("u").tasks] == ["Remind me to book the flights to Tokyo."]


def test_a_task_done_within_its_own_session_is_not_carried(mem: Memory) -> None:
    chat = mem.session(user_id="u")
    chat.add("user", "Remind me to renew my passport.", timestamp=JAN.format(0))
    chat.add("user", "OK, I renewed my passport online.", timestamp=JAN.format(1))
    chat.end(now=JAN.format(9))
    assert mem.profile("u").tasks == []


def test_ending_twice_stores_nothing_twice(mem: Memory) -> None:
    chat = mem.session(user_id="u")
    chat.add("user", "Remind me to call the bank.", timestamp=JAN.format(0))
    chat.end(now=JAN.format(9))
    chat.end(now=JAN.format(9))
    assert [t.text for t in mem.profile("u").tasks] == ["Remind me to call the bank."]


def test_closing_needs_the_tasks_words_and_a_closing_cue() -> None:
    task = "Remind me to book the flights to Tokyo."
    assert closes(task, "I booked the flights.") == "done"
    assert closes(task, "No need to book flights, we drive.") == "dropped"
    assert closes(task, "I haven't booked the flights yet.") is None  # not done
    assert closes(task, "Should I book the flights?") is None  # a question
    assert closes(task, "I booked a table for dinner.") is None  # another thing
    assert closes("记得订酒店。", "酒店订好了。") == "done"
    assert closes("记得订酒店。", "不用订酒店了。") == "dropped"
    assert closes("记得订酒店。", "酒店还没订。") is None
    assert closes("The user plans to learn Spanish.", "I gave up on learning Spanish.") == "dropped"


def test_open_goals_and_tasks_are_searchable_and_the_summary_is_not(mem: Memory) -> None:
    _first_session(mem)
    kinds = {h.kind for h in mem.search("book the flights to Tokyo", user_id="u", limit=50)}
    assert "task" in kinds and "summary" not in kinds


def test_each_sessions_summary_supersedes_the_one_before(mem: Memory) -> None:
    for month, city in (("01", "Oslo"), ("02", "Bergen"), ("03", "Tromsø")):
        chat = mem.session(user_id="u")
        chat.add("user", f"I live in {city}.", timestamp=f"2025-{month}-05T10:00:00Z")
        chat.end(now=f"2025-{month}-05T11:00:00Z")
    valid = mem.get_all(user_id="u", kinds=["summary"])
    assert len(valid) == 1 and "Tromsø" in valid[0].text
    assert "Tromsø" in (mem.profile("u").summary or "")
    then = mem.profile("u", as_of="2025-02-20T00:00:00Z")
    assert then.summary is not None and "Bergen" in then.summary and "Tromsø" not in then.summary
    every = mem.get_all(user_id="u", kinds=["summary"], include_invalid=True)
    assert len(every) == 3
    assert [e.event for e in mem.history(every[-1].id, user_id="u")] == ["ADD", "SUPERSEDE"]


class _Recording:
    """The store's memory reads, keeping every memory they return."""

    def __init__(self, store: MemoryReads) -> None:
        self.store, self.read = store, list[MemoryRecord]()

    def memories_by_predicate(self, *args: Any, **kwargs: Any) -> list[MemoryRecord]:
        found = self.store.memories_by_predicate(*args, **kwargs)
        self.read += found
        return found


def test_the_profile_reads_no_closing_of_a_task_done(any_mem: Memory) -> None:
    """A closing stays valid for good (one per task ever done): the picture shows the task
    closed without reading it, now, in the past and with the history."""
    _first_session(any_mem)
    later = any_mem.session(user_id="u")
    later.add("user", "Booked the Tokyo flights this morning.", timestamp=FEB.format(0))
    later.end(now=FEB.format(9))
    done = [
        m for m in any_mem.get_all(user_id="u", kinds=["task"]) if m.metadata["status"] != "open"
    ]
    assert [m.text for m in done] == ["Booked the Tokyo flights this morning."]  # and valid
    for as_of, open_tasks in ((None, 1), (datetime(2025, 1, 20, tzinfo=UTC), 2)):
        for history in (False, True):
            reads = _Recording(any_mem.store)
            picture = gather(reads, "u", as_of=as_of, history=history)  # type: ignore[arg-type]
            assert len(picture.tasks) == open_tasks
            assert all(m.metadata.get("status") != "done" for m in reads.read)
    assert [t.text for t in any_mem.profile("u").tasks] == ["记得订酒店。"]
