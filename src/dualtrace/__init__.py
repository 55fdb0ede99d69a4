"""dualtrace: long-term memory for LLM agents — lossless episodes, dual-trace memories,
hybrid recall and lean, dated, sourced context.

    from dualtrace import Memory
    with Memory("memory.db") as mem:
        mem.add("I live in Hangzhou", user_id="alice")
        print(mem.context("where does Alice live?", user_id="alice").text)
"""

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
from dualtrace.models import AddResult, Context, HistoryEntry, Hit, Item, Source
from dualtrace.recall.triggers import needs_memory
from dualtrace.session import Session

__version__ = "0.1.0"

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
    "ProviderError",
    "SchemaError",
    "Session",
    "Source",
    "StoreError",
    "ValidationError",
    "__version__",
    "needs_memory",
]
