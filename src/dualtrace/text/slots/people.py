"""The catalogue's attributes of daily life: diet, exercise, sleep, rent, pets, partner,
hobbies, favourites and plans, in the catalogue's order with those kept apart: languages
and instruments (`learning.py`), salary (`work.py`), pets (`pets.py`); health, habits and
background in `habits.py`."""

from __future__ import annotations

from dualtrace.text.pastimes import (
    HOBBIES_EN,
    HOBBIES_ZH,
    SPORTS_EN,
    SPORTS_ZH,
    alternation,
)
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.diet import DIET
from dualtrace.text.slots.frames import (
    BRACKETED,
    CAPITAL,
    CLOSE,
    GIVEN_EN,
    GIVEN_ZH,
    NAMED_AS_EN,
    NAMED_ZH,
    TYPED,
    en,
    zh,
)
from dualtrace.text.slots.habits import HABITS
from dualtrace.text.slots.learning import INSTRUMENT, LANGUAGE
from dualtrace.text.slots.pets import PET
from dualtrace.text.slots.work import SALARY

_SPORTS_EN = alternation(SPORTS_EN)
_SPORTS_ZH = alternation(SPORTS_ZH)
_HOBBIES_EN = alternation(HOBBIES_EN)
_HOBBIES_ZH = alternation(HOBBIES_ZH)
# What one does with a sport ("we play padel", "I train for triathlons"), and where one goes
# for one ("went for a wild swim", "been bouldering")
_DOING_SPORT_EN = r"(?:play|do|practi[cs]e|train\s+for)"
_GOING_FOR_EN = r"(?:went|go|going|been)\s+(?:for\s+an?\s+|to\s+)?"
# Days of the week as chat writes them ("mondays", "tues & thurs", "on sat")
_WEEKDAYS_EN = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:days?|s)?\b"
# A pastime's news, said after it: "padel is going great", "crochet update: …"; at the
# opening of a clause
_GOING_WELL_EN = r"(?:is\s+going\s+(?:\w+\s+)?(?:great|well|good|ok|okay|fine|brilliant)|update\b)"
_CLAUSE_OPENS_EN = r"(?:^|[,.;:!?]\s*)\W*(?:(?:also|ok|so|and)\s+)?"
_OUTDOOR_SWIM_EN = r"(?:sea|open[-\s]water|wild)\s+swim"
# A word for the kind of a sport, before it: "sea swimming", "postnatal pilates", "crown
# green bowls" (not a word that goes on with something else: "started the running club")
_KIND_OF = (
    r"(?:(?!(?:the|a|an|my|our|his|her|their|some|any|more|less|no|this|that|with|to|for|doing|"
    r"playing|going|at|in|on|and|or|also|again|regular)\b)[\w-]+\s+)?"
)
# What only one who does a sport has of it ("my padel tournament", "netball training"); not a
# team, league or season, which a fan has too ("my football team lost again")
_SPORT_THINGS_EN = (
    r"(?:training|practice|sessions?|lessons?|class(?:es)?|club|tournament|race|sprints?|comp|"
    r"competition|membership)"
)
_PARTNER_EN = (
    r"(?:partner|girlfriend|boyfriend|gf|bf|wife|husband|hubby|spouse|fianc[ée]e?|fiancee?|"
    r"other\s+half)"
)
_PARTNER_ZH = r"(?:女朋友|男朋友|女友|男友|对象|老婆|老公|媳妇|妻子|丈夫|太太|未婚夫|未婚妻)"
# one is seeing, then the name: "seeing someone new, jordan", "seeing someone 😳 tobias",
# "dating a guy called Tomas"
_SEEING_SOMEONE = (
    r"\b(?:seeing|dating)\s+(?:someone|somebody|an?\s+(?:guy|girl|man|woman)\s+(?:called|named)|"
    r"this\s+(?:guy|girl|man|woman))"
    r"(?:\s+new)?(?:\s*[^\w\s,]{1,4})?,?\s+"
)
# Words after a sport stopped that say it is for a while only ("stopped running for now")
_FOR_A_WHILE_EN = (
    r"(?![^.!?]{0,25}\b(?:for\s+now|for\s+a\s+(?:bit|while|few|couple|week|month)|this\s+(?:week|month)|"
    r"until|till|til|while\s+(?:my|the|i)|temporarily)\b)"
)
_DAILY: tuple[Attribute, ...] = (
    DIET,
    _a(
        "exercise",
        rf"\b{_SPORTS_EN}\s+is\s+my\s+(?:thing|jam|sport)\b|\ball\s+{_SPORTS_EN}\s+now\b|"
        rf"\b{_SPORTS_EN}\s+(?:is\s+going|update|gym|studio|dojo)\b|"
        r"\b(?:exercise|sports?|workout|work\s+out|working\s+out|gym|run|running|jog\w*|swim\w*|yoga|"
        r"pilates|cycling|lift\w*|crossfit|training|hiit|routine)\b|运动|锻炼|健身|跑步|游泳|瑜伽|骑车|撸铁"
        rf"|\b(?:doing|started|starting|back\s+(?:to|into)|switched\s+to|switching\s+to|playing)\s+(?:[\w-]+\s+)?{_SPORTS_EN}\b"
        r"|\b(?:quit|quitting|stopped|gave\s+up|given\s+up|giving\s+up|dropped|done\s+with|no\s+more|can['’]t|"
        rf"cannot)\s+(?:[\w-]+\s+)?{_SPORTS_EN}\b"
        # a sport right after what one does with it: these words also say that a question
        # asks the attribute, so no bare verb ("What do I do for a living?")
        rf"|\b(?:(?:{_DOING_SPORT_EN}|into)\s+(?:for\s+an?\s+|to\s+)?|{_GOING_FOR_EN})"
        rf"(?:{_OUTDOOR_SWIM_EN}|{_SPORTS_EN})\b"
        rf"|\b{_SPORTS_EN}\s+{_SPORT_THINGS_EN}\b|{_SPORTS_ZH}"
        rf"|\b{_SPORTS_EN}\s+(?:\d+\s*x|once|twice|three\s+times|four\s+times|\d+\s+times|every)\b"
        r"|\b(?:joined|joining|signed\s+up\s+(?:for|to)|found|booked|started|taking)\s+(?:an?\s+|the\s+)?"
        r"(?:local\s+)?[\w\s-]{1,30}?(?:group|club|team|class(?:es)?|league|crew|course|lessons)\b",
        (
            en(
                r"\b(?:switched|moved|changed)\s+(?:my\s+(?:workouts?|routine|exercise)\s+)?(?:from\s+[^,.;]{1,30}?\s+)?to\s+{V}"
                r"(?=.*\b(?:week|morning|day|daily|routine|workout|exercise|instead)\b)"
            ),
            en(
                r"\b(?:I|we)\s+(?:now\s+|mostly\s+|usually\s+)?(?P<v>(?:run|jog|swim|cycle|bike|lift|row|box|"
                r"do\s+yoga|do\s+pilates|do\s+crossfit|go\s+to\s+the\s+gym|work\s+out|go\s+running|go\s+swimming)"
                r"(?:\s+[^,.;!?]{0,40}?)?)\s+(?:every|each|\d+|once|twice|three|four|five|daily|most)\b"
            ),
            # a sport one does now, or does instead: "so i'm doing reformer pilates instead now"
            # (the "I" left out where chat opens on the verb: "Doing pilates now.")
            en(
                r"(?:\b(?:I['’]m|I\s+am|im)\s+|^\W*(?:(?:also|so|and)\s+)?)(?:now\s+)?doing\s+"
                rf"(?P<v>(?:(?!(?:the|a|an|this|that|my|some)\b)[\w-]+\s+)?{_SPORTS_EN})\b"
                r"(?=[^.;!?]*\b(?:now|instead|these\s+days|nowadays)\b)"
            ),
            # one sport for another: "switched from running to cycling"
            en(
                rf"\b(?:switched|moved|changed|gone)\s+(?:over\s+)?from\s+{_SPORTS_EN}\s+to\s+"
                rf"(?P<v>{_KIND_OF}{_SPORTS_EN})\b"
            ),
            # a sport taken up, or played on a day of the week: "i started running instead",
            # "still doing 5-a-side sundays"
            en(
                r"\b(?:started|starting|"
                rf"back\s+(?:to|into)|switched\s+to|switching\s+to)\s+(?:doing\s+|playing\s+)?(?P<v>{_KIND_OF}{_SPORTS_EN})\b"
            ),
            # ... played now, opening its clause: "also playing intramural basketball this fall"
            en(
                r"(?:^|[,.;:!?]\s*)\W*(?:(?:also|now|still)\s+)?(?:I['’]m\s+|im\s+)?(?:also\s+)?playing\s+"
                rf"(?P<v>{_KIND_OF}{_SPORTS_EN})\b"
            ),
            en(r"\b(?:started|been|now|I['’]m|im)\s+(?:hitting|going\s+to)\s+the\s+(?P<v>gym)\b"),
            en(r"\b(?:joined|joining)\s+(?:a|the)\s+(?:new\s+|local\s+)?(?P<v>gym)\b"),
            en(
                rf"\b(?:doing|playing|play|do)\s+(?P<v>{_SPORTS_EN})\s+(?:on\s+|every\s+)?"
                rf"(?:{_WEEKDAYS_EN}|weekends|weekly|twice|every)\b"
            ),
            # ... or opening its clause with how often or on which days: "boxing 3x a week
            # keeps me sane", "also pickleball tues & thurs now"
            en(
                rf"(?:^|[,.;:!?]\s*)\W*(?:(?:also|now|still|and)\s+)?(?P<v>{_SPORTS_EN})\s+"
                r"(?:\d+\s*x|once|twice|three\s+times|four\s+times|\d+\s+times|"
                rf"every\s+(?:day|morning|evening|weekend)|(?:on\s+)?{_WEEKDAYS_EN})"
                r"(?:\s+(?:a|per)\s+week)?\b"
            ),
            # ... kept at, or done for a while now: "been doing swimming laps at the pool",
            # "健身也坚持俩月了", "书法我倒是一直在练"
            en(rf"\b(?:I['’]ve\s+|we['’]ve\s+)?been\s+doing\s+(?P<v>{_SPORTS_EN})\b"),
            zh(
                rf"(?:^|(?<=[\s，,。！!]))(?P<v>{_SPORTS_ZH})(?:我|也|还|都)?(?:已经|倒是)?"
                r"(?:一直)?(?:坚持(?!不)|一直在(?:练|打|跑|游|跳|玩))"
            ),
            # a club or group of it joined: "joined a sea swimming group"
            en(
                r"\b(?:joined|joining|signed\s+up\s+(?:for|to)|found|booked|started|taking)\s+(?:an?\s+|the\s+)?"
                rf"(?:local\s+)?(?P<v>{_OUTDOOR_SWIM_EN}ming|{_KIND_OF}{_KIND_OF}{_SPORTS_EN})\s+"
                r"(?:group|club|team|class(?:es)?|league|crew|course|lessons)\b"
            ),
            zh(
                r"(?:现在|改成|改为|换成|开始)?(?:每天|每周|每星期|一周|每个?早上|每个?晚上)[^，。；！？]{0,6}?"
                r"(?P<v>跑步|游泳|瑜伽|健身|骑车|撸铁|爬山|打球|跳绳|快走|普拉提)"
            ),
            # "现在周末玩飞盘", "开始练拳击", "周末去黄厝冲浪", "练完瑜伽"
            zh(
                r"(?:现在|最近|开始|改成?|换成|周末|平时|每周[一二三四五六日天末]?|一周|每天|天天|经常)"
                r"(?:早上|上午|中午|下午|晚上)?(?:都|就|会)?"
                r"(?:(?:跟着?|和|带|约了?)[^，。；！？\s]{1,8}?|一个人|自己)?"
                rf"(?:去[^，。；！？\s]{{0,5}}?|在[^，。；！？\s]{{0,5}}?)?(?:玩|练|打|学)?(?:了)?(?:[一两二三四五六七八九十\d]+次)?"
                rf"(?P<v>{_SPORTS_ZH})"
            ),
            zh(rf"(?:练完|打完|玩完|跑完|游完)(?:了)?(?P<v>{_SPORTS_ZH})"),
            # gone to do it with someone: "跟同事去攀岩了"
            zh(
                rf"(?:跟|和)[^，。；！？\s]{{1,6}}?(?:一块儿?|一起)?(?:去|学)(?P<v>{_SPORTS_ZH})"
                r"(?=了|啦|$|[\s，,。！!])"
            ),
            # taken up again: "羽毛球又捡起来了"
            zh(rf"(?P<v>{_SPORTS_ZH})(?:又|也)?(?:捡起来了|重新捡起来了|恢复了|又开始了)"),
            en(rf"\b(?P<v>{_SPORTS_EN})\s+is\s+(?:my|our)\s+(?:thing|jam|sport)\b"),
            # how it goes, or news of it: "Padel is going great btw", "rowing update: …"
            en(rf"{_CLAUSE_OPENS_EN}(?P<v>{_SPORTS_EN})\s+{_GOING_WELL_EN}"),
            # a club or a gym of it joined: "joined a jiu-jitsu gym", "加入了一个业余足球队"
            en(
                r"\b(?:joined|joining|signed\s+up\s+(?:at|with)|going\s+to|go\s+to)\s+(?:an?\s+|the\s+)?"
                rf"(?:local\s+)?(?P<v>{_SPORTS_EN})\s+(?:gym|studio|dojo|box)\b"
            ),
            zh(
                r"(?:加入了?|进了|报了)(?:一个|个)?[^，。；！？\s]{0,4}?"
                rf"(?P<v>{_SPORTS_ZH})(?:队|俱乐部|社|班)"
            ),
            zh(rf"(?:^|(?<=[\s，,。！!]))(?P<v>{_SPORTS_ZH})队(?:又|也|还)?(?:开始|开练|集训)"),
            en(rf"\b(?:it['’]?s|its)\s+all\s+(?P<v>{_SPORTS_EN})\s+now\b"),
            # a sport one plays or trains for, got into, went for, or has a session of:
            # "we play padel", "got me into squash", "went bouldering", "my netball training"
            en(
                r"\b(?:I|we)\s+(?:now\s+|still\s+|usually\s+|also\s+|both\s+)?"
                rf"{_DOING_SPORT_EN}\s+(?P<v>{_SPORTS_EN})\b"
            ),
            en(rf"\b(?:got|gotten|getting)\s+(?:me\s+|us\s+)?into\s+(?P<v>{_SPORTS_EN})\b"),
            en(rf"\b(?:I|we)?\s*{_GOING_FOR_EN}(?P<v>{_OUTDOOR_SWIM_EN}|{_SPORTS_EN})\b"),
            en(
                r"(?:\b(?:my|our|first|weekly|a)\s+|^\s*|[,.;:!?]\s*)"
                rf"(?P<v>{_SPORTS_EN})\s+{_SPORT_THINGS_EN}\b"
            ),
            # "想找人打篮球", "改上普拉提了", "想练练瑜伽", "去玩飞盘"
            zh(
                r"(?:(?:想|要|去|还|也|又|多|改)(?:找人|约人)?(?:玩|练|打|上|学)|报了?个?)(?:了|过|练|会儿|一会儿)?"
                rf"(?:[一两几\d]+[场次节局回])?(?P<v>{_SPORTS_ZH})"
            ),
        ),
        ("{s} exercises: {v}.", "{s}的运动：{v}。"),
        nouns=("workout routine exercise routine fitness routine", "运动 锻炼 健身计划"),
        # a sport and the days one does it ("pickleball tues & thurs"), or its end ("soccer
        # is done for me"): a statement's words only
        said_by=rf"\b{_SPORTS_EN}\s+(?:(?:on\s+)?{_WEEKDAYS_EN}|(?:is|['’]s)\s+(?:over|done|finished))",
        # a sport given up, or one can no longer do: "stopped running after the marathon",
        # "can't play football anymore", "I don't do yoga these days", "篮球不能打了",
        # "我现在不跑步了", "瑜伽课退了"; not for a while only ("stopped running for now",
        # "can't do yoga tomorrow", "这周篮球不能打了")
        ends=(
            en(
                r"\b(?:quit|quitting|stopped|(?:gave|given|giving)\s+up(?:\s+on)?|dropped|done\s+with|"
                r"no\s+more|can\s+no\s+longer)\s+(?:doing\s+|playing\s+|the\s+|my\s+|"
                rf"{_DOING_SPORT_EN}\s+)?(?P<v>{_SPORTS_EN}|gym)\b{_FOR_A_WHILE_EN}"
            ),
            en(
                rf"\b(?:can['’]t|cannot|cant)\s+(?:{_DOING_SPORT_EN}\s+|go\s+)?(?P<v>{_SPORTS_EN})\b"
                r"(?=[^.!?]{0,30}\b(?:anymore|any\s+more|for\s+good|ever\s+again)\b)"
            ),
            en(
                r"\b(?:I|we)\s+(?:don['’]t|do\s+not|no\s+longer)\s+"
                rf"(?:{_DOING_SPORT_EN}\s+|go\s+)?(?P<v>{_SPORTS_EN})\b"
            ),
            zh(
                r"(?<!暂时)(?<!这周)(?<!今天)(?<!明天)(?<!最近)(?<!这几天)(?<!这个月)"
                rf"(?P<v>{_SPORTS_ZH})(?:课|卡)?(?:也|就|早就|已经|现在|以后)?(?:再也)?(?:不能|没法|不)再?"
                r"(?:打|练|玩|跑|游|上|去|做)?了"
            ),
            zh(
                rf"(?:不再?|没再|停了|戒了)(?:去|打|练|玩|上|做)?(?P<v>{_SPORTS_ZH})(?!课|馆|卡|房)"
            ),
            zh(rf"(?P<v>{_SPORTS_ZH})(?:课|卡)(?:也|已经)?(?:退了|停了|断了)"),
            # "cricket on Sundays is over for me", "soccer is done for me honestly"
            en(
                rf"\b(?P<v>{_SPORTS_EN})(?:\s+(?:on\s+)?{_WEEKDAYS_EN})?\s+(?:is|['’]s)\s+"
                r"(?:(?:totally|pretty\s+much|basically)\s+)?(?:over|done|finished)\s+for\s+me\b"
            ),
        ),
    ),
    _a(
        "sleep",
        r"\b(?:sleep|bed|bedtime|wake|waking|asleep|lights\s+out|turn\s+in|hit\s+the\s+(?:sack|hay)|night\s+owl|"
        r"early\s+bird|naps?|napping|alarm)\b|睡|起床|作息|上床|入睡|熬夜|早睡|晚睡|失眠|闹钟",
        (
            en(
                r"\b(?:go|going|went)\s+to\s+(?:bed|sleep)\s+(?:now\s+)?(?:at|around|by|before)\s+{V}"
            ),
            en(r"\b(?:wake|waking|get|getting)\s+up\s+(?:now\s+)?(?:at|around|by)\s+{V}"),
            en(r"\bsleep\s+(?:only\s+|about\s+|around\s+)?(?P<v>\d+(?:\.\d)?\s+hours)"),
            zh(
                r"(?:每天|现在|一般|通常|改成|改为)?(?P<v>(?:晚上|凌晨|早上)?[0-9一二三四五六七八九十两]+点(?:半|多)?)(?:就)?(?:睡|睡觉|上床|起床|起)"
            ),
        ),
        ("{s}'s sleep: {v}.", "{s}的作息：{v}。"),
        nouns=("bedtime sleep schedule", "作息 睡觉时间"),
    ),
    _a(
        "rent",
        r"\b(?:rent|renting|rental|lease\w*|landlord|tenancy)\b|房租|租金|月租|续租|房东|租房|押一付",
        (
            en(r"\bpay\s+(?:about\s+|around\s+)?{V}\s+(?:in|for)\s+rent"),
            en(
                r"\brent\s+(?:went\s+up|went\s+down|increased|dropped|rose|jumped|is\s+going\s+up)\s+to\s+{V}"
            ),
        ),
        ("{s}'s rent is {v}.", "{s}的房租是{v}。"),
        nouns=("rent", "房租 租金 月租"),
    ),
    SALARY,
    PET,
    _a(
        "partner",
        r"\b(?:partner|girlfriend|boyfriend|gf|bf|wife|husband|hubby|spouse|fianc\w*|dating|married|engaged|"
        r"broke\s+up|split\s+up|relationship|single|seeing\s+(?:someone|somebody|this\s+(?:guy|girl|man|woman))|other\s+half|"
        r"(?:first|second|third)\s+date|went\s+on\s+a\s+date|been\s+seeing|(?:been|are|got)\s+(?:back\s+)?together|mov\w+\s+in\s+with|dates?\s+with|mov\w+\s+in\s+together|met\s+(?:someone|somebody)|proposed)\b|认识了?一?个|前任|交往|约会|在一起|脱单|另一半|求婚|女朋友|男朋友|女友|男友|对象|老婆|老公|媳妇|妻子|丈夫|太太|未婚|结婚|订婚|分手|离婚|单身|恋爱|(?:和|跟).{1,8}?分了",
        (
            en(
                r"\b(?:dating|seeing|married\s+to|engaged\s+to|together\s+with)\s+(?P<v>[A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*)?)"
            ),
            zh(r"(?:和|跟)(?P<v>[^，。；！？,.;!?\s]{1,4}?)(?:在一起|结婚|订婚|谈恋爱|交往)"),
            en(
                r"\b(?:I['’]m|I\s+am|we\s+are|we['’]re|got|just\s+got)\s+(?:now\s+)?(?P<v>single|divorced|separated)\b"
            ),
            en(r"\b(?P<v>single)\s+(?:again|now)\b"),
            en(r"\b(?:still|currently)\s+(?P<v>single)\b"),
            # together for a while: "mei and i have been together 3 months now"
            en(
                rf"\b(?P<v>(?-i:{CAPITAL}{{1,15}})|{TYPED})\s+and\s+(?:I|me)\s+(?:have\s+been|['’]ve\s+been|"
                r"are(?:\s+(?:now|officially|finally))?|got)\s+(?:back\s+)?together\b"
            ),
            # proposed to, or seen in brackets: "I proposed to Dana last night", "sam (the guy
            # i've been seeing since june)"
            en(rf"\b(?:I|we)\s+(?:finally\s+)?proposed\s+to\s+(?P<v>{CAPITAL}{{1,15}})\b"),
            en(
                rf"(?P<v>(?-i:{CAPITAL}{{1,15}})|{TYPED})\s*\((?:the\s+)?(?:guy|girl|man|woman|person)\s+"
                r"(?:i['’]?ve\s+been|i['’]?m|im)\s+(?:seeing|dating)\b"
            ),
            # (a status that names no partner: being married or engaged replaces no one)
            zh(r"(?P<v>单身|离婚了)"),
            # someone met, then named: "I met someone, her name is Aoife", "认识了一个女生叫Ella"
            en(
                r"(?P<named>\b(?:met|seeing|dating))\s+(?:someone|somebody)\b[^.!?]{0,20}?[.!,]?\s*"
                r"(?:her|his|their)\s+name(?:\s+is|['’]s)\s+"
                rf"(?P<v>{CAPITAL}{{1,15}})\b"
            ),
            zh(r"认识了?一?个(?:女生|男生|女孩|男孩|姑娘|小哥哥|小姐姐|妹子)(?:叫|，叫)\s?{V}"),
            zh(
                r"(?:跟|和)一个叫(?P<v>[^，。；！？,.;!?\s的]{1,4})的(?:女生|男生|女孩|男孩|姑娘|小哥哥|小姐姐|妹子|人)"
                r"(?:在)?(?:约会|交往|谈恋爱|在一起)"
            ),
            en(
                rf"\bdates?\s+with\s+(?:a\s+(?:guy|girl|man|woman)\s+(?:called|named)\s+)?(?P<v>{CAPITAL}{{1,15}})\b(?!['’])"
            ),
            en(
                rf"\bme\s+and\s+(?P<v>{CAPITAL}{{1,15}})\s+(?:are\s+)?(?:gonna\s+|going\s+to\s+|finally\s+)?"
                r"mov(?:e|ed|ing)\s+in\s+together\b"
            ),
            en(rf"{_SEEING_SOMEONE}(?P<v>{CAPITAL}{{1,15}})\b(?!['’])"),
            en(rf"{_SEEING_SOMEONE}(?P<v>{TYPED})\b(?!['’])"),
            # a partner named beside the word: "my husband Wei Jie", "男朋友阿杰"
            en(rf"(?P<named>\b(?:my|our))\s+{_PARTNER_EN}\s+(?:named\s+|called\s+)?{GIVEN_EN}"),
            # ... or by its name after: "my wife is called Noor", "my bf's name is Tom"
            en(rf"(?P<named>\b(?:my|our))\s+(?:new\s+)?{_PARTNER_EN}{NAMED_AS_EN}{GIVEN_EN}"),
            en(rf"(?P<named>\b(?:my|our))\s+{_PARTNER_EN}\s+(?P<v>{TYPED})\b(?!['’])"),
            zh(rf"(?P<named>(?<!前)){_PARTNER_ZH}(?:叫)?\s?{GIVEN_ZH}"),
            # ... or named by a pronoun after: "想给男朋友做顿饭 他叫阿杰" (not another's: "男朋友
            # 的同事 他叫…")
            zh(
                rf"(?P<named>(?<!前)){_PARTNER_ZH}[^，。！？,.!?的]{{0,8}}?[，,\s]\s*[他她]叫\s?{GIVEN_ZH}"
            ),
            # the name, then what the person is to the speaker: "林夏是我女朋友了"
            zh(
                rf"(?:^|(?<=[\s，,。！!～~]))(?P<v>(?!(?:他|她|这|那|谁|你))[{{CJK}}A-Za-z]{{2,3}}?)"
                rf"(?:现在)?(?:是|成了|成为了?)(?P<named>我)的?(?:新)?{_PARTNER_ZH}(?!的)"
            ),
            # the role in brackets after the name: "Tane (my fiancé) is doing support crew"
            en(rf"(?P<v>{CAPITAL}\w+)\s*\((?P<named>(?:my|our))\s+{_PARTNER_EN}{CLOSE}"),
            en(rf"(?P<v>{BRACKETED})\s*\((?P<named>(?:my|our))\s+{_PARTNER_EN}{CLOSE}"),
            zh(rf"{GIVEN_ZH}[（(](?P<named>我|用户)的?{_PARTNER_ZH}[）)]"),
            # the name, then what the person is to the speaker: "Noor is my wife", "(Sami is
            # my fiancé btw)"
            en(
                rf"(?:^|(?<=[\s(,.!]))(?!(?:he|she|it|this|that|there|who|which|what|one)\b)"
                rf"(?P<v>(?-i:{CAPITAL}{{1,15}}))\s+is\s+(?P<named>my)\s+"
                rf"(?:new\s+|long[-\s]?term\s+)?{_PARTNER_EN}\b(?!['’])"
            ),
            # a proposal by name: "owen proposed!!", "周航求婚了"
            en(
                rf"\b(?P<v>{CAPITAL}{{1,15}})\s+(?:finally\s+|just\s+)?proposed\b"
                r"(?!\s+(?:a|an|the|that|this|we|they|to\s+(?:the|a|an|us|them|move)|[a-z]+ing)\b)"
            ),
            zh(rf"(?:^|(?<=[\s，,。！!～~]))(?P<v>{NAMED_ZH})(?:跟我|向我)?求婚了"),
            # one moves in with a partner: "moved in with liam last weekend"
            en(rf"\b(?:moved|moving|move)\s+in\s+with\s+(?P<v>{CAPITAL}{{1,15}})\b(?!['’])"),
            en(rf"\b(?:moved|moving|move)\s+in\s+with\s+(?P<v>{TYPED})\b(?!['’])"),
        ),
        ("{s}'s partner: {v}.", "{s}的伴侣：{v}。"),
        nouns=(
            "girlfriend boyfriend wife husband partner spouse fiancé fiancée fiance fiancee",
            "女朋友 男朋友 女友 男友 对象 老婆 老公 妻子 丈夫 太太 未婚夫 未婚妻",
        ),
        ends=(
            en(
                r"\b(?:broke\s+up|split\s+up|divorced)\s+(?:with\s+)?"
                r"(?!(?:last|this|yesterday|today|recently|in|on|after|before|a|an|lol|lmao|haha|"
                rf"omg|tbh|though|too|again|now|so|and|but|(?:my|our|her|his)\s+{_PARTNER_EN})\b){{V}}"
            ),
            en(
                rf"\b(?!{_PARTNER_EN}\b)(?P<v>[A-Za-z][\w’'-]*)\s+and\s+I\s+(?:broke\s+up|split\s+up|separated|divorced)\b"
            ),
            zh(r"(?:和|跟){V}分手"),
            zh(r"(?:和|跟)(?P<v>[^，。；！？,.;!?\s]{1,8}?)分了(?!.{0,3}(?:工|活|钱|房|家务))"),
        ),
        # a break-up that names no one ("we broke up", "我和男朋友分手了"): the partner's end
        unnamed_ends=(
            en(
                r"\b(?:I|we)\s+(?:just\s+|finally\s+|officially\s+|have\s+|['’]ve\s+)?"
                rf"(?:broke\s+up|split\s+up|separated|divorced)\b(?:\s+with\s+my\s+{_PARTNER_EN})?"
                r"(?!\s+with\s+(?!my\b))"
            ),
            en(
                rf"\bmy\s+(?:ex-?)?{_PARTNER_EN}\s+and\s+I\s+(?:just\s+|finally\s+)?"
                r"(?:broke\s+up|split\s+up|split|separated|divorced)\b"
            ),
            zh(
                rf"(?:我们|我俩|(?:我)?(?:和|跟)(?:{_PARTNER_ZH}|对方)?)(?:已经|正式|终于|还是|俩)?"
                r"(?:分手|分开|离婚|离了)了"
            ),
            zh(rf"(?:我)?(?:和|跟){_PARTNER_ZH}分了"),
        ),
        say_ended=("{s} broke up with their partner.", "{s}分手了。"),
    ),
    # a bond that names no partner: engaged, married ("we're engaged!!", "我们订婚了"); being
    # single is the partner's own value, for it replaces a partner
    _a(
        "marital",
        # (not who one is engaged to: "Who is Ananya engaged to?" asks the partner)
        r"\b(?:engaged|married)\b(?!\s+to\b)|订婚|结婚|领证|已婚",
        (
            en(
                r"\b(?:I['’]m|I\s+am|im|we['’]re|we\s+are|(?:I|we)\s+(?:just\s+)?got|officially)\s+"
                r"(?:now\s+|officially\s+|finally\s+|also\s+)?(?P<v>engaged|married)\b"
            ),
            zh(
                r"(?:我们|我|俩)(?:俩)?(?:算是?|已经|正式|终于|刚刚?|也)?(?P<v>订婚|结婚|领证)了(?![吗么没])"
            ),
            zh(r"我(?:已经)?(?P<v>已婚)"),
        ),
        ("{s} is {v}.", "{s}{v}了。"),
    ),
    LANGUAGE,
    INSTRUMENT,
    _a(
        "hobby",
        # "into" as in "I'm into climbing" (a bare noun follows), not "paid into my fund"
        r"\b(?:hobby|hobbies|free\s+time|spare\s+time|weekends?|enjoy|love|pastime|took\s+up|taken\s+up|"
        r"(?:doing|taking|joined|started|signed\s+up\s+for)\s+(?:an?\s+|some\s+)[\w-]+\s+class(?:es)?|"
        r"taking\s+up)\b|"
        r"\binto\b(?!\s+(?:my|our|your|his|her|their|its|the|a|an)\b)|"
        r"爱好|兴趣|业余|周末|喜欢|迷上|爱上|入坑|开始练|解压|闲下来|\bchoir\b|练(?:书法|毛笔字|字|国画|素描)"
        rf"|\b{_HOBBIES_EN}\b|{_HOBBIES_ZH}",
        (
            # how it goes, or news of it: "pottery is going SO well", "crochet update: …"
            en(rf"{_CLAUSE_OPENS_EN}(?P<v>{_HOBBIES_EN})\s+{_GOING_WELL_EN}"),
            # kept at: "I still do my watercolours every morning"
            en(
                r"\b(?:I|we)\s+(?:still\s+|also\s+)?do\s+my\s+"
                rf"(?P<v>{_HOBBIES_EN})\s+(?:every|each|most|on)\b"
            ),
            # a class one takes for fun: "doing a pottery class on wednesdays", "joined a
            # salsa class"
            en(
                r"\b(?:doing|taking|joined|started|signed\s+up\s+for)\s+(?:an?\s+|some\s+)"
                r"(?P<v>(?!(?:new|first|free|online|evening|weekly|morning|night)\b)[\w-]+)\s+class(?:es)?\b"
            ),
            en(
                r"\b(?:my\s+(?:new\s+)?hobby\s+is|(?:got|getting|I['’]m)\s+(?:really\s+)?into|took\s+up|taking\s+up|taken\s+up|"
                r"picked\s+up|started)\s+{V}(?<=ing)"
            ),
            en(
                r"\bs(?:ing|ang|inging|ings)\s+in\s+(?:a|the|my|our)\s+(?P<v>(?:[\w-]+\s+)?choir)\b"
            ),
            zh(r"(?:爱好|兴趣)(?:是|变成了?){V}"),
            zh(r"(?P<v>[{CJK}]{2,4}?)(?:算是|是)我(?:唯一的|最大的|现在的)?(?:爱好|解压方式|乐趣)"),
            zh(r"练(?:了)?(?P<v>书法|毛笔字|国画|素描)"),
            zh(
                r"(?:周末|每周末?|没事就|有空就|闲下来就|天天|经常|平时)(?:都|就|会|经常|还是|也|一般)?"
                r"(?:(?:跟|和|带)[^，。；！？\s]{1,4}?)?"
                r"(?:去|在)(?:[^，。；！？\s]{1,4}?)?(?P<v>钓鱼|露营|徒步|野餐|逛展|看展|拍照)"
            ),
            zh(r"(?:迷上了?|爱上了?|开始玩|开始练|入坑了?){V}"),
            # a pastime one loves, does or takes up: "I love baking", "into pottery now",
            # "我平时喜欢烘焙", "报了个陶艺"
            en(
                r"\b(?:I|we)\s+(?:really\s+|still\s+|also\s+)?(?:love|enjoy|like|do)\s+"
                # the pastime alone: "I love painting landscapes" likes more than a pastime
                rf"(?P<v>{_HOBBIES_EN})(?=\s*(?:$|[^\w\s]|(?:so|a|in|on|at|with|every|when|"
                r"because|too|and|lately|now|again|these|after|before)\b))"
            ),
            en(
                r"\b(?:into|taking\s+up|took\s+up|taken\s+up|picked\s+up|started|learning|doing)\s+"
                rf"(?P<v>{_HOBBIES_EN})\b(?!\s+(?:of|for|by|from)\b)"
            ),
            zh(
                r"(?:喜欢|爱|迷上了?|爱上了?|在学|开始学|学起了?|报了?(?:个|一个)?|玩起了?)"
                rf"(?P<v>{_HOBBIES_ZH})"
            ),
        ),
        ("{s} enjoys {v}.", "{s}的爱好是{v}。"),
        many=True,
        also_asks=("exercise",),
    ),
    _a(
        "favourite",
        r"\b(?:favou?rite|fave|best[-\s]loved|obsess\w*|go-to|all[-\s]time|can['’]t\s+get\s+enough|hooked\s+on)\b"
        r"|最喜欢|最爱|迷上|上头|心头好|首选|百吃不厌",
        (
            en(r"\bfavou?rite\s+(?:[\w-]+\s+){1,2}?(?:is|are|has\s+become)\s+(?:now\s+)?{V}"),
            zh(r"最(?:喜欢|爱)的[^，。；！？]{1,6}?(?:是|变成了?|换成了?){V}"),
        ),
        ("{s}'s favourite is {v}.", "{s}最喜欢的是{v}。"),
        qualified=True,
    ),
    _a(
        "plan",
        r"\b(?:trip|wedding|flight|move|moving|interview|appointment|surgery|exam|party|vacation|"
        r"holiday|visit|concert|date|scheduled|rescheduled|postponed|pushed|moved)\b|行程|婚礼|婚期|档期|航班|面试|手术|考试|聚会|旅行|出发|改期|推迟|延期|提前",
        (
            en(
                r"\b(?:trip|wedding|flight|move|interview|appointment|surgery|exam|party|vacation|holiday|"
                r"concert|visit|ceremony|launch|deadline)(?:\s+to\s+[A-Z]\w+)?\s+(?:is|was\s+(?:moved|pushed|"
                r"rescheduled|postponed|changed)|got\s+(?:moved|pushed|rescheduled|postponed))\s+"
                r"(?:now\s+)?(?:to\s+|on\s+|for\s+|in\s+)?(?P<v>(?:[A-Z]\w+\s+(?:\d{4}|\d{1,2}(?:st|nd|rd|th)?)(?!\d)|\d{1,2}(?:st|nd|rd|th)?\s+"
                rf"(?:of\s+)?[A-Z]\w+|next\s+\w+|(?:early|mid|late)[-\s]\w+|{CAPITAL}+))"
            ),
            en(
                r"\b(?:moved|pushed|rescheduled|postponed|changed|bumped)\s+(?:the|our|my)\s+(?:[\w-]+\s+){0,3}?"
                r"(?:trip|wedding|flight|move|interview|appointment|surgery|exam|party|vacation|holiday|"
                r"ceremony)\s+(?:back\s+|up\s+)?to\s+{V}"
            ),
            zh(
                r"(?:婚礼|行程|航班|面试|手术|考试|聚会|旅行|出发|搬家)(?:的?时间|日期)?(?:定在|改到|改在|推迟到|"
                r"提前到|改成|延期到|挪到)(?:了)?{V}"
            ),
        ),
        ("{s}'s plan: {v}.", "{s}的安排：{v}。"),
        qualified=True,
        planned=True,
    ),
)

LIFE: tuple[Attribute, ...] = (*_DAILY, *HABITS)
