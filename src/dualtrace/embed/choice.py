"""Which second embedder scores text in the other language than a question's
(`crosslingual_embedder`)."""

from __future__ import annotations

from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.embed.cache import CachedEmbedder, VectorCache


def crosslingual_embedder(
    config: MemoryConfig, main: Embedder, persistent: VectorCache | None = None
) -> Embedder | None:
    """The embedder `config.crosslingual_embedder` names, cached like the main one; None for
    "none", and for "auto" with a main embedder that declares no language gap
    (`Embedder.language_gap`): one that ranks both languages on one scale needs no second
    opinion."""
    setting = config.crosslingual_embedder
    if setting == "none" or (setting == "auto" and main.language_gap <= 0):
        return None
    from dualtrace.embed.use import UseEmbedder

    return CachedEmbedder(UseEmbedder(), persistent=persistent)
