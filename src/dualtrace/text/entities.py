"""Rule-based named entities for English and Chinese messages, and per-user alias resolution.

No model is involved. English names are runs of capitalised words ("University of Toronto"),
typed by the word lists in `dualtrace.text.gazetteer` and by context cues (a title before
it, "works at" before it, a model number after it). Chinese names come from jieba's
part-of-speech tags (nr person, ns place, nt org, nz other), patched where its dictionary is
known to be wrong (阿里巴巴 is not a person, 哥哥 is not a place). `AliasIndex` then maps the
many ways one user names one thing ("Mel"/"Melanie", "NYC"/"New York City"/"纽约") onto one
canonical mention.

Example:
    >>> [(m.name, m.type) for m in extract_entities("Caroline moved from Boston to NYC.")]
    [('Caroline', 'person'), ('Boston', 'place'), ('NYC', 'place')]
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dualtrace.cjk import has_cjk
from dualtrace.models import EntityMention
from dualtrace.text import gazetteer as gz

__all__ = ["ENTITY_TYPES", "extract_entities", "normalise_name"]

ENTITY_TYPES = ("person", "place", "org", "product", "other")

_SPACE = re.compile(r"\s+")
_POSSESSIVE = re.compile(r"(?<=\w)['’][sS]$")


def normalise_name(name: str) -> str:
    """The key under which a name is matched: `"The Louvre's"` -> `"louvre"`.

    NFKC, whitespace collapsed, surrounding punctuation and a possessive 's / ’s stripped,
    casefolded, a leading "the " dropped. Chinese is only NFKC- and whitespace-normalised
    (the English rules cannot fire on it).
    """
    text = name
    # Repeated to a fixpoint so that a norm normalises to itself: one pass can expose more to
    # strip ("the 'x'"), and casefolding can produce text that NFKC changes again.
    for _ in range(8):
        step = _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip()
        step = _strip_punctuation(_POSSESSIVE.sub("", _strip_punctuation(step))).casefold()
        step = step[4:] if step.startswith("the ") else step
        if step == text:
            break
        text = step
    return text


def _strip_punctuation(text: str) -> str:
    """`text` without the punctuation and spaces around it ("'Mel!'" -> "Mel")."""

    def junk(ch: str) -> bool:
        return ch.isspace() or unicodedata.category(ch).startswith("P")

    start, end = 0, len(text)
    while start < end and junk(text[start]):
        start += 1
    while end > start and junk(text[end - 1]):
        end -= 1
    return text[start:end]


@dataclass(frozen=True)
class _Span:
    """A candidate entity: where it is in the (NFKC) text, as written, and its type."""

    start: int
    end: int
    name: str
    type: str


def extract_entities(text: str, *, speakers: Sequence[str] = ()) -> list[EntityMention]:
    """Named entities in one message, deduplicated by (norm, type), in order of appearance.

    `speakers` are the conversation's participants: their names are always people.

    Example:
        >>> extract_entities("Thanks Caroline! I work at Google.")
        [EntityMention(name='Caroline', norm='caroline', type='person'), \
EntityMention(name='Google', norm='google', type='org')]
    """
    text = unicodedata.normalize("NFKC", text)
    spans = _english_spans(text, _speaker_keys(speakers))
    if has_cjk(text):
        spans += _chinese_spans(text)
    mentions: list[EntityMention] = []
    seen: set[tuple[str, str]] = set()
    for span in _without_overlaps(spans):
        norm = normalise_name(span.name)
        if norm and (norm, span.type) not in seen:
            seen.add((norm, span.type))
            mentions.append(EntityMention(name=span.name, norm=norm, type=span.type))
    return mentions


def _speaker_keys(speakers: Sequence[str]) -> frozenset[str]:
    """Normalised speaker names and their first words ("Caroline Lee" -> both forms)."""
    keys: set[str] = set()
    for speaker in speakers:
        norm = normalise_name(speaker)
        if norm:
            keys.update((norm, norm.split()[0]))
    return frozenset(keys)


def _without_overlaps(spans: list[_Span]) -> list[_Span]:
    """Spans in text order; where two overlap, the earlier (then the longer) one wins."""
    kept: list[_Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.start - s.end)):
        if not kept or span.start >= kept[-1].end:
            kept.append(span)
    return kept


# --- English -------------------------------------------------------------------------------

_L = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
_TOKEN = re.compile(rf"[{_L}][{_L}0-9]*(?:['’&-][{_L}0-9]+)*|[0-9]+[{_L}]*|&")
_CONTRACTED = re.compile(r"['’](?:re|ve|ll|d|m)$", re.I)
_INLINE_GAP = re.compile(r"[ \t\u00a0]{1,3}")
_TITLE_GAP = re.compile(r"\.?[ \t\u00a0]{1,3}")
_ACRONYM = re.compile(r"[A-Z][A-Z&]{1,7}")
# Characters that may sit between a sentence boundary and its first word.
_OPENERS = frozenset("\"'“‘([{«*-–—•>")
_BOUNDARIES = frozenset(".!?…。！？:;\n")
_NOT_SURNAMES = gz.CONNECTORS | gz.PLACE_SUFFIXES | gz.WEAK_PLACE_SUFFIXES | gz.ORG_SUFFIXES


@dataclass(frozen=True)
class _Tok:
    """One English word, number or "&", with its offsets."""

    text: str
    start: int
    end: int

    @property
    def base(self) -> str:
        """The word without a possessive ending or a contraction ("Melanie's" -> "Melanie",
        "They're" -> "They")."""
        return _CONTRACTED.sub("", _POSSESSIVE.sub("", self.text))

    @property
    def key(self) -> str:
        """The casefolded base, for word-list lookups."""
        return self.base.casefold()


def _english_spans(text: str, speakers: frozenset[str]) -> list[_Span]:
    """Entities written in Latin script: runs of capitalised words, trimmed and typed."""
    toks = [_Tok(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    if _is_shouting(text):
        return _shouted_spans(toks)
    spans: list[_Span] = []
    for first, last in _runs(text, toks):
        first = _trim(text, toks, first, last)
        if first > last:
            continue
        words = [tok.base for tok in toks[first : last + 1]]
        kind = _classify(words, _cue(text, toks, first, speakers))
        name = _CONTRACTED.sub("", _POSSESSIVE.sub("", text[toks[first].start : toks[last].end]))
        spans.append(_Span(toks[first].start, toks[last].end, name, kind))
    return spans


def _is_cap(tok: _Tok) -> bool:
    """Whether a token can be part of a name: capitalised or camel-case, not a stop word."""
    base = tok.base
    if len(base) < 2 or not base[0].isalpha() or base.casefold() in gz.NEVER_ENTITY:
        return False
    if base.isupper() and base.casefold() in gz.STOP_ACRONYMS:
        return False
    return base[0].isupper() or any(ch.isupper() for ch in base[1:])


def _joined(text: str, left: _Tok, right: _Tok) -> bool:
    """Whether two tokens are separated by a few spaces only (no punctuation, no newline)."""
    return _INLINE_GAP.fullmatch(text, left.end, right.start) is not None


def _runs(text: str, toks: list[_Tok]) -> list[tuple[int, int]]:
    """Index ranges of maximal name-like runs ("Bank of America", "iPhone 15 Pro")."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(toks):
        if not _is_cap(toks[i]):
            i += 1
            continue
        last = i
        while toks[last].base == toks[last].text:  # a possessive ends the name
            step = _continuation(text, toks, i, last)
            if not step:
                break
            last += step
        runs.append((i, last))
        i = last + 1
    return runs


def _continuation(text: str, toks: list[_Tok], first: int, last: int) -> int:
    """How many tokens after `last` continue the run that starts at `first` (0: none)."""
    j = last + 1
    if j >= len(toks) or not _joined(text, toks[last], toks[j]):
        return 0
    if _is_cap(toks[j]):
        return 1
    if toks[j].text[0].isdigit():
        return 1 if _takes_model_number(toks, first, last) else 0
    k = j
    while k < len(toks) and k - j < 2 and toks[k].text.casefold() in gz.CONNECTORS:
        if k > j and not _joined(text, toks[k - 1], toks[k]):
            return 0
        k += 1
    if j < k < len(toks) and _joined(text, toks[k - 1], toks[k]) and _is_cap(toks[k]):
        return k - last
    return 0


def _takes_model_number(toks: list[_Tok], first: int, last: int) -> bool:
    """Whether a number after this run is a model number ("Model 3") rather than a count."""
    before = toks[first - 1].key if first > 0 else ""
    while first < last and toks[first].key in gz.SENTENCE_STARTERS:  # "My iPhone 15"
        before, first = toks[first].key, first + 1
    lead, tail = toks[first].key, toks[last].key
    return (
        lead in gz.PRODUCT_LINES
        or tail in {"model", "series", "gen", "generation", "mark"}
        or before in gz.PRODUCT_DETERMINERS
    )


def _trim(text: str, toks: list[_Tok], first: int, last: int) -> int:
    """The run's new first index once leading greetings, titles and sentence openers go."""
    at_start = _at_sentence_start(text, toks[first].start)
    opening = True  # sentence openers only count as the very first word
    while first <= last:
        key = toks[first].key
        opener = at_start and opening and (key in gz.SENTENCE_STARTERS or _looks_inflected(key))
        if not (key in gz.INTERJECTIONS or key in gz.TITLES or key in gz.CONNECTORS or opener):
            break
        first += 1
        opening = False
    return first


def _looks_inflected(key: str) -> bool:
    """An unknown "-ing/-ed/-ly" word, likely a verb or adverb opening a sentence."""
    if len(key) <= 4 or not key.endswith(("ing", "ed", "ly")):
        return False
    return not (key in gz.FIRST_NAMES or key in gz.PLACES or key in gz.KNOWN_ORGS)


def _at_sentence_start(text: str, pos: int) -> bool:
    """Whether only quotes, brackets, emoji or spaces lie between `pos` and a sentence start."""
    k = pos - 1
    while k >= 0:
        ch = text[k]
        if ch in _BOUNDARIES:
            return True
        if not (ch.isspace() or ch in _OPENERS or unicodedata.category(ch) == "So"):
            return False
        k -= 1
    return True


def _is_shouting(text: str) -> bool:
    """Whether the message is written in capitals, so capitalisation says nothing."""
    upper = sum(ch.isupper() for ch in text)
    lower = sum(ch.islower() for ch in text)
    return upper >= 8 and upper > 3 * lower


def _shouted_spans(toks: list[_Tok]) -> list[_Span]:
    """Entities in an all-caps message: only words the word lists know, one word each."""
    lists = (("place", gz.PLACES), ("org", gz.KNOWN_ORGS), ("person", gz.FIRST_NAMES))
    return [
        _Span(tok.start, tok.end, tok.base, next(kind for kind, words in lists if tok.key in words))
        for tok in toks
        if len(tok.key) > 1
        and tok.key not in gz.SENTENCE_STARTERS
        and any(tok.key in words for _, words in lists)
    ]


@dataclass(frozen=True)
class _Cue:
    """What the words around a name say about its type."""

    prev: str  # casefolded word before the name ("" at the start)
    prev2: str  # and the one before that
    titled: bool  # Mr/Mrs/Ms/Dr… right before it
    speakers: frozenset[str]


def _cue(text: str, toks: list[_Tok], first: int, speakers: frozenset[str]) -> _Cue:
    """The context cues for the name starting at token `first`."""
    prev = toks[first - 1] if first > 0 else None
    prev2 = toks[first - 2].key if first > 1 else ""
    titled = (
        prev is not None
        and prev.key in gz.TITLES
        and _TITLE_GAP.fullmatch(text, prev.end, toks[first].start) is not None
    )
    return _Cue(prev.key if prev else "", prev2, titled, speakers)


def _classify(words: list[str], cue: _Cue) -> str:
    """The type of an English name from its words and context; "other" when nothing fits."""
    keys = [word.casefold() for word in words]
    norm = " ".join(keys[1:] if keys[0] == "the" and len(keys) > 1 else keys)
    if norm in cue.speakers or keys[0] in cue.speakers or cue.titled:
        return "person"
    if _is_product(words, keys, cue):
        return "product"
    if _is_org(keys, norm, cue):
        return "org"
    if norm in gz.PLACES or (len(words) == 1 and words[0].isupper() and norm in gz.PLACE_ACRONYMS):
        return "place"
    if _is_person(keys):
        return "person"
    if _is_place(keys, cue):
        return "place"
    if len(words) == 1 and _ACRONYM.fullmatch(words[0]):
        return "org"
    return "other"


def _is_product(words: list[str], keys: list[str], cue: _Cue) -> bool:
    """Brand + model ("Tesla Model 3", "BYD Seal"), a product line, or "a new Tesla"."""
    if keys[0] in gz.PRODUCT_LINES:
        return True
    branded = keys[0] in gz.KNOWN_ORGS
    tail = keys[-1]
    if tail in gz.ORG_SUFFIXES or tail in gz.PLACE_SUFFIXES or tail in gz.WEAK_PLACE_SUFFIXES:
        return False
    if branded and (len(keys) > 1 or cue.prev in gz.BRAND_DETERMINERS):
        return True
    has_model = any(ch.isdigit() for word in words[1:] for ch in word)
    return has_model and cue.prev in gz.PRODUCT_DETERMINERS


def _is_org(keys: list[str], norm: str, cue: _Cue) -> bool:
    """A known firm, an organisation-word name ("X University", "Bank of Y"), or an employer."""
    if norm in gz.KNOWN_ORGS:
        return True
    if len(keys) > 1 and (keys[-1] in gz.ORG_SUFFIXES or keys[-1].rstrip(".") in gz.ORG_SUFFIXES):
        return True
    if len(keys) > 2 and keys[0] in gz.ORG_HEADS and keys[1] == "of":
        return True
    return cue.prev in {"at", "for"} and cue.prev2 in gz.WORK_WORDS and norm not in gz.PLACES


def _is_person(keys: list[str]) -> bool:
    """A known given name, alone or followed by one or two surname-like words."""
    if len(keys) == 1:
        return keys[0] in gz.FIRST_NAMES
    if len(keys) > 3 or not (keys[0] in gz.FIRST_NAMES or keys[0] in gz.PINYIN_SURNAMES):
        return False
    rest = keys[1:]
    if any(word in _NOT_SURNAMES for word in rest):
        return False
    return all(word.replace("-", "").replace("'", "").isalpha() for word in rest)


def _is_place(keys: list[str], cue: _Cue) -> bool:
    """A name with a place word ("Grand Canyon", "Lake Tahoe", "in Central Park")."""
    if len(keys) < 2:
        return False
    if keys[-1] in gz.PLACE_SUFFIXES or keys[0] in gz.PLACE_PREFIXES:
        return True
    locative = cue.prev in gz.LOCATIVE_WORDS or (
        cue.prev == "the" and cue.prev2 in gz.LOCATIVE_WORDS
    )
    return locative and keys[-1] in gz.WEAK_PLACE_SUFFIXES


# --- Chinese -------------------------------------------------------------------------------

_ZH_ORG_RE = re.compile("|".join(sorted(gz.ZH_ORGS, key=len, reverse=True)))
_MODEL_TOKEN = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+-]*")


@dataclass(frozen=True)
class _ZhTok:
    """One jieba word with its part-of-speech flag and offset."""

    word: str
    flag: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.word)


@lru_cache(maxsize=1)
def _posseg() -> Any:
    """jieba's tagger, loaded on first use (about a second) with its chatter silenced."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


def _zh_tokens(text: str) -> list[_ZhTok]:
    """jieba's tagged words with offsets, known company names merged into one ORG word."""
    toks: list[_ZhTok] = []
    pos = 0
    for pair in _posseg().cut(text):
        start = text.find(pair.word, pos)
        if start >= 0:  # jieba returns substrings of its input; this only guards offsets
            toks.append(_ZhTok(pair.word, pair.flag, start))
            pos = start + len(pair.word)
    org_ends = {m.start(): m.end() for m in _ZH_ORG_RE.finditer(text)}
    merged: list[_ZhTok] = []
    i = 0
    while i < len(toks):
        end = org_ends.get(toks[i].start)
        j = i
        while end is not None and j < len(toks) - 1 and toks[j].end < end:
            j += 1
        if end is not None and toks[j].end == end:
            merged.append(_ZhTok(text[toks[i].start : end], "ORG", toks[i].start))
            i = j + 1
        else:
            merged.append(toks[i])
            i += 1
    return merged


def _chinese_spans(text: str) -> list[_Span]:
    """Entities written in Chinese, from jieba's tags plus the merges described above."""
    toks = _zh_tokens(text)
    spans: list[_Span] = []
    i = 0
    while i < len(toks):
        span, i = _zh_entity_at(toks, i)
        if span is not None:
            spans.append(span)
    return spans


def _zh_entity_at(toks: list[_ZhTok], i: int) -> tuple[_Span | None, int]:
    """The entity starting at token `i` (or None) and the index after it."""
    tok = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is not None and _zh_surname_and_given_name(tok, nxt):
        return _Span(tok.start, nxt.end, tok.word + nxt.word, "person"), i + 2
    kind = gz.ZH_FLAG_TYPES.get(tok.flag)
    if kind is None or len(tok.word) < 2 or tok.word in gz.ZH_NOT_ENTITIES:
        return None, i + 1
    if not has_cjk(tok.word):
        return None, i + 1  # Latin words are the English extractor's job
    last = _zh_org_suffix(toks, i)
    if last is not None:
        return _zh_span(toks, i, last, "org"), last + 1
    if kind in {"org", "other"}:
        last = _zh_model(toks, i)
        if last is not None:
            return _zh_span(toks, i, last, "product"), last + 1
        if kind == "other" and re.search("[0-9A-Za-z]", tok.word):
            kind = "product"
    return _zh_span(toks, i, i, kind), i + 1


def _zh_surname_and_given_name(surname: _ZhTok, given: _ZhTok) -> bool:
    """Whether jieba split one name into a surname and a tagged given name (林 + 梅)."""
    if not (surname.word in gz.ZH_SURNAMES or surname.word in gz.ZH_COMPOUND_SURNAMES):
        return False
    return (
        given.start == surname.end
        and given.flag in {"nr", "nrfg", "nrt"}
        and 1 <= len(given.word) <= 2
        and given.word not in gz.ZH_NOT_ENTITIES
    )


def _zh_span(toks: list[_ZhTok], first: int, last: int, kind: str) -> _Span:
    """A span covering tokens `first`..`last` (which are contiguous in the text)."""
    name = "".join(tok.word for tok in toks[first : last + 1])
    return _Span(toks[first].start, toks[last].end, name, kind)


def _zh_org_suffix(toks: list[_ZhTok], i: int) -> int | None:
    """Index of an organisation suffix (公司, 大学…) ending the name at `i`, if there is one.

    Up to two short nouns or numbers may come between: 杭州/第二/中学, 广州市/第一/人民/医院.
    """
    for j in range(i + 1, min(i + 5, len(toks))):
        tok = toks[j]
        if tok.start != toks[j - 1].end:
            return None
        if tok.word in gz.ZH_ORG_SUFFIXES:
            return j
        if j - i > 2 or len(tok.word) > 4 or not (tok.flag[0] == "n" or tok.flag == "m"):
            return None
        if not has_cjk(tok.word):
            return None
    return None


def _zh_model(toks: list[_ZhTok], i: int) -> int | None:
    """Index of the last Latin/number model token right after a brand (小米14, 特斯拉Model3)."""
    last = None
    j = i + 1
    while j < len(toks):
        tok = toks[j]
        adjacent = tok.start == toks[j - 1].end
        if adjacent and tok.word == " " and last is None:
            j += 1
            continue
        if not (adjacent and tok.flag in {"eng", "m"} and _MODEL_TOKEN.fullmatch(tok.word)):
            break
        last = j
        j += 1
    if last is None:
        return None
    after = toks[last + 1].word[:1] if last + 1 < len(toks) else ""
    return None if after and after in gz.ZH_UNITS else last


# --- Aliases -------------------------------------------------------------------------------
