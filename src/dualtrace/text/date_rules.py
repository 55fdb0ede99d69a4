"""The rules `text/dates.py` scans with: English and Chinese time-expression patterns, each
with how to resolve a match against the day the text was said (`dates.py`'s docstring gives
the rules for the ambiguous cases)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from dualtrace.text.numerals import EN_NUMBERS, amount, cn_int
from dualtrace.text.periods import (
    Range,
    add_months,
    monday,
    month_end,
    one_day,
    period,
    point,
    season,
    season_index,
    weekday_after,
    weekday_before,
    whole_month,
    whole_year,
)

__all__ = ["RULES", "Rule", "group"]

_Resolver = Callable[[re.Match[str], date], Range | None]


@dataclass(frozen=True)
class Rule:
    """A pattern and how to resolve its matches; `relative` unless it names an explicit year.

    `ahead`, where given, resolves instead when the clause of the match looks ahead.
    """

    pattern: re.Pattern[str]
    resolve: _Resolver
    relative: bool = True
    ahead: _Resolver | None = None


# --- vocabulary ---------------------------------------------------------------------------

_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_INDEX = {name: i for i, name in enumerate(_WEEKDAY_NAMES)} | {
    c: i for i, c in enumerate("一二三四五六日")
}
_WEEKDAY_INDEX["天"] = 6
_MONTH_NAMES = (
    "january february march april may june july august september october november december"
).split()
_MONTH_INDEX = {name[:3]: i + 1 for i, name in enumerate(_MONTH_NAMES)}
_AMBIGUOUS_MONTHS = frozenset({"may", "march", "mar"})
_SEASONS = {"spring": 0, "summer": 1, "autumn": 2, "fall": 2, "winter": 3} | {
    c: i for i, c in enumerate("春夏秋冬")
}
_DAY_WORDS = {
    "today": 0,
    "tonight": 0,
    "this morning": 0,
    "this afternoon": 0,
    "this evening": 0,
    "yesterday": -1,
    "last night": -1,
    "the day before yesterday": -2,
    "tomorrow": 1,
    "the day after tomorrow": 2,
    "今天": 0,
    "今日": 0,
    "今晚": 0,
    "今早": 0,
    "昨天": -1,
    "昨日": -1,
    "昨晚": -1,
    "前天": -2,
    "大前天": -3,
    "明天": 1,
    "明日": 1,
    "明晚": 1,
    "明早": 1,
    "后天": 2,
    "大后天": 3,
}
_REL_OFFSETS = {
    "last": -1,
    "this": 0,
    "next": 1,
    "before last": -2,
    "after next": 2,
    "上上": -2,
    "上": -1,
    "这": 0,
    "本": 0,
    "下": 1,
    "下下": 2,
}
_YEAR_WORDS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2, "大后年": 3}
_UNITS = {
    "天": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "周末": "weekend",
    "月": "month",
    "年": "year",
}
_DIRECTIONS = {
    "ago": -1,
    "in": 1,
    "from now": 1,
    "前": -1,
    "以前": -1,
    "之前": -1,
    "后": 1,
    "以后": 1,
    "之后": 1,
}


def _norm(words: str) -> str:
    """Lower-case with runs of whitespace collapsed, the form the vocabularies are keyed by."""
    return " ".join(words.lower().split())


def group(match: re.Match[str], name: str) -> str | None:
    """The text of group `name`, or None when it did not match or the pattern lacks it."""
    return match.groupdict().get(name)


def _month_number(token: str) -> int | None:
    """1-12 from an English month name or abbreviation, digits, or a Chinese numeral."""
    return _MONTH_INDEX.get(token.lower()[:3]) or cn_int(token)


# A capitalised "May"/"March" right after one of these is a month even before a pronoun.
_MONTH_PREPOSITION = re.compile(
    r"(?<![A-Za-z])(?:in|since|until|till|by|during|of|from|through|early|late|mid|before|after)"
    r"[\s-]+$",
    re.IGNORECASE | re.ASCII,
)
_VERB_CONTEXT = re.compile(
    r"\s+(?:i|we|you|he|she|they|it|the|be|not|have|all|your|our)(?![A-Za-z])",
    re.IGNORECASE | re.ASCII,
)


def _not_a_month(match: re.Match[str]) -> bool:
    """Whether an ambiguous "may"/"march" in `match` is the verb, not the month."""
    word = match["mon"]
    if word.lower() not in _AMBIGUOUS_MONTHS or group(match, "year"):
        return False
    if group(match, "day") is not None and match.start("day") > match.start("mon"):
        return False  # "may 8": a day number follows
    if not word[0].isupper():
        return True
    if group(match, "rel") or group(match, "day") is not None:
        return False
    before = match.string[max(0, match.start() - 12) : match.start()]
    if _MONTH_PREPOSITION.search(before):
        return False
    return _VERB_CONTEXT.match(match.string, match.end()) is not None


# --- resolvers ------------------------------------------------------------------------------


def _resolve_day_word(match: re.Match[str], anchor: date) -> Range:
    return one_day(anchor + timedelta(days=_DAY_WORDS[_norm(match[0])]))


def _unit(token: str) -> str:
    return _UNITS.get(token) or token.lower().removesuffix("s")


def _resolve_period(match: re.Match[str], anchor: date) -> Range:
    return period(anchor, _unit(match["unit"]), _REL_OFFSETS[_norm(match["rel"])])


def _resolve_weekday(match: re.Match[str], anchor: date) -> Range:
    weekday = _WEEKDAY_INDEX[match["wd"].lower()]
    rel = group(match, "rel")
    if rel is None:  # bare: the most recent one strictly before the anchor
        return one_day(weekday_before(anchor, weekday))
    return one_day(monday(anchor) + timedelta(weeks=_REL_OFFSETS[_norm(rel)], days=weekday))


def _resolve_weekday_ahead(match: re.Match[str], anchor: date) -> Range:
    """A bare weekday looking ahead is the first one strictly after the anchor."""
    if group(match, "rel") is not None:
        return _resolve_weekday(match, anchor)
    return one_day(weekday_after(anchor, _WEEKDAY_INDEX[match["wd"].lower()]))


def _resolve_bare_weekend(match: re.Match[str], anchor: date) -> Range:
    return period(anchor, "weekend", 0 if anchor.weekday() >= 5 else -1)


def _resolve_weekend_ahead(match: re.Match[str], anchor: date) -> Range:
    """The coming weekend: the anchor's week's, or the next week's when said on its Sunday."""
    return period(anchor, "weekend", 1 if anchor.weekday() == 6 else 0)


def _resolve_month_end_ahead(match: re.Match[str], anchor: date) -> Range:
    """月底, "the end of the month": the last day of the anchor's month (下个月底: the next's)."""
    rel = _norm(group(match, "rel") or "this")
    return one_day(month_end(add_months(anchor, 1 if rel in ("next", "下", "下个") else 0)))


def _only_ahead(match: re.Match[str], anchor: date) -> None:
    """For expressions read only where the text looks ahead ("the weekend", 月底)."""
    return None


_FIXED = ("year", "yp", "rel")  # a match with any of these names its own year


def _or_next_year(resolve: _Resolver) -> _Resolver:
    """`resolve`, looking ahead: a month or day named without a year that is already over
    ("in March" said in May, "5月8日" said on 10 May) is next year's."""

    def ahead(match: re.Match[str], anchor: date) -> Range | None:
        found = resolve(match, anchor)
        if found is None or found[1] >= anchor or any(map(match.groupdict().get, _FIXED)):
            return found
        try:
            return resolve(match, add_months(anchor, 12))
        except ValueError:  # 29 February without a leap year next: keep this year's
            return found

    return ahead


def _resolve_quantity(match: re.Match[str], anchor: date) -> Range | None:
    unit, count = _unit(match["unit"]), match["n"]
    if count == "半":  # 半年 is six months, 半个月 fifteen days
        if unit not in ("year", "month"):
            return None
        unit, bounds = ("month", (6, 6)) if unit == "year" else ("day", (15, 15))
    elif match["unit"] == "月" and group(match, "ge") is None:
        return None  # 5月前 is "before May", not "5 months ago"
    else:
        counted = amount(count)
        if counted is None:
            return None
        bounds = counted
    sign = _DIRECTIONS[_norm(match["dir"])]
    near, far = (point(anchor, unit, sign * n) for n in bounds)
    return (min(near[0], far[0]), max(near[1], far[1]), near[2])


def _resolve_month_name(match: re.Match[str], anchor: date) -> Range | None:
    if _not_a_month(match):
        return None
    month = _MONTH_INDEX[match["mon"].lower()[:3]]
    rel, year = _norm(group(match, "rel") or "this"), anchor.year
    if rel == "last" and month >= anchor.month:
        year -= 1
    elif rel == "next" and month <= anchor.month:
        year += 1
    return whole_month(year, month)


def _resolve_calendar(match: re.Match[str], anchor: date) -> Range | None:
    """A year, a month of a year, or a day of a month of a year, each part optional."""
    if group(match, "mon") is not None and _not_a_month(match):
        return None
    explicit, prefix = group(match, "year"), group(match, "yp")
    year = int(explicit) if explicit else anchor.year + _YEAR_WORDS.get(prefix or "今年", 0)
    month_token = group(match, "mon")
    if month_token is None:
        return whole_year(year)
    month = _month_number(month_token)
    if month is None:
        return None
    day_token = group(match, "day")
    if day_token is None:
        return whole_month(year, month)
    day = cn_int(day_token)
    return None if day is None else one_day(date(year, month, day))


def _resolve_season(match: re.Match[str], anchor: date) -> Range:
    which = _SEASONS[match["season"].lower()]
    explicit = group(match, "year")
    if explicit is not None:
        return season(int(explicit) * 4 + which)
    current = season_index(anchor)
    this = current if current % 4 == which else anchor.year * 4 + which
    rel = _norm(match["rel"])
    if rel == "last":
        return season(current - ((current - which - 1) % 4 + 1))
    if rel == "next":
        return season(current + ((which - current - 1) % 4 + 1))
    return season(this + 4 * _YEAR_WORDS.get(rel, 0))


# --- patterns -------------------------------------------------------------------------------

_L, _R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"


def _en(pattern: str) -> re.Pattern[str]:
    # ASCII-only case folding: "ſunday" must not match and then miss the vocabulary lookup.
    return re.compile(_L + pattern + _R, re.IGNORECASE | re.ASCII)


def _words(phrases: Iterable[str]) -> str:
    """An alternation of phrases, longest first, with any whitespace between their words."""
    ordered = sorted(phrases, key=len, reverse=True)
    return "|".join(r"\s+".join(map(re.escape, p.split())) for p in ordered)


_WD = "|".join(_WEEKDAY_NAMES)
_MON_FULL = "|".join(_MONTH_NAMES)
_MON_ANY = _MON_FULL + "|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec"
_UNIT_WORDS = "week|weekend|month|year"
_SEASON_WORDS = "spring|summer|autumn|fall|winter"
_NUM = r"\d{1,4}|" + _words(["a couple of", "a couple", "couple of", "a few", "few", *EN_NUMBERS])
_EN_DAY = r"(?P<day>3[01]|[12][0-9]|0?[1-9])(?:st|nd|rd|th)?"
_EN_YEAR = r"(?P<year>(?:1[89]|2[01])[0-9]{2})"
_EN_UNIT = r"(?P<unit>days?|weeks?|weekends?|months?|years?)"
# "in 2022", "since 2019": fixed-width lookbehinds keep the preposition out of the mention.
_YEAR_AFTER = "|".join(
    rf"(?<={w}\s)(?<![A-Za-z]{w}\s)"
    for w in "in during since until till by from of throughout before after".split()
)
# "the week before last Friday" is about Friday, not the week before last.
_NOT_A_UNIT_NEXT = rf"(?!\s+(?:{_WD}|{_UNIT_WORDS}|night|{_MON_FULL}|{_SEASON_WORDS}){_R})"

# "every (other) Friday", "each Friday", "a Friday" name no particular Friday.
_NO_HABIT = r"(?<!\bevery\s)(?<!\bevery\sother\s)(?<!\beach\s)(?<!\ba\s)"
# "twice in a week", "three times in a month" are rates, not dates.
_NOT_A_RATE = r"(?<!\bonce\s)(?<!\btwice\s)(?<!\btimes\s)"

_EN_RULES = (
    Rule(_en(_words(w for w in _DAY_WORDS if w.isascii())), _resolve_day_word),
    Rule(_en(rf"(?P<rel>last|this|next)\s+(?P<unit>{_UNIT_WORDS})"), _resolve_period),
    Rule(
        _en(
            rf"the\s+(?P<unit>{_UNIT_WORDS})\s+(?P<rel>before\s+last|after\s+next)"
            + _NOT_A_UNIT_NEXT
        ),
        _resolve_period,
    ),
    Rule(
        _en(_NO_HABIT + rf"(?:(?P<rel>last|this|next)\s+)?(?P<wd>{_WD})"),
        _resolve_weekday,
        ahead=_resolve_weekday_ahead,
    ),
    Rule(
        _en(r"(?:the|this\s+coming)\s+(?:coming\s+)?weekend(?!\s+(?:of|before|after)(?![A-Za-z]))"),
        _only_ahead,
        ahead=_resolve_weekend_ahead,
    ),
    Rule(
        _en(r"(?:the\s+)?end\s+of\s+(?:the|(?P<rel>this|next))\s+month"),
        _only_ahead,
        ahead=_resolve_month_end_ahead,
    ),
    Rule(_en(rf"(?P<n>{_NUM})\s+{_EN_UNIT}\s+(?P<dir>ago)"), _resolve_quantity),
    Rule(_en(_NOT_A_RATE + rf"(?P<dir>in)\s+(?P<n>{_NUM})\s+{_EN_UNIT}"), _resolve_quantity),
    Rule(_en(rf"(?P<n>{_NUM})\s+{_EN_UNIT}\s+(?P<dir>from\s+now)"), _resolve_quantity),
    Rule(
        _en(rf"(?P<mon>{_MON_ANY})\.?\s+{_EN_DAY}(?:,?\s+{_EN_YEAR})?"),
        _resolve_calendar,
        ahead=_or_next_year(_resolve_calendar),
    ),
    Rule(
        _en(rf"(?:the\s+)?{_EN_DAY}\s+(?:of\s+)?(?P<mon>{_MON_ANY})(?:\.?,?\s+{_EN_YEAR})?"),
        _resolve_calendar,
        ahead=_or_next_year(_resolve_calendar),
    ),
    Rule(_en(rf"(?P<mon>{_MON_ANY})\.?,?\s+(?:of\s+)?{_EN_YEAR}"), _resolve_calendar),
    Rule(
        _en(rf"(?:(?P<rel>last|this|next)\s+)?(?P<mon>{_MON_FULL})"),
        _resolve_month_name,
        ahead=_or_next_year(_resolve_month_name),
    ),
    Rule(_en(rf"(?:{_YEAR_AFTER}){_EN_YEAR}"), _resolve_calendar),
    Rule(_en(rf"(?P<rel>last|this|next)\s+(?P<season>{_SEASON_WORDS})"), _resolve_season),
    Rule(_en(rf"(?:the\s+)?(?P<season>{_SEASON_WORDS})\s+(?:of\s+)?{_EN_YEAR}"), _resolve_season),
    Rule(
        re.compile(
            r"(?<![0-9/-])(?P<year>(?:1[89]|2[01])[0-9]{2})(?P<sep>[-/])(?P<mon>1[0-2]|0?[1-9])"
            r"(?P=sep)(?P<day>3[01]|[12][0-9]|0?[1-9])(?![0-9])"
        ),
        _resolve_calendar,
        relative=False,
    ),
)

_CN_NUMERAL = "一二两三四五六七八九十"
# Not the tail of a longer number, an ordinal (第三月) or a habit (每周五, 每个月).
_CN_FENCE = rf"(?<![0-9{_CN_NUMERAL}百千万几第个每])"
# 一下周, 以上周, 马上周末, 晚上周一...: the 上/下 belongs to the word before it.
_CN_PREFIX = r"(?<![一以马早晚底地留剩天])(?P<rel>上上|下下|上|下|这|本)个?"
# A bare 周五 unless a prefix or count comes first; 看一下周五 is still bare (一下 is a word).
_CN_BARE = rf"(?:(?<![上下这本每个以{_CN_NUMERAL}几])|(?<=[一以马早晚底地留剩天][上下]))"
_CN_WEEK = r"(?:周|星期|礼拜)"
# 上周一起 "together last week", 这周天气 "the weather this week", 周日常 "weekly routine".
_CN_WD = (
    r"(?P<wd>[一二三四五六日天])(?!(?<=一)[起直样些般定切下点共同边块致])"
    r"(?!(?<=天)[气然空])(?!(?<=日)[常子记程])"
)
_CN_MONTH = r"(?P<mon>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])"
_CN_DAY = r"(?P<day>[0-9]{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"
_CN_YEAR_WORD = _words(_YEAR_WORDS)
_CN_DAY_WORD = (
    # 之后天气 "the weather afterwards": 前天/后天 after these characters are not days.
    r"大前天|大后天|(?<![之以然最先落提往向])(?:前天|后天)|"
    + _words(w for w in _DAY_WORDS if not w.isascii() and w[-2:] not in ("前天", "后天"))
)

_CN_RULES = (
    Rule(re.compile(_CN_DAY_WORD), _resolve_day_word),
    Rule(
        re.compile(
            rf"{_CN_PREFIX}(?P<unit>周末|周|星期|礼拜|月)(?![报刊年岁期围边转到全密亮光饼球])"
        ),
        _resolve_period,
    ),
    Rule(re.compile(rf"{_CN_PREFIX}{_CN_WEEK}{_CN_WD}"), _resolve_weekday),
    Rule(
        re.compile(rf"{_CN_BARE}{_CN_WEEK}{_CN_WD}"), _resolve_weekday, ahead=_resolve_weekday_ahead
    ),
    Rule(
        re.compile(r"(?<![上下这本每个以])周末"),
        _resolve_bare_weekend,
        ahead=_resolve_weekend_ahead,
    ),
    Rule(
        re.compile(rf"(?:(?P<rel>这个?|本|下个?)|(?<![0-9{_CN_NUMERAL}个上]))月底"),
        _only_ahead,
        ahead=_resolve_month_end_ahead,
    ),
    Rule(
        re.compile(
            rf"{_CN_FENCE}(?P<n>[0-9]{{1,3}}|[{_CN_NUMERAL}]{{1,3}}|几|半)(?P<ge>个)?"
            r"(?P<unit>天|周|星期|礼拜|月|年)(?P<dir>以前|之前|前|以后|之后|后)"
        ),
        _resolve_quantity,
    ),
    Rule(re.compile(rf"(?P<rel>{_CN_YEAR_WORD})(?P<season>[春夏秋冬])[天季]"), _resolve_season),
    Rule(
        re.compile(rf"(?:(?P<yp>{_CN_YEAR_WORD})|{_CN_FENCE}){_CN_MONTH}月(?:份|{_CN_DAY}[日号])?"),
        _resolve_calendar,
        ahead=_or_next_year(_resolve_calendar),
    ),
    Rule(
        re.compile(
            rf"(?<![0-9])(?P<year>(?:1[89]|2[01])[0-9]{{2}})年"
            rf"(?:{_CN_MONTH}月(?:份|{_CN_DAY}[日号])?)?"
        ),
        _resolve_calendar,
    ),
    Rule(re.compile(rf"(?P<yp>{_CN_YEAR_WORD})"), _resolve_calendar),
)

RULES = _EN_RULES + _CN_RULES
