"""Which language a search key is in, for ranking that tells English and Chinese apart."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dualtrace.cjk import CJK

#: The languages a search key is told apart by (`key_language`), e.g. for a dense offset.
KEY_LANGUAGES = ("en", "zh")

#: A language's standard deviation of cosines below this (a handful of near-identical keys)
#: is taken as this when its scores are standardised (`LanguageQuery`), so that a few keys
#: do not score far above the other language's best.
SPREAD_FLOOR = 0.01

#: How many keys' worth of weight all the user's keys carry in a language's mean and spread
#: (`standardising`): a language with a handful of keys is standardised mostly by all of
#: them, not by its own few, whose best would otherwise score as if it matched.
PRIOR_KEYS = 20


@dataclass(frozen=True)
class Cosines:
    """How a query scores some keys: how many, their mean cosine and its variance."""

    count: int
    mean: float
    variance: float


def standardising(language: Cosines, every: Cosines) -> tuple[float, float]:
    """The mean and spread a language's cosines are standardised by: its own, drawn towards
    those of all the user's keys (`every`) by `PRIOR_KEYS`, so that a language of a few keys
    (an English user's one Chinese remark) does not put its best key at the top whatever it
    says."""
    total = language.count + PRIOR_KEYS
    mean = (language.count * language.mean + PRIOR_KEYS * every.mean) / total
    variance = (language.count * language.variance + PRIOR_KEYS * every.variance) / total
    return mean, max(variance**0.5, SPREAD_FLOOR)


_LATIN_WORD = re.compile(r"[A-Za-z]+")


def key_language(text: str) -> str:
    """ "zh" when Chinese characters make up most of a text's words (a Latin word counts as
    two characters: "我用的是MacBook Pro" is Chinese), else "en".

    >>> key_language("我的车位在地下二层"), key_language("Renewed it with Ping An")
    ('zh', 'en')
    """
    han = len(CJK.findall(text))
    return "zh" if han and han >= 2 * len(_LATIN_WORD.findall(text)) else "en"
