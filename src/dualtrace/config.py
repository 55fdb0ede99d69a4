"""Typed settings: `MemoryConfig` for a Memory, `ServiceConfig` for the HTTP service.

Each setting is declared once, by `setting(default, doc, topic)`: its field name is its only
name, the same everywhere — the keyword of `MemoryConfig(...)` and of `dataclasses.replace`,
the attribute of the config, and `DUALTRACE_<NAME>` in the environment (`from_env`). The
README's settings tables are generated from these declarations (`settings_markdown`).
Environment variables are read here only (`environment.py` is given them), never at import.
"""

from __future__ import annotations

import difflib
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, Self, TypeVar

from dualtrace import environment
from dualtrace.config_checks import SESSION_SECTIONS as SESSION_SECTIONS
from dualtrace.config_checks import TRACES, check_values
from dualtrace.environment import cast_setting
from dualtrace.environment import sqlite_path_from_url as sqlite_path_from_url  # public since 0.1
from dualtrace.errors import ConfigError, SettingError

PiiPolicy = Literal["redact", "keep"]
_T = TypeVar("_T")

# The README lists settings in one table per topic, in this order, under these headings.
TOPICS = {
    "memory": "what is stored",
    "retrieval": "how `search` finds candidates",
    "boosts": "bounded boosts on the fused score",
    "packing": "how `context()` shows what it found",
    "sessions": "`Session.context`'s budget and idle sessions",
    "lifecycle": "importance, fading and archiving",
    "indexing": "what each record's search keys are made from",
    "service": "`dualtrace serve` (`ServiceConfig`)",
}


def setting(default: _T, doc: str, topic: str) -> _T:
    """Declare a setting: its default, what it does in one line, and its README table."""
    if topic not in TOPICS:
        raise ValueError(f"topic {topic!r} is not one of {list(TOPICS)}")
    return field(default=default, metadata={"doc": doc, "topic": topic})


def env_var(name: str) -> str:
    """The environment variable of a setting: `dense_weight` -> DUALTRACE_DENSE_WEIGHT."""
    return "DUALTRACE_" + name.upper()


_GROUPED = (
    "settings are no longer grouped: give each by its own name, e.g. "
    "MemoryConfig(dense_weight=0.7) for RetrievalConfig(dense_weight=0.7)"
)
# Settings that are gone, and why. Each research switch was off by default and cost recall in
# the benchmark that tried it (docs/benchmarks.md). Giving one is an error rather than ignored,
# so that nobody runs believing a setting is on.
REMOVED: dict[str, str] = {
    "fusion": "weighted fusion is the only one (reciprocal-rank fusion was 4.5 points of "
    "LoCoMo recall@10 below it)",
    "rrf_k": "reciprocal-rank fusion is gone (4.5 points of LoCoMo recall@10 below weighted)",
    "dense_min_spread": "a minimum normalisation spread cost 0.3 to 0.7 points of LoCoMo recall@10",
    "lexical_min_spread": "a minimum normalisation spread cost 0.3 to 0.7 points of LoCoMo "
    "recall@10",
    "crosslingual_dense": "a translated dense query lowered same-language recall "
    "(dualtrace bench crosslingual); the cross-lingual channels remain",
    "context_diversity": "maximal-marginal-relevance packing was a research switch, off by default",
    "context_relative_dates": "'(17 days ago)' on date lines cost LoCoMo recall@2000 "
    "(0.922 -> 0.919)",
}
# MemoryConfig(retrieval=RetrievalConfig(...)) and the like, before settings had one name each.
_GROUPS = ("retrieval", "boost", "packing", "session", "lifecycle", "indexing")


def _refuse(owner: type[Any], names: Mapping[str, object]) -> None:
    """An unknown or removed setting name is a SettingError that says what to do instead."""
    known, what = [f.name for f in fields(owner)], owner.__name__
    for name in sorted(set(names) - set(known)):
        why = REMOVED.get(name, _GROUPED if name in _GROUPS else None)
        if owner is MemoryConfig and why:
            raise SettingError(f"{what}({name}=...): {name!r} was removed: {why}")
        near = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise SettingError(
            f"{what}() got an unexpected setting {name!r}{hint}; the settings are listed by "
            f"{what}.setting_names()"
        )


@dataclass(frozen=True, kw_only=True)
class MemoryConfig:
    """Settings of a Memory, each given, read and loaded from the environment by one name:

        MemoryConfig(dense_weight=0.7, pii="keep")
        dataclasses.replace(config, search_traces=("episode",))
        MemoryConfig.from_env()  # DUALTRACE_DENSE_WEIGHT=0.7, DUALTRACE_PII=keep, ...

    Why the defaults are what they are: docs/benchmarks.md.
    """

    pii: PiiPolicy = setting(
        "redact",
        '"redact" masks e-mail, phone, ID-card and bank-card numbers before storing; "keep" '
        "stores text as given",
        "memory",
    )
    max_message_chars: int = setting(
        1_000_000,
        "the longest message accepted, in characters (stored whole; queries stop at 32,000)",
        "memory",
    )
    actor: str = setting("api", "who the audit log names as having made a change", "memory")
    extract: bool = setting(
        True, "derive memories (facts, scenes) on `add`; False stores turns only", "memory"
    )

    dense_weight: float = setting(
        0.5, "the dense channel's share in fusion; the lexical channel gets the rest", "retrieval"
    )
    candidates: int = setting(50, "hits taken from each channel before fusion", "retrieval")
    entity_weight: float = setting(
        0.2,
        "weight of the entity channels: memories of the entities a question names, or of "
        "its type for a list of places or companies (0: off)",
        "retrieval",
    )
    entity_max_share: float = setting(
        0.2,
        "the entity channel ignores entities found in more than this share of a user's memories",
        "retrieval",
    )
    temporal_weight: float = setting(
        0.2,
        "weight of the time channel: what happened in the window a question names (0: off)",
        "retrieval",
    )
    search_traces: tuple[str, ...] = setting(
        TRACES, 'which search keys are read: some of "episode", "fact", "scene"', "retrieval"
    )
    crosslingual_weight: float = setting(
        0.5,
        "weight of the cross-lingual channel: the question's words in the other language "
        "(Chinese ↔ English; 0: off)",
        "retrieval",
    )
    dense_language_balance: float = setting(
        1.0,
        "without a cross-lingual embedder: share of the embedder's language gap (e5-small: "
        "0.015) added to the dense score of the other language",
        "retrieval",
    )
    crosslingual_embedder: str = setting(
        "auto",
        'a second embedder for text in the other language: "use" (USE multilingual, '
        'bundled), "none", or "auto" ("use" for an embedder with a language gap: e5-small)',
        "retrieval",
    )

    recency_weight: float = setting(
        0.05, "recency boost, a multiplier within ±weight (0: off)", "boosts"
    )
    recency_halflife_days: float = setting(
        90.0, "days over which the recency boost halves, counted back from `now`", "boosts"
    )
    importance_weight: float = setting(
        0.05, "importance boost, a multiplier within ±weight (0: off)", "boosts"
    )
    speaker_weight: float = setting(
        0.25, "up to +weight for what a person the question names said (0: off)", "boosts"
    )
    answer_weight: float = setting(
        0.5,
        'up to +weight for what states a quantity of the kind asked ("how wide?", "多重？"), '
        "in either language (0: off)",
        "boosts",
    )
    owner_weight: float = setting(
        0.25,
        "for a question about the user's own matter, up to −weight for what opens on someone "
        'else\'s ("Jess\'s dog…", "老婆的同事…"; 0: off)',
        "boosts",
    )
    slot_weight: float = setting(
        1.0,
        'for a slot question ("Which city do I live in?"), its current value ×(1 + weight), '
        "what it replaced ÷(1 + weight) (0: off)",
        "boosts",
    )

    context_snippet_tokens: int = setting(
        150,
        "a turn longer than this shows only its sentences nearest the question (0: whole turns)",
        "packing",
    )
    context_user_messages: bool = setting(
        True,
        "a memory drawn from a user's message to an assistant is shown as that message",
        "packing",
    )
    context_header: bool = setting(
        True, "start the context with a one-line (12-token) header on how to read it", "packing"
    )

    session_memory_share: float = setting(
        0.18, "share of `Session.context`'s max_tokens for long-term memories", "sessions"
    )
    session_turns_share: float = setting(
        0.45, "share of max_tokens for the session's recent whole turns", "sessions"
    )
    session_summary_share: float = setting(
        0.12, "share of max_tokens for the rolling summary of older turns", "sessions"
    )
    session_reserve_share: float = setting(
        0.10,
        "share of max_tokens kept free for the answer (the four shares sum to at most 1; the "
        "rest is for your system prompt)",
        "sessions",
    )
    start_profile_share: float = setting(
        0.5,
        "at session start, share of the long-term part for the user's profile (values, open "
        "goals and tasks, last summary); the input's memories get the rest",
        "sessions",
    )
    session_idle_minutes: float = setting(
        30.0, "a session without a turn for this long is ended by `maintain()`", "sessions"
    )

    reinforce_step: float = setting(
        0.05,
        "importance a memory gains when recalled, damped by 1/sqrt(1 + access count)",
        "lifecycle",
    )
    archive_importance: float = setting(
        0.1,
        "`maintain()` archives a memory whose faded importance fell below this (0: never)…",
        "lifecycle",
    )
    archive_after_days: float = setting(
        180.0, "…and that has not been used for this many days", "lifecycle"
    )

    embed_max_chars: int = setting(
        1000,
        "characters of a text its dense vector is made from (the full-text key has all)",
        "indexing",
    )
    assistant_embed_chars: int = setting(
        200, "the same for assistant turns; 0 gives them no vector (full-text only)", "indexing"
    )
    lexical_context_turns: int = setting(
        1, "1 adds the turn before to each turn's full-text key; 0: off", "indexing"
    )
    dense_context_turns: int = setting(
        1,
        "1 adds the turn before to the dense key of a reply to another person; 0: off",
        "indexing",
    )
    chunk_chars: int = setting(
        4000,
        "a longer turn (a pasted document) is indexed in chunks of about this many characters, "
        "a full-text key each (0: one key per turn)",
        "indexing",
    )
    embed_chunks: bool = setting(
        True,
        "give each chunk after the first a dense vector too (False: the first only)",
        "indexing",
    )
    crosslingual_glosses: bool = setting(
        True,
        "index each text's words in the other language too (CC-CEDICT), in a full-text table "
        "of their own",
        "indexing",
    )
    embed_cache_path: str | None = setting(
        None,
        "a file that keeps embeddings across runs, keyed by embedder and text hash",
        "indexing",
    )

    def __new__(cls, *args: object, **settings: object) -> Self:
        # The dataclass's own __init__ keeps every keyword typed; this sees them first, so
        # that an unknown or removed name is a SettingError that says what to do instead.
        _refuse(cls, settings)
        return super().__new__(cls)

    def __post_init__(self) -> None:
        check_types(self)
        check_values(self)

    @classmethod
    def setting_names(cls) -> tuple[str, ...]:
        """Every setting's name, in the order of the README's tables."""
        return tuple(f.name for f in fields(cls))

    def settings(self) -> dict[str, object]:
        """Every setting by its name, e.g. {"pii": "redact", "dense_weight": 0.5, ...}."""
        return {name: getattr(self, name) for name in self.setting_names()}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MemoryConfig:
        """Defaults overridden by DUALTRACE_PII, DUALTRACE_DENSE_WEIGHT, ... (strictly cast)."""
        env = os.environ if env is None else env
        for name, why in REMOVED.items():
            if env.get(env_var(name)) is not None:
                raise ConfigError(f"{env_var(name)} is set, but {name!r} was removed: {why}")
        return cls(**_from_env(cls, env))


@dataclass(frozen=True, kw_only=True)
class ServiceConfig:
    """Settings of the HTTP service (`dualtrace serve`); each also from DUALTRACE_<NAME>.

    The limits guard the service, not the data: a request over one is refused whole (413
    or 429) before anything is stored.
    """

    host: str = setting(
        "127.0.0.1",
        "address to listen on; `dev` is allowed on a loopback address only",
        "service",
    )
    port: int = setting(8765, "TCP port to listen on", "service")
    dev: bool = setting(
        False, "development mode: requests need no API key (loopback only)", "service"
    )
    max_body_bytes: int = setting(2_000_000, "largest request body, in bytes", "service")
    max_messages: int = setting(200, "most messages in one `POST /v1/memories`", "service")
    max_query_chars: int = setting(
        4000, "longest query of `/v1/search` and `/v1/context`, in characters", "service"
    )
    rate_limit: int = setting(
        600,
        "requests per minute one API key may send (bursts up to this many); 0: no limit",
        "service",
    )
    worker: bool = setting(
        True,
        'run the background worker that embeds and derives what `"async": true` adds',
        "service",
    )
    allowed_hosts: tuple[str, ...] = setting(
        (),
        'host names answered besides loopback and `host` ("name" or "name:port", '
        'comma-separated in the environment; "*": any); others get 421',
        "service",
    )

    read_timeout: float = setting(
        15.0,
        "seconds a client has to send a request's head and body (else 408; idle kept-alive "
        "connections close after 5 s)",
        "service",
    )
    max_connections: int = setting(1000, "open connections at most (beyond them: 503)", "service")
    max_streams_per_key: int = setting(
        4, "open `GET /mcp` streams at most per key (dev: per client); beyond: 429", "service"
    )
    max_streams: int = setting(
        100, "open `GET /mcp` streams at most in all; beyond: 503", "service"
    )
    stream_seconds: float = setting(
        300.0, "seconds after which a `GET /mcp` stream is closed", "service"
    )

    def __new__(cls, *args: object, **settings: object) -> Self:
        _refuse(cls, settings)  # as MemoryConfig does
        return super().__new__(cls)

    def __post_init__(self) -> None:
        check_types(self)
        if not 0 < self.port < 65536:
            raise ConfigError(f"port={self.port} must be from 1 to 65535, e.g. 8765")
        for f in fields(self):
            if f.name.startswith(("max_", "read_", "stream_")) and not getattr(self, f.name) > 0:
                raise ConfigError(f"{f.name}={getattr(self, f.name)} must be above 0")
        if self.rate_limit < 0:
            raise ConfigError(f"rate_limit={self.rate_limit} must be 0 (off) or positive")

    @classmethod
    def setting_names(cls) -> tuple[str, ...]:
        """Every setting's name, e.g. ("host", "port", ...)."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **given: object) -> ServiceConfig:
        """Defaults, overridden by DUALTRACE_HOST, DUALTRACE_PORT, DUALTRACE_RATE_LIMIT, …,
        overridden in turn by `given` (command-line options; None means not given)."""
        values = _from_env(cls, os.environ if env is None else env)
        values.update({k: v for k, v in given.items() if v is not None})
        return cls(**values)


def _from_env(cls: type[Any], env: Mapping[str, str]) -> dict[str, Any]:
    """The settings of `cls` that the environment gives, cast to their types."""
    values: dict[str, Any] = {}
    for f in fields(cls):
        raw = env.get(env_var(f.name))
        if raw is not None:
            values[f.name] = cast_setting(f.name, raw, str(f.type))
    return values


# What each field type accepts: (check, what to say). Floats must be finite; an int is a
# float, but a bool is neither (True would silently read as 1).
_ACCEPTS: dict[str, tuple[Any, str]] = {
    "bool": (lambda v: isinstance(v, bool), "True or False"),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer"),
    "float": (
        lambda v: isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v),
        "a finite number",
    ),
    "str": (lambda v: isinstance(v, str), "a string"),
    "PiiPolicy": (lambda v: isinstance(v, str), "'redact' or 'keep'"),
    "str | None": (lambda v: v is None or isinstance(v, str), "a string or None"),
    "tuple[str, ...]": (
        lambda v: isinstance(v, tuple) and all(isinstance(x, str) for x in v),
        "a tuple of strings",
    ),
}


def check_types(settings: Any) -> None:
    """Every setting of a config object has its declared type: "false" is not a bool and
    1.5 is not an int (a list of strings is taken as the tuple it stands for)."""
    for f in fields(settings):
        value = getattr(settings, f.name)
        if str(f.type) == "tuple[str, ...]" and isinstance(value, list):
            value = tuple(value)
            object.__setattr__(settings, f.name, value)
        accepts, expected = _ACCEPTS[str(f.type)]
        if not accepts(value):
            raise SettingError(
                f"{f.name}={value!r} must be {expected}, e.g. {f.name}={f.default!r}"
            )


def _shown(value: object) -> str:
    """A default as the README shows it: `"redact"`, `("episode", "fact")`, `None`, `0.5`."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "(" + ", ".join(_shown(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def settings_markdown() -> str:
    """The README's settings tables: one per topic, a row per setting (name, default, doc)."""
    rows: dict[str, list[str]] = {topic: [] for topic in TOPICS}
    for f in (*fields(MemoryConfig), *fields(ServiceConfig)):
        line = f"| `{f.name}` | `{_shown(f.default)}` | {f.metadata['doc']} |"
        rows[f.metadata["topic"]].append(line)
    tables = [
        "\n".join([f"| {topic}: {about} | default | what it does |", "|---|---|---|", *rows[topic]])
        for topic, about in TOPICS.items()
    ]
    return "\n\n".join(tables) + "\n"


def __getattr__(name: str) -> object:
    """The settings groups are gone: say so, and how to give their settings now."""
    if name in (
        "RetrievalConfig",
        "BoostConfig",
        "PackingConfig",
        "SessionConfig",
        "LifecycleConfig",
        "IndexingConfig",
        "Settings",
    ):
        raise ImportError(f"dualtrace.config.{name} was removed: {_GROUPED}")
    raise AttributeError(f"module 'dualtrace.config' has no attribute {name!r}")


def home_dir(env: Mapping[str, str] | None = None) -> Path:
    """$DUALTRACE_HOME, else ~/.dualtrace (public since 0.1)."""
    return environment.home_dir(os.environ if env is None else env)


def store_url(env: Mapping[str, str] | None = None) -> str | None:
    """$DUALTRACE_URL: the store the CLI and service open without --db or --url, or None."""
    return environment.store_url(os.environ if env is None else env)


def llm_api_key(env: Mapping[str, str] | None = None) -> str | None:
    """$DUALTRACE_LLM_API_KEY for an OpenAI-compatible chat server; None when unset or empty."""
    return environment.llm_api_key(os.environ if env is None else env)


def openmp_spins_briefly() -> None:
    """Have an OpenMP runtime loaded from now on spin 10,000 times (not ~300,000) before it
    sleeps, unless the user set a wait policy or spin count: busy cores otherwise slow the
    bundled embedder ~30x (docs/benchmarks.md, "Speed")."""
    if "OMP_WAIT_POLICY" not in os.environ:
        os.environ.setdefault("GOMP_SPINCOUNT", "10000")
