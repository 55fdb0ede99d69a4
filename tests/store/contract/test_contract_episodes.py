"""EpisodeStore: turns stored as said, looked up by id or external id, numbered per session."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta, timezone

from contract.rows import ACTOR, at, episode, key, memory
from dualtrace.store.base import Store


def test_inserted_episodes_come_back_exactly(store: Store) -> None:
    local = timezone(timedelta(hours=8))
    said = replace(
        episode("u", "ep1", "我住在杭州", external_id="x1", metadata={"lang": "zh", "n": 1}),
        occurred_at=at(0).astimezone(local),
        agent_id="agent",
        speaker="Li",
    )
    stored = store.insert_episodes("u", [said], [key("ep1", "我住在杭州")], ACTOR)
    assert stored == [said]
    got = store.get_episodes("u", ["ep1", "missing"])
    assert got == {"ep1": said}
    assert got["ep1"].occurred_at.utcoffset() == timedelta(hours=8)  # local time kept


def test_external_ids_and_episode_ids_map_to_stored_episodes(store: Store) -> None:
    store.insert_episodes(
        "u",
        [episode("u", "ep1", "a", external_id="x1"), episode("u", "ep2", "b", seq=1)],
        [],
        ACTOR,
    )
    found = store.episode_ids_by_external("u", ["x1", "ep2", "x-new"])
    assert found == {"x1": "ep1", "ep2": "ep2"}  # what is new is absent: add only that
    assert store.episode_ids_by_external("u", []) == {}


def test_many_ids_are_looked_up_at_once(store: Store) -> None:
    turns = [episode("u", f"ep{i}", f"turn {i}", seq=i, external_id=f"x{i}") for i in range(1200)]
    store.insert_episodes("u", turns, [], ACTOR)
    externals = [f"x{i}" for i in range(1200)]
    assert len(store.episode_ids_by_external("u", externals)) == 1200
    assert len(store.get_episodes("u", [t.id for t in turns])) == 1200


def test_next_seq_counts_turns_per_session(store: Store) -> None:
    assert store.next_seq("u", "s1") == 0
    store.insert_episodes(
        "u", [episode("u", "ep1", "a"), episode("u", "ep2", "b", seq=1)], [], ACTOR
    )
    assert store.next_seq("u", "s1") == 2
    assert store.next_seq("u", "s2") == 0
    assert store.next_seq("u", None) == 0
    store.insert_episodes("u", [episode("u", "ep3", "c", session_id=None)], [], ACTOR)
    assert store.next_seq("u", None) == 1


def test_a_stale_seq_moves_after_the_sessions_last_turn(store: Store) -> None:
    store.insert_episodes(
        "u", [episode("u", "ep1", "a"), episode("u", "ep2", "b", seq=1)], [], ACTOR
    )
    late = [episode("u", "ep3", "c", seq=0), episode("u", "ep4", "d", seq=1)]
    stored = store.insert_episodes("u", late, [], ACTOR)
    assert [e.seq for e in stored] == [2, 3]
    assert [e.seq for e in store.get_episodes("u", ["ep3", "ep4"]).values()] == [2, 3]


def test_iter_episodes_walks_in_time_order(store: Store) -> None:
    store.insert_episodes("u", [episode("u", "late", "b", minutes=5)], [], ACTOR)
    store.insert_episodes(
        "u",
        [
            episode("u", "early", "a", session_id="s2"),
            episode("u", "same", "c", session_id="s2", seq=1),
        ],
        [],
        ACTOR,
    )
    assert [e.id for e in store.iter_episodes("u")] == ["early", "same", "late"]


def test_recent_episodes_are_the_turns_just_before(store: Store) -> None:
    turns = [episode("u", f"ep{i}", f"turn {i}", seq=i, minutes=i) for i in range(5)]
    store.insert_episodes("u", turns, [], ACTOR)
    assert [e.id for e in store.recent_episodes("u", "s1", 4, 2)] == ["ep2", "ep3"]
    assert [e.id for e in store.recent_episodes("u", "s1", 100, 10)] == [t.id for t in turns]
    assert store.recent_episodes("u", "s1", 0, 5) == []
    assert store.recent_episodes("u", "other", 5, 5) == []


def test_next_episode_is_the_following_turn_of_the_session(store: Store) -> None:
    store.insert_episodes(
        "u",
        [
            episode("u", "ep1", "q"),
            episode("u", "ep2", "a", seq=1, role="assistant"),
            episode("u", "other", "x", session_id="s2", seq=2),
        ],
        [],
        ACTOR,
    )
    following = store.next_episode("u", "ep1")
    assert following is not None and following.id == "ep2"
    assert store.next_episode("u", "ep2") is None  # the session's last turn
    assert store.next_episode("u", "missing") is None


def test_pending_turns_are_marked_with_them_and_cleared_with_their_memories(
    store: Store,
) -> None:
    store.insert_episodes(
        "u",
        [episode("u", "e1", "one"), episode("u", "e2", "two", seq=1, minutes=1)],
        [],
        ACTOR,
        pending=True,
    )
    store.insert_episodes("u", [episode("u", "e3", "three", seq=2, minutes=2)], [], ACTOR)
    store.insert_episodes("v", [episode("v", "f1", "other")], [], ACTOR, pending=True)
    assert store.pending_users() == ["u", "v"]
    assert [e.id for e in store.pending_episodes("u")] == ["e1", "e2"]
    assert [e.id for e in store.pending_episodes("u", ["e2", "e3", "f1"])] == ["e2"]
    m = memory("u", "m1", "said one", source_episode_ids=("e1",))
    assert store.insert_memories("u", [m], [], ACTOR, extracted=["e1", "e2"]) is True
    assert store.pending_episodes("u") == []
    # a second extraction of the same turns stores nothing: it was done
    again = memory("u", "m2", "said one", source_episode_ids=("e1",))
    assert store.insert_memories("u", [again], [], ACTOR, extracted=["e1"]) is False
    assert store.get_memories("u", ["m1", "m2"]).keys() == {"m1"}
    assert store.pending_users() == ["v"]
