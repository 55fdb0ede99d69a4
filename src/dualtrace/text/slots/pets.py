"""Which of the user's pets a question asks the name of ("What's my rabbit called?", "我家狗
叫什么？"): a pet is many-valued, and a household with a dog and a rabbit answers the rabbit's
name with the rabbit, not with the newest pet. Like the family asked by relation
(`family.asked_member`), the question is narrowed to the kind, and a breed is its kind's
("my shiba Kuro" answers "my dog's name")."""

from __future__ import annotations

import re

# The Chinese words for breeds of dog and of cat, which statements read a pet by too
# (`people.py`: "我家柴犬可乐")
DOG_BREEDS_ZH = r"柯基|金毛|泰迪|柴犬|哈士奇|比熊|边牧|拉布拉多|萨摩耶|法斗|博美|雪纳瑞"
CAT_BREEDS_ZH = r"英短|美短|布偶|橘猫|狸花|暹罗|缅因"
# Each kind asked by, and the words that say it (its young, its breeds, its Chinese words).
_KINDS: dict[str, str] = {
    "dog": (
        r"dogs?|pupp(?:y|ies)|pups?|doggo|corgi|beagle|husky|poodle|terrier|retriever|labrador|"
        r"greyhound|dachshund|spaniel|collie|pug|chihuahua|shiba|schnauzer|(?:\w+)?doodle|bulldog|"
        r"shepherd|sheepdog|labs?|lab\s+mix|kelpie|cavoodle|cockapoo|frenchie|whippet|lurcher|"
        rf"staffy|rottweiler|samoyed|mutt|狗|{DOG_BREEDS_ZH}"
    ),
    "cat": (rf"cats?|kittens?|kitty|tabby|ragdoll|siamese|maine\s+coon|moggy|猫|{CAT_BREEDS_ZH}"),
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
