"""Lexical analysis shared by the write path (index text) and the read path (query terms).

English is left to the full-text engine's stemmer (FTS5 porter, Postgres english config);
Chinese has no spaces, so runs of CJK characters are segmented with jieba here, on both
sides, before the engine sees them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from dualtrace.cjk import CJK_CLASS, CJK_RUN
from dualtrace.text.script import simplified

_WORD = re.compile(rf"[{CJK_CLASS}]+|[^\W_]+(?:['’][^\W_]+)*")

# Query-side stop words: they add cost to an OR query and no signal (BM25 would weigh them
# near zero anyway). The index keeps every word.
STOP_EN = frozenset(
    """a an the and or but if of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then once
    here there when where why how all any both each few more most other some such no nor not
    only own same so than too very s t can will just don should now i me my myself we our ours
    ourselves you your yours yourself yourselves he him his himself she her hers herself it its
    itself they them their theirs themselves what which who whom this that these those am is are
    was were be been being have has had having do does did doing would could ought i'm you're
    he's she's it's we're they're i've you've we've they've i'd you'd he'd she'd we'd they'd
    i'll you'll he'll she'll we'll they'll isn't aren't wasn't weren't hasn't haven't hadn't
    doesn't don't didn't won't wouldn't shan't shouldn't can't cannot couldn't mustn't let's
    that's who's what's here's there's when's where's why's how's tell know remember""".split()
)
_STOP_ZH = frozenset(
    "的 了 吗 呢 吧 啊 我 你 他 她 它 我们 你们 他们 是 在 有 和 与 就 都 也 还 这 那 这个 那个 "
    "什么 怎么 哪 哪里 哪个 多少 一个 一下 么 过 给 说 要 会 能 把 被 让 请 上次 之前".split()
)


@lru_cache(maxsize=1)
def _jieba() -> Any:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


def _segment_cjk(run: str, *, fine: bool) -> list[str]:
    jieba = _jieba()
    words = jieba.lcut_for_search(run) if fine else jieba.lcut(run)
    return [w for w in words if w.strip()]


def segment(run: str, *, fine: bool = False) -> list[str]:
    """The words of a run of Chinese (`fine`: with the sub-words of long ones, as indexed)."""
    return _segment_cjk(run, fine=fine)


# The kinds of word (jieba's part-of-speech tags) that begin no name: a verb, an idiom, an
# adverb, a preposition, a pronoun, a particle (not an adjective: 佳怡 opens on 佳)
_NO_NAME_TAGS = frozenset("v vd vi i l ad d p r ul uj uz ug".split())


def begins_no_name(text: str, start: int, end: int) -> bool:
    """Whether the Chinese span [start, end) of a text, read as a name, is none: it opens on
    a word that begins no name ("讲" of "老婆讲要送他", "喝牛奶" of "老公喝牛奶"), or it is
    the head of a dictionary word ("预产" of "预产期")."""
    from jieba import posseg

    _jieba()  # quiet
    first = next(iter(posseg.cut(text[start:])), None)
    if first is None:
        return False
    if first.flag in _NO_NAME_TAGS:
        return True
    head = text[start:end]
    return len(first.word) > len(head) and first.word.startswith(head) and in_dictionary(first.word)


@lru_cache(maxsize=4096)
def dictionary_verb(word: str) -> bool:
    """Whether jieba's dictionary lists the word as a verb ("聊聊", "看看"; not "晴晴", a
    name it does not list)."""
    from jieba import posseg

    if not in_dictionary(word):
        return False
    pieces = list(posseg.cut(word))
    return len(pieces) == 1 and pieces[0].flag.startswith("v")


def in_dictionary(word: str) -> bool:
    """Whether jieba's dictionary lists the word (not one its model made up from context)."""
    jieba = _jieba()
    jieba.dt.check_initialized()
    return bool(jieba.dt.FREQ.get(word))


def index_text(text: str) -> str:
    """Text for the full-text index: Chinese runs segmented (with sub-words) in Simplified
    characters, so a question in either script finds them (`text/script.py`); the rest kept."""
    if not CJK_RUN.search(text):
        return text
    return CJK_RUN.sub(
        lambda m: " " + " ".join(_segment_cjk(simplified(m.group()), fine=True)) + " ", text
    )


def _content_tokens(text: str) -> Iterator[str]:
    """Lower-cased words of a text, stop words dropped, Chinese runs segmented (in Simplified
    characters, as indexed), in order."""
    for match in _WORD.finditer(text):
        token = match.group()
        if CJK_RUN.fullmatch(token):
            words = _segment_cjk(simplified(token), fine=False)
            yield from (w for w in words if w not in _STOP_ZH)
        else:
            lowered = token.lower().replace("’", "'")
            if lowered not in STOP_EN:
                yield lowered


def query_terms(text: str, *, max_terms: int = 32) -> list[str]:
    """Distinct, lower-cased search terms of a query, stop words removed, in order of appearance."""
    return list(dict.fromkeys(_content_tokens(text)))[:max_terms]


def content_words(text: str) -> frozenset[str]:
    """Every distinct content word of a text (what `query_terms` keeps, without a cap)."""
    if text.isascii():  # the common case, read at once: no Chinese, no curly quote
        return frozenset(_WORD.findall(text.lower())) - STOP_EN
    if CJK_RUN.search(text) is None:  # no run to segment: each distinct word once
        return frozenset({w.lower().replace("’", "'") for w in _WORD.findall(text)} - STOP_EN)
    return frozenset(_content_tokens(text))
