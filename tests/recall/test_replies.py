"""The reply to a question turn joins the hits just below the question."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.recall.replies import REPLY_WEIGHT, with_replies

TURNS = [
    {"name": "Bob", "content": "What did you paint at the lake last week?"},
    {"name": "Ann", "content": "A lighthouse at dusk, in blue and orange."},
    {"name": "Bob", "content": "Did you sell the lake painting?"},
    {"name": "Bob", "content": "Sorry, I meant the old one."},
]


def _question(mem: Memory, text: str) -> list:
    hits = mem.search(text, user_id="u", kinds=["episode"], limit=10, reinforce=False)
    return [h for h in hits if h.text == text]


def test_the_answer_to_a_question_turn_joins_just_below_it(mem: Memory) -> None:
    mem.add(TURNS, user_id="u", session_id="s1", timestamp="2026-05-04T10:00:00Z")
    question = _question(mem, TURNS[0]["content"])
    hits = with_replies(mem.store, "u", question)
    assert [h.text for h in hits] == [TURNS[0]["content"], TURNS[1]["content"]]
    assert hits[1].score == REPLY_WEIGHT * hits[0].score and "reply" in hits[1].scores


def test_no_reply_when_the_asker_goes_on_or_it_came_later(mem: Memory) -> None:
    mem.add(TURNS, user_id="u", session_id="s1", timestamp="2026-05-04T10:00:00Z")
    asked_on = _question(mem, TURNS[2]["content"])  # Bob asks, then Bob again
    assert [h.text for h in with_replies(mem.store, "u", asked_on)] == [TURNS[2]["content"]]
    question = _question(mem, TURNS[0]["content"])
    early = datetime(2026, 5, 1, tzinfo=UTC)
    assert len(with_replies(mem.store, "u", question, before=early)) == 1
    assert len(with_replies(mem.store, "v", question)) == 1  # another user: nothing


def test_context_shows_the_answer_to_a_question_that_matched(mem: Memory) -> None:
    mem.add(TURNS[:2], user_id="u", session_id="s1", timestamp="2026-05-04T10:00:00Z")
    mem.add(
        [f"We talked about the lake and the weather, part {i}." for i in range(30)],
        user_id="u",
        session_id="s2",
        timestamp="2026-05-05T10:00:00Z",
    )
    # one hit only: the question itself; its answer shares no word with the query
    ctx = mem.context(TURNS[0]["content"], user_id="u", max_tokens=500, limit=1)
    assert [h.text for h in ctx.items] == [TURNS[0]["content"], TURNS[1]["content"]]
    assert "reply" in ctx.items[1].scores and "lighthouse" in ctx.text


def test_session_context_shows_the_answer_to_an_earlier_question(db_path: Path) -> None:
    # dense only, and a turn's dense key without the turn before it (the lexical key has it):
    # the answer can only come in as the reply to the question
    config = MemoryConfig(dense_weight=1.0, dense_context_turns=0)
    with Memory(db_path, embedder=FakeEmbedder(), config=config) as mem:
        answer = "A lighthouse in blue and orange."  # no word in common with the question
        turns = [TURNS[0], {"name": "Ann", "content": answer}]
        mem.add(turns, user_id="u", session_id="s1", timestamp="2026-05-04T10:00:00Z")
        # more memories share the question's words than the session searches for
        mem.add(
            [f"We paint at the lake every week, part {i}." for i in range(120)],
            user_id="u",
            session_id="s2",
            timestamp="2026-05-05T10:00:00Z",
        )
        chat = mem.session(user_id="u")
        chat.add("user", TURNS[0]["content"])
        ctx = chat.context(max_tokens=2000, reinforce=False)
        replies = [h for h in ctx.memories if h.text == answer]
        assert len(replies) == 1 and "reply" in replies[0].scores and "lighthouse" in ctx.text
        other = mem.session(user_id="v")  # another user asking the same sees nothing of it
        other.add("user", TURNS[0]["content"])
        assert "lighthouse" not in other.context(max_tokens=2000, reinforce=False).text
