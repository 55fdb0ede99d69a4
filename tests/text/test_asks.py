"""A sentence that asks states nothing of its speaker, with or without its question mark."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from episode_builders import turn

from dualtrace.encode.base import Window
from dualtrace.encode.rules import RulesExtractor
from dualtrace.models import MemoryDraft
from dualtrace.text.question_cues import asks, stated_part


@pytest.mark.parametrize(
    "sentence",
    [
        "新车保险一般都买哪些",
        "跑完步膝盖疼正常吗",
        "这种药饭前吃还是饭后吃呢",
        "笔记本电脑怎么清灰",
        "which running shoes are good for flat feet",
        "what should I pack for Iceland in March",
        "is it ok to water succulents every day",
        "Where do I renew a passport?",
        "ok so which bus pass is cheaper for students",
        "also what do people tip a mover",
        "is a 40 minute nap too long",
        "why does my sourdough collapse",
        "where can i print photos near the station",
        "did my parcel say signed for",
        "这个药要吃多久",
        "驾照从哪开始练比较好",
        "周末去哪吃饭好，推荐一下",
        "明天几点出发比较好",
        "这样穿行不行",
    ],
)
def test_questions_ask(sentence: str) -> None:
    assert asks(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "我现在每天骑车上班。",
        "我什么都吃。",
        "How we met is a funny story.",
        "What a week!",
        "It is fine, I run on Sundays.",
        "最近在控糖嘛，早上改成燕麦了",
        "When I lived in Oslo I cycled everywhere",
        "Was at the pool all morning",
        "Have a lovely evening",
        "I still need to work out what to cook",
        "我姐帮我挑了一件外套。",
    ],
)
def test_statements_do_not_ask(sentence: str) -> None:
    assert not asks(sentence)


def test_a_question_without_its_mark_makes_no_memory() -> None:
    drafts = _drafts("入职体检一般都查些啥")
    assert drafts == []


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("搬到厦门快两周了，附近有什么好吃的", "搬到厦门快两周了"),
        ("the dishwasher leaks again, what should I check first", "the dishwasher leaks again"),
        ("got a new bike, any tips for the chain?", "got a new bike"),
        ("is it normal, the bill doubled?", ""),
        ("We moved to Bath, which is lovely.", "We moved to Bath, which is lovely."),
        ("我住在苏州，你觉得怎么样", "我住在苏州"),
    ],
)
def test_a_sentence_that_ends_on_a_question_states_what_comes_before(
    sentence: str, stated: str
) -> None:
    assert stated_part(sentence) == stated


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        # Chinese chat puts a space where the comma goes, and asks in the middle
        ("说个事 红烧肉怎么炖才软 我住在松江 楼下就有菜场", "说个事 我住在松江 楼下就有菜场"),
        ("复查说我血糖偏高 早饭怎么吃比较好 我平时不吃甜的", "复查说我血糖偏高 我平时不吃甜的"),
        # (one that opens on its question is read whole, as before: what it names in passing)
        ("我家兔子团团不吃草咋办", "我家兔子团团不吃草咋办"),
    ],
)
def test_a_chinese_sentence_that_asks_in_the_middle_states_the_rest(
    sentence: str, stated: str
) -> None:
    assert (stated_part(sentence) or sentence) == stated


def test_the_statement_before_a_question_makes_a_memory() -> None:
    (draft,) = _drafts("搬到厦门快两周了，附近有什么好吃的")
    assert draft.slot is not None and draft.slot["value"] == "厦门"


def _drafts(text: str) -> list[MemoryDraft]:
    """What extraction draws from one user turn said on 12 May 2026."""
    said = turn(1, text, speaker="user", when=datetime(2026, 5, 12, 20, tzinfo=UTC))
    return RulesExtractor().extract(Window((said,), (), ("user",))).drafts
