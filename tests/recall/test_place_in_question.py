"""A question that names a place or an organisation still asks the user's own slot: "Which
part of Leeds do I live in?" names Leeds to say what is asked, not whose home it is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dualtrace import Memory
from dualtrace.recall.current import slot_view

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("said", "question", "answer"),
    [
        (
            [
                "My brother lives in Leeds city centre and never stops bragging about it.",
                "We moved to Meanwood in March, the flat is tiny.",
                "Can you suggest a dinner with leeks and potatoes?",
            ],
            "Which part of Leeds do I live in now?",
            "Meanwood",
        ),
        (
            [
                "我姐住在杭州西湖边，天天发朋友圈。",
                "上个月搬到滨江了，离公司近多了。",
                "推荐几本悬疑小说吧",
            ],
            "我现在住在杭州哪个区？",
            "滨江",
        ),
    ],
)
def test_the_users_own_value_leads_a_question_that_names_a_place(
    mem: Memory, said: list[str], question: str, answer: str
) -> None:
    for n, text in enumerate(said):
        mem.add(text, user_id="u", timestamp=NOW - timedelta(days=60 - 10 * n))
    hits = mem.search(question, user_id="u", limit=3, now=NOW, reinforce=False)
    assert answer in hits[0].text, [h.text for h in hits]


@pytest.mark.parametrize(
    ("said", "question"),
    [
        (
            "We moved to Meanwood in March, the flat is tiny.",
            "Which part of Leeds do I live in now?",
        ),
        ("上个月搬到滨江了，离公司近多了。", "我现在住在杭州哪个区？"),
        (
            "Started at the Arup office last week, the commute is fine.",
            "Which office of Arup do I work at?",
        ),
    ],
)
def test_a_place_named_in_the_question_keeps_the_users_slot(
    mem: Memory, said: str, question: str
) -> None:
    mem.add(said, user_id="u", timestamp=NOW - timedelta(days=30))
    asked, _ = mem._searcher.ask(question, user_id="u", now=NOW)
    assert asked.entities  # a place (杭州) or a name of no known type (Leeds, Arup)
    view = slot_view(mem.store, "u", asked)
    assert view is not None and len(view.current) == 1


def test_a_name_asked_of_still_asks_that_persons_slot(mem: Memory) -> None:
    mem.add("I work at Bosch now, mostly firmware.", user_id="u", timestamp=NOW - timedelta(days=9))
    mem.add("My friend Zeynep works at Arcelik.", user_id="u", timestamp=NOW - timedelta(days=8))
    asked, _ = mem._searcher.ask("Where does Zeynep work?", user_id="u", now=NOW)
    view = slot_view(mem.store, "u", asked)
    held = [] if view is None else [mem.get(i, user_id="u").text for i in view.current]
    assert not any("Bosch" in t for t in held)  # not the user's own employer
