"""Real cl100k_base token counts, computed offline from the BPE tables bundled in bpe-openai."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _encoding() -> Any:
    import bpe_openai  # loaded on first count: it costs most of `import dualtrace`

    return bpe_openai.get_encoding("cl100k_base")


def count_tokens(text: str) -> int:
    """Count cl100k_base tokens; special-token text such as <|endoftext|> counts as plain text."""
    if not text:
        return 0
    return len(_encoding().encode(text, disallowed_special=()))


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """Cut text to at most max_tokens tokens, on a token boundary, adding an ellipsis."""
    if max_tokens <= 0:
        return ""
    enc = _encoding()
    ids = enc.encode(text, disallowed_special=())
    if len(ids) <= max_tokens:
        return text
    keep = max(0, max_tokens - 1)
    while keep > 0:
        cut = str(enc.decode(ids[:keep])).rstrip() + "…"
        if count_tokens(cut) <= max_tokens:
            return cut
        keep -= 1
    return ""
