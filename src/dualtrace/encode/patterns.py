"""Pattern tables for the rules extractor: triples, kind cues, importance cues, topics (EN + ZH).

Each triple pattern is matched against the speaker's own first-person sentence; group
"obj" is the object. Predicates marked single-valued hold one value at a time (a new value
supersedes the old one); the others accumulate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OBJ_EN = r"(?P<obj>[^,.;!?]{2,60})"
_OBJ_ZH = r"(?P<obj>[^，。；！？,.;!?]{1,30})"


@dataclass(frozen=True)
class TriplePattern:
    """A first-person sentence shape and the predicate it states."""

    predicate: str
    regex: re.Pattern[str]


def _en(predicate: str, pattern: str) -> TriplePattern:
    return TriplePattern(predicate, re.compile(pattern.replace("OBJ", _OBJ_EN), re.I))


def _zh(predicate: str, pattern: str) -> TriplePattern:
    return TriplePattern(predicate, re.compile(pattern.replace("OBJ", _OBJ_ZH)))


SINGLE_VALUED = frozenset(
    {
        "lives_in",
        "works_at",
        "occupation",
        "budget",
        "age",
        "name",
        "studies_at",
        "from",
        "relationship_status",
        "daughter_name",
        "son_name",
        "partner_name",
        "commute",
    }
)

# Predicates whose values gather into one memory ("cares about fuel use and boot space").
MERGEABLE = frozenset({"cares_about"})

TRIPLES: tuple[TriplePattern, ...] = (
    _en("lives_in", r"\b(?:I|we)\s+(?:now\s+|currently\s+|still\s+)?live\s+in\s+OBJ"),
    _en("lives_in", r"\b(?:I|we)\s+(?:just\s+|recently\s+|finally\s+)?moved\s+to\s+OBJ"),
    _en("works_at", r"\bI\s+(?:now\s+|currently\s+)?work\s+(?:at|for)\s+OBJ"),
    _en("occupation", r"\bI\s+(?:now\s+)?work\s+as\s+(?:an?\s+)?OBJ"),
    _en(
        "occupation",
        r"\bI['’]?\s*(?:a)?m\s+an?\s+"
        r"(?P<obj>[a-z ]{2,40}?(?:er|or|ist|ian|ant|ent|nurse|doctor|chef|mom|dad|student))\b",
    ),
    _en("studies_at", r"\bI\s+(?:now\s+)?stud(?:y|ying)\s+at\s+OBJ"),
    _en("studies", r"\bI['’]?\s*(?:a)?m\s+studying\s+OBJ"),
    _en("studies", r"\bI\s+study\s+OBJ"),
    _en("from", r"\bI['’]?\s*(?:a)?m\s+(?:originally\s+)?from\s+OBJ"),
    _en("budget", r"\bbudget\s+from\s+\S+\s+(?:up\s+|down\s+)?to\s+OBJ"),
    _en("budget", r"\bmy\s+budget\s+(?:is|was|of)\s+(?:about\s+|around\s+|roughly\s+)?OBJ"),
    _en(
        "budget",
        r"\b(?:raise|raising|increase|increasing|lower|lowering)\s+(?:my|our|the)\s+budget\s+to\s+OBJ",
    ),
    _en("cares_about", r"\bI\s+(?:really\s+|mostly\s+|also\s+)?care\s+(?:a\s+lot\s+)?about\s+OBJ"),
    _en(
        "cares_about",
        r"\bI['’]?\s*(?:a)?m\s+(?:really\s+|mostly\s+|also\s+)?(?:concerned|worried)\s+about\s+OBJ",
    ),
    _en("likes", r"\bI\s+(?:really\s+|also\s+|just\s+)?(?:like|love|enjoy|adore)\s+OBJ"),
    _en("prefers", r"\bI\s+(?:really\s+)?prefer\s+OBJ"),
    _en(
        "dislikes", r"\bI\s+(?:really\s+)?(?:hate|dislike|can['’]?t\s+stand|don['’]?t\s+like)\s+OBJ"
    ),
    _en("has", r"\bI\s+(?:have|own)\s+(?:got\s+)?OBJ"),
    _en("plans_to", r"\bI['’]?\s*(?:a)?m\s+(?:planning|going|hoping)\s+to\s+OBJ"),
    _en("plans_to", r"\bI\s+plan\s+to\s+OBJ"),
    _en("decided_to", r"\b(?:I|we)\s+(?:have\s+|'ve\s+)?decided\s+to\s+OBJ"),
    _en("bought", r"\b(?:I|we)\s+(?:just\s+)?bought\s+OBJ"),
    _en("started", r"\bI\s+(?:just\s+|recently\s+)?started\s+OBJ"),
    _en("adopted", r"\b(?:I|we)\s+(?:just\s+)?adopted\s+OBJ"),
    _en("visited", r"\b(?:I|we)\s+(?:just\s+)?(?:visited|went\s+to)\s+OBJ"),
    _zh("lives_in", r"(?:我|我们)(?:现在)?住在OBJ"),
    _zh("lives_in", r"(?:我|我们)(?:打算|决定|准备|要)?搬(?:家)?(?:到|去)OBJ"),
    # (not 在 as "in the middle of": "我在考虑换工作", "在找工作")
    _zh("works_at", r"我(?:现在)?在(?!考虑|准备|打算|找|换|想|努力|认真|忙|家)OBJ工作"),
    _zh("occupation", r"我是(?:一名|一个|个)?OBJ"),
    _zh(
        "budget",
        r"预算(?:从|由)[^，。,；]{1,12}?(?:提高|提升|增加|提|涨|降低|降|调整|调|改)(?:到|至|为|成)OBJ",
    ),
    _zh(
        "budget",
        r"预算(?:是|为|在|大概|提高到|提到|增加到|降到|改为|改成|调到|定在|有)?(?:大概|大约|差不多)?OBJ",
    ),
    _zh("cares_about", r"我(?:很|比较|最|也|还)?(?:在意|关注|看重|关心)OBJ"),
    _zh("dislikes", r"我(?:不喜欢|讨厌|不爱)OBJ"),
    _zh("likes", r"我(?:很|特别|比较|也|还)?(?:喜欢|爱)OBJ"),
    _zh("prefers", r"我(?:更|比较)?(?:偏好|倾向于|更喜欢)OBJ"),
    _zh("plans_to", r"(?:我|我们)(?:打算|计划|准备)OBJ"),
    _zh("decided_to", r"(?:我|我们)决定OBJ"),
    _zh("bought", r"(?:我|我们)买了OBJ"),
    _zh("has", r"我有OBJ"),
    _zh("daughter_name", r"女儿叫OBJ"),
    _zh("son_name", r"儿子叫OBJ"),
)

PREFERENCE_CUES = re.compile(
    r"\b(?:like|love|enjoy|adore|prefer|favou?rite|hate|dislike|can['’]?t stand|fan of|"
    r"passionate about|into)\b|喜欢|爱|讨厌|偏好|倾向|最爱",
    re.I,
)
EVENT_CUES = re.compile(
    r"\b(?:went|visited|bought|started|finished|moved|adopted|joined|attended|got|took|met|ran|"
    r"made|had|won|lost|graduated|travel(?:l)?ed|signed|decided|plan(?:ning)?|going to|will|"
    r"gonna|tried|began|celebrated|painted|wrote|read|saw|watched)\b"
    r"|了|过|打算|计划|决定|准备|去了|买了|搬",
    re.I,
)
IMPORTANT_CUES = re.compile(
    r"\b(?:remember|don['’]?t forget|note that|keep in mind|important)\b|记住|别忘|记得|重要",
    re.I,
)
DECISION_CUES = re.compile(
    r"\b(?:decided|decision|plan(?:ning)?|going to|will)\b|决定|打算|计划", re.I
)
GREETING = re.compile(
    r"^\s*(?:hi|hey|hello|thanks|thank you|bye|goodbye|good (?:morning|night|evening)|wow|"
    r"ok(?:ay)?|cool|great|awesome|lol|haha|yeah|yes|no|sure|nice|congrats|congratulations|"
    r"你好|谢谢|再见|好的|嗯|哈哈|是的|好吧)\b[\s!.,~]*",
    re.I,
)

TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (topic, re.compile(words, re.I))
    for topic, words in (
        (
            "car",
            r"\b(?:car|cars|EV|hybrid|SUV|sedan|drive|driving|parking|charger)\b|车|车位|充电|试驾",
        ),
        ("housing", r"\b(?:apartment|house|home|move|moved|moving|rent|flat)\b|搬家|房子|公寓|住"),
        (
            "work",
            r"\b(?:job|work|career|office|boss|colleague|hospital|company|promotion)\b|工作|公司|上班|医院",
        ),
        (
            "family",
            r"\b(?:kids?|children|daughter|son|wife|husband|mom|dad|family|parents?)\b|女儿|儿子|家人|太太|老公|孩子",
        ),
        (
            "education",
            r"\b(?:school|college|university|study|class|course|degree)\b|学校|上学|大学|课程",
        ),
        (
            "health",
            r"\b(?:health|doctor|sick|exercise|run|running|gym|yoga|therapy)\b|健康|生病|运动|锻炼",
        ),
        (
            "travel",
            r"\b(?:trip|travel|vacation|flight|visit|visited|beach|camping)\b|旅行|旅游|度假|出差",
        ),
        (
            "hobby",
            r"\b(?:paint|painting|music|guitar|book|books|reading|art|hiking|photography|game)\b|爱好|画画|音乐|读书",
        ),
        ("food", r"\b(?:food|cook|cooking|restaurant|dinner|recipe|bake|baking)\b|吃|做饭|餐厅"),
        (
            "money",
            r"\b(?:budget|money|price|cost|salary|save|saving|yuan|dollars?)\b|预算|钱|价格|万",
        ),
        ("pets", r"\b(?:dog|dogs|cat|cats|pet|pets|puppy)\b|狗|猫|宠物"),
        (
            "community",
            r"\b(?:LGBTQ|support group|volunteer|charity|community|activism)\b|志愿|社区",
        ),
    )
)


def topic_of(text: str) -> str | None:
    """The first topic whose cue words occur in the text."""
    return next((topic for topic, cue in TOPICS if cue.search(text)), None)
