"""Chinese in either script: what is typed in Traditional characters is read in Simplified.

The rules (slot frames, question cues, dates, small talk), jieba's dictionary and the
lexicon are written in Simplified Chinese, so a user who types Traditional (我們現在住台中,
咖啡廳開幕了) would be read as little as a foreign language. Turns are stored as they were
typed; everything the rules derive from them (memory texts, slots, entities) and every
reading of a question is done on the Simplified form (`simplified`, OpenCC's `t2s`, phrase
by phrase), and the full-text index and query terms fold the two scripts into one, so a
question in either script finds a turn in either. A memory's text and a profile value are
shown in the script their turn was typed in (`in_script_of`). Text in Simplified Chinese or with no
Chinese is returned unchanged, so nothing else reads differently.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from dualtrace.cjk import has_cjk

_LOCK = threading.Lock()


@lru_cache(maxsize=4)
def _converter(config: str) -> Any:
    import opencc

    return opencc.OpenCC(config)


def _convert(config: str, text: str) -> str:
    with _LOCK:  # one converter shared by the search threads
        return str(_converter(config).convert(text))


@lru_cache(maxsize=16_384)
def simplified(text: str) -> str:
    """`text` with its Traditional characters in Simplified ("我們現在住台中" → "我们现在住台中");
    any other text as it is. Its length is kept, so an offset into one is one into the other.

    >>> simplified("咖啡廳開幕了"), simplified("咖啡厅开幕了"), simplified("I live in Taichung")
    ('咖啡厅开幕了', '咖啡厅开幕了', 'I live in Taichung')
    """
    if not has_cjk(text):
        return text
    read = _convert("t2s.json", text)
    if len(read) != len(text):  # offsets must still point at the same words: char by char
        read = "".join(c if len(s := _convert("t2s.json", c)) != 1 else s for c in text)
    return read


def is_traditional(text: str) -> bool:
    """Whether `text` holds a character that Simplified writes otherwise.

    >>> is_traditional("我們"), is_traditional("我们"), is_traditional("Leeds")
    (True, False, False)
    """
    return simplified(text) != text


def in_script_of(text: str, typed: str) -> str:
    """`text` (read in Simplified) in the script `typed` was typed in: each character as
    `typed` wrote it where it holds it, the rest in Traditional (OpenCC's `s2t`). Text whose
    source was not typed in Traditional comes back unchanged.

    >>> in_script_of("晓雯住在台中", "我們現在住台中，我叫曉雯")
    '曉雯住在台中'
    """
    if not has_cjk(text) or not is_traditional(typed):
        return text
    converted = _convert("s2t.json", text)
    if len(converted) != len(text):
        return converted
    as_typed = _as_typed(typed)
    return "".join(as_typed.get(s, t) for s, t in zip(text, converted, strict=True))


@lru_cache(maxsize=1024)
def _as_typed(typed: str) -> dict[str, str]:
    """Each Chinese character of `typed` as read in Simplified, and as it was typed (read
    once for a turn that several memories, or a memory's text and scene, are shown from)."""
    read = simplified(typed)
    return {s: t for s, t in zip(read, typed, strict=True) if s != t or has_cjk(s)}
