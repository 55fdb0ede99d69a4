"""What dualtrace takes from its environment, given the variables: its home folder, the
store URL, the LLM API key, settings cast strictly from their text; and the file path of a
`sqlite:///` URL. Nothing here reads the process environment: `config.py` does, and passes
it in (its `home_dir()`, `store_url()`, `llm_api_key()` and `from_env()`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from dualtrace.errors import ConfigError


def llm_api_key(env: Mapping[str, str]) -> str | None:
    """$DUALTRACE_LLM_API_KEY for an OpenAI-compatible chat server; None when unset or empty."""
    return env.get("DUALTRACE_LLM_API_KEY") or None


def home_dir(env: Mapping[str, str]) -> Path:
    """$DUALTRACE_HOME, else ~/.dualtrace."""
    return Path(env.get("DUALTRACE_HOME") or Path.home() / ".dualtrace")


def store_url(env: Mapping[str, str]) -> str | None:
    """$DUALTRACE_URL: the store the CLI and service open without --db or --url, or None."""
    return env.get("DUALTRACE_URL") or None


def sqlite_path_from_url(url: str) -> str:
    """The file path of a `sqlite:///path` URL; other schemes are a ConfigError."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise ConfigError(f"url {url!r} names no file; use sqlite:///path/to/memory.db")
        return path
    raise ConfigError(f"url {url.split('@')[-1]!r} is not a sqlite:///path/to/memory.db URL")


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def cast_setting(name: str, raw: str, type_name: str) -> object:
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
