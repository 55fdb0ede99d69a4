"""A person or pet given a name after the word for them ("my boss is called Dana", "my
sister's name is Ines", "新领导叫孙悦"): the value is the name, said with its relation where
the slot says one ("sister Ines", "dog Mango"), and never the naming words ("called
Dana")."""

from __future__ import annotations

import pytest

from dualtrace.text.slots import ask, find_statements


def _slots(clause: str) -> list[tuple[str, str | None, str | None]]:
    return [(s.attribute, s.value, s.subject) for s in find_statements(clause)]


@pytest.mark.parametrize(
    ("clause", "slot"),
    [
        ("my new supervisor is called Dana Whitfield", ("manager", "Dana Whitfield", None)),
        ("ugh my boss is a woman named Corinne and she hates slack", ("manager", "Corinne", None)),
        ("my line manager's name is Tobias btw", ("manager", "Tobias", None)),
        (
            "my new boss started on tuesday - his name is Felipe Ortega, ex-google",
            ("manager", "Felipe Ortega", None),
        ),
        ("我们部门新来的领导叫孙悦，听说很严", ("manager", "孙悦", None)),
        ("my little sister is called Ines", ("family", "little sister Ines", None)),
        ("our son's name is Mateo", ("family", "son Mateo", None)),
        ("my husband is called Ravi", ("partner", "Ravi", None)),
        ("my girlfriend's name is Saoirse", ("partner", "Saoirse", None)),
        ("our puppy is called Mango and he chews everything", ("pet", "puppy Mango", None)),
        ("my cat's name is Tofu", ("pet", "cat Tofu", None)),
    ],
)
def test_a_name_given_after_the_word_for_someone(
    clause: str, slot: tuple[str, str, str | None]
) -> None:
    assert slot in _slots(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "my boss is called Dana",
        "my new boss is some guy called Anil",
        "my manager is named Grete",
    ],
)
def test_the_naming_words_are_no_part_of_the_name(clause: str) -> None:
    values = [s.value or "" for s in find_statements(clause) if s.attribute == "manager"]
    assert len(values) == 1
    assert not values[0].casefold().startswith(("called", "named", "some", "guy"))


@pytest.mark.parametrize(
    "clause",
    [
        "my sister's friend, her name is Jolene",  # the friend, not the sister
        "my neighbour's dog is called Waffles",  # the neighbour's dog
        "my dad and his girlfriend, her name is Petra",  # the dad's partner
    ],
)
def test_a_name_after_another_persons_word_is_not_the_speakers(clause: str) -> None:
    mine = [s for s in find_statements(clause) if s.subject is None]
    assert not [s for s in mine if s.attribute in ("family", "pet", "partner")]


def test_someone_elses_boss_by_name_is_theirs() -> None:
    assert _slots("她老板叫孙悦") == []
    assert _slots("my friend Priti's boss is also called Hana") == [("manager", "Hana", "friend")]


def test_the_question_asks_the_slot_the_name_fills() -> None:
    assert [q.attribute for q in ask("What's my supervisor called again?")] == ["manager"]
    assert [q.attribute for q in ask("我领导叫什么来着？")] == ["manager"]
