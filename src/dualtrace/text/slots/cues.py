"""Words that decide what a slot statement does: a change, a hedge, an end, a request, and
who the statement is about."""

from __future__ import annotations

import re

from dualtrace.text.kin import CHINESE_KIN, ENGLISH_KIN

CHANGE = re.compile(
    r"\b(?:moved|relocat\w+|switch\w*|chang\w+|upgrad\w+|replac\w+|swapp\w*|swap|traded|"
    r"quit|left|joined|started|starting|now|these\s+days|nowadays|currently|no\s+longer|"
    r"not\s+anymore|anymore|instead|finally|new|gave\s+up|became|promot\w+|rais\w+|"
    r"lower\w*|increas\w+|bump\w*|push\w*|ditch\w*|transferr\w*|went\s+from|from\s+\S+\s+to|"
    r"upped|reduced|cut|dropped|adjust\w*|updat\w+|revis\w+|anymore|any\s+more|no\s+more|"
    r"latest|since|turned|took\s+up|picked\s+up|got\s+into)\b"
    r"|改成|换成|换了|换到|不再|现在|已经|搬|跳槽|离职|辞职|入职|升|调|放宽|提高|降|改为|改到|"
    r"开始|新|转|如今|目前|最近|不…了|变成|改吃|改喝|改学|迷上|爱上",
    re.I,
)
# The modal "may", not the month: lower case, not after a word that dates ("in may", "since
# may") nor before a day ("may 3rd"): "I moved to Leeds in May" is no maybe.
_MAY = (
    r"(?<!in )(?<!of )(?<!since )(?<!until )(?<!till )(?<!by )(?<!from )(?<!early )"
    r"(?<!late )(?<!mid )(?<!mid-)(?<!last )(?<!next )(?<!this )(?-i:may)(?!\s*\d)"
)
# 要是 "if", not inside 主要是 / 只要是 / 需要是 ("主要是想看…" is no condition).
_IF_ZH = r"(?<![主只需重就还总])要是"
# A maybe: the statement itself is uncertain ("I might move", "probably Leeds", "也许明年").
_MAYBE = (
    rf"\b(?:might|{_MAY}|maybe|perhaps|possibly|probably|likely|considering|thinking\s+(?:of|about)|"
    r"not\s+sure|unsure|tempted|debating|weighing|someday|some\s+day|eventually)\b"
    r"|可能|也许|或许|考虑|说不定|不确定|不一定|犹豫|还没决定|纠结"
)
MAYBE = re.compile(_MAYBE, re.I)
# Uncertainty: the value may never hold (a maybe, a condition, a wish, a question of whether,
# what one should do: "Jordan thinks I should quit WoW").
HEDGE = re.compile(
    rf"{_MAYBE}"
    r"|\b(?:could|would|if|unless|whether|consider\w*|think\s+about|wonder\w*|hope|hoping|"
    r"wish|dream\w*|would\s+(?:like|love)|torn|in\s+case|what\s+if|should\s+I|rumou?r\w*|"
    r"hypothetically|imagine|suppose|(?:I|we)\s+(?:really\s+|probably\s+|just\s+)?should)\b"
    r"|\b(?:I|we)['’]d\s+(?:really\s+)?(?:love|like|rather)\b"
    # what someone else would have the speaker do: "zainab keeps telling me to move to
    # calgary", "Tom wants me to move to Berlin", "阿飞说带我去打篮球", "老表讲要我去广州"
    r"|\b(?:tells?|telling|told|wants?|wanted|asks?|asking|asked|begging|urging|pushing|nagging|"
    r"convinc\w*|persuad\w*)\s+me\s+to\s+(?:move|go|come|join|try|get|start|take|learn|do|apply|"
    r"become|work|switch|buy|adopt|look)\b"
    r"|(?:说|讲|劝|催|叫|让)(?:要|想)?(?:带|让|叫)?我(?:也)?(?:去|搬|换|学|试试|考虑)"
    rf"|如果|{_IF_ZH}|假如|万一|希望|梦想|有机会|或者|是否|能不能|要不要|会不会|我们?应该",
    re.I,
)
# A condition ahead of the value: "If I get the job, …", "如果…，…".
CONDITION = re.compile(
    rf"(?:^|[,，;；]\s*)(?:(?:if|unless|in\s+case)\b|如果|{_IF_ZH}|假如|万一)", re.I
)
# 想 "want", not inside a word of its own (理想, 想象, 感想, 想法, 回想), nor a polite ask of
# the listener ("我在新加坡做数据分析 想请你帮我看下简历": what one asks hedges nothing said;
# 想请假 is still a wish)
_ASKS_LISTENER_ZH = r"请(?:你|您|教)|麻烦|拜托|让你|求你|问(?:问)?[你您]"
_WANT_ZH = rf"想要|(?<![理感思梦幻回联设猜构])想(?![把象法]|{_ASKS_LISTENER_ZH})"
_WANT_EN = r"\bwant(?:ing|s|ed)?\s+to"
# A wish: no plan yet, even of an attribute whose values are plans ("明年想去京都玩" is no trip)
WISH = re.compile(rf"{_WANT_EN}\b|{_WANT_ZH}", re.I)
# Intention: a value not yet held, except for attributes whose values are plans (a trip),
# which only a wish leaves unheld. A wish to change a figure is none ("want to raise it").
INTENT = re.compile(
    rf"\bplan(?:ning|s)?\s+to|{_WANT_EN}(?!\s+(?:raise|increase|lower|bump|up|"
    r"cut|reduce|adjust|change|set|push|extend|stretch|bring)\b)"
    # "以后" is "from now on" at the head of a part, not "after" an event ("转正以后…涨了")
    rf"|{_WANT_ZH}|打算|计划|准备|(?:^|[，,；;。\s]|我们?|咱们?)以后|将来",
    re.I,
)
# The speaker asks the assistant to do something: not a statement about the speaker.
REQUEST = re.compile(
    r"^\s*(?:(?:hey|ok|okay|so|also|and|now|hi)[,\s]+)?"
    r"(?:(?:can|could|would|will)\s+you|"
    r"please(?!\s+(?:remember|note|keep\s+in\s+mind|don['’]t\s+forget|be\s+aware))|pls|help\s+me|recommend|suggest|tell\s+me|"
    r"give\s+me|show\s+me|find\s+me|find|remind\s+me|let\s+me\s+know|write|draft|translate|"
    r"summari[sz]e|explain|list|book\s+me|search|look\s+up|i\s+need\s+you\s+to|"
    r"i['’]d\s+like\s+you\s+to|what\s+(?:should|would|do)|any\s+(?:ideas|tips|suggestions))\b"
    r"|^\s*(?:(?:那|嗯|好|另外|还有)[，,]?)?(?:帮我|帮忙|请(?!记住|记得|注意)你?|麻烦你?|给我|你能|你可以|能不能|可不可以|"
    r"可以帮|推荐|告诉我|提醒我|查一下|搜一下|写一|翻译|总结|列一下|解释)",
    re.I,
)
FIRST_PERSON_EN = re.compile(
    r"\b(?:I|I['’]m|I['’]ve|I['’]d|I['’]ll|me|my|we|we['’]re|our|us|let['’]s)\b", re.I
)
# The people a speaker names by their relation (also read by `text/owners.py`): these forms,
# then the other words `text/kin.py` gives a relation (bf, hubby, granny…).
_KIN_FORMS_EN = (
    r"sister|brother|sibling|mom|mum|mother|dad|father|parents|wife|"
    r"husband|partner|girlfriend|boyfriend|son|daughter|kid|kids|child|children|friend|boss|"
    r"manager|colleague|coworker|co-worker|classmate|roommate|flatmate|neighbou?r|cousin|aunt|uncle|"
    r"grandma|grandmother|grandpa|grandfather|fianc[ée]e?|niece|nephew|in-laws?|buddy|pal"
)
KIN_WORDS_EN = "|".join(
    (
        _KIN_FORMS_EN,
        *(w for w in ENGLISH_KIN if not re.fullmatch(_KIN_FORMS_EN, w)),
        r"(?:mother|father|sister|brother|son|daughter)-in-law",
    )
)
KIN_MODIFIERS_EN = r"older|younger|little|big|elder|best|oldest|youngest|eldest|new|twin|step"
KIN_EN = re.compile(
    rf"\b(?:my|our)\s+(?:(?:{KIN_MODIFIERS_EN})[-\s]?)?(?P<kin>{KIN_WORDS_EN})\b", re.I
)
OTHER_EN = re.compile(r"\b(?:he|she|they|he['’]s|she['’]s|they['’]re|his|her|their)\b", re.I)
KIN_WORDS_ZH = "|".join(CHINESE_KIN)  # text/kin.py lists them with their relations
# A parent or sibling said in one character right after whose they are ("我弟在腾讯上班",
# "用户妈住在成都", "她姐"): alone, 妈 or 哥 is no kin word ("妈呀", "帅哥"); after a
# possessor it is the everyday way to say it. Each stands for its two-character word. Not
# after a word that makes them an object ("猫送给我妈养了", "跟我哥去"): the clause is
# about someone else's doing, as before.
SINGLE_KIN_ZH = {"妈": "妈妈", "爸": "爸爸", "哥": "哥哥", "姐": "姐姐", "弟": "弟弟", "妹": "妹妹"}
_OBJECT_BEFORE_ZH = "给送跟和同帮陪带让叫被对找问向替把与"
SINGLE_KIN_AFTER_OWNER_ZH = (
    rf"(?:(?<=[咱他她你])|(?<=(?<![{_OBJECT_BEFORE_ZH}])我)|(?<=(?<![{_OBJECT_BEFORE_ZH}])用户))"
    rf"[{''.join(SINGLE_KIN_ZH)}]"
)
KIN_ZH = re.compile(rf"(?P<kin>{KIN_WORDS_ZH}|{SINGLE_KIN_AFTER_OWNER_ZH})")
# A son or daughter is also the "kid" or "孩子" a parent speaks of.
CHILDREN_GENERIC = frozenset({"kid", "kids", "child", "children", "孩子", "小孩"})
CHILDREN = CHILDREN_GENERIC | {"son", "daughter", "儿子", "女儿", "闺女"}
OTHER_ZH = re.compile(r"[他她它]们?|对方")  # 对方: the other one (a date, a seller)
# A clause joined after a value's, which says something else ("I have a nut allergy and some
# labels say 'may contain'", "started Korean bc we want to visit Seoul")
NEXT_CLAUSE = re.compile(
    r"\s(?:and|but|so|because|bc|cos|cuz|since|though|although|while)\s"
    r"|因为|所以|但是|不过|而且|然后",
    re.I,
)
# ... and where any part of a sentence ends: a comma too
PARTS = re.compile(rf"\s*[,，;；]\s*|{NEXT_CLAUSE.pattern}", re.I)
