"""The user's own name: said once ("Hi, I'm Priya"), a question that names the user is read
as one about the user, and the assistant's "Hi Priya!" no longer answers it by the name."""

from __future__ import annotations

import pytest

from dualtrace import Memory
from dualtrace.text.slots import find_statements
from dualtrace.text.slots.names import addressed_name, as_user, person_names

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
    _say(mem, "ines", [("user", "Hi, I'm Ines.")])
    other, _ = mem._searcher.ask("Which city does Oskar live in?", user_id="ines")
    assert other.names_someone_else and "oskar" in other.terms


@pytest.mark.parametrize(
    ("reply", "name"),
    [
        ("Hi Solveig! Here's a week of quick dinners.", "Solveig"),
        ("Congratulations, Tobias! That promotion was a long time coming.", "Tobias"),
        ("So sorry to hear that, Pavel. Losing a pet is hard.", "Pavel"),
        ("Not bad at all, Bram, the intro reads well.", "Bram"),
        ("Good evening, Grace! Ready for the next chapter?", "Grace"),
        ("你好郭婷！这周的菜单我排好了：", "郭婷"),
        ("恭喜吴磊！新工作加油～", "吴磊"),
        ("秀英辛苦了，夜班后先好好睡一觉。", "秀英"),
        ("钱宇医生你好！摘要可以这样改：", "钱宇"),
        ("恭喜国栋大爷！海南的冬天很舒服。", "国栋"),
    ],
)
def test_the_name_an_assistant_calls_the_user_by(reply: str, name: str):
    assert addressed_name(reply) == name


@pytest.mark.parametrize(
    "reply",
    [
        "Congrats to Ines, she earned that partnership.",
        "Dear Ms Okafor, I'm writing about the boiler.",
        "Ha! Good one. Here's another joke.",
        "Wow, Lisbon! Your Portuguese will get a workout.",
        "Hi there! How can I help?",
        "Absolutely, Python is a fine first language.",
        "恭喜高升！新办公室离家近吗？",
        "辛苦了，连着加班三天真不容易。",
        "好的，假条如下：主任您好，",
    ],
)
def test_what_is_no_name_an_assistant_calls_the_user_by(reply: str):
    assert addressed_name(reply) is None


def test_the_assistant_s_name_for_the_user_reads_a_question_naming_them(mem: Memory):
    _say(
        mem,
        "solveig",
        [
            ("user", "could you sort out five dinners for me? late shifts at Contoso again"),
            ("assistant", "Hi Solveig! Here's a plan with four quick dinners."),
            ("user", "I live in Tromsø now, so fish is cheap"),
        ],
    )
    assert mem._searcher.user_names("solveig") == ["Solveig"]
    assert [v.value for v in mem.profile("solveig").values if v.attribute == "name"] == ["Solveig"]
    hits = mem.search("Where does Solveig live?", user_id="solveig", limit=1)
    assert "Tromsø" in hits[0].text, [h.text for h in hits]


def test_the_user_s_own_name_stands_beside_another_the_assistant_uses(mem: Memory):
    _say(
        mem,
        "pavel",
        [
            ("user", "hi, I'm Pavel. my son Leo wants a bedtime story about trains"),
            ("assistant", "Hi Leo! Once upon a time there was a little blue train."),
        ],
    )
    _say(mem, "pavel", [("assistant", "Hello Bram! Back again?")])
    assert mem._searcher.user_names("pavel") == ["Pavel"]
    _say(mem, "kim", [("assistant", "Hi Tobias! Sure, here's the draft.")])
    _say(mem, "kim", [("user", "oh I'm not Tobias, my name is Kim. Tobias is my brother")])
    assert mem._searcher.user_names("kim") == ["Kim"]


def test_someone_the_user_just_named_is_not_the_user(mem: Memory):
    _say(
        mem,
        "ana",
        [
            ("user", "my son Leo wants a bedtime story about trains"),
            ("assistant", "Hi Leo! Once upon a time there was a little blue train."),
        ],
    )
    assert mem._searcher.user_names("ana") == []


def test_a_full_name_s_first_name_names_the_user():
    assert as_user("Where does Tobias live now?", ["tobias berg"]) == (
        "Where does the user live now?"
    )
    assert as_user("Is Tobiasz here?", ["tobias berg"]) == "Is Tobiasz here?"


def test_a_name_nothing_stored_has_heard_of_asks_about_the_user(mem: Memory):
    _say(
        mem,
        "noname",
        [
            ("user", "moved to Tromsø last spring, the light here is unreal"),
            ("user", "my sister Ilse still lives in Bergen and keeps asking me to visit"),
            ("assistant", "Bergen is lovely in May, and so is the train ride over."),
            ("user", "had lunch with Melanie from work, she's moving to Oslo"),
        ],
    )
    searcher = mem._searcher
    assert searcher.unheard_names("noname", "Where is Mel moving?") == []  # an alias
    assert searcher.unheard_names("noname", "Where does Solveig live now?") == ["Solveig"]
    assert searcher.unheard_names("noname", "Where does Ilse live now?") == []
    assert searcher.unheard_names("noname", "Does Solveig know Aurelio?") == []  # two
    assert searcher.unheard_names("noname", "What is my Quorbit login?") == []  # the user's
    # ... nor is a name that only a memory or turn of someone else's holds (Melanie, Ilse)
    assert searcher.unrelated_names("noname", "Where is Mel moving?") == []
    assert searcher.unrelated_names("noname", "Where does Ilse live now?") == []
    assert searcher.unrelated_names("noname", "Where does Solveig live now?") == ["Solveig"]
    hits = mem.search("Which city does Solveig live in?", user_id="noname", limit=1)
    assert "Tromsø" in hits[0].text, [h.text for h in hits]
    hits = mem.search("Which city does Ilse live in?", user_id="noname", limit=1)
    assert "Bergen" in hits[0].text, [h.text for h in hits]


def test_a_user_with_a_name_asks_about_another_by_an_unheard_one(mem: Memory):
    _say(mem, "pavel", [("user", "hi, I'm Pavel. I live in Brno.")])
    question, _ = mem._searcher.ask("Where does Solveig live?", user_id="pavel")
    assert question.names_someone_else


def test_a_company_is_no_person_a_question_names():
    assert person_names("Is Spotify hiring this spring?") == []
    assert person_names("Where does Solveig live now?") == ["Solveig"]
