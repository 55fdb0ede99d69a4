"""The attributes of a person's work, in English and Chinese: where one works (`works_at`),
as what (`occupation`), on which team (`department`) and for whom (`manager`); a job left
without naming it ends the employer and the role held in it (see `catalogue.py` for how an
attribute is described)."""

from __future__ import annotations

from dualtrace.text.sentences import EMOJI
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.frames import GIVEN_EN, NAMED_AS_EN, SCHOOL_ZH, en, zh
from dualtrace.text.slots.names import introduction

# A role ("nurse", "UX designer", "data scientist"): up to two words (or initials) before one
# that names a trade, none of them a word that goes on with something else.
_TRADE_EN = (
    r"(?:(?:(?!(?:and|or|but|at|in|on|for|with|who|from|of)\s)(?:[a-z-]+|[A-Z]{2,4})\s+){0,2}"
    # (a diet or a faith that ends like a trade is none: "basically a pescatarian")
    r"(?!(?:vegetarian|pescatarian|flexitarian|christian|libertarian|(?:non-?|ex-?)?smoker|"
    r"(?:non-?|ex-?)?drinker|beginner|newcomer|foreigner|believer|lurker|"
    # (nor one who belongs to something or does it for fun: "a member of the club", "a big
    # reader", "a keen runner")
    r"member|reader|runner|swimmer|walker|hiker|climber|gamer|lover|eater|sleeper|user|"
    r"customer|follower|supporter|"
    # (nor a word that only ends like one: "a nurse educator for the ICU")
    r"for|nor|or|ever|never|over|after|under|other|either|neither|whether|rather|later|"
    r"together|her|per|sooner|faster|better|longer)\b)"
    r"(?:[a-z-]*(?:er|or|ist|ian|ant|ent|ect|eer|ive|ager|nurse|doctor|chef|student|teacher|"
    r"lead|analyst|designer|consultant|engineer|lawyer|dentist|pilot|barista|coach|tutor|"
    r"intern|clerk|officer|phd|PhD|postdoc|trainee|apprentice))"
    # ... or who heads something: "head of growth", "VP of sales"
    r"|(?:(?:senior|junior|deputy|assistant|interim|acting)\s+)?(?:head|vp|VP|director|chief)\s+of\s+"
    r"[a-z-]+)"
)
_ROLE_EN = rf"(?P<v>{_TRADE_EN})"

# Roles said before where they are held ("PM at hubspot", "er nurse at toronto general")
# The words a Chinese role ends on ("供应链经理", "后端开发", "数据分析师"), and the words a
# firm does ("一家做支付的公司", "一家物流公司")
_ROLE_END_ZH = (
    r"(?:师|员|经理|总监|主管|负责人|医生|护士|老师|运营|产品|编导|开发|设计|会计|律师|顾问|助理|"
    r"专员|实习生|编辑|销售|主任|主治)"
)
# news of an offer, before what it is: "offer也定了", "拿到offer了！"
_OFFER_NEWS_ZH = (
    r"(?:(?:拿到|收到)了?offer了?|offer(?:也|终于|总算)?(?:定了|拿到了?|下来了|来了))[！!，,～~\s]*"
)
_FIRM_ZH = r"(?:公司|集团|银行|医院|工厂|事务所|工作室|律所|机构)"
# ... then the role, then when one starts: "… 后端开发 七月入职"
_THEN_ROLE_ZH = (
    rf"[\s，,]+[^，。；！？,.;!?\s]{{0,6}}?{_ROLE_END_ZH}[\s，,]+[^，。；！？,.;!?\s]{{0,6}}?入职"
)
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

# A word of a name: capitalised ("Monzo", "Old Mutual") or a short acronym ("RMH"), not a
# word typed in capitals ("MUSEUM")
_NAME_WORD = r"(?-i:[A-Z](?:[a-z][\w&'’.-]*|[A-Z0-9&]{1,4}\b))"
WORK: tuple[Attribute, ...] = (
    _a(
        "works_at",
        r"\b(?:work\w*|job|employ\w*|company|employer|firm|joined|hired|office|quit|resign\w*|"
        r"(?:starting|started|start)\s+as|join\w*\s+[^,.;]{1,40}?\s+as|"
        r"retire\w*|laid\s+off|redundant|fired|sacked|unemployed|jobless|notice|"
        rf"startup|start(?:ed|ing|s)?\s+(?:at|with)|{_ROLES_EN}\s+(?:at|@|with\s+(?-i:[A-Z])\w*)|offer|last\s+(?:day|shift)|notice|(?:lead|manager|engineer|designer|developer|analyst|director)\s+at|(?:first|1st)\s+(?:day|week|month|shift)s?|onboarding|placement|apprenticeship|traineeship|residency|fellowship|training\s+year|(?:[\w-]+(?:er|or|ist|ian)|nurse|doctor)\s+at)\b"
        rf"|{introduction(r'(?-i:[A-Z][a-z]+)')}"  # "hi! Felix. barista at Oatly"
        r"|\b(?:accepted|took|landed|got|start(?:ed|ing)?|began|new)\s+(?:an?\s+|the\s+|my\s+)?(?:[\w-]+\s+){0,2}?(?:position|post|role)\s+(?:at|with)\b|是[^，。；！？\s的]{2,8}?的[^，。；！？\s的]{0,4}?(?:师|员|医|护士|经理|主任|主管)|工作|上班|实习|打工|公司|入职|跳槽|跳到|跳去|离职|辞职|单位|任职|下家|(?<![现正实存所自内])在.{1,12}?(?:做|当)|去.{1,14}?(?:做|当)|offer|录用|进了.{1,8}?厂|报[到道]"
        r"|\b(?:leaving|left)\s+(?-i:[A-Z])"
        r"|\b(?:I['’]m|I\s+am|im)\s+an?\s+(?:[\w-]+\s+){1,2}?with\s+(?:the\s+)?(?-i:[A-Z])"
        r"|\b(?:launched|founded|co-?founded|set\s+up)\s+(?:my\s+own\s+)?(?-i:[A-Z])"
        r"|\b(?:got|landed|took|accepted|signed)\s+the\s+(?-i:[A-Z])[\w&'’.\s-]{1,40}?\s+(?:job|role|position|offer|contract|gig|internship)\b"
        r"|\b(?:weeks?|months?|years?)\s+(?:in\s+)?at\s+(?-i:[A-Z])[\w&'’.\s-]{1,40}?\s+(?:now|already|done|so\s+far)\b"
        r"|裸辞|辞工|退休|退了休|被裁|裁员|辞退|开除|炒鱿鱼|失业|店名|开业|开店|店开|我们?(?:的|开的)?(?:店|工作室)|(?:店|工作室).{0,14}名字叫",
        (
            en(
                r"\b(?:work|works|working|worked)\s+(?:now\s+|currently\s+|full[-\s]time\s+)?(?:at|for)\s+{V}"
            ),
            en(
                r"\b(?:work|working)\s+(?:now\s+)?(?:as\s+)?an?\s+[\w\s-]{1,40}?\s+(?:at|for)\s+{V}"
            ),
            # ... the role without an article: "I work as operations manager at Trivene" (not
            # "work as hard as I can for …")
            en(
                r"\b(?:work|working)\s+(?:now\s+)?as\s+(?!(?:hard|much|long|fast|well|best|little|many|"
                r"often|late|early|well)\b)[\w\s-]{1,40}?\s+(?:at|for)\s+{V}"
            ),
            # ... said as what one is: "I'm a nurse at the Royal Free", not "I'm a beginner at golf"
            en(
                rf"\b(?:I['’]m|I\s+am|im)\s+(?:now\s+|currently\s+)?(?:an?|the\s+(?:new\s+|only\s+)?)\s*"
                rf"{_TRADE_EN}\s+(?:at|for)\s+{{V}}"
            ),
            # ... or "with" a named firm: "i'm a sparky with Volt Electrical in Brisbane"
            en(
                r"\b(?:I['’]m|I\s+am|im)\s+(?:now\s+|currently\s+)?an?\s+(?:[\w-]+\s+){1,2}?with\s+"
                r"(?:the\s+)?(?!(?:one|two|three|four|five|six|my|our|his|her|a|an)\b)(?P<v>(?-i:[A-Z])[\w&'’.-]*(?:\s+(?-i:[A-Z])[\w&'’.-]*){0,3})"
            ),
            # (a name: not "joined a pickleball drop-in", "a joining bonus", "join into a ring")
            en(
                r"\b(?:joined|joining|join)\s+(?:the\s+)?(?!(?:gym|club|team|choir|band)\b)"
                r"(?P<v>(?-i:[A-Z])[\w&'’.-]*(?:\s+(?-i:[A-Z])[\w&'’.-]*){0,3}|[a-z][\w-]+(?=\s+(?:\(|as\b)))"
                r"\b(?!\s+(?:[\w-]+\s+)?(?:gym|club|team|choir|band|league|class|group|orchestra)\b)"
            ),
            # the role, then where: "starting as head of growth at Lumen", "new job: payroll
            # specialist at Deel"
            en(
                r"\b(?:starting|started|start|hired)\s+as\s+(?:an?\s+|the\s+)?[\w\s-]{1,40}?\s+at\s+{V}"
            ),
            en(
                r"\b(?:new\s+(?:job|role|position|gig)|(?:accepted|took|signed|got)\s+(?:an?\s+|the\s+)?"
                r"(?:job\s+)?offer)\s*[:!—–-]+\s*[\w\s-]{1,40}?\s+(?:at|@)\s+{V}"
            ),
            zh(r"下家(?:是|定了|选了)(?:[^，。；！？,.;!?\s]{1,6}?的)?{V}"),
            en(r"\b(?:job|position|role|gig|internship|offer)\s+(?:at|with)\s+{V}"),
            # ... a training post at a named firm ("an apprenticeship with Sparkright Electrical")
            en(
                r"\b(?:apprenticeship|traineeship|placement|residency|fellowship)\s+(?:at|with)\s+"
                r"(?=(?-i:[A-Z])){V}"
            ),
            # the field one works in, then where: "i work in QA at andela"
            en(r"\b(?:work|working)\s+in\s+(?:[\w&/-]+\s+){1,3}?at\s+{V}"),
            en(
                r"\b(?:got|accepted|took|signed)\s+(?:an?\s+|the\s+)?(?:new\s+)?(?:job\s+)?"
                r"offer\s+from\s+{V}"
            ),
            # ... or said as news: "big news: offer from Northwind, data engineer"
            en(r"^\W*(?:(?:big\s+)?news\W+)?(?:an?\s+|the\s+|job\s+)*offer\s+from\s+{V}"),
            en(r"\b(?:employed|hired|recruited)\s+(?:by|at)\s+{V}"),
            # a role at a place opening the message, or after news: "Relationship manager at
            # OCBC here in …", "got the job! data analyst with NHS Scotland"
            en(
                r"(?:^|[!:]\s+)\W*(?:[A-Za-z-]+\s+){0,2}(?:manager|engineer|designer|developer|analyst|nurse|teacher|"
                r"consultant|lead|director|scientist|accountant|lawyer|doctor|editor|researcher)\s+"
                # (or "with" a name: "Data analyst with NHS Scotland", not "… with two kids" nor
                # a condition: "nurse with Covid")
                r"(?:at|@|with(?=\s+(?-i:[A-Z]))(?!\s+(?:(?:long\s+)?covid|ADHD|IBS|PCOS)\b))\s+{V}"
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
                r"contract|rotation|year)\s+(?:as\s+(?:an?\s+|the\s+)?[\w\s-]{1,40}?\s+)?(?:at|with)\s+{V}"
            ),
            en(r"\bonboarding\s+at\s+{V}"),
            # a job got or taken by the employer's name: "I got the Monzo job!!", "took the
            # Arup offer in the end"
            en(
                # (a name, not a role or a word typed in capitals: "GOT THE DEPUTY HEAD JOB")
                r"\b(?:got|landed|took|accepted|signed)\s+the\s+(?!(?-i:[A-Z]+(?:\s+[A-Z]+)+\s))"
                rf"(?P<v>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})\s+"
                r"(?:job|role|position|offer|contract|gig|internship)\b"
            ),
            # a business of one's own launched or founded: "launched Tidy Ledger today!",
            # "founded Loop Studio with my sister"
            en(
                r"\b(?:launched|founded|co-?founded|set\s+up|opened)\s+(?:my\s+own\s+[\w\s-]{1,20}?,?\s+)?"
                rf"(?P<v>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})"
                r"(?=\s+(?:today|yesterday|this\s+week|last\s+week|with\b|in\s+[A-Z])|\s*[!.,]|$)"
            ),
            # a stretch there so far: "two months at Stripe now", "6 weeks in at Ocado already"
            en(
                r"\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|few|couple\s+of)\s+"
                r"(?:weeks?|months?|years?)\s+(?:in\s+)?at\s+"
                rf"(?P<v>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})"
                r"\s+(?:now|already|done|so\s+far)\b"
            ),
            # (not a year of a course or a degree there: "I'm Oisin, final year pharmacy at
            # Ulster" is where one studies)
            en(
                rf"{introduction(r'[A-Z][a-z]+')}(?!{_STUDYING_EN})(?:[\w-]+\s+){{0,3}}?(?:at|@)\s+{{V}}"
            ),
            zh(rf"在{{V}}{_WORK_ZH}"),
            # the place a role is held at, said as whose it is: "我是协和的住院医", "我现在是
            # 顺丰的快递员" (not a class, a year or a person: "我是三年级的班主任")
            zh(
                r"(?:^|(?<=[我\s，,。！!]))(?:现在|目前)?是"
                # (nor what kind of post: "现在是正式的前端工程师了")
                r"(?P<v>(?![他她你我它这那]|正式|全职|兼职|专职|资深|高级|初级|一名|一个|新)"
                r"[^，。；！？,.;!?\s的]{2,8}?)(?<![班级组部里家])的"
                rf"[^，。；！？,.;!?\s的]{{0,4}}?(?:{_ROLE_END_ZH}|住院医)"
                r"(?=$|了|啦|呢|[，。；！？,.;!?\s])"
            ),
            # a school one teaches at: "在光谷一小教三年级语文", "I teach year 5 at Oakfield
            # Primary" (not "在家教孩子", "teach my kids at home")
            zh(rf"在(?P<v>[^，。；！？,.;!?\s]{{0,10}}?{SCHOOL_ZH})教(?!育)"),
            en(
                r"\bI\s+(?:now\s+|still\s+|currently\s+|also\s+)?teach\s+(?:[\w-]+\s+){0,4}?"
                r"at\s+(?!home\b|night\b|weekends?\b|the\s+weekends?\b){V}"
            ),
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
            # going to a place to take a role there: "我要去华为了 做测试工程师", "去那家AI创业公司
            # 做技术负责人" (not "去医院做检查")
            zh(
                r"(?:要去|准备去|决定去|打算去|想去|去)(?:那家|这家)?(?P<v>[^，。；！？,.;!?\s]{2,12}?)"
                # (where it is, between: "我要去特斯拉了 临港那边 做供应链经理")
                r"(?:了)?(?:[\s，,]+[^，。；！？,.;!?\s]{1,6}(?:那边|那儿|那里))?"
                rf"[\s，,]*(?:做|当)(?:个|一名)?[^，。；！？,.;!?\s]{{0,6}}?{_ROLE_END_ZH}"
                r"(?=$|了|[，。；！？,.;!?\s])"
            ),
            # an offer said as news, the firm, the role and when one starts: "offer来了 深圳一家
            # 做支付的公司 后端开发 七月入职"
            zh(rf"一家(?P<v>[^，。；！？,.;!?\s]{{2,12}}?{_FIRM_ZH}){_THEN_ROLE_ZH}"),
            zh(r"(?:单位|公司|东家)(?:是|换成了?|变成了?|叫){V}"),
            # an offer's news, then the firm and the role: "offer也定了 德勤曼彻斯特 数据分析师",
            # "拿到offer了！三一重工 机械工程师"
            zh(
                rf"{_OFFER_NEWS_ZH}(?P<v>[^，。；！？,.;!?\s]{{2,8}})[\s，,]+"
                rf"[^，。；！？,.;!?\s]{{0,6}}?{_ROLE_END_ZH}(?=$|[\s，,。！!])"
            ),
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
        # where one teaches: words of a statement only ("What do I teach?" asks no employer)
        said_by=rf"\bteach\s+(?:[\w-]+\s+){{0,4}}?at\b|在[^，。；！？]{{0,10}}?{SCHOOL_ZH}教",
    ),
    _a(
        "occupation",
        r"\b(?:job|work(?:ing)?\s+as|occupation|profession|career|title|role|position|promot\w*|"
        r"do\s+for\s+(?:a\s+)?living|(?:I['’]m|I\s+am)\s+(?:now\s+|currently\s+)?an?|became\s+an?|been\s+an?|"
        r"got\s+(?:charge|head|senior|lead|staff|principal|chief|deputy|assistant)|made\s+me|"
        r"(?:been|was|got)\s+made|(?:start\w*|began|accepted|took|landed|got|now|"
        r"(?:first|1st)\s+(?:day|week|month|shift)s?)\s+[^.;!?]{1,70}?\s+as)\b"
        rf"|{introduction(r'(?-i:[A-Z][a-z]+)')}"  # "hi! Noor, teacher at Elm Park School"
        r"|\b(?:officially|finally|basically|technically)\s+an?\s|\b(?:hired|starting|started|start)\s+as\s|"
        r"\boffer\s+from\s+[^,]{2,40},|(?:er|or|ist|ian|ant|ent|lead|analyst|manager|designer|engineer|chef|nurse)\s+as\s+of\b|\b(?:day|week|month|shift)s?\s+as\b|"
        rf"\bjoin\w*\s+[^,.;]{{1,40}}?\s+as\b|\bnew\s+(?:job|role|position|gig)\b|^\W*(?:an?\s+)?(?:[A-Za-z-]+\s+){{0,2}}{_ROLES_EN}\s+(?:at|@)\s|"
        r"\s+at\s+[A-Z]\w*(?:\s+[A-Z]\w*)?,?\s+(?:started|starting|since)\b|\b(?:freelance|self-employed)\b"
        r"|职业|职位|岗位|岗(?=$|[，。；！？,.;!?\s])|转做|改做|转行|的offer|工作|做什么|干什么|升职|晋升|当|师|员|组长|主任|主治|助教|负责人|经理|总监|主管|医生|护士|老师|策划|开发|自由职业|全职|(?<![现正实存所自内])在.{1,10}?(?:做|当)"
        r"|住院医|兽医|牙医|中医|空姐|空少|警察|保安|主播|博主|退休|\bretired\b"
        r"|\bqualified\s+as\b|\bgot\s+an?\s+[\w-]+\s+(?:(?:position|job|role|post|place|spot)\s+)?(?:in|at|with)\s|"
        r"\b(?:I['’]m|I\s+am|im)\s+the\s+(?:[\w-]+\s+){1,3}?(?:on|in|for|at|@)\s|\boffer\s*[:—–-]|\bgot\s+(?:it|the\s+job|the\s+role)\s*!|\b(?:took|accepted|signed)\s+(?:an?\s+|the\s+)?"
        r"[^,.;!?]{0,30}?offer\b",
        (
            en(r"\bwork(?:ing)?\s+as\s+(?:an?\s+)?{V}"),
            # a trade held for a while: "I've been a nurse for six years"
            en(
                r"(?:\bI['’]ve\s+|\bI\s+have\s+|\bive\s+|^\W*)been\s+(?:an?\s+)?"
                rf"{_ROLE_EN}\s+(?:for|since)\b"
            ),
            # a trade qualified in, or a post got somewhere: "qualified as a plumber last month",
            # "got a postdoc in Leiden", "accepted an offer: data engineer at Octopus"
            en(rf"\bqualified\s+as\s+(?:an?\s+)?{_ROLE_EN}\b"),
            en(
                rf"\bgot\s+an?\s+(?!(?:job\s+)?offer\b){_ROLE_EN}\s+(?:position|job|role|post|place|spot)?\s*(?:in|at|with)\s+"
                r"(?-i:[A-Z])"
            ),
            en(
                r"\b(?:accepted|took|signed|got)\s+(?:an?\s+|the\s+)?(?:job\s+)?offer\s*[:—–-]+\s*"
                rf"(?:an?\s+)?{_ROLE_EN}\s+(?:at|@|with)\b"
            ),
            # ... the role after the firm, then when one starts ("一家物流公司 数据分析师 九月入职")
            zh(
                rf"{_FIRM_ZH}[\s，,]+(?P<v>[^，。；！？,.;!?\s]{{0,6}}?{_ROLE_END_ZH})"
                r"[\s，,]+[^，。；！？,.;!?\s]{0,6}?入职"
            ),
            # ... or a trade in English after the firm's offer: "拿到Grab的offer了！data scientist"
            zh(rf"的offer了?[！!，,～~\s]*(?P<v>{_TRADE_EN})(?=\s|$|[，,。！!])"),
            # ... the role after an offer's news and the firm: "拿到offer了！三一重工 机械工程师"
            zh(
                rf"{_OFFER_NEWS_ZH}[^，。；！？,.;!?\s]{{2,8}}[\s，,]+"
                rf"(?P<v>[^，。；！？,.;!?\s]{{0,6}}?{_ROLE_END_ZH})(?=$|[\s，,。！!])"
            ),
            # a line of work changed to: "现在转做商业摄影", "转行当程序员了"
            zh(
                r"(?:转做|改做|转行做|转行当|转行去做)(?P<v>[^，。；！？,.;!?\s]{2,8}?)"
                r"(?=$|[，。；！？,.;!?\s]|了|啦)"
            ),
            # a post moved to, or taken by its name: "从柜面调到了对公客户经理", "美术编辑岗"
            zh(
                r"(?:调到了?|调去了?|转岗到?了?|换岗到?了?|升到了?|升了|升为|升成了?|转到了?)(?:做)?"
                rf"(?P<v>[^，。；！？,.;!?\s]{{0,6}}?{_ROLE_END_ZH})(?=$|[，。；！？,.;!?\s]|了|岗)"
            ),
            zh(
                rf"(?:^|(?<=[\s，,。！!]))(?P<v>[^，。；！？,.;!?\s]{{0,6}}?{_ROLE_END_ZH})岗(?:位)?"
                r"(?=$|[，。；！？,.;!?\s])"
            ),
            # retired: "I retired at Easter", "Retired now!", "officially retired", "我退休了"
            en(
                r"(?:\bI\s+(?:just\s+|finally\s+|officially\s+)?|\b(?:I['’]m|I\s+am|im)\s+(?:now\s+|"
                r"officially\s+|finally\s+|fully\s+)?|^\W*|(?<=[.!?]\s)|\bnow\s+)(?P<v>retired)\b"
                r"(?!\s+(?:teacher|nurse|doctor|engineer|couple|people|folks|from\s+(?:football|rugby|"
                r"tennis|racing)))"
            ),
            zh(
                r"(?:^|(?<=[我\s，,！!]))(?:(?:上个?月|上周|去年|今年|前几天|前阵子)[底初中]?|"
                r"[一二三四五六七八九十\d]{1,3}月(?:[一二三四五六七八九十\d]{1,3}[号日])?[底初中]?)?"
                r"(?:已经|正式|终于|刚|也)?(?P<v>退休)(?:了|啦)"
            ),
            # a job got, said back by its role: "got it!! head of maths from september", "got
            # the job!! senior nurse on the cardiac ward"
            # (with joy: not "Got it — noted the rent")
            en(
                r"\bgot\s+(?:it|the\s+job|the\s+role)\s*!+[^\w\s]*\s*(?:as\s+)?(?:an?\s+|the\s+)?"
                rf"{_ROLE_EN}\b"
            ),
            # ... or an offer taken, with the role: "took an offer in sydney as principal
            # consultant", "took the Tallgrass Health offer, staff engineer"
            en(
                r"\b(?:took|accepted|signed|got)\s+(?:an?\s+|the\s+)?(?:[^,.;!?]{1,30}?\s+)?"
                rf"(?:offer|job|role)\b(?:[^.;!?]{{0,30}}?\s+as\s+(?:an?\s+)?|\s*,\s*){_ROLE_EN}\b"
            ),
            en(r"\b(?:promoted|promotion)\s+to\s+(?:an?\s+)?{V}"),
            # ... or made one: "they made me team lead", "I've been made a partner"
            en(
                r"\b(?:made\s+me|(?:been|was|got)\s+made)\s+(?:an?\s+|the\s+)?"
                rf"(?P<v>(?:[a-z-]+\s+){{0,2}}?(?:{_ROLES_EN}|partner|head\s+of\s+[a-z-]+))\b"
            ),
            # the role a job taken at a named place is taken as: "I start at Monzo on Monday
            # as a data scientist", "accepted a position at Arup as an engineer", "first week
            # at Ocado as a buyer" (not "now at Heathrow as a passenger")
            en(
                r"(?:\b(?:start(?:s|ed|ing)?|began|joined|joining|accepted|took|landed|got|"
                r"(?:first|1st|second|2nd)\s+(?:day|week|month|shift)s?)\b[^.;!?]{0,40}?"
                r"(?:\b(?:at|with|for)\s+(?-i:[A-Z])|\b(?:job|position|role|post)\b)|"
                r"\bjoin(?:ed|ing)?\s+(?-i:[A-Z]))[^.;!?]{0,30}?\s+as\s+(?:an?\s+|the\s+)?"
                rf"{_ROLE_EN}\b"
            ),
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
            en(rf"\b(?:hired|starting|started|start)\s+as\s+(?:an?\s+|the\s+)?{_ROLE_EN}\b"),
            # a role joined, begun or held as of a day: "joining Stripe as a solutions
            # engineer", "first month as a freelance photographer", "Product owner as of
            # today!", "new job: payroll specialist at Deel"
            en(
                r"\b(?:joining|joined|join)\s+[\w&'’.-]+(?:\s+[\w&'’.-]+)?\s+as\s+(?:an?\s+|the\s+)?"
                rf"{_ROLE_EN}\b"
            ),
            en(
                r"\b(?:first|1st|second|2nd)\s+(?:day|week|month|shift)s?\s+as\s+(?:an?\s+)?"
                rf"{_ROLE_EN}\b"
            ),
            en(rf"^\W*(?:(?:officially|now)\s+)?(?:an?\s+)?{_ROLE_EN}\s+as\s+of\b"),
            en(
                r"\bnew\s+(?:job|role|position|gig)\s*[:!—–-]+\s*(?:as\s+)?(?:an?\s+)?"
                rf"{_ROLE_EN}\s+(?:at|@)\s"
            ),
            # ... or said first, where it is held after it: "data engineer at Zalando"
            en(
                r"^\W*(?:an?\s+)?(?P<v>(?:(?!(?:been|im|i|am|was|is|are|be|the|my|our)\b)[A-Za-z-]+\s+)"
                rf"{{0,2}}{_ROLES_EN})\s+(?:at|@)\s+\w"
            ),
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
            en(
                rf"\b(?:I['’]m|I\s+am|im|became|become|becoming)\s+(?:now\s+|currently\s+)?(?:an?\s+){_ROLE_EN}\b"
            ),
            # a rank got: "got charge nurse!", "got senior engineer!!"
            en(
                r"\bgot\s+(?=(?:charge|head|senior|lead|staff|principal|chief|deputy|assistant)\s)"
                rf"{_ROLE_EN}\s*!"
            ),
            # a greeting, the speaker's name and the role at a place: "hi! Noor, teacher at
            # Elm Park School"
            en(rf"{introduction(r'[A-Z][a-z]+')}{_ROLE_EN}\s+(?:at|@)\s+\w"),
            # ... or the role alone, a word before it or not: "Derek here, high school chem
            # teacher."
            en(
                rf"{introduction(r'[A-Z][a-z]+')}(?P<v>(?:[a-z-]+\s+)?{_TRADE_EN})"
                r"(?=\s*(?:[.!,;]|$))"
            ),
            # the role one holds in a team: "i'm the UX designer on the team", "I'm the new
            # analyst at Arup"
            en(
                r"\b(?:I['’]m|I\s+am|im)\s+the\s+(?:only\s+|new\s+|sole\s+)?"
                rf"{_ROLE_EN}\s+(?:(?:on|in|for)\s+(?:the|my|our|this)\s+(?:team|squad|project|"
                r"department|ward|unit|crew|office)\b|(?:at|@)\s+\w)"
            ),
            zh(
                r"(?:我|我们)?(?:现在|目前)?(?:是|当|做|担任|任)(?:一名|一个|个|了)?"
                # (where, before the role: "我是同济的住院医" is a 住院医)
                r"(?:[^，。；！？,.;!?\s的]{1,8}的)?"
                r"(?P<v>[^，。；！？,.;!?\s的]{0,6}?(?:师|员|生|经理|总监|主管|医生|护士|老师|作家|记者|司机|"
                r"厨师|会计|律师|工程师|设计师|程序员|老板|店长|顾问|分析师|运营|产品|编辑|教练|主任|院长|组长|助教|助理|负责人|"
                r"住院医|兽医|牙医|中医|空姐|空少|警察|保安|主播|博主|销售|开发|设计))"
                r"(?=$|了|啦|呢|呀|第|已经|快|[一两三四五六七八九十半几\d]+个?多?(?:天|周|星期|月|年)|"
                r"[，。；！？,.;!?\s])"
            ),
            zh(r"(?:升职|晋升|升|提拔)(?:成|为|到)?(?:了)?{V}"),
            # the work one does at a place: "在蓝标做平面设计", "在字节做运营"
            zh(
                r"(?:^|(?<=[我，,。！!\s]))在[^，。；！？,.;!?\s]{1,10}?(?:做|当)(?:了)?(?:快|将近|差不多|有)?(?:[一二三四五六七八九十两半几\d]+个?多?(?:年|月))?"
                r"(?!事情|东西|作业|家务|饭|什么|啥|这个|那个|点)(?P<v>(?:[A-Za-z]{1,4})?[{CJK}]{2,6}?)"
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
)

# What one is paid (listed among the daily attributes, `people.LIFE`, in the catalogue's order)
SALARY: Attribute = _a(
    "salary",
    r"\b(?:salary|pay|paid|earn\w*|income|wage|raise|make\s+\$?\d)\b|工资|薪水|薪资|年薪|月薪|收入|涨薪|加薪",
    (
        en(
            r"\b(?:earn|make|making|earning)\s+(?:about\s+|around\s+|roughly\s+)?{V}\s+(?:a|per|each)\s+(?:year|month)"
        ),
        en(r"\b(?:raise|bump)\s+to\s+{V}"),
        en(
            r"^(?=.*\b(?:raise|salary|pay|paid|promotion)\b).*?\b(?:I['’]m|I\s+am)\s+(?:now\s+)?on\s+{V}"
        ),
        zh(r"(?:涨薪|加薪|涨|加)(?:到|至)(?:了)?{V}"),
    ),
    ("{s}'s salary is {v}.", "{s}的工资是{v}。"),
    nouns=("salary pay income wage", "工资 薪水 薪资 年薪 月薪 收入"),
)
