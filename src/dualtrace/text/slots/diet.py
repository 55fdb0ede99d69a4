"""The way one eats: vegetarian, vegan, keto, low-carb, 吃素, 生酮 … kept to, taken up or
given up ("I'm done with keto", "生酮放弃了")."""

from __future__ import annotations

from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.frames import en, zh

# ways of eating that are a diet by their name alone
_DIETS_EN = (
    r"vegetarian|veggie|vegan|pescatarian|keto|paleo|low[-\s]carb|low[-\s]fodmap|intermittent\s+fasting|"
    r"whole30|plant[-\s]based|carnivore|mediterranean|eggetarian|flexitarian"
)

DIET: Attribute = _a(
    "diet",
    r"\b(?:diet|vegetarian|veggie|vegan|keto|pescatarian|paleo|meat|gluten|dairy|sugar|carbs|eat|eating|regime|"
    r"eggetarian|flexitarian|halal|kosher|"
    r"mediterranean|"
    r"intermittent\s+fasting|low[-\s]carb|low[-\s]fodmap|whole30|plant[-\s]based)\b"
    r"|吃素|素食|鱼素|蛋奶素|饮食|戒|不吃|减肥餐|生酮|轻断食|控糖|吃|开荤",
    (
        en(
            r"\b(?:I['’]m|I\s+am|im|we['’]re|we\s+are|went|gone|go|going|became|become|turned|been)\s+"
            r"(?:now\s+|fully\s+|strictly\s+|mostly\s+|both\s+|all\s+)?(?:back\s+to\s+(?:being\s+)?)?"
            r"(?P<v>(?:vegetarian|veggie|vegan|pescatarian|keto|paleo|gluten[-\s]free|dairy[-\s]free|plant[-\s]based|"
            r"carnivore|low[-\s]carb|mediterranean|eggetarian|flexitarian))\b"
        ),
        # a regime kept to: "kept to my low-carb regime since the spring", "I do 16:8
        # intermittent fasting"
        en(
            r"\b(?:kept|keeping|keep|stuck|sticking|stick)\s+(?:to|with)\s+(?:my|a|the)\s+"
            rf"(?P<v>{_DIETS_EN})\s+(?:regime|diet|plan|eating)\b"
        ),
        en(
            r"\b(?:I|we)\s+(?:also\s+|still\s+|now\s+)?(?:do|doing)\s+(?:\d{1,2}[:/]\d{1,2}\s+)?"
            r"(?P<v>intermittent\s+fasting|OMAD|keto|low[-\s]carb)\b"
        ),
        en(
            r"\b(?:on|following|doing|started)\s+(?:an?\s+|the\s+)?(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+diet\b"
        ),
        en(
            r"\b(?:eat|eating)\s+(?:only\s+)?(?P<v>(?:plant[-\s]based|vegetarian|vegan|keto|low[-\s]carb|"
            r"meat\s+again|fish\s+again|halal|kosher))\b"
        ),
        en(r"\b(?:I|we)\s+(?:also\s+|still\s+|only\s+)?(?:keep|eat)\s+(?P<v>kosher|halal)\b"),
        # a way of eating one does or keeps to: "doing low-carb since May", "back on keto"
        en(
            r"\b(?:doing|started|starting|back\s+on|sticking\s+to|trying)\s+"
            r"(?P<v>(?:keto|paleo|low[-\s]carb|low[-\s]fodmap|intermittent\s+fasting|whole30|"
            r"vegan(?:uary)?|plant[-\s]based))\b"
        ),
        en(
            r"\b(?P<v>(?:don['’]t|do\s+not|no\s+longer|stopped|quit|gave\s+up|cut\s+out)\s+(?:eat(?:ing)?\s+|drink(?:ing)?\s+)?"
            r"(?:meat|pork|beef|dairy|sugar|gluten|carbs|red\s+meat|fish|seafood|eggs))\b"
        ),
        # "doing more of a Mediterranean thing now"
        en(
            r"\bdoing\s+(?:more\s+of\s+)?an?\s+"
            rf"(?P<v>{_DIETS_EN})\s+(?:thing|diet|plan)\b"
        ),
        # a diet said with "now" or "again" is the one kept now ("so pescatarian now")
        en(
            r"\b(?P<v>(?:vegetarian|vegan|pescatarian|keto|paleo|gluten[-\s]free|dairy[-\s]free|"
            r"plant[-\s]based|carnivore|low[-\s]carb))\s+(?:again\s+|only\s+)?now\b"
        ),
        zh(
            r"(?:开始|改成|改为|现在|已经)?(?P<v>吃素|素食|纯素|全素|吃斋|鱼素|蛋奶素|生酮|轻断食|低碳水|戒糖|控糖|戒肉|吃肉)"
        ),
        zh(r"(?:饮食|吃饭)(?:是|改成了?|换成了?){V}"),
        # a meat one keeps off: "我们家不吃牛肉", "我不吃猪肉" (not "不吃早饭", a meal)
        zh(
            r"(?:我们家|我家|我|家里)(?:从来|一直|都|也|从小)?(?P<v>不吃(?:牛肉|猪肉|羊肉|海鲜|肉)(?!了))"
        ),
        zh(r"(?:现在|已经|又)(?P<v>啥都吃|什么都吃|开荤)"),
        zh(
            r"(?:^|(?<=[\s，,！!]))(?P<v>开荤)(?:了|[一两三四五六七八九十半几\d]+个?多?(?:月|年|周))"
        ),
    ),
    ("{s}'s diet: {v}.", "{s}的饮食：{v}。"),
    nouns=("diet", "饮食"),
    # a way of eating given up: "I'm done with keto", "gave up on being vegan", "not
    # pescatarian anymore", "生酮放弃了"
    ends=(
        en(
            r"\b(?:quit|quitting|stopped|stopping|gave\s+up(?:\s+on)?|giving\s+up(?:\s+on)?|"
            r"done\s+with|dropped|dropping|ditched|ditching)\s+(?:doing\s+|being\s+|the\s+)?"
            rf"(?P<v>{_DIETS_EN})\b"
        ),
        en(rf"\b(?:not|no\s+longer)\s+(?P<v>{_DIETS_EN})\s+(?:anymore|any\s+more)\b"),
        zh(
            r"(?P<v>吃素|素食|纯素|全素|鱼素|蛋奶素|生酮|轻断食|低碳水|控糖)(?:也|就|已经)?"
            r"(?:放弃了|不搞了|不做了|停了|结束了)"
        ),
        zh(r"(?:放弃了?|停了|不搞|不做)(?P<v>生酮|轻断食|低碳水|控糖)"),
    ),
)
