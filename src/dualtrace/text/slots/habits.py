"""The catalogue's attributes of health, habits and background: health, medication,
commute, gym, drink, given up (drinking, smoking), team, provider, age, origin, weight,
major, reading, shows, trips, appearance and eyesight (`people.py` puts them after those
of daily life)."""

from __future__ import annotations

from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.frames import en, zh

# Conditions one has, that flare up or act up ("my asthma's been flaring")
_CONDITIONS_EN = (
    r"(?:type\s+\d\s+)?(?:diabetes|asthma|hypertension|high\s+blood\s+pressure|migraines?|anxiety|"
    r"depression|arthritis|eczema|psoriasis|ADHD|IBS|gout|sciatica|hay\s+fever|acid\s+reflux|"
    r"tendinitis|plantar\s+fasciitis|celiac(?:\s+disease)?|coeliac(?:\s+disease)?|an(?:a)?emia|"
    r"endometriosis|PCOS|hypothyroidism|hyperthyroidism|insomnia|high\s+cholesterol|"
    r"pre-?diabetes|sleep\s+apno?ea|fibromyalgia|lupus|crohn['’]?s(?:\s+disease)?|colitis|epilepsy|"
    r"GERD|osteoporosis|tinnitus|vertigo|long\s+covid|chronic\s+fatigue)"
)

# What one drinks, with a word before it ("green tea", "sparkling water", "oat latte")
_DRINK_ZH = r"(?:咖啡|茶|拿铁|美式|奶茶|苏打水|气泡水|果汁|豆浆|柠檬水|椰子水|水|牛奶|燕麦奶|酸奶)"
_DRINKS_EN = (
    r"(?:[\w-]+\s+)?(?:coffee|tea|latte|espresso|cappuccino|matcha|decaf|americano|cold\s+brew|"
    r"water|soda|juice|kombucha|smoothies?)"
)

# Conditions a doctor names that end on no word for one (炎, 症, 病): "医生说是痛风", "说是
# 轻度焦虑"
_NAMED_ILLS_ZH = (
    r"(?:痛风|焦虑|抑郁|失眠|哮喘|湿疹|荨麻疹|偏头痛|脂肪肝|高血压|糖尿病|低血糖|甲亢|甲减)"
)

HABITS: tuple[Attribute, ...] = (
    _a(
        "health",
        r"\b(?:diagnos\w*|condition|asthma|diabetes|allerg\w*|illness|disease|injur\w*|"
        r"hypertension|blood\s+pressure|blood\s+sugar|cholesterol|migraine|anxiety|depression|pregnant|intoleran\w*|coeliac|celiac|"
        r"diabetic|asthmatic|eczema|psoriasis|IBS|arthritis|gout|sciatica|flar\w*|acting\s+up|"
        r"playing\s+up|conditions|health\s+(?:issues?|problems?|concerns?|conditions?)|"
        rf"{_CONDITIONS_EN}|(?:tore|torn|ruptured|broke|fractured|dislocated)\s+my|"
        r"(?:doc(?:tor)?|gp|physio|surgeon|specialist|scan|mri|x-?ray)\s+(?:says?|said|showed?|confirmed)|"
        r"medical(?:\s+(?:issues?|problems?|history))?)\b|确诊|查出|病|过敏|(?:血压|血糖|血脂|尿酸|胆固醇)(?:又|也|有点|一直|偏|比较|还是|还)*高|哮喘|糖尿病|高血压|怀孕|受伤|不耐|痛风|鼻炎|胃炎|甲减|甲亢|"
        # (and the words of a question for any of them: "what health issue is Ana managing?",
        # "思琪有什么健康问题？", "我身体有什么毛病？")
        rf"[炎症]|突出|犯了|复发|发作|损伤|骨折|撕裂|贫血|软化|结节|增生|积液|{_NAMED_ILLS_ZH}|"
        r"健康(?:问题|困扰|状况|情况)|毛病|身体(?=.{0,8}(?:问题|情况|注意|毛病))",
        (
            en(r"\bdiagnosed\s+(?:with|as)\s+(?:having\s+)?{V}"),
            en(rf"\bdiagnosed\s+(?P<v>{_CONDITIONS_EN})\b"),
            # a joint or ligament torn or broken: "tore my ACL at football", "fractured my wrist"
            en(
                r"\b(?P<hurt>tore|torn|ruptured|broke|broken|fractured|dislocated)\s+(?:my\s+)?"
                r"(?P<v>(?:left\s+|right\s+)?(?:ACL|MCL|meniscus|achilles|hamstring|rotator\s+cuff|"
                r"ankle|wrist|collarbone|elbow|knee|shoulder|hip|leg|arm|foot|hand|finger|toe|rib)s?)\b"
            ),
            # what a doctor or a scan found: "physio says it's a meniscus tear in my left knee",
            # "the MRI showed a slipped disc"
            en(
                r"\b(?:doc(?:tor)?|gp|physio|dentist|surgeon|consultant|specialist|scan|mri|x-?ray|"
                r"bloods?|tests?|results?)\s+(?:says?|said|showed?|shows|confirmed|found)\s+(?:that\s+)?"
                # (what it is, said as such, or a word of a condition: not "says no more golf",
                # "said knock it on the head")
                r"(?:(?:it['’]s|its|it\s+is|it\s+was|I\s+have|I['’]ve\s+got|I\s+had)\s+(?:an?\s+)?|an?\s+"
                r"|(?=[\w-]+(?:\s+[\w-]+)?\s*(?:tear|fracture|strain|sprain|infection|syndrome|disease|"
                r"disc|itis|osis|a?emia)\b))"
                r"(?P<v>(?!(?:fine|nothing|ok|okay|normal|good|great|better|worse|not|no|just)\b)"
                r"[\w-]+(?:\s+[\w-]+){0,2}?)"
                r"(?=\s+(?:in|on|of|and|so|but|which|that)\b|\s*[,.!;(]|$)"
            ),
            # a reading that is high: "my blood pressure is high", "血压又高了", "尿酸偏高"
            en(
                r"\bmy\s+(?P<v>blood\s+pressure|blood\s+sugar|cholesterol|uric\s+acid)\s+(?:is|was|['’]s)\s+"
                r"(?:still\s+|a\s+bit\s+|really\s+|quite\s+|too\s+)?(?:high|up|borderline)\b"
            ),
            zh(
                r"(?:^|(?<=[我\s，,]))(?P<v>血压|血糖|血脂|尿酸|胆固醇)(?:又|也|有点|一直|偏|比较|还是|还)*"
                r"(?:高|偏高)(?!铁|速|兴|手|中|考|级|峰|于)"
            ),
            # one's own condition said to be better or worse: "migraines have been better since
            # moving", "my eczema's been awful"
            en(
                rf"(?:\bmy\s+|^\W*(?:(?:also|and|oh|so|but)\s+)?)(?P<v>{_CONDITIONS_EN})"
                r"(?:['’]s|\s+(?:have|has))\s+been\s+(?:a\s+lot\s+|much\s+|way\s+|so\s+|really\s+)?"
                r"(?:better|worse|bad|awful|terrible|rough|ok|okay|good|under\s+control)\b"
            ),
            # one's own condition named as one's own: "cold air sets off my asthma", "an
            # inhaler for my asthma" (not "my mum's asthma": whose, by the words before)
            en(rf"\bmy\s+(?P<v>{_CONDITIONS_EN})\b(?!['’]s)"),
            # a condition back again: "my migraines are back"
            en(rf"\bmy\s+(?P<v>{_CONDITIONS_EN})\s+(?:is|are|['’]s|['’]re)\s+back\b"),
            en(
                r"\b(?:I\s+have|I['’]ve\s+got|suffer\s+from|dealing\s+with)\s+"
                rf"(?P<v>{_CONDITIONS_EN}|a\s+(?:torn|broken|sprained)\s+\w+)\b"
            ),
            # one's own condition flaring up: "my asthma's been flaring", "my eczema is acting up"
            en(
                rf"(?:\bmy\s+|^\W*|[,.;:!?]\s*)(?P<v>{_CONDITIONS_EN})(?:['’]s|\s+is|\s+has)?\s+(?:been\s+)?(?:really\s+|so\s+)?"
                r"(?:flaring|flared|acting\s+up|playing\s+up)\b"
            ),
            en(r"\ballergic\s+to\s+{V}"),
            # what one is ("I'm lactose intolerant", "im coeliac") and an allergy one has
            en(
                r"\b(?:I['’]m|I\s+am|im)\s+(?:also\s+|super\s+|very\s+|severely\s+|now\s+)?"
                r"(?P<v>(?:lactose|gluten|fructose|histamine)\s+intolerant|coeliac|celiac|"
                r"(?:type\s+[12]\s+|pre-?)?diabetic|asthmatic)\b"
            ),
            en(
                r"\b(?:I\s+have|I['’]ve\s+got|ive\s+got|got)\s+(?:an?\s+|a\s+severe\s+|a\s+bad\s+)?"
                r"(?P<v>[\w-]+\s+(?:allergy|intolerance))\b"
            ),
            zh(r"(?:确诊了?|得了|患有|查出(?:来)?(?:是|有)?)(?:了)?{V}"),
            # what a scan or a doctor found: "拍了片 腰椎间盘突出", "核磁说是半月板损伤"
            zh(
                r"(?:拍了?片子?|拍片|核磁|CT|诊断为?|说是)[\s，,]*(?:是|显示)?"
                r"(?P<v>(?:(?![是有的了说])[{CJK}]){0,6}?(?:炎|间盘突出|结石|骨折|撕裂|损伤|囊肿|贫血|软化|"
                rf"结节|增生|积液|劳损|扭伤|拉伤|{_NAMED_ILLS_ZH}))"
            ),
            zh(
                r"我(?:还|也)?(?:有|是|有点)?(?P<v>乳糖不耐受?|痛风|糖尿病|高血压|哮喘|过敏性鼻炎|鼻炎|胃炎|甲减|甲亢)"
            ),
            # one's own condition by its ending: "我有桥本甲状腺炎", "我慢性胃炎", "我本身有腰椎
            # 间盘突出" (not "我有点发炎": inflamed, no condition named)
            zh(
                r"我(?:本身|本来|一直|也|还)?就?(?:有|得了|是)?(?:慢性|急性)?"
                r"(?P<v>(?![点些个的了在有是发正])[{CJK}]{1,6}?(?:炎|间盘突出|结石))"
            ),
            zh(r"对{V}过敏"),
            # "我花生过敏", "我也芒果过敏": what one is allergic to, said before the word
            zh(
                r"我(?:也|还|本身|从小)?(?P<v>(?![有是对也还就都很会又容易特别一直经常好像可能不没])"
                r"[{CJK}]{1,4}?)过敏(?!吗|么|不)"
            ),
            # a condition that flares up again, or that a doctor named: "痛风又犯了", "医生说
            # 腰椎间盘突出"
            zh(
                r"(?:(?:前|这|那)(?:两|几)天|上(?:个)?(?:周|星期|礼拜|月)|昨天|今天|最近)?"
                r"(?P<v>(?:(?![我的你他她是就也又还了最近今昨在这那])[{CJK}]){0,4}?"
                r"(?:炎|痛风|哮喘|偏头痛|湿疹|荨麻疹|结石|突出|过敏))(?:又|老是|还是)?(?:犯了|复发了?|发作了?)"
            ),
            zh(
                r"医生说(?:我|是)?(?:有|得了)?(?P<v>[{CJK}]{0,8}?(?:炎|症|病|间盘突出|结石|骨折|劳损|贫血|"
                rf"软化|结节|增生|积液|{_NAMED_ILLS_ZH}))"
            ),
        ),
        ("{s} has {v}.", "{s}有{v}。"),
        many=True,
        ends=(
            en(r"\b(?:recovered\s+from|cured\s+of|no\s+longer\s+(?:have|allergic\s+to))\s+{V}"),
            # (a degree before 好了 is how good something is: "太好了", "挺好了")
            zh(r"(?![太挺真很还就都也]){V}(?<![太挺真很还就都也])(?:好了|痊愈了|治好了)"),
        ),
    ),
    _a(
        "medication",
        r"\b(?:medication|meds|medicine|pills?|prescri\w*|dose|dosage|taking|insulin|inhaler|injections?|tablets?|"
        r"statins?|antibiotics?|antidepressants?|put\s+me\s+on)\b|药|剂量|服用|胰岛素|打针|药片|吃片|控制血糖|控制血压",
        (
            # a drug typed in lower case is a word no dictionary lists: "doc put me on
            # lisinopril for my blood pressure"
            en(
                r"\b(?:put\s+me\s+on|I['’]m\s+(?:now\s+)?on|taking|prescribed|started)\s+"
                r"(?P<v>(?P<typed>[a-z]{5,20}))\b(?=\s+(?:for|daily|every|now|twice|once)\b|\s*[,.;!?]|$)"
            ),
            en(
                r"\b(?:taking|on|prescribed|switched\s+to|started)\s+(?P<v>[A-Z][a-z]+(?:\s+\d+\s*mg)?)"
                r"(?=\s+(?:for|daily|every|now|twice|once)\b|\s*[,.;!?]|$)"
            ),
            zh(r"(?:在吃|吃|服用|换成|改吃|开了)(?P<v>[^，。；！？,.;!?\s]{1,8}?)(?:药|片)"),
        ),
        ("{s} takes {v}.", "{s}在吃{v}。"),
        nouns=("medication meds prescription dose dosage", "药 剂量"),
    ),
    _a(
        "commute",
        r"\b(?:commute|commuting|get\s+to\s+work|to\s+the\s+office|bus|subway|metro|train|tram|ferry|bike\s+to|"
        r"cycle\s+to|drive\s+to\s+work|walk\s+to\s+(?:work|school|uni|college|campus)|"
        r"(?:subway|tube|metro|bus|train|tram|bike|cycling)\s+only)\b|通勤|上班路|坐地铁|坐公交|骑车上班|开车上班|电瓶车|电动车|挤地铁|挤公交"
        r"|\b(?:taking|take|riding)\s+the\s+\w+(?:\s+(?:line|train|bus|tram))?(?:\s+from\s+[^,.;!?]{1,40}?)?"
        r"\s+(?:now|these\s+days|every\s+day|to\s+work)\b"
        r"|\bon\s+the\s+(?:tube|tram|ferry)\b",
        (
            en(
                r"\b(?P<v>(?:take|taking|took|ride|riding)\s+(?:the\s+)?(?:bus|subway|metro|train|tram|ferry)|"
                r"(?:bike|cycle|walk|drive|carpool|scooter)(?:s|ing)?)\s+to\s+"
                r"(?:work|the\s+office|school|uni|college|campus)\b"
            ),
            zh(
                r"(?P<v>坐地铁|坐公交|骑车|开车|走路|打车|骑电动车|坐班车|坐高铁)(?:去)?(?:上班|通勤)"
            ),
            zh(
                r"(?:每天|天天)(?:都|还是|还)?(?P<v>骑电瓶车|骑电动车|骑摩托|挤地铁|坐地铁|挤公交|坐公交)"
            ),
            # "现在上班骑电动车", "通勤就坐地铁"
            zh(
                r"(?:上班|通勤)(?:都|就|是|主要)?(?P<v>坐地铁|坐公交|骑车|开车|走路|打车|骑电动车|骑电瓶车|"
                r"坐班车|挤地铁|挤公交)"
            ),
            en(
                r"\b(?:taking|take|riding)\s+the\s+(?-i:(?P<v>[A-Z][\w-]+))(?:\s+(?:line|train|bus|tram))?"
                # (from where: "i take the LRT from Kerinchi station now")
                r"(?:\s+from\s+[^,.;!?]{1,40}?)?\s+(?:now|these\s+days|every\s+day|to\s+work)\b"
            ),
            # "so it's the tram for me now"
            en(
                r"\b(?:it['’]s|its|it\s+is)\s+(?P<v>(?:the\s+)?(?:subway|tube|metro|bus|train|tram|ferry|"
                r"bike|e-?bike|(?-i:[A-Z]{2,4})))\s+for\s+me\s+(?:now|from\s+now\s+on|these\s+days)\b"
            ),
            # "so I'm on the metro now", "we're on the bus these days"
            en(
                r"\b(?:I['’]m|I\s+am|im|we['’]re|we\s+are)\s+(?:back\s+)?on\s+(?P<v>(?:the\s+)?"
                r"(?:subway|tube|metro|bus|train|tram|ferry|bike|e-?bike))\s+(?:now|these\s+days|instead)\b"
            ),
            # "sold the car, subway only now"
            en(
                r"\b(?P<v>(?:the\s+)?(?:subway|tube|metro|bus|train|tram|bike|cycling))\s+only\s+(?:now|these\s+days)\b"
            ),
        ),
        ("{s} commutes: {v}.", "{s}的通勤方式：{v}。"),
        nouns=("commute", "通勤"),
    ),
    _a(
        "gym",
        r"\b(?:gym|fitness\s+club|membership|studio)\b|健身房|会员",
        (
            en(
                r"\b(?:joined|switched\s+to|signed\s+up\s+(?:at|for|with)|membership\s+at|go\s+to)\s+(?:a\s+|the\s+)?"
                r"(?P<v>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3})(?=\s+(?:gym|fitness|club|studio)|\s*[,.;!?]|$)"
            ),
            zh(r"(?:办了|换到|去)(?P<v>[^，。；！？,.;!?\s]{1,10}?)(?:的)?(?:健身房|健身卡|会员)"),
        ),
        ("{s}'s gym is {v}.", "{s}的健身房是{v}。"),
        nouns=("gym", "健身房"),
    ),
    _a(
        "drink",
        r"\b(?:coffee|tea|latte|espresso|cappuccino|matcha|drink\w*|caffeine|decaf|beer|wine|alcohol|sober|"
        r"water|soda|juice|kombucha)\b|咖啡|茶|喝|酒|奶茶|苏打水|气泡水|美式|拿铁",
        (
            en(rf"\b(?:drink|drinking|switched\s+to|having)\s+(?:only\s+)?(?P<v>{_DRINKS_EN})\b"),
            # the one drink left: "it's green tea only now", "only decaf now"
            en(rf"\b(?P<v>{_DRINKS_EN})\s+only\b"),
            en(rf"\bonly\s+(?P<v>{_DRINKS_EN})\s+(?:now|these\s+days|from\s+now\s+on)\b"),
            en(rf"\bswitched\s+from\s+[^,.;]{{1,30}}?\s+to\s+(?P<v>{_DRINKS_EN})\b"),
            en(r"\b(?:I['’]m|I\s+am|went)\s+(?P<v>sober|teetotal|alcohol[-\s]free)\b"),
            zh(
                r"(?:改喝|开始喝|只喝|每天喝|就喝|换成|泡)(?:了)?(?:一壶|一杯|一瓶)?"
                rf"(?P<v>[^，。；！？,.;!?\s]{{0,4}}?{_DRINK_ZH})"
            ),
            # one a day, or bought to keep going: "每天一杯燕麦拿铁", "买杯冰美式续命", "周末
            # 喝点精酿放松"
            zh(
                r"(?:(?:每天|天天)(?:都|还是)?(?:要|得)?(?:来|喝)?[一两]杯|买杯|周末喝点|下班喝点)"
                rf"(?P<v>[^，。；！？,.;!?\s]{{0,4}}?(?:{_DRINK_ZH}|精酿|啤酒|红酒|黄酒|威士忌))"
            ),
            # one tried in place of another: "im trying decaf tea instead of my regular tea"
            en(rf"\b(?:trying|having|drinking)\s+(?P<v>{_DRINKS_EN})\s+instead\b"),
        ),
        ("{s} drinks {v}.", "{s}喝{v}。"),
        ends=(
            en(
                r"\b(?:quit|gave\s+up|stopped\s+drinking|cut\s+out)\s+(?P<v>coffee|tea|alcohol|caffeine|beer|wine|soda|energy\s+drinks)\b"
            ),
            zh(r"(?:戒了|不喝)(?:了)?(?P<v>咖啡|茶|酒|奶茶|可乐|饮料)"),
        ),
    ),
    # what one has given up and keeps off: drinking, smoking ("22 days sober", "officially a
    # non-smoker", "戒酒两个月了"); a drink changed for another is the drink's
    _a(
        "given_up",
        r"\b(?:smok\w*|cigarettes?|cigs|vap\w*|nicotine|sober|drinking|booze)\b|烟|尼古丁|戒酒",
        (
            en(
                r"\b(?P<v>(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:days?|weeks?|months?|years?)\s+"
                r"sober)\b"
            ),
            # "5 months off cigs", "three weeks off the booze"
            en(
                r"\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:days?|weeks?|months?|"
                r"years?)\s+(?P<v>off\s+(?:the\s+)?(?:cigs|cigarettes|smokes|smoking|booze|alcohol|vapes?|"
                r"vaping))\b"
            ),
            en(
                r"\b(?:still\s+)?(?P<v>not\s+drinking)\b(?=[^.;!?]*\b(?:still|now|days|weeks|months|sober)\b)"
            ),
            # "still sober btw, nearly 10 months" (not "stay sober at the party")
            en(r"\b(?:still|been|stayed|staying)\s+(?P<v>sober)\b(?!\s+(?:at|for\s+the|tonight))"),
            zh(
                r"(?P<v>戒酒)(?:了|成功|快?[一二三四五六七八九十两\d半]+个?多?(?:天|周|星期|月|年))"
            ),
            en(
                r"\b(?:I['’]m|I\s+am|im|officially|now)\s+(?:now\s+|officially\s+)?(?:an?\s+)?"
                r"(?P<v>non-?smoker|ex-?smoker|smoke-?free)\b"
            ),
            # (done, not tried: "trying to quit smoking, day two")
            en(
                r"(?<!trying\sto\s)(?<!try\sto\s)(?<!tryna\s)(?<!want\sto\s)"
                r"\b(?P<v>(?:quit|stopped|gave\s+up)\s+(?:smoking|vaping|cigarettes))\b"
            ),
            zh(
                r"(?P<v>戒烟)(?:了|成功|快?[一二三四五六七八九十两\d半]+个?多?(?:天|周|星期|月|年))"
            ),
        ),
        ("Given up by {s}: {v}.", "{s}戒掉的：{v}。"),
        many=True,
    ),
    _a(
        "team",
        r"\b(?:team|fan|support|root(?:ing)?\s+for|club)\b|球队|支持|粉|主队",
        (
            en(
                r"\b(?:support|root\s+for|rooting\s+for|cheer\s+for|a\s+(?:big\s+|huge\s+)?fan\s+of)\s+(?:the\s+)?"
                r"(?P<v>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3})"
            ),
            en(
                r"\b(?:an?|big|huge|lifelong)\s+(?-i:(?P<v>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2}))\s+fan\b"
            ),
            zh(
                r"(?:支持|喜欢的球队是|主队是|是)(?P<v>[^，。；！？,.;!?\s]{2,8}?)(?:的)?(?:球迷|队|粉丝)"
            ),
        ),
        ("{s} supports {v}.", "{s}支持{v}。"),
        nouns=("team club", "球队 主队"),
    ),
    _a(
        "provider",
        r"\b(?:bank|banks|insurance|insurer|carrier|provider|internet|broadband|plan\s+with|account|"
        r"number|ported|insured|covered)\b|银行|保险|车险|医保|运营商|宽带|套餐|号|工资卡",
        (
            en(r"\b(?:bank|insured|covered)\s+(?:with|by|at)\s+{V}"),
            en(
                r"\b(?:moved|switched|transferred|ported|took)\s+(?:over\s+)?(?:my|our)\s+(?:[\w-]+\s+)?"
                r"(?:account|accounts|banking|savings|number|plan|policy|insurance|contract)\s+"
                r"(?:over\s+)?(?:from\s+[^,.;]{1,30}?\s+)?to\s+{V}"
            ),
            en(
                r"\bswitched\s+(?:my\s+)?(?:bank|insurance|insurer|carrier|provider|internet|broadband)\s+(?:from\s+[^,.;]{1,30}?\s+)?to\s+{V}"
            ),
            zh(
                r"(?:保险|车险|医保|银行卡|工资卡|宽带|套餐|运营商)(?:换成|换到|改成|转到|是|用的是|办在)(?:了)?{V}"
            ),
        ),
        ("{s}'s provider is {v}.", "{s}的服务商是{v}。"),
        nouns=("bank insurer insurance carrier provider broadband", "银行 保险公司 运营商 宽带"),
        qualified=True,
    ),
    _a(
        "age",
        r"\b(?:age|old|birthday|turned|turning)\b|岁|年龄|生日",
        (
            en(
                r"\b(?:I['’]m|I\s+am|turned|turning|just\s+turned)\s+(?P<v>\d{1,3})(?:\s+years?\s+old)?\b(?!\s*(?:%|kg|lbs|minutes|hours|km|miles))"
            ),
            zh(r"(?:今年|已经|刚满|满了?)(?P<v>[0-9一二三四五六七八九十]{1,3})岁"),
        ),
        ("{s} is {v} years old.", "{s}{v}岁。"),
    ),
    _a(
        "from",
        r"\b(?:from|grew\s+up|hometown|born|originally)\b|老家|家乡|出生|长大|哪(?:里|儿)人"
        r"|我(?:是|算是)[\u4e00-\u9fff]{2,3}人|我是?[\u4e00-\u9fff]{2,7}的(?=[\s，,。！!～~]|$)",
        (
            en(r"\b(?:I['’]m|I\s+am)\s+(?:originally\s+)?from\s+{V}"),
            # where one is from by its people: "我是潍坊人" (a place: `finder._typed`)
            zh(
                r"我(?:是|算是)(?P<v>(?P<folk>[\u4e00-\u9fff]{2,3}?))人(?=[哈啊呀嘛呢吧了]|[^\u4e00-\u9fff]|$)"
            ),
            en(r"\b(?:grew\s+up|was\s+born)\s+in\s+{V}"),
            # a place and its word for home: "回鹤岗老家了", "赣州老家那边", "我湖南株洲的"
            zh(
                r"(?:^|(?<=[\s，,。！!在回到我]))(?![在回到我])(?P<v>(?P<folk>[\u4e00-\u9fff]{2,3}?))"
                r"(?:老家|家乡)"
            ),
            zh(
                r"我(?:是)?(?:[\u4e00-\u9fff]{2,3}?省?)?(?P<v>(?P<folk>[\u4e00-\u9fff]{2,3}?))的"
                r"(?=[\s，,。！!～~]|$)"
            ),
            zh(r"(?:老家|家乡)(?:是|在)?{V}(?=的)"),
            zh(r"(?:老家|家乡)(?:是|在){V}"),
            zh(r"(?:在)?{V}(?:出生|长大)(?:的)?(?=$|[，。；！？,.;!?\s])"),
        ),
        ("{s} is from {v}.", "{s}老家是{v}。"),
    ),
    _a(
        "weight",
        r"\b(?:weigh\w*|weight|kg|kilos|pounds|lbs)\b|体重|斤|公斤",
        (
            en(r"\bweigh\s+(?:about\s+|around\s+)?{V}"),
            en(
                r"\b(?:lost|gained)\s+[^,.;]{1,20}?\s+(?:and\s+)?(?:now\s+)?(?:I['’]m|weigh)\s+(?:at\s+)?{V}"
            ),
            zh(
                r"(?:体重|现在)(?:是|有|降到|减到|涨到)?(?:了)?(?P<v>[0-9一二三四五六七八九十百]+(?:\.[0-9])?(?:斤|公斤|kg))"
            ),
        ),
        ("{s} weighs {v}.", "{s}的体重是{v}。"),
        nouns=("weight", "体重"),
    ),
    _a(
        "major",
        r"\b(?:major|majoring|degree|studying|field|PhD|doctorate|masters?|MSc|BSc)\b|专业|主修|学位",
        (
            en(r"\bmajor(?:ing)?\s+in\s+{V}"),
            en(r"\bswitched\s+(?:my\s+)?major\s+(?:from\s+[^,.;]{1,30}?\s+)?to\s+{V}"),
            en(r"\b(?:degree|PhD|doctorate|masters?|MSc|MA|BSc|BA|MBA)\s+in\s+{V}"),
            zh(r"(?:专业|主修)(?:是|换成了?|改成了?|转到了?){V}"),
            zh(r"(?:读|学|转到|转)(?P<v>[^，。；！？,.;!?\s]{2,6}?)专业"),
        ),
        ("{s} majors in {v}.", "{s}的专业是{v}。"),
        nouns=("major", "专业"),
    ),
    _a(
        "reading",
        r"\b(?:reading|book|novel|audiobook)\b|在读|在看|书",
        (
            en(
                r"\b(?:currently\s+|now\s+|I['’]m\s+|started\s+)reading\s+(?P<v>[\"“]?[A-Z][^,.;!?\"”]{1,50}?[\"”]?)(?=\s+by\b|\s*[,.;!?]|\s+(?:now|right|these|and)\b|$)"
            ),
            zh(r"(?:在读|在看|开始读|开始看)(?P<v>《[^》]{1,30}》)"),
        ),
        ("{s} is reading {v}.", "{s}在读{v}。"),
    ),
    _a(
        "show",
        r"\b(?:watching|binge\w*|show|series|season)\b|追剧|在追|在看|剧",
        (
            en(
                r"\b(?:currently\s+|now\s+|I['’]m\s+|started\s+)(?:watching|binging|bingeing)\s+(?P<v>[\"“]?[A-Z][^,.;!?\"”]{1,50}?[\"”]?)(?=\s*[,.;!?]|\s+(?:now|right|these|and|on)\b|$)"
            ),
            zh(r"(?:在追|在看|开始追|追完了?)(?P<v>《[^》]{1,30}》)"),
        ),
        ("{s} is watching {v}.", "{s}在追{v}。"),
        # a show finished or dropped: "Finished that chef show", "gave up on Lost"
        ends=(
            en(
                r"\b(?:finished|done\s+with|gave\s+up\s+on|dropped|stopped\s+watching)\s+"
                r"(?:watching\s+)?{V}"
            ),
        ),
    ),
    _a(
        "trip",
        r"\b(?:trip|travel\w*|vacation|holiday|getaway|honeymoon|visit(?:ing)?|fly(?:ing)?\s+to|flights?|itinerary|destination|road\s+trip|cruise|backpacking)\b"
        r"|旅行|旅游|度假|出游|去哪|玩|蜜月|机票|那趟|这趟|出行|自驾|签证|攻略",
        (
            en(r"\b(?:trip|vacation|holiday|getaway|honeymoon)\s+(?:is\s+)?(?:now\s+)?to\s+{V}"),
            en(
                r"\b(?:travel(?:l)?ing|going|heading|flying)\s+to\s+{V}(?=.*\b(?:trip|vacation|holiday|for\s+\w+\s+days|in\s+[A-Z]\w+)\b)"
            ),
            # (to play there, not to play something there: "去世纪公园玩飞盘" is no trip)
            zh(
                r"(?:去|到){V}(?:玩(?=$|了|吧|啊|呢|几天|一周|一趟|[，。；！？,.;!?\s])|旅行|旅游|度假|自驾|度蜜月)"
            ),
        ),
        ("{s}'s trip is to {v}.", "{s}要去{v}旅行。"),
        many=True,  # trips are many; the newest said leads (`recall/current.py`)
        planned=True,
    ),
    _a(
        "appearance",
        r"\b(?:hair|haircut|hairstyle|bangs|bob|buzz\s*cut|pixie|dyed|beard|curls?|braids?)\b|发型|头发|短发|长发|卷发|染|胡子|刘海",
        (
            en(
                r"\b(?:cut|chopped|dyed|bleached|shaved)\s+(?:off\s+)?(?:all\s+)?my\s+hair\s+(?:into\s+|to\s+|off\s+)?(?:an?\s+)?{V}"
            ),
            en(
                r"\b(?:got|have|went\s+for)\s+(?:an?\s+)?(?P<v>(?:[\w-]+\s+){0,2}?(?:bob|pixie\s+cut|buzz\s*cut|undercut|fringe|bangs|perm|curls|braids|hair))\b"
            ),
            zh(r"(?:剪了|剪成了?|染了|染成了?|烫了|换了|留了)(?:个|一个)?{V}"),
            zh(r"(?:现在是|现在)(?P<v>[{CJK}]{0,3}(?:短发|长发|卷发|直发|寸头|光头|丸子头|刘海))"),
        ),
        ("{s}'s hair: {v}.", "{s}的发型：{v}。"),
        nouns=("hair hairstyle haircut", "发型 头发"),
    ),
    _a(
        "eyesight",
        r"\b(?:eyesight|vision|glasses|contacts|prescription|nearsighted|short[-\s]sighted|lasik)\b|近视|远视|散光|度数|眼镜|隐形",
        (
            en(
                r"\b(?:prescription|eyesight)\s+(?:is\s+)?(?:now\s+)?(?:at\s+)?(?P<v>[-+]?\d+(?:\.\d+)?(?:\s+\w+)?)"
            ),
            zh(
                r"近视(?:度数)?(?:已经|现在|涨到了?|升到了?|变成了?|是|有)?(?P<v>[0-9一二三四五六七八九十百两]+度)"
            ),
        ),
        ("{s}'s eyesight: {v}.", "{s}的视力：{v}。"),
        nouns=("eyesight prescription", "度数 视力"),
    ),
)
