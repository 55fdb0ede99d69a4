"""Time expressions in English and Chinese text, resolved against the date the text was said.

`find_times` finds every time expression and resolves it to a day range; `resolve_text`
notes the resolved date of each *relative* expression after the text, so that a stored
memory stays true when read years later and its sentence reads as it was said ("I went
yesterday." -> "I went yesterday. (yesterday = Sun 7 May 2023)"); `time_window` turns a
search query into the date range it asks about.

Rules for the ambiguous cases (the anchor is the day the text was said):

- Weeks run Monday to Sunday. "last week" / 上周 is the previous Monday-Sunday week, "last
  Friday" / 上周五 is the Friday of that week (so on a Sunday it is nine days back, on a Monday
  three), "this Friday" / 这周五 the Friday of the anchor's week, "next Friday" / 下周五 the
  Friday of the following week. A weekend is the Saturday and Sunday of a week.
- A bare weekday ("on Friday", 周五) resolves by the tense of its clause (`tense.looks_ahead_at`):
  where the text looks ahead ("my new job starts Monday", "周五要交报告", "I'll go again
  Friday") it is the first such day strictly after the anchor, so said on a Monday, "starts
  Monday" is seven days later; elsewhere, past or neutral, it is the most recent such day
  strictly before the anchor: said on a Friday, "Friday" is seven days earlier. Bare 周末 is
  likewise the coming weekend looking ahead (the anchor's week's, the next week's when said
  on a Sunday), else the weekend containing the anchor when it falls on one, else the one
  just past. "the weekend" / "this coming weekend", 月底 / "the end of the month" (the month's
  last day; 下个月底, "end of next month": the next month's) are read only looking ahead.
- "N days ago" is a day; "N weeks ago" / N周前 is the whole week containing the day N*7 days
  back; "N months ago" is the same day of the month N months back, clamped to the month's
  last day (31 March - 1 month = 28/29 February); "N years ago" / N年前 is the whole calendar
  year. "in N ..." and "N ... from now" / N天后 mirror them forwards. "a few" / 几 is three
  give or take one, so "a few days ago" spans anchor-4 .. anchor-2; "a couple of" is two.
- A month name without a year ("in May", 五月, "May 8th", 5月8日) is in the anchor's year,
  or looking ahead the first one not yet over ("I'm flying to Paris in March" said in May);
  "last May" is the most recent May before the anchor's month, "next May" the first after.
  "May" and "March" count as months only when capitalised (or followed by a day number or a
  year), and a capitalised "May" followed by a pronoun ("May I ...") is not a month unless a
  preposition such as "in" comes before it.
- Seasons are northern-hemisphere: spring March-May, summer June-August, autumn/fall
  September-November, winter December to February (winter of 2023 = Dec 2023 - Feb 2024).
  "last summer" is the most recent summer already over, "next summer" the first one not yet
  begun, "this summer" the current one if it is summer, else the one of the anchor's year;
  去年夏天 is "this summer" a year earlier.
- "every Friday", "a Friday", 每周五 and "twice in a week" are habits or rates, not dates; so
  is each later day of a habit's list ("every Monday and Wednesday", 每周三和周五).
- An expression carrying an explicit four-digit year ("8 May 2023", 2023年5月, ISO dates) is
  absolute, and `resolve_text` leaves it alone; everything else is relative.

Matching is case-insensitive. English words are fenced by ASCII letters and digits rather
than `\\b`, which treats CJK characters as word characters and would miss "我们last week去了";
Chinese has no word boundaries at all, so a few lookarounds keep out the common compounds
(上周一起 "together last week", 这周天气 "the weather this week", 月亮 "moon"). Where two
matches overlap the longer one wins ("the day before yesterday" over "yesterday").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from datetime import date, datetime

from dualtrace.models import TimeMention
from dualtrace.text.date_rules import RULES, group
from dualtrace.text.script import simplified
from dualtrace.text.tense import looks_ahead_at

__all__ = ["find_times", "resolve_text", "time_window"]


# A label in a text: "(Sun 7 May 2023)", "(May 2023)", "(2023)", or a range.
_DATE = (
    r"(?:[A-Z][a-z]{2} )?\d{1,2} [A-Z][a-z]+ \d{4}(?: – \d{1,2} [A-Z][a-z]+ \d{4})?"
    r"|(?:[A-Z][a-z]+ )?\d{4}"
)
_LABEL = re.compile(rf"\s*\((?:{_DATE})\)")

# The note `resolve_text` writes after a text: " (yesterday = Sun 7 May 2023; …)"; one found
# inside a text (more was written after it) is moved to the end.
_NOTE = re.compile(rf" \(((?:[^()=;]+ = (?:{_DATE}))(?:; [^()=;]+ = (?:{_DATE}))*)\)")

# --- scanning -------------------------------------------------------------------------------


def _as_date(anchor: date | datetime) -> date:
    return anchor.date() if isinstance(anchor, datetime) else anchor


# A weekday further along a habit's list ("every Monday and Wednesday", "每周三和周五"): the
# habit's, as its first day is, not a date.
_WEEKDAY_EN = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_AND_EN = r"\s*(?:,\s*(?:and|or)\b|,|and|or|&)\s*"  # the serial comma too
_DAY_ZH = r"(?:周|星期|礼拜)?[一二三四五六日天]"
_AND_ZH = r"\s*(?:和|跟|与|或|、|以及|及|,|，)\s*"
_HABIT_LIST = re.compile(
    rf"(?:\b(?:every|each)\s+{_WEEKDAY_EN}(?:{_AND_EN}{_WEEKDAY_EN})*{_AND_EN}"
    rf"|每个?(?:周|星期|礼拜)[一二三四五六日天](?:{_AND_ZH}{_DAY_ZH})*{_AND_ZH})$",
    re.I,
)


def _in_habit_list(text: str, start: int) -> bool:
    return _HABIT_LIST.search(text[max(0, start - 60) : start]) is not None


def _candidates(text: str, anchor: date) -> list[tuple[TimeMention, bool, int]]:
    """Every resolvable match of every rule: (mention, is it relative, rule order)."""
    found: list[tuple[TimeMention, bool, int]] = []
    for order, rule in enumerate(RULES):
        for match in rule.pattern.finditer(text):
            if _in_habit_list(text, match.start()):
                continue
            resolve = rule.resolve
            if rule.ahead is not None and looks_ahead_at(text, match.start()):
                resolve = rule.ahead
            try:
                resolved = resolve(match, anchor)
            except (ValueError, OverflowError):
                continue  # 31 February, or a count that runs off the calendar: not a date
            if resolved is None:
                continue
            first, last, granularity = resolved
            mention = TimeMention(
                text=match[0],
                start=match.start(),
                end=match.end(),
                first_day=first,
                last_day=last,
                granularity=granularity,
            )
            found.append((mention, rule.relative and group(match, "year") is None, order))
    return found


def _scan(text: str, anchor: date | datetime) -> list[tuple[TimeMention, bool]]:
    """Non-overlapping mentions in text order, each with whether it is relative."""
    ranked = sorted(
        _candidates(text, _as_date(anchor)),
        key=lambda c: (c[0].start - c[0].end, c[0].start, c[2]),  # longest, then leftmost
    )
    starts: list[int] = []
    kept: list[tuple[TimeMention, bool]] = []
    for mention, relative, _ in ranked:
        i = bisect_left(starts, mention.start)
        if i > 0 and kept[i - 1][0].end > mention.start:
            continue
        if i < len(kept) and kept[i][0].start < mention.end:
            continue
        starts.insert(i, mention.start)
        kept.insert(i, (mention, relative))
    return kept


# --- public API -----------------------------------------------------------------------------


def find_times(text: str, anchor: date | datetime) -> list[TimeMention]:
    """Every time expression in `text`, resolved against `anchor` (the day it was said).

    >>> [m.label for m in find_times("I saw her last Friday", date(2023, 5, 8))]
    ['Fri 5 May 2023']
    """
    return [mention for mention, _ in _scan(simplified(text), anchor)]


def resolve_text(text: str, anchor: date | datetime) -> str:
    """`text` with a note after it giving the resolved date of each relative time
    expression, in the order they come: outside the sentence, which reads as it was said.

    Absolute expressions ("8 May 2023") are left as they are, and an expression that
    already carries a label in the text ("yesterday (Sun 7 May 2023)") or in the note is not
    noted again, so resolving twice changes nothing, whatever the anchor.

    >>> resolve_text("I left on Friday, back yesterday.", date(2023, 5, 8))
    'I left on Friday, back yesterday. (Friday = Fri 5 May 2023; yesterday = Sun 7 May 2023)'
    """
    notes = [note for found in _NOTE.finditer(text) for note in found[1].split("; ")]
    text = _NOTE.sub("", text)
    # what the note resolves already, by expression: kept as it was, whatever the anchor
    noted = Counter(note.split(" = ", 1)[0] for note in notes)
    # Scan the text with labels in it taken out: a label changes the characters next to the
    # expression after it, and the Chinese lookarounds would then judge that one differently.
    bare, labels = _strip_labels(text)
    for mention, relative in _scan(bare, anchor):
        words = bare[mention.start : mention.end]
        if not relative or mention.end in labels:
            continue
        if noted[words] > 0:
            noted[words] -= 1
            continue
        notes.append(f"{words} = {mention.label}")
    return f"{text} ({'; '.join(notes)})" if notes else text


def without_note(text: str) -> str:
    """`text` without the note `resolve_text` put after it: what was said, not its dates."""
    return _NOTE.sub("", text)


def _strip_labels(text: str) -> tuple[str, dict[int, str]]:
    """`text` without label-shaped brackets, and each removed label keyed by where it was."""
    pieces: list[str] = []
    labels: dict[int, str] = {}
    done = removed = 0
    for match in _LABEL.finditer(text):
        pieces.append(text[done : match.start()])
        labels[match.start() - removed] = match[0]
        removed += match.end() - match.start()
        done = match.end()
    pieces.append(text[done:])
    return "".join(pieces), labels


def time_window(text: str, anchor: date | datetime) -> tuple[date, date] | None:
    """The days a query asks about (first to last over its time expressions), or None.

    >>> time_window("what did I do last weekend?", date(2023, 5, 10))
    (datetime.date(2023, 5, 6), datetime.date(2023, 5, 7))
    """
    mentions = find_times(text, anchor)
    if not mentions:
        return None
    return min(m.first_day for m in mentions), max(m.last_day for m in mentions)
