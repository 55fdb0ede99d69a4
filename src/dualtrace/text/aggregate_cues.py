"""Questions that need every instance, not the best few: list, count, total and order.

A question of one of these kinds is answered from all the turns that state an instance, said
across many sessions, and one missing turn makes the answer wrong:

- **count**: how many of something ("How many countries have I visited?", "我一共读了几本书");
- **total**: a sum of stated quantities ("How much have I spent on the car in total?",
  "总共花了多少钱");
- **order**: which came first, or the sequence ("Did I go to Kyoto before or after Osaka?",
  "先去的哪里");
- **list**: every member ("What pets have I had?", "Which books did I read?", "都有哪些").

`aggregate_kind` reads a question's words once (`recall/question.py`) and gives the kind, or
None for a question about one fact. The cues are closed-class words (quantifiers, "in total",
"before or after", "哪些", "几"), never the things counted.

    >>> aggregate_kind("How many countries have I visited this year?")
    'count'
    >>> aggregate_kind("Where do I live?") is None
    True
"""

from __future__ import annotations

import re

from dualtrace.text.pastimes import PASTIME_TERMS

AGGREGATE_KINDS = ("list", "count", "total", "order")

# A sum: "in total", "altogether", "combined", "总共/一共 … 多少钱". Read before the count, as
# "how much … in total" is a sum and "how many … in total" a count (`aggregate_kind`).
_TOTAL = re.compile(
    r"\b(?:in\s+total|total(?:ly)?|altogether|all\s+together|combined|sum|overall|"
    r"add(?:s|ed)?\s+up)\b|总共|一共|合计|总计|加起来|累计|总额|总花费",
    re.I,
)
_HOW_MUCH = re.compile(r"\bhow\s+(?:much|long|far)\b|多少钱|多少(?:公里|小时|天|元|块)", re.I)

# Money already spent ("How much have I spent on the car?", "花了"), not a budget ("How much
# can I spend on the laptop?") nor a price ("How much does it cost?").
_SPENT = re.compile(r"\bspent\b|\b(?:did|do)\s+(?:i|we)\s+spend\b|花了", re.I)

# A count: "how many", "number of", "how often", "几本/几次/多少个".
_COUNT = re.compile(
    r"\bhow\s+many\b|\b(?:the\s+)?number\s+of\b|\bhow\s+often\b|\bcount\b|"
    r"(?<![这那前近头])几(?:个(?![月年星礼])|本|次|只|家|座|部|种|样|位|条|件|门|辆|趟|回|场|篇|所|张)|"
    r"多少(?:个|本|次|只|家|座|部|种|位|条|件|门|辆|趟|回|场|篇|所|张)",
    re.I,
)

# An order: "before or after", "which … first", "in what order", "先…还是…", "哪个在前".
_ORDER = re.compile(
    r"\bbefore\s+or\s+after\b|\bin\s+(?:what|which)\s+order\b|\border\s+of\b|"
    r"\b(?:which|what|who)\b[^?]*\b(?:first|earlier|earliest)\b|"
    r"\bsequence\b|\bchronological|先[^？?]*还是|哪个(?:先|在前|早)|顺序|谁先|先后",
    re.I,
)

# A plural noun: a word in -s that is no verb or pronoun ("was", "his", "does") nor a
# singular in -s ("news", "status"), nor a name ("Leeds", "Charles"), or a plural without one.
_PLURAL = (
    r"(?:(?!(?:was|has|does|is|his|hers|its|this|us|yes|news|always|perhaps|plus|less|"
    r"unless|bus|gas|status|series|species|whereas|across|towards|afterwards)\b)"
    r"(?-i:[a-z][a-z]+(?:ies|[^\Wsiu']s))|children|people|men|women|feet|teeth|mice)"
)
# A list: "which/what … have I …" over many ("what pets", "which books", "list", "all the"),
# a plural asked for ("What activities does Melanie do?", "What areas of the US has John
# been to?", "What are Joanna's hobbies?"), "哪些", "都有什么".
_LIST = re.compile(
    r"\b(?:list|name\s+all|all\s+(?:the|of\s+the|my)|every|each\s+of)\b|"
    r"\b(?:what|which)\s+(?:\w+\s+){0,3}(?-i:[a-z]\w*s)\s+(?:have|had|did|do|has)\b|"
    rf"\b(?:what|which)\s+(?:\w+\s+){{0,2}}{_PLURAL}\s+(?:of\s+(?:the\s+)?[\w.]+\s+)?"
    r"(?:have|has|had|did|do|does|is|are|was|were)\b|"
    r"\bwhat\s+(?:are|were)\s+(?:the\s+|some\s+|my\s+|his\s+|her\s+|their\s+|[\w-]+'s\s+)"
    rf"(?:[\w'-]+\s+){{0,2}}{_PLURAL}(?=\s*\?|\s+(?:of|that|which|who)\b)|"
    r"哪些|都有什么|都有哪|都(?:去|买|读|看|养|学|做|吃)了(?:什么|哪)|有什么\S*(?:过|了)",
    re.I,
)


def aggregate_kind(question: str) -> str | None:
    """The aggregation `question` asks for (one of AGGREGATE_KINDS), or None (see the module
    docstring): a sum when it asks "how much … in total", an order before a count or a list."""
    if _TOTAL.search(question) and (_HOW_MUCH.search(question) or not _COUNT.search(question)):
        return "total"
    if _ORDER.search(question):
        return "order"
    if _COUNT.search(question):
        return "count"
    if _TOTAL.search(question) or _LIST.search(question):
        return "list" if not _HOW_MUCH.search(question) else "total"
    if _HOW_MUCH.search(question) and _SPENT.search(question):
        return "total"
    return None


# The kind of thing a list or count asks for: pastimes ("What activities does Melanie do?",
# "我都有哪些爱好？"), found by their words (`TYPE_WORDS`); and, where entities are typed so,
# places ("Which cities have I been to?", "我今年去过哪些城市？", "How many trips …") and
# organisations ("How many companies did I interview with?", "几家公司").
_TYPE_CUES = (
    (
        "pastime",
        re.compile(
            r"\b(?:activit(?:y|ies)|hobb(?:y|ies)|sports?|exercises?|workouts?|martial\s+arts|"
            r"pastimes?|interests|for\s+fun)\b|爱好|兴趣|运动|锻炼|健身|球类",
            re.I,
        ),
    ),
    (
        "place",
        re.compile(
            r"\b(?:cit(?:y|ies)|countr(?:y|ies)|places|towns?|destinations?|states|regions|"
            r"trips?|travell?ed|visited|been\s+to)\b|城市|国家|地方|去过|哪儿|出\S{0,3}差|旅行|旅游|出游|景点",
            re.I,
        ),
    ),
    (
        "org",
        re.compile(
            r"\b(?:compan(?:y|ies)|employers?|firms|startups|brands)\b|公司|单位|企业|品牌", re.I
        ),
    ),
)


#: The kinds of thing found by their words, not by an entity's type: any of these words
#: names one.
TYPE_WORDS: dict[str, tuple[str, ...]] = {"pastime": PASTIME_TERMS}


def asked_type(question: str, kind: str | None) -> str | None:
    """The kind of thing whose every instance a list or count question asks for ("pastime",
    or an entity type: "place", "org"), or None; `kind` is the question's `aggregate_kind`.
    "Which cities have I been to?" is answered by the turns naming a place, whatever else
    they share with its words."""
    if kind not in ("list", "count"):
        return None
    return next((kind for kind, cue in _TYPE_CUES if cue.search(question)), None)
