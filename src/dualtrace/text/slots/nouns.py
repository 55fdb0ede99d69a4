"""Frames every attribute named by a noun shares: "my phone is …", "upgraded my phone to …",
"手机换成了…", "预算放宽到…". An attribute lists its nouns; these frames do the rest."""

from __future__ import annotations

import re

from dualtrace.text.slots.frames import en, words, zh

_CHANGE_VERBS_EN = words(
    "upgraded upgrade upgrading switched switch switching changed change changing swapped swap "
    "traded trade replaced replace moved move raised raise raising increased increase bumped "
    "bump lowered lower lowering cut cutting reduced reduce adjusted adjust pushed push "
    "extended extend set stretched stretch upped up dropped drop downgraded downgrade "
    "shifted shift revised revise updated update boosted boost"
)
_COPULA_ZH = (
    r"(?:现在|目前|如今|已经|可以|要|得|就|也|还|会|都|又)*"
    r"(?:是|为|换成了?|换了|改成了?|改为|改到|变成了?|变为|调到|调整到|调整为|调成|放宽到|放宽至|"
    r"提高到|提高至|提到|涨到|升到|降到|降低到|降至|减到|加到|增加到|定在|定为|定成|有(?=[一二三四五六七八九十两几半\d])|"
    r"上调到|下调到|压到|控制在{USES})"
)
# what a thing is used as ("手机用的是…", "车开的是…"): never what a person is ("老公用iPhone")
_USES_ZH = "|用的是|用|开的是"


def noun_frames(
    nouns_en: str, nouns_zh: str, *, person: bool = False
) -> tuple[re.Pattern[str], ...]:
    """Generic frames for an attribute named by these nouns (space-separated; may be empty);
    a `person`'s (a partner, a manager) is no thing one uses."""
    frames: list[re.Pattern[str]] = []
    if nouns_en:
        n = words(nouns_en)
        q = r"(?:[\w-]+\s+){0,2}?"  # a qualifier or adjective: "car budget", "new work phone"
        frames += [
            en(
                rf"\b(?:my|our)\s+{q}{n}\s+(?:is|'s|’s|has\s+become|became)\s+"
                r"(?:now\s+|currently\s+|officially\s+|still\s+)?{V}"
            ),
            en(
                rf"\b{_CHANGE_VERBS_EN}\s+(?:up\s+|down\s+|over\s+)?(?:my|our|the|his|her)\s+{q}{n}"
                r"(?:\s+for\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?[\w\s-]{1,30}?)?"
                r"\s+(?:from\s+[^,.;]{1,40}?\s+)?(?:up\s+|down\s+|all\s+the\s+way\s+)?to\s+{V}"
            ),
            en(
                rf"(?:^|\b(?:the|our|my)\s+){q}{n}(?:\s+for\s+[\w\s-]{{1,30}}?)?\s+(?:is|'s|’s)\s+"
                r"(?:now\s+|currently\s+|officially\s+)?{V}"
            ),
        ]
    if nouns_zh:
        n = words(nouns_zh)
        frames += [
            zh(
                rf"{n}(?:的)?(?:每个?月|每年|一个月|现在|目前|也|又|还|都)?(?:从[^，。；！？,.;!?\s]{{1,12}}?)?"
                rf"{_COPULA_ZH.replace('{USES}', '' if person else _USES_ZH)}(?:了)?{{V}}"
            ),
        ]
    return tuple(frames)
