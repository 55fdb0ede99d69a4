"""A sentence that asks states nothing of its speaker, with or without its question mark."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dualtrace.encode.base import Window
from dualtrace.encode.rules import RulesExtractor
from dualtrace.models import Episode
from dualtrace.text.question_cues import asks


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
    ],
)
def test_statements_do_not_ask(sentence: str) -> None:
    assert not asks(sentence)


def test_a_question_without_its_mark_makes_no_memory() -> None:
    when = datetime(2026, 5, 12, 20, tzinfo=UTC)
    said = Episode(
        id="e1",
        user_id="u",
        session_id="s1",
        agent_id=None,
        seq=1,
        role="user",
        speaker="user",
        text="入职体检一般都查些啥",
        occurred_at=when,
        recorded_at=when,
        external_id=None,
        metadata={},
        content_hash="1",
    )
    drafts = RulesExtractor().extract(Window((said,), (), ("user",))).drafts
    assert drafts == []
