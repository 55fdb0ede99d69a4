"""Query-focused snippets: the sentences of a long turn nearest the query.

A long turn (an assistant's list of tips, a user's paragraph) rarely matters as a whole: the
context shows the sentence that shares the most words with the query, then what follows it
(the items of a list it introduces; those that do not fit by their names, "5. Absinthe: …"),
then other sentences sharing words with the query, in their original order, with "…" where
sentences were left out. Words are compared by a light stem, so "sneakers" finds "sneaker"
and "painted" finds "painting". A turn with no sentence in common with the query is left to
the caller (it is cut from its start, as before).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from dualtrace.cjk import CJK
from dualtrace.text.lexical import content_words, query_terms
from dualtrace.text.sentences import split_sentences
from dualtrace.text.tokens import count_tokens, truncate_to_tokens

GAP = "…"
_SUFFIXES = ("ings", "ing", "ies", "ied", "es", "ed", "s")
_MARKER = re.compile(r"^(?:\d{1,2}[.)]|[-*•])$")  # "3." split off as a sentence of its own
# "Absinthe:" of "5. Absinthe: a strong liqueur…" (not "Meet at 10:" of "Meet at 10:30")
_HEAD = re.compile(r"^[^:：]{1,60}?(?::(?=\s)|：)")


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A crude English stem (Chinese words are kept as they are)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def focus_words(query: str) -> frozenset[str]:
    """The stems of the query's content words (stop words dropped)."""
    return frozenset(stem(w) for w in query_terms(query, max_terms=64))


@dataclass(frozen=True)
class _Read:
    """A long text read once for snippets (several memories drawn from one turn ask for it):
    its sentences, the stems of each one's content words, and the list items it opens, by
    their names ("5. Absinthe: …") and the cost of marker and name; sentence costs in tokens
    (with the space that joins them) are counted when first asked for."""

    parts: tuple[str, ...]
    stems: tuple[frozenset[str], ...]
    heads: dict[int, tuple[str, int]]
    counted: dict[int, int] = field(default_factory=dict)

    def cost(self, i: int) -> int:
        if i not in self.counted:
            self.counted[i] = count_tokens(self.parts[i]) + 1
        return self.counted[i]


@lru_cache(maxsize=512)
def _read(text: str) -> _Read:
    parts = tuple(split_sentences(text))
    heads: dict[int, tuple[str, int]] = {}
    for i in range(1, len(parts)):
        head = _HEAD.match(parts[i])
        if head is not None and _MARKER.match(parts[i - 1]) and head.group(0) != parts[i]:
            name = f"{head.group(0)} {GAP}"
            heads[i] = (name, count_tokens(f"{parts[i - 1]} {name}") + 1)
    stems = tuple(frozenset(map(stem, content_words(p))) for p in parts)
    return _Read(parts=parts, stems=stems, heads=heads)


@lru_cache(maxsize=4096)
def longer_than(text: str, max_tokens: int) -> bool:
    """Whether `text` has more than `max_tokens` tokens (cached: one turn, many memories)."""
    return count_tokens(text) > max_tokens


@lru_cache(maxsize=4096)
def snippet(text: str, focus: frozenset[str], max_tokens: int) -> str | None:
    """The best-matching sentence of `text` (cut to `max_tokens` if longer), the sentences
    right after it while they fit (the items of a list that do not fit by their names), then
    other matching ones, in order, within `max_tokens`;
    None when the text is short enough to show whole or no sentence shares a word with the
    query. Cached: the packer asks for a hit's snippet in each layout it tries, and a question
    asked at several budgets asks again for the same turns."""
    if not focus or not longer_than(text, max_tokens):
        return None
    read = _read(text)
    parts, cost = list(read.parts), read.cost
    overlap = [len(focus & words) for words in read.stems]
    ranked = sorted((i for i in range(len(parts)) if overlap[i]), key=lambda i: (-overlap[i], i))
    if not ranked:
        return None
    best = ranked[0]
    parts[best] = truncate_to_tokens(parts[best], max_tokens)  # a run-on "sentence"
    chosen = {best}
    used = count_tokens(parts[best])
    # a list after the best sentence keeps room for the names of its items still to come
    # ("5. Absinthe: …"), so that what is cut is the items' details, not the last items
    heads = {i: head for i, head in read.heads.items() if i >= best + 2}
    kept = sum(cost for _, cost in heads.values())
    if kept > max_tokens // 2:  # a long list: the continuation, then names if room is left
        kept = 0
    stop = len(parts)
    for i in range(best + 1, len(parts)):  # what comes next often answers (a list)
        if kept and i in heads:
            kept -= heads[i][1]  # this item's name is no longer to come
        if used + cost(i) > max_tokens - kept:
            stop = i
            break
        chosen.add(i)
        used += cost(i)
    named: dict[int, str] = {}
    for i in (i for i in heads if i >= stop):  # the items cut off, each by its name
        name, name_cost = heads[i]
        if used + name_cost > max_tokens:
            break
        named[i] = name
        chosen.update((i - 1, i))
        used += name_cost
    for i in ranked[1:]:
        if i not in chosen and used + cost(i) <= max_tokens:
            chosen.add(i)
            used += cost(i)
    pieces: list[str] = []
    for i in range(len(parts)):
        if i in named:
            pieces.append(named[i])
        elif i in chosen:
            pieces.append(parts[i])
        elif not pieces or not pieces[-1].endswith(GAP):
            pieces.append(GAP)
    return " ".join(pieces)


# Where a clause ends: after an end mark or comma followed by a space (so "5.2 m" and
# "3,500" stay whole), after a CJK mark, at a line break, or before a dash between spaces.
_CLAUSE_END = re.compile(r"(?<=[.!?;:,])\s+|(?<=[。！？；：，、])\s*|\n+|\s+(?=[-–—]\s)")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d+(?:[.,]\d+)*")


def _clause_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each clause of a text, blank ones left out."""
    spans, start = [], 0
    for cut in _CLAUSE_END.finditer(text):
        if text[start : cut.start()].strip():
            spans.append((start, cut.start()))
        start = cut.end()
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return spans


@lru_cache(maxsize=1024)
def _clauses(
    text: str,
) -> tuple[list[tuple[int, int]], list[str], list[frozenset[str]], list[float]]:
    """A text read once for `clause_snippet` (a packer asks again with less room, and for
    the same turn at each budget): its clause spans, their texts, the stems of their content
    words, and their word counts."""
    spans = _clause_spans(text)
    parts = [text[a:b] for a, b in spans]
    stems = [frozenset(map(stem, content_words(p))) for p in parts]
    return spans, parts, stems, [_words_in(p) for p in parts]


def _words_in(clause: str) -> float:
    """Words of a clause; two CJK characters count as one."""
    cjk = len(CJK.findall(clause))
    return len(_WORD.findall(CJK.sub(" ", clause))) + cjk / 2


def clause_snippet(
    text: str, focus: frozenset[str], max_tokens: int, *, min_words: int = 3
) -> str | None:
    """`text` cut to whole clauses within `max_tokens`: the clause sharing the most words
    with the query (the first, among equals), then the clauses after it while they fit, and
    "…" where the text goes on; None when no clause of at least `min_words` words fits (or
    none that shares a word with the query, when some clause does).

        >>> clause_snippet("I moved to Berlin in May, near the park. It rains a lot.",
        ...                frozenset({"berlin"}), 10)
        'I moved to Berlin in May, …'
    """
    if max_tokens < 2:
        return None
    spans, parts, stems, words = _clauses(text)
    shared = [len(focus & s) for s in stems]
    floor = min(1, max(shared, default=0))  # share a word of the query when any clause does
    fitting = [
        i
        for i, p in enumerate(parts)
        if shared[i] >= floor and words[i] >= min_words and count_tokens(p) + 1 <= max_tokens
    ]
    if not fitting:
        return None
    best = max(fitting, key=lambda i: (shared[i], -i))
    end = best + 1
    while end < len(spans):
        longer = text[spans[best][0] : spans[end][1]]
        if count_tokens(longer) + 2 > max_tokens:
            break
        end += 1
    shown = text[spans[best][0] : spans[end - 1][1]]
    head = f"{GAP} " if best > 0 else ""
    tail = f" {GAP}" if end < len(spans) else ""
    return f"{head}{shown}{tail}"
