"""The read path: temporal channel, bounded recency from `now`, reinforcement, validity."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dualtrace import ConfigError, Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.base import SearchScope


def _importance(mem: Memory, memory_id: str) -> tuple[float, int]:
    memory = mem.store.get_memories("u", [memory_id])[memory_id]
    return memory.importance, memory.access_count


def test_reads_reinforce_only_when_asked(mem: Memory) -> None:
    ((mid, _, _),) = mem.add("I adopted a puppy named Biscuit.", user_id="u").events
    before = _importance(mem, mid)
    mem.search("puppy Biscuit", user_id="u", reinforce=False)
    mem.context("puppy Biscuit", user_id="u", reinforce=False)
    assert _importance(mem, mid) == before
    mem.search("puppy Biscuit", user_id="u")
    first = _importance(mem, mid)
    mem.search("puppy Biscuit", user_id="u")
    second = _importance(mem, mid)
    assert first[1] == before[1] + 1 and second[1] == before[1] + 2
    assert before[0] < first[0] < second[0] <= 1.0
    assert second[0] - first[0] < first[0] - before[0]  # damped by 1/sqrt(1 + count)


def test_importance_does_not_inflate(mem: Memory) -> None:
    mem.add([f"I visited museum number {i} in Paris." for i in range(12)], user_id="u")
    for _ in range(60):
        mem.search("museum Paris", user_id="u")
    values = [
        m.importance
        for m in mem.store.get_memories(
            "u", [i.id for i in mem.get_all(user_id="u", kinds=["event", "fact"])]
        ).values()
    ]
    assert sum(values) / len(values) <= 0.7 + 1e-9


def test_temporal_channel_finds_what_happened_in_the_window(mem: Memory) -> None:
    mem.add("We had the quarterly review.", user_id="u", timestamp="2024-03-05T10:00:00Z")
    mem.add("Lunch with the team was nice.", user_id="u", timestamp="2024-03-20T10:00:00Z")
    hits = mem.search(
        "what happened last week?",
        user_id="u",
        now="2024-03-13T09:00:00Z",
        explain=True,
        kinds=["episode"],
    )
    assert hits[0].text == "We had the quarterly review."
    assert hits[0].scores["time"] == 1.0 and "time" not in hits[1].scores


def test_a_busy_window_still_marks_what_the_other_channels_found(mem: Memory) -> None:
    # 200 later turns that same Saturday: more than the time channel lists by itself
    mem.add(
        "We went to the music event with my parents.", user_id="u", timestamp="2023-04-15T03:11:00Z"
    )
    mem.add(
        "A music event in the park is on next month.", user_id="u", timestamp="2023-04-01T10:00:00Z"
    )
    mem.add(
        [f"Chat number {i} about the weather." for i in range(200)],
        user_id="u",
        timestamp="2023-04-15T10:00:00Z",
    )
    hits = mem.search(
        "Who did I go with to the music event last Saturday?",
        user_id="u",
        now="2023-04-22T08:01:00Z",
        explain=True,
        kinds=["episode"],
        reinforce=False,
    )
    went = next(h for h in hits if "parents" in h.text)
    assert went.scores["time"] == 1.0 and hits.index(went) < 2
    assert "time" not in next(h for h in hits if "park" in h.text).scores
    # another user's ids are nothing to this user's time channel
    day = (datetime(2023, 4, 15, tzinfo=UTC), datetime(2023, 4, 16, tzinfo=UTC))
    scope = SearchScope(kinds=("episode",))
    assert mem.store.search_time("v", *day, 10, scope, [went.id]) == []
    assert mem.store.search_time("u", *day, 10, scope, [went.id])[0].record_id == went.id


def test_recency_is_measured_from_the_question_date(mem: Memory) -> None:
    mem.add("The meeting room is B2.", user_id="u", timestamp="2023-01-01T09:00:00Z")
    mem.add("The meeting room is B2.", user_id="u", timestamp="2023-06-01T09:00:00Z")
    hits = mem.search(
        "meeting room", user_id="u", now="2023-06-02T00:00:00Z", explain=True, kinds=["episode"]
    )
    boost = {h.occurred_at.month: h.scores["recency_boost"] for h in hits}
    assert 0.9 <= boost[1] < boost[6] <= 1.1
    later = mem.search(
        "meeting room", user_id="u", now="2025-06-02T00:00:00Z", explain=True, kinds=["episode"]
    )
    assert all(h.scores["recency_boost"] < boost[1] for h in later)  # from `now`, not today


def test_expired_and_invalidated_memories_are_not_returned(mem: Memory) -> None:
    ((mid, _, _),) = mem.add(
        "I am staying at the Hilton this week.", user_id="u", timestamp="2024-03-12T10:00:00Z"
    ).events
    assert mem.get(mid, user_id="u").kind == "event"
    in_week = mem.search("Hilton", user_id="u", now="2024-03-14T00:00:00Z", kinds=["event"])
    assert [h.id for h in in_week] == [mid]
    assert mem.search("Hilton", user_id="u", now="2025-01-01T00:00:00Z", kinds=["event"]) == []
    mem.import_records(
        [
            {
                "type": "memory",
                "id": "old",
                "kind": "fact",
                "text": "Alice lives in Hilton Head.",
                "invalidated_at": "2020-01-01T00:00:00Z",
            }
        ],
        user_id="u",
    )
    assert all("Hilton Head" not in h.text for h in mem.search("Hilton Head", user_id="u"))


def test_a_question_about_a_past_window_sees_what_has_expired_since(mem: Memory) -> None:
    ((mid, _, _),) = mem.add(
        "I am staying at the Hilton this week.", user_id="u", timestamp="2024-03-12T10:00:00Z"
    ).events
    later = "2024-04-20T00:00:00Z"  # the stay expired on 18 March
    assert mem.search("where did I stay?", user_id="u", now=later, kinds=["event"]) == []
    for past in ("where did I stay in March 2024?", "where did I stay 5 weeks ago?"):
        assert [h.id for h in mem.search(past, user_id="u", now=later, kinds=["event"])] == [mid]
    # a window that has not ended asks about the present
    assert (
        mem.search("where am I staying in April 2024?", user_id="u", now=later, kinds=["event"])
        == []
    )


def test_as_of_does_not_move_the_question_date(mem: Memory) -> None:
    mem.add("We went bowling.", user_id="u", timestamp="2024-03-10T20:00:00Z")
    hits = mem.search(
        "what did we do yesterday?",
        user_id="u",
        now="2024-03-11T09:00:00Z",
        as_of="2024-06-01T00:00:00Z",
        explain=True,
        kinds=["episode"],
    )
    assert hits[0].scores.get("time") == 1.0


def test_context_shows_a_long_turn_by_its_sentences_nearest_the_question(mem: Memory) -> None:
    tips = " ".join(f"Tip {n}: water plant number {n} before breakfast." for n in range(60))
    mem.add(
        [{"role": "assistant", "content": tips + " Your spare key is in the blue flowerpot."}],
        user_id="u",
    )
    ctx = mem.context("where is my spare key?", user_id="u", max_tokens=300)
    assert "blue flowerpot" in ctx.text and "Tip 2:" not in ctx.text and "…" in ctx.text


def test_snippets_can_be_switched_off(tmp_path: Path) -> None:
    config = MemoryConfig(context_snippet_tokens=0)
    with Memory(tmp_path / "m.db", config=config, embedder=FakeEmbedder()) as whole:
        tips = " ".join(f"Tip {n}: water plant number {n} before breakfast." for n in range(60))
        whole.add([{"role": "assistant", "content": tips + " The key is in the pot."}], user_id="u")
        ctx = whole.context("where is the key?", user_id="u", max_tokens=2000)
        assert "Tip 0:" in ctx.text and "Tip 59:" in ctx.text and "in the pot" in ctx.text
        # a turn too long for the budget shows its clauses nearest the question
        ctx = whole.context("where is the key?", user_id="u", max_tokens=300)
        assert "The key is in the pot." in ctx.text and "Tip 0:" not in ctx.text
    with pytest.raises(ConfigError, match="context_snippet_tokens=5"):
        MemoryConfig(context_snippet_tokens=5)


def test_what_the_named_person_said_gets_the_speaker_boost(mem: Memory) -> None:
    mem.add(
        [
            {"name": "Bob", "content": "I painted the lake at sunrise."},
            {"name": "Ann", "content": "I painted the lake at sunrise!"},
        ],
        user_id="u",
    )
    hits = mem.search("What did Ann paint?", user_id="u", kinds=["episode"], explain=True)
    by_speaker = {h.sources[0].speaker: h for h in hits}
    assert hits[0].sources[0].speaker == "Ann"
    assert by_speaker["Ann"].scores["speaker_boost"] == 1.25
    assert by_speaker["Bob"].scores["speaker_boost"] == 1.0
    unnamed = mem.search("Who painted the lake?", user_id="u", kinds=["episode"], explain=True)
    assert all("speaker_boost" not in h.scores for h in unnamed)
    with pytest.raises(ConfigError, match=r"speaker_weight=0\.9"):
        MemoryConfig(speaker_weight=0.9)


def test_context_date_lines_are_plain_dates(tmp_path: Path) -> None:
    turn = [{"role": "user", "content": "We watched the Super Bowl at Sam's place today."}]
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.add(turn, user_id="u", timestamp="2023-02-12T06:29:00Z")
        ctx = mem.context(
            "When did I watch the Super Bowl?",
            user_id="u",
            now="2023-03-01T19:28:00Z",
            reinforce=False,
        )
        assert "Sun 12 February 2023" in ctx.text.splitlines() and "ago" not in ctx.text
