"""The one sentence splitter, for the write path (a memory per sentence or clause) and the
read path (a long turn shown by its sentences nearest the question)."""

from __future__ import annotations

import re

# A point between two digits is a decimal point, not an end: "1.2 million", "68.5 kg".
_DECIMAL = r"(?<=\d)\.(?=\d)"
# Nor is the point of an abbreviation: a title before a name ("Dr. Hoffman", "St. Mary's",
# "dr. nguyen"), or a short form that the sentence goes on after ("3 p.m. at the", "e.g.
# this", "the U.S. office"): such a point ends nothing, or a memory reads "Hoffman at
# Northgate since April".
_TITLE = (
    r"\b(?:Dr|Mrs?|Ms|Mx|Prof|St|Mt|Jr|Sr|Capt|Gen|Rev|Fr)\.(?=[ \t]+[A-Z])"
    r"|\b(?i:dr|mrs?|ms|prof)\.(?=[ \t]+[a-z])"  # typed in lower case: "my pcp dr. nguyen"
)
_SHORT = r"\b(?:[ap]\.m|e\.g|i\.e|etc|vs|approx|incl|(?:[A-Z]\.)+[A-Z])\.(?=[ \t,]+[a-z0-9,(])"
_INNER = r"\b[A-Za-z]\.(?=[A-Za-z]\.)"  # the first points of "U.S.", "p.m.": never an end
# Nor the point of a name on the web ("Booking.com", "Node.js"): no space after it.
_DOMAIN = r"(?<=[A-Za-z0-9])\.(?=(?:com|org|net|io|ai|co|app|dev|js|de|nl|fr|uk|cn|me|tv)\b)"
_KEPT = rf"{_TITLE}|{_SHORT}|{_INNER}|{_DECIMAL}|{_DOMAIN}"
# A sentence runs to its end marks (several at once: "?!", "..."), with any closing quote or
# bracket after them ('called "Finding Home." It is…'), or to a line break, or to the end.
_SENTENCE = re.compile(rf"(?:{_KEPT}|[^.!?。！？\n])+(?:[.!?。！？]+[\"'”’)]*|\n|$)")
# Clauses for extraction end at every single mark, semicolons included: "..." leaves bare
# marks (dropped) and a closing quote opens the next clause (as extraction has always split,
# so that merging the two splitters changed no memory; docs/notebook.md, 30 Nov 2026).
# In chat an emoji often ends a clause where a mark would ("doc put me on lisinopril 😬
# anything I should avoid?"): an emoji run that a word follows ends one too, emoji kept.
#: Emoji and pictographs, for a character class inside a larger pattern.
EMOJI = "\U0001f300-\U0001faff\u2600-\u27bf\u2b50\u2b55\ufe0f\u200d"
_EMOJI_END = rf"[{EMOJI}]+(?=[ \t]+(?!(?i:in|on|at|and|or|for|to|with|of|from|but|by)\b)[^\W\d_])"
_CLAUSE = re.compile(
    rf"(?:{_KEPT}|(?!{_EMOJI_END})[^.!?。！？；;\n])*(?:[.!?。！？；;]|{_EMOJI_END}|\n|$)"
)


def split_sentences(text: str, *, clauses: bool = False) -> list[str]:
    """The text's sentences (and lines), stripped, empty ones dropped.

    `clauses=True` splits as extraction reads a turn: at every end mark and at semicolons
    ("；", ";"), which join statements that become separate memories.

        >>> split_sentences("Hi! I moved. 我们搬家了。好的")
        ['Hi!', 'I moved.', '我们搬家了。', '好的']
        >>> split_sentences("It weighs 68.5 kg. Down from 74.")
        ['It weighs 68.5 kg.', 'Down from 74.']
    """
    pattern = _CLAUSE if clauses else _SENTENCE
    return [s.strip() for s in pattern.findall(text) if s.strip()]


def split_chunks(text: str, size: int) -> list[str]:
    """The text in consecutive pieces of at most about `size` characters, cut after a
    sentence or line where one ends in the piece's last half (else at `size`). Joined,
    the pieces are the text.

        >>> split_chunks("One. Two. Three.", 10)
        ['One. Two. ', 'Three.']
    """
    if size < 1:
        raise ValueError(f"size={size} must be positive")
    chunks: list[str] = []
    start = 0
    while len(text) - start > size:
        window = text[start : start + size]
        cut = max(window.rfind(mark) for mark in _ENDS)
        end = start + (cut + 1 if cut >= size // 2 else size)
        while end < len(text) and text[end] in " \t" and end - start < size:
            end += 1
        chunks.append(text[start:end])
        start = end
    chunks.append(text[start:])
    return chunks


_ENDS = (". ", "! ", "? ", "。", "！", "？", "\n")
