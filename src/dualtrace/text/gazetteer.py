"""Word lists behind the rule-based entity extractor in `dualtrace.text.entities`.

Every English entry is stored casefolded so lookups can use `word.casefold()` directly. The
lists are deliberately compact: they cover the names and places that come up in everyday
conversations, not an encyclopaedia. A miss only costs a coarser type ("other" instead of
"place"), never a lost mention, so breadth matters less than avoiding wrong entries.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    """A casefolded set of the whitespace-separated words in `text`."""
    return frozenset(text.casefold().split())


def _phrases(text: str) -> frozenset[str]:
    """A casefolded set of the `;`-separated (possibly multiword) phrases in `text`."""
    return frozenset(" ".join(p.split()) for p in text.casefold().split(";") if p.strip())


FIRST_NAMES = _words(
    """aaron abby abigail adam adrian aiden alan albert alex alexa alexander alexis alice alicia
    alison allison amanda amber amelia amy andrea andrew andy angela angie anna anne annie
    anthony antonio ariana arthur ashley audrey austin ava barbara becky ben benjamin beth
    betty bill billy blake bob bobby brad bradley brandon brenda brian brittany brooke bruce
    bryan caitlin caleb calvin cameron carl carla carlos carol caroline carolyn carrie
    catherine charles charlie charlotte chelsea chloe chris christian christina christine
    christopher cindy claire clara colin connor craig crystal cynthia daisy dan daniel danielle
    danny dave david dawn deborah debbie debra dennis derek diana diane dominic donald donna
    doris dorothy doug douglas dylan ed eddie edward eleanor elena eli elijah elizabeth ella
    ellen emily emma eric erica erin ethan eva evan evelyn frank fred gabriel gabriella gary
    george gina grace greg gregory hailey hannah harold harry heather helen henry holly ian
    isaac isabel isabella jack jackie jacob jake james jamie jane janet jason jasmine jay jeff
    jeffrey jen jenna jennifer jenny jeremy jerry jess jessica jill jim jimmy jo joan joanna
    joe joel john johnny jon jonathan jordan jose joseph josh joshua joy joyce judy julia
    julian julie justin karen kate katherine kathy katie kayla keith kelly ken kenneth kevin
    kim kyle laura lauren leah lee leo liam lily linda lisa liz logan lucas lucy luis luke
    lydia madison maggie mandy marcus margaret maria mariah marie mark martha martin mary
    matt matthew max maya megan mel melanie melissa mia michael michelle mike molly monica
    nancy naomi natalie nate nathan nick nicole noah olivia oscar owen pam pamela patricia
    patrick paul paula peter phil philip rachel ralph randy ray rebecca richard rick rob
    robert robin roger ron ronald rose ruby russell ruth ryan sally sam samantha samuel sandra
    sara sarah scott sean sharon shawn simon sofia sophia sophie stephanie stephen steve
    steven sue susan tammy taylor ted teresa terry thomas tim timothy tina todd tom tommy
    tony tracy travis tyler valerie vanessa victor victoria vincent walter wayne wendy will
    william xavier zach zachary zoe jolene deb nina vera ivan omar ali priya raj wei ming
    lin mei yan hui jun hao"""
)

# Common Chinese surnames in pinyin: a span starting with one ("Zhang Wei") is a person.
PINYIN_SURNAMES = _words(
    """wang li zhang liu chen yang zhao huang zhou wu xu sun hu zhu gao lin he guo ma luo
    liang song zheng xie han tang feng deng cao peng zeng xiao tian dong pan yuan cai jiang
    yu du ye cheng wei su lu ding ren shen yao jin cui qian"""
)

COUNTRIES = _phrases(
    """afghanistan; albania; algeria; argentina; armenia; australia; austria; bangladesh;
    belgium; bolivia; brazil; bulgaria; cambodia; cameroon; canada; chile; china; colombia;
    costa rica; croatia; cuba; cyprus; czech republic; czechia; denmark; dominican republic;
    ecuador; egypt; england; estonia; ethiopia; fiji; finland; france; germany; ghana; greece;
    guatemala; haiti; honduras; hungary; iceland; india; indonesia; iran; iraq; ireland;
    israel; italy; jamaica; japan; jordan; kazakhstan; kenya; korea; south korea; north korea;
    kuwait; laos; latvia; lebanon; lithuania; luxembourg; malaysia; maldives; malta; mexico;
    mongolia; morocco; myanmar; nepal; netherlands; holland; new zealand; nigeria; norway;
    pakistan; panama; peru; philippines; poland; portugal; qatar; romania; russia; rwanda;
    saudi arabia; scotland; senegal; serbia; singapore; slovakia; slovenia; south africa;
    spain; sri lanka; sweden; switzerland; syria; taiwan; tanzania; thailand; tunisia; turkey;
    uganda; ukraine; united arab emirates; united kingdom; great britain; britain;
    united states; united states of america; america; uruguay; venezuela; vietnam; wales;
    zambia; zimbabwe; europe; asia; africa; antarctica; north america; south america"""
)

US_STATES = _phrases(
    """alabama; alaska; arizona; arkansas; california; colorado; connecticut; delaware;
    florida; georgia; hawaii; idaho; illinois; indiana; iowa; kansas; kentucky; louisiana;
    maine; maryland; massachusetts; michigan; minnesota; mississippi; missouri; montana;
    nebraska; nevada; new hampshire; new jersey; new mexico; new york; north carolina;
    north dakota; ohio; oklahoma; oregon; pennsylvania; rhode island; south carolina;
    south dakota; tennessee; texas; utah; vermont; virginia; washington; west virginia;
    wisconsin; wyoming"""
)

CITIES = _phrases(
    """new york city; los angeles; san francisco; chicago; houston; phoenix; philadelphia;
    san antonio; san diego; dallas; austin; seattle; boston; denver; atlanta; miami; orlando;
    las vegas; portland; detroit; nashville; new orleans; minneapolis; baltimore; pittsburgh;
    cleveland; sacramento; san jose; honolulu; salt lake city; kansas city; st louis;
    washington dc; brooklyn; manhattan; queens; toronto; vancouver; montreal; ottawa;
    calgary; mexico city; havana; rio de janeiro; sao paulo; buenos aires; lima; bogota;
    santiago; london; manchester; liverpool; edinburgh; glasgow; dublin; paris; lyon;
    marseille; nice; berlin; munich; hamburg; frankfurt; cologne; amsterdam; rotterdam;
    brussels; zurich; geneva; vienna; prague; budapest; warsaw; krakow; copenhagen;
    stockholm; oslo; helsinki; reykjavik; madrid; barcelona; seville; valencia; lisbon;
    porto; rome; milan; venice; florence; naples; athens; istanbul; moscow;
    st petersburg; kyiv; kiev; cairo; marrakech; casablanca; nairobi; lagos; cape town;
    johannesburg; dubai; abu dhabi; doha; tel aviv; jerusalem; tehran; mumbai; delhi;
    new delhi; bangalore; kolkata; chennai; karachi; lahore; dhaka; kathmandu; bangkok;
    chiang mai; phuket; hanoi; ho chi minh city; singapore; kuala lumpur; jakarta; bali;
    manila; tokyo; osaka; kyoto; seoul; busan; taipei; hong kong; macau; beijing; shanghai;
    hangzhou; shenzhen; guangzhou; chengdu; chongqing; nanjing; wuhan; xi'an; xian; suzhou;
    tianjin; qingdao; xiamen; dalian; kunming; changsha; harbin; shenyang; sanya; lhasa;
    guilin; ningbo; hefei; zhengzhou; jinan; fuzhou; sydney; melbourne; brisbane; perth;
    adelaide; auckland; wellington;
    birmingham; leeds; bristol; sheffield; newcastle; nottingham; leicester; cardiff; belfast;
    brighton; oxford; cambridge; southampton; aberdeen; galway; limerick; bengaluru; pune;
    hyderabad; ahmedabad; jaipur; lucknow; kochi; gurgaon; gurugram; noida; antwerp; ghent;
    utrecht; eindhoven; the hague; gothenburg; malmo; malmö; aarhus; tallinn; riga; vilnius;
    bucharest; belgrade; zagreb; ljubljana; bratislava; salzburg; innsbruck; stuttgart;
    dusseldorf; düsseldorf; dresden; leipzig; bologna; turin; genoa; palermo; bilbao; malaga;
    granada; bordeaux; toulouse; strasbourg; nantes; lille; montpellier; basel; lausanne;
    oakland; berkeley; columbus; cincinnati; indianapolis; milwaukee; raleigh; tampa;
    jacksonville; omaha; tucson; albuquerque; boise; spokane; anchorage; edmonton; winnipeg;
    quebec city; yokohama; nagoya; sapporo; fukuoka; incheon; daegu; saigon; da nang; penang;
    cebu; colombo; islamabad; riyadh; jeddah; muscat; amman; beirut; baku; tbilisi; yerevan;
    almaty; tashkent; wuxi; nanning; guiyang; taiyuan; shijiazhuang; lanzhou; urumqi;
    changchun; nanchang; zhuhai; dongguan; foshan; canberra; hobart; gold coast; christchurch;
    dunedin; queenstown; accra; addis ababa; dar es salaam; kampala; kigali; durban; pretoria;
    tunis; medellin; medellín; cartagena; quito; montevideo; cusco"""
)

# Regions and landmarks in the same spirit: always places wherever they appear.
REGIONS = _phrases(
    """hawaii; bali; tibet; yunnan; sichuan; guangdong; zhejiang; jiangsu; fujian; hainan;
    siberia; scandinavia; caribbean; middle east; midwest; silicon valley; bay area;
    yellowstone; yosemite; grand canyon; niagara falls; west lake; great wall; bund"""
)

PLACES = COUNTRIES | US_STATES | CITIES | REGIONS

# Upper-case abbreviations of places: these are places, not organisations.
PLACE_ACRONYMS = _words("nyc la sf uk usa us uae eu dc hk prc nz")

# A final word that makes a name a place on its own ("Grand Canyon", "Lake District").
PLACE_SUFFIXES = _words(
    """canyon mountains mountain lake lakes beach river island islands falls valley bay county
    province coast peninsula desert forest harbor harbour"""
)
# Final words that name places only in a locative context ("in Central Park", not "Jurassic
# Park"; "near Union Square", not "Square Enix").
WEAK_PLACE_SUFFIXES = _words(
    "city park street avenue road square town village district boulevard plaza heights"
)
PLACE_PREFIXES = _words("lake mount mt fort port cape isle")
LOCATIVE_WORDS = _words("in to from at near around through visit visited visiting toward")

ORG_SUFFIXES = _words(
    """inc corp corporation company co ltd llc plc university college school hospital clinic
    bank group club foundation center centre museum institute academy church library society
    association agency studio studios labs lab team council committee ministry department
    charity network restaurant cafe bakery"""
)
# Heads that make "<Head> of <X>" an organisation ("University of Toronto", "Bank of America").
ORG_HEADS = _words(
    """university college bank museum institute school academy church department ministry
    society association league federation council"""
)
KNOWN_ORGS = _phrases(
    """google; apple; microsoft; amazon; meta; facebook; instagram; twitter; netflix; spotify;
    youtube; tiktok; openai; nvidia; intel; ibm; oracle; adobe; salesforce; uber; lyft; airbnb;
    tesla; byd; nio; xpeng; toyota; honda; ford; bmw; audi; volkswagen; mercedes; samsung;
    sony; nintendo; huawei; xiaomi; lenovo; alibaba; tencent; baidu; bytedance; jd; meituan;
    starbucks; mcdonald's; walmart; costco; target; ikea; nike; adidas; disney; pixar;
    harvard; stanford; yale; princeton; oxford; cambridge; berkeley; red cross; unicef;
    nasa; fbi; cia; nhs; un; who"""
)
# Brand-led product lines: a name starting with one of these is a product ("iPhone 15 Pro").
PRODUCT_LINES = _words("iphone ipad macbook imac airpods kindle playstation xbox thinkpad")
# Words before a name with a model number that make it a product ("my new Pixel 8").
PRODUCT_DETERMINERS = _words("a an my his her our their your new")
# Words before a bare brand that make it a product ("a Tesla", "a new Tesla"), not the firm.
BRAND_DETERMINERS = _words("a an new")
# Verbs before "at"/"for" that make the next name an employer ("works at Google").
WORK_WORDS = _words("work works worked working job jobs intern interned interning employed")

TITLES = _words("mr mrs ms miss dr prof sir madam")
# Lower-case words allowed inside a name ("Bank of America", "Johnson & Johnson").
CONNECTORS = _words("of de du da del van von the &")

# Never (part of) an entity: dates are handled by the time parser, the rest are not names.
NEVER_ENTITY = _words(
    """monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur
    thurs fri sat january february march april may june july august september october
    november december feb apr jun jul aug sep sept oct nov dec i i'm i've i'd i'll im ive
    mom mum dad mommy mummy daddy mama papa grandma grandpa granny nana god omg lol ok okay"""
)
# Upper-case words that are chat shorthand or units, not organisations.
STOP_ACRONYMS = _words(
    """ok omg lol lmao rofl btw fyi idk tbh imo imho asap diy tv pc am pm ps id aka etc faq
    usb gps pdf bbq vip atm ceo cfo cto hr it ai ui ux diy tl dr fomo yolo jk irl nope yes
    no wow hey hi"""
)

# Greetings and interjections: dropped from the front of a name anywhere ("Hey Mel").
INTERJECTIONS = _words(
    """hey hi hello hiya howdy yo thanks thank thx ty wow whoa oh ooh aw aww ah ahh yeah yea
    yep yes no nah nope ok okay omg lol haha hahaha hehe hmm um uh congrats congratulations
    cheers bye goodbye dear please sorry sure great good nice awesome cool amazing wonderful
    perfect absolutely definitely totally exactly indeed welcome happy merry btw fyi idk tbh
    imo imho lmao rofl jk np ikr"""
)
# Words that commonly open a sentence: at sentence start they do not begin a name.
SENTENCE_STARTERS = _words(
    """a an the this that these those there here it its it's i we you he she they me us
    him her them my our your his their what what's which who whom whose when where why how
    that's there's here's let's if so but and or nor yet also then now just still even
    maybe perhaps actually really honestly basically anyway anyways well oh yes no not
    never always sometimes often usually today tonight tomorrow yesterday recently lately
    last next this every each all both some many most few any much more less after before
    since during while until once again as at by for from in into of on to with without
    about above over under between through do does did don't didn't doesn't is are was
    were be been being am can can't could couldn't will won't would wouldn't should
    shouldn't must might may have has had having get got go going went gone come came
    make made take took see saw look looks looking sounds sound seems seem feel feels felt
    love loved like liked hope hoped think thought know knew glad sorry thanks thank
    speaking talking guess wish need want wanted tell told remember let try tried keep
    kind sort lots such same other another something anything nothing everything
    someone anyone everyone nobody somebody everybody yours mine ours theirs hers
    whatever whenever wherever however although though because unless whether
    definitely totally absolutely exactly certainly sure true right wait anyway first
    second finally plus besides speaking overall luckily unfortunately fortunately
    sadly hopefully apparently obviously clearly seriously literally especially mostly
    nice great good cool awesome amazing wonderful beautiful lovely fantastic gonna wanna
    gotta lemme dunno kinda sorta"""
)

# --- Chinese -------------------------------------------------------------------------------

# jieba's part-of-speech flags that name things, and the type each gives.
ZH_FLAG_TYPES = {
    "nr": "person",
    "nrfg": "person",
    "nrt": "person",
    "ns": "place",
    "nt": "org",
    "nz": "other",
    "ORG": "org",  # not jieba's: the extractor's flag for a company in ZH_ORGS
}
# A number followed by one of these is a quantity or a date ("2023年"), not a model name.
ZH_UNITS = frozenset("年月日号点岁个万元块次天周分秒")

# Companies that jieba's dictionary mis-tags (阿里巴巴 as a person) or splits (字节 跳动).
ZH_ORGS = frozenset(
    """阿里巴巴 阿里 腾讯 华为 比亚迪 百度 京东 小米 字节跳动 美团 拼多多 网易 蔚来 小鹏
    理想汽车 吉利 联想 海尔 格力 特斯拉 谷歌 微软 亚马逊 星巴克 麦当劳 肯德基 苹果公司
    滴滴 携程 淘宝 支付宝 微信 抖音 快手 大疆 中兴 奔驰 宝马 丰田 本田 大众 迪士尼""".split()
)
# Words that end an organisation name; merged onto the tagged word before them.
ZH_ORG_SUFFIXES = frozenset(
    """公司 集团 大学 学院 医院 银行 学校 中学 小学 幼儿园 研究所 研究院 博物馆 图书馆
    实验室 工作室 俱乐部 协会 基金会 事务所 餐厅 酒店""".split()
)
ZH_SURNAMES = frozenset(
    "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢"
    "蒋蔡贾丁魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟"
    "龙万段雷钱汤尹黎易常武乔贺赖龚文"
)
ZH_COMPOUND_SURNAMES = frozenset("欧阳 司马 诸葛 上官 东方 皇甫 令狐 慕容 司徒 夏侯 公孙".split())
# Everyday words that jieba's dictionary tags as names (nr/ns/nz…): never entities.
ZH_NOT_ENTITIES = frozenset(
    """明白 武功 文明 阳光 道德 卫星 荣誉 古老 小姐 和尚 陆军 雷达 太后 王朝 城市 东西 爱国
    英雄 太阳 海洋 哥哥 平原 外国 南北 东南 西北 西南 二人 令人 登基 崇拜 多谢 大王 保姆
    崇高 威武 家里人 豪杰 约莫 科普 百科 和平 普通 换 论文 汇报 通讯 精华 中毒 奇特 抗议
    大战 正文 申报 恒星 天文 家族 共和 胡说 祥和 高高的 庄稼人 老成 陈说 贞洁 庄稼汉 老公
    阿姨 宝宝 国际化 中南部 交易所 英语 英文 中文 汉语 汉字 宝贝 帅哥 美女 老乡 连 金""".split()
)

# --- Aliases -------------------------------------------------------------------------------

# Words skipped when taking a name's initials ("Massachusetts Institute of Technology": MIT).
INITIALS_SKIP = _words("of the and & de")
# Names that always denote the same entity, whichever one a user happens to write.
ALIAS_SETS: tuple[frozenset[str], ...] = (
    frozenset({"nyc", "new york", "new york city", "纽约", "纽约市"}),
    frozenset({"la", "los angeles", "洛杉矶"}),
    frozenset({"sf", "san francisco", "旧金山"}),
    frozenset({"uk", "united kingdom", "britain", "great britain", "英国"}),
    frozenset({"usa", "us", "united states", "united states of america", "america", "美国"}),
    frozenset({"北京", "北京市", "beijing"}),
    frozenset({"上海", "上海市", "shanghai"}),
    frozenset({"杭州", "杭州市", "hangzhou"}),
    frozenset({"深圳", "深圳市", "shenzhen"}),
    frozenset({"广州", "广州市", "guangzhou"}),
    frozenset({"成都", "成都市", "chengdu"}),
    frozenset({"香港", "hong kong", "hk"}),
    frozenset({"中国", "china", "prc"}),
    frozenset({"东京", "tokyo"}),
    frozenset({"伦敦", "london"}),
    frozenset({"巴黎", "paris"}),
)
