"""The attribute catalogue: the everyday attributes of a person that hold a value, in English
and Chinese.

Each attribute has words that put a clause or a question in its domain (`about`), frames
that cut a value out of a statement (`frames`; see `frames.py` and `nouns.py`), frames
that say a value stopped holding (`ends`: "I quit …", "…离职了"), a cardinality (`many`:
values accumulate, like hobbies; otherwise one value at a time), whether a qualifier keeps
its slots apart (`qualified`: the budget *for a laptop*, the favourite *book*), and how a
fact of it is said when a clause holds several (`say`).
"""

from __future__ import annotations

from dualtrace.text.sentences import EMOJI
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.family import FAMILY
from dualtrace.text.slots.frames import GIVEN_EN, NAMED_AS_EN, PLACE_TYPED, en, zh
from dualtrace.text.slots.names import NAME, introduction
from dualtrace.text.slots.people import LIFE

# A role ("nurse", "UX designer", "data scientist"): up to two words (or initials) before one
# that names a trade, none of them a word that goes on with something else.
_TRADE_EN = (
    r"(?:(?!(?:and|or|but|at|in|on|for|with|who|from|of)\s)(?:[a-z-]+|[A-Z]{2,4})\s+){0,2}"
    # (a diet or a faith that ends like a trade is none: "basically a pescatarian")
    r"(?!(?:vegetarian|pescatarian|flexitarian|christian|libertarian|(?:non-?)?smoker|"
    r"(?:non-?)?drinker|beginner|newcomer|foreigner|believer|lurker)\b)"
    r"(?:[a-z-]*(?:er|or|ist|ian|ant|ent|ect|eer|ive|ager|nurse|doctor|chef|student|teacher|"
    r"lead|analyst|designer|consultant|engineer|lawyer|dentist|pilot|barista|coach|tutor|"
    r"intern|clerk|officer|phd|PhD|postdoc|trainee|apprentice))"
)
_ROLE_EN = rf"(?P<v>{_TRADE_EN})"

# Roles said before where they are held ("PM at hubspot", "er nurse at toronto general")
_ROLES_EN = (
    r"(?:manager|engineer|designer|developer|analyst|nurse|teacher|consultant|lead|director|"
    r"scientist|accountant|lawyer|doctor|editor|researcher|PM|SWE|SRE|chef|barista|pharmacist|"
    r"paramedic|postdoc|lecturer|architect|intern|associate|officer|dentist|physio|solicitor|"
    r"recruiter|planner|producer|reporter|journalist|librarian|technician|surgeon|vet|GP)"
)
# A year of a course, or a degree, said before the school: "final year pharmacy at …",
# "PhD student at …"
_STUDYING_EN = (
    r"(?:(?:first|second|third|fourth|fifth|final|\d(?:st|nd|rd|th))[-\s]year\b|"
    r"(?:phd|ph\.d|masters?|msc|mba|undergrad|postgrad)\b|(?:[\w-]+\s+){0,3}?student\b)"
)
_MOVE_EN = r"(?:moved|moving|move|relocated|relocating|relocate|transferred)"
# Car makes, which name a car without the word "car" ("got a second-hand Skoda", "换了台特斯拉
# Model Y"). Chinese makes that are also everyday words (理想 "ideal", 现代 "modern") name a
# car only with a model after them ("理想L6").
_MAKES_EN = (
    r"Tesla|BYD|NIO|XPeng|Toyota|Honda|Ford|BMW|Audi|VW|Volkswagen|Mercedes(?:-Benz)?|Benz|Kia|"
    r"Hyundai|Nissan|Mazda|Subaru|Volvo|Jeep|Chevy|Chevrolet|Skoda|Škoda|Renault|Peugeot|"
    r"Citroen|Citroën|Fiat|Porsche|Lexus|Polestar|Rivian|Dodge|Buick|Cadillac|Acura|Infiniti|"
    r"Opel|Vauxhall|Dacia|Suzuki|Mitsubishi|Land\s+Rover|Range\s+Rover|Jaguar|Geely|Zeekr"
)
# Models that name a car alone, said after "my" or "bought" ("my 2011 prius", "picked up a used
# Octavia"); none of them an everyday word (not "Focus", "Golf", "Leaf", "Escape")
_MODELS_EN = (
    r"Corolla|Camry|Prius|Yaris|RAV-?4|Highlander|Tacoma|Tundra|Civic(?!\s+(?:duty|duties|cent(?:er|re)|engagement|pride|life|society|group))|CR-?V|HR-?V|Outback|"
    r"Forester|Impreza|Crosstrek|Qashqai|Micra|Passat|Tiguan|Jetta|F-?150|F-?250|Mustang|"
    r"Silverado|Malibu|Wrangler|Cherokee|Octavia|Fabia|Clio|Megane|Corsa|Astra|Mazda\s?[236]|"
    r"CX-?[3594]0?|Miata|Elantra|Sportage|Niro|Ioniq|Kona|Model\s+[3SXY]|Cortina|Sandero|"
    r"Duster|Land\s+Cruiser|Pajero|Outlander|Sienna|Odyssey|Altima|Sentra|Rogue|Kuga"
)
_YEAR = r"(?:(?:19|20)\d\d\s+)?"
_PHONES_EN = (
    r"iPhone|Pixel|Galaxy(?=\s+(?:S|A|Z|Note|Fold|Flip)\w*)|Samsung|Huawei|Xiaomi|Redmi|OnePlus|Motorola|Moto|Nokia|Oppo|Vivo|"
    r"Tecno|Infinix|Fairphone|Nothing\s+Phone"
)
_MAKES_ZH = (
    r"特斯拉|比亚迪|蔚来|小鹏|问界|极氪|吉利|哈弗|五菱|奇瑞|丰田|本田|日产|马自达|大众|宝马|奔驰|"
    r"奥迪|保时捷|沃尔沃|别克|雪佛兰|福特|起亚|斯柯达|凯迪拉克|路虎|雷克萨斯|领克|零跑|埃安"
)
_MAKES_WITH_MODEL_ZH = r"理想|长安|长城|红旗|现代|坦克|小米"
_MODEL = r"[A-Za-z0-9][A-Za-z0-9+\-]*(?:\s[A-Z0-9][A-Za-z0-9+\-]*)?"
# what a home may be called before its kind ("a tiny two-bed flat"), up to two words
_HOME_SIZE = (
    r"(?:(?:new|tiny|little|small|cute|nice|big|bigger|current|two-bed(?:room)?|"
    r"one-bed(?:room)?|\d-bed(?:room)?)\s+){0,2}"
)
_WORK_ZH = r"(?:工作|上班|任职|实习|打工|干活|当|做)"
# A job left without naming the employer, done (not "thinking of quitting", "快退休了"): "I
# quit my job", "just retired!", "got laid off", "我辞职了", "被裁了", "工作丢了"
_I_DID = r"\b(?:I|I['’]ve|I\s+have|just|finally|officially)\s+(?:just\s+|finally\s+|officially\s+|now\s+)?"
_AND_THEN = (
    r"\b(?=\s*(?:$|[.!,;:)…]|(?:today|yesterday|last|this|on|in|after|lol|haha|omg|"
    r"from\s+(?:my|the)\s+(?:job|work))\b))"
)
_JOB_LEFT = (
    en(
        r"\b(?:quit|left|resigned\s+from|lost|walked\s+out\s+of)\s+my\s+(?:[\w-]+\s+){0,2}?"
        r"(?:job|position|role)\b(?!\s+model)"
    ),
    en(rf"{_I_DID}(?:resigned|retired){_AND_THEN}"),
    # ... "I quit" alone where the clause speaks of work ("I quit! my boss …"; not "so yeah,
    # I quit" of smoking)
    en(
        rf"^(?=.*\b(?:job|work|boss|manager|company|office|career|firm)\b).*?{_I_DID}quit{_AND_THEN}"
    ),
    en(
        r"\b(?:I\s+(?:just\s+)?(?:got|was)|I['’]ve\s+been|I\s+have\s+been|got|been)\s+"
        r"(?:laid\s+off|made\s+redundant|fired(?!\s+up)|let\s+go|sacked)\b"
    ),
    en(
        r"\b(?:I['’]m|I\s+am|im|now|officially)\s+(?:now\s+|officially\s+|fully\s+)?"
        r"(?:retired|unemployed|jobless|between\s+jobs|out\s+of\s+(?:a\s+)?(?:work|job))\b"
    ),
    en(r"\b(?:handed|put|gave|turned)\s+in\s+my\s+(?:notice|resignation)\b"),
    zh(
        r"(?<![想要快准备打算考虑没不别])(?:辞职|离职|裸辞|辞工|退休|辞了职|离了职|退了休)"
        r"(?=了|啦|咯|喽|$|[！!，,。.\s～~])(?!了?吗)"
    ),
    zh(r"(?:刚|刚刚|已经|终于)(?:辞职|离职|裸辞|退休)"),
    zh(r"被(?:公司)?(?:裁员?|辞退|开除|炒鱿鱼|炒)了"),
    zh(r"工作(?:给)?(?:辞了|丢了|没了)"),
    zh(r"(?<![要快])失业了"),
)

_HOME_AND_WORK: tuple[Attribute, ...] = (
    _a(
        "lives_in",
        r"\b(?:live[sd]?|(?<!for\sa\s)living(?!\s+room)|based|resid\w*|relocat\w*|mov(?:e|ed|ing)|settled|city|town|"
        r"address|hometown|apartment|flat|neighbou?rhood|back\s+home|sublet|lease|condo|studio|"
        r"unpack\w*|flat\s?share|house\s?share|remote(?:ly)?\s+from)\b|住|搬|定居|安顿|城市|安家|落户|回老家|小区|新家|租了|买了房|公寓|房子在|这边|从.{2,4}(?:开|坐|骑)|base|\bin\s+\w+(?:\s+\w+)?\s+now\b|\b(?:still|here)\s+in\s+(?-i:[A-Z])"
        rf"|\b(?:still|here|officially|finally)\s+in\s+{PLACE_TYPED}"
        r"|\b(?:officially|finally)\s+in\s+(?-i:[A-Z])",
        (
            en(
                r"\b(?:live|lives|living|lived|reside|resides|residing|resided|settled)\s+"
                r"(?:now\s+|currently\s+|permanently\s+|full[-\s]time\s+)?(?:in|at|outside)\s+{V}"
            ),
            en(r"\bbased\s+(?:in|out\s+of)\s+{V}"),
            # working from home there: "backend eng at Shopify (remote from dublin)"
            en(r"\b(?:remote|remotely)\s+from\s+(?!home\b|the\b|a\b|my\b){V}"),
            # "still in Atlanta til December", "the university here in Edinburgh"
            en(
                r"\b(?:still|here|back\s+home|officially|finally)\s+in\s+"
                rf"(?P<v>{PLACE_TYPED}|(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))\b"
                r"(?!\s+(?:for|on|visiting)\b)"
            ),
            # settled in: "we're in Bishan now!"
            en(
                r"\b(?:we['’]re|we\s+are)\s+(?:finally\s+|all\s+)?in\s+(?-i:(?P<v>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))"
                r"\s+now\b(?!\s+(?:for|on|visiting)\b)"
            ),
            # "moved back to Lyon", "moving out of capitol hill to fremont", not "moved my
            # account to Monzo": only the mover moves
            en(
                rf"\b{_MOVE_EN}\s+(?:(?:back|over|out|away|here|there|down|up|home|abroad|"
                r"all\s+the\s+way|finally|just|recently|permanently)\s+){0,2}"
                r"(?:(?:from|out\s+of)\s+(?:[\w'’-]+\s+){1,3}?)?"
                r"to\s+(?!work\b|a\s+new\s+job){V}"
            ),
            # the move said as news, then the place: "moved!! porto is gorgeous" (a clause of
            # news joins the one after it, `encode.rules._with_news`)
            en(
                r"^\W*(?:(?:we|I)\s+(?:finally\s+|officially\s+)?)?(?:moved|relocated)\s*[!.]+\W*"
                r"(?P<v>(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)|"
                rf"{PLACE_TYPED})(?=\s+(?:is|feels|has|was)\b)"
            ),
            en(r"\b(?:home|place)\s+is\s+(?:now\s+)?(?:in\s+)?{V}"),
            en(r"\b(?:new|current)\s+(?:apartment|flat|house|place|home)\s+(?:is\s+)?in\s+{V}"),
            # a home found, rented or bought somewhere: "found a sublet in Södermalm", "signed
            # a lease on a two-bed in Leith", "our apartment in Evanston is tiny"
            en(
                rf"\b(?:found|got|rent|rented|renting|bought|signed\s+(?:a|the)\s+lease\s+(?:on|for)|"
                rf"moved\s+into|(?:our|my))\s+(?:(?:a|an|the|this)\s+)?{_HOME_SIZE}"
                rf"(?:place|apartment|flat|sublet|house|condo|studio|townhouse)\s+in\s+{{V}}"
            ),
            en(
                r"\b(?:signed\s+(?:a|the)\s+lease|settl(?:ed|ing)\s+(?:in|into)|unpacked)\s+in\s+{V}"
            ),
            # a room or a share somewhere: "staying in a flatshare in peckham"
            en(
                r"\b(?:staying|living|lodging)\s+in\s+an?\s+(?:[\w-]+\s+)?(?:flat\s?share|house\s?share|"
                r"room|flat|apartment|studio|sublet)\s+in\s+(?P<v>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?|(?P<typed>[a-z]{3,15}))\b"
            ),
            zh(r"住在{V}"),
            # "住杭州西湖边", "现在还住徐汇": 住 after its subject or an adverb (not 记住, 住院)
            zh(
                r"(?:^|(?<=[我们还也都就仍前直经，,～~]))住(?![院宿在了过着下进])(?P<v>[^，。；！？,.;!?\s、]{1,16}?)(?=$|[，。；！？,.;!?\s、]|了|的|，|离|附近|那边|这边)"
            ),
            zh(r"(?:搬家|搬)(?:到|去|来|回)(?:了)?{V}"),
            zh(r"定居(?:在|于)?{V}"),
            zh(r"在{V}(?:生活|定居|安家|落户|安顿|住(?![院宿]))"),
            zh(r"(?:人在|现居|居住在|家在){V}"),
            zh(
                r"(?<![A-Za-z])base(?:在)?\s?(?P<v>[{CJK}]{2,4}?)(?=$|[，。；！？,.;!?\s]|了|啦|呢)"
            ),
            # a home rented or bought there: "在滨江租了个两居室", "新家在望京"
            zh(
                r"在{V}(?:租了|买了)(?:个|一个|套|一套|间|一间)?(?:房子?|公寓|[一两三四]居室?|单间|新房)"
            ),
            zh(r"(?:新家|房子|公寓|住处|新房)(?:就)?在{V}"),
            zh(r"搬进了?(?P<v>[{CJK}]{2,4}?)的?(?:新家|新房|新公寓)"),
            # where one is, or sets off from each day: "我在河西这边", "每天从望京开车去公司"
            zh(
                r"我(?:家|住|现在|目前)?在(?!公司|单位|学校|医院|店|办公室|家|工地|厂)(?P<v>[{CJK}]{2,4}?)这边"
                r"(?!上班|工作|出差|开会|做|当|写|干|实习)"
            ),
            zh(
                r"(?:每天|天天)从(?P<v>[{CJK}]{2,4}?)(?:开车|开|坐|骑|走|打车)[^，。；！？]{0,6}?(?:去|到)(?:公司|上班|单位)"
            ),
        ),
        ("{s} lives in {v}.", "{s}住在{v}。"),
        ends=(en(r"\bmoved\s+(?:out\s+of|away\s+from)\s+{V}"), zh(r"(?:搬离|离开)(?:了)?{V}")),
    ),
    _a(
        "works_at",
        r"\b(?:work\w*|job|employ\w*|company|employer|firm|joined|hired|office|quit|resign\w*|"
        r"retire\w*|laid\s+off|redundant|fired|sacked|unemployed|jobless|notice|"
        rf"startup|start(?:ed|ing|s)?\s+(?:at|with)|{_ROLES_EN}\s+(?:at|@)|offer|last\s+(?:day|shift)|notice|(?:lead|manager|engineer|designer|developer|analyst|director)\s+at|(?:first|1st)\s+(?:day|week|month|shift)s?|onboarding|placement|apprenticeship|residency|training\s+year|(?:[\w-]+(?:er|or|ist|ian)|nurse|doctor)\s+at)\b"
        rf"|{introduction(r'(?-i:[A-Z][a-z]+)')}"  # "hi! Felix. barista at Oatly"
        r"|工作|上班|实习|打工|公司|入职|跳槽|离职|辞职|单位|任职|在.{1,12}?(?:做|当)|offer|录用|进了.{1,8}?厂|报[到道]"
        r"|\b(?:leaving|left)\s+(?-i:[A-Z])"
        r"|裸辞|辞工|退休|退了休|被裁|裁员|辞退|开除|炒鱿鱼|失业|店名|开业|开店|店开|我们?(?:的|开的)?(?:店|工作室)|(?:店|工作室).{0,14}名字叫",
        (
            en(
                r"\b(?:work|works|working|worked)\s+(?:now\s+|currently\s+|full[-\s]time\s+)?(?:at|for)\s+{V}"
            ),
            en(
                r"\b(?:work|working)\s+(?:now\s+)?(?:as\s+)?an?\s+[\w\s-]{1,40}?\s+(?:at|for)\s+{V}"
            ),
            # ... said as what one is: "I'm a nurse at the Royal Free", not "I'm a beginner at golf"
            en(rf"\b(?:I['’]m|I\s+am)\s+(?:now\s+)?an?\s+{_TRADE_EN}\s+(?:at|for)\s+{{V}}"),
            en(r"\b(?:joined|joining|join)\s+(?!the\s+(?:gym|club|team|choir|band)\b){V}"),
            en(r"\b(?:job|position|role|gig|internship|offer)\s+(?:at|with)\s+{V}"),
            # the field one works in, then where: "i work in QA at andela"
            en(r"\b(?:work|working)\s+in\s+(?:[\w&/-]+\s+){1,3}?at\s+{V}"),
            en(r"\b(?:got|accepted|took|signed)\s+(?:an?\s+|the\s+)?(?:job\s+)?offer\s+from\s+{V}"),
            # ... or said as news: "big news: offer from Northwind, data engineer"
            en(r"^\W*(?:(?:big\s+)?news\W+)?(?:an?\s+|the\s+|job\s+)*offer\s+from\s+{V}"),
            en(r"\b(?:employed|hired|recruited)\s+(?:by|at)\s+{V}"),
            en(r"\bhired\s+as\s+an?\s+[\w\s-]{1,40}?\s+at\s+{V}"),
            # a role at a place opening the message: "Relationship manager at OCBC here in …"
            en(
                r"^\W*(?:[A-Za-z-]+\s+){0,2}(?:manager|engineer|designer|developer|analyst|nurse|teacher|"
                r"consultant|lead|director|scientist|accountant|lawyer|doctor|editor|researcher)\s+(?:at|@)\s+{V}"
            ),
            en(
                r"\b(?:lead|manager|engineer|designer|developer|analyst|director|nurse|teacher)\s+at\s+{V}(?=\s*,?\s+(?:started|starting|since)\b)"
            ),
            # ... or said beside the rest, after a comma or in brackets: "grace here, PM at
            # hubspot", "(er nurse at toronto general)"
            en(
                rf"(?:[,(]|\bhere\b)\s*(?:an?\s+)?(?:[A-Za-z-]+\s+){{0,2}}?{_ROLES_EN}\s+(?:at|@)\s+{{V}}"
            ),
            en(
                r"\b(?:switched|moved|changed|jumped)\s+(?:jobs\s+|companies\s+|over\s+)?to\s+{V}"
                r"(?=.*\b(?:job|work|company|employer)\b)"
            ),
            en(
                r"\b(?:started|starting|start)\s+(?:working\s+)?at\s+"
                r"(?!\d|(?:noon|midnight|night|dawn|home|work|the\s+(?:end|start|beginning|bottom|top))\b){V}"
            ),
            # a first stretch at a place of work: "first week at stripe", "first day as a
            # grad analyst at KPMG"
            en(
                r"\b(?:first|1st)\s+(?:day|week|month|shift)s?\s+(?:as\s+an?\s+[\w\s-]{1,40}?\s+)?"
                r"(?:at|with)\s+{V}"
            ),
            # a start of work named by what it is: "started my foundation training year at
            # boots", "finished onboarding at clio"
            en(
                r"\b(?:start(?:ed|ing)?|began|begun)\s+(?:my|a|the|our)\s+(?:new\s+)?(?:[\w-]+\s+){0,3}?"
                r"(?:job|role|position|training|placement|internship|residency|apprenticeship|"
                r"contract|rotation|year)\s+(?:at|with)\s+{V}"
            ),
            en(r"\bonboarding\s+at\s+{V}"),
            # (not a year of a course or a degree there: "I'm Oisin, final year pharmacy at
            # Ulster" is where one studies)
            en(
                rf"{introduction(r'[A-Z][a-z]+')}(?!{_STUDYING_EN})(?:[\w-]+\s+){{0,3}}?(?:at|@)\s+{{V}}"
            ),
            zh(rf"在{{V}}{_WORK_ZH}"),
            # "4月就去乐天上班了": going to work somewhere is working there
            zh(r"(?:去|到)(?:了)?{V}(?:上班|入职)"),
            # reporting for duty: "上周五去网易报到了" (not a school's: "去学校报到")
            zh(
                r"(?:去|到)(?:了)?(?![^，。；！？]*(?:学校|大学|学院|中学|小学))(?P<v>[^，。；！？,.;!?\s]{2,12}?)报[到道]"
            ),
            zh(
                r"(?:入职(?![前后时以])|加入|加盟|跳槽到|跳槽去|跳到|去了|进了|换到|转到){V}"
                r"(?=了|$|[，。；！？,.;!?\s]|上班|工作|当|做|的?(?:厂|工厂|公司))"
            ),
            zh(r"(?:单位|公司|东家)(?:是|换成了?|变成了?|叫){V}"),
            # an offer taken: "拿到了京东的offer", "京东给我发了offer"
            zh(
                r"(?:拿到了?|接了|收到了?)(?P<v>[^，。；！？,.;!?\s的]{1,16}?)的(?:offer|录用|工作机会)"
            ),
            # ... the speaker's offer said as news or taken ("工作总算定了 小红书的offer",
            # "携程的offer接了"), not someone else's ("同事的offer")
            zh(
                r"(?:^|(?<=[\s，,。！!]))(?!(?:朋友|同事|同学|他|她|老公|老婆|男朋友|女朋友|室友|闺蜜))"
                r"(?P<v>[^，。；！？,.;!?\s的]{2,12}?)的offer"
                r"(?:我?(?:接了|签了|拿到了)|(?=$|[\s，,。！!]|了|啦))"
            ),
            # a stretch since joining ("蔚来入职第三周", "字节入职三个月了")
            zh(
                r"(?:^|(?<=[\s，,。！!～~]))(?P<v>[^，。；！？,.;!?\s的]{2,8}?)入职"
                r"(?:第[一二三四五六七八九十\d]+|已经|快|刚|[一两三四五六七八九十半\d]+个?多?)(?:天|周|个?月|年|星期)"
            ),
            zh(
                r"(?:^|(?<=[，,。！!]))(?P<v>[^，。；！？,.;!?\s]{1,16}?)给我发(?:了)?(?:offer|录用通知)"
            ),
            # one's own shop by its name: "面包店下周开业 名字叫 麦香坊", "店开在老城区，叫二两茶馆"
            zh(
                r"(?:^|(?<=[我，,。！!\s]))(?:(?:我|我们|自己)(?:的|开的)?)?(?:(?![这那家])[{CJK}]){0,3}?"
                r"(?:店|工作室|餐厅|饭店)"
                r"[^。！？!?]{0,12}?(?:店名|名字)?叫(?:做)?\s*[“\"「]?"
                rf"(?P<v>[^，。；！？,.;!?\s、”\"」{EMOJI}]{{2,10}})"
            ),
        ),
        ("{s} works at {v}.", "{s}在{v}工作。"),
        ends=(
            en(
                r"\b(?:quit|resigned\s+from|laid\s+off\s+(?:from|by)|fired\s+from|"
                r"let\s+go\s+from)\s+(?:my\s+(?:job|position|role)\s+at\s+)?"
                r"(?!(?:and|but|so|or|because|bc|then|I|I['’]m|lol)\b){V}"
            ),
            en(r"\b(?:left|leaving)\s+my\s+(?:job|position|role)\s+at\s+{V}"),
            # ... a place left by its name ("leaving Fabrikam end of june"; not "not leaving
            # Fabrikam", "left earbud finally died")
            en(
                r"(?<!not\s)(?<!n['’]t\s)\b(?:left|leaving)\s+"
                r"(?P<v>(?-i:[A-Z][\w'’&-]*(?:\.\w+)?(?:\s+[A-Z][\w'’&-]*){0,2}))(?!\s+[a-z]+(?:ed|s)\b)"
                r"(?=\s+(?:after|at|end|in|on|this|next|last|for|to|and|so|but|because|bc)\b|\s*[!.,;:)]|\s*$)"
            ),
            en(r"\bno\s+longer\s+(?:work|working)\s+(?:at|for)\s+{V}"),
            # the way out: "my last day at Canva is Friday", "handed in my notice at Monzo"
            en(r"\b(?:last\s+(?:day|shift)|(?:my|in\s+my|gave\s+my)\s+notice)\s+at\s+{V}"),
            zh(r"从{V}(?:离职|辞职|辞了职|走了|被裁)"),
            zh(r"{V}(?:离职|辞职|辞了职|被裁)"),
            zh(r"(?:离开|辞掉|辞了|不在)(?:了)?{V}"),
        ),
        unnamed_ends=_JOB_LEFT,
        say_ended=("{s} left the job.", "{s}离职了。"),
        ends_too=("occupation",),
    ),
    _a(
        "occupation",
        r"\b(?:job|work(?:ing)?\s+as|occupation|profession|career|title|role|position|promot\w*|"
        r"do\s+for\s+(?:a\s+)?living|I['’]m\s+an?|I\s+am\s+an?|became\s+an?)\b"
        rf"|{introduction(r'(?-i:[A-Z][a-z]+)')}"  # "hi! Noor, teacher at Elm Park School"
        r"|\b(?:officially|finally|basically|technically)\s+an?\s|\b(?:hired|starting|started|start)\s+as\s+an?\s|"
        r"\boffer\s+from\s+[^,]{2,40},|"
        r"\s+at\s+[A-Z]\w*(?:\s+[A-Z]\w*)?,?\s+(?:started|starting|since)\b|\b(?:freelance|self-employed)\b"
        r"|职业|职位|岗位|工作|做什么|干什么|升职|晋升|当|师|员|组长|助教|经理|总监|主管|医生|护士|老师|策划|开发|自由职业|全职|在.{1,10}?(?:做|当)"
        r"|住院医|兽医|牙医|中医|空姐|空少|警察|保安|主播|博主",
        (
            en(r"\bwork(?:ing)?\s+as\s+(?:an?\s+)?{V}"),
            en(r"\b(?:promoted|promotion)\s+to\s+(?:an?\s+)?{V}"),
            # ... the new role said after the news: "got promoted!! senior buyer as of monday"
            en(
                rf"\bgot\s+promoted\s*[!.:,—-]+\s*(?:(?:now|officially|finally)\s+)?(?:an?\s+)?"
                rf"{_ROLE_EN}\b"
            ),
            en(r"\b(?:title|role|position|job)\s+is\s+(?:now\s+)?(?:an?\s+)?{V}"),
            en(r"\bnew\s+(?:role|job|position)\s+as\s+(?:an?\s+)?{V}"),
            # the role an offer is for, said after it: "offer from Northwind, data engineer"
            en(
                rf"\boffer\s+from\s+[\w&'’. -]{{2,40}}?,\s+(?:as\s+)?(?:an?\s+)?{_ROLE_EN}(?=\s*[.!,;]|\s*$)"
            ),
            en(rf"\b(?:hired|starting|started|start)\s+as\s+an?\s+{_ROLE_EN}\b"),
            en(
                rf"\b{_ROLE_EN}\s+at\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?,?\s+(?:started|starting|since)\b"
            ),
            # "officially a journeyman electrician", "went freelance"
            en(
                rf"\b(?:officially|finally|now|basically|technically)\s+an?\s+"
                rf"(?!(?:non-?|ex-?)?smoker\b){_ROLE_EN}\b"
            ),
            en(
                r"\b(?:went|gone|going|I['’]m|I\s+am|im|now)\s+(?:now\s+|fully\s+)?(?P<v>freelance|self-employed)\b"
            ),
            zh(
                r"(?:现在|目前|开始|转行|改行|转|以后|之后|从此)(?:做|当|是|就)?"
                r"(?P<v>自由职业者?|全职妈妈|全职爸爸|全职主妇)"
            ),
            en(rf"\b(?:I['’]m|I\s+am|became|become|becoming)\s+(?:now\s+)?(?:an?\s+){_ROLE_EN}\b"),
            # a greeting, the speaker's name and the role at a place: "hi! Noor, teacher at
            # Elm Park School"
            en(rf"{introduction(r'[A-Z][a-z]+')}{_ROLE_EN}\s+(?:at|@)\s+\w"),
            zh(
                r"(?:我|我们)?(?:现在|目前)?(?:是|当|做|担任|任)(?:一名|一个|个|了)?"
                # (where, before the role: "我是同济的住院医" is a 住院医)
                r"(?:[^，。；！？,.;!?\s的]{1,8}的)?"
                r"(?P<v>[^，。；！？,.;!?\s的]{0,6}?(?:师|员|生|经理|总监|主管|医生|护士|老师|作家|记者|司机|"
                r"厨师|会计|律师|工程师|设计师|程序员|老板|店长|顾问|分析师|运营|产品|编辑|教练|主任|院长|组长|助教|助理|"
                r"住院医|兽医|牙医|中医|空姐|空少|警察|保安|主播|博主|销售))"
                r"(?=$|了|啦|呢|呀|第|已经|快|[一两三四五六七八九十半几\d]+个?多?(?:天|周|星期|月|年)|"
                r"[，。；！？,.;!?\s])"
            ),
            zh(r"(?:升职|晋升|升|提拔)(?:成|为|到)?(?:了)?{V}"),
            # the work one does at a place: "在蓝标做平面设计", "在字节做运营"
            zh(
                r"(?:^|(?<=[我，,。！!\s]))在[^，。；！？,.;!?\s]{1,10}?(?:做|当)(?!事情|东西|作业|家务|饭|什么|啥|这个|那个|点)(?P<v>[{CJK}]{2,6}?)"
                r"(?=$|[，。；！？,.;!?\s]|了|呢|啦|的)"
            ),
            zh(r"(?:职位|岗位|职务|头衔)(?:是|变成了?|换成了?){V}"),
        ),
        ("{s} works as {v}.", "{s}的职位是{v}。"),
        holders=(
            r"师|员|组长|助教|经理|总监|主管|医生|护士|老师|策划|开发|住院医|兽医|牙医|中医|空姐|空少|"
            r"警察|保安|主播|博主"
        ),
    ),
    _a(
        "department",
        r"\b(?:team|department|dept|division|squad|org)\b|组|部门|团队|事业部|[^\W\d_]部",
        (
            en(
                r"\b(?:on|in|joined|to|into)\s+the\s+(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+"
                r"(?:team|department|division|squad|org)\b"
            ),
            zh(
                r"(?:调到|调去|转到|转岗到|去了|加入了?|在|换到|负责)(?:了)?"
                r"(?P<v>(?:(?!公司|负责|在)[{CJK}A-Za-z]){1,6}?(?:组|部门|团队|事业部|中心|部(?![分门])))"
            ),
        ),
        ("{s} is on the {v} team.", "{s}在{v}。"),
    ),
    _a(
        "manager",
        r"\b(?:manager|boss|supervisor|report\s+to|reports?\s+to|lead)\b|领导|老板|上司|主管|经理|汇报",
        (
            en(r"\breport(?:ing)?\s+(?:directly\s+)?to\s+{V}"),
            en(r"\b(?:new\s+)?(?:manager|boss|supervisor)\s+(?:is|'s)\s+(?:now\s+)?{V}"),
            en(
                r"(?P<named>\b(?:my|our))\s+(?:new\s+|old\s+|current\s+|line\s+)?"
                rf"(?:manager|boss|supervisor){NAMED_AS_EN}{GIVEN_EN}"
            ),
            zh(r"汇报给{V}(?=$|了|[，。；！？,.;!?\s])"),
            zh(r"(?<![方导指转面偏走意动倾趋])向{V}(?=汇报)"),
            zh(r"(?<![他她])(?:老板|领导|上司|主管)(?:的名字|名字)?叫{V}"),
        ),
        ("{s}'s manager is {v}.", "{s}的领导是{v}。"),
        nouns=("manager boss supervisor", "领导 老板 上司 主管 经理"),
    ),
    _a(
        "studies_at",
        r"\b(?:school|college|university|study|studying|studies|attend\w*|enrolled|transfer\w*|"
        r"kindergarten|campus|elementary|academy|high\s+school|goes\s+to|year|phd|ph\.d|masters?|"
        r"msc|mba|undergrad|postgrad|student)\b|\bgot\s+into\s+(?-i:[A-Z])"
        r"|学校|大学|上学|读书|就读|转学|幼儿园|小学|中学|高中|附中|读研|研究生|考上",
        (
            en(
                r"\b(?:study|studying|studies|enrolled|attend|attends|attending)\s+(?:now\s+)?(?:at|in)\s+{V}"
            ),
            en(
                r"\b(?:goes|go|going)\s+to\s+(?P<v>[A-Z][\w\s'’-]{1,40}?(?:School|Academy|College|"
                r"University|Kindergarten|Elementary|High))\b"
            ),
            en(r"\btransferred\s+to\s+{V}"),
            # a year of a course, or a degree, at a school: "final year mpharm at aston",
            # "third-year law student at Trinity", "PhD student at ETH" (not "my second year
            # teaching at …": the doing is a job)
            en(
                r"\b(?:first|second|third|fourth|fifth|final|\d(?:st|nd|rd|th))[-\s]year\s+"
                r"(?:(?![\w-]+ing\b)[\w-]+\s+){1,3}?at\s+(?!work\b|home\b){V}"
            ),
            en(
                r"\b(?:(?:phd|ph\.d\.?|masters?|msc|mba|undergrad|postgrad)(?:\s+student)?|student)"
                r"\s+at\s+(?!work\b|home\b){V}"
            ),
            # admitted: "so I got into Kellogg!!!"
            en(
                r"\b(?:got|get|getting)\s+into\s+(?-i:(?P<v>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,3}))\b"
            ),
            zh(r"在{V}(?:上学|读书|念书|就读|上课|读)"),
            zh(r"(?:就读于|转学到|转到|考上了?|进了){V}"),
        ),
        ("{s} studies at {v}.", "{s}在{v}上学。"),
        nouns=("school college university kindergarten", "学校 大学 幼儿园"),
    ),
    _a(
        "grade",
        r"\b(?:grade|year|class|freshman|sophomore|junior|senior)\b|年级|初[一二三]|高[一二三]|大[一二三四]",
        (
            en(
                r"\b(?:in|into|starts?|starting|entered|entering)\s+(?:the\s+)?"
                r"(?P<v>(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                r"eleventh|twelfth|\d{1,2}(?:st|nd|rd|th))\s+grade)\b"
            ),
            en(r"\b(?:in|into)\s+(?P<v>(?:year|grade)\s+\d{1,2})\b"),
            zh(r"(?P<v>[一二三四五六七八九1-9]年级|初[一二三]|高[一二三]|大[一二三四]|研[一二三])"),
        ),
        ("{s} is in {v}.", "{s}在读{v}。"),
    ),
    _a(
        "budget",
        r"\b(?:budget|spend|spending|afford|price\s+range|willing\s+to\s+pay|under|up\s+to|"
        r"stretch|max(?:imum)?|cap|limit|at\s+most|set\s+aside|put\s+aside|saved|working\s+with|to\s+spend|"
        r"allocated)\b|预算|花|价位|价格区间|以内|上限|最多",
        (
            en(
                r"\b(?:can|could|will|would)\s+(?:only\s+)?(?:spend|afford|pay)\s+(?:up\s+to\s+|about\s+|around\s+|at\s+most\s+)?{V}"
            ),
            en(r"\bbudget\s+(?:of|at|around|up\s+to)\s+{V}"),
            zh(r"预算(?:的)?(?:上限)?(?:大概|大约|差不多|在|是|为|有)?{V}"),
            zh(r"(?:最多|顶多|能)花{V}"),
        ),
        ("{s}'s budget is {v}.", "{s}的预算是{v}。"),
        nouns=("budget", "预算"),
        qualified=True,
        passing=True,
    ),
    _a(
        "vehicle",
        r"\b(?:traded|trade[-\s]in|leased|car|drive|drives|driving|vehicle|suv|sedan|ev|truck|motorbike|motorcycle|scooter)\b|(?<![停堵打坐火])车(?![位库险费站程票道厢])|辆|开(?=的是|着|上了|了?一?[辆台]|起来)"
        rf"|\b(?-i:{_MAKES_EN})(?:\b|\d)|\b(?:{_MODELS_EN})\b|{_MAKES_ZH}"
        rf"|(?:{_MAKES_WITH_MODEL_ZH})(?={_MODEL})",
        (
            en(
                r"\b(?:drive|drives|driving)\s+(?:an?\s+|the\s+|my\s+)?"
                r"(?!(?:us|me|him|her|them|you|it|and|or|back|up|down|over|off|was|is|were|took|"
                r"takes|there|through|from|into|out|across|home|here)\b)"
                r"(?!to\b|home\b|around\b|a\s+lot\b|\d|when\b|if\b|while\b|because\b|"
                r"slowly\b|fast\b|carefully\b|safely\b|every\b|each\b|at\b|in\b|on\b|"
                r"(?:test|tests|lesson|lessons|instructor|school|licen[cs]e|range|exam)\b){V}"
            ),
            en(
                r"\btraded\s+(?:in\s+)?(?:my\s+|our\s+)?[^,.;]{1,40}?\s+for\s+(?:an?\s+|the\s+)?{V}"
            ),
            en(
                r"\b(?:bought|got|picked\s+up|leased|purchased)\s+(?:an?\s+|the\s+|our\s+|my\s+)?(?:new\s+|used\s+)?"
                r"(?P<v>[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*){0,3})(?=\s+(?:car|SUV|EV|sedan|hatchback))"
            ),
            # (not how it drives: "开着挺稳")
            zh(
                r"(?:开的是|开着|开一辆|开了一辆|改开|现在开|开(?=[A-Za-z]))(?:一辆|辆|的是)?(?![挺很还蛮真太好不])"
                r"{V}"
            ),
            zh(r"(?:买了|换了|提了)(?:一辆|辆|台)?(?:新的)?{V}(?=$|了|[，。；！？,.;!?\s])(?<=车)"),
            # a make names the car: "picked up a used Skoda Octavia", "换了台特斯拉Model Y"
            en(
                r"\b(?:bought|got|picked\s+up|leased|purchased|traded\s+(?:it\s+)?(?:in\s+)?for)\s+"
                r"(?:an?\s+|the\s+|our\s+|my\s+)?(?:(?:new|used|second[-\s]hand|secondhand|"
                rf"electric|little)\s+){{0,2}}{_YEAR}(?P<v>(?-i:{_MAKES_EN})(?:\s+(?-i:[A-Z0-9])[\w-]*){{0,2}}"
                rf"|(?:{_MODELS_EN}))\b"
            ),
            zh(
                r"(?:买了|换了|提了|入了|开上了|开的是|开着|开(?:了)?一?(?:辆|台))(?:一辆|辆|一台|台)?"
                r"(?:二手的?|新的?)?"
                rf"(?P<v>(?:{_MAKES_ZH})(?:{_MODEL}|[\u4e00-\u9fff]{{1,2}}(?:\s?{_MODEL})?)??|(?:{_MAKES_WITH_MODEL_ZH}){_MODEL})"
                r"(?=$|了|[，。；！？,.;!?、\s])"
            ),
            # a car of one's own by its make: "my Fiat 500 is packed", "my Mazda3 died"
            en(
                r"\b(?:my|our)\s+(?:old\s+|new\s+|little\s+|trusty\s+)?"
                rf"{_YEAR}(?P<v>(?-i:{_MAKES_EN})(?:\d\w*)?(?:\s+(?-i:[A-Z0-9])[\w-]*){{0,2}}"
                rf"|(?:{_MODELS_EN}))\b"
            ),
            zh(
                r"(?:开(?:了)?一?(?:辆|台)|(?:买|换|提|入)(?:了)?一?辆)(?:二手的?|新的?)?"
                r"(?P<v>[A-Za-z][A-Za-z0-9 +\-]{1,20}?)(?=$|[，。；！？,.;!?、])"
            ),
            # a make driven for a while: "比亚迪开了三个月", "特斯拉开了快两年"
            zh(
                rf"(?:^|(?<=[\s，,。！!我]))(?P<v>(?:{_MAKES_ZH})(?:\s?{_MODEL})?)开了(?:快|将近|差不多|有)?"
                r"[一两三四五六七八九十半几\d]+个?多?(?:月|年|星期|周)"
            ),
        ),
        ("{s} drives {v}.", "{s}开{v}。"),
        nouns=("car vehicle ride", "车 座驾 爱车"),
        ends=(
            en(r"\bsold\s+(?:my|our|the)\s+(?:old\s+)?{V}"),
            zh(r"(?:卖了|卖掉了?)(?:我的|家里的)?{V}"),
        ),
    ),
    _a(
        "phone",
        r"\b(?:phone|cellphone|smartphone|mobile|iphone|pixel|android|galaxy)\b|手机",
        (
            # one's own by its make, or one got: "my iphone 13 screen cracked", "still on my
            # old nokia phone", "got a Pixel 8 on contract"
            en(
                r"\b(?:(?:my|our)\s+(?:old\s+|new\s+|trusty\s+|ancient\s+|cracked\s+)?|"
                r"(?:got|bought|ordered|using)\s+(?:an?\s+|the\s+)?(?:new\s+|used\s+|refurbished\s+)?)"
                rf"(?P<v>(?:{_PHONES_EN})(?:\s+(?!phone\b|battery\b|screen\b|case\b)[\w+]{{1,8}})?)\b"
            ),
            en(
                r"\b(?:switched|moved|changed)\s+(?:over\s+)?(?:from\s+[^,.;]{1,30}?\s+)?to\s+(?:an?\s+)?"
                r"(?P<v>(?:iPhone|Pixel|Galaxy|Android|Samsung|Huawei|Xiaomi|OnePlus)[\w\s-]{0,20}?)"
                r"(?=\s*[,.;!?]|\s+(?:phone|now|last|this|yesterday|and|but)\b|$)"
            ),
            zh(r"(?:换了|买了|用上了|入手了)(?:一部|一台|部|台)?(?:新)?{V}(?:手机)"),
        ),
        ("{s}'s phone is {v}.", "{s}的手机是{v}。"),
        nouns=("phone cellphone smartphone mobile", "手机"),
    ),
    _a(
        "device",
        r"\b(?:laptop|computer|macbook|notebook|tablet|ipad|watch|smartwatch|headphones|earbuds|"
        r"camera|console|e-reader|kindle|desktop|pc|thinkpad|chromebook|xps|surface|zenbook|alienware|gaming\s+rig|chromebook|main\s+machine)\b"
        r"|电脑|笔记本|拯救者|平板|手表|手环|耳机|相机|游戏机|游戏本|台式机|主机|打游戏",
        (
            # a product by its name, in a clause that names the kind of device
            en(
                r"(?=.*\b(?:laptop|computer|macbook|notebook|tablet|ipad|watch|smartwatch|"
                r"headphones|earbuds|camera|console|kindle)\b)"
                r"\b(?:got|bought|wear|wearing|use|using|switched\s+to|upgraded\s+to|"
                r"handed\s+me|gave\s+me)\s+(?:an?\s+|the\s+|my\s+|a\s+new\s+|new\s+)?"
                r"(?P<v>[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*){0,3})"
            ),
            zh(
                r"(?:戴的是|用的是|换了|买了|入手了?|用上了?)(?:一块|一台|一个|个|台|块)?(?:新的?)?"
                r"(?P<v>[A-Za-z0-9{CJK}]{1,12}?(?:手表|手环|电脑|笔记本|平板|耳机|相机|本))"
            ),
        ),
        ("{s}'s device is {v}.", "{s}的设备是{v}。"),
        nouns=(
            "laptop computer macbook notebook tablet ipad watch smartwatch headphones earbuds "
            "camera console e-reader kindle",
            "电脑 笔记本 平板 手表 耳机 相机 游戏机",
        ),
        qualified=True,
    ),
)

ATTRIBUTES: tuple[Attribute, ...] = (*_HOME_AND_WORK, *LIFE, FAMILY, NAME)

BY_NAME: dict[str, Attribute] = {a.name: a for a in ATTRIBUTES}
