"""The user's own name: how a speaker says it ("my name is Priya", "Hi, I'm Sam", "我叫王磊"),
and how a question that names the user is read as one about the user.

A name is a slot like any other (one value at a time; "call me Sam" replaces "Samuel"). The
read path swaps the user's stored names in a question for "the user" (English) or "我"
(Chinese) before it reads the question (`recall/question.py`), so "Where does Sam work now?"
asks what "Where does the user work now?" asks, and the assistant's "Hi Sam!" no longer
matches it by the name alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from dualtrace.cjk import has_cjk
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.frames import FUNCTION_ZH, TYPED, en, zh
from dualtrace.text.slots.surnames import SURNAMES

# One or two capitalised words ("Priya", "Mary Ann", "O'Neil", "Jean-Luc").
_NAME_EN = r"(?P<v>[A-Z][a-z]+(?:['’-][A-Z]?[a-z]+)?(?:\s+[A-Z][a-z]+(?:['’-][A-Z]?[a-z]+)?)?)\b"
# Two to three Chinese characters beginning with a common surname, or a Latin given name.
_NAME_ZH = rf"(?P<v>(?:[{SURNAMES}][\u4e00-\u9fff]{{1,2}}|[小阿][\u4e00-\u9fff]|[A-Z][a-z]+))"
_AFTER_ZH = r"(?=$|[，。！？、,.!?\s~～（(]|，|呀|啊|哈|哦|吧|就[行好可])"
GREETING_EN = (
    r"(?:hi|hello|hey|hiya|heya|howdy|yo|g['’]day|good\s+(?:morning|afternoon|evening)|"
    r"kia\s+ora|bonjour|ciao|hola|salut|namaste|aloha|hallo|moin|servus)"
)
# An introduction opens its clause: "I'm Omar btw, …", "Lena here, …" — the name is followed
# by a mark, "btw" or "here" (not "I'm Italian", "I'm British": a nationality is no name).
_OPENS_EN = r"^\W*(?:(?:[A-Za-z]+|g['’]day)(?:\s*[:;]-?[)D(P])?[\s,!.~]+)?"
_AFTER_EN = r"(?=\s*(?:[,.!;~—–-]|\bbtw\b|\bhere\b|$))"
_I_AM = r"(?:I['’]m|I\s+am|im|this\s+is)"
_AGAIN = r"(?:\s+again)?(?:\s+(?:lol|haha|lmao))?"  # "Lena here again lol. …"
_NATIONALITY = (
    r"(?![A-Z][a-z]*(?:ish|ese|ian|can|ean|ic)\b)"
    r"(?!(?:Dutch|French|Czech|Greek|Thai|Swiss|Irish|Welsh|Scots?|Kiwi|Aussie|Brit|Dane|Swede|"
    r"Finn|Pole|Turk|Arab|Jewish|Muslim|Catholic|Buddhist|Hindu|Sikh|Christian|Vegan)\b)"
)
# Words that open what is said to someone just greeted, not a role: "Hi Tom, you at work?"
_NOT_SAID_TO = (
    r"(?!(?:you|u|are|is|was|were|how|what|where|when|did|do|can|could|at|in|on|so|just|"
    r"thanks|thank|hope|long|good|great|nice|happy|welcome)\b)"
)


# What says the name after it is the speaker's: a greeting, "I'm" or "this is", or "here"
# after the name ("hey! Priya, …", "I'm Paola, …", "Anselm here, …")
_INTRODUCING = rf"(?={GREETING_EN}\b|{_I_AM}\s|it['’]s\s|[A-Za-z]+\s+here\b)"


def introduction(name: str) -> str:
    """A frame's opening: the speaker's `name` said as theirs (a greeting before it, "I'm"
    or "here") and a comma or a stop, then a role ("hey! Priya, data scientist at Monzo",
    "hi! Hannah. UX designer at Canva", "I'm Paola, pastry chef at …", "Anselm here, science
    teacher at …"); not what is said to someone greeted ("Hi Tom, you at work?")."""
    return (
        rf"^\W*{_INTRODUCING}(?:{GREETING_EN}\b[\s,!.~]*)?(?:(?:{_I_AM}|it['’]s)\s+)?"
        rf"{_NATIONALITY}{name}(?:\s+here)?[,.]\s+(?:an?\s+)?{_NOT_SAID_TO}"
    )


# A message that opens by introducing the speaker, a capitalised name and what they are
INTRODUCES = re.compile(introduction(r"(?-i:[A-Z][a-z]+)"), re.I)

_GREETING_ZH = (
    r"(?:(?:你好|您好|嗨|哈喽|哈啰|大家好|新年好|早上好|上午好|中午好|下午好|晚上好|早安|hi|hello|hey)"
    r"[啊呀哇鸭]?)"
)
# the last character of a word for what one is, not who ("我是学生", "我是宝妈", "我是新手")
_ROLE_END_ZH = "员师生者家工长手人妈爸族迷控党狗"

# Words after 我 that are no name (besides those opening on a function character, `FUNCTION_ZH`)
_NOT_NAME_ZH = (
    "觉得|知道|喜欢|感觉|希望|需要|打算|准备|发现|认为|以为|记得|忘了|想要|现在|刚刚|其实|终于|"
    "居然|竟然|应该|可能|好像|今天|明天|昨天|最近|真的|自己|家里|这边|那边|目前|平时|老公|老婆|"
    "妈妈|爸爸|女儿|儿子|孩子|朋友|同事|老板|领导|公司|感冒|生病|加班|上班|下班|想问|请问"
)


NAME: Attribute = _a(
    "name",
    r"\bmy\s+name\b|\bname['’]s\b|\bcall\s+me\b|\b(?:I['’]m|I\s+am|im|this\s+is|it['’]s)\s+[A-Z]"
    r"|(?-i:\b[A-Z][a-z]+\s+here\b)"
    # ... typed in lower case, at the opening only ("yo, jake here."): not "around here"
    rf"|^\W*(?:[a-z]+[\s,!.~]+)?[a-z]+\s+here{_AGAIN}\b\s*(?:[,.!;~—–-]|$)"
    rf"|^\W*{GREETING_EN}\b[\s,!.~]*(?-i:[A-Z][a-z]+)[,.]"
    r"|我叫|叫我|我的名字|名字是|我是"
    rf"|^\W*(?:{_GREETING_ZH}[\s，,！!~～]*|兄弟\s*)?我[\u4e00-\u9fff]{{2}}\s",
    (
        en(rf"\bmy\s+name\s+is\s+{_NAME_EN}"),
        en(rf"\bmy\s+name['’]s\s+{_NAME_EN}"),
        en(rf"\b(?:just\s+)?call\s+me\s+{_NAME_EN}"),
        # ... at the opening, or after what went before is done with ("traffic was awful 😩
        # anyway hello, I'm Ingrid")
        en(
            rf"(?:^\W*|(?<=[^\w\s,'’])\s*|\b(?:anyway|anyways|oh|ok|okay|so|btw)[\s,]+)"
            rf"{GREETING_EN}\b[\s,!.]*(?:(?:there|all|everyone|again)[\s,!.]+)?"
            rf"(?:I['’]m|I\s+am|this\s+is|it['’]s)\s+{_NAME_EN}(?!['’]s\b)"
        ),
        en(rf"{_OPENS_EN}{_I_AM}\s+{_NATIONALITY}{_NAME_EN}{_AFTER_EN}"),
        # ... typed in lower case, a word no dictionary lists, where it can only be a name:
        # after a greeting or before "btw" ("hi! i'm fatima, …", "i'm kenji btw"), not "i'm
        # pescatarian, so …"
        en(rf"^\W*{GREETING_EN}\b[\s,!.~]*{_I_AM}\s+(?P<v>(?-i:{TYPED})){_AFTER_EN}"),
        en(rf"{_OPENS_EN}{_I_AM}\s+(?P<v>(?-i:{TYPED}))\s+btw\b"),
        en(rf"{_OPENS_EN}{_NATIONALITY}{_NAME_EN}\s+here{_AGAIN}\b(?=\s*(?:[,.!;~—–-]|$))"),
        # ... typed in lower case: "yo, tunde here." (`values.typed_name`)
        en(rf"{_OPENS_EN}(?P<v>{TYPED})\s+here{_AGAIN}\b(?=\s*(?:[,.!;~—–-]|$))"),
        # a greeting, the name, then what the speaker does and where: "hey! Priya, data
        # scientist at Monzo" (a greeting to someone goes on with what is said to them)
        en(rf"{introduction(_NAME_EN)}(?=(?:[\w-]+\s+){{0,3}}?(?:at|@)\s+[A-Z])"),
        zh(rf"我叫{_NAME_ZH}{_AFTER_ZH}"),
        # a given name alone, no surname ("对了我叫晓雯，"): two characters, then a mark
        zh(rf"我叫(?P<v>[\u4e00-\u9fff]{{2}}){_AFTER_ZH}"),
        zh(rf"叫我{_NAME_ZH}{_AFTER_ZH}"),
        zh(rf"我的名字(?:是|叫){_NAME_ZH}{_AFTER_ZH}"),
        zh(rf"^\W*{_GREETING_ZH}[\s，,！!~～]*我是{_NAME_ZH}{_AFTER_ZH}"),
        # ... a given name alone after the greeting ("你好 我是志远 退休了")
        zh(
            rf"^\W*{_GREETING_ZH}[\s，,！!~～]*我是(?![{FUNCTION_ZH}])(?!{_NOT_NAME_ZH})"
            rf"(?P<v>[\u4e00-\u9fff]{{2}})(?<![{_ROLE_END_ZH}])(?=[\s，,。！!])"
        ),
        # "我是李娜，做运营的": with no greeting, a surname and a comma after the name, and
        # not a role that opens on a surname's character (程序员, 王老师, 高中生)
        zh(rf"^\W*我是(?P<v>[{SURNAMES}][\u4e00-\u9fff]{{1,2}})(?<![员师生者家工长手])(?=[，,])"),
        # chat's "我婷婷 最近在搞生酮", "兄弟 我志强 在美团干了五年": the name right after 我 at
        # the opening, then a space (not "我觉得 …", "我今天 …")
        zh(
            rf"^\W*(?:{_GREETING_ZH}[\s，,！!~～]*|兄弟\s*)?我(?![{FUNCTION_ZH}])"
            rf"(?!{_NOT_NAME_ZH})(?P<v>[\u4e00-\u9fff]{{2}})\s"
        ),
    ),
    ("{s}'s name is {v}.", "{s}叫{v}。"),
)


def as_user(question: str, names: Iterable[str]) -> str:
    """`question` with each of the user's `names` (and its possessive) said as the user:
    "the user" in an English question, "我" in a Chinese one. A name shorter than two
    characters, or one that is not in the question, leaves it as it was."""
    zh_question = has_cjk(question)
    user, users = ("我", "我的") if zh_question else ("the user", "the user's")
    for name in sorted({n.strip() for n in names}, key=len, reverse=True):
        if len(name) < 2:
            continue
        if has_cjk(name):
            question = question.replace(name, "我")
            continue
        word = rf"(?<![A-Za-z0-9_-]){re.escape(name)}"  # a Chinese character may touch it
        question = re.sub(rf"{word}['’]s(?![A-Za-z0-9_-])", users, question, flags=re.I)
        question = re.sub(rf"{word}(?![A-Za-z0-9_-])", user, question, flags=re.I)
    return question
