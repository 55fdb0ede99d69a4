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
