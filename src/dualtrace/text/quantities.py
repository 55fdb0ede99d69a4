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
from functools import lru_cache

# A number: digits (with a decimal part or thousands separators), Chinese numerals, or an
# English number word.
_NUMBER = (
    r"(?:\d+(?:[.,]\d+)*|[零一二两三四五六七八九十百千万半几]+|"
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|hundred|thousand|half|a\s+couple\s+of|a\s+few)\b)"
)

# What a text says for each kind: a number with its unit (or a currency sign, a clock time).
_STATED: dict[str, re.Pattern[str]] = {
    "length": re.compile(
        rf"{_NUMBER}\s*(?:(?:mm|cm|m|km|ft|in)\b|(?:metres?|meters?|centimet(?:re|er)s?|"
        r"kilomet(?:re|er)s?|feet|foot|inch(?:es)?|miles?)\b|米|厘米|公分|毫米|公里|千米|寸|尺)",
        re.I,
    ),
    "weight": re.compile(
        rf"{_NUMBER}\s*(?:(?:kg|kgs|g|lbs?)\b|(?:kilos?|kilograms?|grams?|pounds?\s+(?!sterling)|"
        r"stone)\b|斤|公斤|千克|克)",
        re.I,
    ),
    "duration": re.compile(
        rf"{_NUMBER}\s*(?:(?:hours?|hrs?|minutes?|mins?|seconds?|secs?|days?|weeks?|months?|"
        r"years?)\b|个?小时|分钟|秒|天|个?星期|周|个月)"
        r"|(?<!\d)(?:\d{1,2}|[一二两三四五六七八九十几半]+)\s*多?年(?!级|代|底|初)"  # not 2026年
        r"|\b\d{1,2}:\d{2}(?::\d{2})?\b",
        re.I,
    ),
    "money": re.compile(
        rf"[$¥€£]\s?\d|\d\s?[$¥€£]|{_NUMBER}\s*(?:k\b|(?:million|grand|bucks?|dollars?|euros?|"
        r"yuan|rmb|cny|usd|eur|gbp|quid)\b|元|块|万|千)",
        re.I,
    ),
    "age": re.compile(
        rf"{_NUMBER}\s*(?:-|\s)?(?:years?|yrs?)(?:-|\s)?old\b|\b(?:aged?|turn(?:ed|s|ing)?)\s+"
        rf"{_NUMBER}|{_NUMBER}\s*(?:周)?岁",
        re.I,
    ),
    "capacity": re.compile(
        rf"{_NUMBER}\s*(?:(?:l|ml)\b|(?:lit(?:re|er)s?|millilit(?:re|er)s?|gallons?)\b|升|毫升)",
        re.I,
    ),
}

# What a question asks for: its words, and the kinds that answer them.
_QUESTION_WORDS = (
    (r"\bhow\s+long\b|多长(?!时间)", "length duration"),
    (r"\bhow\s+(?:tall|high|wide|far|deep)\b|\b(?:length|width|height|distance)\b"
     r"|多高|多宽|多远|多深|身高|长度|宽度|高度|距离", "length"),
    (r"\bhow\s+heavy\b|\bweigh|多重|多少斤|多少公斤|体重", "weight"),
    (r"\bhow\s+many\s+(?:hours|minutes|days|weeks|months|years)\b|多久|多长时间|几天|几个月"
     r"|几年|几个小时|多少天", "duration"),
    (r"\bhow\s+much\b(?!.*\bweigh)|\b(?:cost|price|budget|salary|rent|pay|spend|spent|"
     r"afford)\b|多少钱|多贵|价格|价钱|预算|工资|房租|首付|花了多少|攒多少", "money"),
    (r"\bhow\s+old\b|\bwhat\s+age\b|几岁|多少岁|年纪|多大了?(?=[？?]|$)", "age"),
    (r"\bcapacity\b|\bhow\s+many\s+lit(?:re|er)s\b|容量|多少升", "capacity"),
)  # fmt: skip
_ASKED = tuple((re.compile(p, re.I), frozenset(kinds.split())) for p, kinds in _QUESTION_WORDS)


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
    """The kinds of quantity a text states."""
    return frozenset(kind for kind, pattern in _STATED.items() if pattern.search(text))
