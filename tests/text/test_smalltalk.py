"""Small talk: courtesy that states nothing, however its contractions are written."""

from __future__ import annotations

import pytest

from dualtrace.text.smalltalk import is_small_talk


@pytest.mark.parametrize(
    "text",
    [
        "That's lovely, Priya!",  # "that's" is one courtesy word, not "that" and an "s"
        "You're welcome, Omar.",
        "I'm so glad for you!",
        "Good evening, Ines!",
        "好的，记住了。",
        "Hey Jonas, so good to catch up again!",  # greeting a friend in a chat between people
        "Hi Wen, lovely chatting with you!",
        "Long time no see, Ada!",
        "好久不见，很高兴又跟你聊天！",
    ],
)
def test_courtesy_is_small_talk(text: str) -> None:
    assert is_small_talk(text)


@pytest.mark.parametrize(
    "text",
    [
        "That's the bakery on Rue Cler.",
        "I'm flying to Oslo on Friday.",
        "Good evening classes start at 7 at the library.",
        "你好，我下周搬去成都。",
        "Great to chat about the new job at Siemens tomorrow.",
        "好久不见，我换了工作。",
    ],
)
def test_a_sentence_with_content_is_not(text: str) -> None:
    assert not is_small_talk(text)


def test_a_long_turn_of_courtesy_words_is_not_small_talk() -> None:
    # past MAX_WORDS words a turn says something, whatever they are
    assert not is_small_talk("Thanks so much, that is great, really great, thank you! " * 3)
    assert is_small_talk("Thanks so much, that is great!")
