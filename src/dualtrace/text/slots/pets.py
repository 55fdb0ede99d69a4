"""The pet attribute (`PET`): a pet by its kind and name, adopted, named, rehomed or lost.

And which of the user's pets a question asks the name of ("What's my rabbit called?", "我家狗
叫什么？"): a pet is many-valued, and a household with a dog and a rabbit answers the rabbit's
name with the rabbit, not with the newest pet. Like the family asked by relation
(`family.asked_member`), the question is narrowed to the kind, and a breed is its kind's
("my shiba Kuro" answers "my dog's name")."""

from __future__ import annotations

import re

from dualtrace.text.script import simplified
from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.attribute import attribute as _a
from dualtrace.text.slots.frames import (
    BRACKETED,
    CAPITAL,
    CLOSE,
    GIVEN_ZH,
    NAMED_AS_EN,
    NAMED_ZH,
    TYPED,
    WHEN_ZH,
    en,
    zh,
)

# The Chinese words for breeds of dog and of cat, which statements read a pet by too
# (`people.py`: "我家柴犬可乐")
DOG_BREEDS_ZH = r"柯基|金毛|泰迪|柴犬|哈士奇|比熊|边牧|拉布拉多|萨摩耶|法斗|博美|雪纳瑞"
CAT_BREEDS_ZH = r"英短|美短|布偶|橘猫|狸花|暹罗|缅因"
# What a pet named just before it does ("our dog pancake keeps stealing socks")
_PET_DOES = (
    r"(?:is|was|has|have|are|were|keeps|kept|keep|loves|love|hates|hate|just|got|gets|ate|eats|"
    r"likes|sleeps|sleep|decided|decide|turned|needs|need|won['’]t|doesn['’]t|don['’]t|can['’]t|"
    r"refuses|refuse|thinks|knocked|stole|chewed|chews|barks|barked|jumped|jumps|ran|runs|still|"
    r"always|never)"
)
# Breeds beyond the common ones, named as the kind ("our aspin Choco", "my Pomeranian
# Biscuit", "a xolo named Mole")
_MORE_DOGS = (
    r"pomeranian|huntaway|aspin|xolo|xoloitzcuintli|dalmatian|maltese|akita|malamute|shih\s+tzu|"
    r"bichon|papillon|vizsla|weimaraner|doberman|great\s+dane|bernese|jack\s+russell|westie|"
    r"yorkie|sausage\s+dog|cavalier|basset|bloodhound|pointer|setter|springer|maltipoo|shih\s+poo"
)
_MORE_CATS = r"persian|bengal|sphynx|british\s+shorthair|burmese|abyssinian|russian\s+blue"
_PET_KINDS = (
    r"(?:dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|turtle|tortoise|budgie|ferret|"
    r"corgi|beagle|husky|poodle|terrier|retriever|labrador|greyhound|dachshund|tabby|gecko|lizard|"
    r"snake|axolotl|guinea\s+pig|chinchilla|hedgehog|bearded\s+dragon|cockatiel|kelpie|spaniel|"
    r"collie|sheepdog|shepherd|pug|schnauzer|(?:labra|cava|golden)?doodle|cavoodle|cockapoo|"
    r"chihuahua|bulldog|frenchie|whippet|lurcher|staffy|rottweiler|samoyed|shiba|ragdoll|"
    r"siamese|maine\s+coon|moggy|pit(?:\s?bull)?|pup|kitty|"
    rf"{_MORE_DOGS}|{_MORE_CATS})"
)
_COLOUR_ZH = r"(?:小?[橘黑白花灰狸奶蓝]色?)?"
# The emoji of a cat, a dog or a paw, which name a pet in chat ("我家芝麻和汤圆…🐱🐱")
_PET_EMOJI = "🐱🐶🐈🐕🐾"
_BREEDS_ZH = rf"{DOG_BREEDS_ZH}|{CAT_BREEDS_ZH}|蓝猫"
_PET_KINDS_ZH = rf"(?:猫咪|猫(?!咪)|狗狗|狗(?!狗)|兔子|{_BREEDS_ZH}|仓鼠|鹦鹉|乌龟)"
# Each kind asked by, and the words that say it (its young, its breeds, its Chinese words).
_KINDS: dict[str, str] = {
    "dog": (
        r"dogs?|pupp(?:y|ies)|pups?|doggo|corgi|beagle|husky|poodle|terrier|retriever|labrador|"
        r"greyhound|dachshund|spaniel|collie|pug|chihuahua|shiba|schnauzer|(?:\w+)?doodle|bulldog|"
        r"shepherd|sheepdog|labs?|lab\s+mix|kelpie|cavoodle|cockapoo|frenchie|whippet|lurcher|"
        rf"staffy|rottweiler|samoyed|mutt|{_MORE_DOGS}|狗|{DOG_BREEDS_ZH}"
    ),
    "cat": (
        rf"cats?|kittens?|kitty|tabby|ragdoll|siamese|maine\s+coon|moggy|{_MORE_CATS}|猫|"
        rf"{CAT_BREEDS_ZH}"
    ),
    "rabbit": r"rabbits?|bunn(?:y|ies)|兔",
    "hamster": r"hamsters?|仓鼠",
    "parrot": r"parrots?|budgies?|鹦鹉",
    "turtle": r"turtles?|tortoises?|乌龟",
}
_ASKED = {kind: re.compile(rf"(?:{words})", re.I) for kind, words in _KINDS.items()}
_KIND_EN = r"(?P<k>dog|puppy|cat|kitten|rabbit|bunny|hamster|parrot|budgie|turtle|tortoise)"
_KIND_ZH = r"(?P<z>狗狗?|猫咪?|兔子|仓鼠|鹦鹉|乌龟)"
_ASKS_NAME = re.compile(
    rf"\b(?:my|our|the\s+user['’]s)\s+(?:\w+\s+)?{_KIND_EN}(?:['’]s\s+name|\s+(?:called|named))\b"
    rf"|\bname\s+of\s+(?:my|our|the\s+user['’]s)\s+(?:\w+\s+)?{_KIND_EN.replace('<k>', '<k2>')}\b"
    rf"|(?:我|用户)(?:的|家)?(?:的)?(?:那只|那条)?{_KIND_ZH}(?:叫什么|叫啥|的名字|名字)",
    re.I,
)


# One's own pet of a kind, named in a question about something else ("How much does my cat
# weigh?", "我家猫现在多重了？")
_OWN_KIND = re.compile(
    rf"\b(?:my|our|the\s+user['’]s)\s+(?:\w+\s+)?{_KIND_EN}s?\b|(?:我|用户)(?:的|家)的?(?:那只|那条)?{_KIND_ZH}",
    re.I,
)


def owned_kind(question: str) -> str | None:
    """The kind of the asker's own pet a question names, when it names one kind ("my cat",
    "我家猫"), or None: the pets it asks of are those of that kind.

    >>> owned_kind("How heavy is my cat now?"), owned_kind("我家狗狗吃什么狗粮？")
    ('cat', 'dog')
    """
    found = _OWN_KIND.search(question)
    if found is None:
        return None
    return _kind(found, "k", "z")


def asked_pet(question: str) -> str | None:
    """The kind of pet a question asks the name of ("dog", "cat", "rabbit"…), or None.

    >>> asked_pet("What's the name of my rabbit?"), asked_pet("我家狗狗叫什么？")
    ('rabbit', 'dog')
    """
    found = _ASKS_NAME.search(question)
    if found is None:
        return None
    return _kind(found, "k", "k2", "z")


def _kind(found: re.Match[str], *groups: str) -> str | None:
    """The kind of pet the word a question matched in one of `groups` says."""
    word = next(w for w in found.group(*groups) if w).casefold()
    return next((kind for kind, said in _ASKED.items() if said.search(word)), None)


def names_kind(text: str, kind: str) -> bool:
    """Whether a text names a pet of the kind (or one of its breeds)."""
    text = simplified(text)
    said = _ASKED.get(kind)
    if said is None:
        return True
    return re.search(rf"(?<![A-Za-z])(?:{said.pattern})(?![A-Za-z])", text, re.I) is not None


_BEFORE_KIND = re.compile(
    r"^(?:(?:an?|two|three|new|rescue|little|old|another)\s+|[一两二三]?[只条])*", re.I
)


def bare_kind(value: str) -> bool:
    """Whether a pet's value is only its kind ("whippet", "a puppy", "两只猫"): it names no
    pet, and answers no question for a pet's name.

    >>> bare_kind("a rescue whippet"), bare_kind("dog Biscuit"), bare_kind("旺财")
    (True, False, False)
    """
    kind = _BEFORE_KIND.sub("", value.strip())
    return any(said.fullmatch(kind) for said in _ASKED.values())


# The user's pets, many-valued: a pet by kind and name as chat says it, adopted, named,
# rehomed or lost.
PET: Attribute = _a(
    "pet",
    r"\b(?:pet|pets|dog|dogs|cat|cats|puppy|kitten|rabbit|bunny|hamster|parrot|fish|turtle|adopted|rescue|fostering|"
    r"greyhound|dachshund|spaniel|collie|pug|chihuahua|shiba|schnauzer|doodle|budgie|goldfish|gecko|pit\s?bull|pit\s+mix|"
    r"snake|guinea\s+pig|ferret|tortoise|retriever|labrador|poodle|terrier|corgi|beagle|husky|bulldog|tabby|"
    r"lizard|axolotl|chinchilla|hedgehog|bearded\s+dragon|cockatiel|rehom(?:e|ed|ing))\b"
    rf"|\b{_PET_KINDS}\b"
    # a pet named, then gone: "Biscuit passed last week", "阿福飞走了"
    rf"|(?-i:{CAPITAL}{{1,15}})\s+(?:passed|died|ran\s+away|went\s+missing)\b|\bput\s+(?-i:[A-Z])\w*\s+down\b"
    r"|飞走了|走丢了|跑丢了"
    r"|\((?:my|our)\s+lab\)|\blab\s+mix\b|\b(?:we|I)\s+adopted\s+(?:her|him|them)\b"
    rf"|宠物|狗|猫|犬|兔子|仓鼠|鹦鹉|乌龟|养|{_BREEDS_ZH}|[{_PET_EMOJI}]"
    # (given away, named alone: "把芝麻送给学妹了", "豆包送我妈那了")
    r"|送人了|送给[^，。！!\s]{1,8}了|送(?:到|去)?[^，。！!\s]{1,6}(?:那|那儿|那里|家)(?:去|养)?了",
    (
        en(
            r"(?:\b(?:(?:have|has|had|just|finally)\s+)*"
            r"(?:have|has|got|adopted|adopt|rescued|own|fostering|welcomed|brought\s+home)\s+"
            r"(?:an?\s+|two\s+|three\s+|another\s+|a\s+new\s+)?"
            # (a new member: "we have a new addition: a Border terrier puppy called Pip")
            r"|\ba\s+new\s+(?:addition|arrival|family\s+member)\s*[:,—–-]\s*(?:an?\s+)?)"
            rf"(?P<v>(?:[\w-]+\s+){{0,2}}?(?:{_PET_KINDS}\s+)?(?:{_PET_KINDS}|bird|goldfish|horse|chickens?)s?"
            # (named: a name even where it is a word too, "a cat called pickle")
            r"(?:\s+(?:named|called)\s+[a-zA-Z]\w+)?)\b"
        ),
        # ... and named in the sentence after: "we rescued a greyhound in March. Her name is
        # Juno"
        en(
            r"\b(?P<named>adopted|got|rescued|picked\s+up|brought\s+home|took\s+in)\s+(?:an?\s+|a\s+new\s+)?"
            rf"(?:[\w-]+\s+){{0,2}}?{_PET_KINDS}\b[^.!?]{{0,40}}[.!?]+\s*(?:(?:her|his|its|their)\s+name"
            r"(?:['’]s|\s+is)|(?:she|he|it)['’]s\s+called|(?:[\w,]+\s+){0,3}?(?:named|called)\s+"
            rf"(?:him|her|it))\s+(?P<v>{CAPITAL}{{1,15}}|{TYPED})\b"
        ),
        zh(
            r"(?:养了|养着|领养了|收养了|有)(?:一只|一条|两只|只|条)?(?![点些])(?<!有点){V}(?<=[狗猫兔鼠鹉龟])"
        ),
        # a name, then its age and kind: "Rusty, 2 yr old lab mix", "Pip, a ten-week-old
        # puppy"; or a name, then that one adopted it: "Zola (yes we adopted her lol)"
        en(
            rf"(?:^|(?<=[\s.!,]))(?P<v>(?-i:{CAPITAL}{{1,15}})),\s+(?:an?\s+)?"
            r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[\s-]*"
            rf"(?:yrs?|years?|months?|mos?|weeks?|wks?)[\s-]*old\s+(?:[\w-]+\s+){{0,2}}?"
            rf"(?:{_PET_KINDS}|lab(?=\s+mix))\b"
        ),
        en(
            rf"(?:^|(?<=[\s.!,]))(?P<v>(?-i:{CAPITAL}{{1,15}}))\s*\([^()]{{0,20}}?"
            r"\b(?:we|I)\s+(?:just\s+|finally\s+)?(?:adopted|rescued|got)\s+(?:her|him|them)\b"
        ),
        # a pet named beside its kind: "my cat Pixel", "our old dog called Rex"
        en(
            r"(?P<named>\b(?:my|our))\s+(?:new\s+|old\s+|little\s+)?"
            rf"(?P<v>{_PET_KINDS}(?:\s+mix)?\s+(?:named\s+|called\s+)?{CAPITAL}\w*)\b"
        ),
        # ... or by its name after: "our dog is called Rex", "my cat's name is Pixel"
        en(
            r"(?P<named>\b(?:my|our))\s+(?:new\s+|old\s+|little\s+)?"
            rf"(?P<kind>{_PET_KINDS}){NAMED_AS_EN}(?P<v>{CAPITAL}\w*)\b"
        ),
        # the kind in brackets after the name ("Biscotto (my dog) keeps me sane"), and a
        # Chinese pet said as the family's: "我家猫糯米", "我们家的狗叫豆豆"
        en(rf"(?P<v>{CAPITAL}\w+)\s*\((?P<named>(?:my|our))\s+(?:\w+\s+)?{_PET_KINDS}{CLOSE}"),
        # ... or the name first: "Pumpkin is our new kitten", "Ziggy, my bearded dragon"
        en(
            r"(?:^|(?<=[\s(,.!]))(?!(?:he|she|it|this|that|there|who|which|what|one)\b)"
            rf"(?P<v>(?-i:{CAPITAL}{{1,15}}))(?:\s+also|\s+too)?(?:\s+is|,)?\s+(?P<named>my|our)\s+"
            # (a word before the kind, not another's typed without its apostrophe: "Rex is our
            # neighbours dog")
            rf"(?:new\s+|little\s+|old\s+|[a-z]+(?<!s)\s+)?(?P<kind>{_PET_KINDS})\b"
            r"(?!\s+(?:walker|sitter|groomer|trainer|food|bed|toy|park)s?\b)"
        ),
        en(
            rf"(?P<v>(?-i:{CAPITAL}+\s+(?:and|&)\s+{CAPITAL}+))\s*\((?P<named>(?:my|our))\s+"
            rf"(?:\w+\s+)?{_PET_KINDS}s{CLOSE}"
        ),
        en(rf"^\W*(?P<v>(?-i:{CAPITAL}{{1,15}})),\s+an?\s+(?:[\w-]+\s+)?{_PET_KINDS}\W*$"),
        # two pets named after their kind: "my dogs Rex and Bella"
        en(
            r"(?P<named>\b(?:my|our))\s+(?:two\s+)?(?:new\s+|old\s+|little\s+)?"
            rf"(?P<v>{_PET_KINDS}s\s+{CAPITAL}+\s+(?:and|&)\s+{CAPITAL}+)\b"
        ),
        # ... typed in lower case: "my cat luna keeps…", "zorba (my dog)"
        en(
            r"(?P<named>\b(?:my|our))\s+(?:new\s+|old\s+|little\s+)?"
            rf"(?P<v>{_PET_KINDS}\s+{TYPED})\b(?!['’])"
        ),
        en(
            rf"(?P<v>{BRACKETED})\s*\((?P<named>(?:my|our|the))\s+(?:\w+\s+)?(?:{_PET_KINDS}|lab)"
            rf"{CLOSE}"
        ),
        en(
            r"(?P<v>(?-i:[a-z]{2,15}\s+(?:and|&)\s+[a-z]{2,15}))\s*\((?P<named>(?:my|our))\s+"
            rf"(?:\w+\s+)?{_PET_KINDS}s{CLOSE}"
        ),
        # ... a name that is a word too, said doing something ("our dog pancake keeps
        # stealing socks", "my cats pickle and olive have claimed the sofa"; not "my dog walker is")
        en(
            r"(?P<named>\b(?:my|our))\s+(?:new\s+|old\s+|little\s+)?"
            rf"(?P<v>{_PET_KINDS}s?\s+(?P<doer>[a-z]{{3,15}}(?:\s+(?:and|&)\s+[a-z]{{3,15}})?))"
            rf"(?=\s+{_PET_DOES}\b)"
        ),
        zh(
            rf"(?P<named>(?:我|我们|用户)(?:家|的)?的?|家里的?)(?:[一两二三四五]只)?"
            rf"(?P<v>{_PET_KINDS_ZH}(?!叫[了得着声起个])(?!叫$)(?![狗猫兔或和与]){NAMED_ZH})"
        ),
        zh(rf"(?P<named>(?:我|我们|用户)(?:家|的)的?){_PET_KINDS_ZH}叫{GIVEN_ZH}"),
        # ... named as the family's, then said to be one: "我家团子最近老吐毛球 它是只英短蓝猫"
        zh(
            rf"(?P<named>(?:我|我们|用户)家的?)(?P<v>{NAMED_ZH})[^。！？!?]{{0,20}}?"
            rf"[它她他]是(?:一?只|一?条)?{_COLOUR_ZH}{_PET_KINDS_ZH}"
        ),
        # ... or said to be one at a part's opening: "旺财是只土狗 十岁了"
        zh(
            rf"(?:^|(?<=[\s，,。！!]))(?P<v>{NAMED_ZH})是(?:一?只|一?条){_COLOUR_ZH}"
            rf"[{{CJK}}]{{0,2}}?{_PET_KINDS_ZH}"
        ),
        # ... or two of the family's named with a pet's emoji: "我家芝麻和汤圆在键盘上打架🐱🐱"
        zh(
            rf"(?P<named>(?:我|我们|用户)家的?)(?P<v>{NAMED_ZH}(?:和|跟|与){NAMED_ZH}|{NAMED_ZH})"
            rf"[^。！？!?{_PET_EMOJI}]{{0,20}}?[{_PET_EMOJI}]"
        ),
        # the kind in brackets after the name: "煤球（我家猫）最近老是半夜跑酷", "我家可乐（橘猫）"
        zh(
            rf"(?P<v>{NAMED_ZH})[（(](?P<named>我|我们|用户)(?:家|的)?的?{_COLOUR_ZH}"
            rf"{_PET_KINDS_ZH}[）)]"
        ),
        zh(
            rf"(?P<named>(?:我|我们|用户)家的?)(?P<v>{NAMED_ZH})[（(]{_COLOUR_ZH}{_PET_KINDS_ZH}[）)]"
        ),
        # a pet named when it came: "捡了一只小黑猫，取名雪碧", "领养了一只猫，叫馒头"
        zh(
            rf"{_PET_KINDS_ZH}(?:[，,\s](?:[^，。！？!?\s]{{1,6}}[，,\s])?\s*叫(?![得了着声起个])|"
            rf"[，,]?\s*(?:取名|起名|名字)叫?){GIVEN_ZH}"
        ),
        # ... or had, counted, then named without a pause: "养了一只猫叫年糕", "有条柯基叫旺仔"
        # (not one pointed at: "楼下那只猫叫咪咪")
        zh(
            r"(?:有|养了?|养着|领养了?|收养了?|捡了|买了|抱了|一)一?(?:只|条)[^，。！？!?\s]{0,3}?"
            rf"{_PET_KINDS_ZH}叫(?![得了着声起个]){GIVEN_ZH}"
        ),
    ),
    ("{s} has {v}.", "{s}养了{v}。"),
    many=True,
    ends=(
        en(r"\b(?:our|my)\s+(?:\w+\s+)?(?:dog|cat|pet)\s+(?P<v>[A-Z]\w+)\s+(?:passed\s+away|died)"),
        # a pet named at the start of a clause that dies or is lost: "Biscuit passed last
        # week", "Rosie died in her sleep", "we had to put Pepper down"
        en(
            rf"(?:^|[.!?]\s+)(?-i:(?P<v>{CAPITAL}{{1,15}}))\s+"
            r"(?:passed(?:\s+away)?|died|ran\s+away|went\s+missing|crossed\s+the\s+rainbow\s+bridge)\b"
        ),
        en(rf"\b(?:had\s+to\s+)?put\s+(?-i:(?P<v>{CAPITAL}{{1,15}}))\s+down\b"),
        # (when, between: "狗狗上周去世了")
        zh(
            rf"(?:我的|我家的?)?{{V}}(?:{WHEN_ZH}|今天|刚|也)*"
            r"(?:去世|死)了"
        ),
        zh(r"(?P<v>[阿小][{CJK}]|[{CJK}]{2})(?:飞走|走丢|跑丢|丢|走)了"),
        # a pet given away or rehomed: "had to rehome Milo", "鹦鹉豆豆送回老家给爸妈养了",
        # "把芝麻送给学妹了"
        en(
            r"\b(?:rehomed|rehome|gave\s+away|gave\s+up)\s+(?:(?:my|our)\s+(?:\w+\s+)?"
            rf"{_PET_KINDS}\s+)?(?-i:(?P<v>{CAPITAL}{{1,15}}))\b"
        ),
        zh(
            rf"(?:把|(?:我|我们|用户)(?:家|的)的?)?"
            rf"(?P<v>{_PET_KINDS_ZH}(?:(?![送给]){NAMED_ZH})?|(?![送给]|直接|干脆|已经|早就|.了){NAMED_ZH})"
            r"(?:只能|只好|已经|就|直接|干脆)?(?:送人了|送给[^，。！!\s]{1,8}了|送回[^，。！!\s]{1,6}|"
            # (left with someone: "豆包送我妈那了")
            r"送(?:到|去)?[^，。！!\s]{1,6}(?:那|那儿|那里|家)(?:去|养)?了|"
            r"给[^，。！!\s]{1,6}养了)"
        ),
    ),
)
