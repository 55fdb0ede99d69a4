"""LLM consolidation judge: one chat call decides what a turn's new facts do to old memories.

The offline rule (`consolidate.decide`) compares subject, predicate and object. `LLMJudge`
asks a model instead, once per batch: for every new fact it answers ADD, UPDATE (the new
fact replaces the target's value; the target's validity is closed), NOOP (the target already
says it) or INVALIDATE (the new fact says the target no longer holds, without a new value).

The prompt names memories by short handles (`n1`, `m1`) rather than their ids, which saves
tokens and gives the model nothing long to copy wrongly. The answer is validated strictly:
every new fact answered exactly once, every target one of the offered handles. Any failure
(provider error, no JSON, an unknown handle) comes back as `Judgement.error` with no
decisions, never as an exception, so the caller can keep the offline decision and warn.

Example::

    judge = LLMJudge(OpenAIChatLLM(OpenAIChatConfig(url, "qwen3:8b")))
    judgement = judge.judge(new_records, nearest_existing)
    if judgement.error is None:
        for new_id, decision in judgement.decisions.items():
            ...  # decision.action, decision.target_id, decision.reason
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

from dualtrace.encode.base import Usage
from dualtrace.errors import LLMError, MalformedOutputError, ValidationError
from dualtrace.llm.base import LLM, ChatMessage
from dualtrace.llm.json_output import parse_json_object
from dualtrace.llm.settings import check_call_settings
from dualtrace.models import MemoryRecord

__all__ = [
    "JUDGE_ACTIONS",
    "JudgeAction",
    "JudgedDecision",
    "Judgement",
    "LLMJudge",
    "LLMJudgeConfig",
    "build_judge_prompt",
    "judge_schema",
    "parse_decisions",
]

_log = logging.getLogger(__name__)

JudgeAction = Literal["ADD", "UPDATE", "NOOP", "INVALIDATE"]
JUDGE_ACTIONS: tuple[str, ...] = get_args(JudgeAction)
_TARGETED = frozenset({"UPDATE", "NOOP", "INVALIDATE"})
_MAX_REASON_CHARS = 200
_NO_TARGET = ("", "null", "none", "-")

_SYSTEM_PROMPT = """\
You maintain a user's long-term memory. NEW facts (n1, n2, ...) were just learned; \
EXISTING memories (m1, m2, ...) are what is already known and still valid. For each NEW \
fact choose one action:
- ADD: new information; existing memories stay as they are.
- UPDATE target: a new value for the same single-valued attribute of the same person \
(lives in, works at, job, budget, marital status); it replaces the target's value.
- NOOP target: the target already says the same (a paraphrase, a translation, or less \
detail); nothing changes.
- INVALIDATE target: the new fact says the target no longer holds, without giving a new \
value ("I quit Alibaba" ends "works at Alibaba"; "我不再吃素了" ends "吃素").

Memory is bi-temporal: nothing is deleted. UPDATE and INVALIDATE close the target's \
validity at the new fact's date; the old value stays in history.

Rules:
- Only facts about the same person can UPDATE, INVALIDATE or NOOP each other. A fact about \
someone else (a friend, colleague, relative) never changes the user's facts.
- Hedged, hypothetical, planned, wished or reported statements ("maybe", "might", "if", \
"thinking about", "plans to", "可能", "也许", "如果", "打算", "想") never UPDATE or \
INVALIDATE; ADD them.
- Multi-valued attributes (hobbies, likes, dislikes, pets, skills, places visited, \
friends) accumulate: ADD another value; NOOP only if that same value is already known.
- A new fact dated before its target cannot UPDATE or INVALIDATE it.
- Facts may be in English or Chinese: compare meaning, not wording or language.
- When unsure, ADD.

Answer every NEW fact exactly once. "target" is an EXISTING handle (m...) for UPDATE, \
NOOP and INVALIDATE, and null for ADD. "reason": a few words. Answer with the JSON object \
only."""

_SHAPE = '{"decisions": [{"new": "n1", "action": "UPDATE", "target": "m1", "reason": "moved"}]}'


@dataclass(frozen=True)
class JudgedDecision:
    """What one new fact does: `action`, the existing memory it acts on, and why.

    ``target_id`` is the existing memory's id for UPDATE, NOOP and INVALIDATE, None for ADD.
    """

    action: JudgeAction
    target_id: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class Judgement:
    """The judge's decisions keyed by new memory id, what they cost, and the error if any.

    On failure ``decisions`` is empty and ``error`` says what went wrong; ``usage`` still
    counts the call. ``new_facts`` is how many new facts were put to the judge.
    """

    decisions: dict[str, JudgedDecision]
    usage: Usage = field(default_factory=Usage)
    error: str | None = None
    new_facts: int = 0

    @property
    def prompt_tokens_per_decision(self) -> float:
        """Prompt tokens spent per new fact judged (0.0 when none were)."""
        return self.usage.prompt_tokens / self.new_facts if self.new_facts else 0.0


@dataclass(frozen=True)
class LLMJudgeConfig:
    """Settings for `LLMJudge`; validated on construction.

    ``max_text_chars`` cuts each memory's text in the prompt; ``max_output_tokens`` bounds
    the answer (about 25 tokens a decision, plus any reasoning the model writes first).
    """

    max_output_tokens: int = 1024
    temperature: float = 0.0
    max_text_chars: int = 300

    def __post_init__(self) -> None:
        """Raise ConfigError for any setting that cannot work."""
        counts = {
            "max_output_tokens": (self.max_output_tokens, 1024),
            "max_text_chars": (self.max_text_chars, 300),
        }
        check_call_settings("LLMJudgeConfig", counts, self.temperature, "for repeatable decisions")


@dataclass(frozen=True)
class _Handles:
    """Short prompt handles for the new facts (n1…) and existing memories (m1…)."""

    new: dict[str, MemoryRecord]
    existing: dict[str, MemoryRecord]

    @classmethod
    def of(cls, new: Sequence[MemoryRecord], existing: Sequence[MemoryRecord]) -> _Handles:
        """Number the records in order; an existing memory offered twice gets one handle."""
        new_ids = [record.id for record in new]
        if len(set(new_ids)) != len(new_ids):
            raise ValidationError(
                "LLMJudge.judge got the same new memory id twice; pass each new fact once"
            )
        unique: dict[str, MemoryRecord] = {}
        for record in existing:
            unique.setdefault(record.id, record)
        return cls(
            new={f"n{i}": record for i, record in enumerate(new, 1)},
            existing={f"m{i}": record for i, record in enumerate(unique.values(), 1)},
        )


def judge_schema(new_handles: Sequence[str], existing_handles: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of the judge's answer, with the offered handles as enums.

    Servers that enforce schemas (vLLM, llama.cpp, OpenAI) then cannot emit an unknown
    handle; others still get the shape, and the answer is validated either way.
    """
    return {
        "type": "object",
        "properties": {
            "decisions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "new": {"type": "string", "enum": list(new_handles)},
                        "action": {"type": "string", "enum": list(JUDGE_ACTIONS)},
                        "target": {"type": ["string", "null"], "enum": [*existing_handles, None]},
                        "reason": {"type": ["string", "null"]},
                    },
                    "required": ["new", "action", "target"],
                },
            }
        },
        "required": ["decisions"],
    }


def build_judge_prompt(
    new: Sequence[MemoryRecord],
    existing: Sequence[MemoryRecord],
    max_text_chars: int = 300,
) -> list[ChatMessage]:
    """The system and user messages asking what each new fact does to the existing ones.

    Each memory is one line: handle, validity dates, slot (or predicate), kind and text.
    """
    handles = _Handles.of(new, existing)
    return _messages(handles, max_text_chars)


def _messages(handles: _Handles, max_text_chars: int) -> list[ChatMessage]:
    """Prompt messages for numbered memories."""
    lines = ["EXISTING memories (still valid):"]
    lines += [_line(h, r, max_text_chars) for h, r in handles.existing.items()]
    lines += ["", "NEW facts:"]
    lines += [_line(h, r, max_text_chars) for h, r in handles.new.items()]
    lines += ["", f"Answer with JSON of this shape:\n{_SHAPE}"]
    return [ChatMessage("system", _SYSTEM_PROMPT), ChatMessage("user", "\n".join(lines))]


def _line(handle: str, record: MemoryRecord, max_chars: int) -> str:
    """`m1 | 2023-05-08..now | slot=lives_in | fact | Alice lives in Hangzhou.`"""
    parts = [handle, _validity(record)]
    slot = _slot(record)
    if slot:
        parts.append(f"slot={slot}")
    parts += [record.kind, _one_line(record.text, max_chars)]
    return " | ".join(parts)


def _validity(record: MemoryRecord) -> str:
    """The record's validity as `start..end` dates; `?` for an unknown start, `now` if open."""
    start = f"{record.valid_from:%Y-%m-%d}" if record.valid_from else "?"
    end = f"{record.valid_to:%Y-%m-%d}" if record.valid_to else "now"
    return f"{start}..{end}"


def _slot(record: MemoryRecord) -> str | None:
    """The attribute a memory fills: metadata["slot"] when set, else its predicate."""
    slot = record.metadata.get("slot")
    if isinstance(slot, dict | list):
        return json.dumps(slot, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    if slot is not None and str(slot).strip():
        return _one_line(str(slot), 80)
    return record.predicate


def _one_line(text: str, max_chars: int) -> str:
    """Text with whitespace runs collapsed, cut to max_chars (marked with … when cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= max_chars else flat[:max_chars].rstrip() + "…"


def parse_decisions(
    answer: dict[str, Any], new_handles: Sequence[str], existing_handles: Sequence[str]
) -> dict[str, tuple[JudgeAction, str | None, str | None]]:
    """Validated (action, target handle, reason) per new handle from the model's answer.

    Raises MalformedOutputError when the answer has no decisions list, answers a handle
    that was not offered, answers one twice or not at all, names an unknown action, or
    names an UPDATE / NOOP / INVALIDATE target that is not an offered existing handle.
    """
    items = answer.get("decisions", answer.get("memories"))  # a bare array parses as memories
    if not isinstance(items, list):
        raise MalformedOutputError(
            f"LLM judge answer has no 'decisions' list (keys: {sorted(answer)[:10]}); "
            'the prompt asks for {"decisions": [...]}: use a model that follows JSON '
            "instructions or set json_mode='schema'"
        )
    offered_new = {h.casefold(): h for h in new_handles}
    offered_old = {h.casefold(): h for h in existing_handles}
    found: dict[str, tuple[JudgeAction, str | None, str | None]] = {}
    for item in items:
        handle, decision = _decision(item, offered_new, offered_old)
        if handle in found:
            raise MalformedOutputError(f"LLM judge answered new fact {handle!r} twice")
        found[handle] = decision
    missing = [h for h in new_handles if h not in found]
    if missing:
        raise MalformedOutputError(
            f"LLM judge left new fact(s) {missing} unanswered; every new fact needs a "
            "decision (raise max_output_tokens if the answer was cut off)"
        )
    return found


def _decision(
    item: object, offered_new: dict[str, str], offered_old: dict[str, str]
) -> tuple[str, tuple[JudgeAction, str | None, str | None]]:
    """(new handle, (action, target handle, reason)) for one answered item."""
    if not isinstance(item, dict):
        raise MalformedOutputError(
            f"LLM judge decision is {type(item).__name__}, expected an object"
        )
    handle = offered_new.get(_key(item.get("new")))
    if handle is None:
        raise MalformedOutputError(
            f"LLM judge answered new fact {item.get('new')!r}, which was not offered "
            f"(offered: {sorted(offered_new.values())})"
        )
    action = _key(item.get("action")).upper()
    if action not in JUDGE_ACTIONS:
        raise MalformedOutputError(
            f"LLM judge gave {handle} the action {item.get('action')!r}; "
            f"expected one of {list(JUDGE_ACTIONS)}"
        )
    raw_target = item.get("target")
    target = None if _key(raw_target) in _NO_TARGET else offered_old.get(_key(raw_target))
    if target is None and (action in _TARGETED or _key(raw_target) not in _NO_TARGET):
        raise MalformedOutputError(
            f"LLM judge gave {handle} {action} with target {raw_target!r}, which is not an "
            f"offered existing memory (offered: {sorted(offered_old.values())})"
        )
    reason = item.get("reason")
    reason = _one_line(reason, _MAX_REASON_CHARS) if isinstance(reason, str) else None
    checked = cast(JudgeAction, action)  # one of JUDGE_ACTIONS, checked above
    return handle, (checked, target if action in _TARGETED else None, reason or None)


def _key(value: object) -> str:
    """A handle or action as the model wrote it, compared loosely (`[M1] ` is `m1`)."""
    if value is None:
        return ""
    return str(value).strip().strip("[]").strip().casefold()


class LLMJudge:
    """Decides ADD / UPDATE / NOOP / INVALIDATE for a batch of new facts with one LLM call.

    Example::

        judge = LLMJudge(llm)
        judgement = judge.judge([new_fact], [old_fact])
        judgement.decisions[new_fact.id]  # JudgedDecision("UPDATE", old_fact.id, "moved")
    """

    def __init__(self, llm: LLM, config: LLMJudgeConfig | None = None) -> None:
        """Use llm for every batch, with config (defaults when None)."""
        self._llm = llm
        self._config = config or LLMJudgeConfig()

    @property
    def name(self) -> str:
        """`llm:` followed by the model's id."""
        return f"llm:{self._llm.id}"

    @property
    def config(self) -> LLMJudgeConfig:
        """The settings this judge was built with."""
        return self._config

    def judge(self, new: Sequence[MemoryRecord], existing: Sequence[MemoryRecord]) -> Judgement:
        """Decisions for every new fact against the existing memories, keyed by new id.

        `existing` should be the nearest still-valid memories of the same subject. With no
        new facts, or nothing existing to act on, every fact is ADD and no call is made.
        Model and provider failures come back as `Judgement.error`; raises ValidationError
        only when `new` repeats an id.
        """
        handles = _Handles.of(new, existing)
        count = len(handles.new)
        if not handles.new or not handles.existing:
            adds = {record.id: JudgedDecision("ADD") for record in handles.new.values()}
            return Judgement(adds, new_facts=count)
        usage = Usage(calls=1)
        try:
            completion = self._llm.complete(
                _messages(handles, self._config.max_text_chars),
                json_schema=judge_schema(list(handles.new), list(handles.existing)),
                max_tokens=self._config.max_output_tokens,
                temperature=self._config.temperature,
            )
            usage = Usage(1, completion.prompt_tokens, completion.completion_tokens)
            answer = parse_json_object(completion.text)
            parsed = parse_decisions(answer, list(handles.new), list(handles.existing))
        except LLMError as exc:  # MalformedOutputError included
            # The message may quote model output, so only the class is logged.
            _log.warning("%s failed (%s) on %d new fact(s)", self.name, type(exc).__name__, count)
            return Judgement({}, usage, error=f"{type(exc).__name__}: {exc}", new_facts=count)
        decisions = {
            handles.new[h].id: JudgedDecision(
                action, handles.existing[target].id if target else None, reason
            )
            for h, (action, target, reason) in parsed.items()
        }
        return Judgement(decisions, usage, new_facts=count)
