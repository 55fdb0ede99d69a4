"""Recall triggers: which turns need long-term memory (EN and ZH)."""

from __future__ import annotations

import pytest

from dualtrace import needs_memory
from dualtrace.recall.triggers import recall_trigger

PAST = [
    "What did we decide last time?",
    "As I said, I prefer aisle seats.",
    "As we discussed, book the same hotel.",
    "Remember when we went hiking in the hills?",
    "You told me about a good book, what was it?",
    "Order my usual, please.",
    "Can you play that song again?",
    "Use the same address as before.",
    "之前说的方案怎么样了？",
    "上次那家餐厅叫什么？",
    "那个文件发我一下",
    "你还记得我女儿的名字吗？",
    "我说过我不吃辣。",
    "老样子，一杯拿铁。",
]
NEW_SESSION = ["Hi again!", "I'm back, let's continue.", "你好，我又来了", "好久不见！"]
ABOUT_ME = [
    "What's my budget?",
    "Where do I live?",
    "How old am I?",
    "我的预算",
    "我的预算是多少？",
    "我住在哪里？",
]
SELF_CONTAINED = [
    "what is 2+2",
    "Translate this sentence into French.",
    "How do I sort a list in Python?",
    "What is the capital of France?",
    "Write a haiku about the sea.",
    "Before we start, explain recursion.",
    "hello",
    "把这句话翻译成英文",
    "今天天气怎么样？",
    "二加二等于几",
    "写一首关于春天的诗",
    "你好",
]


@pytest.mark.parametrize("text", PAST)
def test_references_to_the_past_need_memory(text: str) -> None:
    assert needs_memory(text)
    assert recall_trigger(text).reason == "refers to the past"


@pytest.mark.parametrize("text", NEW_SESSION)
def test_a_new_session_needs_memory(text: str) -> None:
    trigger = recall_trigger(text)
    assert trigger.needs and trigger.reason == "new session" and trigger.cue


@pytest.mark.parametrize("text", ABOUT_ME)
def test_questions_about_the_user_need_memory(text: str) -> None:
    assert recall_trigger(text).reason == "about the user"


@pytest.mark.parametrize("text", SELF_CONTAINED)
def test_self_contained_turns_need_no_memory(text: str) -> None:
    trigger = recall_trigger(text)
    assert not needs_memory(text)
    assert (trigger.needs, trigger.reason, trigger.cue) == (False, "none", None)
