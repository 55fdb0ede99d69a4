"""BrowseStore: pages of turns and records in stable orders, per-user counts, a graph."""

from __future__ import annotations

from contract.rows import ACTOR, at, episode, memory
from dualtrace.store.ports.browse import BrowseStore
from dualtrace.store.ports.episode_writes import EpisodeWrites
from dualtrace.store.ports.memory_writes import MemoryWrites


class _Store(BrowseStore, EpisodeWrites, MemoryWrites):
    """The roles these tests use (the fixture's store has every role)."""


def _turns(store: _Store) -> None:
    store.insert_episodes(
        "u",
        [
            episode("u", "ep1", "first", minutes=0),
            episode("u", "ep2", "second", seq=1, minutes=1),
            episode("u", "ep3", "elsewhere", session_id="s2", minutes=2),
        ],
        [],
        ACTOR,
    )
    store.insert_episodes("v", [episode("v", "ev1", "not u's", minutes=0)], [], ACTOR)


def test_turn_pages_follow_conversation_order_and_stay_in_the_user(store: _Store) -> None:
    _turns(store)
    first = store.episode_page("u", None, None, 2)
    assert [e.id for e in first] == ["ep1", "ep2"]
    last = first[-1]
    after = (last.occurred_at, last.session_id or "", last.seq, last.id)
    assert [e.id for e in store.episode_page("u", None, after, 2)] == ["ep3"]
    assert [e.id for e in store.episode_page("u", "s2", None, 10)] == ["ep3"]
    assert [e.id for e in store.episode_page("v", None, None, 10)] == ["ev1"]


def test_counts_and_record_pages(store: _Store) -> None:
    _turns(store)
    m1 = memory("u", "m1", "The user likes tea.", recorded_at=at(1), source_episode_ids=("ep1",))
    m2 = memory(
        "u", "m2", "The user lives in Oslo.", recorded_at=at(2), source_episode_ids=("ep2",)
    )
    assert store.insert_memories("u", [m1, m2], [], ACTOR)
    summaries = {s.user_id: (s.turns, s.memories) for s in store.user_summaries(None)}
    assert summaries == {"u": (3, 2), "v": (1, 0)}
    assert [s.user_id for s in store.user_summaries(["v"])] == ["v"]
    assert store.derived_memory_ids("u", ["ep1", "ep3"]) == {"ep1": ["m1"]}  # none: absent
    page = store.record_page("u", ("fact",), False, 1, None)
    assert [rid for rid, _ in page] == ["m2"]  # newest first
    (last_id, last_time) = page[-1]
    rest = store.record_page("u", ("fact",), False, 5, (last_time, last_id))
    assert [rid for rid, _ in rest] == ["m1"]
    assert store.record_page("v", ("fact",), False, 5, None) == []
    entities, links = store.memory_graph("u", "m1")
    assert (entities, links) == ([], [])
