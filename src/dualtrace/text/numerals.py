"""Number words in time expressions: English counts ("three", "a couple of", "a few") and
Chinese numerals below 100 ("十二", "二十三", 两, 几).

    >>> cn_int("二十三"), amount("a few"), amount("两")
    (23, (2, 4), (2, 2))
"""

from __future__ import annotations

__all__ = ["EN_NUMBERS", "amount", "cn_int"]

EN_NUMBERS = {
    w: i + 1
    for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split())
} | {"a": 1, "an": 1}
_CN_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}
_FEW = (2, 4)  # "a few" is three, give or take one


def cn_int(text: str) -> int | None:
    """Digits or a Chinese numeral below 100 ("8", "十二", "二十三") as an int."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, units = text.partition("十")
        high = _CN_DIGITS.get(tens) if tens else 1
        low = _CN_DIGITS.get(units) if units else 0
        return None if high is None or low is None else high * 10 + low
    return _CN_DIGITS.get(text)


def amount(token: str) -> tuple[int, int] | None:
    """How many units a count word means, as a (low, high) range."""
    word = " ".join(token.lower().split())
    if word in ("a few", "few", "几"):
        return _FEW
    if "couple" in word:
        return (2, 2)
    number = EN_NUMBERS.get(word)
    if number is None:
        number = cn_int(word)
    return None if number is None else (number, number)
