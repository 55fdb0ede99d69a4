"""Whose matter a question asks about, and whose a text opens on."""

from __future__ import annotations

import pytest

from dualtrace.text.owners import about_other, asks_about_self


@pytest.mark.parametrize(
    "question",
    [
        "Where did we park the car last night?",
        "When is my dentist appointment?",
        "How much did I pay for the sofa?",
        "我们家的wifi密码是多少？",
        "我下周几点的航班？",
    ],
)
def test_questions_about_the_speakers_own_matter(question: str) -> None:
    assert asks_about_self(question)


@pytest.mark.parametrize(
    "question",
    [
        "Where does my brother work now?",
        "What did our landlord say about the boiler?",
        "Who fixed our sink?",  # the answer is a person
        "What is her new phone number?",
        "How tall is the bookshelf?",  # no one's: nothing to tell
        "Which US state did Tim visit first?",  # the country, not "us"
        "我妹妹在哪里上学？",
        "谁帮我们取的快递？",
        "他什么时候回来？",
    ],
)
def test_questions_about_someone_else_or_no_one(question: str) -> None:
    assert not asks_about_self(question)


@pytest.mark.parametrize(
    "text",
    [
        "Tom's new bike cost him a fortune.",
        "The Garcias' garden is full of tomatoes this year.",
        "My brother-in-law just got a promotion at the bank.",
        "Our landlord is raising the rent in June.",
        "The user's neighbour's son plays the drums every night.",
        "She finally passed her driving test.",
        "表姐的婚礼定在十月了。",
        "用户邻居家的狗又跑丢了。",
        "同事刚换了新手机，是折叠屏的。",
    ],
)
def test_texts_opening_on_another_persons_matter(text: str) -> None:
    assert about_other(text)


@pytest.mark.parametrize(
    "text",
    [
        "I left my umbrella at the office.",
        "Our flat is on the sixth floor.",
        "The user's car is due for a service.",  # the user's own, not someone's
        "My sister and I booked the same hotel.",  # the speaker takes part
        "My uncle drove me to the airport.",
        "It's the third rainy weekend in a row.",
        "Went to my cousin's wedding on Saturday.",  # a person further in: an object
        "我和老公周末去看了房子。",
        "周日去外婆家吃饭。",
        "我们的车停在B2层。",
        "老婆帮我订了明天的票。",
    ],
)
def test_texts_that_are_the_speakers_own_or_no_ones(text: str) -> None:
    assert not about_other(text)


@pytest.mark.parametrize(
    "text",
    [
        "Yeah, my cousin just bought a Tesla.",  # a reply's first word
        "Oh, her flat is in Leith now.",
        "嗯，他换到了新公司。",
        "对，她还在深圳上班。",
        "我爸退休以后天天钓鱼。",  # a parent by one character
        "用户妈在学跳广场舞。",
        "我弟在腾讯上班，天天加班。",  # a sibling by one character
        "她姐刚换了工作。",
        "老爸最近迷上了摄影。",
    ],
)
def test_a_text_opening_on_another_person_after_a_reply_word_or_a_short_kin_word(
    text: str,
) -> None:
    assert about_other(text)


@pytest.mark.parametrize(
    "text", ["Yeah, I switched to tea.", "嗯，我搬到了厦门。", "我妈和我去了超市。"]
)
def test_the_speakers_own_matter_after_a_reply_word(text: str) -> None:
    assert not about_other(text)


@pytest.mark.parametrize(
    "text",
    ["Mia的车每半年保养一次", "小郑家的狗特别能吃", "老刘说下周要搬去深圳", "小黄也在学吉他"],
)
def test_a_chinese_text_opening_on_a_person_by_name(text: str) -> None:
    assert about_other(text)


@pytest.mark.parametrize(
    "text", ["小时候我在外婆家长大", "小区里新开了一家面包店", "小郑跟我一起去爬山了"]
)
def test_a_chinese_text_the_name_does_not_make_anothers(text: str) -> None:
    assert not about_other(text)


@pytest.mark.parametrize(
    "text",
    [
        "Rachel also got a new manager, some guy from the Berlin office.",
        "Owen on the sales team got promoted last week.",
        "Chloe bought a standing desk from IKEA.",
        "Oh, Nathan finally moved to Bristol.",
    ],
)
def test_an_english_text_opening_on_a_person_doing_something(text: str) -> None:
    assert about_other(text)


@pytest.mark.parametrize(
    "text",
    [
        "Will you remind me tomorrow?",  # a word that is also a name
        "Mark the date in my calendar.",
        "Ethan drove me to the station.",  # the speaker takes part
        "Hazel here, back from holiday.",  # the speaker's own name
        "Mochi knocked my mug off the desk.",  # a pet's name, not a person's
        "Costco has a sale on nappies.",
    ],
)
def test_an_english_opening_word_that_is_no_one_elses_matter(text: str) -> None:
    assert not about_other(text)


@pytest.mark.parametrize(
    "text",
    [
        "小吴的车位在B2，我的在B3",  # whose thing: its own clause decides
        "小何家的猫一天吃三顿，比我家的能吃",
        "球友老周膝盖又伤了",
        "Emma一直带她女儿去那家游泳馆",
    ],
)
def test_a_chinese_text_opening_on_someones_thing_or_a_friend_by_name(text: str) -> None:
    assert about_other(text)
