"""Calendar arithmetic for date resolution: the day ranges that time expressions resolve to.

A range is (first day, last day, granularity). Weeks run Monday to Sunday, a weekend is the
Saturday and Sunday of a week, and seasons are northern-hemisphere (spring March-May, winter
December to February). `dates` turns words into calls to these functions.

    >>> period(date(2023, 5, 8), "weekend", -1)
    (datetime.date(2023, 5, 6), datetime.date(2023, 5, 7), 'weekend')
"""

from __future__ import annotations

from calendar import monthrange
from datetime import date, timedelta

Range = tuple[date, date, str]  # first day, last day, granularity


def monday(day: date) -> date:
    """The Monday that starts the (Monday-Sunday) week containing `day`."""
    return day - timedelta(days=day.weekday())


def one_day(day: date) -> Range:
    return (day, day, "day")


def week_of(day: date) -> Range:
    first = monday(day)
    return (first, first + timedelta(days=6), "week")


def weekend_of(day: date) -> Range:
    saturday = monday(day) + timedelta(days=5)
    return (saturday, saturday + timedelta(days=1), "weekend")


def whole_month(year: int, month: int) -> Range:
    return (date(year, month, 1), date(year, month, monthrange(year, month)[1]), "month")


def whole_year(year: int) -> Range:
    return (date(year, 1, 1), date(year, 12, 31), "year")


def month_end(day: date) -> date:
    """The last day of the month containing `day`."""
    return date(day.year, day.month, monthrange(day.year, day.month)[1])


def add_months(day: date, months: int) -> date:
    """The same day of the month `months` later (or earlier), clamped to that month's end."""
    year, month0 = divmod(day.year * 12 + day.month - 1 + months, 12)
    return date(year, month0 + 1, min(day.day, monthrange(year, month0 + 1)[1]))


def weekday_before(anchor: date, weekday: int) -> date:
    """The most recent day with `weekday` (Monday 0) strictly before the anchor."""
    return anchor - timedelta(days=(anchor.weekday() - weekday - 1) % 7 + 1)


def weekday_after(anchor: date, weekday: int) -> date:
    """The first day with `weekday` (Monday 0) strictly after the anchor."""
    return anchor + timedelta(days=(weekday - anchor.weekday() - 1) % 7 + 1)


def season_index(day: date) -> int:
    """Seasons counted from year 0: year*4 + (0 spring, 1 summer, 2 autumn, 3 winter)."""
    # January and February belong to the winter that began the December before.
    return (day.year * 12 + day.month - 3) // 3


def season(index: int) -> Range:
    """The three months of the season numbered as in `season_index`."""
    start = index * 3 + 2  # months since January of year 0; spring starts in March
    first_year, first_month0 = divmod(start, 12)
    last_year, last_month0 = divmod(start + 2, 12)
    last = date(last_year, last_month0 + 1, monthrange(last_year, last_month0 + 1)[1])
    return (date(first_year, first_month0 + 1, 1), last, "season")


def period(anchor: date, unit: str, offset: int) -> Range:
    """The whole day/week/weekend/month/year `offset` units away from the anchor's."""
    if unit == "day":
        return one_day(anchor + timedelta(days=offset))
    if unit == "week":
        return week_of(anchor + timedelta(weeks=offset))
    if unit == "weekend":
        return weekend_of(anchor + timedelta(weeks=offset))
    if unit == "month":
        shifted = add_months(anchor, offset)
        return whole_month(shifted.year, shifted.month)
    return whole_year(anchor.year + offset)


def point(anchor: date, unit: str, offset: int) -> Range:
    """Where "`offset` units ago/from now" lands: a month count keeps the day of the month."""
    if unit == "month":
        return one_day(add_months(anchor, offset))
    return period(anchor, unit, offset)
