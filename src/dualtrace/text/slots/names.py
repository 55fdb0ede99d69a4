"""The user's own name: how a speaker says it ("my name is Priya", "Hi, I'm Sam", "我叫王磊"),
and how a question that names the user is read as one about the user.

A name is a slot like any other (one value at a time; "call me Sam" replaces "Samuel"). The
read path swaps the user's stored names in a question for "the user" (English) or "我"
(Chinese) before it reads the question (`recall/question.py`), so "Where does Sam work now?"
asks what "Where does the user work now?" asks, and the assistant's "Hi Sam!" no longer
matches it by the name alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from dualtrace.cjk import has_cjk
from dualtrace.text.entities import extract_entities
from dualtrace.text.gazetteer import FIRST_NAMES, PLACES
from dualtrace.text.lexical import dictionary_verb
from dualtrace.text.lexicon import english_word
from dualtrace.text.script import simplified
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.frames import CAPITAL, FUNCTION_ZH, TYPED, en, zh
from dualtrace.text.slots.surnames import SURNAMES

# One or two capitalised words ("Priya", "Mary Ann", "O'Neil", "Jean-Luc").
_NAME_EN = rf"(?P<v>{CAPITAL}+(?:['’-][A-Z]?[a-z]+)?(?:\s+{CAPITAL}+(?:['’-][A-Z]?[a-z]+)?)?)\b"
# Two to three Chinese characters beginning with a common surname, or a Latin given name.
_NAME_ZH = rf"(?P<v>(?:[{SURNAMES}][\u4e00-\u9fff]{{1,2}}|[小阿][\u4e00-\u9fff]|{CAPITAL}+))"
_AFTER_ZH = r"(?=$|[，。！？、,.!?\s~～（(]|，|呀|啊|哈|哦|吧|就[行好可])"
GREETING_EN = (
    r"(?:hi+|hello+|hey+|heyy+|hiya|heya|howdy|yo|g['’]day|good\s+(?:morning|afternoon|evening)|"
    r"kia\s+ora|bonjour|ciao|hola|salut|namaste|aloha|hallo|moin|servus)"
)
# An introduction opens its clause: "I'm Omar btw, …", "Lena here, …" — the name is followed
# by a mark, "btw" or "here" (not "I'm Italian", "I'm British": a nationality is no name);
# a word of greeting may come first ("hi there, Lena here 👋").
# Whom a greeting is said to, after it: "hi there", "hello all", "hey again"
_GREETED_EN = r"(?:there|all|everyone|again)"
_OPENS_EN = (
    rf"^\W*(?:(?:[A-Za-z]+|g['’]day)(?:\s+{_GREETED_EN})?(?:\s*[:;]-?[)D(P])?"
    r"[\s,!.~]+)?"
)
# A mark that ends what one says of oneself: punctuation or an emoji ("declan here 👋")
_MARK_EN = r"[,.!;~—–\U0001F300-\U0001FAFF\u2600-\u27BF-]"
_AFTER_EN = rf"(?=\s*(?:{_MARK_EN}|\bbtw\b|\bhere\b|$))"
_I_AM = r"(?:I['’]m|I\s+am|im|this\s+is)"
# How a letter is signed off, before the name it is signed with ("Kind regards,", "Best
# wishes,"): letter words only, not a chat's "Thanks, Dana", said to Dana
_SIGN_OFF = (
    r"(?:(?:kind|warm|warmest|best|many)\s+regards|regards|best\s+wishes|all\s+the\s+best|"
    r"(?:yours\s+)?sincerely|yours\s+(?:truly|faithfully)|warmly|best)"
)
# ... a clause that only signs off, and one that only gives a name: a letter's last lines
SIGNS_OFF = re.compile(rf"^\W*{_SIGN_OFF}\s*[,.!]?\W*$", re.I)
NAME_ALONE = re.compile(rf"^\W*{CAPITAL}+(?:\s+{CAPITAL}+){{0,2}}\W*$")
_AGAIN = r"(?:\s+again)?(?:\s+(?:lol|haha|lmao))?"  # "Lena here again lol. …"
# Words before "here" that name no one ("new here", "still here", "everyone here")
_HERE_NOT_NAMED = (
    r"(?:new|newbie|first|still|back|over|stuck|also|just|only|finally|everyone|everybody|"
    r"someone|anyone|nobody|all|guys|folks|same|sitting|waiting|working|living|staying|been|"
    r"lol|haha|right|out|down|around|near|alone|late|early|busy|quiet|cold|hot|raining)\b"
)
_NATIONALITY = (
    rf"(?!{CAPITAL}*(?:ish|ese|ian|can|ean|ic)\b)"
    r"(?!(?:Dutch|French|Czech|Greek|Thai|Swiss|Irish|Welsh|Scots?|Kiwi|Aussie|Brit|Dane|Swede|"
    r"Finn|Pole|Turk|Arab|Jewish|Muslim|Catholic|Buddhist|Hindu|Sikh|Christian|Vegan)\b)"
)
# Words that open what is said to someone just greeted, not a role: "Hi Tom, you at work?"
_NOT_SAID_TO = (
    r"(?!(?:you|u|are|is|was|were|how|what|where|when|did|do|can|could|at|in|on|so|just|"
    r"thanks|thank|hope|long|good|great|nice|happy|welcome)\b)"
)


# What says the name after it is the speaker's: a greeting, "I'm" or "this is", or "here"
# after the name ("hey! Priya, …", "I'm Paola, …", "Anselm here, …")
_INTRODUCING = rf"(?={GREETING_EN}\b|{_I_AM}\s|it['’]s\s|[A-Za-z]+\s+here\b)"


# "My name is" in the languages users practise with an assistant.
_OTHER_TONGUE = (
    r"\b(?:me\s+llamo|je\s+m['’]appelle|ich\s+hei(?:ß|ss)e|mi\s+chiamo|me\s+chamo|ik\s+heet|"
    r"jag\s+heter|jeg\s+(?:heter|hedder)|nazywam\s+si[eę]|mein\s+name\s+ist|meu\s+nome\s+é)"
)


def introduction(name: str) -> str:
    """A frame's opening: the speaker's `name` said as theirs (a greeting before it, "I'm"
    or "here") and a comma or a stop, then a role ("hey! Priya, data scientist at Monzo",
    "hi! Hannah. UX designer at Canva", "I'm Paola, pastry chef at …", "Anselm here, science
    teacher at …"); not what is said to someone greeted ("Hi Tom, you at work?")."""
    return (
        rf"^\W*{_INTRODUCING}(?:{GREETING_EN}\b[\s,!.~]*)?(?:(?:{_I_AM}|it['’]s)\s+)?"
        rf"{_NATIONALITY}{name}(?:\s+here)?[,.]\s+(?:an?\s+)?{_NOT_SAID_TO}"
    )


# A message that opens by introducing the speaker, a capitalised name and what they are
INTRODUCES = re.compile(introduction(rf"(?-i:{CAPITAL}+)"), re.I)

_GREETING_ZH = (
    r"(?:(?:你好|您好|嗨|哈喽|哈啰|大家好|新年好|早上好|上午好|中午好|下午好|晚上好|早安|在吗|在不在|hi|hello|hey)"
    r"[啊呀哇鸭]?)"
)
# the last character of a word for what one is, not who ("我是学生", "我是宝妈", "我是新手")
_ROLE_END_ZH = "员师生者家工长手人妈爸族迷控党狗"

# Words after 我 that are no name (besides those opening on a function character, `FUNCTION_ZH`)
_NOT_NAME_ZH = (
    "觉得|知道|喜欢|感觉|希望|需要|打算|准备|发现|认为|以为|记得|忘了|想要|现在|刚刚|其实|终于|"
    "居然|竟然|应该|可能|好像|今天|明天|昨天|最近|真的|自己|家里|这边|那边|目前|平时|老公|老婆|"
    "妈妈|爸爸|女儿|儿子|孩子|朋友|同事|老板|领导|公司|感冒|生病|加班|上班|下班|想问|请问"
)


NAME: Attribute = _a(
    "name",
    r"\bmy\s+name\b|\bname['’]s\b|(?:^|[.!?,]\s*)name\s+is\b|\bcall\s+me\b|\b(?:I['’]m|I\s+am|im|this\s+is|it['’]s)\s+[A-Z]"
    r"|\bsign\s+(?:it|this|them|the\s+\w+)\s|署名"
    rf"|(?-i:\b{CAPITAL}+\s+here\b)"
    # ... typed in lower case, at the opening only ("yo, jake here."): not "around here"
    rf"|^\W*(?:[a-z]+[\s,!.~]+)?[a-z]+\s+here{_AGAIN}\b\s*(?:{_MARK_EN}|$)"
    rf"|^\W*{GREETING_EN}\b[\s,!.~]*(?-i:{CAPITAL}+)[,.]"
    rf"|^\W*{GREETING_EN}\b[\s,!.~]*it['’]?s\s+[a-z]{{3,}}"
    rf"|{_OTHER_TONGUE}|\bfrom\s+me,\s"
    r"|[我俺]叫|叫我|我的名字|名字是|我是"
    rf"|^\W*(?:{_GREETING_ZH}[\s，,！!~～]*|兄弟\s*)?我[\u4e00-\u9fff]{{2}}\s",
    (
        en(rf"\bmy\s+name\s+is\s+{_NAME_EN}"),
        en(rf"\bmy\s+name['’]s\s+{_NAME_EN}"),
        # a letter to be signed with it: "make it firmer and sign it Priya Raman", "署名写林晓雯"
        # (a request names it as given: "can you sign it off as Dana Whitfield")
        en(
            r"(?P<named>\bsign)\s+(?:(?:it|this|them|the\s+\w+)\s+)?(?:off\s+)?"
            r"(?:as\s+|from\s+|with\s+(?:my\s+name,?\s+)?)?"
            rf"['‘\"“]?(?!(?:Mr|Mrs|Ms|Miss|Dr|Prof)\b){_NAME_EN}"
        ),
        zh(
            rf"(?P<named>署名|落款)(?:写|是|用|就写|[:：]\s*)?(?P<v>[{SURNAMES}][\u4e00-\u9fff]{{1,2}}?)"
            r"(?=$|就|吧|即可|[，。！？,.!?\s])"
        ),
        # a letter signed off with it, its last lines joined ("Kind regards, Dana Whitfield")
        en(rf"^\W*{_SIGN_OFF}\s*[,.!]?\s+{_NAME_EN}\W*$"),
        # a surname, then the name: "我姓陈，叫陈静"; or oneself as a form gives it: "本人张伟，男"
        zh(rf"我姓[{SURNAMES}][，,\s]*(?:全名)?叫{_NAME_ZH}{_AFTER_ZH}"),
        zh(rf"^\W*本人(?P<v>[{SURNAMES}][\u4e00-\u9fff]{{1,2}}?)(?=[，,\s])"),
        # ... typed in a hurry: "name's jamal reed btw", "my name is beth" (`values.typed_name`)
        en(
            rf"(?:^|[.!?,]\s*|\bmy\s+)name(?:['’]s|\s+is)\s+(?P<v>(?-i:{TYPED})){_AFTER_EN[:-1]}|\s+[a-z]+\s+btw\b)"
        ),
        en(rf"\b(?:just\s+)?call\s+me\s+{_NAME_EN}"),
        # ... said in another language, as one practises it ("Me llamo Ingrid", "Ich heiße
        # Jonas"), or signing what is written for the speaker ("It's from me, Sofia, to …")
        en(rf"(?:{_OTHER_TONGUE})\s+{_NAME_EN}"),
        en(rf"\bfrom\s+me,\s+{_NAME_EN}(?=\s*[,.!]|$)"),
        # ... at the opening, or after what went before is done with ("traffic was awful 😩
        # anyway hello, I'm Solveig")
        en(
            rf"(?:^\W*|(?<=[^\w\s,'’])\s*|\b(?:anyway|anyways|oh|ok|okay|so|btw)[\s,]+)"
            rf"{GREETING_EN}\b[\s,!.]*(?:{_GREETED_EN}[\s,!.]+)?"
            rf"(?:I['’]m|I\s+am|this\s+is|it['’]s)\s+{_NAME_EN}(?!['’]s\b)"
        ),
        en(rf"{_OPENS_EN}{_I_AM}\s+{_NATIONALITY}{_NAME_EN}{_AFTER_EN}"),
        # ... after a word or two of chat, or going on with what one does: "ok so I'm Dana and
        # I teach year 6", "I'm Dana by the way"
        en(
            r"(?:^\W*|\b(?:ok|okay|so|well|anyway|also|oh|btw)[\s,]+)(?:so\s+)?"
            rf"{_I_AM}\s+{_NATIONALITY}{_NAME_EN}"
            r"(?=\s+(?:by\s+the\s+way|and\s+(?:I|I['’]m|im|i)\s))"
        ),
        # ... with a capital after "name's": "name's Dana btw"; or as a CV opens, the name and
        # the age: "Dana Whitfield, 34, looking for a change"
        en(rf"(?:^\W*|[.!?,]\s*)name['’]s\s+{_NAME_EN}"),
        en(rf"^\W*{_NAME_EN},\s+(?:\d{{2}}|a\s+\d{{2}}[-\s]year[-\s]old)\s*(?:,|yo\b|y/o\b)"),
        # ... typed in lower case, a word no dictionary lists, where it can only be a name:
        # after a greeting or before "btw" ("hi! i'm fatima, …", "i'm kenji btw"), not "i'm
        # pescatarian, so …"
        en(rf"^\W*{GREETING_EN}\b[\s,!.~]*(?:{_I_AM}|it['’]?s)\s+(?P<v>(?-i:{TYPED})){_AFTER_EN}"),
        en(rf"{_OPENS_EN}{_I_AM}\s+(?P<v>(?-i:{TYPED}))\s+btw\b"),
        en(
            rf"{_OPENS_EN}{_NATIONALITY}{_NAME_EN}\s+here{_AGAIN}\b"
            r"(?=\s*(?:" + _MARK_EN + r"|$)|\s+(?:with|again|asking)\b)"
        ),
        # "hey, Dana again", "it's me, Dana!"
        en(rf"^\W*{GREETING_EN}\b[\s,!.]*{_NAME_EN}\s+again\b"),
        en(r"\bit['’]?s\s+me,?\s+" + _NAME_EN + r"(?=\s*[!.,]|\s*$)"),
        # one's name where one is to be written: "put my name at the bottom: Dana Whitfield"
        en(rf"\bmy\s+name\b[^.!?:]{{0,30}}:\s*{_NAME_EN}\W*$"),
        # ... typed in lower case: "yo, tunde here." (`values.typed_name`)
        en(rf"{_OPENS_EN}(?P<v>{TYPED})\s+here{_AGAIN}\b(?=\s*(?:{_MARK_EN}|$))"),
        # ... after a greeting, a word the dictionary lists too: "hi! dana here 👋", "hey,
        # grace here" (not "hi all, new here!", "hey, still here lol")
        en(
            rf"^\W*{GREETING_EN}\b[\s,!.~]*(?:{_GREETED_EN}[\s,!.~]+)?"
            rf"(?!{_HERE_NOT_NAMED})(?P<v>(?P<called>[a-z]{{3,15}}))\s+here{_AGAIN}\b"
            rf"(?=\s*(?:{_MARK_EN}|$))"
        ),
        # a greeting, the name, then what the speaker does and where: "hey! Priya, data
        # scientist at Monzo" (a greeting to someone goes on with what is said to them)
        en(rf"{introduction(_NAME_EN)}(?=(?:[\w-]+\s+){{0,3}}?(?:at|@)\s+[A-Z])"),
        zh(rf"[我俺]叫{_NAME_ZH}{_AFTER_ZH}"),
        # a given name alone, no surname ("对了我叫晓雯，"): two characters, then a mark
        zh(rf"我叫(?P<v>[\u4e00-\u9fff]{{2}}){_AFTER_ZH}"),
        # (not a nickname offered after the name: "我叫林晓雯 以后叫我小林就行")
        zh(rf"^(?:(?![我俺]叫).)*?叫我{_NAME_ZH}{_AFTER_ZH}"),
        zh(rf"我的名字(?:是|叫){_NAME_ZH}{_AFTER_ZH}"),
        zh(rf"^\W*{_GREETING_ZH}[\s，,！!~～]*我是{_NAME_ZH}{_AFTER_ZH}"),
        # ... a given name alone after the greeting ("你好 我是志远 退休了")
        zh(
            rf"^\W*{_GREETING_ZH}[\s，,！!~～]*我是(?![{FUNCTION_ZH}])(?!{_NOT_NAME_ZH})"
            rf"(?P<v>[\u4e00-\u9fff]{{2}})(?<![{_ROLE_END_ZH}])(?=[\s，,。！!])"
        ),
        # "救命😭 我是思琪，在武汉读大三": a given name alone, then a comma and what the speaker
        # does or where (not a word the dictionary lists, `finder`'s "unlisted": "我是新人，在…")
        zh(
            rf"(?:^|(?<=[\s！!。～~]))我是(?P<unlisted>)(?![{FUNCTION_ZH}])(?!{_NOT_NAME_ZH})"
            rf"(?P<v>[\u4e00-\u9fff]{{2}})(?<![{_ROLE_END_ZH}])[，,]\s*(?=在|做|是|今年|刚|来自|从)"
        ),
        # "我是李娜，做运营的": with no greeting, a surname and a comma after the name, and
        # not a role that opens on a surname's character (程序员, 王老师, 高中生)
        zh(rf"^\W*我是(?P<v>[{SURNAMES}][\u4e00-\u9fff]{{1,2}})(?<![员师生者家工长手])(?=[，,])"),
        # ... or a space, a stop or a particle ("我是王建国 想问个事", "我是陈静呀")
        zh(
            rf"^\W*我是(?P<v>[{SURNAMES}][\u4e00-\u9fff]{{1,2}})(?<![员师生者家工长手])"
            r"(?=[。！!？?\s～~]|呀|啊|哈)"
        ),
        # "我是小雨呀 又来了" (not "我是小白", a beginner), "哈喽 雨桐又来啦"
        zh(r"^\W*我是(?P<v>小(?![白号透菜])[\u4e00-\u9fff])(?=呀|啊|哈|～|~|！|!|\s)"),
        zh(
            # (a name no dictionary lists: not "哈喽 今天又来问了")
            rf"^\W*{_GREETING_ZH}[\s，,！!~～]*(?P<unlisted>)(?P<v>[\u4e00-\u9fff]{{2,3}}?)"
            r"又来(?:了|啦|咯|找你)"
        ),
        # the name first, then a role ("王建国，退休老师"), or after 我 ("我，王建国，…")
        zh(
            rf"^\W*(?:我[，,]\s*)?(?P<v>[{SURNAMES}][\u4e00-\u9fff]{{1,2}})[，,]\s*"
            r"[^，,。！？]{0,8}?(?:老师|医生|护士|经理|司机|工程师|设计师|会计|律师|宝妈|学生|退休)"
        ),
        zh(rf"^\W*我[，,]\s*(?P<v>[{SURNAMES}][\u4e00-\u9fff]{{1,2}})[，,]"),
        zh(rf"(?:我的?名字|署名|落款)[^，。！？]{{0,6}}[：:]\s*{_NAME_ZH}{_AFTER_ZH}"),
        # chat's "我婷婷 最近在搞生酮", "兄弟 我志强 在美团干了五年": the name right after 我 at
        # the opening, then a space (not "我觉得 …", "我今天 …")
        zh(
            rf"^\W*(?:{_GREETING_ZH}[\s，,！!~～]*|兄弟\s*)?我(?![{FUNCTION_ZH}])"
            rf"(?!{_NOT_NAME_ZH})(?P<v>[\u4e00-\u9fff]{{2}})\s"
        ),
    ),
    ("{s}'s name is {v}.", "{s}叫{v}。"),
    # (ways of giving one's name that a question never asks by: signing off, a name and an
    # age or a role first, "X again")
    said_by=(
        r"\bsign\s+(?:off|as)\s|落款|我姓|本人|又来|^\W*我[，,]"
        rf"|\bit['’]?s\s+me,?\s+{CAPITAL}|(?-i:{CAPITAL}+)\s+again\b"
        rf"|^\W*[{SURNAMES}][\u4e00-\u9fff]{{1,2}}[，,]"
        rf"|^\W*{_SIGN_OFF}\s*[,.!]?\s"
        rf"|^\W*{CAPITAL}+(?:\s+{CAPITAL}+)?,\s+(?:\d{{2}}|a\s+\d{{2}})"
    ),
)


# How an assistant addresses the one it talks to at the opening of its turn: after a greeting
# or a word of welcome ("Hi Solveig!", "Congratulations Tobias —"), or after a comma at the end
# of its first phrase ("So sorry to hear that, Pavel.", "Not bad at all, Bram, it reads well"):
# not one it speaks of ("Congrats to Ines, …") nor a draft's "Dear Ms Okafor,"
_ADDRESS_OPENS_EN = (
    rf"(?:{GREETING_EN}|morning|evening|welcome(?:\s+back)?|congrats|congratulations|"
    r"nice\s+to\s+meet\s+you|good\s+to\s+see\s+you)"
)
_TITLE_EN = r"(?:(?:dr|mr|mrs|ms|miss|prof)\.?\s+)?"
_ADDRESSED_EN = (
    re.compile(
        rf"^\W*(?i:{_ADDRESS_OPENS_EN})[\s,]+(?i:{_TITLE_EN})(?P<v>{CAPITAL}+)(?=\s*(?:[!,.?~]|\s[—–-]|$))"
    ),
    re.compile(
        r"^[^.!?\n]{0,60}?(?<!\bto)(?<!\band)(?<!\bwith)(?<!\bfor)(?<!\bfrom)(?<!\babout),\s+"
        rf"(?P<v>{CAPITAL}+)(?=\s*(?:[!,.?~]|\s[—–-]|$))"
    ),
)
# ... in Chinese: a greeting, then the name ("你好郭婷！", "好的秀英～"), a congratulation and a
# name with a surname or a title ("恭喜吴磊！", "恭喜国栋大爷！"), or the name first, then the
# greeting ("吴磊你好！", "秀英辛苦了", "钱宇医生你好")
_HONOUR_ZH = r"(?:老师|医生|大夫|大爷|大妈|阿姨|叔叔|同学)"
_SURNAMED_ZH = rf"(?:[{SURNAMES}][\u4e00-\u9fff]{{1,2}}?|[小阿][\u4e00-\u9fff])"
_GIVEN_ZH = r"[\u4e00-\u9fff]{2}"
_GREETS_ZH = (
    r"(?:你好|您好|嗨|哈喽|哈啰|欢迎|好的|好嘞|好滴|在的|早上好|上午好|中午好|下午好|晚上好|新年好)"
)
_GREETS_AFTER_ZH = r"(?:你好|您好|早上好|上午好|中午好|下午好|晚上好|新年好|辛苦|加油)"
_MARK_ZH = r"(?=[，,！!～~。\s]|你好|您好)"
_ADDRESSED_ZH = (
    re.compile(
        rf"^\W*哇?{_GREETS_ZH}[，,\s～~！!]*(?P<v>{_SURNAMED_ZH}|{_GIVEN_ZH}){_HONOUR_ZH}?{_MARK_ZH}"
    ),
    re.compile(rf"^\W*哇?(?:恭喜|抱抱)[，,\s～~！!]*(?P<v>{_SURNAMED_ZH}){_HONOUR_ZH}?{_MARK_ZH}"),
    re.compile(rf"^\W*哇?(?:恭喜|抱抱)[，,\s～~！!]*(?P<v>{_GIVEN_ZH}){_HONOUR_ZH}{_MARK_ZH}"),
    re.compile(rf"^\W*(?P<v>{_SURNAMED_ZH}|{_GIVEN_ZH}){_HONOUR_ZH}?(?={_GREETS_AFTER_ZH})"),
    re.compile(rf"^\W*(?P<v>{_SURNAMED_ZH}|{_GIVEN_ZH}){_HONOUR_ZH}(?=好|[，,！!])"),
)
# Words said where a name goes in those frames: greetings and what one is congratulated on or
# comforted for ("恭喜高升！", "辛苦了，…")
_NOT_ADDRESSED_ZH = frozenset(
    "恭喜 辛苦 加油 谢谢 没事 好的 当然 可以 抱抱 别急 别慌 理解 明白 哈哈 哇塞 太好 "
    "真棒 厉害 不错 放心 收到 你好 您好 欢迎 早上 晚上 中午 下午 上午 新年 大家 亲爱 "
    "宝贝 朋友 这个 那个 今天 明天 确实 其实 首先 好嘞 在的 真的 是的 对的 嗯嗯 好啊 "
    "好呀 天哪 天啊 哎呀 我们 你们 他们 她们 异地 晚安 午安 早安 周末 最近 工作 学习 "
    "考试 上班 下班 熬夜 加班 乔迁 安顿 升职 拿证 提车 入职 毕业 发财 上岸 转正 脱单 "
    "结婚 生日 新婚 高升 康复 通过 考过 顺利 成功 开业 搬家 出院 退休 宝宝 千金 公子 "
    "一路 路上 注意 记得 慢慢 好好".split()
)


def addressed_name(text: str) -> str | None:
    """The name an assistant's turn calls its listener by at its opening ("Hi Solveig! Here's
    …", "你好郭婷！…"), or None. In English a word of the dictionary ("Hi Exciting!" is no
    greeting) or a place ("Wow, Lisbon!") is no name unless it is a first name ("Grace")."""
    text = text.strip()
    for pattern in _ADDRESSED_EN:
        found = pattern.search(text)
        if found:
            name = found.group("v")
            folded = name.casefold()
            if (folded in FIRST_NAMES or not english_word(folded)) and name not in PLACES:
                return name
    for pattern in _ADDRESSED_ZH:
        found = pattern.search(text)
        if found:
            name = found.group("v")
            # (nor a verb: "好的开始！", "排练加油！")
            said = name[:2] in _NOT_ADDRESSED_ZH or name[0] in FUNCTION_ZH or dictionary_verb(name)
            if not said and name[-1] not in _ROLE_END_ZH:
                return name
    return None


def addresses(text: str, name: str) -> bool:
    """Whether a reply speaks to someone by this name: a greeting, thanks or good wishes
    before it ("Hi Declan!", "Thanks, Beth.", "Congrats, Gary"), or the name opening the
    reply before a comma or "!" ("Declan, that's great"); "晓雯你好", "你好，晓雯"."""
    text = simplified(text)
    if has_cjk(name):
        named = re.escape(name)
        return bool(
            re.search(
                rf"(?:^|[\s，,。！!])(?:{named}(?:你好|您好|早上好|晚上好)|(?:你好|您好|嗨|哈喽)[，,\s]*{named}(?![\u4e00-\u9fff]))",
                text,
            )
        )
    # (said to them: a mark after the name, "Hi Declan!"; not "Congratulations! Simba is …")
    named = rf"{re.escape(name)}(?=\s*[,.!?…—–]|\s*$)"
    return bool(
        re.search(rf"\b{_ADDRESSING_EN},?\s+{named}", text, re.I)
        or re.match(rf"\W*{named}\s*[,!]", text, re.I)
    )


# What a reply says to someone before their name
_ADDRESSING_EN = (
    rf"(?:{GREETING_EN}|thanks|thank\s+you|congrats|congratulations|welcome(?:\s+back)?|"
    r"good\s+luck|well\s+done|sorry|morning|evening|happy\s+birthday)"
)


def person_names(question: str) -> list[str]:
    """The people a question names: its person entities, and a word of no known kind that can
    only be a name ("Does Marco still …", "Where does Solveig live?"): a first name, or one
    word that is neither in the dictionary nor a place (not a company: "What does Zalando
    sell?")."""
    found = extract_entities(question)
    return [e.name for e in found if e.type == "person" or (e.type == "other" and _a_name(e.name))]


def _a_name(word: str) -> bool:
    folded = word.casefold()
    if folded in FIRST_NAMES:
        return True
    return word.isalpha() and word.istitle() and not english_word(folded) and word not in PLACES


def named_as_person(question: str, name: str) -> bool:
    """Whether an English question speaks of `name` as a person: a person the entity reader
    or the list of first names knows, or a word in a person's place: the subject after an
    auxiliary ("Where does Tomás live?", "Is Kenji seeing anyone?"), a possessive ("Kenji's
    job"), or before what a person does ("Jamal works at …"). "the Tahoe place" is a place.
    A Chinese name is one as the entity reader finds it."""
    if has_cjk(name) or name.casefold() in FIRST_NAMES:
        return True
    if any(e.name == name and e.type == "person" for e in extract_entities(question)):
        return True
    named = re.escape(name)
    return bool(
        re.search(
            rf"\b(?:does|did|do|is|was|has|had|can|could|will|would|should|are)\s+{named}\b"
            rf"|\b{named}['’]s\b|\b{named}\s+(?:still\s+|now\s+)?[a-z]+s\b",
            question,
            re.I,
        )
    )


def other_forms(question: str, names: Sequence[str]) -> list[str]:
    """The people a question names by a longer or shorter form of one of `names`
    ("Margaret" of one who signs "Marg", "Tom" of "Tomás"): forms of at least three letters,
    one the start of the other; and a Chinese name as friends call one by it ("小林", "老林",
    "林姐" or "晓雯" of 林晓雯)."""
    said = [f for m in names if has_cjk(m) for f in _chinese_forms(m) if f in question]
    folded = [m.casefold() for m in names if not has_cjk(m)]
    if not folded:
        return said  # (no name to compare: the question's entities are not read)
    return said + [
        n
        for n in dict.fromkeys(person_names(question))
        if not has_cjk(n)
        and n.casefold() not in folded
        and any(
            min(len(n), len(m)) >= 3 and (n.casefold().startswith(m) or m.startswith(n.casefold()))
            for m in folded
        )
    ]


def _chinese_forms(name: str) -> tuple[str, ...]:
    """How a Chinese full name is called among friends: 小 or 老 before the surname, 哥 or 姐
    after it, the given name alone (林晓雯: 小林, 老林, 林姐, 林哥, 晓雯)."""
    if len(name) not in (3, 4) or name[0] not in SURNAMES:
        return ()
    surname, given = name[0], name[1:]
    return (f"小{surname}", f"老{surname}", f"{surname}姐", f"{surname}哥", given)


def as_user(question: str, names: Iterable[str]) -> str:
    """`question` with each of the user's `names` (and its possessive) said as the user:
    "the user" in an English question, "我" in a Chinese one; a full name's first name too
    ("Where does Tobias live?" of "Tobias Berg"). A name shorter than two characters, or one
    that is not in the question, leaves it as it was."""
    zh_question = has_cjk(question)
    user, users = ("我", "我的") if zh_question else ("the user", "the user's")
    given = {n.split()[0] for n in names if not has_cjk(n) and len(n.split()) > 1}
    for name in sorted({n.strip() for n in names} | given, key=len, reverse=True):
        if len(name) < 2:
            continue
        if has_cjk(name):
            question = question.replace(name, "我")
            continue
        word = rf"(?<![A-Za-z0-9_-]){re.escape(name)}"  # a Chinese character may touch it
        question = re.sub(rf"{word}['’]s(?![A-Za-z0-9_-])", users, question, flags=re.I)
        question = re.sub(rf"{word}(?![A-Za-z0-9_-])", user, question, flags=re.I)
    return question


# Where a speaker says their own name: after "I'm", "my name is", "call me", "sign it …",
# "from", a comma or a dash ("it's from me, Sofia, to my guests"), 我是, 我叫, 署名写, 本名
_SELF_BEFORE = re.compile(
    r"(?:\b(?:i['’]?m|i\s+am|this\s+is|it['’]?s|its|name\s+is|name['’]s|call\s+me|llamo|from|"
    r"signed|sign(?:\s+it)?(?:\s+off)?(?:\s+(?:as|from))?|love|cheers|thanks|xx)|[,—–-]"
    r"|我是|我叫|叫我|本人|本名|署名写?|名字(?:是|叫)?|落款写?)\s*$",
    re.I,
)
# Words that may follow one's own name without speaking of a third person ("priya here btw")
_SELF_AFTER_EN = re.compile(r"\s+(?:here|btw|again|lol|haha|too|now)\b", re.I)


def speaks_of(text: str, name: str) -> bool:
    """Whether a text speaks of `name` as a third person: their possessive ("Marco's spot",
    "Chloe的car seat") or a word of theirs after the name ("Jonas has a dog", "欣欣去大连了",
    "Chloe九月上JK了"); not the speaker naming themselves ("I'm Priya", "ok calm down
    priya.", "sign it off from Tomás Ferrer", "it's from me, Sofia, to…", "署名写林晓雯就行")."""
    text = simplified(text)
    for found in re.finditer(rf"(?<![A-Za-z]){re.escape(name)}(?![a-z])", text, re.I):
        if _SELF_BEFORE.search(text[: found.start()]):
            continue
        after = text[found.end() :]
        if re.match(r"[\u4e00-\u9fff]", after):
            if not re.match(r"[呀啊哈呢了吧哦嘛啦就]", after):
                return True
            continue
        after = re.sub(r"^\s+[A-Z][\w'’-]+", "", after)  # a surname
        if re.match(r"['’]s\b|的", after):
            return True
        if re.match(r"\s+[a-z]", after) and not _SELF_AFTER_EN.match(after):
            return True
    return False
