"""What kind of quantity a question asks for, and which kinds a text states.

"How wide is the new desk?" and "新买的书桌有多宽？" both ask for a length; "The new desk
arrived, it's 140 cm wide" states one. A statement holding a quantity of the asked kind is
likelier the answer than one that only shares the question's words, in either language:
units and digits read the same in both ("5.2 m" answers "我家车位有多长？"). Search lifts
such hits a little (`answer_weight`); it never adds one.

Kinds: length, weight, duration, money, age, capacity. Some questions admit more than one
("how long": a length or a duration; "多大": an age or a size).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from dualtrace.text.script import simplified

# A number: digits (with a decimal part or thousands separators), Chinese numerals, or an
# English number word.
_DIGITS = r"\d+(?:[.,]\d+)*"
_CHINESE = r"[零一二两三四五六七八九十百千万半几]+"
_NUMBER_WORDS = (
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "fifteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "hundred",
    "thousand",
    "half",
)
_WORDS = r"\b(?:" + "|".join(_NUMBER_WORDS) + r"|a\s+couple\s+of|a\s+few)\b"
_NUMBER = rf"(?:{_DIGITS}|{_CHINESE}|{_WORDS})"

# What a text says for each kind: a number followed by its unit ...
_UNITS: dict[str, str] = {
    "length": r"(?:mm|cm|m|km|ft|in)\b|(?:metres?|meters?|centimet(?:re|er)s?|"
    r"kilomet(?:re|er)s?|feet|foot|inch(?:es)?|miles?)\b|米|厘米|公分|毫米|公里|千米|寸|尺",
    "weight": r"(?:kg|kgs|g|lbs?)\b|(?:kilos?|kilograms?|grams?|pounds?\s+(?!sterling)|"
    r"stone)\b|斤|公斤|千克|克",
    "duration": r"(?:hours?|hrs?|minutes?|mins?|seconds?|secs?|days?|weeks?|months?|"
    r"years?)\b|个?小时|分钟|秒|天|个?星期|周|个月",
    "money": r"k\b|(?:million|grand|bucks?|dollars?|euros?|yuan|rmb|cny|usd|eur|gbp|quid)\b"
    r"|元|块|万|千",
    "age": r"(?:-|\s)?(?:years?|yrs?)(?:-|\s)?old\b|(?:周)?岁",
    "capacity": r"(?:l|ml)\b|(?:lit(?:re|er)s?|millilit(?:re|er)s?|gallons?)\b|升|毫升",
}
# a number's unit follows it, after a space or a hyphen ("63-day streak")
_AFTER = {kind: re.compile(rf"\s*-?\s*(?:{units})", re.I) for kind, units in _UNITS.items()}
# Each form of number is looked for by a search of its own: one search for the three forms
# tried all of them at every character (~150 us a LongMemEval turn, against ~40 us apart).
# The forms cannot overlap (digits, CJK numerals and whole English words), so the numbers
# found are the same.
_SCANS = (re.compile(_DIGITS), re.compile(_CHINESE), re.compile(_WORDS, re.I))
_LOWER_WORDS = re.compile(_WORDS)  # over an ASCII text's lower case: ~3x faster than re.I
_CHINESE_NUMERALS = re.compile(_CHINESE)
_WORD_STEMS = (*_NUMBER_WORDS, "few", "couple")  # a text holding none has no number word
# ... or said another way, each behind a cheap search for what it cannot do without (a
# pattern opening on a word boundary is tried at every character of the text).
_OTHER_WAYS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "duration",
        re.compile("年"),
        re.compile(  # not 2026年
            r"(?<!\d)(?:\d{1,2}|[一二两三四五六七八九十几半]+)\s*多?年(?!级|代|底|初)"
        ),
    ),
    ("duration", re.compile(r"\d:\d"), re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b")),  # a clock time
    ("money", re.compile("[$¥€£]"), re.compile(r"[$¥€£]\s?\d|\d\s?[$¥€£]")),
    (
        "age",
        re.compile(r"[at](?:ged?|urn)[a-z]*\s", re.I),
        re.compile(rf"\b(?:aged?|turn(?:ed|s|ing)?)\s+{_NUMBER}", re.I),
    ),
)


# What a question asks for: its words, and the kinds that answer them.
_QUESTION_WORDS = (
    (r"\bhow\s+long\b|多长(?!时间)", "length duration"),
    (
        r"\bhow\s+(?:tall|high|wide|far|deep)\b|\b(?:length|width|height|distance)\b"
        r"|多高|多宽|多远|多深|身高|长度|宽度|高度|距离",
        "length",
    ),
    (r"\bhow\s+heavy\b|\bweigh|多重|多少斤|多少公斤|体重", "weight"),
    (
        r"\bhow\s+many\s+(?:hours|minutes|days|weeks|months|years)\b|多久|多长时间|几天|几个月"
        r"|几年|几个小时|多少天",
        "duration",
    ),
    (
        r"\bhow\s+much\b(?!.*\bweigh)|\b(?:cost|price|budget|salary|rent|pay|spend|spent|"
        r"afford)\b|多少钱|多贵|价格|价钱|预算|工资|房租|首付|花了多少|攒多少",
        "money",
    ),
    (r"\bhow\s+old\b|\bwhat\s+age\b|几岁|多少岁|年纪|多大了?(?=[？?]|$)", "age"),
    (r"\bcapacity\b|\bhow\s+many\s+lit(?:re|er)s\b|容量|多少升", "capacity"),
)
# ... and "how many" / "几" / "多少" with a kind's unit: "几公斤", "多少米", "how many kilos"
# (not "how many in total": "in" is an inch only after a number).
_HOW_MANY = tuple(
    (rf"\bhow\s+many\s+(?!in\b)(?:{units})|(?:几|多少)\s*个?(?:{units})", kind)
    for kind, units in _UNITS.items()
)
_ASKED = tuple(
    (re.compile(p, re.I), frozenset(kinds.split())) for p, kinds in _QUESTION_WORDS + _HOW_MANY
)


@lru_cache(maxsize=1024)
def asked_kinds(question: str) -> frozenset[str]:
    """The kinds of quantity a question asks for (empty: none)."""
    kinds: set[str] = set()
    for pattern, answers in _ASKED:
        if pattern.search(question):
            kinds |= answers
    return frozenset(kinds)


@lru_cache(maxsize=8192)
def stated_kinds(text: str) -> frozenset[str]:
    """The kinds of quantity a text states. One pass finds the numbers, and each is read
    with what follows it: a search per kind over the whole text took ~1.3 ms on a long
    turn, a third of `context()`'s time on LongMemEval."""
    return frozenset(_kinds_said(text, _ALL_KINDS))


@lru_cache(maxsize=8192)
def states_any(text: str, kinds: frozenset[str]) -> bool:
    """Whether a text states a quantity of any of `kinds` (`stated_kinds(text) & kinds`),
    reading only those kinds' units and stopping at the first found: a ranking asks this
    of hundreds of candidates for one or two kinds."""
    return next(_kinds_said(simplified(text), kinds), None) is not None


_ALL_KINDS = frozenset(_UNITS)


def _kinds_said(text: str, kinds: frozenset[str]) -> Iterator[str]:
    """Each of `kinds` the text states, once, as it is found."""
    found: set[str] = set()
    afters = {kind: after for kind, after in _AFTER.items() if kind in kinds}
    if afters:
        for number in _numbers(text, text.casefold()):
            ends = [number.end()]
            if _CHINESE_NUMERALS.fullmatch(number.group(0)):  # 三万 may be 三 + the unit 万
                ends = list(range(number.end(), number.start(), -1))
            for kind, after in afters.items():
                if kind not in found and any(after.match(text, end) for end in ends):
                    found.add(kind)
                    yield kind
    for kind, needs, pattern in _OTHER_WAYS:
        if kind in kinds and kind not in found and needs.search(text) and pattern.search(text):
            found.add(kind)
            yield kind


def _numbers(text: str, folded: str) -> Iterator[re.Match[str]]:
    """The numbers of a text (`folded`: its casefold), form by form."""
    digits, chinese, words = _SCANS
    yield from digits.finditer(text)
    if not text.isascii():
        yield from chinese.finditer(text)
    if not any(stem in folded for stem in _WORD_STEMS):
        return
    if text.isascii():  # lower case keeps every offset there
        yield from _LOWER_WORDS.finditer(folded)
    else:
        yield from words.finditer(text)
