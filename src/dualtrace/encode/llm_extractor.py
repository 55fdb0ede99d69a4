"""LLM extraction: one chat call per window turns new conversation turns into memory drafts.

`LLMExtractor` asks the model for typed memories (fact, preference, event), each with a fact
trace (`text`) and a scene trace (`scene`), validates every item, and never raises for what
the model answered: failures come back as `Extraction.error`. Because a scene is meant to
recall the situation, not embellish it, a scene naming anything absent from the turns (a
city, a number, a name) is replaced by a quote of the source turn. `FallbackExtractor` runs
a second extractor when the first fails, and still reports the failure.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from typing import Any

from dualtrace.cjk import CJK_CLASS
from dualtrace.encode.base import Extraction, Extractor, Usage, Window
from dualtrace.encode.llm_slots import ATTRIBUTE_LINES, llm_slot
from dualtrace.errors import LLMError, MalformedOutputError
from dualtrace.llm.base import LLM, ChatMessage
from dualtrace.llm.json_output import parse_json_object
from dualtrace.llm.settings import check_call_settings
from dualtrace.models import EntityMention, Episode, MemoryDraft
from dualtrace.text.slots import BY_NAME

__all__ = [
    "MEMORY_SCHEMA",
    "FallbackExtractor",
    "LLMExtractor",
    "LLMExtractorConfig",
    "build_prompt",
    "turn_id",
]

_log = logging.getLogger(__name__)

KINDS = ("fact", "preference", "event")
ENTITY_TYPES = ("person", "place", "org", "product", "other")
_ENTITY_ALIASES = {
    "organization": "org",
    "organisation": "org",
    "company": "org",
    "location": "place",
    "city": "place",
    "country": "place",
}
_FALLBACK_QUOTE_CHARS = 200
_DEFAULT_IMPORTANCE = 0.5

_NULLABLE_STRING: dict[str, Any] = {"type": ["string", "null"]}
MEMORY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "memories": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": list(KINDS)},
                    "text": {"type": "string"},
                    "scene": {"type": "string"},
                    "subject": _NULLABLE_STRING,
                    "predicate": _NULLABLE_STRING,
                    "object": _NULLABLE_STRING,
                    "topic": _NULLABLE_STRING,
                    "ended": {"type": "boolean"},
                    "maybe": {"type": "boolean"},
                    "importance": {"type": "number", "minimum": 0, "maximum": 1},
                    "valid_from": _NULLABLE_STRING,
                    "expires": _NULLABLE_STRING,
                    "entities": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string"},
                                "type": {"type": "string", "enum": list(ENTITY_TYPES)},
                            },
                            "required": ["name", "type"],
                        },
                    },
                    "source_turn_ids": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["kind", "text", "scene", "source_turn_ids"],
            },
        }
    },
    "required": ["memories"],
}

_SYSTEM_PROMPT = (
    """\
You extract long-term memories from a conversation for a personal memory system.

Kinds of memory:
- "fact": a lasting fact about a person (where they live or work, family, possessions, \
plans, budgets).
- "preference": a like, dislike, wish or habit.
- "event": something that happened or will happen at a particular time.

Rules:
- Extract only from the NEW turns. CONTEXT turns only help to resolve references.
- Greetings, fillers, thanks and questions are not memories. When nothing is worth \
remembering, return {"memories": []}.
- "text": one third-person declarative statement that names the speaker (e.g. "Alice \
lives in ..."); never "I", "you", "my" or "your". Resolve relative dates ("yesterday", \
"next Friday", "this week") to absolute dates using the date of the turn. Write it in the \
language of the turn.
- "scene": one or two sentences in English on when (absolute date and weekday), who was \
talking, what the conversation was about and what led to the statement. Use ONLY details \
present in the turns: no invented places, names, numbers or reasons. Copy names, places \
and numbers exactly as written in the turns.
- "subject", "predicate", "object": the statement as a triple, or null. The subject is \
the speaker as Participants names them, or someone else as the turns name them \
("user's daughter", "Alice"). Where it states \
one of the ATTRIBUTES listed below, of the speaker or of someone else, the predicate is \
that attribute's name and the object its value, copied exactly as written in the turns (a \
city, a company, a role, a pet's name); otherwise a snake_case predicate, e.g. likes, \
dislikes, plans_to.
- "ended": true where the statement says the attribute's value no longer holds (moved \
away, quit, sold, broke up); "maybe": true where the value is only hoped for, weighed or \
guessed.
- "topic": a short topic label, e.g. "car purchase".
- "importance": 0 to 1, how useful this is to know months later.
- "valid_from": ISO date (YYYY-MM-DD) from which the statement holds or on which the \
event happens, or null.
- "expires": ISO date after which a time-bound statement ("this week", "until Friday") \
no longer holds, or null.
- "entities": people, places, organisations and products named, each {"name", "type"} \
with type person, place, org, product or other.
- "source_turn_ids": the ids, from the square brackets, of the NEW turns it comes from.

Answer with the JSON object only.

ATTRIBUTES (name, then what it says of a person X with the value V):
"""
    + ATTRIBUTE_LINES
)

_SHAPE = (
    '{"memories": [{"kind": "fact|preference|event", "text": "...", "scene": "...", '
    '"subject": "...|null", "predicate": "...|null", "object": "...|null", "topic": "...", '
    '"ended": false, "maybe": false, '
    '"importance": 0.5, "valid_from": "YYYY-MM-DD|null", "expires": "YYYY-MM-DD|null", '
    '"entities": [{"name": "...", "type": "person|place|org|product|other"}], '
    '"source_turn_ids": ["..."]}]}'
)


@dataclass(frozen=True)
class LLMExtractorConfig:
    """Settings for `LLMExtractor`; validated on construction.

    ``max_turn_chars`` cuts each turn in the prompt so one pasted document cannot blow the
    context window.
    """

    max_output_tokens: int = 1500
    temperature: float = 0.0
    max_turn_chars: int = 2000

    def __post_init__(self) -> None:
        """Raise ConfigError for any setting that cannot work."""
        counts = {
            "max_output_tokens": (self.max_output_tokens, 1500),
            "max_turn_chars": (self.max_turn_chars, 2000),
        }
        check_call_settings(
            "LLMExtractorConfig", counts, self.temperature, "for repeatable extraction"
        )


def turn_id(episode: Episode) -> str:
    """The id a turn carries in the prompt: the caller's external id, else the episode id."""
    return episode.external_id or episode.id


def build_prompt(window: Window, max_turn_chars: int = 2000) -> list[ChatMessage]:
    """The system and user messages asking for the window's memories as JSON."""
    session = window.episodes[0].occurred_at
    lines = [
        f"Session date: {session:%Y-%m-%d} ({session:%A})",
        f"Participants: {', '.join(_participants(window))}",
        "",
    ]
    if window.context:
        lines.append("CONTEXT turns (earlier in the conversation; do not extract from these):")
        lines += [_turn_line(episode, max_turn_chars) for episode in window.context]
        lines.append("")
    lines.append("NEW turns (extract memories from these):")
    lines += [_turn_line(episode, max_turn_chars) for episode in window.episodes]
    lines += ["", f"Answer with JSON of this shape:\n{_SHAPE}"]
    return [ChatMessage("system", _SYSTEM_PROMPT), ChatMessage("user", "\n".join(lines))]


def _turn_line(episode: Episode, max_chars: int) -> str:
    """`[turn_id] YYYY-MM-DD Ddd HH:MM speaker: text`, on one line, cut to max_chars."""
    when = episode.occurred_at
    text = _one_line(episode.text, max_chars)
    return f"[{turn_id(episode)}] {when:%Y-%m-%d %a %H:%M} {_speaker(episode)}: {text}"


def _one_line(text: str, max_chars: int) -> str:
    """Text with whitespace runs collapsed, cut to max_chars (marked with … when cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= max_chars else flat[:max_chars].rstrip() + "…"


def _speaker(episode: Episode) -> str:
    """Who said the turn: the speaker's name, else the role."""
    return episode.speaker or episode.role


def _participants(window: Window) -> list[str]:
    """The window's participants, else its speakers in order of first appearance."""
    if window.participants:
        return list(window.participants)
    names: list[str] = []
    for episode in (*window.context, *window.episodes):
        if _speaker(episode) not in names:
            names.append(_speaker(episode))
    return names


class LLMExtractor:
    """Extracts fact, preference and event memories with one LLM call per window.

    Counters (since construction): ``scene_rejected`` counts scenes replaced by a quote of
    the source turn because they were missing or named details absent from the turns;
    ``items_skipped`` counts items dropped for an unknown kind or a missing text;
    ``slots_refused`` counts memories whose predicate names an attribute of the catalogue but
    fill no slot (a value no person's turn says, `llm_slots.py`).

    Example::

        extractor = LLMExtractor(OpenAIChatLLM(OpenAIChatConfig(url, "qwen3:8b")))
        extraction = extractor.extract(Window(episodes=(episode,)))
    """

    def __init__(self, llm: LLM, config: LLMExtractorConfig | None = None) -> None:
        """Use llm for every window, with config (defaults when None)."""
        self._llm = llm
        self._config = config or LLMExtractorConfig()
        self.scene_rejected = 0
        self.items_skipped = 0
        self.slots_refused = 0

    @property
    def name(self) -> str:
        """`llm:` followed by the model's id."""
        return f"llm:{self._llm.id}"

    @property
    def config(self) -> LLMExtractorConfig:
        """The settings this extractor was built with."""
        return self._config

    def extract(self, window: Window) -> Extraction:
        """Drafts for the window's new episodes; model failures come back as `error`."""
        if not window.episodes:
            return Extraction(drafts=[], extractor=self.name)
        usage = Usage(calls=1)
        try:
            completion = self._llm.complete(
                build_prompt(window, self._config.max_turn_chars),
                json_schema=MEMORY_SCHEMA,
                max_tokens=self._config.max_output_tokens,
                temperature=self._config.temperature,
            )
            usage = Usage(1, completion.prompt_tokens, completion.completion_tokens)
            items = _memory_items(parse_json_object(completion.text))
        except LLMError as exc:  # MalformedOutputError included
            # The message may quote model output, so only the class is logged.
            _log.warning(
                "%s failed (%s) on %d turn(s)", self.name, type(exc).__name__, len(window.episodes)
            )
            return Extraction([], self.name, usage, error=f"{type(exc).__name__}: {exc}")
        facts = _WindowFacts.of(window)
        drafts = [draft for item in items if (draft := self._draft(item, facts)) is not None]
        return Extraction(drafts, self.name, usage)

    def _draft(self, item: object, facts: _WindowFacts) -> MemoryDraft | None:
        """One validated draft from one item, or None (counted) if the item is unusable."""
        if not isinstance(item, dict):
            self.items_skipped += 1
            return None
        kind = item.get("kind")
        kind = kind.strip().casefold() if isinstance(kind, str) else None
        text = _optional_text(item.get("text"))
        if kind not in KINDS or text is None:
            self.items_skipped += 1
            return None
        sources = facts.sources(item.get("source_turn_ids"))
        valid_from = _parse_datetime(item.get("valid_from"), facts.tz)
        scene = _optional_text(item.get("scene"))
        extra_dates = {valid_from.date()} if valid_from else set()
        if scene is None or not facts.grounded(scene, extra_dates):
            self.scene_rejected += 1
            scene = facts.fallback_scene(sources[0])
        subject = _optional_text(item.get("subject"))
        predicate = _predicate(item.get("predicate"))
        value = _optional_text(item.get("object"))
        filled = llm_slot(subject, predicate, value, item, sources)
        if filled is None and predicate in BY_NAME:
            self.slots_refused += 1
        return MemoryDraft(
            kind=kind,
            text=text,
            scene=scene,
            source_episode_ids=tuple(episode.id for episode in sources),
            subject=subject if filled is None else filled.subject,
            predicate=predicate,
            object=value,
            topic=_optional_text(item.get("topic")),
            importance=_importance(item.get("importance")),
            valid_from=valid_from,
            expire_at=_parse_datetime(item.get("expires"), facts.tz),
            entities=_entities(item.get("entities")),
            slot=None if filled is None else filled.slot,
        )


def _memory_items(answer: dict[str, Any]) -> list[Any]:
    """The list under "memories"; a lone memory object counts as a list of one."""
    memories = answer.get("memories")
    if memories is None and "text" in answer and "kind" in answer:
        return [answer]
    if not isinstance(memories, list):
        raise MalformedOutputError(
            f"LLM answer has no 'memories' list (keys: {sorted(answer)[:10]}); "
            'the prompt asks for {"memories": [...]}: use a model that follows JSON '
            "instructions or set json_mode='schema'"
        )
    return memories


# Scene grounding ---------------------------------------------------------------------------

_CJK_CLASS = "\u3040-\u30ff" + CJK_CLASS  # kana too: a Japanese scene is grounded alike
_CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_CJK_DATE = re.compile(r"\d{1,4}\s*[年月日号]|(?:星期|礼拜|周)[一二三四五六日天]")
_WORD = re.compile(rf"[^\W\d_{_CJK_CLASS}]+(?:['’][^\W\d_{_CJK_CLASS}]+)*")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")  # 19:10 is one token, so 10 alone is not allowed
_CALENDAR_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs "
    "fri sat sun january february march april may june july august september october "
    "november december jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
# Sentence openers and function words carry no detail a model could invent.
_FUNCTION_WORDS = frozenset(
    "a an the on in at during while when after before earlier later then this that these "
    "those it its he she they we i you his her their our my your there here as since "
    "because following prompted having both also and but so or of for with from by to "
    "about over through throughout meanwhile today yesterday tomorrow what which who "
    "whom whose where why how if once until".split()
)


@dataclass(frozen=True)
class _WindowFacts:
    """What a window allows a scene to mention, and how turn ids map to episodes."""

    episodes: tuple[Episode, ...]
    by_turn_id: dict[str, Episode]
    words: frozenset[str]
    numbers: frozenset[str]
    cjk_text: str
    exempt_words: frozenset[str]
    participants: tuple[str, ...]
    session: date
    tz: tzinfo

    @classmethod
    def of(cls, window: Window) -> _WindowFacts:
        """Collect the turn texts' words, numbers and CJK text, and the speakers' names.

        The dates and times shown in the turn headers count as present in the turns.
        """
        turns = (*window.context, *window.episodes)
        corpus = "\n".join(episode.text for episode in turns)
        speakers = " ".join(
            (*window.participants, *(_speaker(e) for e in turns), *(e.role for e in turns))
        )
        numbers = {_norm_number(n) for n in _NUMBER.findall(corpus)}
        for episode in turns:
            numbers |= _date_numbers(episode.occurred_at.date())
            when = episode.occurred_at
            numbers |= {f"{when:%H:%M}", f"{when.hour}:{when:%M}"}
        first = window.episodes[0].occurred_at
        return cls(
            episodes=window.episodes,
            by_turn_id={turn_id(e): e for e in reversed(window.episodes)},
            words=frozenset(f for w in _WORD.findall(corpus) for f in _word_forms(w)),
            numbers=frozenset(numbers),
            cjk_text=corpus.casefold(),
            exempt_words=_CALENDAR_WORDS
            | _FUNCTION_WORDS
            | {f for w in _WORD.findall(speakers) for f in _word_forms(w)},
            participants=tuple(_participants(window)),
            session=first.date(),
            tz=first.tzinfo or UTC,
        )

    def sources(self, raw: object) -> list[Episode]:
        """Episodes named by the item's turn ids; all new episodes if it names none of them."""
        values = raw if isinstance(raw, list) else [raw]
        found: list[Episode] = []
        for value in values:
            if isinstance(value, str | int) and not isinstance(value, bool):
                episode = self.by_turn_id.get(str(value).strip().strip("[]").strip())
                if episode is not None and episode not in found:
                    found.append(episode)
        # Keep window order so the first source is the earliest turn.
        return sorted(found, key=self.episodes.index) if found else list(self.episodes)

    def grounded(self, scene: str, extra_dates: set[date]) -> bool:
        """Whether every number, capitalised word and CJK run of scene occurs in the turns."""
        allowed_numbers = self.numbers | _date_numbers(self.session)
        for extra in extra_dates:
            allowed_numbers |= _date_numbers(extra)
        if any(_norm_number(n) not in allowed_numbers for n in _NUMBER.findall(scene)):
            return False
        known = self.words | self.exempt_words
        for word in _WORD.findall(scene):
            if word[0].isupper() and not _word_forms(word) & known:
                return False
        cjk_scene = _CJK_DATE.sub(" ", scene.casefold())
        return all(run in self.cjk_text for run in _CJK_RUN.findall(cjk_scene))

    def fallback_scene(self, source: Episode) -> str:
        """A scene built only from the source turn: date, participants, speaker, quote."""
        when = source.occurred_at
        names = list(self.participants)
        who = (
            f"between {', '.join(names[:-1])} and {names[-1]}"
            if len(names) > 1
            else f"with {names[0]}"
        )
        quote = _one_line(source.text, _FALLBACK_QUOTE_CHARS)
        return (
            f"On {when:%a} {when.day} {when:%B %Y}, in a conversation {who}, "
            f'{_speaker(source)} said: "{quote}"'
        )


def _word_forms(word: str) -> set[str]:
    """A word casefolded, with and without a possessive or plural ending."""
    base = word.casefold()
    forms = {base}
    for suffix in ("'s", "’s", "es", "s"):
        if base.endswith(suffix) and len(base) > len(suffix) + 1:
            forms.add(base[: -len(suffix)])
    return forms


def _norm_number(number: str) -> str:
    """A number as written, without thousands separators (1,000 and 1000 are the same)."""
    return number.replace(",", "")


def _date_numbers(day: date) -> set[str]:
    """The numbers a rendering of day may contain: year, month and day, padded or not."""
    return {str(day.year), str(day.month), f"{day.month:02d}", str(day.day), f"{day.day:02d}"}


# Item fields ------------------------------------------------------------------------------


def _optional_text(value: object) -> str | None:
    """A non-empty stripped string (numbers as text), else None ("null" counts as None)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        return None
    text = value.strip()
    return text if text and text.casefold() not in ("null", "none") else None


def _predicate(value: object) -> str | None:
    """The predicate in snake_case (`Lives In` becomes `lives_in`), or None."""
    text = _optional_text(value)
    if text is None:
        return None
    snake = re.sub(r"[\W_]+", "_", text.casefold()).strip("_")
    return snake or None


def _importance(value: object) -> float:
    """The importance clamped to 0..1; 0.5 when missing or not a finite number."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return _DEFAULT_IMPORTANCE
    return min(1.0, max(0.0, float(value)))


def _parse_datetime(value: object, tz: tzinfo) -> datetime | None:
    """An ISO date or datetime (naive ones in the session's time zone), else None."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=tz)


def _entities(value: object) -> tuple[EntityMention, ...]:
    """Entity mentions from [{"name", "type"}] (or bare names), deduplicated by name."""
    if not isinstance(value, list):
        return ()
    found: dict[str, EntityMention] = {}
    for item in value:
        raw_name, raw_type = (
            (item.get("name"), item.get("type")) if isinstance(item, dict) else (item, None)
        )
        name = raw_name.strip() if isinstance(raw_name, str) else ""
        if not name:
            continue
        kind = raw_type.strip().casefold() if isinstance(raw_type, str) else "other"
        kind = _ENTITY_ALIASES.get(kind, kind)
        norm = name.casefold().strip()
        if norm not in found:
            found[norm] = EntityMention(name, norm, kind if kind in ENTITY_TYPES else "other")
    return tuple(found.values())


class FallbackExtractor:
    """Runs `primary`; when it reports an error, runs `fallback` on the same window.

    The fallback's drafts are returned with both extractors' usage added up and the
    primary's error kept in `error`, so a failing model is reported rather than hidden.
    ``failures`` counts windows the primary failed on.

    Example::

        extractor = FallbackExtractor(LLMExtractor(llm), rules_extractor)
    """

    def __init__(self, primary: Extractor, fallback: Extractor) -> None:
        """Try primary first and fallback after a failure."""
        self._primary = primary
        self._fallback = fallback
        self.failures = 0

    @property
    def name(self) -> str:
        """Both extractors' names, primary first."""
        return f"{self._primary.name} (fallback: {self._fallback.name})"

    def extract(self, window: Window) -> Extraction:
        """The primary's extraction, or the fallback's with the primary's error attached."""
        first = self._primary.extract(window)
        if first.error is None:
            return first
        self.failures += 1
        second = self._fallback.extract(window)
        error = first.error
        if second.error is not None:
            error = f"{first.error}; fallback {self._fallback.name} also failed: {second.error}"
        return Extraction(
            drafts=second.drafts,
            extractor=f"{self._fallback.name} (after {self._primary.name} failed)",
            usage=Usage(
                calls=first.usage.calls + second.usage.calls,
                prompt_tokens=first.usage.prompt_tokens + second.usage.prompt_tokens,
                completion_tokens=first.usage.completion_tokens + second.usage.completion_tokens,
            ),
            error=error,
        )
