"""What dualtrace reads from its environment: its home folder, the store URL, the LLM
API key; and the file path of a `sqlite:///` URL."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from dualtrace.errors import ConfigError


def llm_api_key(env: Mapping[str, str] | None = None) -> str | None:
    """$DUALTRACE_LLM_API_KEY for an OpenAI-compatible chat server; None when unset or empty."""
    env = os.environ if env is None else env
    return env.get("DUALTRACE_LLM_API_KEY") or None


def home_dir(env: Mapping[str, str] | None = None) -> Path:
    """$DUALTRACE_HOME, else ~/.dualtrace."""
    env = os.environ if env is None else env
    return Path(env.get("DUALTRACE_HOME") or Path.home() / ".dualtrace")


def sqlite_path_from_url(url: str) -> str:
    """The file path of a `sqlite:///path` URL; other schemes are a ConfigError."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise ConfigError(f"url {url!r} names no file; use sqlite:///path/to/memory.db")
        return path
    raise ConfigError(f"url {url.split('@')[-1]!r} is not a sqlite:///path/to/memory.db URL")


def store_url(env: Mapping[str, str] | None = None) -> str | None:
    """$DUALTRACE_URL: the store the CLI and service open without --db or --url, or None."""
    return (os.environ if env is None else env).get("DUALTRACE_URL") or None
