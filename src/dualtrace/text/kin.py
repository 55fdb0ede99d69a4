"""Kin words: the relation a word for a person names, in either language.

Kin words are a closed class, so they are listed here rather than looked up: the
dictionary's glosses describe one relation by others ("姐夫: older sister's husband"), which
must not match "my husband" — neither when a slot question asks whose value it is, nor when a
question's words are put into the other language.
"""

from __future__ import annotations

from collections import defaultdict

# A kin word of either language → the English word of its relation.
_RELATION_ZH = {
    "妹妹": "sister",
    "姐姐": "sister",
    "哥哥": "brother",
    "弟弟": "brother",
    "兄弟": "brother",
    "妈妈": "mother",
    "老妈": "mother",
    "母亲": "mother",
    "爸爸": "father",
    "老爸": "father",
    "父亲": "father",
    "父母": "parents",
    "爸妈": "parents",
    "老婆": "wife",
    "妻子": "wife",
    "太太": "wife",
    "媳妇": "wife",
    "老公": "husband",
    "丈夫": "husband",
    "老伴": "partner",
    "爱人": "partner",
    "女朋友": "girlfriend",
    "男朋友": "boyfriend",
    "女友": "girlfriend",
    "男友": "boyfriend",
    "对象": "partner",
    "儿子": "son",
    "女儿": "daughter",
    "闺女": "daughter",
    "孩子": "child",
    "小孩": "child",
    "朋友": "friend",
    "闺蜜": "friend",
    "哥们儿": "friend",
    "哥们": "friend",
    "老板": "boss",
    "领导": "boss",
    "同事": "colleague",
    "同学": "classmate",
    "室友": "roommate",
    "舍友": "roommate",
    "发小": "friend",
    "好友": "friend",
    "师兄": "schoolmate",
    "师姐": "schoolmate",
    "师弟": "schoolmate",
    "师妹": "schoolmate",
    "学长": "schoolmate",
    "学姐": "schoolmate",
    "学弟": "schoolmate",
    "学妹": "schoolmate",
    "亲戚": "relative",
    "上司": "boss",
    "前任": "ex",
    "前男友": "ex",
    "前女友": "ex",
    "邻居": "neighbour",
    "隔壁": "neighbour",
    "表妹": "cousin",
    "老表": "cousin",
    "表哥": "cousin",
    "表姐": "cousin",
    "表弟": "cousin",
    "堂妹": "cousin",
    "堂哥": "cousin",
    "堂姐": "cousin",
    "堂弟": "cousin",
    "奶奶": "grandmother",
    "外婆": "grandmother",
    "姥姥": "grandmother",
    "爷爷": "grandfather",
    "外公": "grandfather",
    "姥爷": "grandfather",
    "未婚夫": "fiance",
    "未婚妻": "fiance",
    "侄子": "nephew",
    "外甥": "nephew",
    "侄女": "niece",
    "外甥女": "niece",
    "舅舅": "uncle",
    "叔叔": "uncle",
    "伯伯": "uncle",
    "姑父": "uncle",
    "姑姑": "aunt",
    "阿姨": "aunt",
    "舅妈": "aunt",
    "姨妈": "aunt",
    "小姨": "aunt",
    "婶婶": "aunt",
    "姐夫": "brother-in-law",
    "妹夫": "brother-in-law",
    "嫂子": "sister-in-law",
    "弟媳": "sister-in-law",
    "儿媳妇": "daughter-in-law",
    "儿媳": "daughter-in-law",
    "女婿": "son-in-law",
    "岳父": "father-in-law",
    "老丈人": "father-in-law",
    "公公": "father-in-law",
    "岳母": "mother-in-law",
    "丈母娘": "mother-in-law",
    "婆婆": "mother-in-law",
    "外孙女": "granddaughter",
    "外孙儿": "grandson",
    "外孙": "grandson",
    "孙儿": "grandson",
    "孙女": "granddaughter",
    "孙子": "grandson",
}
_RELATION_EN = {
    "mom": "mother",
    "mum": "mother",
    "dad": "father",
    "kid": "child",
    "kids": "child",
    "children": "child",
    "grandma": "grandmother",
    "grandpa": "grandfather",
    "coworker": "colleague",
    "co-worker": "colleague",
    "manager": "boss",
    "flatmate": "roommate",
    "neighbor": "neighbour",
    "buddy": "friend",
    "pal": "friend",
    "fiancé": "fiance",
    "fiancée": "fiance",
    "fiancee": "fiance",
    "bf": "boyfriend",
    "gf": "girlfriend",
    "hubby": "husband",
    "bff": "friend",
    "bestie": "friend",
    "mate": "friend",
    "housemate": "roommate",
    "teammate": "colleague",
    "ex": "ex",
    "sis": "sister",
    "bro": "brother",
    "mommy": "mother",
    "mummy": "mother",
    "daddy": "father",
    "granny": "grandmother",
    "gran": "grandmother",
    "nana": "grandmother",
    "grandad": "grandfather",
    "granddad": "grandfather",
}


def relation(kin: str) -> str:
    """The relation a kin word names, in one word for both languages ("表妹", "cousin" →
    cousin; "mum", "妈妈" → mother); a word not listed is its own."""
    word = kin.casefold()
    return _RELATION_ZH.get(word) or _RELATION_EN.get(word, word)


# The Chinese kin words, in the order a regular expression should try them (外甥 before 外甥女
# as `slots/cues.py` always had them).
CHINESE_KIN = tuple(_RELATION_ZH)
# The English words given a relation here (mum, kids, bf, hubby…), as written above.
ENGLISH_KIN = tuple(_RELATION_EN)

_CHINESE: dict[str, list[str]] = defaultdict(list)  # relation → its Chinese words
for _word, _relation in _RELATION_ZH.items():
    _CHINESE[_relation].append(_word)
_ENGLISH = {r: [r] for r in _RELATION_ZH.values()}  # relation → its English words
for _word, _relation in _RELATION_EN.items():
    _ENGLISH[_relation].append(_word)


def chinese_kin(word: str) -> tuple[str, ...]:
    """The Chinese words for the relation an English kin word names ("grandma" → 奶奶, 外婆,
    姥姥); () for a word that is not one."""
    return tuple(_CHINESE.get(relation(word), ()))


def english_kin(word: str) -> tuple[str, ...]:
    """The English words for the relation a Chinese kin word names (外婆 → grandmother,
    grandma); () for a word that is not one."""
    found = _RELATION_ZH.get(word)
    return tuple(_ENGLISH[found]) if found else ()


def is_kin(word: str) -> bool:
    """Whether an English word names a relation ("mother", "mum", "cousin")."""
    return relation(word) in _ENGLISH


# Every English word for a relation above, canonical or not ("sister", "sis", "coworker").
ENGLISH_WORDS = tuple(sorted({w for words in _ENGLISH.values() for w in words}))
