import re

from hypothesis import given
from hypothesis import strategies as st

from dualtrace.text.sentences import split_sentences


def test_splits_on_end_marks_and_lines_in_both_languages() -> None:
    assert split_sentences("One. Two! Three?\nFour") == ["One.", "Two!", "Three?", "Four"]
    assert split_sentences("我住在杭州。你呢？") == ["我住在杭州。", "你呢？"]
    assert split_sentences("Hi! I moved. 我们搬家了。好的") == [
        "Hi!",
        "I moved.",
        "我们搬家了。",
        "好的",
    ]


def test_a_run_of_end_marks_and_a_closing_quote_stay_with_their_sentence() -> None:
    assert split_sentences("Really?! Yes... we did.") == ["Really?!", "Yes...", "we did."]
    assert split_sentences('We call it "Finding Home." It is a script.') == [
        'We call it "Finding Home."',
        "It is a script.",
    ]


def test_clauses_also_split_at_semicolons() -> None:
    text = "我住在杭州；预算三十万。I cook; she bakes."
    assert split_sentences(text) == ["我住在杭州；预算三十万。", "I cook; she bakes."]
    assert split_sentences(text, clauses=True) == [
        "我住在杭州；",
        "预算三十万。",
        "I cook;",
        "she bakes.",
    ]


# How extraction split turns before the two splitters were merged: after every end mark.
# Abbreviations are the exception since ("Dr. Hoffman", "U.S."), so the words drawn here
# are never one letter long.
_EXTRACTION_SPLIT = re.compile(r"(?<=[.!?。！？；;])\s*|\n+")
_PIECES = ["ab", "ba", " ", "我", *".!?。！？；;\n\"'”)"]


@given(st.lists(st.sampled_from(_PIECES), max_size=20).map("".join))
def test_clauses_split_exactly_as_extraction_always_did(text: str) -> None:
    expected = [s.strip() for s in _EXTRACTION_SPLIT.split(text) if s and s.strip()]
    assert split_sentences(text, clauses=True) == expected


def test_blank_text_has_no_sentences() -> None:
    assert split_sentences("  \n\n ") == []


def test_a_decimal_point_does_not_end_a_sentence_or_clause() -> None:
    text = "The target is 1.2 million RMB by 2028. 车位只有5.2米。Paid $3.50; fine."
    assert split_sentences(text) == [
        "The target is 1.2 million RMB by 2028.",
        "车位只有5.2米。",
        "Paid $3.50; fine.",
    ]
    assert split_sentences(text, clauses=True) == [
        "The target is 1.2 million RMB by 2028.",
        "车位只有5.2米。",
        "Paid $3.50;",
        "fine.",
    ]
    # a list's numbers and a point before a space still end one
    assert split_sentences("Steps: 1. Open it. In 2026. 5 came.") == [
        "Steps: 1.",
        "Open it.",
        "In 2026.",
        "5 came.",
    ]


def test_an_abbreviation_point_does_not_end_a_sentence_or_clause() -> None:
    text = (
        "I switched to Dr. Okafor at St. Luke's last week. We land at 7 a.m. on Friday. "
        "Bring snacks, e.g. nuts. She moved to the U.S. Then she called."
    )
    expected = [
        "I switched to Dr. Okafor at St. Luke's last week.",
        "We land at 7 a.m. on Friday.",
        "Bring snacks, e.g. nuts.",
        "She moved to the U.S.",
        "Then she called.",
    ]
    assert split_sentences(text) == expected
    assert split_sentences(text, clauses=True) == expected
    # a title with no name after it still ends its sentence
    assert split_sentences("We live on Elm St.\nIt is quiet.") == [
        "We live on Elm St.",
        "It is quiet.",
    ]


def test_a_title_typed_in_lower_case_keeps_its_name() -> None:
    text = "finally saw dr. okafor, she was great. ms. lee at the desk too"
    assert split_sentences(text) == [
        "finally saw dr. okafor, she was great.",
        "ms. lee at the desk too",
    ]
    assert split_sentences("I rang the dr. She said rest.") == ["I rang the dr.", "She said rest."]
