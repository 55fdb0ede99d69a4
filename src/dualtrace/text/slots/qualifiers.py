"""Qualifiers: what keeps one attribute's slots apart ("car" in "car budget", "book" in
"favourite book"), said in either language as one word."""

from __future__ import annotations

import re

from dualtrace.cjk import has_cjk
from dualtrace.text.slots.attribute import Attribute

# Qualifiers said in either language, as one word.
_QUALIFIERS = {
    "car": "car",
    "cars": "car",
    "vehicle": "car",
    "suv": "car",
    "ev": "car",
    "车": "car",
    "汽车": "car",
    "新车": "car",
    "买车": "car",
    "laptop": "laptop",
    "computer": "laptop",
    "macbook": "laptop",
    "notebook": "laptop",
    "电脑": "laptop",
    "笔记本": "laptop",
    "trip": "trip",
    "travel": "trip",
    "vacation": "trip",
    "holiday": "trip",
    "旅行": "trip",
    "旅游": "trip",
    "度假": "trip",
    "wedding": "wedding",
    "婚礼": "wedding",
    "结婚": "wedding",
    "house": "house",
    "home": "house",
    "apartment": "house",
    "flat": "house",
    "房": "house",
    "房子": "house",
    "买房": "house",
    "bike": "bike",
    "bicycle": "bike",
    "自行车": "bike",
    "phone": "phone",
    "手机": "phone",
    "renovation": "renovation",
    "装修": "renovation",
    "camera": "camera",
    "相机": "camera",
    "tv": "tv",
    "电视": "tv",
    "sofa": "sofa",
    "couch": "sofa",
    "沙发": "sofa",
    "gift": "gift",
    "present": "gift",
    "礼物": "gift",
    "tablet": "tablet",
    "ipad": "tablet",
    "平板": "tablet",
    "watch": "watch",
    "smartwatch": "watch",
    "手表": "watch",
    "headphones": "headphones",
    "earbuds": "headphones",
    "耳机": "headphones",
    "手环": "watch",
    "console": "console",
    "游戏机": "console",
    "book": "book",
    "books": "book",
    "novel": "book",
    "书": "book",
    "food": "food",
    "dish": "food",
    "meal": "food",
    "菜": "food",
    "食物": "food",
    "movie": "movie",
    "film": "movie",
    "电影": "movie",
    "show": "show",
    "series": "show",
    "剧": "show",
    "song": "song",
    "歌": "song",
    "band": "band",
    "乐队": "band",
    "color": "color",
    "colour": "color",
    "颜色": "color",
    "restaurant": "restaurant",
    "餐厅": "restaurant",
    "drink": "drink",
    "饮料": "drink",
    "bank": "bank",
    "银行": "bank",
    "insurance": "insurance",
    "insurer": "insurance",
    "保险": "insurance",
    "carrier": "carrier",
    "运营商": "carrier",
    "internet": "internet",
    "broadband": "internet",
    "宽带": "internet",
    "flight": "flight",
    "航班": "flight",
    "interview": "interview",
    "面试": "interview",
    "surgery": "surgery",
    "手术": "surgery",
    "exam": "exam",
    "考试": "exam",
    "party": "party",
    "聚会": "party",
    "move": "move",
    "moving": "move",
    "搬家": "move",
    "e-reader": "e-reader",
    "kindle": "e-reader",
    "groceries": "groceries",
    "买菜": "groceries",
    "furniture": "furniture",
    "家具": "furniture",
    "school": "school",
    "学校": "school",
    "rent": "rent",
    "房租": "rent",
    "sport": "sport",
    "运动": "sport",
    "city": "city",
    "城市": "city",
    "game": "game",
    "游戏": "game",
    "author": "author",
    "作家": "author",
    "coffee": "coffee",
    "咖啡": "coffee",
    "season": "season",
    "季节": "season",
    "animal": "animal",
    "动物": "animal",
}
_QUALIFIER_WORDS = re.compile(
    r"\b(?:"
    + "|".join(sorted((w for w in _QUALIFIERS if not has_cjk(w)), key=len, reverse=True))
    + r")\b|"
    + "|".join(sorted((w for w in _QUALIFIERS if has_cjk(w)), key=len, reverse=True)),
    re.I,
)
NOUN_OF = {  # where a qualified attribute's qualifier is said
    "budget": re.compile(r"\bbudget\b|预算|花", re.I),
    "favourite": re.compile(r"\bfavou?rite\b|\bfave\b|最喜欢|最爱", re.I),
}


def qualifier_of(attribute: Attribute, text: str) -> str | None:
    """The qualifier of a qualified attribute said in the text ("car" in "car budget")."""
    if not attribute.qualified:
        return None
    anchor = NOUN_OF.get(attribute.name)
    words = [(m.start(), m.group(0)) for m in _QUALIFIER_WORDS.finditer(text)]
    if attribute.name == "budget":
        words = [(at, w) for at, w in words if _QUALIFIERS[w.casefold()] != "rent"]
    if not words:
        return None
    if anchor is not None and (hit := anchor.search(text)):
        words.sort(key=lambda pair: abs(pair[0] - hit.start()))  # nearest the attribute's word
    return _QUALIFIERS[words[0][1].casefold()]
