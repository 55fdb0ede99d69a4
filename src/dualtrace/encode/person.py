"""Rewriting a first-person English sentence as a third-person statement about its speaker."""

from __future__ import annotations

import re

from dualtrace.text.lexical import STOP_EN

_ADVERBS = frozenset(
    "just really also always never finally recently still usually often actually even "
    "already definitely totally honestly sometimes currently mostly once first then "
    "rarely seldom probably barely nearly almost truly genuinely only kinda sorta lowkey".split()
)
# ... and any other word in -ly that is no verb: "I basically live in the lab" is "the user
# basically lives", never "basicallies live"
_LY_ADVERB = (
    r"(?!(?:apply|reply|supply|comply|imply|multiply|rally|tally|bully|sully|dally)\b)"
    r"[A-Za-z]{3,}ly"
)
_NO_CONJUGATE = frozenset(
    "can could will would shall should may might must was did had got am have do go "
    "'m 've 'd 'll are were".split()  # "Jo and I are": a plural subject keeps its verb
)
# Irregular past tenses: already fine after a third-person subject.
_PAST = frozenset(
    """went got had made took saw came did felt found gave knew left lost met paid put ran read
    said sat sent set slept spent stood taught thought told understood won wrote bought brought
    built caught drew drove ate fell flew forgot grew heard held hurt kept led lent let meant rode
    rang rose sang sank shot shut sold spoke stole swam threw woke wore became began broke chose
    dug fed fought hid hit hung laid lay lit quit struck swore swept tore wept won cut cost beat
    bet bit blew burnt dealt dreamt fit forgave froze knelt leapt learnt overcame spun split
    spread stuck stung stank strove sprang upset withdrew wanna gotta""".split()
)
_IRREGULAR = {
    "am": "is",
    "have": "has",
    "do": "does",
    "go": "goes",
    "was": "was",
    "don't": "doesn't",
    "haven't": "hasn't",
}
_CONTRACTIONS = [
    (r"\bI['’]m\b", "{S} is"),
    (r"\bI['’]ve\b", "{S} has"),
    (r"\bI['’]d\b", "{S} would"),
    (r"\bI['’]ll\b", "{S} will"),
    (r"\bwe['’]re\b", "{S} and others are"),
    (r"\bwe['’]ve\b", "{S} and others have"),
    (r"\bwe['’]ll\b", "{S} and others will"),
    (r"\bwe['’]d\b", "{S} and others would"),
]
_PRONOUNS = [
    (r"\b(it|them|this|that|everything|all)\s+myself\b", r"\1"),  # "booked it myself": no one else
    (r"\bmyself\b", "{S}"),
    (r"(?:^|(?<=[.!?;:]\s))mine\b", "{S}'s one"),  # "Mine looks like a Gerald": a subject
    (r"\bmine\b", "{S}'s"),
    (r"\bmy\b", "{S}'s"),
    (r"\bme\b", "{S}"),
    (r"\bour\b", "{S}'s"),
    (r"\bours\b", "{S}'s"),
    (r"\bourselves\b", "{S}"),
    (r"\b(?-i:[Uu]s)\b", "{S} and others"),  # never "the US"
    (r"\bwe\b", "{S} and others"),
]
# Where the speaker says "we", "our" is the group's, not the speaker's alone: "We all have
# our own paths" is "Mel and others all have their own paths", never "… Mel's own paths".
_GROUP = re.compile(r"\b(?:[Ww][Ee]|[Uu]s)\b")
_GROUP_PRONOUNS = [
    (r"\bour\b", "their"),
    (r"\bours\b", "theirs"),
    (r"\bourselves\b", "themselves"),
]
# The one listener a sentence says "you" to, named ("Your passion inspires me" → "John's
# passion inspires Maria"): a memory is read later by someone else, to whom "you" is no one.
_YOU_FORMS = [
    (r"\b(?:you\s+all|you\s+guys|y['’]all)\b", "{L} and others"),
    (r"\byou['’]re\b", "{L} is"),
    (r"\byou['’]ve\b", "{L} has"),
    (r"\byou['’]ll\b", "{L} will"),
    (r"\byou['’]d\b", "{L} would"),
    (r"\byou\s+are\b", "{L} is"),
    (r"\byou\s+were\b", "{L} was"),
    (r"\byourself\b", "{L}"),
    (r"\byours\b", "{L}'s"),
    (r"\byour\b", "{L}'s"),
]
_YOU = re.compile(  # "you" a word of its own, never the start of "young" or "youth"
    r"\byou(?![\w'’])(?:\s+((?:(?:"
    + "|".join(_ADVERBS | {"ever", "both", "all", "guys"})
    + rf"|{_LY_ADVERB})\s+)*)([A-Za-z]+(?:['’]t)?)(?![\w'’]))?",
    re.I,
)
# "you know (what)," is how a sentence is said, not what it says of anyone
_YOU_KNOW = re.compile(r"(?:^|(?<=,)\s*)(?:you|ya)\s+know(?:\s+what)?\s*[,!.?]+\s*", re.I)
# What may stand before "you" as a subject: nothing, a mark, or a word that opens a clause
_CLAUSE_OPENS = re.compile(
    r"(?:^|[.!?;:,(—–-]|\b(?:and|but|so|because|cause|cuz|if|when|that|since|as|while|"
    r"unless|until|though|although|whether|where|how|what|glad|"
    r"(?:hope|think|bet|guess|know|believe|feel|wish|say|said|heard|sure)s?))\s*$",
    re.I,
)
_LOWER_I = re.compile(r"(?<![\w'’.-])i(?![\w.-])")
# "I don't" is one verb ("doesn't"), never "I don" + "'t"
_I_VERB = re.compile(
    r"\bI\s+((?:(?:" + "|".join(_ADVERBS) + rf"|{_LY_ADVERB})\s+)*)([A-Za-z]+(?:['’]t)?)(?![\w'’])"
)
_WE_VERB = re.compile(
    r"\b(?:I|we)\s+(?:(?:" + "|".join(_ADVERBS) + rf"|{_LY_ADVERB}|have|['’]?ve)\s+)*([A-Za-z]+)\b",
    re.I,
)
_NOT_PAST = frozenset("need needed feed exceed proceed succeed speed bleed breed embed".split())
# present forms that end like a past ("I need" is "she needs", "I feed" "she feeds")
_PRESENT_ED = frozenset(
    "need feed exceed proceed succeed speed bleed breed embed seed weed".split()
)
_BEGIN = frozenset("start starts starting started begin begins beginning".split())
_FIRST_PERSON = re.compile(r"\b(?:I|I['’](?:m|ve|d|ll)|my|me|mine|myself|we|our|us)\b", re.I)


# Chat drops the "I" of a statement ("Started hitting the gym last week", "Been busy",
# "So excited for Lisbon!"): a sentence that opens on such a verb is the speaker's
_OPENING_VERB = re.compile(
    r"^\W*(?P<adverbs>(?:(?:just|finally|also|recently|actually|literally|totally|already|so|"
    r"really|still|officially|kinda|sooo*)\s+)*)(?P<verb>[A-Za-z]+)\b(?!['’])",
    re.I,
)
_ADJECTIVAL = frozenset(
    """excited tired bored stressed obsessed interested worried scared thrilled pleased amazed
    surprised exhausted confused annoyed relieved blessed stoked gutted shocked hooked
    overwhelmed swamped slammed""".split()
)
_GOING_ON = frozenset("feeling heading going planning hoping thinking loving trying".split())
_NOT_VERBS = frozenset("hundred kindred sacred naked wicked wretched rugged beloved".split())


def _implied(sentence: str) -> tuple[str, str, str] | None:
    """(adverbs, verb, what goes before them: "{S}", "{S} is", "{S} has") where the
    sentence opens on a verb whose "I" chat left out, else None."""
    match = _OPENING_VERB.match(sentence)
    if match is None:
        return None
    verb = match.group("verb").lower()
    if verb in _ADJECTIVAL or verb in _GOING_ON or verb == "gonna":
        subject = "{S} is"
    elif verb == "been" and re.search(r"\b(?:for|to)\s+me\b", sentence, re.I):
        subject = "It has"  # "Been hectic for me lately": it has, not the speaker
    elif verb in ("been", "gotta"):
        subject = "{S} has"
    elif verb in _PAST or (len(verb) >= 5 and verb.endswith("ed") and verb not in _NOT_VERBS):
        subject = "{S}"
    else:
        return None
    return match.group("adverbs"), match.group("verb"), subject


def is_first_person(sentence: str) -> bool:
    """True if the sentence speaks about the speaker (I, my, we, …). An "I" chat left out
    ("Started a new job today") is written back when such a sentence is kept for what else
    it says (a date, a slot), but makes no memory by itself: "Finished that chef show." had
    become the first hit for the show watched now."""
    return bool(_FIRST_PERSON.search(sentence))


def reports_done(sentence: str) -> bool:
    """True if the speaker reports something done or begun ("I just got a smoker today",
    "we started yoga today"): a record of what happened, not a state that passes.

    >>> reports_done("I just got a smoker today."), reports_done("I'm busy this week.")
    (True, False)
    """
    for match in _WE_VERB.finditer(sentence):
        verb = match.group(1).lower()
        if verb in _BEGIN or verb in _PAST or (verb.endswith("ed") and verb not in _NOT_PAST):
            return True
    return False


def _third_person_verb(verb: str) -> str:
    lower = verb.lower().replace("’", "'")
    if lower in _IRREGULAR:  # in the apostrophe the speaker typed
        return _IRREGULAR[lower].replace("'", "’" if "’" in verb else "'")
    if lower.endswith("n't"):  # can't, didn't, won't: the same for every subject
        return verb
    if (
        lower in _NO_CONJUGATE
        or lower in _PAST
        or (lower.endswith("ed") and lower not in _PRESENT_ED)
    ):
        return verb
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    return verb + "s"


def to_third_person(sentence: str, speaker: str, listener: str | None = None) -> str:
    """ "I love painting, my kids too" → "Caroline loves painting, Caroline's kids too"; with
    the one `listener` named, "you" is them too ("Your talk moved me" → "Mel's talk moved
    Caroline")."""

    def subject(match: re.Match[str]) -> str:
        adverbs, verb = match.group(1), match.group(2)
        return f"{{S}} {adverbs}{_third_person_verb(verb)}"

    text = _LOWER_I.sub("I", sentence)  # chat's "i have" is "I have"
    if implied := _implied(text):
        adverbs, verb, who = implied
        opening = adverbs + verb
        start = text.find(opening)
        rest = text[start + len(opening) :]
        text = f"{text[:start]}{who} {opening[:1].lower()}{opening[1:]}{rest}"
    for pattern, repl in _CONTRACTIONS:
        text = re.sub(pattern, repl, text, flags=re.I)
    text = _I_VERB.sub(subject, text)
    text = re.sub(r"\bI\b", "{S}", text)
    if _GROUP.search(sentence):
        for pattern, repl in _GROUP_PRONOUNS:
            text = re.sub(pattern, repl, text, flags=re.I)
    for pattern, repl in _PRONOUNS:
        text = re.sub(pattern, repl, text, flags=re.I)
    if listener:
        text = _second_person(text)
    # a sentence that starts with a person starts with a capital ("… there. The user …")
    for mark, name in (("{S}", speaker), ("{L}", listener or "")):
        text = re.sub(rf"(?:^|(?<=[.!?]\s)){re.escape(mark)}", name[:1].upper() + name[1:], text)
        text = text.replace(mark, name)
    return text[:1].upper() + text[1:]


def _second_person(text: str) -> str:
    """The text with "you" written as `{L}`: its contractions and possessives first, then a
    subject's verb agreeing ("you love" → "{L} loves"), then the rest ("for you")."""
    text = _YOU_KNOW.sub(" ", text).strip()
    for pattern, repl in _YOU_FORMS:
        text = re.sub(pattern, repl, text, flags=re.I)

    def you(match: re.Match[str]) -> str:
        adverbs, verb = match.group(1) or "", match.group(2)
        lower = (verb or "").lower()
        function_word = lower in STOP_EN and lower not in _NO_CONJUGATE | {"do", "does"}
        if verb is None or function_word or not _CLAUSE_OPENS.search(text[: match.start()]):
            return "{L}" + match.group(0)[3:]  # an object: "here for you", "told you so"
        return f"{{L}} {adverbs}{_third_person_verb(verb)}"

    return _YOU.sub(you, text)
