"""Building blocks of the attribute catalogue: how a value is cut out of a clause.

A frame is a regular expression with a `{V}` placeholder for the value. English values run
to the next clause word (a preposition of time or company, a conjunction, an adverb of
time) or mark; Chinese values to the frame's own next word, a particle or a mark. Values
are cut lazily, so a frame names what follows the value when it needs to ("在{V}上班").
"""

from __future__ import annotations

import re

from dualtrace.cjk import CJK_CLASS, has_cjk
from dualtrace.text.districts import names as district_names
from dualtrace.text.gazetteer import FIRST_NAMES, PLACES
from dualtrace.text.lexical import in_dictionary, segment
from dualtrace.text.sentences import EMOJI
from dualtrace.text.slots.surnames import SURNAMES

# Where an English value ends: words that start a new part of the clause, or a mark.
_EN_STOP = (
    r"(?=\s+(?:with|since|because|for|last|this|next|yesterday|today|tomorrow|now|and|but|so|"
    r"after|before|when|as|which|who|where|ago|from|until|till|on|at|in|these\s+days|"
    r"nowadays|instead|too|again|anymore|any\s+more|every|each|per|starting|effective|"
    r"though|although|while|if|or|to|than|by|about|right|already|full[-\s]time|part[-\s]time|"
    r"is|was|are|were|will|starts?|started|begins?|has|had|that|which|because|cause|so|"
    r"done|lol|lmao|haha|tbh|tho|btw|rn|ngl|here|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|"
    r"finally|honestly|actually|anyway|most\s+of|near|once|means|meaning|out\s+of|"
    # a doing that follows with its object: "grew up in Tucson eating my nonna's food"
    r"[a-z]{2,}ing\s+(?:my|our|his|her|their|the|a|an|some|lots)|"
    r"(?-i:downtown|uptown|midtown)|"
    # a clause of the speaker's own: "the field trip to the Brecon Beacons I'm organising"
    r"(?-i:I)(?:['’](?:m|ve|ll|d)|\s+(?:am|was|have|had|will|can|think|need|want))|"
    # ... or of anyone's, its subject first: "since moving to Oxford I cycle everywhere"
    r"(?-i:I)(?=\s+[a-z])|we|they|he|she|"
    r"(?:the\s+)?(?:end|beginning|start|middle)\s+of|"
    r"(?:a\s+)?(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|few|several|"
    r"couple(?:\s+of)?)\s+(?:hours?|days?|weeks?|months?|years?)\s+ago)"
    rf"\b|\s*(?:[,;:!?()\"“”{EMOJI}]|\.(?![A-Za-z0-9]))|\s+[-–—]|$)"
)
# a dot inside a word is the value's own ("Booking.com", "Node.js"); one before a space ends it
EN_VALUE = r"(?P<v>(?:[^,.;:!?()\"“”]|\.(?=[A-Za-z0-9])){1,60}?)" + _EN_STOP
# A Chinese value: a run without marks, up to a particle, a mark or the frame's next word.
# (a Latin name keeps the spaces between its words: "搬到Canary Wharf了", "在BC Hydro上班")
ZH_VALUE = (
    rf"(?P<v>(?:[^，。；！？,.;!?\s、：:（）()～~{EMOJI}]"
    r"|(?<=[A-Za-z0-9])\s(?=[A-Za-z0-9])){1,20}?)"
)
# When, said after a Chinese value: no part of it ("狗狗上周去世了" names 狗狗)
WHEN_ZH = r"上个?(?:周|月|星期|礼拜)|昨天|前天|前几天|去年|刚刚|已经"
_ZH_STOP = (
    rf"(?=了|吧|啊|呢|呀|哦|嘛|啦|的时候|左右|上下|而已|$|[，。；！？,.;!?、：:（）()～~{EMOJI}]"
    rf"|{WHEN_ZH}"
    # (a space ends it, but the one between the words of a Latin name: "Canary Wharf")
    r"|(?<![A-Za-z0-9])\s|\s(?![A-Za-z0-9]))"
)

# ("New" before a capitalised word is a name's own: New York, New Zealand; "new Tesla" is not)
_LEADING = re.compile(
    r"^(?:(?:a|an|the|my|our|his|her|their|some|(?-i:new)|new(?!\s+(?-i:[A-Z]))|brand\s+new|"
    r"current|own|now|currently|just|really|also|still|finally|officially|to|up\s+to|about|"
    r"around|roughly|approximately|like|only|even)\s+)+",
    re.I,
)
_TRAILING = re.compile(
    r"(?:\s+(?:now|too|again|then|instead|lately|recently|though|lol|lmao|haha|tbh|btw|rn|"
    r"atm|fr|ngl|down|back|home|there|here))+$",
    re.I,
)
# a word said before a Chinese value
_ZH_LEAD = (
    r"(?:我们|我|已经|刚刚|刚|也|都|从|了|一个|一台|一辆|一部|一只|一条|一家|一所|个|台|辆|部|只|家|所|旧的|"
    r"新的|新|的|现在|目前|大概|大约|差不多|约|是|为|成|到|在)"
)
_ZH_LEADING = re.compile(rf"^{_ZH_LEAD}+")
_ZH_LEAD_WORD = re.compile(_ZH_LEAD)
# (里 of "住在宿舍里", "WG里" is where in it, not the name's own: 阿里, 万里)
_ZH_TRAILING = re.compile(
    r"(?:了|吧|啊|呢|呀|哦|嘛|啦|的|左右|上下|做|干"
    r"|(?:(?<=[A-Za-z]{2})|(?<=宿舍|院子|小区|公司|学校|屋子|房子)|(?<=家))里)+$"
)
# Where a Chinese value has ended whatever follows: a place word, an adverb of time or a
# span of time is no part of a name ("BMW那边已经提了离职": BMW; "搬到成都快一个月了": 成都,
# "入职腾讯第二周": 腾讯).
_ZH_AFTER = re.compile(
    r"(?:那边|这边|那里|这里|那儿|这儿|已经|正在|一直|终于|总算|之后|以后|以来|(?:跟|和|同)\S{1,6}?一起"
    r"|(?<=\S{2})的?(?:新房子?|新家|新公寓)"
    # (not a word with 月 in it: 半月板)
    # (not a model's year: "2016年的大众朗逸")
    r"|快?(?<!\d)(?!\d{4}年的)[一二三四五六七八九十两半几\d]+个?多?(?:天|周|星期|礼拜|月(?![板饼牙亮])|年(?!级)|小时)"
    r"|第[一二三四五六七八九十\d]+(?:天|周|个|年(?!级)|次)).*$"
)


def en(pattern: str) -> re.Pattern[str]:
    """An English frame: `{V}` is the value, cut at the next clause word or mark. Frames
    ignore case, except where they ask for a capital (`[A-Z]`: a name), which a first name
    typed in lower case also gives ("my boyfriend marcus", "my new manager luis")."""
    pattern = _CAPITAL.sub(lambda m: f"(?:(?-i:{m.group(0)})|{_TYPED_NAME})", pattern)
    return re.compile(pattern.replace("{V}", EN_VALUE), re.I)


_CAPITAL = re.compile(r"\[A-Z[^\]]*\]")
# A name typed in lower case where a frame asks for one beside a role ("my partner arjun"):
# the finder takes it only where it is a first name or no dictionary lists the word
# (`values.typed_name`)
TYPED = r"(?P<typed>[a-z]{3,15})(?!-)"
# A place of the gazetteer, or a district of a big city, typed in lower case ("back home in
# lisbon", "renting in kitsilano"), which the finder capitalises
_TYPED_PLACES = PLACES | {d for d in district_names() if d.isascii()}
PLACE_TYPED = (
    r"(?P<place>(?-i:"
    + "|".join(re.escape(p) for p in sorted(_TYPED_PLACES, key=len, reverse=True))
    + r"))\b"
)
# A place the gazetteer knows, in whatever case it is typed ("shifted to Bengaluru")
KNOWN_PLACE = (
    r"(?i:" + "|".join(re.escape(p) for p in sorted(PLACES, key=len, reverse=True)) + r")\b"
)
# ... and one typed before a role in brackets ("biscuit (our beagle)"): the brackets name it,
# so a word of the dictionary is a name there too (`values.called_name`)
BRACKETED = r"(?P<called>[a-z]{2,15})(?!-)"
# A school by its name's end: 小学, 二中, 附小, 实验小学, 培训机构 (to jieba "三中" is a
# place's name, but no city one lives in)
SCHOOL_ZH = (
    r"(?:小学|中学|大学|学院|学校|幼儿园|[一二三四五六七八九十\d]+[中小]|附[中小]|实小|"
    r"培训(?:班|机构|学校))"
)
# A word written with a capital, in Latin letters with or without accents ("Dana", "Tomás",
# "Frøya", "Łukasz"): its first two letters, as name patterns begin.
CAPITAL = "[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž]"
# A person's name, with a family name after it or not ("Dana", "Priya Nair")
GIVEN_EN = rf"(?P<v>{CAPITAL}[\w’'-]*(?:\s+{CAPITAL}[\w’'-]*)?)\b"
# What goes between the word for someone and the name they are given: "my boss is called
# Dana", "my new boss is a guy called Marcus", "my sister's name is Anna", "my new manager
# starts monday — her name is Priya" (not past another person: "my sister's friend, her
# name is …", "my dog and my neighbour's, his name is …")
NAMED_AS_EN = (
    r"(?:\s+(?:is|was)\s+(?:(?:a|some)\s+(?:guy|girl|man|woman|lady|dude|bloke)\s+)?"
    r"(?:called|named)"
    r"|['’]s\s+name\s+is(?:\s+actually)?"
    r"|\s(?:(?!\b(?:my|our|his|her|their|who|whose)\b)[^.!?]){0,40}?(?:[,;—–]|\s-)\s*"
    r"(?:and\s+)?(?:her|his|their|its)\s+name\s+is)\s+"
)

# Characters that open the words said after "老婆" or "我" other than a name (在, 说, 最近, 天天…)
FUNCTION_ZH = (
    "在是说也都就还跟和对把被很最今昨明每一这那有没不要会去"
    "来给让又刚已从的了天特非真总经常平带陪出回本"
)

# A bracket's end, after what chat adds to it ("biscuit (our beagle 🐶)")
CLOSE = r"\s*[^\w\s()]{0,3}\s*\)"
# A given name: one or two capitalised words; in Chinese, how one calls a partner or a pet
# (阿杰, 小雨, 老陈) or a surname and a character (陈浩): a longer name is cut to its first two.
NAMED_ZH = (
    rf"(?:[阿小老][{CJK_CLASS}]|[{SURNAMES}][{CJK_CLASS}]|(?![{FUNCTION_ZH}])[{CJK_CLASS}]{{2}})"
)
GIVEN_ZH = rf"(?P<v>{NAMED_ZH}|(?<![A-Za-z]){CAPITAL}[a-zß-öø-ÿā-ž]{{0,14}})"
# Known first names that are no common word too ("mark", "grace", "jack" are left out): in
# lower case one is a name only where a frame asks for one.
WORDS_TOO = frozenset(
    "amber bill crystal daisy dawn frank grace holly jack jay joy lily mark max rob robin rose "
    "ruby sue ray jo ed dan deb pam jun lin ming hao hui mei lee kim will wei yan tim ted".split()
)
_TYPED_NAME = (
    "(?-i:(?=(?:" + "|".join(sorted(FIRST_NAMES - WORDS_TOO, key=len, reverse=True)) + r")\b)[a-z])"
)


def zh(pattern: str) -> re.Pattern[str]:
    """A Chinese frame: `{V}` is the value; a trailing `{V}` stops at a particle or mark.
    `{CJK}` stands for the Chinese characters, inside a class: `[{CJK}A-Za-z]`."""
    if pattern.endswith("{V}"):
        pattern += _ZH_STOP
    # "在" that ends a word (现在 "now", 正在, 实在) is no preposition: "现在还住徐汇" says
    # where one lives by 住, not "在还住"
    pattern = re.sub(r"(?<![住\\])在\{V\}", _AT_ZH + "{V}", pattern)
    # a Latin value is often typed with a space before it: "入职 shopee", "搬到 bishan 了"
    # ... and a space after it, before the frame goes on: "在 BC Hydro 上班"
    value = _LATIN_AFTER_SPACE + ZH_VALUE + r"(?:(?<=[A-Za-z0-9])\s(?=[^\sA-Za-z0-9]))?"
    return re.compile(pattern.replace("{V}", value).replace("{CJK}", CJK_CLASS))


_AT_ZH = "(?<![现正实存自所好])在"
_LATIN_AFTER_SPACE = r"(?:\s(?=[A-Za-z]))?"


def clean_value(value: str) -> str:
    """A value without its articles, possessives, fillers and final particles."""
    value = value.strip(" \t'’\"“”‘")
    if has_cjk(value):
        previous = None
        while previous != value:
            previous = value
            value = _ZH_TRAILING.sub("", _without_lead(_ZH_AFTER.sub("", value))).strip()
        return value
    value = _TRAILING.sub("", _LEADING.sub("", value)).strip()
    return value.rstrip("'’s ").strip() if value.endswith(("'s", "’s")) else value


def _without_lead(value: str) -> str:
    """A Chinese value less the words before it (我, 已经, 一辆, 成 of 改成 …), cut where a
    word of the value ends: a word that the lead words only spell is the value's own (成都
    is no 成 and 都), while a lead word may span words (新的)."""
    lead = _ZH_LEADING.match(value)
    if lead is None:
        return value
    pieces, at = {0}, 0
    while at < lead.end() and (piece := _ZH_LEAD_WORD.match(value, at)):
        at = piece.end()
        pieces.add(at)
    cut, before, start = 0, 0, 0
    for word in segment(value):
        end = start + len(word)
        if end > lead.end() or any(start < p < end for p in pieces):
            break  # past the lead, or a word the lead words only spell
        if end in pieces:
            before, cut = cut, end
        start = end
    if len(value) - cut == 1 and in_dictionary(value[before:]):
        return value[before:]  # one character left of a word that the last lead word opens: 台中
    return value[cut:]


def words(options: str) -> str:
    """Space-separated options as one alternation group."""
    return "(?:" + "|".join(sorted(options.split(), key=len, reverse=True)) + ")"
