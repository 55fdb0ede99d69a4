"""The default extractor: offline rules for English and Chinese.

From each turn it keeps the sentences that state something about the speaker or a named
thing, rewrites them as third-person statements with dates resolved, and types them
(fact, preference, event) with a triple where a known shape applies, entities, keyphrases,
importance and expiry. Questions, greetings and fillers are not memories.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta

from dualtrace.cjk import CJK, has_cjk
from dualtrace.encode import patterns
from dualtrace.encode.base import Extraction, Window
from dualtrace.encode.effect import as_datetime, dated_starts, starting, valid_from
from dualtrace.encode.person import is_first_person, reports_done, to_third_person
from dualtrace.encode.referents import with_referent
from dualtrace.encode.scene import build_scene
from dualtrace.models import EntityMention, Episode, MemoryDraft, TimeMention
from dualtrace.text.dates import find_times, resolve_text
from dualtrace.text.entities import extract_entities, normalise_name
from dualtrace.text.lexical import query_terms
from dualtrace.text.question_cues import asks, stated_part
from dualtrace.text.script import in_script_of, is_traditional, simplified
from dualtrace.text.sentences import EMOJI, split_sentences
from dualtrace.text.slots import SlotStatement, atomic_clauses, find_statements, is_request
from dualtrace.text.slots.catalogue import BY_NAME
from dualtrace.text.slots.names import (
    GREETING_EN,
    INTRODUCES,
    NAME_ALONE,
    SIGNS_OFF,
    addressed_name,
)
from dualtrace.text.slots.values import work_place
from dualtrace.text.smalltalk import is_small_talk

# "我" is the speaker, except inside a word: 自我介绍 (a self-introduction), 忘我 (rapt)
_ZH_PRONOUNS = (
    (re.compile(r"(?<![自忘])我们|咱们"), "{S}等人"),
    (re.compile(r"(?<![自忘])我"), "{S}"),
)
# A discourse opener or an acknowledgement before the statement ("Big news: I got the job",
# "Not yet, I'll measure it", "对了，我下个月…") is how it was said, not what was said.
_OPENER = re.compile(
    rf"^\s*(?:(?:{GREETING_EN}|also|anyway|anyways|well|oh|so|wow|haha+|lol|yeah|yep|yes|no|"
    r"nope|ok|okay|sure|thanks|thank you|not yet|by the way|btw|big news|good news|guess what|"
    r"um+|ah)\b\s*[,!:.…—–-]+|(?:对了|哈哈+|嗯+|啊|哦|另外|话说|好的|好吧|还行|谢谢|还没|是的|"
    r"好消息)\s*[，,！!：:。…]+)\s*",
    re.I,
)
_ADDRESS = re.compile(
    rf"^\W*(?:{GREETING_EN}|yeah|yep|yes|wow|woah|whoa|oh|ok|okay|sure|thanks|thank you|cool"
    r"|nice|great|sounds good|definitely|congrats)\s+(?-i:[A-Z][a-z]+)\s*[,!.:~]+\s*",
    re.I,
)
_SAYS_SOMETHING = 3  # content words of a clause that says something of what it names
_FUTURE_GRANULARITIES = frozenset({"day", "week", "weekend"})
# What begins on a day goes on after it ("my new job starts Monday"): no expiry.
_BEGINS = re.compile(r"\b(?:start|starts|starting|begin|begins|beginning)\b|开始|入职", re.I)


def _as_typed(draft: MemoryDraft, typed: dict[str, str]) -> MemoryDraft:
    """The draft's texts in the script its turns were typed in (Traditional read in
    Simplified is shown in Traditional); its slot and entities stay as the rules read them,
    which is how questions are read too."""
    said = "\n".join(typed.get(i, "") for i in draft.source_episode_ids)
    if not is_traditional(said):
        return draft
    return replace(
        draft, text=in_script_of(draft.text, said), scene=in_script_of(draft.scene, said)
    )


@dataclass(frozen=True)
class Said:
    """One clause of a turn as extraction reads it: the turn, the turn before, who heard it,
    and whether it opens the turn (nothing but small talk before it)."""

    clause: str
    episode: Episode
    previous: Episode | None
    listeners: list[str]
    opening: bool


@dataclass(frozen=True)
class RulesExtractorConfig:
    """Which roles are mined (assistant turns hold advice, not facts about the user)."""

    roles: tuple[str, ...] = ("user",)
    min_importance: float = 0.3
    min_chars_en: int = 12
    min_chars_zh: int = 5


class RulesExtractor:
    """Offline EN/ZH pattern extractor; deterministic and fast (no model calls)."""

    def __init__(self, config: RulesExtractorConfig | None = None) -> None:
        self.config = config or RulesExtractorConfig()

    @property
    def name(self) -> str:
        return "rules"

    def extract(self, window: Window) -> Extraction:
        """Drafts for every memorable sentence of the window's new turns."""
        drafts: list[MemoryDraft] = []
        seen: dict[str, int] = {}  # text -> index in drafts
        # every rule reads Simplified Chinese; a turn typed in Traditional is read in it
        turns = [replace(e, text=simplified(e.text)) for e in (*window.context, *window.episodes)]
        for i, episode in enumerate(turns):
            previous = turns[i - 1] if i > 0 else None
            listeners = _listeners(episode, window)
            if i >= len(window.context) and episode.role == "assistant" and listeners == ["user"]:
                users_words = [e.text for e in turns[:i] if e.role == "user"]
                named = _addressed(episode, previous, listeners, users_words)
                if named is not None and named.text.casefold() not in seen:
                    seen[named.text.casefold()] = len(drafts)
                    drafts.append(named)
            if i < len(window.context) or episode.role not in self.config.roles:
                continue
            starts = dated_starts(_clauses(episode.text), episode.occurred_at)
            opening = True  # nothing but acknowledgements before this clause in the turn
            for clause in _clauses(episode.text):
                said = Said(clause, episode, previous, listeners, opening)
                opening = opening and _acknowledges(clause)
                for found in self._drafts(said):
                    draft = starting(found, starts, episode.occurred_at, clause)
                    key = draft.text.casefold()
                    if key in seen:  # said again in this window: one draft citing both turns
                        first = drafts[seen[key]]
                        sources = tuple(dict.fromkeys((*first.source_episode_ids, episode.id)))
                        drafts[seen[key]] = replace(first, source_episode_ids=sources)
                        continue
                    seen[key] = len(drafts)
                    drafts.append(draft)
        typed = {e.id: e.text for e in (*window.context, *window.episodes)}
        return Extraction(drafts=[_as_typed(d, typed) for d in drafts], extractor=self.name)

    def _drafts(self, at: Said) -> list[MemoryDraft]:
        """The clause's memory, or one per slot when it states several ("我在阿里巴巴做产品
        经理": an employer and a title, each changing on its own)."""
        episode, previous, listeners = at.episode, at.previous, at.listeners
        # slots are read from the clause as said (a greeting is how "Hi, I'm Sam" names the
        # speaker); the memory's text leaves the openers out, and says whom an opening
        # pronoun means when the turn before named it
        said, clause = at.clause, _bare(at.clause, episode.speaker or episode.role, listeners)
        if not clause:
            return []
        if asks(clause):
            # a question still takes as given what it names beside a role: "gift ideas for
            # my partner arjun?" says who the partner is
            given = [s for s in find_statements(said) if s.given and not s.ended]
            found = (self._draft(clause, episode, previous, listeners, s, said=True) for s in given)
            return [d for d in found if d is not None]
        referred = False  # the opening pronoun now names what it points back to
        if at.opening:
            speakers = (episode.speaker or episode.role, *listeners)
            resolved = with_referent(clause, previous, speakers)
            if resolved != clause:
                # ... which makes a memory of a clause that says something of it, not of
                # "They sure are." (unless it was one anyway)
                says = len(query_terms(clause)) >= _SAYS_SOMETHING
                if says or self._draft(clause, episode, previous, listeners) is not None:
                    referred, clause = says, resolved
        statements = find_statements(said)
        if not statements:
            if is_request(clause):  # "recommend me a book", "帮我…": not about the speaker
                return []
            draft = self._draft(clause, episode, previous, listeners, about=referred)
            return [] if draft is None else [draft]
        if len(statements) == 1:
            # a request's (only what it names beside a role) in the slot's own words
            request = is_request(clause)
            draft = self._draft(clause, episode, previous, listeners, statements[0], said=request)
            return [] if draft is None else [draft]
        found = (
            self._draft(clause, episode, previous, listeners, s, said=True) for s in statements
        )
        return [d for d in found if d is not None]

    def _draft(
        self,
        sentence: str,
        episode: Episode,
        previous: Episode | None,
        listeners: list[str],
        slot: SlotStatement | None = None,
        *,
        said: bool = False,
        about: bool = False,
    ) -> MemoryDraft | None:
        """The clause's memory (`slot`: the one slot it is for; `said`: in the slot's own
        words), or None for a clause not worth one; `about`: the clause names what the turn
        before spoke of, which makes it a remark about something."""
        if slot is None and not self._worth_keeping(sentence):
            return None
        speaker = _speaker_name(episode)
        anchor = episode.occurred_at
        first_person = is_first_person(sentence) or "我" in sentence
        entities = _entities(sentence, speaker, listeners)
        times = find_times(sentence, anchor)
        triple = _triple(sentence, speaker) if slot is None else _slot_triple(slot, speaker)
        if not (first_person or times or len(entities) > 1 or triple or about):
            return None  # a remark about nothing in particular
        statement = _third_person(sentence, speaker, _listener(listeners))
        if slot is not None and said:
            statement = _say(slot, speaker, sentence)
        kind = _kind(sentence, times, triple) if slot is None else _slot_kind(slot)
        importance = _importance(sentence, first_person, triple, entities, times)
        if importance < self.config.min_importance and slot is None:
            return None
        topic = patterns.topic_of(sentence)
        return MemoryDraft(
            kind=kind,
            text=resolve_text(statement, anchor),
            scene=build_scene(
                episode,
                sentence,
                listeners=listeners,
                previous=previous,
                times=times,
                topic=topic,
            ),
            source_episode_ids=(episode.id,),
            subject=triple[0] if triple else None,
            predicate=triple[1] if triple else None,
            object=triple[2] if triple else None,
            topic=topic,
            importance=importance,
            valid_from=valid_from(kind, times, anchor, sentence, slot),
            expire_at=None
            if reports_done(sentence) or _BEGINS.search(sentence)
            else _expiry(times, anchor),
            entities=tuple(entities),
            keyphrases=tuple(_keyphrases(sentence, speaker)),
            slot=None if slot is None else _slot_detail(slot),
        )

    def _worth_keeping(self, sentence: str) -> bool:
        if asks(sentence) or is_small_talk(sentence):  # "That's awesome, Mel!" states nothing
            return False
        rest = patterns.GREETING.sub("", sentence, count=1).strip()
        if has_cjk(sentence):
            return len(CJK.findall(rest)) >= self.config.min_chars_zh
        return len(rest) >= self.config.min_chars_en and len(query_terms(rest)) >= 2


def _addressed(
    episode: Episode, previous: Episode | None, listeners: list[str], users_words: list[str]
) -> MemoryDraft | None:
    """The user's name where an assistant's turn calls them by one ("Hi Solveig! …"): the
    agent's word for who it talks to. It fills the name only while the user has given none
    (`slot["addressed"]`, see `lifecycle/consolidate.py`). Not a name the user's turns before
    it (`users_words`) give someone else ("my son Leo wants a story" → "Hi Leo! Once …")."""
    name = addressed_name(episode.text)
    if name is None or any(_names_another(name, text) for text in users_words):
        return None
    english, chinese = BY_NAME["name"].say
    zh = has_cjk(name)
    text = chinese.format(s="用户", v=name) if zh else english.format(s="The user", v=name)
    slot = {**_slot_detail(SlotStatement("name", name)), "addressed": True}
    return MemoryDraft(
        kind="fact",
        text=text,
        scene=build_scene(
            episode,
            split_sentences(episode.text)[0],
            listeners=listeners,
            previous=previous,
            times=[],
            topic=None,
        ),
        source_episode_ids=(episode.id,),
        subject="the user",
        predicate="name",
        object=name,
        importance=0.45,
        valid_from=episode.occurred_at,
        entities=(EntityMention(name, normalise_name(name), "person"),),
        slot=slot,
    )


def _names_another(name: str, text: str) -> bool:
    """Whether a user's turn gives `name` to someone else: a value of a slot other than the
    user's name ("my son Leo", "my partner Leo"), or the subject of one ("Leo's school is …")."""
    folded = name.casefold()
    if folded not in text.casefold():
        return False
    for s in find_statements(text):
        if s.subject and s.subject.casefold() == folded:
            return True
        value = (s.value or "").casefold()
        named = folded in value if has_cjk(name) else folded in re.split(r"[\s,，、和与]+", value)
        if s.attribute != "name" and named:
            return True
    return False


def _acknowledges(clause: str) -> bool:
    """Whether a clause only acknowledges ("Thanks!", "Wow, it looks awesome!"): a pronoun
    after it still points at what the turn before named, not after a question of its own
    ("Are they yours?") or a statement."""
    rest = _without_openers(clause)
    return not rest or (is_small_talk(rest) and not asks(rest))


def _without_openers(clause: str) -> str:
    """The clause without its leading openers, its first letter capitalised again."""
    rest = clause
    while match := _OPENER.match(rest):
        if match.end() == len(rest):
            return ""
        rest = rest[match.end() :]
    if rest is clause:
        return clause
    return rest[:1].upper() + rest[1:]


def _bare(clause: str, speaker: str, listeners: list[str]) -> str:
    """The clause without its openers and the names it addresses, however they alternate
    ("Thanks, Maria. They …", "Yeah, Gina, thanks, …")."""
    before = None
    while clause != before:
        before, clause = clause, _without_openers(_unaddressed(clause, speaker, listeners))
    return clause


def _unaddressed(clause: str, speaker: str, listeners: list[str]) -> str:
    """The clause without the listener's name where it addresses them ("Hey Jon, my shop
    opened", "Your support, Gina, means a lot", "Thanks for the advice, Jon!"): whom it was
    said to is the memory's scene, not its fact. A greeting or an interjection followed at
    once by a name other than the speaker's addresses someone too ("Yeah Maria, …"), before
    they have spoken."""
    rest = _ADDRESS.sub("", clause)
    if rest != clause and rest.strip() and speaker in clause[: len(clause) - len(rest)]:
        rest = clause  # "Hey Priya, …" said by Priya introduces her
    names = [n for n in listeners if n[:1].isupper()]
    if names:
        name = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        rest = re.sub(rf"^\W*(?:{name})\s*[,!.:~]+\s*", "", rest)
        rest = re.sub(rf"\s*,\s*(?:{name})\s*(?=[!.?…~]*\s*$)", "", rest)
        if middle := re.search(rf"\s*,\s*(?:{name})\s*,\s*", rest):
            # "Yeah, Gina, thanks …" keeps its opener's comma; "Your support, Gina, means …"
            # reads on without one
            before, after = rest[: middle.start()], rest[middle.end() :]
            rest = f"{before}, {after}" if _OPENER.fullmatch(f"{before},") else f"{before} {after}"
    if rest == clause or not rest.strip():
        return clause
    return rest[:1].upper() + rest[1:]


def _clauses(text: str) -> list[str]:
    """The turn's clauses as extraction reads them: sentences, cut further where a sentence
    states several slots; a clause that opens on a pronoun for someone named before it stays
    with the clause before (`_with_antecedents`)."""
    # (a sentence that ends on a question gives what it states before it: "搬到成都了，有啥
    # 好吃的" states the move)
    sentences = [stated_part(s) or s for s in split_sentences(text, clauses=True)]
    clauses = [c for s in sentences for c in atomic_clauses(s)]
    # the marks left bare by "!!", "..." or "？？" are no clause: dropped, so that the clause
    # after them meets the one before ("we got a kitten!! her name is Mochi")
    clauses = [c for c in clauses if _WORD.search(c)]
    if len(clauses) > 1 and not _without_openers(clauses[0]):
        # an opener alone ("hi!!", "ok so.") leads the clause after it, as said: "hi!! Priya,
        # data scientist at Monzo, …" introduces the speaker
        clauses[:2] = [f"{clauses[0]} {clauses[1]}"]
    # (a comma where the cut took it: "hey, Anselm here" + "Science teacher at …")
    joined = (
        ", ".join(clauses[:2]) if clauses and clauses[0][-1:].isalnum() else " ".join(clauses[:2])
    )
    if len(clauses) > 1 and not INTRODUCES.match(clauses[0]) and INTRODUCES.match(joined):
        # ... and so does a greeting and a name alone before a role: "hi! Hannah. UX
        # designer at Canva" (not "Hi Tom. Did the parcel come?")
        clauses[:2] = [joined]
    if len(clauses) > 1 and SIGNS_OFF.match(clauses[-2]) and NAME_ALONE.match(clauses[-1]):
        # a letter's sign-off and the name under it: "Kind regards," + "Dana Whitfield"
        clauses[-2:] = [f"{clauses[-2]} {clauses[-1]}"]
    return _with_antecedents(_with_news(clauses))


def _with_news(clauses: list[str]) -> list[str]:
    """A clause of news that names nothing ("moved!!!", "got promoted!!") joins the clause
    after it where only together they state a slot ("moved!!! lisbon is so much sunnier"):
    the place or role said next is what the news was about."""
    out: list[str] = []
    for clause in clauses:
        if out and _NEWS.search(out[-1]) and not find_statements(out[-1]):
            joined = f"{out[-1]} {clause}"
            alone = {(s.attribute, s.value) for s in find_statements(clause)}
            if any((s.attribute, s.value) not in alone for s in find_statements(joined)):
                out[-1] = joined
                continue
        out.append(clause)
    return out


# a short clause that ends on an exclamation, a stop or an emoji: how news is said before
# what it is ("ok so i've been seeing someone 😳" + "tobias, he's a sound engineer")
_NEWS = re.compile(rf"^\W*(?:\S+\s+){{0,5}}\S+?\s*(?:!+|！+|\.|[{EMOJI}]+)\W*$")


_WORD = re.compile(r"[^\W_]")
# A clause that opens on a third-person pronoun points back at someone the clause before
# named ("My sister Anna lives in Munich. Her birthday is…"; "我姐姐住在广州。她…").
_POINTS_BACK = re.compile(r"^(?:(?:he|she|they|his|her|their|him|them)\b|他们|她们|他|她)", re.I)
# ... and a clause that only gives a name gives it to whom or what the clause before spoke
# of, slot or not ("We adopted a puppy. His name is Rolo."; "养了只猫，叫年糕"):
_NAMES_IT = re.compile(
    r"^(?:(?:her|his|its|their)\s+names?(?:['’]s|\s+is|\s+was)?|(?:she|he|it)(?:['’]s|\s+is)"
    r"\s+called|named|called)\s+(?-i:[A-Z])|^(?:[她他它]的?)?(?:名字)?叫(?!做)|^名叫"
    # ("named him Rusty", "ava named her miso")
    r"|^(?:[\w,]+\s+){0,3}?(?:named|called)\s+(?:him|her|it)\s+\w",
    re.I,
)


def _with_antecedents(clauses: list[str]) -> list[str]:
    """The clauses, each that opens on a pronoun joined to the one before it, so that its
    memory says whom it is about ("… Munich. Her birthday is on 12 October." rather than
    "Her birthday is on 12 October" alone). Left apart where either states a slot of one
    value (each is a memory of its own, closed on its own) or the one before asks or requests
    something (that is no memory); a clause that only names (`_NAMES_IT`) joins a slot's
    clause too, as its name, and any joins one of members that accumulate ("My sister Mia
    visited! She stayed a week.": the family)."""
    joined: list[str] = []
    for clause in clauses:
        before = joined[-1] if joined else None
        if (
            before is not None
            and (_NAMES_IT.match(clause) or _POINTS_BACK.match(clause))
            and not asks(before)
            and not is_request(before)
            and not _acknowledges(before)  # "Thanks for asking!" names no one
            and (_NAMES_IT.match(clause) or all(s.many for s in find_statements(before)))
            and not find_statements(clause)
        ):
            joined[-1] = before + ("" if has_cjk(clause[:1]) else " ") + clause
        else:
            joined.append(clause)
    return joined


def _slot_subject(slot: SlotStatement, speaker: str) -> str:
    """The slot's subject as a name: the speaker, or the speaker's relative."""
    if slot.subject is None:
        return speaker
    if has_cjk(slot.subject):
        return f"{'用户' if speaker == 'the user' else speaker}的{slot.subject}"
    return f"{speaker}'s {slot.subject}"


def _slot_triple(slot: SlotStatement, speaker: str) -> tuple[str, str, str]:
    return _slot_subject(slot, speaker), slot.attribute, slot.value or ""


def _say(slot: SlotStatement, speaker: str, sentence: str) -> str:
    """The attribute's own wording of one slot of a clause that states several."""
    subject = _slot_subject(slot, speaker)
    found = BY_NAME[slot.attribute]
    # a value that ended unnamed ("I quit my job") is said as the end of one
    english, chinese = found.say_ended if slot.value is None and slot.ended else found.say
    if has_cjk(sentence):
        return chinese.format(s="用户" if subject == "the user" else subject, v=slot.value)
    value = _with_article(slot.value or "", sentence)
    if slot.attribute == "occupation" and value == slot.value and _COUNTED_ROLE.match(value):
        value = f"{'an' if value[0] in 'aeiou' else 'a'} {value}"  # "works as an analyst"
    text = english.format(s=subject, v=value)
    if slot.attribute == "works_at" and (place := work_place(slot.value or "", sentence)):
        text = f"{text.removesuffix('.')} in {place}."  # "works at Northwind in Chicago."
    return text[0].upper() + text[1:]


# A role said without its article, one of many holding it ("analyst at Fabrikam"), not a way of
# working ("freelance") nor a title of one ("CEO", "Head of Product")
_COUNTED_ROLE = re.compile(r"(?!(?:freelance|self-employed)\b)[a-z][a-z-]*(?:\s+[a-z-]+)*$")


def _with_article(value: str, sentence: str) -> str:
    """The value with the article the sentence gave it ("works as a nurse at the children's
    hospital"): a slot's value is stored bare, a memory's text is read as English."""
    said = re.search(rf"\b(a|an|the)\s+{re.escape(value)}\b", sentence, re.I) if value else None
    return f"{said.group(1).lower()} {value}" if said else value


def _slot_detail(slot: SlotStatement) -> dict[str, object]:
    """The slot as the memory's metadata keeps it (where in the clause it was said aside)."""
    return {k: v for k, v in asdict(slot).items() if k not in ("start", "given")}


def _speaker_name(episode: Episode) -> str:
    """The name a statement is about; a turn without a name is "the user"'s."""
    name = episode.speaker or episode.role
    return "the user" if name == "user" else name


def _listeners(episode: Episode, window: Window) -> list[str]:
    speaker = episode.speaker or episode.role
    names = [p for p in window.participants if p != speaker]
    if names:
        return names
    others = {e.speaker or e.role for e in (*window.context, *window.episodes)}
    return sorted(n for n in others if n != speaker)


def _listener(listeners: list[str]) -> str | None:
    """Whom "you" means: the one named listener. Said to an assistant, "you" stays: the
    agent that reads the memory is that assistant, and a user's "you" is often anyone's
    ("can help you cut energy waste", "someone you love")."""
    if len(listeners) != 1 or listeners[0] in ("user", "assistant"):
        return None
    return listeners[0]


def _third_person(sentence: str, speaker: str, listener: str | None = None) -> str:
    if not has_cjk(sentence):
        return to_third_person(sentence, speaker, listener)
    if speaker == "the user":
        speaker = "用户"
    text = sentence
    for pronoun, replacement in _ZH_PRONOUNS:
        text = pronoun.sub(replacement, text)
    return text.replace("{S}", speaker)


def _triple(sentence: str, speaker: str) -> tuple[str, str, str] | None:
    for pattern in patterns.TRIPLES:
        match = pattern.regex.search(sentence)
        if match:
            obj = match.group("obj").strip(" ，,、")
            obj = re.split(r"\s+(?:and|but|because|so|since|which|who)\s+|[，,]", obj)[0].strip()
            obj = obj.rstrip("吧啊呢哦呀嘛了")  # a sentence-final particle is not the value
            if obj:
                return speaker, pattern.predicate, obj
    return None


def _kind(sentence: str, times: list[TimeMention], triple: tuple[str, str, str] | None) -> str:
    predicate = triple[1] if triple else ""
    if predicate in {"likes", "dislikes", "prefers"} or (
        not triple and patterns.PREFERENCE_CUES.search(sentence)
    ):
        return "preference"
    if times or patterns.EVENT_CUES.search(sentence):
        if predicate in patterns.SINGLE_VALUED or predicate == "has":
            return "fact"
        return "event"
    return "fact"


def _slot_kind(slot: SlotStatement) -> str:
    """A slot's value is a fact (a liking, a preference); that it ended, an event."""
    if slot.ended:
        return "event"
    return "preference" if slot.attribute in {"hobby", "favourite"} else "fact"


def _importance(
    sentence: str,
    first_person: bool,
    triple: tuple[str, str, str] | None,
    entities: list[EntityMention],
    times: list[TimeMention],
) -> float:
    score = 0.3 + (0.15 if first_person else 0.0)
    score += 0.15 if triple else 0.0
    score += 0.1 if len(entities) > 1 else 0.0
    score += 0.05 if times else 0.0
    score += 0.15 if patterns.DECISION_CUES.search(sentence) else 0.0
    score += 0.3 if patterns.IMPORTANT_CUES.search(sentence) else 0.0
    return round(min(score, 1.0), 3)


def _entities(sentence: str, speaker: str, listeners: list[str]) -> list[EntityMention]:
    found = extract_entities(sentence, speakers=[speaker, *listeners])
    me = EntityMention(speaker, normalise_name(speaker), "person")
    return [me, *(e for e in found if e.norm != me.norm)]


def _keyphrases(sentence: str, speaker: str) -> list[str]:
    skip = set(normalise_name(speaker).split())
    words = [t for t in query_terms(sentence) if t not in skip and len(t) > 2]
    return sorted(dict.fromkeys(words), key=len, reverse=True)[:6]


def _expiry(times: list[TimeMention], anchor: datetime) -> datetime | None:
    """Time-bound present or future statements ("this week", "明天") expire after their range
    (what the speaker reports done or begun on such a day stays: see `reports_done`)."""
    bound = [m for m in times if m.granularity in _FUTURE_GRANULARITIES]
    if not bound or any(m.last_day < anchor.date() for m in bound):
        return None
    last = max(m.last_day for m in bound)
    return as_datetime(last, anchor.tzinfo) + timedelta(days=1)
