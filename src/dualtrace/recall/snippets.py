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

from dualtrace.lexical import content_words, query_terms
from dualtrace.tokens import count_tokens, truncate_to_tokens

GAP = "…"
_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]+[\"'”’)]*|\n|$)")
_SUFFIXES = ("ings", "ing", "ies", "ied", "es", "ed", "s")
_MARKER = re.compile(r"^(?:\d{1,2}[.)]|[-*•])$")  # "3." split off as a sentence of its own
# "Absinthe:" of "5. Absinthe: a strong liqueur…" (not "Meet at 10:" of "Meet at 10:30")
_HEAD = re.compile(r"^[^:：]{1,60}?(?::(?=\s)|：)")


def stem(word: str) -> str:
    """A crude English stem (Chinese words are kept as they are)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def focus_words(query: str) -> frozenset[str]:
    """The stems of the query's content words (stop words dropped)."""
    return frozenset(stem(w) for w in query_terms(query, max_terms=64))


def sentences(text: str) -> list[str]:
    """The text's sentences (and lines), stripped, empty ones dropped."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def _head(parts: list[str], i: int) -> str | None:
    """An item of a list cut to its name ("Absinthe: …"), if parts[i] opens one."""
    head = _HEAD.match(parts[i])
    if head is None or not _MARKER.match(parts[i - 1]) or head.group(0) == parts[i]:
        return None
    return f"{head.group(0)} {GAP}"


def snippet(text: str, focus: frozenset[str], max_tokens: int) -> str | None:
    """The best-matching sentence of `text` (cut to `max_tokens` if longer), the sentences
    right after it while they fit (the items of a list that do not fit by their names), then
    other matching ones, in order, within `max_tokens`;
    None when the text is short enough to show whole or no sentence shares a word with the
    query."""
    if not focus or count_tokens(text) <= max_tokens:
        return None
    parts = sentences(text)
    overlap = [len(focus & {stem(w) for w in content_words(p)}) for p in parts]
    ranked = sorted((i for i in range(len(parts)) if overlap[i]), key=lambda i: (-overlap[i], i))
    if not ranked:
        return None
    best = ranked[0]
    parts[best] = truncate_to_tokens(parts[best], max_tokens)  # a run-on "sentence"
    chosen = {best}
    used = count_tokens(parts[best])
    # a list after the best sentence keeps room for the names of its items still to come
    # ("5. Absinthe: …"), so that what is cut is the items' details, not the last items
    heads = {i: h for i in range(best + 2, len(parts)) if (h := _head(parts, i)) is not None}
    cost_of = {i: count_tokens(f"{parts[i - 1]} {h}") + 1 for i, h in heads.items()}
    if sum(cost_of.values()) > max_tokens // 2:  # a long list: the continuation, names if room
        cost_of = {}
    stop = len(parts)
    for i in range(best + 1, len(parts)):  # what comes next often answers (a list)
        cost = count_tokens(parts[i]) + 1
        later = sum(c for j, c in cost_of.items() if j > i)
        if used + cost > max_tokens - later:
            stop = i
            break
        chosen.add(i)
        used += cost
    named: dict[int, str] = {}
    for i in (i for i in heads if i >= stop):  # the items cut off, each by its name
        cost = count_tokens(f"{parts[i - 1]} {heads[i]}") + 1
        if used + cost > max_tokens:
            break
        named[i] = heads[i]
        chosen.update((i - 1, i))
        used += cost
    for i in ranked[1:]:
        cost = count_tokens(parts[i]) + 1
        if i not in chosen and used + cost <= max_tokens:
            chosen.add(i)
            used += cost
    pieces: list[str] = []
    for i in range(len(parts)):
        if i in named:
            pieces.append(named[i])
        elif i in chosen:
            pieces.append(parts[i])
        elif not pieces or not pieces[-1].endswith(GAP):
            pieces.append(GAP)
    return " ".join(pieces)
