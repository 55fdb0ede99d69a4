"""Typed settings. Environment variables are read here and nowhere else."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal

from dualtrace.errors import ConfigError

PiiPolicy = Literal["redact", "keep"]
FusionMethod = Literal["weighted", "rrf"]
SESSION_SECTIONS = ("memory", "turns", "summary", "reserve")


@dataclass(frozen=True)
class MemoryConfig:
    """Settings of a Memory (every field can also come from DUALTRACE_<FIELD>).

    pii: "redact" replaces e-mails, phone, ID-card and bank-card numbers before storing;
    "keep" stores text as given. max_message_chars: longest message accepted.
    dense_weight: share of the dense channel in weighted fusion (lexical gets the rest);
    fusion="rrf" uses reciprocal-rank fusion instead. dense_min_spread (cosine units) and
    lexical_min_spread (a share of the top BM25 score) keep min-max normalisation from
    stretching a near-flat candidate list (off by default: it cost recall on LoCoMo).
    candidates: hits taken from each channel before fusion. embed_cache_path: a file that
    keeps embeddings across runs, keyed by (embedder id, text hash). actor: who the audit
    log names. extract: derive memories on add. entity_weight / temporal_weight: weights
    of the entity channel (memories of the entities a question names, ignoring entities in
    more than entity_max_share of the user's memories) and of the temporal channel (what
    happened in the window a question names). search_traces: which keys search reads.
    recency_weight, importance_weight: bounded boosts after fusion (a multiplier within
    ±weight each; recency halves every recency_halflife_days, measured from the
    question's `now`). speaker_weight: a bounded boost (up to +weight) for what a person the
    question names said (LoCoMo: 96% of the evidence of a question naming one speaker is
    that speaker's own turns). reinforce_step: importance a memory gains when recalled, damped by
    1/sqrt(1 + access_count). archive_importance, archive_after_days: `maintain()` archives
    a memory not used for archive_after_days whose importance, halved every
    recency_halflife_days without use, fell below archive_importance.
    embed_max_chars: how much of a long text the dense vector
    is made from (the full-text index always has all of it). assistant_embed_chars: the
    same for assistant turns, which are long, elaborate on what the user asked and rarely
    hold what is remembered (on LongMemEval-S, 13 of 218 evidence turns); 0 gives them no
    vector at all (full-text only). lexical_context_turns: 1 adds
    the turn before to each turn's full-text key (0: off). dense_context_turns: 1 adds it,
    after the turn's own text, to the dense key of a turn between people (neither is the
    assistant's): a reply often answers what was just asked without naming it ("It's vanilla
    with strawberry filling" after "How did you make the cake?"); an assistant's long advice
    before a user's turn dilutes it instead (0: off). context_snippet_tokens: in
    `context()`, a turn longer than this shows only its sentences nearest the query (and
    what follows the best one), with "…" for the rest (0: turns are shown whole).
    context_user_messages: in `context()`, a memory drawn from what the user told an
    assistant is shown as that message (a long one by its sentences nearest the question
    and the memory): a message to an assistant packs several facts into one request, and
    one sentence alone loses the rest ("the user has been making the user's own from
    scratch" without the BBQ sauce, "two weeks traveling solo" without Japan). Between
    people (no assistant in the session) turns are short and the memory, its dates
    resolved, is shown (measured both ways in the README). False: memories as extracted.
    context_relative_dates: a date line of a context from the last 60 days also says how long
    before `now` it was ("Sun 12 February 2023 (17 days ago)"): the agent need not count.
    Off by default: the extra tokens on each date line cost LoCoMo evidence recall@2000
    0.922 → 0.919 (bench/locomo_traces.py).
    session_*_share: how `Session.context` splits max_tokens between long-term memories,
    recent turns, the rolling summary and a reserve for the answer (they sum to at most 1;
    the rest is left for the caller's system prompt). session_idle_minutes: a session with
    no turn for this long is ended by `end_idle_sessions` (and `Memory.maintain`).
    """

    pii: PiiPolicy = "redact"
    max_message_chars: int = 32_000
    dense_weight: float = 0.5
    fusion: FusionMethod = "weighted"
    rrf_k: int = 60
    dense_min_spread: float = 0.0
    lexical_min_spread: float = 0.0
    candidates: int = 50
    embed_cache_path: str | None = None
    actor: str = "api"
    extract: bool = True
    entity_weight: float = 0.2
    entity_max_share: float = 0.2
    temporal_weight: float = 0.2
    recency_weight: float = 0.05
    recency_halflife_days: float = 90.0
    importance_weight: float = 0.05
    speaker_weight: float = 0.25
    reinforce_step: float = 0.05
    archive_importance: float = 0.1
    context_diversity: float = 0.0
    context_snippet_tokens: int = 150
    context_relative_dates: bool = False
    context_user_messages: bool = True
    archive_after_days: float = 180.0
    embed_max_chars: int = 1000
    assistant_embed_chars: int = 200
    lexical_context_turns: int = 1
    dense_context_turns: int = 1
    search_traces: tuple[str, ...] = ("episode", "fact", "scene")
    session_memory_share: float = 0.18
    session_turns_share: float = 0.45
    session_summary_share: float = 0.12
    session_reserve_share: float = 0.10
    session_idle_minutes: float = 30.0

    def __post_init__(self) -> None:
        if self.pii not in ("redact", "keep"):
            raise ConfigError(f"pii={self.pii!r} is not a policy; use 'redact' or 'keep'")
        if self.fusion not in ("weighted", "rrf"):
            raise ConfigError(f"fusion={self.fusion!r} is unknown; use 'weighted' or 'rrf'")
        for name in ("lexical_context_turns", "dense_context_turns"):
            if getattr(self, name) not in (0, 1):
                raise ConfigError(
                    f"{name}={getattr(self, name)!r}: use 1 (a turn's key also holds the turn "
                    "before it) or 0 (off); more turns are not supported"
                )
        if not 0.0 <= self.dense_weight <= 1.0:
            raise ConfigError(f"dense_weight={self.dense_weight} must lie in [0, 1]")
        if self.embed_max_chars < 50:
            raise ConfigError(f"embed_max_chars={self.embed_max_chars} is too small; use >= 50")
        if not 0 <= self.assistant_embed_chars <= self.embed_max_chars:
            raise ConfigError(
                f"assistant_embed_chars={self.assistant_embed_chars} must be from 0 to "
                f"embed_max_chars ({self.embed_max_chars})"
            )
        if self.max_message_chars < 1:
            raise ConfigError(f"max_message_chars={self.max_message_chars} must be positive")
        unknown = set(self.search_traces) - {"episode", "fact", "scene"}
        if unknown or not self.search_traces:
            raise ConfigError(
                f"search_traces={self.search_traces!r}: use some of 'episode', 'fact', 'scene'"
            )
        for name in ("entity_weight", "temporal_weight"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name}={getattr(self, name)} must not be negative")
        for name in ("recency_weight", "importance_weight", "speaker_weight"):
            if not 0 <= getattr(self, name) <= 0.5:
                raise ConfigError(
                    f"{name}={getattr(self, name)} must lie in [0, 0.5]: boosts are bounded so "
                    "that time or importance never erase a relevant memory"
                )
        if not 0 <= self.context_diversity <= 1:
            raise ConfigError(
                f"context_diversity={self.context_diversity} must be in [0, 1] (0: off)"
            )
        if self.context_snippet_tokens != 0 and self.context_snippet_tokens < 20:
            raise ConfigError(
                f"context_snippet_tokens={self.context_snippet_tokens} is too small to hold a "
                "sentence; use 0 (turns shown whole) or at least 20"
            )
        if not 0 <= self.archive_importance < 1 or self.archive_after_days < 0:
            raise ConfigError(
                f"archive_importance={self.archive_importance} must be in [0, 1) and "
                f"archive_after_days={self.archive_after_days} at least 0 "
                "(archive_importance=0 turns fading off)"
            )
        if self.recency_halflife_days <= 0:
            raise ConfigError(
                f"recency_halflife_days={self.recency_halflife_days} must be positive"
            )
        if self.candidates < 1 or self.rrf_k < 1:
            raise ConfigError("candidates and rrf_k must be positive integers")
        self._check_session()

    def _check_session(self) -> None:
        shares = {name: getattr(self, f"session_{name}_share") for name in SESSION_SECTIONS}
        for name, value in shares.items():
            if not 0.0 <= value <= 1.0:
                raise ConfigError(
                    f"session_{name}_share={value} must lie in [0, 1]: it is the share of "
                    "Session.context's max_tokens given to that section"
                )
        total = sum(shares.values())
        if total > 1.0 + 1e-9:
            parts = " + ".join(f"{name} {value}" for name, value in shares.items())
            raise ConfigError(
                f"session shares sum to {total:.2f} ({parts}); lower some so that they sum "
                "to at most 1 (what is left is room for the caller's system prompt)"
            )
        if not self.session_idle_minutes > 0:
            raise ConfigError(
                f"session_idle_minutes={self.session_idle_minutes} must be positive, "
                "e.g. 30 ends a session after half an hour without a turn"
            )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MemoryConfig:
        """Defaults overridden by DUALTRACE_PII, DUALTRACE_DENSE_WEIGHT, ... (strictly cast)."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = env.get("DUALTRACE_" + f.name.upper())
            if raw is not None:
                values[f.name] = _cast(f.name, raw, str(f.type))
        return cls(**values)  # type: ignore[arg-type]


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _cast(name: str, raw: str, type_name: str) -> object:
    """Cast an environment value to a field's type; anything unclear is a ConfigError."""
    var = f"DUALTRACE_{name.upper()}"
    if type_name == "bool":
        if raw.strip().lower() in _TRUE | _FALSE:
            return raw.strip().lower() in _TRUE
        raise ConfigError(f"{var}={raw!r} is not a boolean; use true or false")
    if type_name.startswith("tuple"):
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    try:
        if type_name.startswith("int"):
            return int(raw)
        if type_name.startswith("float"):
            return float(raw)
    except ValueError as exc:
        raise ConfigError(f"{var}={raw!r} is not a valid {type_name.split()[0]}") from exc
    return raw


def home_dir(env: Mapping[str, str] | None = None) -> Path:
    """$DUALTRACE_HOME, else ~/.dualtrace."""
    env = os.environ if env is None else env
    return Path(env.get("DUALTRACE_HOME") or Path.home() / ".dualtrace")


def sqlite_path_from_url(url: str) -> str:
    """The file path of a `sqlite:///path` URL; other schemes are a ConfigError."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise ConfigError(f"url {url!r} names no file; use sqlite:///path/to/memory.db")
        return path
    if url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            f"url {url.split('@')[-1]!r}: the PostgreSQL backend is not available in this "
            "version; use sqlite:///path/to/memory.db"
        )
    raise ConfigError(f"url {url!r} has an unknown scheme; use sqlite:///path/to/memory.db")
