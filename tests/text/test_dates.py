"""Tests for dualtrace.text.dates: every supported form, edge dates, negatives, properties."""

from __future__ import annotations

import calendar
import itertools
from datetime import date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dualtrace.models import TimeMention
from dualtrace.text.dates import find_times, resolve_text, time_window

D = date.fromisoformat
MON = D("2023-05-08")  # a Monday: its week is 8-14 May, the previous week 1-7 May
SUN = D("2023-05-14")  # the Sunday ending that same week
SAT = D("2023-05-13")
JAN = D("2024-01-15")

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
CN_WEEKDAYS = "一二三四五六日"
anchors = st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31))


def only(text: str, anchor: date | datetime) -> TimeMention:
    """The single time mention in `text`, failing if there are none or several."""
    mentions = find_times(text, anchor)
    assert len(mentions) == 1, mentions
    return mentions[0]


def check(text: str, anchor: date, expected: str, first: str, last: str, gran: str) -> None:
    mention = only(text, anchor)
    assert mention.text == expected
    assert text[mention.start : mention.end] == expected
    assert (mention.first_day, mention.last_day) == (D(first), D(last))
    assert mention.granularity == gran


Case = tuple[str, date, str, str, str, str]  # text, anchor, mention text, first, last, granularity


def day(text: str, anchor: date, on: str, expected: str | None = None) -> Case:
    """A case whose single mention is the one day `on` (ISO)."""
    return (text, anchor, expected or text, on, on, "day")


def span(
    text: str, anchor: date, first: str, last: str, gran: str, expected: str | None = None
) -> Case:
    """A case whose single mention covers `first`..`last` (ISO) at granularity `gran`."""
    return (text, anchor, expected or text, first, last, gran)


# ------------------------------------------------------------------ English


ENGLISH_DAYS = [
    day("today", MON, "2023-05-08"),
    day("tonight", MON, "2023-05-08"),
    day("this morning", MON, "2023-05-08"),
    day("this afternoon", MON, "2023-05-08"),
    day("This  Evening", MON, "2023-05-08"),
    day("yesterday", MON, "2023-05-07"),
    day("last night", MON, "2023-05-07"),
    day("the day before yesterday", MON, "2023-05-06"),
    day("tomorrow", MON, "2023-05-09"),
    day("the day after tomorrow", MON, "2023-05-10"),
    day("YESTERDAY", D("2024-03-01"), "2024-02-29"),
    day("tomorrow", D("2023-12-31"), "2024-01-01"),
]

ENGLISH_WEEKDAYS = [
    day("last Friday", MON, "2023-05-05"),  # Monday: the Friday three days back
    day("last Friday", SUN, "2023-05-05"),  # Sunday: the same Friday, nine days back
    day("last Monday", MON, "2023-05-01"),
    day("last sunday", MON, "2023-05-07"),
    day("this Friday", MON, "2023-05-12"),
    day("this Monday", SUN, "2023-05-08"),
    day("next Friday", MON, "2023-05-19"),
    day("next Monday", SUN, "2023-05-15"),
    day("on Friday", MON, "2023-05-05", "Friday"),
    day("I saw him Friday", SAT, "2023-05-12", "Friday"),
    day("on Monday", MON, "2023-05-01", "Monday"),  # bare weekday == anchor's: a week back
    day("Sunday", MON, "2023-05-07"),
    day("last Friday", D("2023-01-02"), "2022-12-30"),
]

ENGLISH_PERIODS = [
    span("last week", MON, "2023-05-01", "2023-05-07", "week"),
    span("last week", SUN, "2023-05-01", "2023-05-07", "week"),
    span("last week", D("2023-01-02"), "2022-12-26", "2023-01-01", "week"),
    span("this week", MON, "2023-05-08", "2023-05-14", "week"),
    span("next week", SUN, "2023-05-15", "2023-05-21", "week"),
    span("last weekend", MON, "2023-05-06", "2023-05-07", "weekend"),
    span("this weekend", MON, "2023-05-13", "2023-05-14", "weekend"),
    span("next weekend", MON, "2023-05-20", "2023-05-21", "weekend"),
    span("last month", MON, "2023-04-01", "2023-04-30", "month"),
    span("last month", D("2023-01-15"), "2022-12-01", "2022-12-31", "month"),
    span("last month", D("2024-03-31"), "2024-02-01", "2024-02-29", "month"),
    span("this month", MON, "2023-05-01", "2023-05-31", "month"),
    span("next month", D("2023-12-10"), "2024-01-01", "2024-01-31", "month"),
    span("last year", MON, "2022-01-01", "2022-12-31", "year"),
    span("this year", MON, "2023-01-01", "2023-12-31", "year"),
    span("next year", MON, "2024-01-01", "2024-12-31", "year"),
    span("the week before last", MON, "2023-04-24", "2023-04-30", "week"),
    span("the week after next", MON, "2023-05-22", "2023-05-28", "week"),
    span("the month before last", MON, "2023-03-01", "2023-03-31", "month"),
    span("the year before last", MON, "2021-01-01", "2021-12-31", "year"),
    span("the weekend before last", MON, "2023-04-29", "2023-04-30", "weekend"),
]

ENGLISH_COUNTS = [
    day("3 days ago", MON, "2023-05-05"),
    day("three days ago", MON, "2023-05-05"),
    day("a day ago", MON, "2023-05-07"),
    day("one day ago", MON, "2023-05-07"),
    day("twelve days ago", MON, "2023-04-26"),
    day("a couple of days ago", MON, "2023-05-06"),
    span("a few days ago", MON, "2023-05-04", "2023-05-06", "day"),
    span("few days ago", MON, "2023-05-04", "2023-05-06", "day"),
    span("a week ago", MON, "2023-05-01", "2023-05-07", "week"),
    span("2 weeks ago", MON, "2023-04-24", "2023-04-30", "week"),
    span("two weeks ago", SUN, "2023-04-24", "2023-04-30", "week"),
    span("a few weeks ago", MON, "2023-04-10", "2023-04-30", "week"),
    span("two weekends ago", MON, "2023-04-29", "2023-04-30", "weekend"),
    day("a month ago", MON, "2023-04-08"),
    day("a month ago", D("2023-03-31"), "2023-02-28"),
    day("a month ago", D("2024-03-31"), "2024-02-29"),
    day("one month ago", D("2023-01-31"), "2022-12-31"),
    day("two months ago", MON, "2023-03-08"),
    day("an month ago", MON, "2023-04-08"),  # sloppy but unambiguous
    span("a few months ago", MON, "2023-01-08", "2023-03-08", "day"),
    span("a year ago", MON, "2022-01-01", "2022-12-31", "year"),
    span("5 years ago", MON, "2018-01-01", "2018-12-31", "year"),
    day("in 3 days", MON, "2023-05-11"),
    day("in a day", MON, "2023-05-09"),
    span("in two weeks", MON, "2023-05-22", "2023-05-28", "week"),
    day("in a month", D("2023-01-31"), "2023-02-28"),
    day("5 days from now", MON, "2023-05-13"),
    span("2 weeks from now", MON, "2023-05-22", "2023-05-28", "week"),
]

ENGLISH_CALENDAR = [
    span("in May", MON, "2023-05-01", "2023-05-31", "month", "May"),
    span("in December", MON, "2023-12-01", "2023-12-31", "month", "December"),  # anchor's year
    span("March", MON, "2023-03-01", "2023-03-31", "month"),
    span("in june", MON, "2023-06-01", "2023-06-30", "month", "june"),
    span("last May", MON, "2022-05-01", "2022-05-31", "month"),
    span("last April", MON, "2023-04-01", "2023-04-30", "month"),
    span("last June", MON, "2022-06-01", "2022-06-30", "month"),
    span("next May", MON, "2024-05-01", "2024-05-31", "month"),
    span("next June", MON, "2023-06-01", "2023-06-30", "month"),
    span("next April", MON, "2024-04-01", "2024-04-30", "month"),
    span("this May", MON, "2023-05-01", "2023-05-31", "month"),
    span("May 2023", MON, "2023-05-01", "2023-05-31", "month"),
    span("in may 2021", MON, "2021-05-01", "2021-05-31", "month", "may 2021"),
    span("Feb. 2020", MON, "2020-02-01", "2020-02-29", "month"),
    span("March of 2019", MON, "2019-03-01", "2019-03-31", "month"),
    day("8 May 2023", MON, "2023-05-08"),
    day("May 8, 2023", MON, "2023-05-08"),
    day("May 8 2023", MON, "2023-05-08"),
    day("May 8th", MON, "2023-05-08"),
    day("may 8", MON, "2023-05-08"),  # lowercase, but a day number follows
    day("8th of May", MON, "2023-05-08"),
    day("the 8th of May", MON, "2023-05-08"),
    day("31st December", MON, "2023-12-31"),
    day("Sept 3rd", MON, "2023-09-03"),
    day("3 Jan 2021", MON, "2021-01-03"),
    day("Feb 29, 2024", MON, "2024-02-29"),
    day("2023-05-08", MON, "2023-05-08"),
    day("2021/12/31", MON, "2021-12-31"),
    span("in 2022", MON, "2022-01-01", "2022-12-31", "year", "2022"),
    span("since 2019", MON, "2019-01-01", "2019-12-31", "year", "2019"),
]

ENGLISH_SEASONS = [
    span("last summer", MON, "2022-06-01", "2022-08-31", "season"),
    span("last summer", D("2023-10-02"), "2023-06-01", "2023-08-31", "season"),
    span("this summer", MON, "2023-06-01", "2023-08-31", "season"),
    span("next spring", MON, "2024-03-01", "2024-05-31", "season"),
    span("next summer", MON, "2023-06-01", "2023-08-31", "season"),
    span("last spring", MON, "2022-03-01", "2022-05-31", "season"),
    span("last fall", MON, "2022-09-01", "2022-11-30", "season"),
    span("this autumn", MON, "2023-09-01", "2023-11-30", "season"),
    span("last winter", MON, "2022-12-01", "2023-02-28", "season"),
    span("this winter", JAN, "2023-12-01", "2024-02-29", "season"),
    span("next winter", JAN, "2024-12-01", "2025-02-28", "season"),
    span("the summer of 2019", MON, "2019-06-01", "2019-08-31", "season"),
    span("winter 2023", MON, "2023-12-01", "2024-02-29", "season"),
]


@pytest.mark.parametrize(
    ("text", "anchor", "expected", "first", "last", "gran"),
    ENGLISH_DAYS
    + ENGLISH_WEEKDAYS
    + ENGLISH_PERIODS
    + ENGLISH_COUNTS
    + ENGLISH_CALENDAR
    + ENGLISH_SEASONS,
)
def test_english_expression(
    text: str, anchor: date, expected: str, first: str, last: str, gran: str
) -> None:
    check(text, anchor, expected, first, last, gran)


# ------------------------------------------------------------------ Chinese


CHINESE = [
    day("今天", MON, "2023-05-08"),
    day("今晚", MON, "2023-05-08"),
    day("今早", MON, "2023-05-08"),
    day("昨天", MON, "2023-05-07"),
    day("昨晚", MON, "2023-05-07"),
    day("前天", MON, "2023-05-06"),
    day("大前天", MON, "2023-05-05"),
    day("明天", MON, "2023-05-09"),
    day("后天", MON, "2023-05-10"),
    day("大后天", MON, "2023-05-11"),
    day("上周五", MON, "2023-05-05"),
    day("上周五", SUN, "2023-05-05"),
    day("上个星期三", MON, "2023-05-03"),
    day("上星期天", MON, "2023-05-07"),
    day("上礼拜一", MON, "2023-05-01"),
    day("上周日", SUN, "2023-05-07"),
    day("这周五", MON, "2023-05-12"),
    day("本周三", SUN, "2023-05-10"),
    day("这个星期六", MON, "2023-05-13"),
    day("下周五", MON, "2023-05-19"),
    day("下个星期一", SUN, "2023-05-15"),
    day("下礼拜天", MON, "2023-05-21"),
    day("周五", MON, "2023-05-05"),
    day("星期一", MON, "2023-05-01"),  # the anchor's own weekday: a week back
    day("礼拜天", MON, "2023-05-07"),
    day("我周六去的", SUN, "2023-05-13", "周六"),
    span("上周", MON, "2023-05-01", "2023-05-07", "week"),
    span("上个星期", SUN, "2023-05-01", "2023-05-07", "week"),
    span("这周", MON, "2023-05-08", "2023-05-14", "week"),
    span("本周", MON, "2023-05-08", "2023-05-14", "week"),
    span("下周", MON, "2023-05-15", "2023-05-21", "week"),
    span("上上周", MON, "2023-04-24", "2023-04-30", "week"),
    span("上周末", MON, "2023-05-06", "2023-05-07", "weekend"),
    span("这周末", MON, "2023-05-13", "2023-05-14", "weekend"),
    span("下周末", MON, "2023-05-20", "2023-05-21", "weekend"),
    span("周末", MON, "2023-05-06", "2023-05-07", "weekend"),
    span("周末", SAT, "2023-05-13", "2023-05-14", "weekend"),  # said during one: this one
    span("上个月", MON, "2023-04-01", "2023-04-30", "month"),
    span("上个月", JAN, "2023-12-01", "2023-12-31", "month"),
    span("这个月", MON, "2023-05-01", "2023-05-31", "month"),
    span("本月", MON, "2023-05-01", "2023-05-31", "month"),
    span("下个月", D("2023-12-20"), "2024-01-01", "2024-01-31", "month"),
    span("去年", MON, "2022-01-01", "2022-12-31", "year"),
    span("今年", MON, "2023-01-01", "2023-12-31", "year"),
    span("明年", MON, "2024-01-01", "2024-12-31", "year"),
    span("前年", MON, "2021-01-01", "2021-12-31", "year"),
    span("后年", MON, "2025-01-01", "2025-12-31", "year"),
    day("三天前", MON, "2023-05-05"),
    day("3天前", MON, "2023-05-05"),
    day("十天前", MON, "2023-04-28"),
    day("十五天前", MON, "2023-04-23"),
    day("二十一天前", MON, "2023-04-17"),
    day("两天以前", MON, "2023-05-06"),
    span("几天前", MON, "2023-05-04", "2023-05-06", "day"),
    span("两周前", MON, "2023-04-24", "2023-04-30", "week"),
    span("两个星期前", MON, "2023-04-24", "2023-04-30", "week"),
    day("三个月前", MON, "2023-02-08"),
    day("一个月前", D("2023-03-31"), "2023-02-28"),
    day("半年前", MON, "2022-11-08"),
    span("两年前", MON, "2021-01-01", "2021-12-31", "year"),
    day("三天后", MON, "2023-05-11"),
    day("5天之后", MON, "2023-05-13"),
    span("两周后", MON, "2023-05-22", "2023-05-28", "week"),
    span("五月", MON, "2023-05-01", "2023-05-31", "month"),
    span("5月", MON, "2023-05-01", "2023-05-31", "month"),
    span("十二月", MON, "2023-12-01", "2023-12-31", "month"),
    span("11月份", MON, "2023-11-01", "2023-11-30", "month"),
    day("5月8日", MON, "2023-05-08"),
    day("五月八号", MON, "2023-05-08"),
    day("十二月三十一日", MON, "2023-12-31"),
    day("2023年5月8日", MON, "2023-05-08"),
    span("2022年12月", MON, "2022-12-01", "2022-12-31", "month"),
    span("2022年", MON, "2022-01-01", "2022-12-31", "year"),
    span("去年五月", MON, "2022-05-01", "2022-05-31", "month"),
    span("去年夏天", MON, "2022-06-01", "2022-08-31", "season"),
    span("今年冬天", JAN, "2023-12-01", "2024-02-29", "season"),
    span("明年春天", MON, "2024-03-01", "2024-05-31", "season"),
    span("去年秋季", MON, "2022-09-01", "2022-11-30", "season"),
]


@pytest.mark.parametrize(("text", "anchor", "expected", "first", "last", "gran"), CHINESE)
def test_chinese_expression(
    text: str, anchor: date, expected: str, first: str, last: str, gran: str
) -> None:
    check(text, anchor, expected, first, last, gran)


# ------------------------------------------------------------------ in sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I moved to Hangzhou the day before yesterday.", ["the day before yesterday"]),
        ("We met last week and again last weekend", ["last week", "last weekend"]),
        ("Call me at 14:30 tomorrow", ["tomorrow"]),
        ("In May we went to Paris", ["May"]),
        ("我们last week去了杭州", ["last week"]),
        ("我上周五和她去了西湖，明天再去", ["上周五", "明天"]),
        ("上周一起吃饭了", ["上周"]),  # 一起 is "together", not Monday
        ("这周天气不错", ["这周"]),  # 天气 is "weather", not Sunday
        ("去年夏天我们在三亚", ["去年夏天"]),
        ("2023年5月8日我们签了合同", ["2023年5月8日"]),
        ("the week before last Friday", ["last Friday"]),
        ("It was 8 May 2023, a Monday.", ["8 May 2023"]),
        ("看一下周五的安排", ["周五"]),  # 一下 is a word: a bare Friday, not 下周五
        ("三天前天气很好", ["三天前"]),
    ],
)
def test_mentions_in_sentences(text: str, expected: list[str]) -> None:
    mentions = find_times(text, MON)
    assert [m.text for m in mentions] == expected
    assert [m.start for m in mentions] == sorted(m.start for m in mentions)


@pytest.mark.parametrize(
    "text",
    [
        "I may go",
        "you may be right",
        "May I ask you something?",
        "They march on the capital",
        "14:30",
        "room 2023",
        "3 apples",
        "order 2023-13-45",
        "Fridays are busy",
        "every Friday",
        "we meet every other Friday",
        "twice in a week",
        "三个月",
        "上次我们说的那个方案",
        "每周五开会",
        "看一下周报",
        "周围都是人",
        "一周有七天",
        "这个月亮真圆",
        "之后天气变冷",
        "hello world",
    ],
)
def test_not_a_time(text: str) -> None:
    assert find_times(text, MON) == []


def test_impossible_day_falls_back_to_the_month() -> None:
    mention = only("on 31 February", MON)
    assert (mention.text, mention.granularity) == ("February", "month")


def test_datetime_anchor_uses_its_date() -> None:
    assert only("yesterday", datetime(2023, 5, 8, 23, 59)).first_day == D("2023-05-07")


# ------------------------------------------------------------------ resolve_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went there yesterday", "I went there yesterday (yesterday = Sun 7 May 2023)"),
        ("We met on 8 May 2023.", "We met on 8 May 2023."),
        (
            "Yesterday I booked the 2023-06-01 flight for next Friday.",
            "Yesterday I booked the 2023-06-01 flight for next Friday. "
            "(Yesterday = Sun 7 May 2023; next Friday = Fri 19 May 2023)",
        ),
        ("She left last month", "She left last month (last month = April 2023)"),
        ("He retired last year", "He retired last year (last year = 2022)"),
        (
            "We hiked last weekend",
            "We hiked last weekend (last weekend = 6 May 2023 – 7 May 2023)",
        ),
        ("It opens in May", "It opens in May (May = May 2023)"),
        ("我昨天去了西湖", "我昨天去了西湖 (昨天 = Sun 7 May 2023)"),
        ("2022年我在北京，去年在上海", "2022年我在北京，去年在上海 (去年 = 2022)"),
        ("nothing here", "nothing here"),
    ],
)
def test_resolve_text(text: str, expected: str) -> None:
    assert resolve_text(text, MON) == expected


def test_resolve_text_keeps_an_existing_label() -> None:
    once = resolve_text("I went there yesterday and last week", MON)
    assert resolve_text(once, MON) == once
    # A label written against another anchor is kept as it is, not doubled.
    assert resolve_text(once, D("2030-01-01")) == once
    # a label in the text, the old way, stays where it is
    assert resolve_text("I went yesterday (Sun 7 May 2023).", MON) == (
        "I went yesterday (Sun 7 May 2023)."
    )
    # more written after a note: the note goes to the end, with the new expression's
    later = resolve_text(once + " Back tomorrow.", MON)
    assert later == (
        "I went there yesterday and last week Back tomorrow. (yesterday = Sun 7 May 2023; "
        "last week = 1 May 2023 – 7 May 2023; tomorrow = Tue 9 May 2023)"
    )


def test_a_note_is_outside_the_sentence_and_brackets_of_the_text_are_not_notes() -> None:
    assert (
        resolve_text("Sam昨天终于考完驾照了。", MON)
        == "Sam昨天终于考完驾照了。 (昨天 = Sun 7 May 2023)"
    )
    assert resolve_text("Set (x = 5) tomorrow", MON) == (
        "Set (x = 5) tomorrow (tomorrow = Tue 9 May 2023)"
    )


# ------------------------------------------------------------------ time_window


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what did I do last weekend?", (D("2023-05-06"), D("2023-05-07"))),
        ("what happened in May?", (D("2023-05-01"), D("2023-05-31"))),
        ("between last Monday and yesterday", (D("2023-05-01"), D("2023-05-07"))),
        ("我上周做了什么", (D("2023-05-01"), D("2023-05-07"))),
        ("上次我们说的那个方案", None),
        ("what is my favourite food?", None),
    ],
)
def test_time_window(query: str, expected: tuple[date, date] | None) -> None:
    assert time_window(query, MON) == expected


# ------------------------------------------------------------------ properties


@given(anchors)
def test_yesterday_is_the_day_before(anchor: date) -> None:
    for text in ("yesterday", "昨天"):
        mention = only(text, anchor)
        assert mention.first_day == mention.last_day == anchor - timedelta(days=1)


@given(anchors, st.integers(min_value=1, max_value=400))
def test_n_days_ago(anchor: date, n: int) -> None:
    for text in (f"{n} days ago", f"{n}天前"):
        mention = only(text, anchor)
        assert mention.first_day == mention.last_day == anchor - timedelta(days=n)


@given(anchors, st.integers(min_value=0, max_value=6))
def test_last_weekday_is_in_the_previous_week(anchor: date, weekday: int) -> None:
    monday = anchor - timedelta(days=anchor.weekday())
    for text in (f"last {WEEKDAYS[weekday]}", f"上周{CN_WEEKDAYS[weekday]}"):
        landed = only(text, anchor).first_day
        assert monday - timedelta(days=7) <= landed < monday
        assert landed.weekday() == weekday


@given(anchors, st.integers(min_value=0, max_value=6))
def test_bare_weekday_is_the_last_one_before(anchor: date, weekday: int) -> None:
    for text in (WEEKDAYS[weekday].title(), f"星期{CN_WEEKDAYS[weekday]}"):
        landed = only(text, anchor).first_day
        assert anchor - timedelta(days=7) <= landed < anchor
        assert landed.weekday() == weekday


@given(anchors, st.integers(min_value=1, max_value=36))
def test_n_months_ago_lands_in_that_month(anchor: date, n: int) -> None:
    year, month0 = divmod(anchor.year * 12 + anchor.month - 1 - n, 12)
    last_day = calendar.monthrange(year, month0 + 1)[1]
    for text in (f"{n} months ago", f"{n}个月前"):
        landed = only(text, anchor).first_day
        assert (landed.year, landed.month) == (year, month0 + 1)
        assert landed.day == min(anchor.day, last_day)


PHRASES = [
    *(text for text, *_ in ENGLISH_DAYS + ENGLISH_WEEKDAYS + ENGLISH_PERIODS),
    *(text for text, *_ in ENGLISH_COUNTS + ENGLISH_CALENDAR + ENGLISH_SEASONS),
    *(text for text, *_ in CHINESE),
    "I met Ann",
    "我们去了西湖",
    "at 14:30",
    "room 2023",
    "I may go",
]


@given(anchors, st.lists(st.sampled_from(PHRASES), max_size=6), st.sampled_from([" ", "，", ""]))
def test_every_mention_is_a_valid_range(anchor: date, parts: list[str], glue: str) -> None:
    text = glue.join(parts)
    mentions = find_times(text, anchor)
    for mention in mentions:
        assert mention.first_day <= mention.last_day
        assert text[mention.start : mention.end] == mention.text
    for before, after in itertools.pairwise(mentions):
        assert before.end <= after.start


@given(anchors, st.lists(st.sampled_from(PHRASES), max_size=6), st.sampled_from([" ", "，"]))
def test_resolving_twice_changes_nothing(anchor: date, parts: list[str], glue: str) -> None:
    once = resolve_text(glue.join(parts), anchor)
    assert resolve_text(once, anchor) == once


@pytest.mark.parametrize(
    "text",
    [
        "I teach every Tuesday and Thursday evening.",
        "She runs every Monday, Wednesday and Saturday.",
        "We walk each Tuesday, Friday, and Sunday with the dog.",
        "我每周一和周四下午去健身。",
        "每星期二、四都有课。",
    ],
)
def test_every_day_of_a_habits_list_stays_a_habit(text: str) -> None:
    assert resolve_text(text, MON) == text
    assert find_times(text, MON) == []


def test_days_without_a_habit_are_still_dates() -> None:
    assert find_times("I worked on Tuesday and Thursday.", MON)
    assert find_times("我周二和周四都加班了。", MON)
