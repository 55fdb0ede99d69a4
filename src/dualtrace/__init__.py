"""dualtrace: long-term memory for LLM agents — lossless episodes, dual-trace memories,
hybrid recall and lean, dated, sourced context.

    from dualtrace import Memory
    with Memory("memory.db") as mem:
        mem.add("I live in Hangzhou", user_id="alice")
        print(mem.context("where does Alice live?", user_id="alice").text)

The names below load on first use, so `import dualtrace` (and the CLI's start-up) stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dualtrace.config import MemoryConfig
    from dualtrace.errors import (
        ConfigError,
        ConflictError,
        DualtraceError,
        EmbedderMismatchError,
        EmbeddingError,
        LLMError,
        MigrationError,
        NotFoundError,
        ProviderError,
        SchemaError,
        StoreError,
        ValidationError,
    )
    from dualtrace.memory import Memory
    from dualtrace.models import (
        AddResult,
        Context,
        HistoryEntry,
        Hit,
        Item,
        Profile,
        ProfileValue,
        Source,
    )
    from dualtrace.recall.triggers import needs_memory
    from dualtrace.session import Session

__version__ = "0.1.0"

_ERRORS = (
    "ConfigError",
    "ConflictError",
    "DualtraceError",
    "EmbedderMismatchError",
    "EmbeddingError",
    "LLMError",
    "MigrationError",
    "NotFoundError",
    "ProviderError",
    "SchemaError",
    "StoreError",
    "ValidationError",
)
_HOMES: dict[str, str] = {
    **dict.fromkeys(_ERRORS, "dualtrace.errors"),
    **dict.fromkeys(
        (
            "AddResult",
            "Context",
            "HistoryEntry",
            "Hit",
            "Item",
            "Profile",
            "ProfileValue",
            "Source",
        ),
        "dualtrace.models",
    ),
    "Memory": "dualtrace.memory",
    "MemoryConfig": "dualtrace.config",
    "Session": "dualtrace.session",
    "needs_memory": "dualtrace.recall.triggers",
}

__all__ = [
    "AddResult",
    "ConfigError",
    "ConflictError",
    "Context",
    "DualtraceError",
    "EmbedderMismatchError",
    "EmbeddingError",
    "HistoryEntry",
    "Hit",
    "Item",
    "LLMError",
    "Memory",
    "MemoryConfig",
    "MigrationError",
    "NotFoundError",
    "Profile",
    "ProfileValue",
    "ProviderError",
    "SchemaError",
    "Session",
    "Source",
    "StoreError",
    "ValidationError",
    "__version__",
    "needs_memory",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module the first time it is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'dualtrace' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
