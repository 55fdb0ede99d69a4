"""A reply's opening pronoun names what the turn before spoke of, and only when that is sure."""

from __future__ import annotations

import pytest
from episode_builders import turn

from dualtrace.encode.base import Window
from dualtrace.encode.referents import with_referent
from dualtrace.encode.rules import RulesExtractor

SPEAKERS = ("Priya", "Tom")


def reply(before: str, text: str) -> list[str]:
    """The memory texts of Tom's reply to Priya."""
    window = Window((turn(2, text, "Tom"),), (turn(1, before, "Priya"),), SPEAKERS)
    return [d.text for d in RulesExtractor().extract(window).drafts]


@pytest.mark.parametrize(
    ("before", "text", "memory"),
    [
        (
            "Your nephews seemed so shy at the barbecue. How did they like the lake?",
            "They loved it and swam out to the island twice.",
            "Tom's nephews loved it and swam out to the island twice.",
        ),
        (
            "My grandparents keep asking about you!",
            "They're the kindest people I know, I visit them every spring.",
            "Priya's grandparents are the kindest people Tom knows",
        ),
        (
            "Dolphins are so clever. Have you seen them near the harbour?",
            "Yeah! They followed our ferry for an hour last summer.",
            "Dolphins followed Tom's ferry for an hour last summer",
        ),
        (
            "Did you finish Dune and Hyperion yet?",
            "They were both gripping, I read them in a week.",
            "Dune and Hyperion were both gripping",
        ),
        (
            "I finally met Anton at the climbing gym.",
            "He's coached me through my first outdoor route last year.",
            "Anton's coached Tom through Tom's first outdoor route last year",
        ),
        (
            "How is your daughter Greta settling in at school?",
            "Thanks for asking! She joined the chess club and loves her new teacher.",
            "Greta joined the chess club",
        ),
    ],
)
def test_an_opening_pronoun_names_the_turn_befores_antecedent(
    before: str, text: str, memory: str
) -> None:
    assert any(m.startswith(memory) for m in reply(before, text)), reply(before, text)


@pytest.mark.parametrize(
    ("before", "text"),
    [
        # two people named: which one is not sure
        ("Lena and Marco both called while you were out.", "He said he'd call back tonight."),
        # nothing the pronoun could mean
        ("That sounds lovely, how did it go?", "They all showed up on time for once."),
        # the reply already named it: "they" means what its own question named
        ("Your garden looks great.", "Did you see my tomatoes? They finally ripened last week."),
        # two plurals in the sentence before: the neighbours or the plants?
        ("It's nice to have neighbours who water your plants!", "They came back from Rome today."),
        # the reply says what they are ("my favourites"), which is not who they are
        ("Are these still your favourites?", "They are still my favourites, I wear them daily."),
        # a verb after a noun is no plural: "your cousin seems" names no "seems"
        ("Your cousin seems happy in the photo!", "They moved to Leeds in the spring."),
    ],
)
def test_an_unsure_antecedent_leaves_the_pronoun(before: str, text: str) -> None:
    pronoun = text.split("? ")[-1].split()[0]
    memories = reply(before, text)
    names = ("Lena", "Marco", "The garden", "Priya's", "My plants", "Neighbours", "My cousin")
    assert all(not m.startswith(names) for m in memories)
    assert any(m.split()[0] == pronoun for m in memories) or not memories


def test_a_short_acknowledgement_of_it_is_no_memory() -> None:
    assert reply("Those photos of the coast are stunning.", "They sure are.") == []


def test_the_replying_speakers_words_own_the_phrase() -> None:
    before = turn(1, "How are your students doing this term?", "Priya")
    said = with_referent("They're doing well in maths.", before, SPEAKERS)
    assert said == "My students are doing well in maths."
    before = turn(1, "My cousins arrive on Friday.", "Priya")
    assert with_referent("Their flight lands at noon.", before, SPEAKERS).startswith(
        "Priya's cousins' flight"
    )


def test_no_turn_before_changes_nothing() -> None:
    assert with_referent("They left early.", None, SPEAKERS) == "They left early."


@pytest.mark.parametrize(
    ("before", "text", "said"),
    [
        ("你表姐找到工作了吗？", "她上周去银行报到了，工资还不错。", "我的表姐上周去银行报到了"),
        ("赵明昨天来公司了吗？", "他来了，还给大家带了咖啡。", "赵明来了"),
        ("你爸妈身体还好吗？", "他们挺好的，刚从云南旅游回来。", "我的爸妈挺好的"),
        ("我弟考上研究生了", "他真厉害，是读哪个专业？", "Priya的弟弟真厉害"),
    ],
)
def test_a_chinese_reply_names_whom_its_pronoun_means(before: str, text: str, said: str) -> None:
    resolved = with_referent(text, turn(1, before, "Priya"), SPEAKERS)
    assert resolved.startswith(said), resolved


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("你哥和你弟都回来了吗？", "他明天才到，航班晚点了。"),  # two brothers
        ("你妹妹最近怎么样？", "他刚换了工作，在深圳。"),  # 他 is not the sister
        ("我们公司新来了个总监", "她看起来挺严厉的。"),  # no one named with whose
    ],
)
def test_an_unsure_chinese_pronoun_stays(before: str, text: str) -> None:
    assert with_referent(text, turn(1, before, "Priya"), SPEAKERS) == text
