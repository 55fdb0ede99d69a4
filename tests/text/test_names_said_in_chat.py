"""The speaker's name as chat says it: after a greeting typed in a hurry ("heyy im beth 🙃",
"hiya its tamsin"), before "here" and an emoji ("declan here 👋"), after 在吗, or alone
before what the speaker does ("救命😭 我是思琪，在武汉读大三"); and what is no name ("hello
its raining", "我是新人，在…"). A question that names the user then reads as the user's, and
so does one that names a person whom nothing stored speaks of as someone else."""

from __future__ import annotations

import pytest
from episode_builders import held_statements

from dualtrace import Memory
from dualtrace.text.slots import find_statements
from dualtrace.text.slots.names import addresses, speaks_of


def _names(text: str) -> list[str | None]:
    return [s.value for s in find_statements(text) if s.attribute == "name"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("heyy im tomasz 🙃 quick q about visas", "Tomasz"),
        ("hiya its tamsin, quick one", "Tamsin"),
        ("ronan here 👋 need a hand with a cv", "Ronan"),
        ("在吗～我是梓涵，想问个事", "梓涵"),
        ("救命😭 我是雨桐，在成都读研一", "雨桐"),
        ("quick one, name's kwabena mensah btw", "Kwabena"),
        ("perfect, sign it Tomasz Nowak please", "Tomasz Nowak"),
        ("可以 署名写周雨桐就行", "周雨桐"),
        ("ok sign it off from Zoë Brennan", "Zoë Brennan"),  # accents in a name
        ("Je m'appelle Aurélie. Is that right?", "Aurélie"),  # practising a language
        ("Ich heiße Dominik und wohne in Graz.", "Dominik"),
        ("Read it out at the party — it's from me, Saoirse, to the team.", "Saoirse"),
        ("俺叫王铁柱 在县城开五金店", "王铁柱"),
        ("我叫陈思远 以后叫我小陈就行", "陈思远"),  # not the nickname offered after
        ("could you sign it off as Bronwyn Hale?", "Bronwyn Hale"),  # a request names it
        ("name's Obi btw, long time listener", "Obi"),
        ("ok so I'm Marisol and I run a bakery", "Marisol"),
        ("I'm Idris by the way, nice to meet you", "Idris"),
        ("Anders Holm, 41, ex-teacher, want to retrain", "Anders Holm"),  # as a CV opens
        ("落款：周晓彤", "周晓彤"),
        ("我姓郑，叫郑雅文", "郑雅文"),
        ("本人刘建军，今年五十二", "刘建军"),
        ("sign off as Yusuf please", "Yusuf"),
        ("sign it off with my name, Greta Lind", "Greta Lind"),
        ("put my name at the end: Oluwaseun Ade", "Oluwaseun Ade"),
        ("it's me, Priyanka! back with another one", "Priyanka"),
        ("Ngozi here again with a budget question", "Ngozi"),
        ("hiya, Ruairi again", "Ruairi"),
        ("我是郑雅文 想问个事", "郑雅文"),
        ("我是小满呀 又来麻烦你了", "小满"),
        ("哈喽 思琪又来啦", "思琪"),
        ("周建平，退休老师，想学剪视频", "周建平"),
        ("我，钱文博，今年刚毕业", "钱文博"),
        ("署名用我的名字：许嘉怡", "许嘉怡"),
        ("hi there, Thandiwe here 🙋 quick one about payroll", "Thandiwe"),  # greeting + there
        ("hello all, Mateus here! new to this", "Mateus"),
        ("hey! rose here 👋 need a packing list", "Rose"),  # a name that is a word too
        ("Good evening! Babajide here. Quick question on pensions", "Babajide"),
    ],
)
def test_a_name_said_in_chat(text: str, name: str) -> None:
    assert _names(text) == [name]


@pytest.mark.parametrize(
    "text",
    [
        "hello its raining here lol",
        "hey its me again",
        "我是新人，在这边啥也不懂",
        "so I'm Gen Z and proud of it",
        "ok so I'm British and I queue for everything",
        "Thanks, Dana",  # said to Dana
        "cheers Tom!",
        "我是小白 啥都不懂",  # a beginner
        "哈喽 今天又来问了",
        "hey, again the same error",
        "hi all, new here! be gentle",
        "hey, still here lol",
    ],
)
def test_what_is_no_name(text: str) -> None:
    assert _names(text) == []


def test_a_question_by_the_users_name_reads_as_theirs(mem: Memory) -> None:
    mem.add(
        "ronan here 👋 need a hand with a cv for a nursing job",
        user_id="u",
        timestamp="2025-01-05T10:00:00Z",
    )
    mem.add(
        "update: moved to Limerick last month, loving it",
        user_id="u",
        timestamp="2025-03-01T10:00:00Z",
    )
    hits = mem.search("Where does Ronan live now?", user_id="u", limit=1)
    assert "Limerick" in hits[0].text


@pytest.mark.parametrize(
    ("reply", "name", "addressed"),
    [
        ("Hi Orla! Happy to help with that.", "Orla", True),
        ("Thanks, Kwame. Here's a plan:", "Kwame", True),
        ("Congratulations, Femi!", "Femi", True),
        ("Orla, that sounds like a great move.", "Orla", True),
        ("梓涵你好！可以的", "梓涵", True),
        ("Tell Orla I said hi!", "Orla", False),
        ("Good luck with Kwame's party", "Kwame", False),
        ("Congratulations! Pixel is a great name for a kitten.", "Pixel", False),
    ],
)
def test_a_reply_that_speaks_to_someone(reply: str, name: str, addressed: bool) -> None:
    assert addresses(reply, name) is addressed


def test_the_name_the_assistant_greets_the_user_by_is_theirs(mem: Memory) -> None:
    jan, mar = "2025-01-05T10:00:00Z", "2025-03-01T10:00:00Z"
    turns = [
        # (the name is in the user's words, but not said as theirs)
        {
            "role": "user",
            "content": "Niamh Byrne, 4 yrs sous chef in a hotel kitchen, can u do a cover letter",
        },
        {"role": "assistant", "content": "Hi Niamh! Sure, tell me about the kitchen."},
    ]
    mem.add(turns, user_id="u", timestamp=jan)
    mem.add("update: moved to Limerick last month, loving it", user_id="u", timestamp=mar)
    mem.add("my sister Aoife lives in Cork", user_id="u", timestamp=mar)
    searcher = mem._searcher  # the question as the read path reads it
    assert searcher.addressed_names("u", "Where does Niamh live now?") == ["Niamh"]
    assert searcher.addressed_names("u", "Where does Aoife live?") == []
    assert "Limerick" in mem.search("Where does Niamh live now?", user_id="u", limit=1)[0].text
    assert "Cork" in mem.search("Where does Aoife live?", user_id="u", limit=1)[0].text


@pytest.mark.parametrize(
    ("text", "name", "spoken_of"),
    [
        ("Rosa's flat is two floors up", "Rosa", True),
        ("my colleague Idris has a new bike", "Idris", True),
        ("Mateo下个月上小学了", "Mateo", True),
        ("晓晴去成都读研了", "晓晴", True),
        ("great, sign it off from Lucía Romero", "Lucía", False),
        ("breathe, lucía. one thing at a time", "lucía", False),
        ("Me llamo Lucía y vivo en Leeds", "Lucía", False),
        ("the card is from me, Lucía, to the whole team", "Lucía", False),
        ("落款写陈晓晴就行", "陈晓晴", False),
    ],
)
def test_a_name_spoken_of_or_said_as_ones_own(text: str, name: str, spoken_of: bool) -> None:
    assert speaks_of(text, name) is spoken_of


def test_a_name_the_user_only_signs_with_is_theirs(mem: Memory) -> None:
    jan, apr = "2025-01-05T10:00:00Z", "2025-04-02T10:00:00Z"
    mem.add(
        "can you tidy this thank-you note? sign it off from Lucía Romero",
        user_id="u",
        timestamp=jan,
    )
    mem.add("my colleague Idris lives out in Headingley", user_id="u", timestamp=jan)
    mem.add("Rosa's flat is in Chapel Allerton, mine is in Meanwood", user_id="u", timestamp=jan)
    mem.add("renewed the lease in Meanwood for another year", user_id="u", timestamp=apr)
    searcher = mem._searcher
    assert searcher.unrelated_names("u", "Which part of town does Lucía live in?") == ["Lucía"]
    assert searcher.unrelated_names("u", "Where does Idris live?") == []  # a colleague
    assert searcher.unrelated_names("u", "Where is Rosa's flat?") == []  # spoken of
    assert searcher.unrelated_names("u", "Do Lucía and Rosa live close?") == []  # two names
    # a capitalised word in no person's place names no one: a place, a brand
    assert searcher.unrelated_names("u", "When is the check-in at the Tahoe cabin?") == []
    hit = mem.search("Which part of town does Lucía live in?", user_id="u", limit=1)[0]
    assert "Meanwood" in hit.text


def test_a_longer_form_of_the_users_name_is_theirs(mem: Memory) -> None:
    jan, mar = "2025-01-05T10:00:00Z", "2025-03-01T10:00:00Z"
    mem.add("hello, I'm Kath, retired nurse in Hobart", user_id="u", timestamp=jan)
    mem.add("my husband Graham wants a shed for his birthday", user_id="u", timestamp=mar)
    mem.add("my sister Kathleen lives in Perth now", user_id="u", timestamp=mar)
    searcher = mem._searcher
    assert searcher.own_names("u", "What's Katherine's husband called?") == ["Kath", "Katherine"]
    assert searcher.own_names("u", "Where does Kathleen live?") == ["Kath"]  # a sister
    hit = mem.search("What's Katherine's husband called?", user_id="u", limit=1)[0]
    assert "Graham" in hit.text


def test_a_chinese_name_as_friends_call_it_is_the_users(mem: Memory) -> None:
    jan, mar = "2025-01-05T10:00:00Z", "2025-03-01T10:00:00Z"
    mem.add("你好 我叫周雨涵 在苏州做会计", user_id="u", timestamp=jan)
    mem.add("我妹妹周雨菲在南京读书", user_id="u", timestamp=jan)
    mem.add("上个月搬到工业园区了 离公司近", user_id="u", timestamp=mar)
    searcher = mem._searcher
    assert searcher.own_names("u", "雨涵现在住在哪？") == ["周雨涵", "雨涵"]
    assert searcher.own_names("u", "小周现在住在哪？") == ["周雨涵", "小周"]
    assert searcher.own_names("u", "雨菲在哪读书？") == ["周雨涵"]  # a sister, named apart
    hit = mem.search("雨涵现在住在哪？", user_id="u", limit=1)[0]
    assert "工业园区" in hit.text


def test_a_letter_the_user_drafts_is_signed_with_their_name() -> None:
    draft = (
        "can you tidy this up?\nDear Ms Grant,\nthe boiler is broken again.\n"
        "Kind regards,\nIfeoma Obi"
    )
    assert ("name", "Ifeoma Obi") in held_statements(draft)
