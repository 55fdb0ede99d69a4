"""One definition of a Chinese character, complete over the Han blocks."""

from __future__ import annotations

import pytest

from dualtrace.cjk import CJK, CJK_RUN, has_cjk, is_cjk
from dualtrace.store.languages import key_language
from dualtrace.text.lexical import query_terms


@pytest.mark.parametrize(
    "char",
    [
        "中",  # CJK Unified Ideographs
        "㐀",  # extension A
        "豈",  # compatibility ideograph U+F900
        "\U00020000",  # extension B
        "\U0002a700",  # extension C
        "\U0002f800",  # compatibility supplement
        "\U00030000",  # extension G
        "\U00031350",  # extension H
    ],
)
def test_every_han_block_is_chinese(char: str) -> None:
    assert is_cjk(char) and has_cjk(f"x{char}y")
    assert CJK_RUN.fullmatch(char * 3)


@pytest.mark.parametrize(
    "char",
    [
        "。",  # CJK punctuation
        "，",  # fullwidth comma
        "あ",  # hiragana
        "カ",  # katakana
        "䷀",  # Yijing hexagram, between extension A and the main block
        "⺀",  # CJK radical
        "한",  # hangul
        "A",
    ],
)
def test_marks_kana_and_symbols_are_not(char: str) -> None:
    assert not is_cjk(char) and not has_cjk(char) and CJK.search(char) is None


def test_a_word_is_chinese_only_when_every_character_is() -> None:
    assert is_cjk("地铁") and not is_cjk("地铁2号线") and not is_cjk("")
    assert has_cjk("我用的是MacBook") and not has_cjk("MacBook, 2024。")


def test_the_modules_that_ask_agree_on_a_rare_character() -> None:
    # an extension-B character in a name: the old per-module ranges missed it here
    assert key_language("\U00020bb7家") == "zh"
    assert query_terms("\U00020bb7") == ["\U00020bb7"]
