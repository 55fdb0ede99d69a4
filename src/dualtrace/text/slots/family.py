"""The user's immediate family by name: children, grandchildren, siblings and parents ("my
son Alfie", "my twin brother Noah", "女儿朵朵", "我哥王磊", "我外孙乐乐").

A family is many-valued (a second son joins the first; nobody replaces anybody), and each
member is said with the relation ("son Alfie"), as a pet is with its kind ("cat Pixel").
Friends, colleagues and wider kin are people the user mentions, found by the entity graph,
not members of the user's household; a partner is a slot of its own (`people.py`).

The attribute's words are a relation followed by a name, never a relation alone: "Where
does my brother live?" asks where someone lives, not who the family is. A question for a
member's name asks the family, narrowed to the relation (`asked_member`: "What's my son's
name?", "我女儿叫什么？").
"""

from __future__ import annotations

import re

from dualtrace.cjk import CJK_CLASS
from dualtrace.text.script import simplified
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.frames import CAPITAL, NAMED_AS_EN, TYPED, en, zh
from dualtrace.text.slots.surnames import SURNAMES

_MODIFIERS_EN = (
    r"(?:(?:twin|older|younger|little|big|baby|elder|eldest|oldest|youngest|step)[-\s]?)?"
)
_RELATIONS_EN = (
    r"(?:son|daughter|kid|brother|sister|mum|mom|mother|dad|father|stepson|stepdaughter|"
    r"stepmum|stepmom|stepdad|grandson|granddaughter|grandkid|grandchild)"
)
_NAME_EN = rf"{CAPITAL}[\w’'-]*"
_SAID_OF = r"(?:is|was|has|had|says|said|turned|turns|keeps|loves|wants|just)\b"
# not someone else's ("闺蜜的女儿果果": the friend's daughter), only the speaker's ("我的女儿")
_RELATIONS_ZH = r"(?<![^我们户]的)(?:儿子|女儿|闺女|哥哥|姐姐|弟弟|妹妹|外孙[子女儿]?|孙[子女儿])"
# the one-character forms after their owner ("我哥王磊", "用户妹小雨")
_SHORT_ZH = r"(?<=[我户])[哥姐弟妹]"
# What may follow a Chinese name in its clause ("我哥王磊在腾讯上班")
_NEXT_ZH = "在说是也都就还跟和对把被很最又刚已从的了要会去来给让"
# A Chinese given name: a pet name (阿杰, 小宝), a doubled character (朵朵, 果果), or a
# surname and one or two characters before a mark. Words of the dictionary (小学, 小时)
# are no names (`finder._plausible`).
_NAME_ZH = (
    rf"(?:[阿小][{CJK_CLASS}]|(?P<twice>[{CJK_CLASS}])(?P=twice)|"
    rf"[{SURNAMES}][{CJK_CLASS}]{{1,2}}?(?=$|[，。！？、,.!?\s（(]|[{_NEXT_ZH}])"
    # (or a Latin name: "女儿 Chloe 十二岁")
    r"|\s?[A-Z][a-z]{1,14}(?![A-Za-z]))"
)

# What a baby does, said of one's own by name ("baby Chloe won't sleep")
_BABY_DOES = (
    r"(?:won['’]t|wont|can['’]t|doesn['’]t|isn['’]t|keeps|is\s+teething|"
    r"(?:is|has\s+been)\s+(?:up|awake|crying|fussy|colicky)|slept|sleeps|"
    r"started\s+(?:crawling|walking|solids|daycare|nursery))"
)

FAMILY: Attribute = _a(
    "family",
    rf"\b(?:my|our)\s+{_MODIFIERS_EN}{_RELATIONS_EN}\s+(?-i:{_NAME_EN})"
    # a name typed in lower case, then what is said of that person ("my son omar is 3")
    rf"|\b(?:my|our)\s+{_MODIFIERS_EN}{_RELATIONS_EN}\s+[a-z]{{3,}}\s*(?:[(,]|{_SAID_OF})"
    # ... or given by name after: "my sister is called Anna", "my son's name is Omar"
    rf"|\b(?:my|our)\s+{_MODIFIERS_EN}{_RELATIONS_EN}{NAMED_AS_EN}"
    rf"|(?:{_RELATIONS_ZH}|{_SHORT_ZH})\s?(?:叫)?{_NAME_ZH}"
    # a baby born, by name: "baby layla arrived last week", "糖糖出生啦"
    rf"|\bbaby\s+[A-Za-z]{{3,}}\s+(?:arrived|is\s+here|was\s+born|{_BABY_DOES})\b|[{CJK_CLASS}]{{2}}(?:宝宝)?(?:出生|降生|出世)(?:了|啦)",
    (
        en(
            rf"(?P<named>\b(?:my|our))\s+(?P<v>{_MODIFIERS_EN}{_RELATIONS_EN}\s+"
            rf"{_NAME_EN}(?:\s+(?!I\b){_NAME_EN})?)\b"
        ),
        # ... typed in lower case: "my son omar is 3" (`values.typed_name`)
        en(
            rf"(?P<named>\b(?:my|our))\s+(?P<v>{_MODIFIERS_EN}{_RELATIONS_EN}\s+"
            rf"{TYPED})\b(?!['’])"
        ),
        en(
            rf"(?P<named>\b(?:my|our))\s+(?P<kind>{_MODIFIERS_EN}{_RELATIONS_EN}){NAMED_AS_EN}"
            rf"(?P<v>{_NAME_EN}(?:\s+(?!I\b){_NAME_EN})?)\b"
        ),
        zh(rf"(?P<named>)(?P<v>(?:{_RELATIONS_ZH}|{_SHORT_ZH}){_NAME_ZH})"),
        zh(rf"(?P<named>)(?:{_RELATIONS_ZH}|{_SHORT_ZH})\s?叫(?P<v>{_NAME_ZH})"),
        en(rf"(?P<named>)\b(?P<v>baby\s+{_NAME_EN})\s+(?:arrived|is\s+here|was\s+born)\b"),
        # ... or doing what a baby does, the speaker's own ("baby Chloe won't sleep", not
        # "my sister's baby Chloe …")
        en(
            rf"(?P<named>)(?<!['’]s\s)\b(?P<v>baby\s+(?-i:{_NAME_EN}))\s+(?:still\s+|just\s+)?"
            rf"{_BABY_DOES}\b"
        ),
        en(rf"(?P<named>)\b(?P<v>baby\s+{TYPED})\s+(?:arrived|is\s+here|was\s+born)\b"),
        zh(rf"(?P<named>)(?P<v>{_NAME_ZH})(?:宝宝)?(?:出生|降生|出世)(?:了|啦)"),
        # ... or born, then named: "儿子出生了，叫小满", "闺女出生了 取名朵朵"
        zh(
            rf"(?P<named>)(?P<kind>{_RELATIONS_ZH})(?:出生|降生|出世)(?:了|啦)[，,！!\s]*"
            r"(?:[^，。！？\s]{1,10}[\s，,]+)?"  # (how much the baby weighed: "7斤2两")
            rf"(?:叫|取名叫?|名字叫|小名叫?)(?P<v>{_NAME_ZH}|[{CJK_CLASS}]{{2}}(?=$|[，。！？、,.!?\s]))"
        ),
    ),
    ("{s}'s family: {v}.", "{s}的家人：{v}。"),
    many=True,
    asked=False,
    of_others=True,
)


# A question for the name of a member: "What's my son's name?", "name of our twin sister",
# "what is my brother called", "我女儿叫什么", "用户的哥哥叫啥名字".
_ASKS_NAME = re.compile(
    rf"\b(?:my|our|the\s+user['’]s)\s+{_MODIFIERS_EN}(?P<r>{_RELATIONS_EN})"
    r"(?:['’]s\s+name|\s+(?:called|named))\b"
    rf"|\bname\s+of\s+(?:my|our|the\s+user['’]s)\s+{_MODIFIERS_EN}(?P<r2>{_RELATIONS_EN})\b"
    rf"|(?:我|用户)(?:的|家)?(?P<r3>儿子|女儿|闺女|哥哥|姐姐|弟弟|妹妹|外?孙[子女儿]|外孙|[哥姐弟妹])"
    r"(?:叫什么|叫啥|的名字|名字|叫)",
    re.IGNORECASE,
)


def asked_member(question: str) -> str | None:
    """The relation a question asks the name of ("son", "brother", "女儿"), or None.

    >>> asked_member("What's my twin brother's name?"), asked_member("我女儿叫什么？")
    ('brother', '女儿')
    """
    found = _ASKS_NAME.search(question)
    if found is None:
        return None
    return next(r for r in found.group("r", "r2", "r3") if r).casefold()


def names_relation(text: str, relation: str) -> bool:
    """Whether a text says the relation ("son", "女儿") as a word of its own."""
    text = simplified(text)
    if relation.isascii():
        return re.search(rf"\b{re.escape(relation)}\b", text, re.IGNORECASE) is not None
    return relation in text


# A member outside the user's household: a brother, a sister or a parent ("sister Niamh",
# "哥王磊"), where a child or grandchild is of it ("son Ethan", "女儿朵朵", a baby by name).
_OUTSIDE_EN = re.compile(
    r"\b(?:brother|sister|mum|mom|mother|dad|father|stepmum|stepmom|stepdad)\b", re.I
)
_OUTSIDE_ZH = re.compile(r"^(?:哥哥|姐姐|弟弟|妹妹|[哥姐弟妹])")


def outside_household(member: str) -> bool:
    """Whether a family member, as the slot holds them ("sister Niamh", "女儿朵朵"), is a
    brother, a sister or a parent rather than a child or grandchild of the user's household.

    >>> [outside_household(m) for m in ("twin sister Mia", "son Omar", "哥王磊")]
    [True, False, True]
    """
    return bool(_OUTSIDE_EN.search(member) or _OUTSIDE_ZH.search(member))
