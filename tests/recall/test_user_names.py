"""The user's own name: said once ("Hi, I'm Priya"), a question that names the user is read
as one about the user, and the assistant's "Hi Priya!" no longer answers it by the name."""

from __future__ import annotations

import pytest

from dualtrace import Memory
from dualtrace.text.slots import find_statements
from dualtrace.text.slots.names import as_user

T0 = "2026-03-02T18:00:00+00:00"


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Hey there, I'm Oskar, and I just moved into a new flat.", "Oskar"),
        ("My name is Mei Ling and I teach chemistry.", "Mei Ling"),
        ("Honestly just call me Bex, everyone does.", "Bex"),
        ("Good morning! This is Tunde from the night shift.", "Tunde"),
        ("哈喽，我是周杰，最近在学做饭。", "周杰"),
        ("我叫林小雨，今年刚毕业。", "林小雨"),
        ("大家都叫我小鹿。", "小鹿"),
    ],
)
def test_a_speaker_s_own_name_fills_the_name_slot(said: str, name: str):
    assert [(s.attribute, s.value) for s in find_statements(said) if s.attribute == "name"] == [
        ("name", name)
    ]


@pytest.mark.parametrize(
    "said",
    [
        "I'm Dutch, so cycling in the rain is nothing new.",
        "Hi, I am exhausted after that shift.",
        "我叫了一份外卖。",
        "我是护士，今天夜班。",
        "My sister's name is Ilse.",
    ],
)
def test_what_is_not_the_speaker_s_name_fills_no_name_slot(said: str):
    assert not any(
        s.attribute == "name" and s.subject in (None, "user") for s in find_statements(said)
    )


def test_a_question_naming_the_user_reads_as_about_the_user():
    names = ["Oskar", "周杰"]
    assert as_user("Where does Oskar work these days?", names) == (
        "Where does the user work these days?"
    )
    assert as_user("What is Oskar's dog called?", names) == "What is the user's dog called?"
    assert as_user("周杰现在住哪？", names) == "我现在住哪？"
    assert as_user("Oskar的狗叫什么？", names) == "我的狗叫什么？"
    assert as_user("Is Oskarsson coming?", names) == "Is Oskarsson coming?"


def _say(mem: Memory, user: str, lines: list[tuple[str, str]]) -> None:
    mem.add(
        [{"role": r, "content": t, "timestamp": T0} for r, t in lines],
        user_id=user,
        session_id=f"{user}-1",
    )


def test_the_name_leads_search_to_the_user_s_facts_not_the_greeting(mem: Memory):
    _say(
        mem,
        "oskar",
        [
            ("user", "Hi, I'm Oskar."),
            ("assistant", "Hi Oskar! Great to meet you, Oskar. Which city do you live in, Oskar?"),
            ("user", "I live in Uppsala, ten minutes from the cathedral."),
            ("assistant", "Lovely, Oskar! Living in a city like that must be nice, Oskar."),
        ],
    )
    hits = mem.search("Which city does Oskar live in?", user_id="oskar", limit=3)
    assert "Uppsala" in hits[0].text, [h.text for h in hits]
    assert mem._searcher.user_names("oskar") == ["Oskar"]


def test_one_user_s_name_is_no_other_user_s(mem: Memory):
    _say(mem, "oskar", [("user", "Hi, I'm Oskar and I live in Uppsala.")])
    _say(mem, "ines", [("user", "My friend Oskar lives in Malmo, I live in Porto.")])
    assert mem._searcher.user_names("ines") == []
    hits = mem.search("Where does Oskar live?", user_id="ines", limit=1)
    assert "Oskar" in hits[0].text


def test_the_read_path_reads_a_question_naming_the_user_as_the_user_s_own(mem: Memory):
    _say(mem, "oskar", [("user", "Hi, I'm Oskar."), ("user", "I live in Uppsala.")])
    question, _ = mem._searcher.ask("Which city does Oskar live in?", user_id="oskar")
    assert question.about_user and not question.names_someone_else
    assert [s.attribute for s in question.own_slots] == ["lives_in"]
    assert "oskar" not in question.terms
    other, _ = mem._searcher.ask("Which city does Oskar live in?", user_id="ines")
    assert other.names_someone_else and "oskar" in other.terms
