"""Which characters are Chinese: the one definition every module uses.

The ranges are the Han ideograph blocks of Unicode 15.1: CJK Unified Ideographs and
extension A, the compatibility ideographs, and the supplementary-plane extensions B–I
with their compatibility supplement (rare names and places). Punctuation, radicals,
kana and the Yijing symbols between extension A and the main block are not Han.
"""

from __future__ import annotations

import re

#: The Han ranges, for a character class inside a larger pattern: ``f"[{CJK_CLASS}]{{1,3}}"``.
CJK_CLASS = (
    "\u3400-\u4dbf"  # extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uf900-\ufaff"  # compatibility ideographs
    "\U00020000-\U0002fa1f"  # extensions B–F and I, compatibility supplement
    "\U00030000-\U000323af"  # extensions G and H
)
#: One Chinese character.
CJK = re.compile(f"[{CJK_CLASS}]")
#: A run of Chinese characters.
CJK_RUN = re.compile(f"[{CJK_CLASS}]+")
#: A space between two Chinese characters, which chat types where a comma goes ("进了三星的厂
#: 上夜班有啥注意的"): a pattern to embed.
CJK_SPACE = f"(?<=[{CJK_CLASS}])[ \t]+(?=[{CJK_CLASS}])"


def is_cjk(word: str) -> bool:
    """Whether a word is Chinese characters only.

    >>> is_cjk("地铁"), is_cjk("地铁2号线"), is_cjk("")
    (True, False, False)
    """
    return CJK_RUN.fullmatch(word) is not None


def has_cjk(text: str) -> bool:
    """Whether a text holds a Chinese character.

    >>> has_cjk("我用的是MacBook"), has_cjk("MacBook, 2024。")
    (True, False)
    """
    return CJK.search(text) is not None
