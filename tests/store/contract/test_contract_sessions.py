"""SessionStore: bookkeeping rows of short-term sessions, and the turns said in them."""

from __future__ import annotations

from contract.rows import ACTOR, at, episode
from dualtrace.store.base import Store


def test_touch_creates_then_moves_activity_forward_only(store: Store) -> None:
    assert store.get_session("u", "s1") is None
    store.touch_session("u", "s1", at(0))
    store.touch_session("u", "s1", at(10))
    store.touch_session("u", "s1", at(5))  # late news never moves activity back
    row = store.get_session("u", "s1")
    assert row is not None
    assert (row.user_id, row.session_id) == ("u", "s1")
    assert (row.started_at, row.last_active_at, row.ended_at) == (at(0), at(10), None)
    assert row.extracted_seq == -1


def test_extraction_mark_never_moves_back(store: Store) -> None:
    store.touch_session("u", "s1", at(0))
    store.set_session_extracted("u", "s1", 4)
    store.set_session_extracted("u", "s1", 2)
    row = store.get_session("u", "s1")
    assert row is not None and row.extracted_seq == 4
    store.set_session_extracted("u", "unknown", 3)  # no row: nothing to mark
    assert store.get_session("u", "unknown") is None


def test_a_session_ends_once(store: Store) -> None:
    store.touch_session("u", "s1", at(0))
    assert store.end_session("u", "s1", at(30), "idle") is True
    assert store.end_session("u", "s1", at(40), "explicit") is False
    assert store.end_session("u", "unknown", at(40), "explicit") is False
    row = store.get_session("u", "s1")
    assert row is not None and row.ended_at == at(30)
    assert row.state.get("end_reason") == "idle"


def test_idle_sessions_are_open_ones_of_every_user_gone_quiet(store: Store) -> None:
    store.touch_session("u", "old", at(0))
    store.touch_session("v", "old", at(1))
    store.touch_session("u", "fresh", at(50))
    store.touch_session("u", "ended", at(0))
    store.end_session("u", "ended", at(2), "explicit")
    assert store.idle_sessions(at(10)) == [("u", "old"), ("v", "old")]
    assert store.idle_sessions(at(0)) == []


def test_session_turns_after_a_seq_and_sessions_with_a_role(store: Store) -> None:
    store.insert_episodes(
        "u",
        [
            episode("u", "ep1", "q"),
            episode("u", "ep2", "a", seq=1, role="assistant"),
            episode("u", "ep3", "q2", seq=2),
            episode("u", "ep4", "x", session_id="s2"),
        ],
        [],
        ACTOR,
    )
    assert [e.id for e in store.session_episodes("u", "s1", 0)] == ["ep2", "ep3"]
    assert [e.id for e in store.session_episodes("u", "s1", -1)] == ["ep1", "ep2", "ep3"]
    assert store.session_episodes("u", "s1", 2) == []
    assert store.sessions_with_role("u", ["s1", "s2", "s9"], "assistant") == {"s1"}
    assert store.sessions_with_role("u", ["s1", "s2"], "user") == {"s1", "s2"}
    assert store.sessions_with_role("u", [], "user") == set()
