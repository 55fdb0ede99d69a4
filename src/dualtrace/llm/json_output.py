"""Recover the JSON object an LLM was asked for from what it actually wrote.

Models wrap JSON in Markdown fences, prefix it with `<think>` reasoning or prose, leave
trailing commas, or answer with a bare array. `parse_json_object` strips the wrapping and
finds the first balanced JSON object or array with a bracket-matching scan that knows about
strings, so braces inside string values or in surrounding prose do not confuse it (a greedy
`{.*}` regex would swallow everything between the first `{` and the last `}`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from dualtrace.errors import MalformedOutputError

__all__ = ["parse_json_object", "strip_reasoning"]

_EXCERPT_CHARS = 120
_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json[c5]?|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_CLOSERS = {"{": "}", "[": "]"}


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in an LLM answer; a bare top-level array becomes {"memories": [...]}.

    Tolerates ```json fences, `<think>…</think>` blocks (and a leading `<think>` that is
    never closed, or a `</think>` whose opening tag was in the prompt), prose before and
    after, and trailing commas before `}` or `]`. Raises MalformedOutputError naming what
    was wrong, with an excerpt of the answer.

    Example::

        >>> parse_json_object('Sure! ```json\\n{"memories": [],}\\n```')
        {'memories': []}
    """
    if not isinstance(text, str):
        raise MalformedOutputError(
            f"LLM output has type {type(text).__name__}, expected text containing a JSON object"
        )
    body, unclosed_think = _strip_think(text)
    # JSON inside the reasoning is only a last resort: it is usually a draft.
    for source, prefer_last in ((body, unclosed_think), (text, False)):
        found = _find_json(source, prefer_last=prefer_last)
        if found is not None:
            return found if isinstance(found, dict) else {"memories": found}
    if not body.strip():
        what = "only an unfinished <think> block" if unclosed_think else "empty"
        raise MalformedOutputError(
            f"LLM output is {what}, expected a JSON object; raise max_tokens or check the "
            f"model follows the prompt: {_excerpt(text)}"
        )
    after = " after an unfinished <think> block" if unclosed_think else ""
    raise MalformedOutputError(f"{_diagnose(body)}{after}: {_excerpt(body)}")


def strip_reasoning(text: str) -> str:
    """A model's plain-text reply without its `<think>…</think>` reasoning (see
    `_strip_think`); empty when the reply is only a block the model never finished.

    >>> strip_reasoning("<think>Is it yes? No.</think>No.")
    'No.'
    >>> strip_reasoning("<think>Yes, unless")
    ''
    """
    body, unfinished = _strip_think(text)
    return "" if unfinished else body.strip()


def _strip_think(text: str) -> tuple[str, bool]:
    """Text without reasoning blocks, and whether a leading `<think>` was left unclosed.

    A tag inside a JSON string (`{"note": "</think>"}`) is content, not a tag. A `</think>`
    without its `<think>` means the opening tag was part of the chat template, so everything
    before it was reasoning.
    """
    spans = [(start, end) for start, end, _ in _candidates(text)]
    pieces: list[str] = []
    cursor, open_end = 0, -1  # open_end >= 0 while inside a block
    for tag in _THINK_TAG.finditer(text):
        if _inside(tag.start(), spans):
            continue
        if not tag.group(1):  # <think>
            if open_end < 0:
                pieces.append(text[cursor : tag.start()])
                open_end = tag.end()
            continue
        if open_end < 0:  # </think> never opened
            pieces = []
        cursor, open_end = tag.end(), -1
    if open_end < 0:
        return "".join(pieces) + text[cursor:], False
    before = "".join(pieces)
    # An unfinished block after an answer is cut-off rambling; before any answer, the answer
    # may still be inside it.
    return (before, False) if before.strip() else (text[open_end:], True)


def _find_json(text: str, *, prefer_last: bool) -> dict[str, Any] | list[Any] | None:
    """The first (or last) usable JSON value in text, preferring those in ``` fences.

    After an unclosed `<think>` the answer, if any, follows the reasoning, so the last
    candidate is the better guess there.
    """
    found = list(_candidates(text))
    if not found:
        return None
    fences = [m.span(1) for m in _FENCE.finditer(text) if not _inside(m.start(), found)]
    fenced = [c for c in found if any(s <= c[0] and c[1] <= e for s, e in fences)]
    pool = fenced or found
    return (pool[-1] if prefer_last else pool[0])[2]


def _inside(position: int, spans: Sequence[tuple[int, int, object] | tuple[int, int]]) -> bool:
    """Whether position falls inside one of the (start, end, …) spans."""
    return any(span[0] <= position < span[1] for span in spans)


def _candidates(text: str) -> Iterator[tuple[int, int, dict[str, Any] | list[Any]]]:
    """(start, end, value) of every top-level balanced `{…}` / `[…]` span with usable JSON.

    A span that is balanced but does not decode is skipped whole, so an object nested inside
    a broken one is never mistaken for the answer. A list counts only if every element is an
    object, so prose such as "see [1]" is not taken for an answer.
    """
    start = _next_opener(text, 0)
    while start != -1:
        end = _balanced_end(text, start)
        if end == -1:
            start = _next_opener(text, start + 1)
            continue
        value = _decode(text[start:end])
        if isinstance(value, dict) or (
            isinstance(value, list) and all(isinstance(item, dict) for item in value)
        ):
            yield start, end, value
        start = _next_opener(text, end)


def _next_opener(text: str, start: int) -> int:
    """Index of the next `{` or `[` at or after start, or -1."""
    positions = [p for p in (text.find("{", start), text.find("[", start)) if p != -1]
    return min(positions) if positions else -1


def _balanced_end(text: str, start: int) -> int:
    """Index just past the bracket matching text[start], or -1 if it never closes properly."""
    stack: list[str] = []
    in_string = escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _CLOSERS:
            stack.append(_CLOSERS[char])
        elif char in "}]":
            if not stack or stack.pop() != char:
                return -1
            if not stack:
                return index + 1
    return -1


def _decode(span: str) -> Any:
    """The JSON value of span after dropping trailing commas, or None if it is not JSON."""
    try:
        return json.loads(_drop_trailing_commas(span))
    except ValueError:
        return None


def _drop_trailing_commas(span: str) -> str:
    """Span without commas that stand (outside strings) right before `}` or `]`.

    Valid JSON never has such a comma, so the repair leaves valid JSON unchanged.
    """
    out: list[str] = []
    in_string = escaped = False
    for index, char in enumerate(span):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == ",":
            after = index + 1
            while after < len(span) and span[after].isspace():
                after += 1
            if after < len(span) and span[after] in "}]":
                continue
        out.append(char)
    return "".join(out)


def _diagnose(body: str) -> str:
    """Say why no JSON was found: none at all, never closed, or not valid JSON."""
    start = _next_opener(body, 0)
    if start == -1:
        return "LLM output contains no JSON object or array"
    end = _balanced_end(body, start)
    if end == -1:
        return "LLM output has a JSON object that is never closed (truncated? raise max_tokens)"
    try:
        json.loads(_drop_trailing_commas(body[start:end]))
    except ValueError as exc:
        return f"LLM output has no valid JSON object ({exc})"
    return "LLM output has JSON, but neither an object nor a list of objects"


def _excerpt(text: str) -> str:
    """The first characters of text, quoted, marked when cut."""
    stripped = text.strip()
    if len(stripped) <= _EXCERPT_CHARS:
        return repr(stripped)
    return repr(stripped[:_EXCERPT_CHARS]) + "…"
