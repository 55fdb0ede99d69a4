"""Real cl100k_base token counts, computed offline from the BPE tables bundled in bpe-openai.

Counting goes straight to the package's Rust tokenizer (`_bindings`), loaded on its own:
importing the `bpe_openai` package decodes every table it ships (cl100k, o200k, voyage3) in
Python, ~2 s, to build a model registry that counting never reads. The tiktoken-style
`Encoding` (Python tables, lenient decoding) is loaded only to decode a cut that splits a
character's bytes (or to read a lone surrogate). Counts are cached per string (a context
counts the same lines and date labels again at each budget and for each query over the same
turns); the cache is bounded and holds only pure functions of text.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

ENCODING = "cl100k_base"
_BINDINGS = "bpe_openai._bindings"
COUNT_CACHE = 8_192  # distinct strings whose counts are kept…
CACHED_CHARS = 4_096  # …when no longer than this (the cache holds at most ~32M characters)


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    """The Rust cl100k_base tokenizer, without importing the `bpe_openai` package."""
    module = sys.modules.get(_BINDINGS)
    if module is None:
        module = _load_bindings()
    return module.tokenizer_for_encoding(ENCODING)


def _load_bindings() -> Any:
    spec = importlib.util.find_spec("bpe_openai")  # finds the package; runs none of it
    folders = [] if spec is None else list(spec.submodule_search_locations or [])
    for folder in folders:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(folder) / f"_bindings{suffix}"
            if path.is_file():
                loader = importlib.machinery.ExtensionFileLoader(_BINDINGS, str(path))
                found = importlib.util.spec_from_file_location(_BINDINGS, path, loader=loader)
                assert found is not None
                module = importlib.util.module_from_spec(found)
                loader.exec_module(module)
                # the package's own `import_module(_BINDINGS)` finds it here, if it is loaded
                sys.modules[_BINDINGS] = module
                return module
    import bpe_openai._bindings  # an unusual layout: through the package, slower

    return bpe_openai._bindings


@lru_cache(maxsize=1)
def _encoding() -> Any:
    import bpe_openai  # only to cut texts: it costs ~2 s (see the module docstring)

    return bpe_openai.get_encoding(ENCODING)


def count_tokens(text: str) -> int:
    """Count cl100k_base tokens; special-token text such as <|endoftext|> counts as plain text."""
    if not text:
        return 0
    return _count(text) if len(text) > CACHED_CHARS else _cached_count(text)


@lru_cache(maxsize=COUNT_CACHE)
def _cached_count(text: str) -> int:
    return _count(text)


def _count(text: str) -> int:
    try:
        return int(_tokenizer().count(text))
    except UnicodeEncodeError:  # a lone surrogate: counted as the Encoding counts it
        return len(_encoding().encode(text, disallowed_special=()))


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """Cut text to at most max_tokens tokens, on a token boundary, adding an ellipsis."""
    if max_tokens <= 0:
        return ""
    if count_tokens(text) <= max_tokens:
        return text
    try:
        ids = list(_tokenizer().encode(text))
    except UnicodeEncodeError:  # a lone surrogate: the Encoding replaces it first
        ids = _encoding().encode(text, disallowed_special=())
    keep = max(0, max_tokens - 1)
    while keep > 0:
        cut = _decode(ids[:keep]).rstrip() + "…"
        if count_tokens(cut) <= max_tokens:
            return cut
        keep -= 1
    return ""


def _decode(ids: list[int]) -> str:
    """The text of token ids; a cut inside a character's bytes is decoded as the Encoding
    decodes it (with a replacement character), which the Rust decoder refuses."""
    try:
        return str(_tokenizer().decode(ids))
    except ValueError:
        return str(_encoding().decode(ids))
