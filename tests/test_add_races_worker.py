"""A synchronous `add` reports the events of its own turns even when a background
`finish_pending` (the service's worker) runs while it is under way: the worker leaves that
user for its next round instead of deriving the turns the add just stored."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from dualtrace import Memory


def _worker_runs_after_the_turns_are_stored(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> list[int]:
    """Make each `add` run `finish_pending()` on another thread right after its turns are
    stored (marked pending), before it extracts them: the window the race needs."""
    finished: list[int] = []
    record = mem._recorder.record

    def record_then_worker(*args: Any, **kwargs: Any) -> Any:
        stored = record(*args, **kwargs)
        worker = threading.Thread(target=lambda: finished.append(mem.finish_pending()))
        worker.start()
        worker.join(30)
        return stored

    monkeypatch.setattr(mem._recorder, "record", record_then_worker)
    return finished


def test_a_sync_add_reports_its_events_while_the_worker_runs(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    finished = _worker_runs_after_the_turns_are_stored(mem, monkeypatch)
    res = mem.add("I live in Hangzhou and I work at Alibaba.", user_id="alice")
    assert finished == [0]  # the worker left alice's add alone
    assert res.events, "the add's own memories were derived, so it reports them"
    memories = [i for i in mem.get_all(user_id="alice") if i.kind != "episode"]
    assert sorted(mid for mid, kind, _ in res.events if kind == "ADD") == sorted(
        m.id for m in memories
    )
    assert mem.pending_users() == []


def test_the_worker_still_finishes_other_users_meanwhile(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem.add("My daughter Ana started violin lessons.", user_id="bob", defer=True)
    finished = _worker_runs_after_the_turns_are_stored(mem, monkeypatch)
    res = mem.add("I live in Hangzhou and I work at Alibaba.", user_id="alice")
    assert finished == [1] and res.events  # bob's deferred turn, not alice's
    assert mem.pending_users() == []
