"""The checks a `MemoryConfig`'s values must pass: ranges, shares that sum to at most 1,
names from a closed set. Each failure is a `ConfigError` naming the value and the fix."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dualtrace.errors import ConfigError

if TYPE_CHECKING:
    from dualtrace.config import MemoryConfig

SESSION_SECTIONS = ("memory", "turns", "summary", "reserve")
TRACES = ("episode", "fact", "scene")
CROSSLINGUAL_EMBEDDERS = ("auto", "use", "none")


def check_values(c: MemoryConfig) -> None:
    """Raise a `ConfigError` for the first setting whose value is out of its range."""
    for check in (
        _check_memory,
        _check_retrieval,
        _check_boosts,
        _check_packing,
        _check_sessions,
        _check_lifecycle,
        _check_indexing,
    ):
        check(c)


def _check_memory(c: MemoryConfig) -> None:
    if c.pii not in ("redact", "keep"):
        raise ConfigError(f"pii={c.pii!r} is not a policy; use 'redact' or 'keep'")
    if c.max_message_chars < 1:
        raise ConfigError(f"max_message_chars={c.max_message_chars} must be positive")


def _check_retrieval(c: MemoryConfig) -> None:
    if not 0.0 <= c.dense_weight <= 1.0:
        raise ConfigError(f"dense_weight={c.dense_weight} must lie in [0, 1]")
    unknown = set(c.search_traces) - set(TRACES)
    if unknown or not c.search_traces:
        raise ConfigError(
            f"search_traces={c.search_traces!r}: use some of 'episode', 'fact', 'scene'"
        )
    for name in (
        "entity_weight",
        "temporal_weight",
        "crosslingual_weight",
        "dense_language_balance",
    ):
        if getattr(c, name) < 0:
            raise ConfigError(f"{name}={getattr(c, name)} must not be negative")
    if c.crosslingual_embedder not in CROSSLINGUAL_EMBEDDERS:
        raise ConfigError(
            f"crosslingual_embedder={c.crosslingual_embedder!r} is not one of "
            f"{', '.join(map(repr, CROSSLINGUAL_EMBEDDERS))}; use 'auto' (the default)"
        )
    if c.candidates < 1:
        raise ConfigError(f"candidates={c.candidates} must be a positive integer, e.g. 50")


def _check_boosts(c: MemoryConfig) -> None:
    if not 0 <= c.slot_weight <= 4:
        raise ConfigError(f"slot_weight={c.slot_weight} must lie in [0, 4] (0: off)")
    for name in (
        "recency_weight",
        "importance_weight",
        "speaker_weight",
        "answer_weight",
        "owner_weight",
    ):
        if not 0 <= getattr(c, name) <= 0.5:
            raise ConfigError(
                f"{name}={getattr(c, name)} must lie in [0, 0.5]: boosts are bounded so "
                "that time or importance never erase a relevant memory"
            )
    if c.recency_halflife_days <= 0:
        raise ConfigError(f"recency_halflife_days={c.recency_halflife_days} must be positive")


def _check_packing(c: MemoryConfig) -> None:
    if c.context_snippet_tokens != 0 and c.context_snippet_tokens < 20:
        raise ConfigError(
            f"context_snippet_tokens={c.context_snippet_tokens} is too small to hold a "
            "sentence; use 0 (turns shown whole) or at least 20"
        )


def _check_sessions(c: MemoryConfig) -> None:
    shares = {name: getattr(c, f"session_{name}_share") for name in SESSION_SECTIONS}
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
    if not 0.0 <= c.start_profile_share <= 1.0:
        raise ConfigError(
            f"start_profile_share={c.start_profile_share} must lie in [0, 1]: it is the share "
            "of a starting context's long-term part given to the user's profile"
        )
    if not c.session_idle_minutes > 0:
        raise ConfigError(
            f"session_idle_minutes={c.session_idle_minutes} must be positive, "
            "e.g. 30 ends a session after half an hour without a turn"
        )


def _check_lifecycle(c: MemoryConfig) -> None:
    if not 0 <= c.archive_importance < 1 or c.archive_after_days < 0:
        raise ConfigError(
            f"archive_importance={c.archive_importance} must be in [0, 1) and "
            f"archive_after_days={c.archive_after_days} at least 0 "
            "(archive_importance=0 turns fading off)"
        )


def _check_indexing(c: MemoryConfig) -> None:
    for name in ("lexical_context_turns", "dense_context_turns"):
        if getattr(c, name) not in (0, 1):
            raise ConfigError(
                f"{name}={getattr(c, name)!r}: use 1 (a turn's key also holds the turn "
                "before it) or 0 (off); more turns are not supported"
            )
    if c.embed_max_chars < 50:
        raise ConfigError(f"embed_max_chars={c.embed_max_chars} is too small; use >= 50")
    if c.chunk_chars != 0 and c.chunk_chars < 500:
        raise ConfigError(f"chunk_chars={c.chunk_chars} is too small; use 0 (no chunks) or >= 500")
    if not 0 <= c.assistant_embed_chars <= c.embed_max_chars:
        raise ConfigError(
            f"assistant_embed_chars={c.assistant_embed_chars} must be from 0 to "
            f"embed_max_chars ({c.embed_max_chars})"
        )
