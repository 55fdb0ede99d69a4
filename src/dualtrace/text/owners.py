"""Whose matter a question or a text is: the speaker's own, or another person's.

People talk about other people's things as much as their own: a friend's new car beside
"our parking space", a colleague's flat beside "our down payment", a wife's passport beside
"my passport". Such a turn shares the question's words (and, across languages, often more of
them than the answer does), so it can rank above the answer. `asks_about_self` tells a
question about the speaker's own matter ("What breed is the puppy we got?", "我的护照什么时候
过期？") from one about someone else's ("What does my cousin do?", "我儿子今年几岁？");
`about_other` tells a text that opens on another person's matter ("Jess's dog Max ate…",
"The user's colleague's kid plays…", "老婆的同事刚买了辆…", "用户同学在北京买了房") and in
whose first sentence the speaker takes no part ("My sister came with me" is the speaker's too).
Ranking lowers the second kind for the first (`owner_weight`). Only the opening counts: a
person named further in is an object or a place ("去奶奶家吃饭"), not whose matter it is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from dualtrace.cjk import has_cjk
from dualtrace.text.entities import extract_entities
from dualtrace.text.gazetteer import FIRST_NAMES
from dualtrace.text.question_cues import OTHER_PERSON, speaks_as_user
from dualtrace.text.script import simplified
from dualtrace.text.slots.cues import (
    FIRST_PERSON_EN,
    KIN_MODIFIERS_EN,
    KIN_WORDS_EN,
    KIN_WORDS_ZH,
    SINGLE_KIN_AFTER_OWNER_ZH,
)
from dualtrace.text.slots.surnames import SURNAMES

# People other than the speaker: kin and friends (the slots' words), and who a household
# deals with.
_PEOPLE_EN = (
    rf"{KIN_WORDS_EN}|friends|colleagues|neighbou?rs|landlord|landlady|teacher|doctor|"
    r"cleaner|nanny|babysitter"
)
_MODIFIER_EN = rf"(?:(?:{KIN_MODIFIERS_EN}|old)\s+)?"
# A text opening on another person: "Jess's dog", "The Hendersons' cat", "My sister Lena",
# "The user's colleague's kid", "Our neighbour's…", "He…", "Mum said…".
# A reply's first word does not change whose matter it opens on ("Yeah, my sister…", "对，她…").
_INTERJECTION_EN = (
    r"(?:(?:yeah|yes|yep|no|nope|oh|well|ok|okay|so|and|but|also|btw|haha)\b[,.!]*\s+)?"
)
_INTERJECTION_ZH = r"(?:[对嗯哦啊好是诶哎呀哈]{1,3}[，,！!。～~]\s*)?"
_OTHER_OPENING_EN = re.compile(
    rf"^\W*{_INTERJECTION_EN}(?:"
    rf"(?:(?:the\s+user['’]s|my|our|the)\s+)?{_MODIFIER_EN}(?:{_PEOPLE_EN})\b"
    r"|(?:the\s+)?(?P<name>[A-Z][\w-]*)(?:['’]s|s['’])(?=\s)"
    r"|(?:he|she|they|his|her|their)\b"
    r")",
    re.I,
)
# A text opening on someone by their first name, as the subject of what they did ("Maggie
# also got a new boss", "Lily on the design team got promoted", "Lena bought a sofa bed"):
# a name the list of first names knows, then (after a short "on / from / at" phrase) a verb.
_SUBJECT_EN = re.compile(
    rf"^\W*{_INTERJECTION_EN}(?-i:(?P<name>[A-Z][a-z]+))"
    r"(?:\s+(?:on|from|at|in)\s+(?:the|my|our|her|his)\s+[a-z]+(?:\s+[a-z]+)?)?"
    r"\s+(?:(?:also|just|finally|still|already|recently|now|actually)\s+)?"
    r"(?:got|gets|had|has|went|goes|said|says|told|tells|bought|buys|took|takes|made|gave|came"
    r"|left|won|lost|sent|met|found|is|was|moved|started|lives|works|thinks|wants"
    r"|[a-z]{2,}ed)\b",
    re.I,
)
# Words that take "'s" without being a person's name ("It's", "What's", "Today's").
_NOT_NAMES = frozenset(
    "it that what there here let who where how when he she today tonight tomorrow yesterday "
    "everyone everybody nobody somebody someone this one year week month user".split()
)
# "我妈说…", "用户爸也是…", "我弟在…": a parent or sibling by one character, after whose
# they are
_PEOPLE_ZH = (
    rf"(?:{KIN_WORDS_ZH}|保安|保姆|保洁|师傅|老师|医生|房东|同桌|客户|网友"
    r"|跑友|球友|驴友|牌友|钓友|棋友|病友|车友|书友|饭搭子|搭子"
    rf"|{SINGLE_KIN_AFTER_OWNER_ZH})"
)
# A person by the name friends call them, whose matter follows: "Leo的车", "小林家的狗",
# "老王说", "小唐也缺铁", "Lena一直带狗去…" (小 or 老 before a surname; a Latin name), or
# after a word for a friend ("跑友老李全马跑进了…")
_NAMED_ZH = (
    rf"(?:[A-Z][a-z]+|[小老][{SURNAMES}])"
    r"(?:家的?|的|也|说|他|她|一直|又|刚|已经|还|最近|买了|去了|换了)"
)
_OTHER_OPENING_ZH = re.compile(
    rf"^\W*{_INTERJECTION_ZH}(?:(?:(?:用户|我们?|咱们?|咱家|我家)的?)?{_PEOPLE_ZH}"
    rf"(?:[小老][{SURNAMES}]|[A-Z][a-z]+)?|[他她]们?|(?P<named>{_NAMED_ZH}))"
)
# A Chinese opening that says whose thing the clause is about ("小周的工号是…", "小林家的狗"):
# the rest of the sentence may bring the speaker in ("…，他比我晚来半年") without making
# the thing theirs, so only its first clause is read for the speaker.
_OWNED_ZH = re.compile(r"(?:家的?|的)$")
_CLAUSE_END = re.compile(r"[,，.;!?。；！？\n]")
# The speaker takes part: "…and I", "with me", "我和…", "用户跟…".
_SPEAKER_ZH = re.compile(r"我|咱|用户")
_SENTENCE_END = re.compile(r"[.;!?。；！？\n]")
# A question whose answer is a person ("Who waters our plants?", "谁帮忙浇花？").
_WHO = re.compile(r"\b(?:who|whom|whose)\b|谁|哪位", re.I)
# How much of a text `about_other` reads (and caches): its opening and first sentence.
OPENING = 400


@lru_cache(maxsize=4096)
def asks_about_self(question: str) -> bool:
    """Whether a question asks about the speaker's own matter: it speaks in the first person
    and names no other person whose matter it could be ("my cousin", "老婆她爸", "he"), nor
    asks for one ("Who waters our plants?")."""
    if _WHO.search(question) or not speaks_as_user(question) or OTHER_PERSON.search(question):
        return False
    if has_cjk(question):
        return not re.search(rf"(?:我们?|咱们?|用户)的?{_PEOPLE_ZH}", question)
    return not re.search(rf"\b(?:my|our)\s+{_MODIFIER_EN}(?:{_PEOPLE_EN})\b", question, re.I)


def about_other(text: str) -> bool:
    """Whether a text opens on another person's matter, the speaker taking no part in its
    first sentence (read within its first OPENING characters)."""
    return _about_other(simplified(text[:OPENING]))


@lru_cache(maxsize=16384)
def _about_other(text: str) -> bool:
    if has_cjk(text[:40]):
        m = _OTHER_OPENING_ZH.match(text)
        if m is None:
            return False
        owned = m.group("named") and _OWNED_ZH.search(m.group("named"))
        first = (_CLAUSE_END if owned else _SENTENCE_END).split(text[m.end() :], maxsplit=1)[0]
        return not _SPEAKER_ZH.search(first)
    m = _OTHER_OPENING_EN.match(text)
    if m is None:
        m = _SUBJECT_EN.match(text)
        if m is None or not _person(m.group("name"), text):
            return False
    name = m.group("name")
    if name and (not name[0].isupper() or name.casefold() in _NOT_NAMES):
        return False  # "the user's …", "It's …": no one else's
    first = _SENTENCE_END.split(text[m.end() :], maxsplit=1)[0]
    return not re.search(rf"{FIRST_PERSON_EN.pattern}|\bthe\s+user\b", first, re.I)


def _person(name: str, text: str) -> bool:
    """Whether `name`, opening `text`, is a person's: a first name the list knows, or one
    the entity reader takes for a person's."""
    if name.casefold() in FIRST_NAMES:
        return True
    return any(e.name == name and e.type == "person" for e in extract_entities(text[:80]))
