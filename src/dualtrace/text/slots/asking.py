"""Which of an attribute's words in a question ask for its value.

An attribute's words put a statement in its domain (`Attribute.about`), but a question may
say one while asking something else. In Chinese, written without spaces, a word may sit
inside a longer one of another sense (工作 "work" in 工作室 "studio", 书 "book" in 书桌
"desk"); a word for one who holds a value (医生, 老师) names that person ("给我拔牙的医生姓什么？",
"医生让我每天吃几片钙片？") unless the asker is said to be one ("我现在是老师吗？"); and
"做什么" or "干什么" followed by a noun asks that noun ("我周末一般做什么运动？": a sport,
not a job).
"""

from __future__ import annotations

import re
from functools import lru_cache

from dualtrace.cjk import CJK, CJK_RUN
from dualtrace.text.lexical import segment
from dualtrace.text.lexicon import lexicon
from dualtrace.text.slots.attribute import Attribute

# Before a holder's word, what says someone is (or becomes) one: a copula or a verb of
# becoming ("我现在是老师吗", "她表姐是哪个医院的医生"), not after a clause that makes
# the holder what is asked about ("我预约的是哪个医生") nor with "which one" or "who"
# between ("是哪位老师").
_IS_ONE = re.compile(
    r"(?<!的)(?:是|当|做|成为|升为|升到|转为|转成)(?:(?!哪位|谁)[^，,。？?]){0,8}$"
)
# A self-introduction's cue: in a question, "我是" asks a name only as "我是谁" ("我是哪儿人来着"
# asks where one is from, "我是哪个科室的？" a department)
_INTRODUCTION = "我是"
# "做什么" / "干什么" asks what follows it when a word follows (not a particle or a mark)
_WHAT_DOING = re.compile(r"[做干]什么$")
_PARTICLES = frozenset("的呢吗啊呀了嘛么")

# A question for a number, code or password that identifies something ("my employee number
# at work", "the PIN of my bank card", "我的工号", "车牌号多少", "wifi 密码"): no attribute's
# value is one (the phone slot holds a model, the employer slot a name), however many of its
# words the question says.
_CODE = re.compile(
    r"\b(?:number|no\.)(?!\s+of\b)|\b(?:id|pin|password|passcode|plate|postcode"
    r"|zip\s+code|reference|tracking\s+code)\b|(?<![哪几])号码|编号|工号|尾号|卡号|车牌|座位号|工位号"
    r"|航班号|车次|单号|学号|账号|密码|验证码|房间号|门牌号|邮编",
    re.I,
)


def asks_a_code(question: str) -> bool:
    """Whether a question asks for a number, code or password that identifies something."""
    return _CODE.search(question) is not None


# A question's Chinese words, each with where it starts and ends in the question.
Words = tuple[tuple[int, int, str], ...]


def asked_by(question: str, attribute: Attribute) -> set[str]:
    """The attribute's words (casefolded) that ask for its value in `question`."""
    words = _words(question)
    said: set[str] = set()
    for m in attribute.about.finditer(question):
        found = m.group(0)
        if not CJK.match(found[:1]) or _asks(question, m.start(), m.end(), words, attribute):
            said.add(found.casefold())
    return said


def _asks(
    question: str,
    start: int,
    end: int,
    words: Words,
    attribute: Attribute,
) -> bool:
    found = question[start:end]
    if not _own_sense(found, start, end, words):
        return False
    if found == _INTRODUCTION:
        return question.startswith("谁", end)
    if attribute.holders is not None and attribute.holders.fullmatch(found):
        return _IS_ONE.search(question[:start]) is not None
    if _WHAT_DOING.search(found):  # "做什么运动" asks a sport; "做什么工作", a job
        after = next((w for s, _, w in words if s == end), "")
        if after and after[0] not in _PARTICLES:
            return attribute.about.fullmatch(after) is not None
    return True


def _own_sense(found: str, start: int, end: int, words: Words) -> bool:
    """Whether a Chinese cue stands in the question as itself: made of whole words (jieba's
    segmentation), or inside a word that keeps its meaning. A character must share an English
    sense with the word (搬 "move" in 搬家 "move house"; not 书 "book" in 书桌 "desk"); a
    longer cue is refused only inside a word the lexicon gives other senses, sharing no
    English word with its own (工作 "work, job" in 工作室 "studio, workshop"; 生日 stays a
    birthday in 过生日)."""
    senses = lexicon().zh_en
    meaning = senses.get(found, ())
    for s, e, word in words:
        if e <= start or s >= end or (start <= s and e <= end):
            continue  # apart from the cue, or one of its whole words
        if len(word) == 2 and word[1] == "叫" and s == start:
            continue  # 猫叫 "meow" in "我的猫叫什么": the cat, then 叫 "is called"
        held = senses.get(word, ())
        if len(found) == 1:
            if not set(meaning) & set(held):
                return False
        elif meaning and held and not _sense_words(meaning) & _sense_words(held):
            return False
    return True


def _sense_words(senses: tuple[str, ...]) -> set[str]:
    return {w for sense in senses for w in sense.casefold().split()}


@lru_cache(maxsize=1024)
def _words(text: str) -> Words:
    """The Chinese words of a text (jieba's segmentation), each with where it starts and ends."""
    out: list[tuple[int, int, str]] = []
    for run in CJK_RUN.finditer(text):
        at = run.start()
        for word in segment(run.group(0)):
            out.append((at, at + len(word), word))
            at += len(word)
    return tuple(out)
