"""When a slot's change takes effect: the day a clause or another part of its turn dates it
to ("I start at Dell on 5 January", "got an offer from Figma. My start date is 4 May"), or
when it was said. A value named beside its role, and what a joined clause dates, are not
dated by it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, date, datetime, time, tzinfo

from dualtrace.models import MemoryDraft, TimeMention
from dualtrace.text.dates import find_times
from dualtrace.text.slots import SlotStatement, find_statements
from dualtrace.text.slots.catalogue import BY_NAME
from dualtrace.text.slots.cues import NEXT_CLAUSE


def as_datetime(day: date, tz: tzinfo | None) -> datetime:
    return datetime.combine(day, time(), tzinfo=tz or UTC)


def valid_from(
    kind: str,
    times: list[TimeMention],
    anchor: datetime,
    clause: str = "",
    slot: SlotStatement | None = None,
) -> datetime:
    """When it became true: a past event's date; a slot's change said ahead of time, the day
    it takes effect; otherwise when it was said.

    A planned event ("next month") is valid from when it was said: the plan exists now.
    """
    ahead = _takes_effect(slot, times, anchor, clause)
    if ahead is not None:
        return ahead
    if kind == "event" and times and times[0].first_day < anchor.date():
        return as_datetime(times[0].first_day, anchor.tzinfo)
    return anchor


# Dates precise enough to say when a change takes effect ("on 5 January", "in March"); a
# year ("learning Japanese for a trip next year") dates something else in the clause.
_EFFECT_GRANULARITIES = frozenset({"day", "week", "weekend", "month"})


# Words that say a change happens on a day: a start, a move, a join ("renews in August"
# dates no change of the insurer).
_CHANGES_ON = re.compile(
    r"\b(?:start|starts|starting|begin|begins|beginning|mov(?:e|es|ing)|relocat\w*|"
    r"join(?:s|ing)?|transferr?(?:ing|s)?|switch(?:es|ing)?|quit(?:ting)?|resign(?:s|ing)?|"
    r"retir(?:e|es|ing))\b|开始|入职|搬|调去|调到|到岗|上岗|辞职|离职|退休",
    re.I,
)


def _takes_effect(
    slot: SlotStatement | None, times: list[TimeMention], anchor: datetime, clause: str
) -> datetime | None:
    """The first future day a slot's new value (or its end) is dated to in its clause ("I
    start at Dell on 5 January", "下个月1号搬去成都"): not current before it. A plan's own
    date (a trip's) is no change of it, and a hedged value is no change at all."""
    if slot is None or slot.hedged or BY_NAME[slot.attribute].planned:
        return None
    start, end = _part_of(clause, slot.value)
    if slot.given:
        # a value named beside its role ("my husband Farid got a transfer and we're moving in
        # June") is dated only by what is said of it after it ("my new boss Ana starts Monday")
        start = max(clause.casefold().find((slot.value or "").casefold(), start), start)
        joined = NEXT_CLAUSE.search(clause, start, end)
        end = joined.start() if joined else end
    if not _CHANGES_ON.search(clause[start:end]):
        return None
    own = [t for t in times if start <= t.start < end]  # "搬到光谷" dates no "还住汉口"
    # an end said a year ahead is one too ("明年就退休了"): from that year's first day
    return _takes_effect_on(own, anchor, years=slot.ended)


_PARTS = re.compile(r"[,，;；]|\s[-–—]\s")


def _part_of(clause: str, value: str | None) -> tuple[int, int]:
    """Where the part of the clause (between commas) that names the value begins and ends;
    the whole clause when the value is not found in it."""
    at = clause.casefold().find(value.casefold()) if value else -1
    if at < 0:
        return 0, len(clause)
    start = max((m.end() for m in _PARTS.finditer(clause, 0, at)), default=0)
    after = _PARTS.search(clause, at)
    return start, after.start() if after else len(clause)


def _takes_effect_on(
    times: list[TimeMention], anchor: datetime, *, years: bool = False
) -> datetime | None:
    """The first future day or month (or year, with `years`) these times name, as a
    datetime; None if none."""
    ahead = [
        t.first_day
        for t in times
        if t.first_day > anchor.date()
        and (t.granularity in _EFFECT_GRANULARITIES or (years and t.granularity == "year"))
    ]
    return as_datetime(min(ahead), anchor.tzinfo) if ahead else None


def dated_starts(clauses: list[str], anchor: datetime) -> list[tuple[str, datetime]]:
    """The parts of a turn's clauses (between commas) that date a change ahead ("my start
    date there is 13 July", "3月15号入职", "we move on 1 May"), each with that day."""
    found = []
    for clause in clauses:
        for part in _PARTS.split(clause):
            if _CHANGES_ON.search(part):
                start = _takes_effect_on(find_times(part, anchor), anchor)
                if start is not None:
                    found.append((part, start))
    return found


def starting(
    draft: MemoryDraft, starts: list[tuple[str, datetime]], anchor: datetime, clause: str
) -> MemoryDraft:
    """A slot's change with no date of its own, dated by the start another part of the turn
    gives it — one naming its value or its attribute ("got an offer from Figma. My start date
    at Figma is 4 May"): not current before that day."""
    slot = draft.slot
    if slot is None or draft.valid_from != anchor or slot.get("hedged") or not starts:
        return draft
    attribute = BY_NAME[str(slot["attribute"])]
    if attribute.planned:
        return draft
    value = str(slot.get("value") or "").casefold()
    if any(
        s.given and s.attribute == attribute.name and (s.value or "").casefold() == value
        for s in find_statements(clause)
    ):
        return draft  # named beside its role ("my husband Farid …"): it holds already
    for part, start in starts:
        if value and value in part.casefold():
            return replace(draft, valid_from=start)
        # a part that dates its own value of the attribute ("准备1月3号搬到光谷") is not this
        # one's; one that states nothing dates its own clause ("…at Monzo, starting 2 March")
        stated = find_statements(part)
        if any(x.attribute == attribute.name for x in stated):
            continue
        if attribute.about.search(part) or (not stated and part in clause):
            return replace(draft, valid_from=start)
        if attribute.name in _JOB_ATTRIBUTES and _JOB_START.search(part):
            return replace(draft, valid_from=start)  # "an offer at Zillow!! start date is Jan 12"
    return draft


# A new job's start said on its own ("start date is jan 12", "first day is the 3rd", "入职时间
# 定在3月1号") dates the employer and the role the turn names.
_JOB_ATTRIBUTES = frozenset({"works_at", "occupation", "department"})
_JOB_START = re.compile(r"\bstart(?:ing)?\s+date\b|\bfirst\s+day\b|入职(?:时间|日期)?", re.I)
