"""Session start: a new session's context, and `Memory.context` without a query, lead with
the user's profile (current values, open goals and tasks, the last session's summary), then
the memories the current input needs; within the session the buffer's newer value of an
attribute beats the profile's; another user's profile never appears."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import ConfigError, Memory, MemoryConfig, ValidationError
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.recall.profile import HEADER, PLANS_HEADER, SUMMARY_HEADER

MAR, APR, MAY = "2025-03-0{}T09:00:00Z", "2025-04-0{}T09:00:00Z", "2025-05-0{}T09:00:00Z"
MEMORIES = "## Memories"


def _plans(text: str) -> str:
    """The open goals and tasks part of a context (empty when it has none)."""
    if PLANS_HEADER not in text:
        return ""
    return text.split(PLANS_HEADER, 1)[1].split(SUMMARY_HEADER, 1)[0].split(MEMORIES, 1)[0]


def _values(text: str) -> str:
    """The current values part of a context."""
    if HEADER not in text:
        return ""
    return text.split(HEADER, 1)[1].split("\n## ", 1)[0]


def _seed(mem: Memory, user: str = "kai") -> None:
    chat = mem.session(user_id=user)
    chat.add("user", "I live in Lisbon.", timestamp=MAR.format(1))
    chat.add("user", "I plan to learn the guitar.", timestamp=MAR.format(2))
    chat.add("user", "Remind me to order the new tyres.", timestamp=MAR.format(3))
    chat.end(now=MAR.format(9))


def test_a_goal_opened_then_closed_appears_then_disappears_at_session_start(
    any_mem: Memory,
) -> None:
    _seed(any_mem)
    second = any_mem.session(user_id="kai", now=APR.format(1))
    opening = second.context(max_tokens=2000).text
    assert "learn the guitar" in _plans(opening) and "order the new tyres" in _plans(opening)
    second.add("user", "No more guitar lessons, I dropped it.", timestamp=APR.format(1))
    second.add("user", "How cold does it get here in winter?", timestamp=APR.format(2))
    second.end(now=APR.format(9))
    third = any_mem.session(user_id="kai", now=MAY.format(1))
    later = third.context(max_tokens=2000).text
    assert "guitar" not in _plans(later)
    assert "order the new tyres" in _plans(later)  # never said to be done: still open
    assert "Lisbon" in _values(later)


def test_a_new_sessions_context_leads_with_the_profile(mem: Memory) -> None:
    _seed(mem)
    chat = mem.session(user_id="kai")
    empty = chat.context(max_tokens=1500)
    assert empty.text.startswith(HEADER) and next(iter(empty.sections)) == "profile"
    assert "Lisbon" in _values(empty.text) and SUMMARY_HEADER in empty.text
    assert empty.memories == [] and empty.tokens <= 1500
    # the current input: the profile still leads, the memories it needs follow, then the turn
    chat.add("user", "Which tyres did I want to order?", timestamp=APR.format(1))
    ctx = chat.context(max_tokens=1500)
    assert ctx.text.startswith(HEADER) and list(ctx.sections)[:2] == ["profile", "memories"]
    assert ctx.text.rstrip().endswith("Which tyres did I want to order?")
    for label in ctx.references:  # both parts cite turns by labels the references resolve
        assert f"[{label}]" in ctx.text or f"{label}]" in ctx.text
    assert all(mem.get(i, user_id="kai") for i in ctx.references.values())
    # once the session has turns of its own, the context is the usual one
    chat.add("assistant", "The winter tyres.", timestamp=APR.format(2))
    assert "profile" not in chat.context(max_tokens=1500).sections


def test_memory_context_without_a_query_is_the_profile(mem: Memory) -> None:
    _seed(mem)
    start = mem.context(user_id="kai", max_tokens=800)
    profile = mem.profile("kai", max_tokens=800)
    assert start.text == profile.text and start.items == []
    assert start.references == profile.references and start.tokens == profile.tokens
    led = mem.context("tyres", user_id="kai", max_tokens=800, profile=True)
    assert led.text.startswith(HEADER) and MEMORIES in led.text and led.tokens <= 800
    plain = mem.context("tyres", user_id="kai", max_tokens=800, reinforce=False)
    unled = mem.context("tyres", user_id="kai", max_tokens=800, profile=False, reinforce=False)
    assert plain.text == unled.text and not plain.text.startswith(HEADER)


def test_the_buffers_newer_value_beats_the_profiles(mem: Memory) -> None:
    _seed(mem)
    chat = mem.session(user_id="kai")
    chat.add("user", "I moved to Porto last week.", timestamp=APR.format(1))
    ctx = chat.context(max_tokens=2000)
    profile_part = ctx.text.split(MEMORIES, 1)[0].split("## Recent turns", 1)[0]
    assert "Lisbon" not in profile_part  # neither as a value nor in the last summary
    assert "order the new tyres" in _plans(ctx.text)  # the rest of the profile stays
    assert "Porto" in ctx.text.split("## Recent turns", 1)[1]
    # outside the session, the stored value is still the current one
    assert "Lisbon" in _values(mem.context(user_id="kai").text)


def test_another_users_profile_never_appears(mem: Memory) -> None:
    _seed(mem, "kai")
    other = mem.session(user_id="noor")
    other.add("user", "I live in Nairobi.", timestamp=MAR.format(1))
    other.add("user", "Remind me to water the orchids.", timestamp=MAR.format(2))
    other.end(now=MAR.format(9))
    for text in (
        mem.context(user_id="kai", max_tokens=3000).text,
        mem.session(user_id="kai").context(max_tokens=3000).text,
        mem.context("Nairobi orchids", user_id="kai", profile=True, max_tokens=3000).text,
    ):
        assert "Lisbon" in text and "Nairobi" not in text and "orchids" not in text
    assert "Lisbon" not in mem.context(user_id="noor", max_tokens=3000).text
    assert mem.context(user_id="nobody").text == ""


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"profile": False}, r"query is None and profile=False"),
        ({"profile": "yes"}, r"profile"),
        ({"max_tokens": 0}, r"max_tokens"),
        ({"query": ""}, r"query is empty"),
        ({"query": "tyres", "profile": True, "as_of": "soon"}, r"as_of"),
        ({"now": "later"}, r"now"),
        ({"user_id": ""}, r"user_id"),
    ],
)
def test_bad_input_is_a_clear_error(
    mem: Memory, arguments: dict[str, object], message: str
) -> None:
    kwargs: dict[str, object] = {"user_id": "kai", **arguments}
    with pytest.raises(ValidationError, match=message):
        mem.context(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="max_tokens"):
        mem.session(user_id="kai").context(max_tokens=-5)


def test_the_profile_share_splits_the_budget(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"start_profile_share=1\.5"):
        MemoryConfig(start_profile_share=1.5)
    sizes = {}
    for share in (0.0, 1.0):
        config = MemoryConfig(start_profile_share=share)
        with Memory(tmp_path / f"{share}.db", embedder=FakeEmbedder(), config=config) as mem:
            _seed(mem)
            ctx = mem.context("Lisbon tyres guitar", user_id="kai", profile=True, max_tokens=60)
            assert ctx.tokens <= 60
            sizes[share] = (ctx.text.startswith(HEADER), MEMORIES in ctx.text)
    assert sizes[1.0] == (True, False)  # the profile takes the whole budget first
    assert sizes[0.0][1]  # with no share of its own, the memories come first
