"""What a question says about itself: the cue words of each notion, each list written once.

Six notions read a question's own words (English and Chinese), and the read path asks each
of them once (`recall/question.py`):

- **refers to the past** (`refers_to_past`): it points at an earlier time ("before",
  "used to", "之前", "一开始"): what was true then may since have been closed;
- **in the past tense** (`in_past_tense`): it asks what happened ("When did she move?",
  "What was his job?", "去年…"), so a slot's answer is an event at its own date, not the
  newest value;
- **about the present** (`about_present`): it asks what holds now ("these days", "still",
  "现在"), so the newest statement answers it;
- **speaks as the user** (`speaks_as_user`): it is in the first person ("my", "we", "我") or
  asks about "the user";
- **names someone else** (`names_someone_else`): a pronoun for another person ("her",
  "他"), a name, or a person among its entities;
- **asks what the assistant said** (`asks_assistant`): what "you" suggested, listed or told,
  or what a past conversation went over ("you recommended", "our previous chat", "你推荐的"):
  only then is an assistant's turn the answer, not a reply to the user's own words.

`asks` reads any sentence, not only a question to the engine: whether it asks rather than
states ("查些啥", "what colours suit me"), which the write path and the slot check read.

`ASKS_ABOUT_USER` is the narrower sign `recall/triggers.py` reads in any message: a question
for something of the user's ("what's my budget?", "我住在哪"), where "How do I sort a list?"
speaks as the user but asks about no matter of theirs.

The first two share their words of an earlier time (`EARLIER_EN`, `EARLIER_ZH`), which
`recall/triggers.py` also counts as a reference to shared history.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dualtrace.cjk import CJK_SPACE, has_cjk
from dualtrace.models import EntityMention
from dualtrace.text.entities import normalise_name
from dualtrace.text.script import simplified

# Words that point at an earlier time, in either question.
EARLIER_EN = r"used\s+to|initially|originally|at\s+first|in\s+the\s+beginning"
EARLIER_ZH = r"上次|之前|以前|最初|起初|一开始|原先|本来"

# A question about the past: an earlier time, or what the user said or remembers.
REFERS_TO_PAST = re.compile(
    rf"\b(?:{EARLIER_EN}|last time|as I (?:said|mentioned)|before|previously|earlier|remember)\b"
    rf"|{EARLIER_ZH}|那个|刚才|记得",
    re.I,
)

# A question in the past tense asks what happened, not what holds ("When did she move?",
# "What was his job?", "Where has she camped?", "之前住哪"; not "what do I have at the
# moment", nor "what car have I got").
PAST_TENSE = re.compile(
    rf"\b(?:{EARLIER_EN}|did|was|were|had|went|ago|"
    r"(?:has|have)\s+(?!(?:at|it|that|what|not|just|got|about|a\s+lot)\b)\w+(?:ed|en|t))\b"
    rf"|{EARLIER_ZH}|当时|那时|去年|过吗|了吗",
    re.I,
)

# A question about the present: what holds now, whatever was said before ("Do I smoke these
# days?", "Who looks after Ava now?", "我现在多重？", "你还记得我还吃素吗" is not: it is past).
ABOUT_PRESENT = re.compile(
    r"\b(?:(?:right\s+)?now|nowadays|currently|current|these\s+days|at\s+the\s+moment|"
    r"at\s+present|presently|lately|still|any\s?more|this\s+(?:week|month|year)|(?-i:rn)|"
    r"as\s+(?:things|it)\s+stands?|as\s+of\s+(?:now|today)|at\s+this\s+point)\b"
    r"|现在|目前|如今|眼下|当前|最近|近来|这些天|这阵子|这段时间|还[^。！？?]{0,8}吗",
    re.I,
)

# ... and of those, the words that name this very moment: "Which team am I playing for right
# now?" asks what holds, however its progressive reads ("What am I doing this weekend?" looks
# ahead)
NAMES_NOW = re.compile(
    r"\b(?:(?:right\s+)?now|nowadays|currently|these\s+days|at\s+the\s+moment|at\s+present|"
    r"presently|(?-i:rn))\b|现在|目前|如今|眼下|当前",
    re.I,
)

# A question that asks when, or what is to come ("When is the move?", "What's my next
# job?", "我们什么时候搬家？", "新家在哪"): a plan answers it.
ASKS_AHEAD = re.compile(
    r"\b(?:when|what\s+(?:date|day|month|time)|how\s+soon|next|new|upcoming|future|soon|"
    r"joining|relocating|moving|getting|going\s+to|gonna|will|plan(?:s|ned|ning)?)\b"
    r"|什么时候|啥时候|哪天|几号|几月|何时|下一|新|将来|以后|打算|准备|计划",
    re.I,
)

# The user speaking (first person), or an agent asking about "the user". "US" in capitals is
# the country (`speaks_as_user`).
FIRST_PERSON = re.compile(
    r"\b(?:I|I['’]m|I['’]ve|I['’]d|I['’]ll|me|my|mine|we|we['’]re|our|us|let['’]s|"
    r"the\s+user)\b|我|咱|用户",
    re.I,
)

# Someone other than the user, by a pronoun, or a name (a capitalised word past the first).
OTHER_PERSON = re.compile(r"\b(?:he|she|his|her|him|they|them|their)\b|他|她", re.I)
_NAME = re.compile(r"(?<=[\w,;:'’\s])\s+[A-Z][\w'’-]*")
_SELF = frozenset({"I", "I'm", "I’m", "I've", "I’ve", "I'd", "I’d", "I'll", "I’ll"})  # not a name

# A question about what the assistant said: what "you" said, suggested, listed or wrote, or
# what a past conversation went over ("Can you remind me of the video you recommended?",
# "你上次推荐的那本书叫什么？"). "Can you tell me where I work?" asks nothing the assistant said.
ASKS_ASSISTANT = re.compile(
    r"\byou(?:['’]ve|\s+had)?\s+(?:\w+ly\s+)?(?:said|told|suggested|recommended|mentioned|gave|"
    r"provided|shared|listed|created|wrote|written|explained|showed|shown|offered|proposed|"
    r"advised|described|named|came up with|pointed out|put together|helped me)\b"
    r"|\bdid\s+you\s+(?:\w+ly\s+)?(?:say|tell|suggest|recommend|mention|give|provide|share|list|"
    r"create|write|explain|show|offer|propose|advise|describe|name|call|come up with|"
    r"point out|put together)\b"
    r"|\byour\s+(?:\w+\s+)?(?:suggestions?|recommendations?|advice|answers?|list|tips?|ideas?|"
    r"explanation|replies|reply|response)\b"
    r"|\b(?:our|the|that|a)\s+(?:previous|earlier|last|past|prior)\s+(?:conversation|chat|"
    r"discussion|session|talk)\b|\bwe\s+(?:discussed|talked about|went over|chatted about)\b"
    r"|你(?:之前|上次|以前|刚才|当时)?(?:说|讲|提到|推荐|建议|告诉|给|列|写|介绍|分享|提供|教)"
    r"|你的(?:建议|推荐|回答|答案|清单|列表)|我们(?:之前|上次)?(?:聊|讨论|说)过|上次(?:聊|说|讨论)",
    re.I,
)

# A message asking for something of the user's (`recall/triggers.py`).
ASKS_ABOUT_USER = re.compile(
    r"\b(?:what|where|when|who|which|whose|how (?:much|many|old|long))\b[^.!?]*?"
    r"\b(?:my|mine|myself)\b"
    r"|\b(?:what|where|when|who|which)(?:['’]s|\s+(?:do|did|does|am|was|have|had|should|"
    r"would|will|can))\s+I\b"
    r"|\bhow old am I\b|\bdo you know (?:my|me|where I|what I|who I|when I)\b"
    r"|\b(?:tell me|remind me) (?:about )?(?:my|what I|where I|who I)\b"
    r"|^\W*my\s+\w+(?:\s+\w+)?\s*\?\s*$"
    r"|我的[^。！!？?]*?(?:是什么|是多少|多少|什么|哪|几|谁|吗|呢|[?？])"
    r"|我(?:住|在|叫|喜欢|爱|是|做|有|买)[^。！!？?]*?(?:哪|什么|谁|几|多少|吗|呢|[?？])"
    r"|你知道我|^\W*我的[^。！!？?，,]{1,8}\W*$",
    re.I,
)


def refers_to_past(question: str) -> bool:
    """Whether a question says it is about an earlier time ("before", "used to", "之前")."""
    return REFERS_TO_PAST.search(question) is not None


def in_past_tense(question: str) -> bool:
    """Whether a question asks what happened ("did", "was", "去年") rather than what holds."""
    return PAST_TENSE.search(question) is not None


# A sentence that asks rather than states, with or without its question mark: a closing
# particle ("水果还能吃吗", "查些啥"), a question word in a sentence that does not end as a
# statement ("安卓手机怎么关广告" but not "我什么都吃。"), a request for an account ("推荐一下"),
# an English one opening (after "also", "ok so"…) on "what", "which", "how" or "why", on
# "where", "when" or "who" before an auxiliary, or on an auxiliary before a subject ("is it
# normal to…", "is a 7:12 start too early"), that ends with no point ("How I met her is a long
# story." states).
_OPENER = r"^\W*(?:(?:also|ok|okay|so|and|but|btw|anyway|hey|hmm+|um+|oh|well|wait|ugh)\b\W*)*"
_ASKS = re.compile(
    r"[?？]\s*$|[吗呢啥么]\s*[~～]*\s*$"
    r"|(?:怎么|如何|为什么|为啥|多少|哪些|哪个|哪家|哪里|哪儿|哪种|哪款|哪位|从哪|去哪|是不是|能不能|"
    r"可不可以|有没有|(?<!没)有(?:什么|啥)|要不要|好不好|行不行|对不对|多久|多长时间|几点|什么时候|"
    r"啥时候|咋|你觉得)[^。！!]*$"
    r"|(?:推荐|介绍|解释|分析|总结|翻译)一下|求推荐"
    rf"|{_OPENER}(?:(?:what|which|how|why)\b(?!\s+an?\b)"
    r"|(?:where|when|who)\s+(?:can|could|do|does|did|is|are|was|should|would|will)\b"
    r"|(?:is|are|am|was|were|should|can|could|do|does|did|would|will)\s+(?:i|it|we|you|they|"
    r"there|this|that|these|those|a|an|the|my|your|our|their|any|\d)\b"
    r"|(?:has|have)\s+(?:i|it|we|you|they|there|anyone)\b)(?!.*[.!]\s*$)",
    re.I,
)


def asks(sentence: str) -> bool:
    """Whether a sentence asks something rather than states it (see `_ASKS`): what a user asks
    an assistant says nothing of the user ("入职体检一般都查些啥" is no employer)."""
    return _ASKS.search(simplified(sentence).strip()) is not None


# Where chat joins a statement and a question into one sentence: a comma.
# (Chinese chat often puts a space where the comma goes: "进了三星的厂 上夜班有啥注意的")
_COMMA = re.compile(rf"[,，]|{CJK_SPACE}")


def stated_part(sentence: str) -> str:
    """What a sentence states: its clauses before the last comma after which it only asks
    ("搬到成都快一个月了，有没有清淡点的推荐" states the move, "my router is blinking orange,
    what does that mean" the router); all of it when no clause asks; "" when it asks and
    nothing before such a comma states ("is it normal, my rent went up?")."""
    commas = [m.start() for m in _COMMA.finditer(sentence)]
    for comma in reversed(commas):
        head = sentence[:comma].strip()
        if _only_asks(sentence[comma + 1 :]) and head and not asks(head):
            return head
    if not asks(sentence):
        return sentence
    parts = [p.strip() for p in _COMMA.split(sentence) if p.strip()]
    if has_cjk(sentence) and parts and not asks(parts[0]):
        # Chinese chat states, asks in the middle and goes on stating: the parts that state
        # ("体检说我糖尿病前期 … 晚饭怎么吃比较好 我们家习惯吃米饭" states the first and the last;
        # one that opens on its question, "我家猫年糕坐飞机咋办", is read as below)
        return " ".join(p for p in parts if not asks(p))
    # ... or what it states after it asks, in the first person: "how do i read food
    # labels, i have a peanut allergy" states the allergy
    for comma in commas:
        tail = sentence[comma + 1 :].strip()
        if _STATES_OWN.match(tail) and not asks(tail):
            return tail
    return ""


def _only_asks(text: str) -> bool:
    """Whether a text only asks: in Chinese, every part of it between commas (a question word
    asks to the end of the text only where nothing after it states: "鸡胸肉怎么做不柴 天天水煮
    吃吐了 我租在南山" asks, then states); in English, the text (a "?" at its end asks for all
    of it)."""
    if not has_cjk(text):
        return asks(text)
    return all(asks(part) for part in _COMMA.split(text) if part.strip())


# A clause that opens on the speaker as its subject ("i have…", "my son is…", "我有…").
_STATES_OWN = re.compile(
    r"(?:(?:also|and|but|plus|cause|because|bc|since|tho)\s+)?"
    r"(?:i|i['’]m|im|i['’]ve|ive|my|we|we['’]re|our)\s|(?:而且|但是?|因为)?我(?!们?[想要能可]|觉得)",
    re.IGNORECASE,
)


def about_present(question: str) -> bool:
    """Whether a question asks what holds now ("these days", "still", "现在", "还…吗"): the
    newest statement answers it, whatever older ones said."""
    return ABOUT_PRESENT.search(question) is not None and not in_past_tense(question)


def asks_assistant(question: str) -> bool:
    """Whether a question asks what the assistant said ("the video you recommended", "our
    previous chat", "你推荐的"): only then does an assistant's turn answer it."""
    return ASKS_ASSISTANT.search(question) is not None


def speaks_as_user(question: str) -> bool:
    """Whether a question is in the user's first person ("my", "we", "我") or about "the
    user"; "US" in capitals is the country, not "us"."""
    return any(m.group(0) != "US" for m in FIRST_PERSON.finditer(question))


# Entity types that name no one whose slot a question could ask.
_NO_ONE = frozenset({"place", "org", "product"})
# A name after these words is where or what, not whose ("Which part of Leeds", "at Arup").
_PLACED = re.compile(
    r"\b(?:of|in|at|from|near|to|around|outside|inside|for|with)\s+(?:the\s+)?$", re.I
)


def whose_slot(
    question: str, entities: Sequence[EntityMention], *, asks_where: bool
) -> frozenset[str]:
    """The names (normalised) whose slot a question asks ("Where does Ana work?"). Where it
    asks where one lives, works, studies or is from (`asks_where`), a place or an
    organisation it names ("Which part of Leeds do I live in?", "Which office of Arup do I
    work at?") says what is asked, not whose, and so does a name of no known type said after
    a preposition. Beside another slot every name counts: a place there says where the thing
    asked is ("the gym where I climb", "our Lisbon rental"), and keeps the user's own values
    out as a person's name does."""
    if not asks_where:
        return frozenset(normalise_name(m.name) for m in entities)
    people = set()
    for m in entities:
        if m.type in _NO_ONE:
            continue
        at = question.find(m.name)
        if m.type != "person" and at >= 0 and _PLACED.search(question[:at]):
            continue
        people.add(normalise_name(m.name))
    return frozenset(people)


def names_someone_else(question: str, entities: Sequence[EntityMention]) -> bool:
    """Whether a question names a person other than the user: a pronoun ("her", "他"), a
    name (a capitalised word past the first), or a person among its `entities`."""
    if OTHER_PERSON.search(question):
        return True
    if any(m.group(0).strip() not in _SELF for m in _NAME.finditer(question)):
        return True
    return any(e.type == "person" for e in entities)
