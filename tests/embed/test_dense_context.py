"""A turn's dense key also holds the turn before it in the same session (what it answers), so
a reply that never names its topic is still found by it; what is returned is the turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder

QUESTION = {
    "id": "D1:1",
    "role": "user",
    "name": "Nate",
    "content": "That cake looks amazing, Joanna! How did you make it?",
}
REPLY = {
    "id": "D1:2",
    "role": "user",
    "name": "Joanna",
    "content": "Thanks! It is dairy-free vanilla with strawberry filling.",
}
LATER = {
    "id": "D2:1",
    "role": "user",
    "name": "Joanna",
    "content": "Thanks again, the frosting was coconut cream.",
}


def dense_raw(path: Path, turns: int, query: str, external_id: str) -> tuple[float, str]:
    """The dense similarity of one turn to the query, and the text search returns for it."""
    config = MemoryConfig(
        extract=False, dense_weight=1.0, dense_context_turns=turns, lexical_context_turns=0
    )
    with Memory(path, embedder=FakeEmbedder(), config=config) as mem:
        mem.add([QUESTION], user_id="u", session_id="s1", timestamp="2024-05-01T10:00:00Z")
        mem.add([REPLY], user_id="u", session_id="s1", timestamp="2024-05-01T10:01:00Z")
        mem.add([LATER], user_id="u", session_id="s2", timestamp="2024-05-08T10:00:00Z")
        hits = mem.search(query, user_id="u", limit=10, explain=True)
    hit = next(h for h in hits if h.sources[0].external_id == external_id)
    return hit.scores.get("dense_raw", 0.0), hit.text


def test_a_reply_is_found_by_the_question_it_answers(tmp_path: Path) -> None:
    with_context, text = dense_raw(tmp_path / "a.db", 1, "cake", "D1:2")
    without, _ = dense_raw(tmp_path / "b.db", 0, "cake", "D1:2")
    assert with_context > 0.1 and without == pytest.approx(0.0, abs=1e-6)
    assert text == REPLY["content"]  # the key is richer; the turn is returned as said


def test_the_turn_before_is_taken_from_the_same_session_only(tmp_path: Path) -> None:
    # D2:1 opens session s2: the last turn of s1 is not its context
    score, _ = dense_raw(tmp_path / "c.db", 1, "strawberry vanilla", "D2:1")
    assert score == pytest.approx(0.0, abs=1e-6)


def test_dense_context_turns_must_be_zero_or_one() -> None:
    with pytest.raises(Exception, match="dense_context_turns"):
        MemoryConfig(dense_context_turns=2)


def _second_turns_dense(path: Path, first: dict[str, str], second: str, query: str) -> float:
    """The dense similarity to `query` of a user's turn `second` said right after `first`."""
    config = MemoryConfig(extract=False, dense_weight=1.0, lexical_context_turns=0)
    with Memory(path, embedder=FakeEmbedder(), config=config) as mem:
        # a fixed date: the key holds its date, whose words the fake embedder's few buckets
        # may share with the query's on some days ("2026-12-02 Wed" did)
        mem.add(
            [first, {"role": "user", "content": second}],
            user_id="u",
            session_id="s",
            timestamp="2024-05-01T10:00:00Z",
        )
        hits = mem.search(query, user_id="u", limit=5, explain=True)
    return next(h for h in hits if h.text == second).scores.get("dense_raw", 0.0)


def test_an_assistant_turn_is_not_dense_context(tmp_path: Path) -> None:
    said = {"role": "assistant", "content": "Carrot cake keeps well in the fridge."}
    score = _second_turns_dense(
        tmp_path / "d.db", said, "Thanks, that helps with the party.", "carrot fridge"
    )
    assert score == pytest.approx(0.0, abs=1e-6)


def test_deleting_the_turn_before_rebuilds_the_replys_vector(tmp_path: Path) -> None:
    config = MemoryConfig(extract=False, dense_weight=1.0, lexical_context_turns=0)
    with Memory(tmp_path / "e.db", embedder=FakeEmbedder(), config=config) as mem:
        added = mem.add([QUESTION, REPLY], user_id="u", session_id="s1")
        mem.delete(added.episodes[0], user_id="u")  # the deleted words leave its vector too
        (reply,) = mem.search("cake", user_id="u", limit=5, explain=True)
    assert reply.text == REPLY["content"]
    assert reply.scores.get("dense_raw", 0.0) == pytest.approx(0.0, abs=1e-6)


def test_a_speakers_next_message_is_not_dense_context(tmp_path: Path) -> None:
    # the same person goes on: their next message answers nothing, and given the last one's
    # words it ranked as a statement of that matter
    said = {"role": "user", "content": "The tram to the harbour was late again."}
    score = _second_turns_dense(
        tmp_path / "f.db", said, "Anyway, thanks for earlier.", "tram harbour"
    )
    assert score == pytest.approx(0.0, abs=1e-6)
