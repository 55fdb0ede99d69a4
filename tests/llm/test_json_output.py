"""Tests for parse_json_object: recovering the JSON object from what an LLM wrote."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dualtrace.errors import MalformedOutputError
from dualtrace.llm.json_output import parse_json_object

EXPECTED = {"memories": [{"kind": "fact", "text": "Alice lives in Hangzhou."}]}
RAW = json.dumps(EXPECTED)


@pytest.mark.parametrize(
    "text",
    [
        RAW,
        f"```json\n{RAW}\n```",
        f"```\n{RAW}\n```",
        f"Here you go:\n```json\n{RAW}\n```\nHope that helps!",
        f"<think>The user lives in {{somewhere}}, so [maybe]...</think>\n{RAW}",
        f"<THINK>\nstep 1\n</THINK>```json\n{RAW}\n```",
        f"Okay, reasoning about {{turns}}.\n</think>\n\n{RAW}",  # opening tag was in the prompt
        f"<think>\nLet me write it out:\n{RAW}",  # the model never closed its reasoning
        f"Sure! Here are the memories: {RAW} Let me know if you need more.",
        '{"memories": [{"kind": "fact", "text": "Alice lives in Hangzhou.",},],}',
        '{"memories": [\n  {"kind": "fact", "text": "Alice lives in Hangzhou."},\n]\n}',
        '[{"kind": "fact", "text": "Alice lives in Hangzhou."}]',
        'Answer: [{"kind": "fact", "text": "Alice lives in Hangzhou."},]',
    ],
)
def test_recovers_the_object(text: str) -> None:
    assert parse_json_object(text) == EXPECTED


def test_braces_and_brackets_inside_strings() -> None:
    value = {"memories": [{"text": 'Bob wrote "{not: json]" and a \\ backslash, } ]'}]}
    text = f"Note {{this}}: {json.dumps(value)} trailing {{ junk"
    assert parse_json_object(text) == value


def test_trailing_comma_inside_a_string_is_kept() -> None:
    assert parse_json_object('{"text": "a, }", "n": [1, 2,],}') == {"text": "a, }", "n": [1, 2]}


def test_first_object_wins() -> None:
    assert parse_json_object('{"a": 1} and then {"b": 2}') == {"a": 1}


def test_broken_outer_object_is_not_mistaken_for_its_inner_one() -> None:
    text = '{"memories": [{"kind": "fact"}, oops]} then {"memories": []}'
    assert parse_json_object(text) == {"memories": []}


def test_prose_brackets_are_skipped() -> None:
    assert parse_json_object('See [1] and [a, b]. {"memories": []}') == {"memories": []}


def test_empty_array_is_wrapped() -> None:
    assert parse_json_object("[]") == {"memories": []}


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("<think>still thinking about it", "unfinished <think>"),
        ("<think>only reasoning</think>", "empty"),
        ("I could not find any memories.", "no JSON"),
        ('{"memories": [{"kind": "fact", "text": "Alice', "never closed"),
        ("{memories: [}", "never closed"),
        ("{memories: []}", "no valid JSON"),
        ("[1, 2, 3]", "neither an object"),
    ],
)
def test_garbage_raises_with_reason(text: str, needle: str) -> None:
    with pytest.raises(MalformedOutputError, match=needle):
        parse_json_object(text)


def test_error_excerpt_is_short() -> None:
    text = "No JSON here. " + "x" * 1000
    with pytest.raises(MalformedOutputError) as info:
        parse_json_object(text)
    message = str(info.value)
    assert "No JSON here." in message
    assert "x" * 121 not in message


def test_non_string_raises() -> None:
    with pytest.raises(MalformedOutputError, match="type"):
        parse_json_object(None)  # type: ignore[arg-type]


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
_JSON_VALUES = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
_PROSE = st.text(
    alphabet=st.characters(exclude_characters="{}[]", exclude_categories=["Cs"]),
    max_size=40,
)


@given(
    value=st.dictionaries(st.text(max_size=8), _JSON_VALUES, max_size=5),
    before=_PROSE,
    after=_PROSE,
)
def test_object_in_prose_round_trips(value: dict[str, Any], before: str, after: str) -> None:
    assert parse_json_object(before + json.dumps(value) + after) == value
