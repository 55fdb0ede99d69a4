"""Which language a search key is in, for ranking that tells English and Chinese apart."""

from __future__ import annotations

import re

from dualtrace.cjk import CJK

#: The languages a search key is told apart by (`key_language`), e.g. for a dense offset.
KEY_LANGUAGES = ("en", "zh")

#: A language's standard deviation of cosines below this (a handful of near-identical keys)
#: is taken as this when its scores are standardised (`LanguageQuery`), so that a few keys
#: do not score far above the other language's best.
SPREAD_FLOOR = 0.01
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def key_language(text: str) -> str:
    """ "zh" when Chinese characters make up most of a text's words (a Latin word counts as
    two characters: "我用的是MacBook Pro" is Chinese), else "en".

    >>> key_language("我的车位在地下二层"), key_language("Renewed it with Ping An")
    ('zh', 'en')
    """
    han = len(CJK.findall(text))
    return "zh" if han and han >= 2 * len(_LATIN_WORD.findall(text)) else "en"
