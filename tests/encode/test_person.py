"""Third-person rewriting keeps English grammar: verb agreement with negations and plural
subjects, a possessive pronoun as a subject, and a capital at each sentence's start; "you"
only as a word ("youth" is no one), and Chinese 我 only as a pronoun (自我介绍 stays)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.encode.person import to_third_person


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("I don't eat pork.", "The user doesn't eat pork."),
        ("I really don’t mind the rain.", "The user really doesn’t mind the rain."),
        ("I haven't called her, I can't.", "The user hasn't called her, the user can't."),
        ("Tom and I are driving to Oslo.", "Tom and the user are driving to Oslo."),
        # an adverb in -ly before the verb, not the verb: never "basicallies live"
        ("I basically live in the studio.", "The user basically lives in the studio."),
        ("I apply for two jobs a day.", "The user applies for two jobs a day."),
        ("Lena and I were roommates.", "Lena and the user were roommates."),
        ("Yours is red. Mine is blue.", "Yours is red. The user's one is blue."),
        ("The blue one is mine.", "The blue one is the user's."),
        ("I run. I swim on Sundays.", "The user runs. The user swims on Sundays."),
    ],
)
def test_third_person_keeps_grammar(said: str, written: str) -> None:
    assert to_third_person(said, "the user") == written


def test_a_named_speaker_reads_the_same() -> None:
    assert to_third_person("I don't drive. Mine is a bike.", "Caroline") == (
        "Caroline doesn't drive. Caroline's one is a bike."
    )


@pytest.mark.parametrize(
    ("said", "written"),
    [
        # "our" where the speaker says "we" is the group's: never "Ana's" alone
        ("We all cooked our own dinners.", "Ana and others all cooked their own dinners."),
        ("We'd love to host our cousins.", "Ana and others would love to host their cousins."),
        ("We treated ourselves.", "Ana and others treated themselves."),
        ("Our flat is small.", "Ana's flat is small."),
        ("I flew to the US with my son.", "Ana flew to the US with Ana's son."),
    ],
)
def test_we_and_our_keep_the_group(said: str, written: str) -> None:
    assert to_third_person(said, "Ana") == written


@pytest.mark.parametrize(
    ("said", "written"),
    [
        # "you" is the one listener: a memory is read by someone to whom "you" is no one
        ("Your playlist got me through the exam.", "Lin's playlist got Ana through the exam."),
        ("I hope you like the scarf.", "Ana hopes Lin likes the scarf."),
        ("I know you're busy, so I booked it myself.", "Ana knows Lin is busy, so Ana booked it."),
        (
            "If you ever come to Porto, I'll show you around.",
            "If Lin ever comes to Porto, Ana will show Lin around.",
        ),
        ("You know what, I sold the van.", "Ana sold the van."),
        ("See you at the match!", "See Lin at the match!"),
        # a word that only starts with "you" is no one
        (
            "I coach at the youth club since I was young.",
            "Ana coaches at the youth club since Ana was young.",
        ),
        ("Thank you, youngster.", "Thank Lin, youngster."),
    ],
)
def test_you_is_the_listener(said: str, written: str) -> None:
    assert to_third_person(said, "Ana", "Lin") == written


def test_without_one_listener_you_stays() -> None:
    assert to_third_person("I hope you like it.", "Ana") == "Ana hopes you like it."


@pytest.mark.parametrize(
    ("said", "written"),
    [
        # chat leaves out the "I" of a statement: the memory says whose it is
        (
            "Signed up for a pottery course yesterday.",
            "Ana signed up for a pottery course yesterday.",
        ),
        ("Been learning Welsh since March.", "Ana has been learning Welsh since March."),
        ("Really stressed about the audition!", "Ana is really stressed about the audition!"),
        ("Heading to Oslo on Friday.", "Ana is heading to Oslo on Friday."),
        ("Been a rough week for me.", "It has been a rough week for Ana."),
        # a sentence with a subject of its own keeps it
        ("Running a marathon takes months.", "Running a marathon takes months."),
    ],
)
def test_an_i_left_out_is_the_speaker(said: str, written: str) -> None:
    assert to_third_person(said, "Ana") == written


def test_an_i_left_out_and_an_i_said_both_read_right() -> None:
    assert to_third_person("Finished the quilt and I love it.", "Ana") == (
        "Ana finished the quilt and Ana loves it."
    )


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("I need a quiet desk for the exam", "Ana needs a quiet desk for the exam"),
        ("I feed the neighbour's cat on Sundays", "Ana feeds the neighbour's cat on Sundays"),
        ("I needed a break after that", "Ana needed a break after that"),
    ],
)
def test_a_present_verb_that_ends_like_a_past_takes_its_s(said: str, written: str) -> None:
    assert to_third_person(said, "Ana") == written


def test_a_word_that_holds_wo_keeps_it(tmp_path: Path) -> None:
    """我 is the speaker, but 自我介绍 is a self-introduction: never "自用户介绍"."""
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.add("我最近在练英文自我介绍，我们部门下个月要招新人。", user_id="u")
        texts = [item.text for item in mem.get_all(user_id="u") if item.kind != "episode"]
    assert texts and all("自用户" not in t for t in texts)
    assert any("自我介绍" in t for t in texts)
    assert any("用户等人" in t for t in texts)
