"""Finding slots: which attribute of whom a clause states (and its value), or a question
asks about.

A slot is (subject, attribute, qualifier). The subject is None for the speaker, else who the
clause is about ("sister", "妹妹"); the qualifier keeps one attribute's slots apart ("car" for
a car budget). A statement also says whether the value stopped holding (`ended`), whether
it is only a possibility (`hedged`), and which change cue it carries.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from dualtrace.cjk import CJK_CLASS, CJK_SPACE, has_cjk
from dualtrace.text.kin import relation
from dualtrace.text.lexical import begins_no_name
from dualtrace.text.lexicon import lexicon
from dualtrace.text.script import simplified
from dualtrace.text.slots import cues
from dualtrace.text.slots.asking import asked_by, asks_a_code
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.catalogue import ATTRIBUTES, BY_NAME
from dualtrace.text.slots.family import FAMILY, asked_member
from dualtrace.text.slots.frames import clean_value
from dualtrace.text.slots.pets import asked_pet, owned_kind
from dualtrace.text.slots.qualifiers import NOUN_OF, qualifier_of
from dualtrace.text.slots.statement import SlotQuestion, SlotStatement
from dualtrace.text.slots.values import (
    a_place_zh,
    at_a_place,
    called_name,
    habit,
    named_doer,
    opens_on_name,
    own_age,
    pet_name,
    plausible,
    typed_name,
)

_NEGATED_EN = re.compile(
    r"\b(?:no\s+longer|don['’]t|doesn['’]t|not|never)\b.*\b(?:anymore|any\s+more)\b"
    r"|\bno\s+longer\b",
    re.I,
)
# where the parts of a clause meet (Chinese chat often parts them with a space)
_PART = re.compile(rf"[,，;；]|\s[-–—]\s|{CJK_SPACE}")
# The words that open a value's own clause after another (`cues.NEXT_CLAUSE` but "and": "I
# might quit and move" shares the might)
_OWN_CLAUSE = re.compile(
    r"\s(?:but|because|bc|cos|cuz|since|now\s+that|though|although)\s|因为|但是|不过", re.I
)


def find_statements(clause: str) -> list[SlotStatement]:
    """The slots a clause states a value of (or says one stopped holding), read in Simplified."""
    return list(_statements(simplified(clause)))


@lru_cache(maxsize=4096)
def _statements(clause: str) -> tuple[SlotStatement, ...]:
    """`find_statements`, kept for clauses seen again (splitting a sentence reads each piece
    once, then extraction reads the clauses it kept)."""
    found: list[tuple[int, SlotStatement]] = []
    # a request states nothing of its own, but takes as given what it names beside a role
    # ("help me write a card for my son Alfie")
    request = cues.REQUEST.search(clause) is not None
    # ... a Chinese one asks in its first part: the parts after it may state the speaker's
    # own news ("帮我改下自我介绍 下周一入职美团了 做交互设计师")
    told = _told_after(clause) if request else len(clause)
    unsaid = _unsaid(clause)
    unsaid_at = {m.end() for m in _NOT_COPULA_EN.finditer(clause)}
    for attribute in ATTRIBUTES:
        said = _statement(attribute, clause)
        if unsaid is not None and said is not None and said[1].start in unsaid_at:
            said = (said[0], replace(said[1], ended=True, hedged=False))  # "not moving to …"
        if said is None and unsaid is not None and (said := _statement(attribute, unsaid)):
            said = (said[0], replace(said[1], ended=True, hedged=False))
        if said is not None:
            found.append(said)
            taken = (
                _statement(attribute, clause, only=False, besides=said[1].value)
                if said[1].ended
                else None
            )
            if taken and not taken[1].ended and not same_value(taken[1].value, said[1].value):
                found.append(taken)  # "sold the Civic, picked up a Kia Niro": both
        if (said is None or not said[1].ended) and (left := _unnamed_end(attribute, clause)):
            found.append(left)  # "quit my job, starting at Northwind in May": both
    # the longest frame first; a name last: words another attribute takes are no name ("hey
    # i'm pescatarian.")
    found.sort(key=lambda pair: (pair[1].attribute == "name", -pair[0]))
    kept: list[SlotStatement] = []
    spans: list[tuple[int, int]] = []
    for _, statement in found:
        if statement.value is None:
            kept.append(statement)  # a value ended unnamed claims no words ("退休了")
            continue
        span = _value_span(clause, statement)
        if any(span[0] < end and start < span[1] for start, end in spans):
            continue  # another attribute claimed these words with a longer frame
        spans.append(span)
        kept.extend(at_a_place(statement, kept, clause))
    kept.sort(key=lambda s: s.start)
    # one statement of a value said twice (two frames reading one value)
    first = {_said(s): s for s in reversed(kept)}
    return tuple(
        s for s in kept if first[_said(s)] is s and (s.given or not request or s.start >= told)
    )


def _told_after(request: str) -> int:
    """Where a Chinese request's own part ends, after which it may tell the speaker's news
    (past its first comma or space, `_PART`); an English one tells none of its own."""
    end = _PART.search(request) if has_cjk(request) else None
    return len(request) if end is None else end.end()


def _said(statement: SlotStatement) -> tuple[str, str | None, str | None, bool]:
    return statement.attribute, statement.value, statement.subject, statement.ended


# "I'm no longer vegetarian", "I'm not vegan anymore": a value the copula negates has ended
_NOT_COPULA_EN = re.compile(
    r"\b(I['’]m|I\s+am|we['’]re|we\s+are|im)\s+(?:no\s+longer|not)\s+(?=[a-z])", re.I
)
_ANYMORE = re.compile(r"\s+(?:anymore|any\s+more)\b", re.I)


def _unsaid(clause: str) -> str | None:
    """The clause with its copula's negation taken out (its frames then say what ended),
    or None where the copula is not negated."""
    if not _NOT_COPULA_EN.search(clause):
        return None
    return _ANYMORE.sub("", _NOT_COPULA_EN.sub(lambda m: m.group(1) + " ", clause))


def _value_span(clause: str, statement: SlotStatement) -> tuple[int, int]:
    # in any case: a name typed in lower case is kept capitalised ("arjun" → Arjun)
    value = (statement.value or "").lower()
    at = clause.lower().find(value, statement.start) if value else -1
    if at < 0:
        return statement.start, statement.start + 1
    return at, at + len(statement.value or "")


def _statement(
    attribute: Attribute, clause: str, *, only: bool | None = None, besides: str | None = None
) -> tuple[int, SlotStatement] | None:
    """The clause's statement of the attribute: a value that ended if it says one, else a
    value it holds (`only`: True for an ended one only, False for a held one only); with
    the length of its frame. `besides`: a value other than this one, wherever in the clause
    a frame finds it ("生酮放弃了 现在改吃素": 吃素 besides 生酮)."""
    if not attribute.in_domain(clause):
        return None  # none of the attribute's words: no frame of it can apply
    kinds = ((True, attribute.ends), (False, attribute.frames))
    for ended, frames in [k for k in kinds if only is None or k[0] == only]:
        found = (f.finditer(clause) if besides else (f.search(clause),) for f in frames)
        matches = [m for each in found for m in each if m and "v" in m.re.groupindex]
        # the frame that names the value last is the most specific ("预算可以放宽到25万")
        for match in sorted(matches, key=lambda m: (-m.start("v"), m.start())):
            value = _typed(match, clean_value(match.group("v")))
            if not value or not plausible(attribute.name, value):
                continue
            if "unlisted" in match.re.groupindex and value in lexicon().zh_en:
                continue  # a frame that takes only what no dictionary lists ("我是新人，…")
            if attribute.name == "partner" and _no_name(clause, match, value):
                continue  # "老公放寒假", "老婆讲要送他": what the partner does, not who
            if besides and same_value(value, besides):
                continue
            if attribute.name in _NAMED_BY_KIND:
                # a kind of place or person and its name: the name ("a startup called Loop"
                # → Loop, "一家叫蓝鲸的公司" → 蓝鲸, "my boss is a guy called Marcus" → Marcus)
                value = _called(value) or value
            if "kind" in match.re.groupindex:
                # the word for whom the name is given, away from it: "my sister is called
                # Anna" → sister Anna, as "my sister Anna" says it
                value = f"{match.group('kind')} {value}"
            if "hurt" in match.re.groupindex:
                # what was done to it, as one has it: "tore my ACL" → a torn ACL
                hurt = match.group("hurt").casefold()
                value = f"a {_HURT.get(hurt, hurt)} {value}"
            if ended and attribute.name == "works_at" and habit(value):
                continue  # "I quit coffee": a habit given up, no employer left
            # a value named beside its role belongs to whoever owns the role ("用户兄弟的老婆
            # 小芳": the brother's; "女儿叫朵朵": the user's daughter is the user's family)
            before = match.start() if _named(match) else match.start("v")
            subject = _whose(attribute, clause, match.start(), before)
            if subject == "someone" or (subject is None and not own_age(attribute.name, value)):
                continue  # someone else's ("他们都开Audi"), or no one's own age ("今年五岁")
            negated = not ended and (_negated(clause, match) or _former(clause, match))
            statement = SlotStatement(
                attribute=attribute.name,
                value=value,
                subject=subject,
                qualifier=qualifier_of(attribute, clause),
                ended=ended or negated,
                hedged=not _named(match) and _hedged(attribute, clause, match.span("v")),
                cue=_cue(clause),
                many=attribute.many,
                start=match.start(),
                given=_named(match),
            )
            return match.end() - match.start(), statement
    return None


def _no_name(clause: str, match: re.Match[str], value: str) -> bool:
    """Whether a Chinese name, where the frame found it, is none (`lexical.begins_no_name`);
    a pet name (阿杰, 小陈, 老周, 晴晴) is one however the words fall."""
    if not has_cjk(value) or value[:1] in "阿小老" or value[:1] == value[1:2]:
        return False  # (nor a doubled one: 晴晴)
    at = clause.find(value, match.start("v"))
    return at >= 0 and begins_no_name(clause, at, at + len(value))


def _whose(attribute: Attribute, clause: str, start: int, before: int) -> str | None:
    """Who a statement whose frame opens at `start` is about, by the words before `before`:
    None for the speaker, a kin word, or "someone". In Chinese, by what is said in the
    statement's own part of the clause ("两家人商量过了，婚宴预算定成20万": the budget is
    the speaker's); an English part often goes on with the subject before it ("My dad, who
    retired, moved …")."""
    part = _own_part(clause, start)
    own = clause[part:before]
    if part and not _marks(own, attribute) and not attribute.about.search(own):
        # a part that names neither a person nor the attribute goes on with the topic
        # before it ("孩子这学期转学了，现在在育才小学上课": the child's school)
        if _goes_on_with_someone(clause[:part], attribute):
            return "someone"  # "昨天去相亲了 对方叫林峰 是个律师": the date's job
        if opens_on_name(own):
            return "someone"  # "下个月就过去 豆豆今年三年级": the child's year
        return _topic(clause[:part], attribute)
    return _subject(own, attribute)


def _own_part(clause: str, at: int) -> int:
    """Where the part of a Chinese clause that holds `at` begins (0 for English, whose part
    often goes on with the subject before it)."""
    if not has_cjk(clause):
        return 0
    return max((m.end() for m in _PART.finditer(clause) if m.end() <= at), default=0)


def _unnamed_end(attribute: Attribute, clause: str) -> tuple[int, SlotStatement] | None:
    """A held value said to stop holding without being named ("I quit my job", "我辞职了"):
    the speaker's, or the relative's the words before it name ("my dad just retired"); none
    where it is someone else's or only may be ("thinking of quitting my job")."""
    if not attribute.unnamed_ends or not attribute.about.search(clause):
        return None
    for frame in attribute.unnamed_ends:
        if (match := frame.search(clause)) is None:
            continue
        subject = _whose(attribute, clause, match.start(), match.start())
        part = _own_part(clause, match.start())
        if subject is None and named_doer(clause[part : match.end()]) is not None:
            subject = "someone"  # "老孙退休了", "Rosa finally retired"
        if _SOON.search(clause[part : match.start()]):
            return None  # "还有两年就退休了", "about to quit my job": not yet
        if subject == "someone" or _hedged(attribute, clause, match.span()):
            return None
        statement = SlotStatement(
            attribute.name, None, subject, ended=True, cue=_cue(clause), start=match.start()
        )
        return match.end() - match.start(), statement
    return None


_SOON = re.compile(r"还有|再过|马上|快要|就要|等到?|\b(?:about\s+to|going\s+to|gonna|soon)\b", re.I)


def _typed(match: re.Match[str], value: str) -> str:
    """The value, its name capitalised where a frame took one typed in lower case (group
    `typed`: "my partner arjun" → Arjun; `called`: "biscuit (our beagle)" → Biscuit;
    `place`: "back home in lisbon" → Lisbon; `folk`: the place of "我是潍坊人" → 潍坊); ""
    where that word is no name ("my wife says", "我是外地人")."""
    place = match.group("place") if "place" in match.re.groupindex else None
    if place:
        return value.replace(place, place.title())
    called = match.group("called") if "called" in match.re.groupindex else None
    if called:
        return value.replace(called, called.capitalize()) if called_name(called) else ""
    doer = match.group("doer") if "doer" in match.re.groupindex else None
    if doer:  # "my cats pickle and olive have …" → cats Pickle and Olive
        named = re.sub(r"\b(?!and\b)[a-z]", lambda w: w.group(0).upper(), doer)
        return value.replace(doer, named) if pet_name(doer) else ""
    folk = match.group("folk") if "folk" in match.re.groupindex else None
    if folk:  # "我是潍坊人" → 潍坊, where the word before 人 names a place
        return value if a_place_zh(folk) else ""
    typed = match.group("typed") if "typed" in match.re.groupindex else None
    if not typed or not typed.islower():
        return value
    if not typed_name(typed):
        return ""
    return value.replace(typed, typed.capitalize())


# Attributes whose value is a place's or a person's name, which may follow a kind of place
# or person given that name
_NAMED_BY_KIND = frozenset({"works_at", "studies_at", "manager", "partner"})
_CALLED = re.compile(r"\b(?:called|named)\s+(?P<en>\S.*)$|叫(?P<zh>[^的，。]{1,12})的", re.I)


def _called(value: str) -> str:
    """The name a kind of place or person is given in the value ("startup called Loop" →
    Loop), or ""."""
    found = _CALLED.search(value)
    return "" if found is None else (found.group("en") or found.group("zh")).strip()


def _named(match: re.Match[str]) -> bool:
    """Whether the frame names the value beside its role ("my girlfriend Sanne", "男朋友阿杰",
    "Biscotto (my dog)"): a noun phrase takes the value as given whatever the clause goes on
    to say of it ("my girlfriend Sanne would kill me" hedges the killing, not Sanne)."""
    return "named" in match.re.groupindex


def _hedged(attribute: Attribute, clause: str, value: tuple[int, int]) -> bool:
    """Whether the part of the clause that says the value (up to its comma) only may, or
    only means to, hold it, or a condition before it says so ("If I get the job, I'll move
    to Berlin"). A plan is a trip's value itself: "we're planning to go to Xi'an" states it.
    The value's own words hedge nothing ("买了理想L6": 理想 is a make, not 想 "want")."""
    at, end = value
    start = max((m.end() for m in _PART.finditer(clause, 0, at)), default=0)
    # ... in its own clause: not what one joined before it says ("my son wants to help now
    # that I've got into woodworking")
    start = max((m.end() for m in _OWN_CLAUSE.finditer(clause, start, at)), default=start)
    stop = m.start() if (m := _PART.search(clause, at)) else len(clause)
    # ... nor what a clause joined after it says of something else
    stop = m.start() if (m := cues.NEXT_CLAUSE.search(clause, end, stop)) else stop
    part = clause[start:at] + " " * (end - at) + clause[end:stop]
    if cues.HEDGE.search(part) or cues.CONDITION.search(clause[:start]):
        return True
    return bool((cues.WISH if attribute.planned else cues.INTENT).search(part))


def _negated(clause: str, match: re.Match[str]) -> bool:
    """ "I don't live in Lyon anymore", "我不再吃素" — the frame's value no longer holds."""
    # within the value's own part of the clause: "日语暂时不学了，改学法语了" ends Japanese,
    # not French
    start = max((m.end() for m in _PART.finditer(clause) if m.end() <= match.start("v")), default=0)
    stop = m.start() if (m := _PART.search(clause, match.end("v"))) else len(clause)
    around = clause[max(start, match.start() - 20) : min(stop, match.end() + 16)]
    if re.search(r"不|没|n['’]t|\bno\b|\bnot\b|stopped|quit|gave\s+up|cut\s+out", match.group("v")):
        return False  # the value is the negation ("no longer eat meat" is a diet)
    if has_cjk(clause):
        lead = clause[max(0, match.start() - 1) : match.start("v")]  # "不当老师了": 不 + the verb
        return bool(re.search(rf"不再|不[{CJK_CLASS}]{{0,2}}了|没有再", around)) or bool(
            re.search(r"[不没]", lead)
        )
    return bool(_NEGATED_EN.search(around))


# An injury's verb as what one has: "tore my ACL" → a torn ACL (the rest are participles)
_HURT = {"tore": "torn", "broke": "broken"}
# What the speaker did once and does no more: "I used to drive a Prius" (not "I'm used to
# driving"), "back in uni I rowed", "我以前开的是卡罗拉", "曾经在阿里" (not "一年以前", "原来是",
# nor a former someone: "我以前的室友")
_FORMER_EN = re.compile(
    r"(?<!\bbe\s)(?<!\bam\s)(?<!['’]m\s)(?<!\bis\s)(?<!\bare\s)(?<!\bget\s)(?<!\bgot\s)"
    r"(?<!\bgetting\s)\bused\s+to\b|\bformerly\b|\bback\s+when\b"
    r"|\bback\s+in\s+(?:the\s+day|uni|college|school|high\s+school)\b",
    re.I,
)
_FORMER_ZH = re.compile(r"(?:^|(?<=[我们户他她\s]))(?:以前|曾经|原来(?!是))(?!的)")
_NOW = re.compile(r"现在|如今|目前|\bnow\b|\bthese\s+days\b", re.I)


def _former(clause: str, match: re.Match[str]) -> bool:
    """Whether the value is said of a time gone by, within its own part of the clause, with
    no "now" after the word that says so."""
    at = match.start("v")
    start = max((m.end() for m in _PART.finditer(clause) if m.end() <= at), default=0)
    lead = clause[start:at]
    former = (_FORMER_ZH if has_cjk(clause) else _FORMER_EN).search(lead)
    return former is not None and not _NOW.search(lead, former.end())


def _cue(clause: str) -> str | None:
    match = cues.CHANGE.search(clause)
    return match.group(0).strip() if match else None


def _subject(before: str, attribute: Attribute) -> str | None:
    """Who the words before a value are about: None for the speaker, else a kin word, or
    "someone" for a pronoun (he, she, 他) the clause does not resolve."""
    marks = _marks(before, attribute)
    if (at := named_doer(before)) is not None:
        marks.append((at, "someone"))
    if not marks:
        return None
    return max(marks, key=lambda mark: mark[0])[1]


def _goes_on_with_someone(before: str, attribute: Attribute) -> bool:
    """Whether the last part of a Chinese text names only someone else (他, 对方), whom a
    part after it with no subject of its own goes on about."""
    last = max((m.end() for m in _PART.finditer(before.rstrip())), default=0)
    marks = _marks(before[last:], attribute)
    return bool(marks) and all(who == "someone" for _, who in marks)


def _topic(text: str, attribute: Attribute) -> str | None:
    """Who a text is about when it opens by naming them ("孩子这学期转学了", "My son Leo…"):
    the topic a following part goes on with. A person named further in ("可乐送回老家爸妈那了")
    is an object or a place, not the topic: the speaker's, then."""
    opening = len(text) - len(text.lstrip())
    reach = _TOPIC_REACH_ZH if has_cjk(text) else _TOPIC_REACH_EN
    near = [m for m in _marks(text, attribute) if m[0] - opening <= reach]
    marks = sorted(near, key=lambda mark: mark[0])
    if len(marks) > 1 and marks[0][1] is None and marks[1][1] not in (None, "someone"):
        return marks[1][1]  # the speaker's someone: "我妈拍了片 说是骨折" is the mother's
    if not marks and has_cjk(text) and opens_on_name(text) and not _SPEAKER_ZH.search(text):
        return "someone"  # "乐乐九月一号开学 上一年级": the child's year, not the speaker's
    return marks[0][1] if marks else None


# How far into a text its topic may be named: "我的女儿", "My son", "The user's son".
_TOPIC_REACH_ZH, _TOPIC_REACH_EN = 2, 11


def _marks(text: str, attribute: Attribute) -> list[tuple[int, str | None]]:
    """Where the text names a person, and who: None for the speaker (I, we, the user),
    a kin word, or "someone" for a pronoun."""
    marks: list[tuple[int, str | None]] = []
    cjk = has_cjk(text)
    kin_re = cues.KIN_ZH if cjk else cues.KIN_EN
    for m in kin_re.finditer(text):
        kin = m.group("kin").casefold()
        kin = cues.SINGLE_KIN_ZH.get(kin, kin)  # 我哥: the user's 哥哥
        if cjk and _WITH_ZH.search(text, 0, m.start("kin")):
            continue  # a companion: "我和老伴住在杭州" is where the speaker lives
        if not attribute.about.fullmatch(kin) and not attribute.about.search(m.group(0)):
            marks.append((m.start("kin"), kin))
    kin_starts = {m.start() for m in cues.KIN_EN.finditer(text)}
    person = _SPEAKER_ZH if cjk else _SPEAKER_EN
    for m in person.finditer(text):
        if m.start() not in kin_starts:
            marks.append((m.start(), None))
    for m in (cues.OTHER_ZH if cjk else cues.OTHER_EN).finditer(text):
        if cjk and _WITH_ZH.search(text, 0, m.start()):
            continue  # a companion, not who does it: "每周六都跟他去玩飞盘"
        marks.append((m.start(), "someone"))
    return marks


# Words right before a companion: "跟同事去攀岩", "约了同事打羽毛球", "跟小区的阿姨学太极拳",
# "跟着小区的老哥们打太极", "跟厂里同事踢球" (one taken along by 带 or 陪 does it: "陪她去上
# 游泳课" is her class)
_WITH_ZH = re.compile(
    r"(?:(?:[跟和同]着?|约了?)(?:[^，。！？\s]{0,4}的)?|(?:跟着?|约了?)[^，。！？\s的]{1,3})[老小]?$"
)
# The speaker, as a turn says it or as a derived memory writes it ("the user's phone").
_SPEAKER_ZH = re.compile(r"我们?|咱们?|用户")
_SPEAKER_EN = re.compile(rf"{cues.FIRST_PERSON_EN.pattern}|\bthe\s+user\b", re.I)


def whose(attribute: str, text: str) -> str | None:
    """Who a text that names no value frame is about, for this attribute: None for the
    speaker, a kin word, or "someone" ("Bought my dad a Galaxy for his birthday"). It is who
    the clause naming the attribute last is about ("现在的男朋友叫陈浩，是我同事": the user's
    boyfriend, not the colleague), else who the text before that clause is about."""
    found = BY_NAME[attribute]
    said = list(found.about.finditer(text))
    if not said:
        return _subject(text, found)
    last = said[-1]
    start = max(text.rfind(mark, 0, last.start()) for mark in _CLAUSE_MARKS) + 1
    ends = [i for mark in _CLAUSE_MARKS if (i := text.find(mark, last.end())) >= 0]
    clause = text[start : min(ends, default=len(text))]
    if _marks(clause, found):
        return _subject(clause, found)
    # a Chinese part goes on with the topic the text opened with; an English one with the
    # person last named ("Got my dad a phone for his birthday, a Galaxy S24")
    before = text[:start]
    return _topic(before, found) if has_cjk(before) else _subject(before, found)


_CLAUSE_MARKS = tuple(",，;；.。!！?？")


@lru_cache(maxsize=1024)
def ask(question: str) -> tuple[SlotQuestion, ...]:
    """The slots a question asks about: those whose words it says most ("哪家公司工作": the
    employer, by "公司" and "工作", over the title, by "工作"). A qualified attribute whose
    qualifier names another attribute's word ("car budget") hides that attribute. Cached:
    one search (and the context built on it) asks this of the same question several times."""
    if asks_a_code(question):  # "my employee number at work": not the employer
        return ()
    member = asked_member(question)
    if member is not None:  # a member's name: the family, narrowed to the relation
        return (SlotQuestion(FAMILY.name, None, member),)
    kind = asked_pet(question)
    if kind is not None:  # a pet's name: the pets, narrowed to the kind
        return (SlotQuestion("pet", None, kind),)
    found: list[tuple[int, SlotQuestion]] = []
    hidden: set[str] = set()
    for attribute in ATTRIBUTES:
        if not attribute.asked or (attribute.name == "age" and _age_of_a_thing(question)):
            continue
        said = asked_by(question, attribute)
        if not said:
            continue
        qualifier = qualifier_of(attribute, question)
        if qualifier is not None and attribute.name in NOUN_OF:
            hidden.update(
                a.name for a in ATTRIBUTES if a is not attribute and a.about.search(qualifier)
            )
        subject = _subject(question, attribute)
        asked = SlotQuestion(attribute.name, None if subject == "someone" else subject, qualifier)
        found.append((len(said), asked))
    kept = [(n, q) for n, q in found if q.attribute not in hidden]
    most = max((n for n, _ in kept), default=0)
    chosen = [q for n, q in kept if n == most]
    # one's own pet of a kind, asked of something else ("我家猫现在多重了？"): the pets
    # of that kind
    owned = owned_kind(question) if any(q.attribute == "pet" for q in chosen) else None
    if owned is not None:
        chosen = [
            replace(q, qualifier=owned) if q.attribute == "pet" and q.qualifier is None else q
            for q in chosen
        ]
    # a health question about allergies: the allergies ("Which fruit am I allergic to?",
    # "我对什么过敏？"), not every condition
    if _ALLERGY.search(question):
        chosen = [
            replace(q, qualifier=ALLERGY) if q.attribute == "health" and q.qualifier is None else q
            for q in chosen
        ]
    names = {q.attribute for q in chosen}
    also = [  # a sport is a pastime too: "郑浩有什么户外爱好？"
        replace(q, attribute=a)
        for q in chosen
        for a in BY_NAME[q.attribute].also_asks
        if a not in names
    ]
    return (*chosen, *also)


# "How old is the air conditioner?": the age of what follows, when it is a thing
_HOW_OLD_IS = re.compile(
    r"\bhow\s+old\s+(?:is|are|was|were)\s+(?P<np>(?:the|our|my|this|that|these|those)\s[^?？]+)",
    re.I,
)
_PERSON_EN = re.compile(rf"\b(?:{cues.KIN_WORDS_EN}|I|me|you|he|she|they|him|her|them)\b", re.I)

# The narrowing word of a health question or statement about allergies
ALLERGY = "allergy"
_ALLERGY = re.compile(r"\ballerg\w*|过敏", re.I)


def allergic(text: str) -> bool:
    """Whether a text speaks of an allergy ("allergic to peanuts", "芒果过敏")."""
    return _ALLERGY.search(simplified(text)) is not None


def _age_of_a_thing(question: str) -> bool:
    """Whether a question asks how old a thing is (an appliance, a flat, a car): neither a
    person (a kin word, a pronoun, a name) nor a pet, whose ages are the age slot's."""
    found = _HOW_OLD_IS.search(question)
    if found is None:
        return False
    held = found.group("np")
    named = any(w[:1].isupper() for w in held.split()[1:])  # "our Tom", "the Hendersons"
    return not (named or _PERSON_EN.search(held) or BY_NAME["pet"].about.search(held))


def same_value(a: str | None, b: str | None) -> bool:
    """Two values said loosely alike: case, spacing, punctuation and articles aside, or one
    inside the other ("阿里" and "阿里巴巴", "Google" and "Google Zurich")."""
    x, y = _norm(a), _norm(b)
    if not x or not y:
        return False
    return x == y or (min(len(x), len(y)) >= 2 and (x in y or y in x))


def _norm(value: str | None) -> str:
    if not value:
        return ""
    value = re.sub(r"^(?:the|a|an|my|our)\s+", "", value.strip(), flags=re.I)
    return re.sub(r"[\s\"'“”‘’.,;:!?，。；：！？、()（）《》-]+", "", value).casefold()


def same_subject(asked: str | None, said: str | None) -> bool:
    """Whether a statement's subject can be the one a question asks about: the same, or the
    same relation in other words or the other language ("cousin", "表妹"), a child said
    generically ("孩子", "the kids") for a son or daughter, or a pronoun
    ("he's at Riverside now") for anyone but the user."""
    if asked == said or asked is None or said is None:
        return asked == said
    if said == "someone" or relation(asked) == relation(said):
        return True  # "cousin" and "表妹" are one relation
    return asked in cues.CHILDREN and said in cues.CHILDREN_GENERIC


def is_request(clause: str) -> bool:
    """Whether a clause asks the assistant to do something ("recommend a book", "帮我…")."""
    return bool(cues.REQUEST.search(clause))
