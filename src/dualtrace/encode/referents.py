"""Whom a turn's opening pronoun means, when the turn before named it.

A reply often opens on a pronoun for what the other speaker just asked about ("The kids
look so cute! How did they handle it?" — "They were scared but…"). Its memory, read alone,
would say "They were scared…" about nobody. Where the turn before names exactly what the
pronoun can stand for — one person for he / she, a plural noun phrase for they — the
pronoun is replaced by it, in the replying speaker's words ("your teammates" said to John
is "my teammates" in John's reply). Anything less certain is left as said: two people
named, no plural phrase, a phrase the clause already names, or a turn that named the
antecedent itself before the pronoun. English only: a Chinese reply rarely opens on 他 / 她
without the name.
"""

from __future__ import annotations

import re
from bisect import bisect
from collections.abc import Sequence

from dualtrace.models import Episode
from dualtrace.text.entities import extract_entities, normalise_name
from dualtrace.text.lexical import STOP_EN

# The pronoun a clause opens on, with its contraction: (pronoun, contraction or "").
_OPENING = re.compile(r"^(he|she|his|her|they|their)(?:['’](re|ve|ll|s|d))?\b", re.I)
_SINGULAR = frozenset({"he", "she", "his", "her"})
# What a contraction says after a plural subject ("they're" → "are"); "'s" and "'d" keep
# their ambiguity ("Max's been", "Max'd").
_PLURAL_VERB = {"re": "are", "ve": "have", "ll": "will"}
# A plural noun phrase: a definite or possessive determiner, at most one modifier, a head
# in -s ("the kids", "your new teammates"), not followed by what would make it a modifier
# itself ("the way dogs and cats do"); or a plural that opens a sentence as its subject
# ("Animals are amazing", "Aww, childhood memories can be so powerful").
_FOLLOWS = r"(?!\s+(?:and|or|nor|of|that|which|who)\b)(?!['’])"
_DETERMINED = re.compile(
    rf"\b(the|your|my|these|those)\s+((?:[a-z]+\s+)?[a-z]{{2,}}[^s\W]s)\b{_FOLLOWS}", re.I
)
_DESCRIBED = re.compile(r"\b([a-z]{2,}[^s\W]s)\s+(?:that|who|which)\b")
_SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")
_OPENS = re.compile(
    r"(?:^|[.!?]\s+)(?:(?:yeah|yes|well|oh|aw+|wow)\W*\s+)?((?:[a-z]+\s+)?[a-z]+[^s\W]s)"
    r"\s+(?:are|were|have|can|could|do|make|bring|give|take|keep|look|seem)\b",
    re.I,
)
# heads that end in -s and name no thing a pronoun can point back to
_NOT_THINGS = frozenset(
    "ones others days years weeks months times things lots ways news series always "
    "thanks kinds sorts bits".split()
)


def with_referent(clause: str, previous: Episode | None, speakers: Sequence[str]) -> str:
    """The clause with its opening pronoun replaced by what the turn before named, or the
    clause as it is. For a turn's first clause (after acknowledgements): a pronoun further
    on may mean what the turn itself named. `speakers` are the conversation's participants
    (never a pronoun's antecedent here: they are "I" and "you")."""
    opening = _OPENING.match(clause)
    if opening is None or previous is None or not previous.text:
        return clause
    pronoun, contraction = opening.group(1).casefold(), (opening.group(2) or "").casefold()
    if pronoun in _SINGULAR:
        name = _person(previous.text, speakers)
        if name is None:
            return clause
        if pronoun == "her" and not _owns(clause[opening.end() :]):
            return clause  # "her" an object ("Her, I trust"), not whose
        if pronoun in ("his", "her"):
            return f"{name}'s{clause[opening.end() :]}"
        rest = f"'{contraction}" if contraction else ""
        return f"{name}{rest}{clause[opening.end() :]}"
    found = [p for p in _plurals(previous.text, speakers) if not _named_in(p[1], clause)]
    # the last one named, unless its sentence names another ("friends that share your
    # interests": which of the two is not sure)
    if not found or (len(found) > 1 and found[-2][0] == found[-1][0]):
        return clause
    phrase = _in_reply(found[-1][1], previous, speakers)
    phrase = phrase[:1].upper() + phrase[1:]
    if pronoun == "their":
        return f"{phrase}'{clause[opening.end() :]}"
    verb = _PLURAL_VERB.get(contraction)
    rest = f" {verb}" if verb else (f"'{contraction}" if contraction else "")
    return f"{phrase}{rest}{clause[opening.end() :]}"


_OWNED = re.compile(r"\s+[a-z'’-]+(?:\s+[a-z'’-]+)?\s+(?:is|was|has|are|were)\b", re.I)


def _owns(rest: str) -> bool:
    """Whether "her" opens a noun phrase ("Her advocacy is…"), not "Her, I trust"."""
    return _OWNED.match(rest) is not None


def _person(text: str, speakers: Sequence[str]) -> str | None:
    """The one person a text names other than the speakers, or None: none, or anything
    else named beside it ("a pic of Oliver… one of Oscar?", "LeBron… this Finals game")."""
    keys = {normalise_name(s) for s in speakers}
    named = {e.norm: e for e in extract_entities(text, speakers=speakers) if e.norm not in keys}
    if len(named) != 1:
        return None
    (only,) = named.values()
    # a name the gazetteer does not know ("Anton") is typed "other"; a place, a firm or a
    # product is no "he" or "she"
    if only.type == "person" or (only.type == "other" and " " not in only.name):
        return only.name
    return None


def _plurals(text: str, speakers: Sequence[str]) -> list[tuple[int, tuple[str, str]]]:
    """The plural noun phrases of a text, in order, each with the number of its sentence:
    (determiner, rest); a sentence's plural subject, a plural that a relative clause
    describes ("friends that…") and two names joined by "and" ("Harry Potter and GoT")
    have none ("")."""
    found = [
        (m.start(), (m.group(1), m.group(2)))
        for m in _DETERMINED.finditer(text)
        if _a_thing(m.group(2))
    ]
    found += [
        (m.start(1), ("", m.group(1)))
        for pattern in (_OPENS, _DESCRIBED)
        for m in pattern.finditer(text)
        if _a_thing(m.group(1))
        and not any(start <= m.start(1) < start + len(" ".join(p)) for start, p in found)
    ]
    keys = {normalise_name(s) for s in speakers}
    names = [e.name for e in extract_entities(text, speakers=speakers) if e.norm not in keys]
    for first in names:
        for second in names:
            pair = re.search(rf"\b{re.escape(first)}\s+and\s+{re.escape(second)}\b", text)
            if pair is not None and first != second:
                found.append((pair.start(), ("", pair.group())))
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return [(bisect(ends, at), phrase) for at, phrase in sorted(found)]


def _a_thing(phrase: str) -> bool:
    """Whether a plural phrase names things a pronoun can point back to: not "lots" or
    "the others", no function word in it; "ones" only with a word that says which
    ("the little ones", "loved ones")."""
    words = phrase.casefold().split()
    if STOP_EN & set(words):
        return False
    return words[-1] not in _NOT_THINGS or (words[-1] == "ones" and len(words) > 1)


def _named_in(phrase: tuple[str, str], clause: str) -> bool:
    """Whether the clause's first sentence names the phrase's head itself: "They are still
    my favorites" says what they are, and "your favorites" is not who."""
    head = phrase[1].split()[-1]
    first = re.split(r"(?<=[.!?])\s", clause, maxsplit=1)[0]
    return re.search(rf"\b{re.escape(head)}\b", first, re.I) is not None


def _in_reply(phrase: tuple[str, str], previous: Episode, speakers: Sequence[str]) -> str:
    """The phrase as the replying speaker would say it: the other speaker's "your" is the
    reply's "my", their "my" is theirs by name ("Tim's books")."""
    determiner, rest = phrase
    said = determiner.casefold()
    if said == "your":
        return f"my {rest}"
    if said == "my":
        owner = previous.speaker or ""
        named = owner in speakers and owner not in ("user", "assistant")
        return f"{owner}'s {rest}" if named else f"the {rest}"
    if said in ("these", "those"):
        return f"the {rest}"
    return f"{determiner} {rest}".strip()
