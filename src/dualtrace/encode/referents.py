"""Whom a turn's opening pronoun means, when the turn before named it.

A reply often opens on a pronoun for what the other speaker just spoke of ("The kids look so
cute! How did they handle it?" — "They were scared but…"). Its memory, read alone, would
say "They were scared…" about nobody. Where the turn before names exactly what the pronoun
can stand for — one person for he / she (a name, or a relative or role: "your brother",
"my landlord", of the pronoun's gender where the word has one), a plural phrase for they —
the pronoun is replaced by it, in the replying speaker's words ("your teammates" said to
John is "my teammates" in John's reply). Anything less certain is left as said: two people,
two plural phrases or two joined by "and" ("my brothers and my cousins"), a phrase the
clause itself names, a book or a place for "he". In Chinese the same for 他 / 她 (a name, or
a relative or role with whose it is: "你哥" is "我的哥" in the reply) and 他们 / 她们 (a plural
relative, "你爸妈", or two names joined by 和).
"""

from __future__ import annotations

import re
from bisect import bisect
from collections.abc import Sequence

from dualtrace.cjk import has_cjk
from dualtrace.models import Episode
from dualtrace.text.entities import extract_entities, normalise_name
from dualtrace.text.kin import CHINESE_KIN, ENGLISH_WORDS, relation
from dualtrace.text.lexical import STOP_EN
from dualtrace.text.lexicon import lexicon
from dualtrace.text.slots.cues import SINGLE_KIN_ZH

# The pronoun a clause opens on, with its contraction: (pronoun, contraction or "").
_OPENING = re.compile(r"^(he|she|his|her|they|their)(?:['’](re|ve|ll|s|d))?\b", re.I)
_SINGULAR = frozenset({"he", "she", "his", "her"})
_MALE = frozenset({"he", "his"})
# What a contraction says after a plural subject ("they're" → "are"); "'d" (had or would)
# is not guessed: such a clause keeps its pronoun.
_PLURAL_VERB = {"re": "are", "ve": "have", "ll": "will"}
# Who a pronoun can mean besides a name: kin and social relations (`text.kin`) and roles.
_ROLES = frozenset(
    "landlord landlady coach teacher doctor dentist tutor therapist trainer instructor "
    "mentor intern supervisor nurse vet neighbour".split()
)
_MALE_WORDS = frozenset(
    "father brother son husband boyfriend uncle nephew grandfather fiance".split()
)
_FEMALE_WORDS = frozenset(
    "mother sister daughter wife girlfriend aunt niece grandmother landlady".split()
)
_DETERMINER = r"(the|your|my|these|those|two|three|four|five|six|both)"
_HEAD = r"[a-z][a-z-]*[a-z]"
# A plural noun phrase: a determiner, at most two modifiers, a head in -s; not joined to
# another by "and" / "or" ("my brothers and my cousins", "the way dogs and cats do": which
# one is not sure), nor described by what follows ("friends that…").
_FOLLOWS = r"(?!\s+(?:and|or|nor|of|that|which|who)\b)(?!['’])"
# joined: after "and" / "or", or a list's comma after a plural ("my brothers, my cousins")
_JOINED_BEFORE = re.compile(r"(?:\band|\bor|\ws,)\s*$", re.I)
_PLURAL = re.compile(rf"\b{_DETERMINER}\s+((?:[a-z]+\s+){{0,2}}?{_HEAD}s)\b{_FOLLOWS}", re.I)
# One person by a relation or a role ("your brother", "my new neighbour", "the landlord").
_ROLE_WORDS = "|".join(sorted({*ENGLISH_WORDS, *_ROLES}, key=lambda w: (-len(w), w)))
_ONE = re.compile(rf"\b(the|your|my|our)\s+((?:[a-z]+\s+)?(?:{_ROLE_WORDS}))\b{_FOLLOWS}", re.I)
# ... a plural without one that opens a sentence as its subject ("Animals are amazing",
# "Aww, childhood memories can be so powerful"), or that a verb has just taken ("We watched
# dolphins from the ferry", "There've been bees all over the lavender").
_OPENS = re.compile(
    rf"(?:^|[.!?]\s+)(?:(?:yeah|yes|well|oh|aw+|wow|so|honestly|totally|haha+)\W*\s+)?"
    rf"((?:[a-z]+(?<!ly)\s+)?{_HEAD}s)"
    r"\s+(?:are|were|have|can|could|do|make|bring|give|take|keep|look|seem)\b",
    re.I,
)
_TAKEN = re.compile(
    rf"\b(?:[a-z]+ed|saw|got|bought|found|had|been|see|seen|love|grew|grow)\s+({_HEAD}s)\b"
    rf"{_FOLLOWS}"
)
# a plural in a phrase of place is where, not who ("a dealership out in the suburbs")
_PLACE_BEFORE = re.compile(
    r"\b(?:in|at|on|near|around|across|inside|outside|through|over|under|behind|beside|"
    r"along)\s*$",
    re.I,
)
_DESCRIBED = re.compile(rf"\b({_HEAD}s)\s+(?:that|who|which)\b")
_SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")
# heads that end in -s and name no thing a pronoun can point back to
_NOT_THINGS = frozenset(
    "ones others days years weeks months times things lots ways news series always "
    "thanks kinds sorts bits hours minutes yours ours theirs".split()
)
# after a noun, a verb that agrees with it, not the plural it looks like ("your family looks
# cheerful", "the garden needs rain")
_VERBS_AFTER_NOUN = frozenset(
    "looks seems sounds feels means makes needs takes gets goes loves likes wants knows "
    "says gives keeps helps shows comes lives stays smells tastes".split()
)

Phrase = tuple[str, str]  # (determiner or "", the rest)


def with_referent(clause: str, previous: Episode | None, speakers: Sequence[str]) -> str:
    """The clause with its opening pronoun replaced by what the turn before named, or the
    clause as it is. For a turn's first clause (after acknowledgements): a pronoun further
    on may mean what the turn itself named. `speakers` are the conversation's participants
    (never a pronoun's antecedent here: they are "I" and "you")."""
    if previous is None or not previous.text:
        return clause
    if has_cjk(clause[:2]):
        return _with_referent_zh(clause, previous, speakers)
    opening = _OPENING.match(clause)
    if opening is None:
        return clause
    pronoun, contraction = opening.group(1).casefold(), (opening.group(2) or "").casefold()
    rest = clause[opening.end() :]
    if pronoun in _SINGULAR:
        if pronoun == "her" and re.match(r"\s*[,.!?]", rest):
            return clause  # "Her, I trust": not whose
        who = _person(previous, speakers, male=pronoun in _MALE)
        if who is None:
            return clause
        who = who[:1].upper() + who[1:]
        if pronoun in ("his", "her"):
            return f"{who}'s{rest}"
        return who + ("'" + contraction if contraction else "") + rest
    if contraction == "d":
        return clause
    found = [p for p in _plurals(previous.text, speakers) if not _named_in(p[1], clause)]
    # the last one named, unless its sentence names another ("friends that share your
    # interests": which of the two is not sure)
    if not found or (len(found) > 1 and found[-2][0] == found[-1][0]):
        return clause
    phrase = _in_reply(found[-1][1], previous, speakers)
    phrase = phrase[:1].upper() + phrase[1:]
    if pronoun == "their":
        return f"{phrase}'{rest}"
    verb = _PLURAL_VERB.get(contraction)
    return phrase + (" " + verb if verb else "") + rest


def _person(previous: Episode, speakers: Sequence[str], *, male: bool) -> str | None:
    """The one person the turn before names other than the speakers, in the reply's words,
    or None: none, or more than one ("a pic of Oliver… one of Oscar?"). A relation or a role
    of the other gender is not who is meant; a name right after a relation is the same
    person ("my sister Anna")."""
    text = previous.text
    names = _names(text, speakers)
    roles = [
        m
        for m in _ONE.finditer(text)
        if _a_person(m.group(2), male=male) and not _JOINED_BEFORE.search(text[: m.start()])
    ]
    if len(roles) == 1 and len(names) == 1 and text[roles[0].end() :].lstrip().startswith(names[0]):
        roles = []  # "my sister Anna": one person
    if len(names) + len(roles) != 1:
        return None
    if names:
        return names[0]
    return _in_reply((roles[0].group(1), roles[0].group(2)), previous, speakers)


# Where a name the gazetteer does not know ("Anton", typed "other") is a person's: opening a
# sentence before a lowercase word ("Marta finally got…"), or after a verb or word that
# takes a person ("I met Anton", "lunch with Greta"); not "reading Dune", "on Fridays".
_TAKES_PERSON = re.compile(
    r"\b(?:met|meet|meeting|with|told|tell|asked|ask|called|call|texted|invited|visited|"
    r"saw|and|by|from|thanks|love|miss|missed|but|so|because|while|when|then|since|if|"
    rf"{_ROLE_WORDS})\s+$",
    re.I,
)
_TITLE = r"(?:Mr|Mrs|Ms|Dr|Prof)\.?"


_KIN_NAME = re.compile(
    r"(?<!\bmy )(?<!\byour )(?<!\bthe )(?<!\bher )(?<!\bhis )\b(?:"
    + "|".join(w.capitalize() for w in ENGLISH_WORDS if w.isalpha())
    + r")\b(?!['’]s\b)"
)


def _names(text: str, speakers: Sequence[str]) -> list[str]:
    """The people a text names other than the speakers, each once, in order."""
    keys = {normalise_name(s) for s in speakers}
    # a relation said as a name ("then Grandma called", "Mom says hi") is a person too
    found: list[str] = [m.group() for m in _KIN_NAME.finditer(text)]
    for e in extract_entities(text, speakers=speakers):
        if e.norm in keys or e.name in found:
            continue
        if e.type == "person":
            found.append(e.name)
        elif e.type == "other" and len(e.name.split()) <= 2:
            at = text.find(e.name)
            after = text[at + len(e.name) :]
            # a capital opening a sentence says little: "Traffic was insane" is no one
            opens = (
                (at == 0 or re.search(r"[.!?]\s+$", text[:at]))
                and re.match(r"\s+[a-z]", after)
                and e.name.casefold() not in lexicon().en_zh
            )
            if opens or _TAKES_PERSON.search(text[:at]):
                found.append(e.name)
    # "Mr. Patel" is how the reply would name him too
    titled = (re.search(rf"\b{_TITLE}\s+{re.escape(name)}\b", text) for name in found)
    return [t.group() if t else name for t, name in zip(titled, found, strict=True)]


def _a_person(phrase: str, *, male: bool) -> bool:
    """Whether a relation or role names one person (not "kids", "parents"), of the
    pronoun's gender where the word has one."""
    words = phrase.casefold().split()
    if STOP_EN & set(words[:-1]):
        return False
    word = relation(words[-1])
    return word not in ("child", "parents") and _may_be(word, male=male)


def _may_be(relation_word: str, *, male: bool) -> bool:
    """Whether a relation ("sister", in English for either language) can be a he (`male`)
    or a she: not one of the other gender."""
    return relation_word not in (_FEMALE_WORDS if male else _MALE_WORDS)


def _plurals(text: str, speakers: Sequence[str]) -> list[tuple[int, Phrase]]:
    """The plural noun phrases of a text, in order, each with the number of its sentence:
    (determiner, rest); a plural without a determiner and two names joined by "and" ("Harry
    Potter and GoT") have none ("")."""
    found: list[tuple[int, Phrase]] = [
        (m.start(), (m.group(1), m.group(2)))
        for m in _PLURAL.finditer(text)
        if _a_thing(m.group(2))
        and not _JOINED_BEFORE.search(text[: m.start()])
        and not _PLACE_BEFORE.search(text[: m.start()])
    ]
    for pattern in (_OPENS, _TAKEN, _DESCRIBED):
        for m in pattern.finditer(text):
            inside = any(start <= m.start(1) < start + len(" ".join(p)) for start, p in found)
            if _a_thing(m.group(1)) and not inside:
                found.append((m.start(1), ("", m.group(1))))
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
    "the others", no function word in it, no verb after a noun ("family looks"); "ones"
    only with a word that says which ("the little ones", "loved ones")."""
    words = phrase.casefold().split()
    if STOP_EN & set(words) or words[-1].endswith(("ss", "us", "is")):
        return False
    if len(words) > 1 and words[-1] in _VERBS_AFTER_NOUN:
        return False
    return words[-1] not in _NOT_THINGS or (words[-1] == "ones" and len(words) > 1)


def _named_in(phrase: Phrase, clause: str) -> bool:
    """Whether the clause's first sentence names the phrase's head itself: "They are still
    my favorites" says what they are, and "your favorites" is not who."""
    head = phrase[1].split()[-1]
    first = re.split(r"(?<=[.!?])\s", clause, maxsplit=1)[0]
    return re.search(rf"\b{re.escape(head)}\b", first, re.I) is not None


def _in_reply(phrase: Phrase, previous: Episode, speakers: Sequence[str]) -> str:
    """The phrase as the replying speaker would say it: the other speaker's "your" is the
    reply's "my", their "my" is theirs by name ("Tim's books")."""
    determiner, rest = phrase
    said = determiner.casefold()
    if said == "your":
        return f"my {rest}"
    if said == "my":
        owner = _owner(previous, speakers)
        return f"{owner}'s {rest}" if owner else f"the {rest}"
    if said in ("these", "those"):
        return f"the {rest}"
    return f"{determiner} {rest}".strip()


def _owner(previous: Episode, speakers: Sequence[str]) -> str | None:
    """The name the reply gives the other speaker's own ("my cousins" → "Tim's cousins"),
    or None where the turn has no speaker's name (a role: "user", "assistant")."""
    owner = previous.speaker or ""
    return owner if owner in speakers and owner not in ("user", "assistant") else None


# Chinese: the opening pronoun, and the people the turn before names with whose they are
_OPENING_ZH = re.compile(r"^(他们|她们|他|她)(的)?")
_ROLES_ZH = ("班主任", "老师", "医生", "房东", "师傅", "教练", "主管", "经理", "导师", "上司")
# a one-character relative ("你哥", "我妈") names one only after whose it is, as here
_KIN_ZH = "|".join(sorted({*CHINESE_KIN, *_ROLES_ZH, *SINGLE_KIN_ZH}, key=lambda w: (-len(w), w)))
_OWNED_ZH = re.compile(rf"(你们|你|我们|我)(的)?({_KIN_ZH})(们)?")
_PLURAL_ZH = frozenset({"父母", "爸妈", "孩子们"})


def _with_referent_zh(clause: str, previous: Episode, speakers: Sequence[str]) -> str:
    opening = _OPENING_ZH.match(clause)
    if opening is None:
        return clause
    pronoun, whose = opening.group(1), opening.group(2) or ""
    plural = pronoun.endswith("们")
    text = previous.text
    owned = [m for m in _OWNED_ZH.finditer(text) if _fits_zh(m, pronoun, plural=plural)]
    keys = {normalise_name(s) for s in speakers}
    names = [
        e.name
        for e in extract_entities(text, speakers=speakers)
        if e.type == "person" and e.norm not in keys
    ]
    if plural:
        pairs = [f"{a}和{b}" for a in names for b in names if a != b and f"{a}和{b}" in text]
        found = [*pairs, *(_owner_zh(m, previous, speakers) for m in owned)]
    else:
        found = [*names, *(_owner_zh(m, previous, speakers) for m in owned)]
    if len(found) != 1 or found[0] in clause:
        return clause
    return found[0] + ("的" if whose else "") + clause[opening.end() :]


def _fits_zh(m: re.Match[str], pronoun: str, *, plural: bool) -> bool:
    """Whether a relative or role can be what the pronoun means: a plural one (爸妈, 同事们)
    for 他们 / 她们, a single one of the pronoun's gender, where the word has one, for 他 / 她."""
    word, many = m.group(3), bool(m.group(4))  # "你们班主任" is one teacher
    if plural:
        return many or word in _PLURAL_ZH
    if many or word in _PLURAL_ZH:
        return False
    return _may_be(relation(SINGLE_KIN_ZH.get(word, word)), male=pronoun == "他")


def _owner_zh(m: re.Match[str], previous: Episode, speakers: Sequence[str]) -> str:
    """The relative as the replying speaker says it: "你哥" is "我的哥", the other speaker's
    "我妈" is theirs by name ("小林的妈")."""
    owner, word = m.group(1), SINGLE_KIN_ZH.get(m.group(3), m.group(3)) + (m.group(4) or "")
    if owner in ("你", "你们"):
        return f"{'我们' if owner == '你们' else '我'}的{word}"
    speaker = _owner(previous, speakers)
    return f"{speaker}的{word}" if speaker else word
