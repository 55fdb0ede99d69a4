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

from dualtrace.cjk import has_cjk
from dualtrace.text.districts import cities
from dualtrace.text.districts import names as district_names
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.family import FAMILY
from dualtrace.text.slots.frames import KNOWN_PLACE, PLACE_TYPED, en, zh
from dualtrace.text.slots.names import NAME
from dualtrace.text.slots.people import LIFE
from dualtrace.text.slots.work import WORK

_MOVE_EN = r"(?:moved|moving|move|relocated|relocating|relocate|transferred)"
# Car makes, which name a car without the word "car" ("got a second-hand Skoda", "换了台特斯拉
# Model Y"). Chinese makes that are also everyday words (理想 "ideal", 现代 "modern") name a
# car only with a model after them ("理想L6").
_MAKES_EN = (
    r"Tesla|BYD|NIO|XPeng|Toyota|Honda|Ford|BMW|Audi|VW|Volkswagen|Mercedes(?:-Benz)?|Benz|Kia|"
    r"Hyundai|Nissan|Mazda|Subaru|Volvo|Jeep|Chevy|Chevrolet|Skoda|Škoda|Renault|Peugeot|"
    r"Citroen|Citroën|Fiat|Porsche|Lexus|Polestar|Rivian|Dodge|Buick|Cadillac|Acura|Infiniti|"
    r"Opel|Vauxhall|Dacia|Suzuki|Mitsubishi|Land\s+Rover|Range\s+Rover|Jaguar|Geely|Zeekr|"
    r"MG(?=\d|\s+[A-Z0-9])|Cupra|SEAT|Seat(?=\s+[A-Z])|Alfa\s+Romeo|GMC|Tata|Mahindra|Maruti|Proton|"
    r"Perodua|Holden|VinFast|Ather|Mini\s+Cooper|MINI"
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
# a car by its make (and model) or its model alone ("Mazda3", "Ford Focus", "altima")
_CAR_EN = (
    rf"(?-i:{_MAKES_EN})(?:\d\w*)?(?:\s+(?-i:[A-Z0-9])[\w-]*){{0,2}}"
    # (a make typed in lower case, before its model: "a 2018 toyota corolla")
    rf"|(?:(?:{_MAKES_EN})\s+)?(?:{_MODELS_EN})"
)
_PHONES_EN = (
    r"iPhone|Pixel|Galaxy(?=\s+(?:S|A|Z|Note|Fold|Flip)\w*)|Samsung|Huawei|Xiaomi|Redmi|OnePlus|Motorola|Moto|Nokia|Oppo|Vivo|"
    r"Tecno|Infinix|Fairphone|Nothing\s+Phone"
)
_MODEL_WORDS_EN = r"(?:pro|max|plus|ultra|mini|se|xl|xr|xs|x|fe|lite|fold|flip|note|edge|galaxy)\b"
# a phone by its make and model, the model a number or a model's word ("Pixel 8a", "iPhone X")
_PHONE_EN = rf"(?:{_PHONES_EN})(?:\s+(?:[\w+]{{0,6}}\d[\w+]{{0,6}}|{_MODEL_WORDS_EN})){{0,2}}"
_PHONES_ZH = r"华为|小米|红米|三星|苹果|荣耀|OPPO|oppo|vivo|VIVO|一加|魅族|iPhone|Pixel"
# a phone by its make and model: "华为Mate 60", "三星 S24 FE"
_PHONE_ZH = rf"(?:{_PHONES_ZH})\s?[A-Za-z0-9+]+(?:\s[A-Za-z0-9+]+){{0,2}}"
_MAKES_ZH = (
    r"特斯拉|比亚迪|蔚来|小鹏|问界|极氪|吉利|哈弗|五菱|奇瑞|丰田|本田|日产|马自达|大众|宝马|奔驰|"
    r"奥迪|保时捷|沃尔沃|别克|雪佛兰|福特|起亚|斯柯达|凯迪拉克|路虎|雷克萨斯|领克|零跑|埃安"
)
_MAKES_WITH_MODEL_ZH = r"理想|长安|长城|红旗|现代|坦克|小米"
# Models said alone, with a verb of buying or driving ("最后买了思域", "开帕萨特带全家去海边")
_MODELS_ZH = (
    r"思域|雅阁|凯美瑞|卡罗拉|雷凌|朗逸|速腾|帕萨特|迈腾|宝来|高尔夫|途观|探岳|轩逸|天籁|奇骏|汉兰达|"
    r"普拉多|皓影|冠道|缤智|飞度|捷达|桑塔纳|宏光|君威|君越|昂科威|科鲁兹|蒙迪欧|福克斯|锐界|星越|博越|"
    r"帝豪|瑞虎|途胜|索纳塔|伊兰特|海豹|海豚|汉EV|唐DM|宋PLUS|元PLUS|秦PLUS"
)
_MODEL = r"[A-Za-z0-9][A-Za-z0-9+\-]*(?:\s[A-Z0-9][A-Za-z0-9+\-]*)?"
# a Chinese-named car, by its make or model and the model after it ("卡罗拉", "比亚迪 汉EV"),
# or a make that names a car only with its model ("理想L6")
_CAR_NAMED_ZH = rf"(?:{_MAKES_ZH}|{_MODELS_ZH})(?:\s?{_MODEL})?"
_CAR_ZH = rf"{_CAR_NAMED_ZH}|(?:{_MAKES_WITH_MODEL_ZH}){_MODEL}"
# what a home may be called before its kind ("a tiny two-bed flat"), up to two words
_HOME_SIZE = (
    r"(?:(?:new|tiny|little|small|cute|nice|big|bigger|current|permanent|proper|basement|cramped|"
    r"poky|cosy|cozy|lovely|rented|shared|"
    r"two-bed(?:room)?|one-bed(?:room)?|\d-bed(?:room)?)\s+){0,2}"
)
# A big Chinese city the district table knows, with a district of it after it or not
# ("青岛", "沈阳铁西", "哈尔滨道里区")
_CITY_ZH = "|".join(sorted((c for c in cities() if has_cjk(c)), key=len, reverse=True))
_DISTRICT_ZH = "|".join(sorted((d for d in district_names() if has_cjk(d)), key=len, reverse=True))
_CITY_PART_ZH = rf"(?:{_CITY_ZH})(?:{_DISTRICT_ZH}|[{{CJK}}]{{1,3}}?区)?"
# ... said after "I am in", at a part's opening ("我在", "我现在就在")
_I_AM_IN_ZH = r"(?:^|(?<=[\s，,。！!～~]))我(?:现在|目前|人)?(?:就|也|还)?在"
# ... and what one is there for on a trip ("我在上海出差")
_TRIP_ZH = "出差|旅游|旅行|玩|开会|培训|度假|转机"
# A home of some kind ("a tiny semi", "a sharehouse")
_HOMES_EN = (
    r"(?:place|apartment|flat|sublet|house|condo|studio|townhouse|suite|flat\s?share|"
    r"house\s?share|sharehouse|semi|terrace|bungalow|duplex|loft|cottage|unit|home)"
)
_HOME_AND_WORK: tuple[Attribute, ...] = (
    _a(
        "lives_in",
        r"\b(?:live[sd]?|(?<!for\sa\s)living(?!\s+room)|based|resid\w*|relocat\w*|mov(?:e|ed|ing)|settled|city|town|"
        r"address|hometown|apartment|flat|neighbou?rhood|back\s+home|sublet|lease|condo|studio|"
        r"unpack\w*|flat\s?share|house\s?share|remote(?:ly)?\s+from|from\s+home\s+in|"
        # a home bought or found there ("closed on a condo in Burnaby"), not "home all day"
        # nor "bought an e-bike": these words also say a turn speaks of where one lives
        r"(?:bought|buying|closed\s+on|found|got)\s+(?:a|an|the|our|my)\s+(?:[\w-]+\s+){0,2}"
        r"(?:house|condo|townhouse|suite|flat|apartment|place|home)\s+in)\b|住|搬|定居|安顿|城市|安家|落户|回老家|小区|新家|租了|租在|租的|买了.{0,5}房|公寓|房子在|这边|从.{2,4}(?:开|坐|骑)|(?:来|到|在).{2,6}?(?:待|呆|住)?了?[一两三四五六七八九十半几\d]+个?多?(?:月|年)了|(?:还是|继续|就)在.{2,6}?(?:待着|呆着|住着)|base|\bin\s+\w+(?:\s+\w+)?\s+now\b|\b(?:still|here)\s+in\s+(?-i:[A-Z])"
        rf"|\b(?:still|here|officially|finally)\s+in\s+{PLACE_TYPED}|\bshifted\s+(?:back\s+)?to\b"
        r"|\b(?:officially|finally)\s+in\s+(?-i:[A-Z])"
        r"|\b(?:months?|years?)\s+in\s+\w|\bbeen\s+in\s+\w+(?:\s+\w+)?\s+(?:for\s+)?\w+\s+(?:months?|years?)\b"
        r"|\bback\s+in\s+[^,.;!?]{1,30}\s+for\s+good\b|\bmov(?:ed|ing)\s+into\b|\bstaying\s+in\b"
        r"|\brenting\s+in\b|\b(?:sharehouse|semi|bungalow|terrace|duplex)\s+in\b|\bnew\s+(?:place|home|house)\s+in\b"
        r"|\bsettl(?:ed|ing)\s+in\b|^\W*(?:we['’]re\s+|I['’]m\s+|im\s+)?now\s+in\s"
        rf"|{_I_AM_IN_ZH}(?:{_CITY_ZH})"
        rf"|(?:^|(?<=[\s，,]))(?:{_CITY_ZH})[^\s，,。！!]{{0,4}}的(?=$|[\s，,。！!])"
        rf"|从(?:{_DISTRICT_ZH})",
        (
            en(
                r"\b(?:live|lives|living|lived|reside|resides|residing|resided|settled)\s+"
                r"(?:now\s+|currently\s+|permanently\s+|full[-\s]time\s+)?(?:in|at|outside)\s+{V}"
            ),
            en(r"\bbased\s+(?:in|out\s+of)\s+{V}"),
            # one's new home there: "our new place in Bath has a garden"
            en(
                r"\b(?:my|our)\s+new\s+(?:place|home|house|flat|apartment|condo)\s+in\s+"
                r"(?P<v>(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))\b"
            ),
            en(r"\b(?:working|work|wfh)\s+from\s+home\s+in\s+{V}"),
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
                r"\b(?:we['’]re|we\s+are|I['’]m|I\s+am|im)\s+(?:finally\s+|all\s+)?in\s+"
                r"(?P<v>(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)|(?P<typed>[a-z]{3,15}))"
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
            # "we have shifted to Bengaluru", as Indian English says a move: a known place only
            # (not "shifted to Python")
            en(
                r"\b(?:we|I)\s+(?:have\s+|['’]ve\s+|had\s+)?(?:just\s+|finally\s+|recently\s+|now\s+)?"
                rf"shifted\s+(?:back\s+)?to\s+(?P<v>{KNOWN_PLACE})"
            ),
            # the move said as news, then the place: "moved!! porto is gorgeous" (a clause of
            # news joins the one after it, `encode.rules._with_news`)
            en(
                r"^\W*(?:(?:we|I)\s+(?:finally\s+|officially\s+)?)?(?:moved|relocated)\s*[!.]+\W*"
                r"(?P<v>(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)|"
                rf"{PLACE_TYPED})(?=\s+(?:is|feels|has|was)\b)"
            ),
            # a stretch there so far: "First month in Galway done", "six months in Denver now",
            # "been in Berlin a year now" (not days or weeks: a trip's)
            en(
                r"\b(?:(?:first|1st)\s+(?:month|year)|(?:\d+|a|one|two|three|four|five|six|seven|eight|"
                r"nine|ten|eleven|twelve|few|couple\s+of)\s+(?:months|years|month|year))\s+in\s+"
                rf"(?P<v>{PLACE_TYPED}|(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))"
                r"(?=\s*(?:now|already|done|and|so\s+far|[,!.]))"
            ),
            en(
                r"\bbeen\s+in\s+"
                rf"(?P<v>{PLACE_TYPED}|(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))\s+(?:for\s+)?"
                r"(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple\s+of)\s+"
                r"(?:months|years|month|year)\b"
            ),
            # ... and where in it: "Moved to Cape Town two weeks ago, staying in Observatory"
            en(
                rf"\b{_MOVE_EN}\s+to\s+[^,.;!?]{{1,40}}?,\s*(?:staying|living|based)\s+in\s+"
                r"(?P<v>(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))\b"
            ),
            en(r"\bback\s+in\s+(?P<v>(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))\s+for\s+good\b"),
            # "moved into brixton!!" (not "moved into management"); "so we're staying in Leeds!"
            en(
                r"\b(?:moved|moving)\s+into\s+(?!(?:a|an|the|my|our|his|her|their)\b)"
                rf"(?P<v>{PLACE_TYPED}|(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)|(?P<typed>[a-z]{{3,15}}))"
                r"(?=\s*(?:[!.,]|$|\s+(?:now|finally|last|this|on|in)\b))"
            ),
            en(
                r"\b(?:we['’]re|we\s+are|I['’]m|I\s+am|im)\s+(?:now\s+|just\s+)?staying\s+in\s+"
                rf"(?P<v>{PLACE_TYPED}|(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))"
                r"(?=\s*(?:!|$|,?\s+(?:after\s+all|then|for\s+good|for\s+now|honestly)\b))"
            ),
            en(r"\b(?:home|place)\s+is\s+(?:now\s+)?(?:in\s+)?{V}"),
            en(r"\b(?:new|current)\s+(?:apartment|flat|house|place|home)\s+(?:is\s+)?in\s+{V}"),
            # a home found, rented or bought somewhere: "found a sublet in Södermalm", "signed
            # a lease on a two-bed in Leith", "our apartment in Evanston is tiny"
            en(
                rf"\b(?:found|got|rent|rented|renting|bought|buying|closed\s+on|signed\s+(?:a|the)\s+lease\s+(?:on|for)|"
                rf"moved\s+into|(?:moving|moved|move)\s+(?:out\s+of\s+[^,.;]{{1,30}}?\s+)?into|(?:our|my)|"
                rf"(?:we['’]re|we\s+are|I['’]m|I\s+am|im)\s+(?:now\s+|still\s+)?in|"
                # (lived in: "i live in a tiny flat in hackney")
                rf"(?:live|lives|living)\s+(?:now\s+)?in)\s+"
                rf"(?:(?:a|an|the|this)\s+)?{_HOME_SIZE}{_HOMES_EN}\s+in\s+(?:(?={PLACE_TYPED}))?{{V}}"
            ),
            # renting there, or settling in: "still renting in kitsilano", "settling in grand
            # in Phibsborough"
            en(
                rf"\b(?:renting|settl(?:ed|ing)\s+in(?:\s+(?:really\s+|so\s+|pretty\s+)?"
                rf"(?:well|fine|grand|nicely|ok|okay|great|good))?)\s+in\s+(?:(?={PLACE_TYPED}))?{{V}}"
            ),
            # "now in Peckham sharing with Zara" (not "now in London for the weekend")
            en(
                r"^\W*(?:(?:we['’]re|I['’]m|im)\s+)?now\s+in\s+"
                rf"(?P<v>{PLACE_TYPED}|(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?))"
                r"(?=\s*(?:[,!.]|$|\s+(?:sharing|with|and|living|renting)\b))"
            ),
            en(
                r"\b(?:signed\s+(?:a|the)\s+lease|settl(?:ed|ing)\s+(?:in|into)|unpacked)\s+in\s+{V}"
            ),
            # a room or a share somewhere: "staying in a flatshare in peckham"
            en(
                r"\b(?:staying|living|lodging)\s+in\s+an?\s+(?:[\w-]+\s+)?(?:flat\s?share|house\s?share|"
                r"room|flat|apartment|studio|sublet|condo|house|hostel)\s+in\s+(?P<v>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?|(?P<typed>[a-z]{3,15}))\b"
            ),
            zh(r"住在{V}"),
            # a stretch there since coming: "到苏州一个月了", "来深圳三个月了", "在杭州待了两年了"
            # (not a place of work or study: "到新公司一个月了")
            zh(
                r"(?:^|(?<=[我们\s，,！!～~]))(?:来|到|搬来|搬到)(?!新|这|那)(?P<v>[{CJK}]{2,6}?)"
                r"(?<!公司)(?<!单位)(?<!学校)(?<!医院)(?<!部门)(?:待|呆|住)?了?(?:已经|都|快|才|有)?"
                r"[一两三四五六七八九十半几\d]+个?多?(?:月|年|星期|礼拜)了"
            ),
            zh(
                r"(?:^|(?<=[我们\s，,！!～~]))在(?!新|这|那)(?P<v>[{CJK}]{2,6}?)(?:待|呆|住)了"
                r"(?:已经|都|快|才|有)?[一两三四五六七八九十半几\d]+个?多?(?:月|年|星期|礼拜)"
            ),
            # staying on: "还是在海淀待着吧", "继续在苏州住着" (not at work: "还是在公司待着")
            zh(
                r"(?:还是|继续|就)在(?!新|这|那)(?P<v>[{CJK}]{2,6}?)"
                r"(?<!公司)(?<!单位)(?<!学校)(?<!医院)(?<!宿舍)(?:待着|呆着|住着)"
            ),
            # "住杭州西湖边", "现在还住徐汇": 住 after its subject or an adverb (not 记住, 住院)
            zh(
                r"(?:^|(?<=[我们还也都就仍前直经在，,～~\s！!]))住(?![院宿在了过着下进])(?P<v>[^，。；！？,.;!?\s、]{1,16}?)(?=$|[，。；！？,.;!?\s、]|了|的|，|离|附近|那边|这边)"
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
                r"在{V}(?:租了|买了|租的)(?:个|一个|套|一套|间|一间)?(?:房子?|公寓|[一两三四]居室?|单间|新房|二手房)"
            ),
            zh(r"(?:新家|房子|公寓|住处|新房)(?:就)?在{V}"),
            zh(r"(?:^|(?<=[我们了，,\s]))租在{V}"),
            zh(r"搬进了?(?P<v>[{CJK}]{2,4}?)的?(?:新家|新房|新公寓)"),
            # where we are, said as ours: "我们江宁这边划片的小学一般般" (a place: `finder._typed`)
            zh(r"(?:我们|咱们?)(?P<v>(?P<folk>[{CJK}]{2,3}?))这边"),
            # where one is, or sets off from each day: "我在河西这边", "每天从望京开车去公司"
            zh(
                r"我(?:家|住|现在|目前)?在(?!公司|单位|学校|医院|店|办公室|家|工地|厂)(?P<v>[{CJK}]{2,4}?)这边"
                r"(?!上班|工作|出差|开会|做|当|写|干|实习)"
            ),
            zh(
                r"(?:每天|天天)从(?P<v>[{CJK}]{2,4}?)(?:开车|开|坐|骑|走|打车)[^，。；！？]{0,6}?(?:去|到)(?:公司|上班|单位)"
            ),
            # a big city one is in, alone or with what one does there: "我在青岛，这边…", "我在
            # 南京上班" (not on a trip: "我在上海出差")
            zh(
                rf"{_I_AM_IN_ZH}(?P<v>{_CITY_PART_ZH})(?=$|[\s，,。！!～~…]|(?!{_TRIP_ZH})"
                r"[{CJK}]{0,2}?(?:这边|那边|生活|住|上班|工作|教书|读书|上学))"
            ),
            # ... the city only where one runs a business there, which the district names
            # ("我在长沙坡子街开了个湘菜馆": home is in 长沙, not on its street)
            zh(
                rf"{_I_AM_IN_ZH}(?P<v>{_CITY_ZH})(?!{_TRIP_ZH})[{{CJK}}]{{0,4}}?"
                r"(?:开出租|开店|开了|摆摊)"
            ),
            # ... or a district one sets off from for work: "从酒仙桥骑电动车到公司就十分钟"
            zh(
                rf"从(?P<v>{_DISTRICT_ZH})(?:开车|开|坐|骑|走|打车)[^，。；！？]{{0,6}}?(?:去|到)"
                r"(?:公司|上班|单位)"
            ),
            # ... or one says they are from as they give their name: "我叫郭丽 哈尔滨道里区的"
            zh(
                r"(?:我叫|我是)[{CJK}]{2,3}[\s，,]+"
                rf"(?P<v>{_CITY_PART_ZH})的(?=$|[\s，,。！!])"
            ),
        ),
        ("{s} lives in {v}.", "{s}住在{v}。"),
        ends=(en(r"\bmoved\s+(?:out\s+of|away\s+from)\s+{V}"), zh(r"(?:搬离|离开)(?:了)?{V}")),
    ),
    *WORK,
    _a(
        "studies_at",
        r"\b(?:school|college|university|study|studying|studies|attend\w*|enrolled|transfer\w*|"
        r"kindergarten|campus|elementary|academy|high\s+school|goes\s+to|phd|ph\.d|masters?|"
        r"(?:first|second|third|fourth|fifth|final|\d(?:st|nd|rd|th))[-\s]year|"
        r"msc|mba|undergrad|postgrad|student)\b|\bgot\s+into\s+(?-i:[A-Z])"
        r"|学校|大学|上学|读书|就读|转学|幼儿园|小学|中学|高中|附中|读研|读博|读硕|本科|研究生|考上",
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
            # (a post passed into is no school: "考上教师编了", "考上公务员")
            zh(
                r"(?:就读于|转学到|转到|考上了?|进了)(?![^，。；！？\s]{0,4}(?:编|公务员|选调生)){V}"
            ),
        ),
        ("{s} studies at {v}.", "{s}在{v}上学。"),
        nouns=("school college university kindergarten", "学校 大学 幼儿园"),
    ),
    _a(
        "grade",
        r"\b(?:grade|year|class|freshman|sophomore|junior|senior)\b|年级|初[一二三]|高[一二三]|大[一二三四]",
        (
            en(
                r"\b(?:in|into|starts?|starting|started|entered|entering)\s+(?:the\s+)?"
                r"(?P<v>(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                r"eleventh|twelfth|\d{1,2}(?:st|nd|rd|th))\s+grade)\b"
            ),
            en(r"\b(?:in|into)\s+(?P<v>(?:year|grade)\s+\d{1,2})\b"),
            # (not a measure: "比我高一截", "大一点", "大一号"; nor a day: 大年初一, 初一那天; nor
            # what a year's work is: "出几道初二的作文题目", "高二电学部分的知识点", nor a class
            # one teaches, "今年带高三", though "大四的学生" is one)
            zh(
                r"(?<![带教])(?P<v>[一二三四五六七八九1-9]年级|(?<![年月])初[一二三](?![号日那])|"
                r"(?:高[一二三]|大[一二三四])(?![截点些倍等筹头分米度号圈码岁轮])|研[一二三])"
                r"(?!的(?!学生|时候)[^\s，。；！？,.;!?]|上册|下册|"
                r"(?:语文|数学|英语|物理|化学|生物|历史|地理|政治|电学|力学|作文|课本|教材|试卷|"
                r"知识点|单词|课文))"
            ),
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
        r"\b(?:traded|trading|trade[-\s]in|leased|car|drive|drives|driving|vehicle|suv|sedan|ev|truck|motorbike|motorcycle|scooter)\b|(?<![停堵打坐火])车(?![位库险费站程票道厢])|辆|开(?=的是|着|上了|了?一?[辆台]|起来)"
        rf"|\b(?-i:{_MAKES_EN})(?:\b|\d)|\b(?:{_MODELS_EN})\b|{_MAKES_ZH}|{_MODELS_ZH}|提车|换车|提了(?=[A-Za-z])"
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
                r"\b(?:traded|trading|trade)\s+(?:in\s+)?(?:my\s+|our\s+|the\s+)?[^,.;]{1,40}?\s+for\s+"
                r"(?:an?\s+|the\s+)?{V}"
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
            # ... any model, counted as a vehicle is (辆): "买了辆二手吉姆尼"
            zh(
                r"(?:买了|换了|提了|入手了?)一?辆(?:二手的?|新的?)?(?![车的])"
                r"(?P<v>[\u4e00-\u9fff]{2,5}?)(?<!的)(?=[\s，。；！？,.;!?~～]|$|通勤|上班|代步)"
            ),
            # one car swapped for another: "swapped the old hilux for a Ford Ranger"
            en(
                r"\b(?:swapped|traded(?:\s+in)?|exchanged|replaced)\s+(?:the|my|our)\s+(?:old\s+)?"
                r"[\w-]+(?:\s+[\w-]+)?\s+(?:for|with)\s+(?:an?\s+|the\s+)?(?:new\s+|used\s+)?"
                r"(?P<v>(?-i:[A-Z][\w-]*)(?:\s+(?-i:[A-Z0-9])[\w-]*){0,2})"
            ),
            zh(
                r"(?:买了|提了|换了|换成了?|入手了?|开(?:着|的是|了)?)(?:一辆|辆|台)?(?:新的|二手的?)?"
                rf"(?P<v>(?:{_MODELS_ZH})(?:\s?[A-Za-z0-9]+)?)"
            ),
            # a car delivered: "we have taken delivery of a Toyota Yaris", "took delivery of the
            # EV on Friday"
            en(
                r"\b(?:took|taken|taking|take)\s+delivery\s+of\s+(?:an?\s+|the\s+|our\s+|my\s+)?"
                r"(?:new\s+)?{V}"
            ),
            # a make names the car: "picked up a used Skoda Octavia", "换了台特斯拉Model Y"
            en(
                r"\b(?:bought|buying|got|picked\s+up|leased|purchased|traded\s+(?:it\s+)?(?:in\s+)?for)\s+"
                r"(?:an?\s+|the\s+|our\s+|my\s+|one\s+)?(?:(?:new|used|second[-\s]hand|secondhand|"
                rf"electric|little)\s+){{0,2}}{_YEAR}(?P<v>{_CAR_EN})\b"
            ),
            zh(
                r"(?:买了|换了|提了|入了|开上了|开的是|开着|开(?:了)?一?(?:辆|台))(?:一辆|辆|一台|台)?"
                r"(?:二手的?|新的?)?"
                rf"(?P<v>(?:{_MAKES_ZH})(?:\s?{_MODEL}|(?:[\u4e00-\u9fff]{{1,2}}(?:\s?{_MODEL})?)??)|(?:{_MAKES_WITH_MODEL_ZH}){_MODEL})"
                # (or how long ago: "提了理想L7一个月了")
                r"(?=$|了|[，。；！？,.;!?、\s]|[一两三四五六七八九十半几\d]+个?多?(?:月|年|星期|周|天))"
            ),
            # a car one has: "we have a Subaru Outback w/ snow tires", "I own a 2012 Mazda 2"
            en(
                r"\b(?:I|we)\s+(?:still\s+|now\s+|also\s+)?(?:have|own|got)\s+(?:an?\s+|the\s+)?"
                rf"(?:(?:old|new|used|little)\s+)?{_YEAR}(?P<v>{_CAR_EN})\b"
            ),
            # a car bought, then named: "bought a car last week, Kia Picanto", "got our first
            # car - a 2014 Honda Jazz"
            en(
                r"\b(?:bought|got|picked\s+up|leased|purchased)\s+(?:a|our|my)\s+(?:(?:new|used|first|"
                r"second[-\s]hand)\s+)?car\b[^.;!?]{0,40}?(?:[,:]|\s[—–-])\s*(?:an?\s+|the\s+)?"
                rf"(?:(?:new|used|second[-\s]hand)\s+)?{_YEAR}(?P<v>{_CAR_EN})\b"
            ),
            # a car of one's own by its make: "my Fiat 500 is packed", "my Mazda3 died"
            en(
                r"\b(?:my|our)\s+(?:old\s+|new\s+|little\s+|trusty\s+)?"
                rf"{_YEAR}(?P<v>(?-i:{_MAKES_EN})(?:\d\w*)?(?:\s+(?-i:[A-Z0-9])[\w-]*){{0,2}}"
                # (a make typed in lower case before its model: "my honda civic")
                rf"|(?:(?:{_MAKES_EN})\s+)?(?:{_MODELS_EN}))\b"
            ),
            zh(
                r"(?:开(?:了)?一?(?:辆|台)|(?:买|换|提|入)(?:了)?一?辆)(?:二手的?|新的?)?"
                r"(?P<v>[A-Za-z][A-Za-z0-9 +\-]{1,20}?)(?=$|[，。；！？,.;!?、])"
            ),
            # a car by its model, picked up or changed to: "提了Model Y", "POLO提车一个月了",
            # "终于换车了！理想L6"
            zh(rf"(?:提了|提的是|换车了?[！!，,～~\s]*)(?:一?辆|台)?(?P<v>{_CAR_EN}|{_CAR_ZH})"),
            zh(
                rf"(?:^|(?<=[\s，,。！!]))(?P<v>{_CAR_EN}|(?-i:[A-Z]{{2,8}})|{_CAR_NAMED_ZH})"
                r"提车(?:了|快|将近|差不多)?"
            ),
            # a car driven somewhere: "每天开理想L6去天河上班"
            zh(
                rf"开(?P<v>{_CAR_ZH})"
                r"(?:去|上班|回|来|送)"
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
            # (not what it sold for: "卖了三万二")
            zh(r"(?:卖了|卖掉了?)(?:我的|家里的)?(?![一二三四五六七八九十两几半\d]){V}"),
            # a car that died, was written off or stolen: "my old Corolla finally died",
            # "RIP my Altima", "朗逸报废了", "把卡罗拉卖了"
            en(
                # (not a part of it: "the AC in the Civic died")
                r"(?<!\bin\s)(?<!\bof\s)(?<!\bon\s)(?<!\bfor\s)(?<!\bwith\s)(?<!\bfrom\s)"
                rf"\b(?:my|our|the)\s+(?:(?:old|trusty|poor|beloved)\s+){{0,2}}{_YEAR}(?P<v>{_CAR_EN})"
                r"\s+(?:(?:has|had|just|officially|totally|completely|also|literally|then)\s+)*"
                # (for good: a car that "died on the motorway" broke down, and may be driven
                # again)
                r"(?:finally\s+(?:died|gave\s+up|packed\s+(?:in|up))|(?:died|gave\s+up)\s+for\s+good|"
                r"gave\s+up\s+the\s+ghost|(?:got|was|been)\s+(?:written\s+off|totall?ed|stolen|scrapped)|"
                r"is\s+(?:dead|gone|toast|written\s+off|totall?ed))\b"
            ),
            en(
                r"\b(?:RIP|scrapped|wrote\s+off|totall?ed)\s+(?:my|our|the)\s+"
                rf"(?:(?:old|trusty|poor|beloved)\s+){{0,2}}{_YEAR}(?P<v>{_CAR_EN})\b"
            ),
            zh(
                rf"(?P<v>(?:{_MAKES_ZH}|{_MODELS_ZH})[A-Za-z0-9]*)"
                r"(?:上个?月|上周|前几天|前天|昨天|去年|今年|彻底|终于|直接|也|已经)*"
                r"(?:报废了|被偷了|送人了|卖掉了|卖了(?![一二三四五六七八九十两几半\d]))"
            ),
            zh(
                rf"把(?:我的|家里的|我那辆|那辆)?(?P<v>(?:{_MAKES_ZH}|{_MODELS_ZH})[A-Za-z0-9]*)"
                r"(?:给)?(?:卖了|卖掉了|报废了|送人了)"
            ),
        ),
    ),
    _a(
        "phone",
        rf"\b(?:phone|cellphone|smartphone|mobile|iphone|pixel|android|galaxy)\b|手机|\b(?-i:{_PHONES_EN})\b"
        rf"|(?:{_PHONES_ZH})\s?[A-Za-z0-9]",
        (
            # one's own by its make, or one got: "my iphone 13 screen cracked", "still on my
            # old nokia phone", "got a Pixel 8 on contract"
            en(
                r"\b(?:(?:my|our)\s+(?:old\s+|new\s+|trusty\s+|ancient\s+|cracked\s+)?|"
                r"(?:got|bought|ordered|using)\s+(?:an?\s+|the\s+)?(?:new\s+|used\s+|refurbished\s+)?)"
                # (its model a number or a model's word, not what it did: "my Pixel died")
                rf"(?P<v>{_PHONE_EN})\b"
            ),
            en(
                r"\b(?:switched|moved|changed)\s+(?:over\s+)?(?:from\s+[^,.;]{1,30}?\s+)?to\s+(?:an?\s+)?"
                r"(?P<v>(?:iPhone|Pixel|Galaxy|Android|Samsung|Huawei|Xiaomi|OnePlus)[\w\s-]{0,20}?)"
                r"(?=\s*[,.;!?]|\s+(?:phone|now|last|this|yesterday|and|but)\b|$)"
            ),
            zh(r"(?:换了|买了|用上了|入手了)(?:一部|一台|部|台)?(?:新)?{V}(?:手机)"),
            zh(
                r"换了?(?:个|部|台)?(?:新)?手机[\s，,！!]*"
                rf"(?P<v>{_PHONE_ZH})"
            ),
            # a phone by its make and model, got or in use: "换了华为Mate 60", "买了三星 S24 FE",
            # "现在用vivo X200"
            zh(
                r"(?:换了|换成了?|买了|用上了|入手了|(?:现在|目前|改)用|用的是|(?:新|这次)?(?:买|换)的(?:是)?)"
                r"(?:一部|一台|一个|部|台|个)?(?:新的?)?"
                rf"(?P<v>{_PHONE_ZH})"
            ),
        ),
        ("{s}'s phone is {v}.", "{s}的手机是{v}。"),
        nouns=("phone cellphone smartphone mobile", "手机"),
        # a phone that died, was stolen or sold: "my Pixel finally died", "iPhone被偷了"
        ends=(
            en(
                rf"\b(?:my|our)\s+(?:old\s+|trusty\s+|poor\s+)?(?P<v>{_PHONE_EN})\s+"
                r"(?:(?:has|just|finally|officially|totally|completely)\s+)*"
                r"(?:died|(?:got|was|been)\s+(?:stolen|nicked|bricked)|is\s+(?:dead|gone|bricked)|"
                r"stopped\s+working|gave\s+up)\b"
            ),
            en(
                rf"\bsold\s+(?:my|our)\s+(?:old\s+)?(?P<v>(?:{_PHONES_EN})(?:\s+[\w+]{{0,6}}\d[\w+]{{0,6}})?)"
            ),
            zh(
                rf"(?P<v>{_PHONE_ZH}|(?:{_PHONES_ZH}))(?:手机)?(?:彻底|终于|已经)?(?:坏了|被偷了|丢了|卖了|报废了)"
            ),
        ),
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
