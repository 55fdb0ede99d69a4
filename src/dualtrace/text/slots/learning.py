"""The catalogue's attributes of what one learns: the languages one studies (many at once,
each given up on its own) and the instruments one plays."""

from __future__ import annotations

from dualtrace.text.pastimes import INSTRUMENTS_EN, INSTRUMENTS_ZH, alternation
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.frames import en, zh

_LANGS_EN = (
    r"(?:Spanish|French|German|Japanese|Chinese|Mandarin|Cantonese|Korean|Italian|Portuguese|"
    r"Russian|Arabic|Hindi|Dutch|Swedish|Norwegian|Greek|Turkish|Thai|Vietnamese|Polish|Hebrew|"
    r"English|sign\s+language|ASL|BSL|Auslan|Punjabi|Urdu|Bengali|Tamil|Tagalog|Indonesian|Malay|Swahili|"
    r"Persian|Farsi|Ukrainian|Czech|Danish|Finnish|Irish|Welsh|Icelandic|te\s+reo(?:\s+M[aā]ori)?|"
    r"M[aā]ori|Hawaiian|(?:Scottish\s+)?Gaelic(?!\s+(?:football|games|hurling))|Catalan|Basque|Romanian|Hungarian|Serbian|Croatian|"
    r"Bulgarian|Slovak|Slovenian|Estonian|Latvian|Lithuanian|Albanian|Georgian|Armenian|Latin|"
    r"Esperanto|Afrikaans|Zulu|Yoruba|Amharic|Nepali|Gujarati|Marathi|Telugu|Kannada|Malayalam|"
    r"Khmer|Burmese|Mongolian|Sinhala|(?:isi)?Xhosa|isiZulu|Sesotho|Setswana|Shona|Igbo|Hausa|"
    r"Somali|Twi|Kinyarwanda|Pashto|Kurdish|Uzbek|Kazakh|Maltese|Galician|Luxembourgish|"
    r"Samoan|Tongan|Fijian|Hokkien|Hakka|Teochew|Bahasa(?:\s+(?:Indonesia|Melayu))?)"
)
_LANGS_ZH = (
    r"(?:日语|韩语|英语|法语|德语|西班牙语|西语|意大利语|俄语|葡萄牙语|葡语|阿拉伯语|粤语|泰语|越南语|手语|中文|汉语|"
    r"荷兰语|瑞典语|挪威语|丹麦语|芬兰语|波兰语|希腊语|土耳其语|希伯来语|印地语|印尼语|马来语|乌克兰语|捷克语|"
    r"匈牙利语|拉丁语|世界语)"
)
_INSTRUMENTS_EN = alternation(INSTRUMENTS_EN)
_INSTRUMENTS_ZH = alternation(INSTRUMENTS_ZH)

LANGUAGE: Attribute = _a(
    "language",
    rf"\b(?:learn\w*|language|studying|lessons|duolingo|fluent|classes|course|tutor|{_LANGS_EN})\b|学|语言|外语|"
    r"(?:英|日|韩|法|德|俄|泰|粤|手|西班牙|意大利|葡萄牙|阿拉伯|越南)语|口语",
    (
        en(
            rf"\b(?:learning|learn|studying|taking|doing)\s+(?:duolingo\s+|some\s+|more\s+)?"
            rf"(?P<v>{_LANGS_EN})\b"
        ),
        en(
            r"\b(?:started|starting|taking|doing|having|signed\s+up\s+for|enrolled\s+in|"
            r"going\s+to|attending)\s+(?:\w+\s+){0,2}?"
            rf"(?P<v>{_LANGS_EN})\s+(?:(?:night|evening|online|weekly|group|private)\s+)?"
            r"(?:lessons|classes|class|course|tutoring|elective|module)\b"
        ),
        en(
            rf"\b(?:started|starting|picked\s+up|switched\s+(?:over\s+)?to)\s+(?P<v>{_LANGS_EN})\b"
            r"(?!\s+(?:food|restaurant|cooking|class\s+at|subtitles|audio|dub\w*|version))"
        ),
        # "trying to get back into French", "keeping up my Korean", "brushing up on my Italian"
        en(
            r"\b(?:get(?:ting)?\s+back\s+into|keep(?:ing)?\s+up|brush(?:ing)?\s+up(?:\s+on)?)\s+(?:my\s+)?"
            rf"(?P<v>{_LANGS_EN})\b"
        ),
        # "studying for TOPIK level 3 in korean"
        en(
            r"\b(?:studying|learning|practi[cs]ing|revising)\b[^,.;!?]{0,40}?\bin\s+"
            rf"(?P<v>{_LANGS_EN})\b"
        ),
        zh(
            rf"(?:在学|学习|开始学|改学|学起了?|报了|想学|要学|自学|在[A-Za-z]{{3,12}}\s?学)"
            rf"(?:点|一点|一下)?(?P<v>{_LANGS_ZH})"
        ),
        # a class of it taken: "日语课也开始上了", "报了个德语班"
        zh(rf"(?P<v>{_LANGS_ZH})(?:课|班)(?:也|又|就|都)?(?:开始|开)?(?:上|报)"),
        # ... said first, then learnt, taken or got along in: "日语正在学N2", "法语我报了个
        # evening class", "粤语现在能听懂七成了"
        zh(
            rf"(?P<v>{_LANGS_ZH})(?:我|现在|已经|一直|还|也|基本)*(?:正在学|在学|报了|(?:能|可以)"
            r"(?:听懂|看懂|说|讲|交流|聊))(?![吗么])"
        ),
        # a level reached in it: "德语B1了", "日语N2过了"
        zh(
            rf"(?P<v>{_LANGS_ZH})(?:现在|已经|也)*\s?(?:[ABC][12]|N[1-5]|[四六]级)(?:了|过了|考过了|拿到了)"
        ),
        en(
            rf"\b(?:my|our)\s+(?P<v>{_LANGS_EN})\s+(?:lessons|classes|class|course|tutor|"
            r"tutoring|exam)\b"
        ),
        # one's level in it, or the languages one speaks: "my french is like B1", "my Greek is
        # rusty", "I speak Sesotho and Zulu"
        en(
            rf"\bmy\s+(?P<v>{_LANGS_EN})\s+is\s+(?:(?:like|about|around|at|only|still|pretty|"
            r"kinda|quite|a\s+bit|so|very|really|now)\s+)*(?:[ABC][12]|N[1-5]|basic|rusty|ok|"
            r"okay|decent|fluent|conversational|intermediate|beginner|terrible|bad|good|shaky)\b"
        ),
        en(rf"\bI\s+(?:also\s+)?speak\s+(?!English\b)(?P<v>{_LANGS_EN})\b"),
        # practised, or kept to a routine: "practise my spanish", "an Arabic learning routine",
        # "my Korean streak"
        en(rf"\bpracti[cs](?:e|ing)\s+my\s+(?P<v>{_LANGS_EN})\b"),
        en(
            rf"\b(?:an?|my)\s+(?P<v>{_LANGS_EN})\s+(?:learning\s+|study\s+)?"
            r"(?:routine|streak|study\s+plan|learning\s+plan)\b"
        ),
    ),
    ("{s} is learning {v}.", "{s}在学{v}。"),
    many=True,
    ends=(
        en(
            # (its classes too: "gave up on Spanish", "dropped my Spanish classes")
            rf"\b(?:gave\s+up|giving\s+up|stopped|stopping|quit|quitting|dropped|dropping)\s+"
            rf"(?:on\s+)?(?:learning\s+|studying\s+)?(?:my\s+)?(?P<v>{_LANGS_EN})\b"
        ),
        zh(rf"(?:不学|放弃了?|停了)(?P<v>{_LANGS_ZH})"),
        zh(rf"(?P<v>{_LANGS_ZH})(?:课)?(?:暂时|先|就|已经|早就|也)?(?:不学了|放弃了|停了)"),
    ),
)

INSTRUMENT: Attribute = _a(
    "instrument",
    r"\b(?:play|playing|instrument|lessons|piano|guitar|violin|cello|drums|ukulele|flute|sax\w*|bass)\b|弹|拉|乐器|吹|打鼓|学|练",
    (
        en(
            r"\b(?:play|playing|learning|practi[cs]e|practi[cs]ing|started)\s+(?:the\s+)?"
            rf"(?P<v>{_INSTRUMENTS_EN})\b"
        ),
        en(
            r"\bpracti[cs](?:e|ing)\b[^,.;!?]{0,50}?\bon\s+(?:the\s+|my\s+)?"
            rf"(?P<v>{_INSTRUMENTS_EN})\b"
        ),
        zh(rf"(?:弹|拉|吹|学|练)(?P<v>{_INSTRUMENTS_ZH})"),
        # how it goes, or how long at it: "fiddle lessons are going ok", "古筝学了两年了",
        # "葫芦丝能吹月光下的凤尾竹了"
        en(rf"\b(?P<v>{_INSTRUMENTS_EN})\s+(?:lessons|practice|classes)\s+(?:are|is)\s+going\b"),
        zh(
            rf"(?P<v>{_INSTRUMENTS_ZH})(?:我)?(?:学了|练了|弹了|拉了|吹了|能弹|能拉|能吹|会弹|会拉|会吹)"
        ),
    ),
    ("{s} plays {v}.", "{s}会{v}。"),
    many=True,
    ends=(
        en(rf"\b(?:gave\s+up|stopped|quit)\s+(?:playing\s+)?(?:the\s+)?(?P<v>{_INSTRUMENTS_EN})\b"),
        zh(r"(?:不再|不|放弃了?)(?:弹|拉|练)(?:了)?{V}"),
        # "吉他不弹了", "小提琴早就不拉了"
        zh(rf"(?P<v>{_INSTRUMENTS_ZH})(?:也|就|早就|已经)?(?:不再?|没再)(?:弹|拉|吹|练|学)了"),
    ),
)
