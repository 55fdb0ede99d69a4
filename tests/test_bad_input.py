"""Bad input raises a clear error naming the value and the fix, and stores nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dualtrace import Memory, NotFoundError, ValidationError
from dualtrace.embed.fake import FakeEmbedder


def _nothing_changed(mem: Memory, before: int) -> None:
    assert len(mem.get_all(user_id="u")) == before


@pytest.mark.parametrize(
    ("messages", "kwargs", "fragment"),
    [
        ("hi", {"user_id": ""}, "user_id=''"),
        ("hi", {"user_id": None}, "user_id=None"),
        ("   ", {"user_id": "u"}, "empty"),
        ([], {"user_id": "u"}, "messages is empty"),
        (42, {"user_id": "u"}, "messages has type int"),
        ([{"content": 7}], {"user_id": "u"}, "must be a string, got int"),
        ([{"content": "ok", "colour": "red"}], {"user_id": "u"}, "unknown keys ['colour']"),
        ([{"content": "ok", "timestamp": "yesterday-ish"}], {"user_id": "u"}, "'yesterday-ish'"),
        ("ok", {"user_id": "u", "timestamp": "2026-13-45"}, "'2026-13-45'"),
        ([{"content": "ok", "role": "robot"}], {"user_id": "u"}, "role='robot'"),
        ("x" * 1_000_001, {"user_id": "u"}, "the limit is 1000000"),
        ("bad \udcff bytes", {"user_id": "u"}, "not valid UTF-8"),
        ([{"content": "ok", "metadata": {"f": object()}}], {"user_id": "u"}, "JSON"),
        ("ok", {"user_id": "u", "session_id": ""}, "session_id=''"),
        ("ok", {"user_id": "u", "metadata": {"when": object()}}, "metadata is not JSON"),
        ("ok", {"user_id": "u", "metadata": ["topic"]}, "metadata must be a dict"),
    ],
)
def test_add_rejects_bad_input(
    mem: Memory, messages: Any, kwargs: dict[str, Any], fragment: str
) -> None:
    mem.add("existing turn", user_id="u")
    with pytest.raises(ValidationError) as err:
        mem.add(messages, **kwargs)
    assert fragment in str(err.value)
    _nothing_changed(mem, 1)


def test_one_bad_message_in_a_batch_stores_none_of_it(mem: Memory) -> None:
    with pytest.raises(ValidationError, match=r"messages\[2\]"):
        mem.add(["first", "second", {"content": ""}], user_id="u")
    _nothing_changed(mem, 0)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"limit": 0}, "limit=0"),
        ({"limit": "10"}, "limit='10'"),
        ({"kinds": ["memes"]}, "unknown ['memes']"),
        ({"kinds": "fact"}, "must be a list"),
        ({"now": "not a date"}, "now='not a date'"),
        ({"as_of": 3.5e20}, "out of range"),
        ({"filters": ["topic"]}, "filters must be a dict"),
    ],
)
def test_search_rejects_bad_arguments(mem: Memory, kwargs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as err:
        mem.search("query", user_id="u", **kwargs)
    assert fragment in str(err.value)


def test_empty_query_and_bad_budget(mem: Memory) -> None:
    with pytest.raises(ValidationError, match="query is empty"):
        mem.search("  ", user_id="u")
    with pytest.raises(ValidationError, match=r"max_tokens=0 .*e\.g\. 2000"):
        mem.context("q", user_id="u", max_tokens=0)


def test_a_count_is_an_int_never_a_bool(mem: Memory) -> None:
    session = mem.session(user_id="u")
    calls = {
        "limit": lambda v: mem.search("q", user_id="u", limit=v),
        "max_tokens": lambda v: mem.context("q", user_id="u", max_tokens=v),
        "max_tokens ": lambda v: session.context(max_tokens=v),
        "limit  ": lambda v: mem.get_all(user_id="u", limit=v),
    }
    for name, call in calls.items():
        for bad in (True, 0, -3, 2.0, "5"):
            wording = "must be (a positive integer|an integer from 1 to)"
            with pytest.raises(ValidationError, match=rf"{name.strip()}=.* {wording}"):
                call(bad)
    with pytest.raises(ValidationError, match=r"limit=1001 must be an integer from 1 to 1000"):
        mem.search("q", user_id="u", limit=1001)


def test_unknown_ids_are_not_found_with_a_hint(mem: Memory) -> None:
    for call in (
        lambda: mem.get("ep_nope", user_id="u"),
        lambda: mem.update("ep_nope", "text", user_id="u"),
        lambda: mem.delete("ep_nope", user_id="u"),
        lambda: mem.history("ep_nope", user_id="u"),
    ):
        with pytest.raises(NotFoundError, match=r"'ep_nope'.*get_all"):
            call()


def test_update_with_bad_text_keeps_the_old_text(mem: Memory) -> None:
    (eid,) = mem.add("original", user_id="u").episodes
    with pytest.raises(ValidationError):
        mem.update(eid, "", user_id="u")
    assert mem.get(eid, user_id="u").text == "original"


def test_import_record_with_unknown_key_imports_nothing(mem: Memory) -> None:
    records = [{"content": "fine"}, {"content": "also fine", "mood": "happy"}]
    with pytest.raises(ValidationError, match="record 2 has unknown keys"):
        mem.import_records(records, user_id="u")
    _nothing_changed(mem, 0)


def test_a_long_message_is_stored_whole_and_found_deep_inside(tmp_path: Path) -> None:
    """A pasted document (LongMemEval-S holds a 76,560-character message) is one turn: kept
    whole, indexed lexically to its end, and shown by its part nearest the question."""
    filler = "The quarterly report covers revenue, costs and staffing in detail. " * 1_200
    text = filler + "The harbour gate code is zebracrane42."
    assert len(text) > 76_560
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        (turn,) = mem.add(text, user_id="u").episodes
        assert mem.get(turn, user_id="u").text == text
        hits = mem.search("harbour gate code zebracrane42", user_id="u", reinforce=False)
        assert hits[0].id == turn
        ctx = mem.context("what is the harbour gate code?", user_id="u", max_tokens=200)
        assert "zebracrane42" in ctx.text and ctx.tokens <= 200
        with pytest.raises(ValidationError, match="query is 32001 characters"):
            mem.search("q" * 32_001, user_id="u")
