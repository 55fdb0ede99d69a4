"""Pastimes as plain words: one list read by the catalogue's exercise and hobby attributes
and by the questions that ask every pastime."""

from __future__ import annotations

import re

import pytest

from dualtrace.text import pastimes
from dualtrace.text.slots import find_statements


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("did a spot of rock climbing then went kayaking", {"rock climbing", "kayaking"}),
        ("Ultimate  Frisbee on Thursdays", {"ultimate frisbee"}),
        ("周末去学了跆拳道，晚上还练书法", {"跆拳道", "书法"}),
        ("the runner's guide to spinach pies", set()),  # no pastime said
        ("I kept running into my ex", {"running"}),  # a word, not a meaning
        # an instrument is one; a word that names other things too is not, alone
        ("my keyboard died mid-lesson, so cello practice it is", {"cello"}),
        ("老师一直鼓励我，古筝考完六级了", {"古筝"}),
    ],
)
def test_the_pastimes_a_text_names(text: str, found: set[str]) -> None:
    assert pastimes.named(text) == found


def test_a_pastime_of_several_words_matches_any_spacing_and_a_hyphen_a_space() -> None:
    pattern = re.compile(pastimes.alternation(("jiu-jitsu", "scuba diving")), re.I)
    assert pattern.fullmatch("jiu jitsu") and pattern.fullmatch("Scuba   diving")
    assert not pattern.fullmatch("jiujitsu")


def test_every_term_is_found_by_the_words_that_name_it() -> None:
    for term in pastimes.PASTIME_TERMS:
        assert term in pastimes.named(f"I love {term}.")


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        (
            "Been kayaking every weekend since the spring, my shoulders are huge.",
            "exercise",
            "kayaking",
        ),
        ("最近开始学跆拳道了，腿好酸", "exercise", "跆拳道"),
    ],
)
def test_a_new_pastime_is_read_as_exercise(text: str, attribute: str, value: str) -> None:
    found = {(s.attribute, s.value) for s in find_statements(text)}
    assert (attribute, value) in found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("netball mon & wed now, my calves hate me", "netball"),  # days as chat shortens them
        ("squash on thurs with my brother-in-law, he always wins", "squash"),
        ("I've been doing rowing at the club since easter", "rowing"),
        ("跳绳也坚持一个多月了 膝盖没事", "跳绳"),  # kept at
        ("乒乓球我倒是一直在打 周末去社区", "乒乓球"),
        ("每天早上跟着视频练气功 睡得好多了", "气功"),
    ],
)
def test_a_sport_kept_at_or_done_on_set_days_is_held(text: str, value: str) -> None:
    said = [s for s in find_statements(text) if s.attribute == "exercise"]
    assert [(s.value, s.ended, s.hedged) for s in said] == [(value, False, False)]


@pytest.mark.parametrize(
    "text",
    [
        "羽毛球坚持不下去了 太累",  # not kept at
        "I've been thinking about doing pilates",  # a thought, not a habit
    ],
)
def test_a_sport_not_kept_at_is_not_held(text: str) -> None:
    said = [s for s in find_statements(text) if s.attribute == "exercise"]
    assert all(s.ended or s.hedged for s in said)


def test_a_sport_over_for_one_is_ended() -> None:
    (said,) = [s for s in find_statements("volleyball on fridays is over for me sadly")]
    assert (said.attribute, said.value, said.ended) == ("exercise", "volleyball", True)
