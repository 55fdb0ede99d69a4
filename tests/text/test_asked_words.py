"""Which of an attribute's words in a Chinese question ask for its value (`asking.py`): a
word for one who holds a value names that person unless the asker is said to be one,
"做什么" before a noun asks the noun, and a word inside a longer word of another sense
asks nothing."""

from __future__ import annotations

import pytest

from dualtrace.text.slots import ask


def _asked(question: str) -> set[str]:
    return {q.attribute for q in ask(question)}


@pytest.mark.parametrize(
    "question",
    [
        "护士让我明天几点去抽血？",  # the nurse acts
        "我表哥的牙医姓什么？",  # someone's dentist
        "教我游泳的那位老师叫啥？",
        "我预约的是哪位医生？",  # the one booked
        "帮我修空调的师傅电话多少？",
    ],
)
def test_a_holders_word_names_that_person(question: str) -> None:
    assert "occupation" not in _asked(question)


@pytest.mark.parametrize(
    "question",
    ["我现在还是护士吗？", "我以前当过老师吗？", "我表姐是哪个医院的医生？", "我是做什么的？"],
)
def test_one_said_to_be_a_holder_asks_the_occupation(question: str) -> None:
    assert "occupation" in _asked(question)


def test_doing_what_before_a_noun_asks_the_noun() -> None:
    assert "occupation" not in _asked("我周末一般做什么运动？")
    assert "occupation" in _asked("我眼下是做什么工作的呀？")  # the noun is the attribute's own


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("我常去的那家陶艺工作室在哪条街？", "works_at"),  # 工作 in 工作室, a studio
        ("我工作日一般几点起？", "works_at"),  # 工作 in 工作日, a weekday
        ("我常坐哪家航空公司的飞机？", "works_at"),  # 公司 in 航空公司, an airline
    ],
)
def test_a_word_inside_a_word_of_another_sense_asks_nothing(question: str, attribute: str) -> None:
    assert attribute not in _asked(question)


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("我眼下在哪个单位工作？", "works_at"),
        ("我们什么时候搬家？", "lives_in"),  # 搬 "move" keeps its sense in 搬家
        ("我外婆几号过生日？", "age"),  # 生日 keeps its sense in 过生日
    ],
)
def test_a_word_that_keeps_its_sense_still_asks(question: str, attribute: str) -> None:
    assert attribute in _asked(question)


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("我到底是哪儿人来着？", "from"),
        ("我是哪个部门的？", "department"),
        ("我是哪一年大学毕业的？", None),
    ],
)
def test_i_am_asks_a_name_only_as_who_am_i(question: str, attribute: str | None) -> None:
    """ "我是" opens a self-introduction in a statement; in a question it asks the name only
    as "我是谁"."""
    asked = _asked(question)
    assert "name" not in asked
    assert attribute is None or attribute in asked
    assert "name" in _asked("你还记得我是谁吗？")
