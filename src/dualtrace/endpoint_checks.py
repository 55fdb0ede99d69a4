"""Checks shared by the settings of HTTP endpoint clients (OpenAI-compatible LLM, embedder)."""

from __future__ import annotations

import math
from urllib.parse import urlsplit

from dualtrace.errors import ConfigError


def check_base_url(owner: str, base_url: object) -> None:
    """Raise ConfigError unless base_url is an absolute http(s) URL with a host."""
    hint = "set base_url= to the API root, e.g. 'http://localhost:11434/v1'"
    if not isinstance(base_url, str) or not base_url.strip():
        raise ConfigError(f"{owner}.base_url is {base_url!r}; {hint}")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"{owner}.base_url {base_url!r} is not an http(s) URL; {hint}")


def check_seconds(owner: str, name: str, value: object, *, allow_zero: bool, example: str) -> None:
    """Raise ConfigError unless value is a finite non-negative (or positive) number."""
    ok = (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and (value >= 0 if allow_zero else value > 0)
    )
    if not ok:
        bound = ">= 0" if allow_zero else "> 0"
        raise ConfigError(
            f"{owner}.{name} is {value!r} but must be a number {bound}; "
            f"set {name}= to a value in seconds (e.g. {example})"
        )
