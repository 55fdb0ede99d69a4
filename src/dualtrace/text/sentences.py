"""The one sentence splitter, for the write path (a memory per sentence or clause) and the
read path (a long turn shown by its sentences nearest the question)."""

from __future__ import annotations

import re

# A sentence runs to its end marks (several at once: "?!", "..."), with any closing quote or
# bracket after them ('called "Finding Home." It is…'), or to a line break, or to the end.
_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]+[\"'”’)]*|\n|$)")
# Clauses for extraction end at every single mark, semicolons included: "..." leaves bare
# marks (dropped) and a closing quote opens the next clause. Kept as extraction has always
# split, so that merging the two splitters changed no memory (docs/benchmarks.md, 30 Nov 2026).
_CLAUSE = re.compile(r"[^.!?。！？；;\n]*(?:[.!?。！？；;]|\n|$)")


def split_sentences(text: str, *, clauses: bool = False) -> list[str]:
    """The text's sentences (and lines), stripped, empty ones dropped.

    `clauses=True` splits as extraction reads a turn: at every end mark and at semicolons
    ("；", ";"), which join statements that become separate memories.

        >>> split_sentences("Hi! I moved. 我们搬家了。好的")
        ['Hi!', 'I moved.', '我们搬家了。', '好的']
    """
    pattern = _CLAUSE if clauses else _SENTENCE
    return [s.strip() for s in pattern.findall(text) if s.strip()]
