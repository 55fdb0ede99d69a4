"""Whether a value a frame cut out can be the attribute's, and what a Chinese employer that
opens on a city says (`finder.py` reads the statements; these read their values)."""

from __future__ import annotations

import re
from dataclasses import replace

from dualtrace.cjk import CJK_CLASS, has_cjk
from dualtrace.text.districts import cities
from dualtrace.text.districts import names as district_names
from dualtrace.text.entities import extract_entities
from dualtrace.text.gazetteer import FIRST_NAMES, PLACES
from dualtrace.text.kin import relation
from dualtrace.text.lexical import STOP_EN, dictionary_verb
from dualtrace.text.lexicon import english_word, lexicon
from dualtrace.text.slots.frames import FUNCTION_ZH, SCHOOL_ZH, WORDS_TOO, clean_value
from dualtrace.text.slots.statement import SlotStatement
from dualtrace.text.slots.surnames import SURNAMES

# Things one joins or starts that are not an employer.
_NOT_EMPLOYER = re.compile(
    r"\b(?:club|class|group|team|gym|community|choir|band|course|program|meeting|call|party|"
    r"league|trip|discord|chat|waitlist|conversation|fun|us|them|him|her|me|gig|job|role|position|"
    r"place|spot)\b|俱乐部|群|班|课"
    # 在 as "in the middle of": "我在考虑换工作", "在找工作" name no employer
    r"|^(?:考虑|准备|打算|找|换|想|努力|认真|忙|用心|专心|家)"
    # a workplace by its kind is no employer: "去公司上班", "到单位入职"
    r"|^(?:公司|单位|厂里?|店里?|学校|医院|办公室|新公司|那边|这边|回国|回来|回去)$"
    # ... nor a place one sells or posts in: "在朋友圈卖手工皂", "在网上卖"
    r"|^(?:朋友圈|网上|线上|淘宝上|抖音上|小红书上|群里|家里)$",
    re.I,
)
# A capitalised name's "Group": the firm's own word ("Fenwick Group", "Virgin Group")
_FIRM_GROUP = re.compile(r"(?<=[a-z])\s+Group$")
_PLACE_WORDS = re.compile(
    r"\b(?:suburbs?|downtown|city|town|village|countryside|neighbou?rhood|apartment|flat|house|"
    r"condo|dorm|area|district|coast|island|farm)\b",
    re.I,
)

# An opinion is no value: "the commute is way better", "manager is lovely", "房租还行".
_OPINION_EN = re.compile(
    r"(?:(?:so|way|much|really|pretty|super|very|quite|kinda|kind\s+of|sort\s+of|a\s+lot|"
    r"a\s+bit|too|even|still|just|actually|honestly|not|less|more|the|an?)\s+)*"
    r"(?:good|great|better|best|bad|worse|worst|nice|nicer|lovely|amazing|awesome|fine|ok|okay|"
    r"cool|fun|boring|hard|harder|easy|easier|tough|rough|brutal|crazy|insane|wild|chill|"
    r"sweet|kind|nasty|annoying|stressful|exhausting|fantastic|wonderful|perfect|weird|"
    r"strange|mean|strict|chaotic|busy|hectic|shorter|longer|cheaper|pricier|terrible|awful|"
    r"horrible|fab|brilliant|decent|meh|alright|solid|grim|lush|ace|dope|sick|rubbish|"
    r"nightmare|joke|mess|disaster|drag|blast|dying|dead|broken|cracked|wrecked|slow|"
    r"glitchy|knackered|shot|done|fried|mad|silly|ridiculous|steep|extortionate|expensive|"
    r"cheap|high|low)(?:\s+(?:now|too|though|lol|haha))*",
    re.I,
)
_OPINION_ZH = re.compile(
    r"(?:很|挺|太|特别|超|超级|非常|比较|更|还|真|蛮|好|有点|不太?)?"
    r"(?:好|不错|棒|差|烂|累|忙|凶|严|nice|好多了|还行|一般|可以|行|舒服|难受|辛苦|麻烦|方便|"
    r"那么点|这么点|那点|这点|一点点|那么多|这么多)"
    r"(?:了|的|啊|呀|哈|哦)?"
)


# What a plan or a concern is, never a value: "the role is the priority", "the car is the
# main thing", "my job is the problem".
_ABSTRACT_EN = re.compile(
    r"(?:(?:the|a|an|my|our|top|main|real|big|biggest|first|next|only|whole)\s+)*"
    r"(?:priority|priorities|plan|idea|goal|dream|thing|point|problem|issue|question|deal|"
    r"focus|vibe|move|option|choice|hope|aim|worry|concern|struggle|challenge|reason|excuse)",
    re.I,
)
# A phrase that says where or how something is, not what it is: "(my old car is) in the
# family spirit", "(my job is) on hold".
# (An insurer is "with Geico": the provider's frame keeps what follows.)
_PHRASE_EN = re.compile(r"(?:in|on|at|into|onto|with|for|from|by|under|over|about)\s", re.I)
_ADVERB_EN = re.compile(
    r"still|now|also|just|really|always|never|already|currently|finally|actually", re.I
)

_PRONOUN_LED_EN = re.compile(r"(?:i|we|you|he|she|they)\s+(?!and\b|or\b)[a-z]", re.I)
_PRONOUN = re.compile(r"[他她它我你]们?|he|she|it|they|him|her|them|i|me|you|we|us", re.I)


def plausible(attribute: str, value: str) -> bool:
    """Whether a value can be the attribute's: an employer is not a book club nor an
    activity ("quit playing the violin"); an English place is a name ("Lyon", "New York",
    "portland" that the gazetteer knows) or a kind of place ("the suburbs")."""
    if not any(ch.isalnum() for ch in value):
        return False  # "my wife does the driving 😅": no word, no value
    if _PRONOUN.fullmatch(value) or _PRONOUN_LED_EN.match(value):
        return False  # "他辞职了": who, not what; "long drives i need snacks": a clause
    if _SPAN_ZH.match(value) or _WHEN_ZH.match(value):
        return False  # "入职一周了", "下个月辞职了": how long or when, not where
    if _OPINION_EN.fullmatch(value) or _OPINION_ZH.fullmatch(value):
        return False  # "manager is lovely": what the speaker thinks of it, not what it is
    if _ABSTRACT_EN.fullmatch(value) or _ADVERB_EN.fullmatch(value):
        return False  # "the role is the priority", "my husband is still on his phone"
    if _PHRASE_EN.match(value) and attribute != "provider":
        return False  # "my old car is in the family spirit", "the team is in Stockholm"
    if not _of_its_kind(attribute, value):
        return False
    if attribute == "works_at":
        if relation(bare := value.removeprefix("我")) != bare.casefold():
            return False  # "老公辞职了": whose job ended, not where
        if value.casefold() in PLACES:
            return False  # "left Paris on Friday": a city
        named = _FIRM_GROUP.sub("", value)  # "Fenwick Group" is a firm, "a support group" none
        return not _NOT_EMPLOYER.search(named) and not re.match(r"[a-z]+ing\b", value)
    if attribute == "lives_in" and not has_cjk(value):
        # typed in lower case, a place the gazetteer knows ("moved to portland") is one too,
        # and so is one no dictionary lists ("moved to tennoji")
        known = (
            value.casefold() in PLACES
            or value.casefold() in district_names()
            or all(typed_name(w) for w in value.split())
        )
        # (a letter alone is no place: "been living in C", the language)
        # (a place begins with a letter: not "take home is about 4100/mo")
        return (
            len(value) > 1
            and value[:1].isalpha()
            and (value[:1].isupper() or known or bool(_PLACE_WORDS.search(value)))
        )
    if attribute == "lives_in" and _BESIDE_ZH.search(value):
        return False  # "住在地铁站旁边": where in the city, not which city
    if attribute == "lives_in" and (_WAY_ZH.fullmatch(value) or value[:1] in "不没"):
        return False  # "我们又搬回去了", "住不惯": which way, or how it went, not where
    if attribute == "lives_in" and _HERE_ZH.fullmatch(value):
        return False  # "孙子在我这住了两个星期": here, not a place
    if _ASKING_ZH.search(value):
        return False  # "去哪玩", "买什么车": a question word asks for the value
    if attribute == "partner" and has_cjk(value):
        return _partner_named_zh(value)
    if attribute == "studies_at" and has_cjk(value) and value in cities():
        return False  # "我在广州读大四": where the school is, not which
    if attribute == "name" and has_cjk(value) and (len(value) < 2 or dictionary_verb(value)):
        return False  # "我叫车了": a car called, no one named; "我试试": a verb
    if attribute == "family" and has_cjk(value):
        return _member_named_zh(value)
    return True


def _of_its_kind(attribute: str, value: str) -> bool:
    """Whether a value has the shape its attribute's values have: an amount names a number,
    a name only (a gym's, a team's, a manager's) is no word of the dictionary, an employer
    or a school is no time nor an intent (决定 of 我决定离职了)."""
    if attribute in _AMOUNTS and not _AMOUNT.search(value):
        return False  # "rent is less evil"
    if attribute in _NAMES_ONLY and (
        _words_only(value) if not has_cjk(value) else _COUNTED_ZH.match(value)
    ):
        return False  # "my boss is a legend", "my gym is closed", "球队还有一场比赛"
    if attribute in ("works_at", "studies_at") and _WHEN_EN.match(value):
        return False  # "left Paris on Friday", "I study at night"
    if attribute == "works_at" and _NOT_YET_ZH.match(value):
        return False  # "但才入职三个月": how the joining went, not where
    if attribute in ("works_at", "studies_at") and _INTENT_ZH.fullmatch(value):
        return False  # "我决定离职了": a decision, not where
    return not (attribute == "drink" and _MORE_EN.match(value))  # "drink more water"


def _partner_named_zh(value: str) -> bool:
    """Whether a Chinese partner value names one (晓雯, 阿杰) or a state (单身, 已婚), not
    最近 or 本来, nor what is said after the word ("跟老公住在滨江"), nor a verb ("跟老公
    聊聊")."""
    if re.match(r"[阿小老]|单身|已婚|结婚|订婚|离婚", value):
        return True
    return (
        value not in lexicon().zh_en
        and not re.match(f"[{FUNCTION_ZH}住]", value)
        and not dictionary_verb(value)
    )


def _member_named_zh(value: str) -> bool:
    """Whether a Chinese family value names its member: 女儿朵朵, not 儿子小学, nor the
    year a child is in (我女儿高三了); a doubled name is one though a dictionary lists it
    (孙子浩浩), but the baby alone is none (宝宝)."""
    name = _KIN_LEAD_ZH.sub("", value)
    doubled = name != value and len(name) == 2 and name[0] == name[1]
    named = (doubled and not dictionary_verb(name)) or name not in lexicon().zh_en
    return named and not _SCHOOL_YEAR_ZH.match(name)


# What one means or decides to do, said before the verb it is about (决定离职, 打算辞职)
_INTENT_ZH = re.compile(r"(?:已经|终于|还是|刚刚?)?(?:决定|打算|准备|计划|考虑|想要?|要)了?")
# Attributes whose value is an amount (a number, in digits or words), and those whose value
# is a name only (a gym's, a team's, a person's), never a word of the dictionary
_AMOUNTS = frozenset({"rent", "salary", "budget"})
_AMOUNT = re.compile(
    r"\d|[一二两三四五六七八九十百千万亿]|\b(?:a|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|twenty|thirty|forty|fifty|hundred|thousand|grand|million|half)\b",
    re.I,
)
_NAMES_ONLY = frozenset({"manager", "gym", "team"})
_COUNTED_ZH = re.compile(r"^[一二两三四五六七八九十几半\d]")
# words that open no employer: "但才入职三个月", "才入职", "刚入职就…"
_NOT_YET_ZH = re.compile(r"^[但才却而刚就]")
_MORE_EN = re.compile(r"(?:more|less|enough|extra|lots\s+of|plenty\s+of)\b", re.I)


def _words_only(value: str) -> bool:
    """Whether a value typed in lower case is only words of the dictionary ("legend",
    "closed", "less evil"): a description, where a name goes."""
    words = re.findall(r"[A-Za-z]+", value)
    return value == value.casefold() and bool(words) and all(english_word(w) for w in words)


_QUARTER_ZH = re.compile(r"^(?:[东西南北]方|[华东西南][东西南北]|西北|东北)$")
_KIN_LEAD_ZH = re.compile(r"^(?:儿子|女儿|闺女|哥哥|姐姐|弟弟|妹妹|外?孙[子女儿]|[哥姐弟妹])")
_SCHOOL_YEAR_ZH = re.compile(r"^(?:[高初大研][一二三四]|[一二三四五六]年级)")
_SPAN_ZH = re.compile(r"^[一二三四五六七八九十两半几多\d]+个?(?:天|周|星期|礼拜|月|年|小时)多?$")
_WHEN_EN = re.compile(
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s(?:day)?)?|"
    r"wed(?:nesday)?|thu(?:rs?(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\.?(?:\s+\d|$)"
    r"|(?:today|tomorrow|tonight|yesterday|nights?|weekends?|the\s+weekend)$",
    re.I,
)
_WHEN_ZH = re.compile(
    r"^(?:(?:下|上|这|本)个?(?:月|周|星期|礼拜)|(?:明|今|去|后)年|(?:明|今|昨|后)天|年底|月底|年初|月初)"
    r"(?:底|初|中)?$"
)


def a_place_zh(word: str) -> bool:
    """Whether what comes before 人 in "我是…人" names where one is from: a name (jieba tags
    潍坊 a place, 景德镇 a person's name: a name either way) or a quarter (东北, 南方), not
    "外地", "打工" nor "新" ("我是外地人", "我是打工人", "我是新人")."""
    found = extract_entities(word)
    named = bool(found) and word.startswith(found[0].name)
    return named or _QUARTER_ZH.match(word) is not None


_DIGITS_ZH = frozenset("零一二三四五六七八九")  # a Chinese number of one digit


def own_age(attribute: str, value: str) -> bool:
    """Whether a value can be the speaker's own (an age is ten or more: one who types to an
    assistant is no child, so "今年五岁" said alone is a child's or a pet's)."""
    if attribute != "age":
        return True
    if value.isdigit():
        return int(value) >= 10
    return "十" in value or "百" in value or not all(c in _DIGITS_ZH for c in value)


def habit(value: str) -> bool:
    """Whether what an English "quit …" or "left …" names is an everyday thing ("coffee",
    "sugar", "social media": words of the lexicon, written in lower case) rather than an
    employer, which is a name ("Accenture", or "accenture" typed in a hurry)."""
    return not has_cjk(value) and value == value.casefold() and value in lexicon().en_zh


# Which way one moves ("搬回去", "搬过来了"): no place.
_WAY_ZH = re.compile(r"[回过进出上下]?[来去](?:了|啦)?")
_HERE_ZH = re.compile(r"[这那哪](?:里|儿|边)?")
# A place said by what it is beside ("地铁站旁边", "公司附近"): a spot, not a home's place.
_BESIDE_ZH = re.compile(r"(?:旁边|附近|边上|对面|楼上|楼下|隔壁|那边|这边)$")
# (not "啥都吃", "什么都吃": anything at all)
_ASKING_ZH = re.compile(r"^(?:哪|什么(?!都)|啥(?!都)|谁|几|多少|怎么)|哪(?:里|儿|个|家|所)?$")


def at_a_place(
    statement: SlotStatement, kept: list[SlotStatement], clause: str
) -> list[SlotStatement]:
    """A Chinese employer that opens on a city, said where one is (在), is where the speaker
    lives and works, then whom for ("在南京中兴做测试": 南京 and 中兴; "在重庆做程序员": 重庆
    only; "在北京一家小公司做前端": 北京, and a company described, not named, is no
    employer); a city gone to (去, 到) is neither. An offer from a firm whose name is also a
    place's ("拿到苏宁的offer") stays."""
    if statement.attribute != "works_at" or statement.ended:
        return [statement]
    value = statement.value or ""
    if not has_cjk(value):
        return [statement]
    lead = clause[statement.start : clause.find(value, statement.start)]
    mentions = extract_entities(value)
    if not mentions or mentions[0].type != "place" or not value.startswith(mentions[0].name):
        return [statement]
    if re.fullmatch(SCHOOL_ZH, mentions[0].name):
        return [statement]  # a school, to jieba a place: "在三中上班"
    place = mentions[0].name
    rest = clean_value(value[len(place) :].lstrip("的"))
    named = bool(rest) and any(m.type == "org" for m in extract_entities(rest))
    described = re.match(r"一家|一个|一间|某", value[len(place) :].lstrip("的"))
    if (
        rest
        and not (named or described)
        and place not in cities()
        and place not in district_names()
    ):
        return [statement]  # a firm's own name that opens like a place's ("顺川物流")
    if "在" not in lead:
        # a city gone to for work ("去上海做产品经理", "去东京上班") is no employer, nor
        # where one lives: one may go there every day
        gone = re.search(r"去|(?:^|(?<![拿收得找遇看听想达]))到", lead) is not None
        return [] if gone and place == value else [statement]
    found = []
    if not any(s.attribute == "lives_in" and s.subject == statement.subject for s in kept):
        found.append(replace(statement, attribute="lives_in", value=place, many=False))
    if named and not described:
        found.append(replace(statement, value=rest))
    return found


# Where an employer named in English is, said right after it: "at Northwind in Chicago",
# "Fabrikam here in Leeds", "Northwind downtown Chicago"
_WHERE_EN = re.compile(
    r"\s*,?\s+(?:(?:here|over|out|based|located)\s+)?(?:in|downtown|uptown|midtown)\s+"
    r"(?P<place>[A-Za-z][\w'’-]+(?:\s+[A-Za-z][\w'’-]+)?)",
    re.I,
)


def work_place(employer: str, clause: str) -> str:
    """The city a place of work named in English is said to be in, right after its name
    ("at Northwind in Chicago" → Chicago), where the gazetteer knows it or it is a capitalised
    word no dictionary lists ("in Leeds"); "" where none is said."""
    at = clause.find(employer) if employer else -1
    where = _WHERE_EN.match(clause, at + len(employer)) if at >= 0 else None
    if where is None:
        return ""
    words = where.group("place").split()
    place = next(
        (" ".join(words[:n]) for n in (2, 1) if " ".join(words[:n]).casefold() in PLACES), ""
    )
    if not place and _unlisted_place(words[0]):
        place = words[0]  # "in Leeds" (not "in March", "in Marketing", "in HR")
    return place.title()


def _unlisted_place(word: str) -> bool:
    """Whether a word the gazetteer lacks names a place: capitalised, and no dictionary word
    (a month, a department) nor initials."""
    return word.isalpha() and word.istitle() and len(word) > 2 and not english_word(word.casefold())


# What may follow "my wife" or "my cat" typed in lower case that is no name: chat words, the
# past of common verbs, which the dictionary lists only in their present form, and pronouns.
_NOT_NAMES = frozenset(
    "lol lmao omg tbh tho idk ngl btw pls plz rly cuz coz tmrw aka gonna wanna gotta kinda "
    "sorta haha hehe yay ugh hmm went ate made came took gave knew bought brought sent ran "
    "drove wrote sang swam flew slept kept sat stood whose "
    # pronouns typed without their apostrophe ("ive got", "hes started")
    "im ive id ill youre youve hes shes theyre theyve weve its".split()
)


def typed_name(word: str) -> bool:
    """Whether a word typed in lower case where a name goes ("my partner arjun", "my cat
    luna") is one: a known first name, or a word that no dictionary lists ("arjun", not
    "says", "food" or "lol"). A name that is a word too ("grace", "biscuit") is not taken."""
    folded = word.casefold()
    if folded in FIRST_NAMES:
        return folded not in WORDS_TOO
    return (
        len(folded) >= 3
        and folded not in _NOT_NAMES
        and not english_word(folded)
        and not _adverb(folded)
    )


def _adverb(word: str) -> bool:
    """An adverb the dictionary lists by its adjective only ("honestly", "happily"); a short
    stem is a name's ("finley", "hayley")."""
    stem = word.removesuffix("ly")
    return (
        stem != word
        and len(stem) >= 5
        and (english_word(stem) or (stem.endswith("i") and english_word(stem[:-1] + "y")))
    )


def called_name(word: str) -> bool:
    """Whether a word typed in lower case where what surrounds it says it is a name (before
    a role in brackets: "biscuit (our beagle)", "sam (my bf)"; after a greeting, before
    "here": "hi! dana here") is one: it is, unless it is a word no name is ("it (my dog) …",
    "lol (my cat)")."""
    folded = word.casefold()
    return folded not in _NOT_NAMES and folded not in STOP_EN


# What follows "my dog" that is the dog's, not its name ("my dog walker is great")
_PET_THINGS = frozenset(
    "walker walkers sitter sitters food park bed toy toys treats treat hair trainer groomer "
    "insurance door flap litter tree carrier crate bowl leash lead collar vet owner owners "
    "person people years friend friends tax licence license walk walks daycare hotel show "
    "breeder breed mom mum dad parents sitting walking training stuff things "
    # (and what says how or when: "our kitten still needs …")
    "still just always never really also now then already usually finally even ever".split()
)


def pet_name(words: str) -> bool:
    """Whether the words after a pet's kind, said doing something ("our dog pancake keeps
    stealing socks", "my cats pickle and olive have"), are its names: no thing of the pet's ("my dog
    walker is") nor a word no name is."""
    names = re.split(r"\s+(?:and|&)\s+", words.casefold())
    return all(n not in _PET_THINGS and n not in _NOT_NAMES and n not in STOP_EN for n in names)


def named_doer(before: str) -> int | None:
    """Where the words before a value name someone doing it ("Meera just started at Google",
    "antoine just started at bioMérieux", "no allergies on my side but anjali is allergic
    to …", "小雪跳槽去唯品会了"), or None: another person's news, not the speaker's. A name
    that introduces ("Tom here, …") is the speaker's."""
    if has_cjk(before):
        return 0 if _named_zh(_NAMED_DOING_ZH.match(before)) else None
    match = _NAMED_DOING_EN.match(before)
    if match is None:
        return None
    name = match.group("name")
    # a first name, or no word of the dictionary; a capitalised first name that is a word
    # too ("Grace is allergic to nuts")
    named = typed_name(name) or (name.istitle() and name.casefold() in FIRST_NAMES)
    return match.start("name") if named else None


_NAMED_DOING_EN = re.compile(
    # (at the opening, or of a clause after "but" or "and": "no allergies on my side but
    # anjali is allergic to cashews")
    r"(?:.*?\b(?:but|and|while|whereas)\s+)?\s*(?P<name>[A-Za-z][a-z]{2,15})\s+(?:just\s+|recently\s+|finally\s+|also\s+|now\s+)*"
    r"(?:started|starts|joined|joins|moved|moves|got|gets|works|worked|landed|switched|left|"
    r"quit|retired|resigned|is\s+(?:now\s+)?(?:working|moving|living|at|in|a|an)|lives|relocated|"
    r"transferred|(?:is|was)(?=\s*$)|(?:is|was)\s+(?:now|still|also|finally)(?=\s*$)|plays|"
    r"learns|studies|drives|teaches|"
    # ... or having it: "anjali is allergic to cashews", "Tom has asthma"
    r"(?:is|was)\s+(?:also\s+|severely\s+|now\s+)?allergic|has|had|(?:was|got)\s+diagnosed|speaks|"
    r"owns|eats|drinks)\b"
)
_NAMED_DOING_ZH = re.compile(
    # (not a day or a year: "明年就退休了")
    rf"\s*(?![明今去后前昨][年天])(?P<name>[阿小老][{CJK_CLASS}]|[{SURNAMES}][{CJK_CLASS}]{{1,2}}"
    rf"|(?P<twice>[{CJK_CLASS}])(?P=twice))"
    r"(?:刚刚?|也|又|就|已经|最近|今年|去年|现在|上个?月|这个?月|正式|终于)?"
    r"(?:跳槽|跳去|去了|入职|换了|搬|辞|考上|升|进了|在(?!我)|退休|离职|裸辞|被裁|失业|"
    r"学|上(?=[一二三四五六初高大小幼]|$)|读|练|报了)"
)


def opens_on_name(text: str) -> bool:
    """Whether a Chinese text opens on someone by name (after a word that goes on: "ok 另外
    乐乐九月一号开学", "小雨那边…"): the topic a part after it goes on with."""
    return _named_zh(_NAME_OPENING_ZH.match(text))


# The hundred commonest surnames, which 小 or 老 before make a name, not a thing (老车, 小车)
_COMMON_SURNAMES_ZH = (
    "王李张刘陈杨黄赵周吴徐孙马胡朱郭何罗高林梁郑谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程"
    "魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾"
    "龚邵万覃武钱戴严莫孔向常汤康易乔赖文"
)
_NAME_OPENING_ZH = re.compile(
    r"\W*(?:(?:ok|okay|好|嗯|对了|另外|还有|然后|哦)[\s，,]*)*"
    rf"(?![明今去后前昨][年天])(?P<name>阿[{CJK_CLASS}]|[小老][{_COMMON_SURNAMES_ZH}]"
    rf"|(?P<twice>[{CJK_CLASS}])(?P=twice))(?![们的])"
)


def _named_zh(match: re.Match[str] | None) -> bool:
    """Whether a Chinese pattern found a name: a doubled one is none where it is a word
    (乐乐 and 朵朵 are names; 天天, 常常 are words)."""
    if match is None:
        return False
    return not (match.group("twice") and match.group("name") in lexicon().zh_en)
