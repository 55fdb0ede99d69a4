"""Small talk: greetings, acknowledgements and pleasantries that state nothing.

An assistant's "Nice to meet you, Sam!", "Got it, I'll keep that in mind.", "Congratulations!
When do you start?" or "好的，记住了。" tells a reader nothing about the user. A turn is small
talk when it is short and every sentence of it is either made of closed-class courtesy
words (greetings, thanks, acknowledgements, congratulations, sympathy, offers to help), with
at most a name or a filler word left over, or a short question back to the speaker ("When
do you start?"). Anything with content — a recommendation, a number, a place — is not.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice

from dualtrace.cjk import has_cjk
from dualtrace.text.script import simplified
from dualtrace.text.sentences import split_sentences

MAX_WORDS = 16  # a longer turn says something, whatever its courtesy words
MAX_CJK_CHARS = 24
MAX_QUESTION_WORDS = 6  # "When do you start?", "你什么时候开始？"
MAX_LEFT_WORDS = 1  # a name ("Sam") or one filler word may remain beside the courtesy
_EN_WORDS = (
    r"hi|hello|hey|good morning|good afternoon|good evening|welcome|nice|great|glad|lovely"
    r"|wonderful|awesome|cool|pleased|happy|to|meet|you|your|yours|it|that|this|is|so|much|back"
    r"|very|really|too|see|talk|again|thanks?|thank|cheers|sure|of course|okay|ok|alright"
    r"|all right|got|noted|understood|will do|i'll|i will|i|i'm|am|keep|in|mind|remember"
    r"|help|with|anything|else|let me know|congrats|congratulations|well done|sorry|hear"
    r"|about|for|sharing|telling|me|no problem|you're|welcome|absolutely|definitely|perfect"
    r"|sounds|good|fine|yes|yeah|a|an|the|and|oh|wow|haha|bye|goodbye|take care|that's"
    r"|news|exciting|amazing|here|be|always|just|by the way|btw|now|what|how|can|do"
    r"|chat|chatting|catch up|catching up|speak|speaking|hear from|hearing from|been a while"
    r"|long time no see|it's been|appreciate|appreciated|appreciate it|best of luck|good luck"
    r"|luck|hope|hoping|going|well|means a lot|a lot|asking|askin'|kind|words|oof|ugh|aw|aww"
    r"|could|rooting|cheering|proud|keep it up|keep going|never give up|give up|there"
    r"|believe in yourself|you got this|hang in there|all the way|fingers crossed|woah|whoa"
    r"|woohoo|pic|photo|picture"
)
# "Thanks for the advice!", "Thank you so much for asking": gratitude, whatever it is for,
# in a few words
_THANKS = re.compile(
    r"^\W*(?:thanks|thank you|thx|appreciate it)(?:\s+(?:so much|a lot|again))?\s+for\b", re.I
)
MAX_THANKS_WORDS = 7
# longest first: "that's" is one courtesy word, not "that" and a stray "s"
_EN = re.compile(
    r"\b(?:" + "|".join(sorted(_EN_WORDS.split("|"), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"好久不见|好的|好|嗯|收到|明白了?|知道了|了解|记住了?|记下了?|没问题|不客气|谢谢你?|感谢|恭喜你?|祝贺你?"
    r"|你好|您好|很高兴(?:认识你)?|认识你|太棒了?|真棒|不错|加油|辛苦了|抱歉|对不起|再见|哈+|哇"
    r"|当然|可以|行|欢迎|我会|帮你|随时|的|了|啊|呀|吧|呢|哦|噢|喔|都|我|你|很|真|太|聊天|聊聊|又|跟|和"
)
_WORD = re.compile(r"[^\W\d_]+(?:'[a-z]+)?", re.IGNORECASE)
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@lru_cache(maxsize=4096)
def is_small_talk(text: str) -> bool:
    """Whether a turn is only greetings, acknowledgements, pleasantries and short questions
    back, stating nothing (see the module docstring).

        >>> is_small_talk("Nice to meet you, Sam!")
        True
        >>> is_small_talk("好的，记住了。")
        True
        >>> is_small_talk("Thanks! The Thai place on 5th street is open until 11.")
        False
    """
    text = simplified(text).strip()
    if not text or _too_long(text):
        return False
    sentences = split_sentences(text)
    return bool(sentences) and all(_courtesy(s) or _short_question(s) for s in sentences)


def _too_long(text: str) -> bool:
    """More words (or CJK characters) than a pleasantry has, counted only that far: most
    turns an assistant says are far longer, and counting all their words took ~0.05 ms."""
    if has_cjk(text):
        return _more_than(_CJK_CHAR, text, MAX_CJK_CHARS)
    return _more_than(_WORD, text, MAX_WORDS)


def _more_than(pattern: re.Pattern[str], text: str, most: int) -> bool:
    return sum(1 for _ in islice(pattern.finditer(text), most + 1)) > most


def _courtesy(sentence: str) -> bool:
    """A sentence with no more than a name or a filler left once courtesy words are out."""
    if any(c.isdigit() for c in sentence):
        return False  # a number says something: "我用的是iPhone 15。"
    if has_cjk(sentence):
        # (a word in Latin letters left over counts as two characters: "谢谢Leo" is thanks,
        # "我开的是Model Y" is a car)
        latin = len(_LATIN_WORD.findall(_EN.sub(" ", sentence)))
        left = _CJK_CHAR.findall(_ZH.sub("", sentence))
        return len(left) + 2 * latin <= 2 * MAX_LEFT_WORDS and len(left) < len(
            _CJK_CHAR.findall(sentence)
        )
    words = _WORD.findall(sentence)
    if _THANKS.match(sentence) and len(words) <= MAX_THANKS_WORDS:
        return True
    left = _WORD.findall(_EN.sub(" ", sentence))
    return len(left) <= MAX_LEFT_WORDS and len(left) < len(words)


def _short_question(sentence: str) -> bool:
    """A short question back ("When do you start?"): it asks, it does not state."""
    if not sentence.rstrip().endswith(("?", "？")):
        return False
    if has_cjk(sentence):
        return len(_CJK_CHAR.findall(sentence)) <= 2 * MAX_QUESTION_WORDS
    return len(_WORD.findall(sentence)) <= MAX_QUESTION_WORDS
