"""Typed settings, one frozen dataclass per component. Environment variables are read here
and nowhere else.

`MemoryConfig` holds the settings of a `Memory`: a few of its own and one group per
component (`retrieval`, `boost`, `packing`, `session`, `lifecycle`, `indexing`). Every
setting also has a flat name, the same in every place: a keyword of `MemoryConfig(...)` and
of `dataclasses.replace`, an attribute of the config, and `DUALTRACE_<NAME>` in the
environment. Flat names are unique across groups, so `config.dense_weight` is
`config.retrieval.dense_weight`.
"""

from __future__ import annotations

import difflib
import math
import os
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields, replace
from typing import Any, Generic, Literal, TypedDict, TypeVar, Unpack, cast

from dualtrace.environment import home_dir as home_dir  # re-exported: public since 0.1
from dualtrace.environment import llm_api_key as llm_api_key
from dualtrace.environment import sqlite_path_from_url as sqlite_path_from_url
from dualtrace.environment import store_url as store_url
from dualtrace.errors import ConfigError, SettingError

PiiPolicy = Literal["redact", "keep"]
FusionMethod = Literal["weighted", "rrf"]
SESSION_SECTIONS = ("memory", "turns", "summary", "reserve")
_TRACES = ("episode", "fact", "scene")


@dataclass(frozen=True)
class RetrievalConfig:
    """How `search` gathers candidates from its channels and fuses them into one ranking."""

    #: Share of the dense channel in weighted fusion; the lexical channel gets the rest.
    dense_weight: float = 0.5
    #: "weighted": min-max normalised scores mixed by weight; "rrf": reciprocal-rank fusion.
    fusion: FusionMethod = "weighted"
    #: The k of reciprocal-rank fusion (1 / (k + rank)).
    rrf_k: int = 60
    #: Least score range (cosine units) dense scores are normalised over (0: off).
    dense_min_spread: float = 0.0
    #: Least lexical score range, as a share of the top BM25 score (0: off).
    lexical_min_spread: float = 0.0
    #: Hits taken from each channel before fusion.
    candidates: int = 50
    #: Weight of the entity channel: memories of the entities a question names (0: off).
    entity_weight: float = 0.2
    #: The entity channel ignores entities found in more than this share of a user's memories.
    entity_max_share: float = 0.2
    #: Weight of the temporal channel: what happened in the window a question names (0: off).
    temporal_weight: float = 0.2
    #: Which keys search reads: some of "episode", "fact", "scene".
    search_traces: tuple[str, ...] = _TRACES
    #: Weight of the cross-lingual channel: the query's words in the other language (0: off).
    crosslingual_weight: float = 0.5
    #: Also embed the translated words as a second dense query (the better of the two counts).
    crosslingual_dense: bool = False
    #: Share of the embedder's `language_gap` added to keys not in the question's language.
    dense_language_balance: float = 1.0

    def __post_init__(self) -> None:
        check_types(self)
        if self.fusion not in ("weighted", "rrf"):
            raise ConfigError(f"fusion={self.fusion!r} is unknown; use 'weighted' or 'rrf'")
        if not 0.0 <= self.dense_weight <= 1.0:
            raise ConfigError(f"dense_weight={self.dense_weight} must lie in [0, 1]")
        unknown = set(self.search_traces) - set(_TRACES)
        if unknown or not self.search_traces:
            raise ConfigError(
                f"search_traces={self.search_traces!r}: use some of 'episode', 'fact', 'scene'"
            )
        for name in ("entity_weight", "temporal_weight", "crosslingual_weight",
                     "dense_language_balance"):  # fmt: skip
            if getattr(self, name) < 0:
                raise ConfigError(f"{name}={getattr(self, name)} must not be negative")
        if self.candidates < 1 or self.rrf_k < 1:
            raise ConfigError("candidates and rrf_k must be positive integers")


@dataclass(frozen=True)
class BoostConfig:
    """Bounded boosts applied to fused scores: each multiplies a score within ±weight."""

    #: Weight of the recency boost (0: off).
    recency_weight: float = 0.05
    #: Days over which recency halves, counted back from the question's `now`.
    recency_halflife_days: float = 90.0
    #: Weight of the importance boost (0: off).
    importance_weight: float = 0.05
    #: Boost (up to +weight) for what a person the question names said (0: off).
    speaker_weight: float = 0.25
    #: Boost (up to +weight) for what states a quantity of the kind a question asks for
    #: ("How wide…?": a length) in either language; `text/quantities.py` (0: off).
    answer_weight: float = 0.5
    #: For a question about the speaker's own matter ("our parking space"), what opens on
    #: another person's ("Jess's dog…", "老婆的同事…") is lowered by up to weight;
    #: `text/owners.py` (0: off).
    owner_weight: float = 0.25
    #: For a question about a slot ("Which city do I live in?"), the slot's current value
    #: is multiplied by 1 + weight and what it replaced divided by it (0: off).
    slot_weight: float = 1.0

    def __post_init__(self) -> None:
        check_types(self)
        if not 0 <= self.slot_weight <= 4:
            raise ConfigError(f"slot_weight={self.slot_weight} must lie in [0, 4] (0: off)")
        for name in ("recency_weight", "importance_weight", "speaker_weight", "answer_weight",
                     "owner_weight"):  # fmt: skip
            if not 0 <= getattr(self, name) <= 0.5:
                raise ConfigError(
                    f"{name}={getattr(self, name)} must lie in [0, 0.5]: boosts are bounded so "
                    "that time or importance never erase a relevant memory"
                )
        if self.recency_halflife_days <= 0:
            raise ConfigError(
                f"recency_halflife_days={self.recency_halflife_days} must be positive"
            )


@dataclass(frozen=True)
class PackingConfig:
    """How `context()` fits hits into a token budget and renders them."""

    #: Trade relevance for coverage by maximal marginal relevance, from 0 (off) to 1.
    context_diversity: float = 0.0
    #: A turn longer than this shows only its sentences nearest the query (0: turns whole).
    context_snippet_tokens: int = 150
    #: A date line from the last 60 days also says how long before `now` it was.
    context_relative_dates: bool = False
    #: A memory drawn from a message to an assistant is shown as that message.
    context_user_messages: bool = True
    #: Start the context with a one-line header saying how to read it (12 tokens).
    context_header: bool = True

    def __post_init__(self) -> None:
        check_types(self)
        if not 0 <= self.context_diversity <= 1:
            raise ConfigError(
                f"context_diversity={self.context_diversity} must be in [0, 1] (0: off)"
            )
        if self.context_snippet_tokens != 0 and self.context_snippet_tokens < 20:
            raise ConfigError(
                f"context_snippet_tokens={self.context_snippet_tokens} is too small to hold a "
                "sentence; use 0 (turns shown whole) or at least 20"
            )


@dataclass(frozen=True)
class SessionConfig:
    """How `Session.context` splits its max_tokens, and when an idle session ends.

    The four shares sum to at most 1; the rest is room for the caller's system prompt.
    """

    #: Share of max_tokens for long-term memories.
    session_memory_share: float = 0.18
    #: Share of max_tokens for the session's recent turns.
    session_turns_share: float = 0.45
    #: Share of max_tokens for the rolling summary of older turns.
    session_summary_share: float = 0.12
    #: Share of max_tokens kept free for the answer.
    session_reserve_share: float = 0.10
    #: Minutes without a turn after which `end_idle_sessions` (and `maintain`) ends a session.
    session_idle_minutes: float = 30.0

    def __post_init__(self) -> None:
        check_types(self)
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


@dataclass(frozen=True)
class LifecycleConfig:
    """How a memory's importance grows with use and fades without it, until archived."""

    #: Importance a memory gains when recalled, damped by 1 / sqrt(1 + access_count).
    reinforce_step: float = 0.05
    #: `maintain()` archives a memory whose faded importance fell below this (0: off).
    archive_importance: float = 0.1
    #: ... and that has not been used for this many days.
    archive_after_days: float = 180.0

    def __post_init__(self) -> None:
        check_types(self)
        if not 0 <= self.archive_importance < 1 or self.archive_after_days < 0:
            raise ConfigError(
                f"archive_importance={self.archive_importance} must be in [0, 1) and "
                f"archive_after_days={self.archive_after_days} at least 0 "
                "(archive_importance=0 turns fading off)"
            )


@dataclass(frozen=True)
class IndexingConfig:
    """What text the dense and full-text keys of a stored record are made from."""

    #: Characters of a text the dense vector is made from (the full-text key has all).
    embed_max_chars: int = 1000
    #: The same for assistant turns; 0 gives them no vector (full-text only).
    assistant_embed_chars: int = 200
    #: 1 adds the turn before to each turn's full-text key; 0: off.
    lexical_context_turns: int = 1
    #: 1 adds the turn before to the dense key of a turn between people; 0: off.
    dense_context_turns: int = 1
    #: A turn longer than this many characters is indexed in chunks of about this size
    #: (split at sentence ends): a full-text key per chunk, so a pasted document matches by
    #: the part that answers, not diluted by its length. 0: one key per turn.
    chunk_chars: int = 4000
    #: Give each chunk after the first a dense vector too (True), or only the opening (False).
    embed_chunks: bool = True
    #: Index a text's words in the other language (CC-CEDICT) in a full-text column of their own.
    crosslingual_glosses: bool = True
    #: A file that keeps embeddings across runs, keyed by (embedder id, text hash).
    embed_cache_path: str | None = None

    def __post_init__(self) -> None:
        check_types(self)
        for name in ("lexical_context_turns", "dense_context_turns"):
            if getattr(self, name) not in (0, 1):
                raise ConfigError(
                    f"{name}={getattr(self, name)!r}: use 1 (a turn's key also holds the turn "
                    "before it) or 0 (off); more turns are not supported"
                )
        if self.embed_max_chars < 50:
            raise ConfigError(f"embed_max_chars={self.embed_max_chars} is too small; use >= 50")
        if self.chunk_chars != 0 and self.chunk_chars < 500:
            raise ConfigError(
                f"chunk_chars={self.chunk_chars} is too small; use 0 (no chunks) or >= 500"
            )
        if not 0 <= self.assistant_embed_chars <= self.embed_max_chars:
            raise ConfigError(
                f"assistant_embed_chars={self.assistant_embed_chars} must be from 0 to "
                f"embed_max_chars ({self.embed_max_chars})"
            )


_GROUPS: dict[str, type[Any]] = {
    "retrieval": RetrievalConfig,
    "boost": BoostConfig,
    "packing": PackingConfig,
    "session": SessionConfig,
    "lifecycle": LifecycleConfig,
    "indexing": IndexingConfig,
}
_GROUP_OF = {f.name: group for group, cls in _GROUPS.items() for f in fields(cls)}


class Settings(TypedDict, total=False):
    """Every setting by its flat name: the keywords `MemoryConfig(...)` accepts besides groups."""

    pii: PiiPolicy
    max_message_chars: int
    actor: str
    extract: bool
    dense_weight: float
    fusion: FusionMethod
    rrf_k: int
    dense_min_spread: float
    lexical_min_spread: float
    candidates: int
    entity_weight: float
    entity_max_share: float
    temporal_weight: float
    search_traces: tuple[str, ...]
    crosslingual_weight: float
    crosslingual_dense: bool
    dense_language_balance: float
    recency_weight: float
    recency_halflife_days: float
    importance_weight: float
    speaker_weight: float
    answer_weight: float
    owner_weight: float
    slot_weight: float
    context_diversity: float
    context_snippet_tokens: int
    context_relative_dates: bool
    context_user_messages: bool
    context_header: bool
    session_memory_share: float
    session_turns_share: float
    session_summary_share: float
    session_reserve_share: float
    session_idle_minutes: float
    reinforce_step: float
    archive_importance: float
    archive_after_days: float
    embed_max_chars: int
    assistant_embed_chars: int
    lexical_context_turns: int
    dense_context_turns: int
    chunk_chars: int
    embed_chunks: bool
    crosslingual_glosses: bool
    embed_cache_path: str | None


_T = TypeVar("_T")


class _Flat(Generic[_T]):
    """A read-only flat name of a group's setting: `config.rrf_k` is `config.retrieval.rrf_k`.

    On the class it gives the default, as a dataclass field does: `MemoryConfig.rrf_k` is 60.
    """

    def __init__(self, group: str) -> None:
        self.group, self.name = group, ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> _T:
        holder = _GROUPS[self.group] if obj is None else getattr(obj, self.group)
        return cast(_T, getattr(holder, self.name))


@dataclass(frozen=True, init=False)
class MemoryConfig:
    """Settings of a Memory; every setting can also come from DUALTRACE_<NAME>.

    Give settings by their flat names, as groups, or both (a flat name overrides its group):

        MemoryConfig(dense_weight=0.7, pii="keep")
        MemoryConfig(retrieval=RetrievalConfig(fusion="rrf"), context_user_messages=False)
        dataclasses.replace(config, search_traces=("episode",))

    and read them either way: `config.dense_weight` is `config.retrieval.dense_weight`.
    """

    #: "redact" replaces e-mails, phone, ID-card and bank-card numbers before storing;
    #: "keep" stores text as given.
    pii: PiiPolicy = "redact"
    #: Longest message accepted, in characters: about 1 MB, a guard against abuse (a pasted
    #: document is stored whole). Queries stop at 32,000 (`inputs.MAX_QUERY_CHARS`).
    max_message_chars: int = 1_000_000
    #: Who the audit log names as having made a change.
    actor: str = "api"
    #: Derive memories (facts, scenes) from what is added.
    extract: bool = True
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    boost: BoostConfig = field(default_factory=BoostConfig)
    packing: PackingConfig = field(default_factory=PackingConfig)
    session: SessionConfig = field(default_factory=SessionConfig)
    lifecycle: LifecycleConfig = field(default_factory=LifecycleConfig)
    indexing: IndexingConfig = field(default_factory=IndexingConfig)

    def __init__(
        self,
        *,
        retrieval: RetrievalConfig | None = None,
        boost: BoostConfig | None = None,
        packing: PackingConfig | None = None,
        session: SessionConfig | None = None,
        lifecycle: LifecycleConfig | None = None,
        indexing: IndexingConfig | None = None,
        **settings: Unpack[Settings],
    ) -> None:
        unknown = sorted(set(settings) - set(self.setting_names()))
        if unknown:
            near = difflib.get_close_matches(unknown[0], self.setting_names(), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise SettingError(
                f"MemoryConfig() got an unexpected setting {unknown[0]!r}{hint}; the settings "
                "are listed by MemoryConfig.setting_names()"
            )
        for f in _own_fields():
            object.__setattr__(self, f.name, settings.get(f.name, f.default))
        self._check_own()
        given = {"retrieval": retrieval, "boost": boost, "packing": packing,
                 "session": session, "lifecycle": lifecycle, "indexing": indexing}  # fmt: skip
        for name, cls in _GROUPS.items():
            group = cls() if given[name] is None else given[name]
            if not isinstance(group, cls):
                raise SettingError(
                    f"MemoryConfig({name}=...) takes a {cls.__name__}, not {group!r}"
                )
            changes = {k: v for k, v in settings.items() if _GROUP_OF.get(k) == name}
            object.__setattr__(self, name, replace(group, **changes) if changes else group)

    def _check_own(self) -> None:
        """Check this config's own settings (each group checks its own on creation)."""
        check_types(self)
        if self.pii not in ("redact", "keep"):
            raise ConfigError(f"pii={self.pii!r} is not a policy; use 'redact' or 'keep'")
        if self.max_message_chars < 1:
            raise ConfigError(f"max_message_chars={self.max_message_chars} must be positive")

    @classmethod
    def setting_names(cls) -> tuple[str, ...]:
        """Every flat setting name: this config's own, then each group's, in order."""
        return tuple(f.name for f in _setting_fields())

    def settings(self) -> dict[str, object]:
        """Every setting by its flat name, e.g. {"pii": "redact", "dense_weight": 0.5, ...}."""
        return {name: getattr(self, name) for name in self.setting_names()}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MemoryConfig:
        """Defaults overridden by DUALTRACE_PII, DUALTRACE_DENSE_WEIGHT, ... (strictly cast)."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for f in _setting_fields():
            raw = env.get("DUALTRACE_" + f.name.upper())
            if raw is not None:
                values[f.name] = _cast(f.name, raw, str(f.type))
        return cls(**values)  # type: ignore[arg-type]

    # Flat read access to the groups' settings, e.g. `config.dense_weight`.
    dense_weight = _Flat[float]("retrieval")
    fusion = _Flat[FusionMethod]("retrieval")
    rrf_k = _Flat[int]("retrieval")
    dense_min_spread = _Flat[float]("retrieval")
    lexical_min_spread = _Flat[float]("retrieval")
    candidates = _Flat[int]("retrieval")
    entity_weight = _Flat[float]("retrieval")
    entity_max_share = _Flat[float]("retrieval")
    temporal_weight = _Flat[float]("retrieval")
    search_traces = _Flat[tuple[str, ...]]("retrieval")
    crosslingual_weight = _Flat[float]("retrieval")
    crosslingual_dense = _Flat[bool]("retrieval")
    dense_language_balance = _Flat[float]("retrieval")
    recency_weight = _Flat[float]("boost")
    recency_halflife_days = _Flat[float]("boost")
    importance_weight = _Flat[float]("boost")
    speaker_weight = _Flat[float]("boost")
    answer_weight = _Flat[float]("boost")
    owner_weight = _Flat[float]("boost")
    slot_weight = _Flat[float]("boost")
    context_diversity = _Flat[float]("packing")
    context_snippet_tokens = _Flat[int]("packing")
    context_relative_dates = _Flat[bool]("packing")
    context_user_messages = _Flat[bool]("packing")
    context_header = _Flat[bool]("packing")
    session_memory_share = _Flat[float]("session")
    session_turns_share = _Flat[float]("session")
    session_summary_share = _Flat[float]("session")
    session_reserve_share = _Flat[float]("session")
    session_idle_minutes = _Flat[float]("session")
    reinforce_step = _Flat[float]("lifecycle")
    archive_importance = _Flat[float]("lifecycle")
    archive_after_days = _Flat[float]("lifecycle")
    embed_max_chars = _Flat[int]("indexing")
    assistant_embed_chars = _Flat[int]("indexing")
    lexical_context_turns = _Flat[int]("indexing")
    dense_context_turns = _Flat[int]("indexing")
    chunk_chars = _Flat[int]("indexing")
    embed_chunks = _Flat[bool]("indexing")
    crosslingual_glosses = _Flat[bool]("indexing")
    embed_cache_path = _Flat[str | None]("indexing")


# What each field type accepts: (check, what to say). Floats must be finite; an int is a
# float, but a bool is neither (True would silently read as 1).
_ACCEPTS: dict[str, tuple[Any, str]] = {
    "bool": (lambda v: isinstance(v, bool), "True or False"),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer"),
    "float": (lambda v: isinstance(v, int | float) and not isinstance(v, bool)
              and math.isfinite(v), "a finite number"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "PiiPolicy": (lambda v: isinstance(v, str), "'redact' or 'keep'"),
    "FusionMethod": (lambda v: isinstance(v, str), "'weighted' or 'rrf'"),
    "str | None": (lambda v: v is None or isinstance(v, str), "a string or None"),
    "tuple[str, ...]": (lambda v: isinstance(v, tuple) and all(isinstance(x, str) for x in v),
                        "a tuple of strings"),
}


def check_types(settings: Any) -> None:
    """Every setting of a config object has its declared type: "false" is not a bool and
    1.5 is not an int (a list of strings is taken as the tuple it stands for)."""
    for f in fields(settings):
        if f.name in _GROUPS:
            continue
        value = getattr(settings, f.name)
        if str(f.type) == "tuple[str, ...]" and isinstance(value, list):
            value = tuple(value)
            object.__setattr__(settings, f.name, value)
        accepts, expected = _ACCEPTS[str(f.type)]
        if not accepts(value):
            raise SettingError(
                f"{f.name}={value!r} must be {expected}, e.g. {f.name}={f.default!r}"
            )


def _own_fields() -> list[Field[Any]]:
    """MemoryConfig's fields that are settings themselves (not groups)."""
    return [f for f in fields(MemoryConfig) if f.name not in _GROUPS]


def _setting_fields() -> list[Field[Any]]:
    """The field of every flat setting, MemoryConfig's own first, then each group's."""
    return _own_fields() + [f for cls in _GROUPS.values() for f in fields(cls)]


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


@dataclass(frozen=True)
class ServiceConfig:
    """Settings of the HTTP service (`dualtrace serve`); each also from DUALTRACE_<NAME>.

    The limits guard the service, not the data: a request over one is refused whole (413
    or 429) before anything is stored.
    """

    #: Address to listen on; `dev` mode is allowed on a loopback address only.
    host: str = "127.0.0.1"
    #: TCP port to listen on.
    port: int = 8765
    #: Development mode: requests need no API key (loopback only).
    dev: bool = False
    #: Largest request body, in bytes.
    max_body_bytes: int = 2_000_000
    #: Most messages in one `POST /v1/memories`.
    max_messages: int = 200
    #: Longest query of `/v1/search` and `/v1/context`, in characters.
    max_query_chars: int = 4000
    #: Requests per minute one API key may send (bursts up to this many); 0: no limit.
    rate_limit: int = 600
    #: Run the background worker that embeds and derives what `"async": true` adds stored.
    worker: bool = True
    #: Host names the service answers besides loopback and `host` ("name" or "name:port",
    #: comma-separated in DUALTRACE_ALLOWED_HOSTS; "*": any). Others get 421.
    allowed_hosts: tuple[str, ...] = ()
    #: Seconds a client has to send a request's head and body (else 408; idle kept-alive
    #: connections close after 5 s), and open connections at most (beyond them: 503).
    read_timeout: float = 15.0
    max_connections: int = 1000
    #: Open `GET /mcp` streams at most per key (dev: per client) and in all (429 / 503);
    #: each is closed after `stream_seconds`.
    max_streams_per_key: int = 4
    max_streams: int = 100
    stream_seconds: float = 300.0

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
    def from_env(cls, env: Mapping[str, str] | None = None, **given: object) -> ServiceConfig:
        """Defaults, overridden by DUALTRACE_HOST, DUALTRACE_PORT, DUALTRACE_RATE_LIMIT, …,
        overridden in turn by `given` (command-line options; None means not given)."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = env.get("DUALTRACE_" + f.name.upper())
            if raw is not None:
                values[f.name] = _cast(f.name, raw, str(f.type))
        values.update({k: v for k, v in given.items() if v is not None})
        unknown = sorted(set(values) - {f.name for f in fields(cls)})
        if unknown:
            raise SettingError(f"ServiceConfig has no setting {unknown[0]!r}")
        return cls(**values)  # type: ignore[arg-type]
