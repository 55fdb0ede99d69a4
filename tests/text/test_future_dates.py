"""Relative dates resolve by tense: forwards where the text looks ahead, as before elsewhere."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dualtrace.encode.base import Window
from dualtrace.encode.rules import RulesExtractor
from dualtrace.models import Episode
from dualtrace.text.dates import find_times, resolve_text, time_window
from dualtrace.text.tense import looks_ahead, looks_ahead_at

D = date.fromisoformat
MON = D("2023-05-08")  # a Monday: its week is 8-14 May
WED = D("2023-05-10")
FRI = D("2023-05-12")
SUN = D("2023-05-14")

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
CN_WEEKDAYS = "一二三四五六日"
anchors = st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31))

Found = list[tuple[str, str, str]]  # mention text, first day, last day (ISO)


def spans(text: str, anchor: date) -> Found:
    return [(m.text, str(m.first_day), str(m.last_day)) for m in find_times(text, anchor)]


def on(mention: str, day: str) -> tuple[str, str, str]:
    return (mention, day, day)


# ------------------------------------------------------------------ English


@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        # Said on a Monday, "starts Monday" is a week later, not the day itself or a week back.
        ("my new job at Ctrip starts Monday", MON, [on("Monday", "2023-05-15")]),
        ("my new job at Ctrip starts Monday", WED, [on("Monday", "2023-05-15")]),
        ("my new job at Ctrip starts Monday", FRI, [on("Monday", "2023-05-15")]),
        ("The user's new job at Ctrip starts Monday.", MON, [on("Monday", "2023-05-15")]),
        ("I'll call her on Friday", WED, [on("Friday", "2023-05-12")]),
        ("We're flying out Saturday", SUN, [on("Saturday", "2023-05-20")]),
        ("The report is due Tuesday", WED, [on("Tuesday", "2023-05-16")]),
        ("I can't wait for this coming Friday!", MON, [on("Friday", "2023-05-12")]),
        ("I'll see her next Friday", MON, [on("next Friday", "2023-05-19")]),
        ("I'll see her next Friday", SUN, [on("next Friday", "2023-05-19")]),
        ("We're going camping this weekend", WED, [("this weekend", "2023-05-13", "2023-05-14")]),
        (
            "I'm going to visit my parents on the weekend",
            WED,
            [("the weekend", "2023-05-13", "2023-05-14")],
        ),
        (
            "I'm going to visit my parents on the weekend",
            SUN,
            [("the weekend", "2023-05-20", "2023-05-21")],
        ),
        ("Any plans for the weekend?", FRI, [("the weekend", "2023-05-13", "2023-05-14")]),
        ("Rent is due at the end of the month", MON, [on("the end of the month", "2023-05-31")]),
        (
            "I will move out by the end of next month",
            MON,
            [on("the end of next month", "2023-06-30")],
        ),
        ("I'm flying to Paris in March", MON, [("March", "2024-03-01", "2024-03-31")]),
        ("I'll be in Beijing on May 3rd", MON, [on("May 3rd", "2024-05-03")]),
        ("I'll be in Beijing in May", MON, [("May", "2023-05-01", "2023-05-31")]),
    ],
)
def test_english_looking_ahead(text: str, anchor: date, expected: Found) -> None:
    assert spans(text, anchor) == expected


@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        ("I went hiking on Saturday", WED, [on("Saturday", "2023-05-06")]),
        ("I went hiking on Saturday", MON, [on("Saturday", "2023-05-06")]),
        ("My job started Monday", WED, [on("Monday", "2023-05-08")]),
        ("The meeting was on Friday, so I will rest now", MON, [on("Friday", "2023-05-05")]),
        # Neutral: exactly as before.
        ("I saw him Friday", D("2023-05-13"), [on("Friday", "2023-05-12")]),
        ("on Monday", MON, [on("Monday", "2023-05-01")]),
        ("It opens in May", MON, [("May", "2023-05-01", "2023-05-31")]),
        ("We talked about the weekend", MON, []),
        ("Rent at the end of the month", MON, []),
    ],
)
def test_english_past_and_neutral_unchanged(text: str, anchor: date, expected: Found) -> None:
    assert spans(text, anchor) == expected


def test_each_mention_takes_the_tense_of_its_clause() -> None:
    text = "I went to the gym on Monday and will go again Friday"
    assert spans(text, WED) == [on("Monday", "2023-05-08"), on("Friday", "2023-05-12")]
    text = "I had planned to go Friday but will go Saturday instead"
    assert spans(text, WED) == [on("Friday", "2023-05-05"), on("Saturday", "2023-05-13")]


def test_a_clause_without_cues_takes_its_sentence() -> None:
    # "and Dad on Sunday" has no cue of its own: the sentence's "going to" decides.
    assert spans("I'm going to see Mom and Dad on Sunday", WED) == [on("Sunday", "2023-05-14")]
    # A sentence of its own is read on its own.
    text = "I'm going to rest. I went to see Dad on Sunday."
    assert spans(text, WED) == [on("Sunday", "2023-05-07")]


# ------------------------------------------------------------------ Chinese


@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        ("下周一开始上班", MON, [on("下周一", "2023-05-15")]),
        ("下周一开始上班", SUN, [on("下周一", "2023-05-15")]),
        ("我周一要去携程报到", MON, [on("周一", "2023-05-15")]),
        ("我星期五要去北京", FRI, [on("星期五", "2023-05-19")]),
        ("周五就要考试了", MON, [on("周五", "2023-05-12")]),
        ("我们周末都会在家", MON, [("周末", "2023-05-13", "2023-05-14")]),
        ("周末要去爬山", WED, [("周末", "2023-05-13", "2023-05-14")]),
        ("周末要去爬山", SUN, [("周末", "2023-05-20", "2023-05-21")]),
        ("月底要交房租", MON, [on("月底", "2023-05-31")]),
        ("月底要交房租", D("2023-05-31"), [on("月底", "2023-05-31")]),
        ("这个月底就要搬家了", MON, [on("这个月底", "2023-05-31")]),
        ("下个月底要交报告", MON, [on("下个月底", "2023-06-30")]),
        ("我打算十二月去日本", MON, [("十二月", "2023-12-01", "2023-12-31")]),
        ("我们三月要去日本", MON, [("三月", "2024-03-01", "2024-03-31")]),
    ],
)
def test_chinese_looking_ahead(text: str, anchor: date, expected: Found) -> None:
    assert spans(text, anchor) == expected


@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        ("我周一去了医院", WED, [on("周一", "2023-05-08")]),
        ("我周一去了医院", MON, [on("周一", "2023-05-01")]),
        ("我周一开始上班了", WED, [on("周一", "2023-05-08")]),
        ("上周五我们去过西湖", MON, [on("上周五", "2023-05-05")]),
        ("上个月底我们搬家了", MON, [("上个月", "2023-04-01", "2023-04-30")]),
        # Neutral: exactly as before.
        ("我周六去的", SUN, [on("周六", "2023-05-13")]),
        ("看一下周五的安排", MON, [on("周五", "2023-05-05")]),
        ("周末", MON, [("周末", "2023-05-06", "2023-05-07")]),
        ("月底交房租", MON, []),
    ],
)
def test_chinese_past_and_neutral_unchanged(text: str, anchor: date, expected: Found) -> None:
    assert spans(text, anchor) == expected


def test_chinese_mixed_sentence() -> None:
    assert spans("我周一去了医院，周五还要去", WED) == [
        on("周一", "2023-05-08"),
        on("周五", "2023-05-12"),
    ]


# ------------------------------------------------------------------ resolve_text, time_window


@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        (
            "My new job at Ctrip starts Monday.",
            MON,
            "My new job at Ctrip starts Monday. (Monday = Mon 15 May 2023)",
        ),
        (
            "I went to the gym on Monday and will go again Friday",
            WED,
            "I went to the gym on Monday and will go again Friday "
            "(Monday = Mon 8 May 2023; Friday = Fri 12 May 2023)",
        ),
        ("月底要交房租", MON, "月底要交房租 (月底 = Wed 31 May 2023)"),
        ("我周一去了医院", WED, "我周一去了医院 (周一 = Mon 8 May 2023)"),
    ],
)
def test_resolve_text_by_tense(text: str, anchor: date, expected: str) -> None:
    once = resolve_text(text, anchor)
    assert once == expected
    assert resolve_text(once, anchor) == once


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what am I doing this weekend?", ("2023-05-13", "2023-05-14")),
        ("What will I do on Saturday?", ("2023-05-13", "2023-05-13")),
        ("我下周一要做什么", ("2023-05-15", "2023-05-15")),
        ("我周一要做什么", ("2023-05-15", "2023-05-15")),
        ("我周末要干嘛", ("2023-05-13", "2023-05-14")),
        # Questions about the past, or with no cue, as before.
        ("what did I do on Saturday?", ("2023-05-06", "2023-05-06")),
        ("what happened on Saturday?", ("2023-05-06", "2023-05-06")),
        ("我周一做了什么", ("2023-05-08", "2023-05-08")),
    ],
)
def test_time_window_by_tense(query: str, expected: tuple[str, str]) -> None:
    assert time_window(query, WED) == (D(expected[0]), D(expected[1]))


# ------------------------------------------------------------------ tense cues


@pytest.mark.parametrize(
    ("text", "ahead"),
    [
        ("My new job starts Monday", True),
        ("I'm so excited, it starts Monday", True),
        ("We're going to visit Ann", True),
        ("I'm really looking forward to it", True),
        ("我下周要出差", True),
        ("周五就要考试了", True),
        ("I went hiking on Saturday", False),
        ("I started my new job", False),
        ("He won the race", False),
        ("due to the rain", False),
        ("我周一去了医院", False),
        ("我周一开始上班了", False),
        ("马上周末", True),  # 马上 "soon" + 周末, not 上周 "last week"
        ("看一下周五的安排", False),  # 一下 + 周五, not 下周
        ("We met at the café", False),
    ],
)
def test_looks_ahead(text: str, ahead: bool) -> None:
    assert looks_ahead(text) is ahead


def test_looks_ahead_at_reads_the_clause() -> None:
    text = "I went to the gym on Monday, and I'll go again Friday"
    assert not looks_ahead_at(text, text.index("Monday"))
    assert looks_ahead_at(text, text.index("Friday"))


# ------------------------------------------------------------------ properties


@given(anchors, st.integers(min_value=0, max_value=6))
def test_a_bare_weekday_looking_ahead_is_the_next_one(anchor: date, weekday: int) -> None:
    for text in (f"It starts {WEEKDAYS[weekday]}", f"我星期{CN_WEEKDAYS[weekday]}要去"):
        (mention,) = find_times(text, anchor)
        assert anchor < mention.first_day <= anchor + timedelta(days=7)
        assert mention.first_day.weekday() == weekday


@given(anchors, st.integers(min_value=0, max_value=6))
def test_a_bare_weekday_in_the_past_is_the_last_one(anchor: date, weekday: int) -> None:
    for text in (f"I went there on {WEEKDAYS[weekday]}", f"我星期{CN_WEEKDAYS[weekday]}去了"):
        (mention,) = find_times(text, anchor)
        assert anchor - timedelta(days=7) <= mention.first_day < anchor
        assert mention.first_day.weekday() == weekday


@given(anchors)
def test_month_end_looking_ahead_ends_the_anchors_month(anchor: date) -> None:
    (mention,) = find_times("月底要交房租", anchor)
    following = mention.first_day + timedelta(days=1)
    assert mention.first_day >= anchor and following.day == 1
    assert (mention.first_day.year, mention.first_day.month) == (anchor.year, anchor.month)


# ------------------------------------------------------------------ through the extractor


def test_extracted_memory_and_scene_carry_the_forward_date() -> None:
    when = datetime(2023, 5, 8, 9, 30, tzinfo=UTC)  # a Monday
    episode = Episode(
        id="ep_1",
        user_id="u",
        session_id="s1",
        agent_id=None,
        seq=1,
        role="user",
        speaker=None,
        text="My new job at Ctrip starts Monday.",
        occurred_at=when,
        recorded_at=when,
        external_id=None,
        metadata={},
        content_hash="1",
    )
    (draft,) = RulesExtractor().extract(Window((episode,))).drafts
    assert draft.text == "The user's new job at Ctrip starts Monday. (Monday = Mon 15 May 2023)"
    assert "(Monday = Mon 15 May 2023)" in draft.scene
    assert "8 May" not in draft.text and "1 May" not in draft.scene


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("if the lease comes through we move in February", "2024-02-01"),
        ("要是顺利的话，三月就去深圳", "2024-03-01"),
    ],
)
def test_a_condition_looks_ahead(text: str, month: str) -> None:
    # said in September: the month of a condition is the coming one
    (mention,) = find_times(text, D("2023-09-20"))
    assert mention.first_day.isoformat() == month


def test_a_phrase_holding_the_characters_of_if_is_no_condition() -> None:
    assert not looks_ahead("主要是三月份天气太冷了")
