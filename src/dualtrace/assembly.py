"""What `Memory` is built from: its checked settings and parts, the store a path or URL
names, and the default extractor (rules, or an LLM first when one is given)."""

from __future__ import annotations

from pathlib import Path

from dualtrace.config import MemoryConfig, home_dir
from dualtrace.embed.base import Embedder
from dualtrace.encode.base import Extractor
from dualtrace.encode.rules import RulesExtractor
from dualtrace.environment import sqlite_path_from_url
from dualtrace.errors import ConfigError, ValidationError
from dualtrace.llm.base import LLM
from dualtrace.store.base import Store
from dualtrace.store.open import is_postgres_url, open_store
from dualtrace.text.entities import extract_entities
from dualtrace.text.lexical import query_terms
from dualtrace.text.lexicon import lexicon
from dualtrace.text.script import in_script_of
from dualtrace.text.tokens import count_tokens


def checked_config(config: object, embedder: object, llm: object) -> MemoryConfig:
    """The config to use, once the parts handed to Memory() have the right types (a
    misplaced string would otherwise fail deep inside the first call that uses it)."""
    if config is not None and not isinstance(config, MemoryConfig):
        raise ConfigError(
            f"config={config!r} is a {type(config).__name__}, not a MemoryConfig; pass "
            "MemoryConfig(...), e.g. config=MemoryConfig(**settings) for a dict of settings"
        )
    for name, value, port, example in (
        ("embedder", embedder, Embedder, "FakeEmbedder() or OpenAIEmbedder(...)"),
        ("llm", llm, LLM, "OpenAIChatLLM(...)"),
    ):
        if value is not None and not isinstance(value, port):
            lacks = [m for m in dir(port) if not m.startswith("_") and not hasattr(value, m)]
            raise ConfigError(
                f"{name}={value!r} is not an {port.__name__}"
                + (f" (it lacks {', '.join(lacks)}: see {port.__module__})" if lacks else "")
                + f"; pass an instance such as {example}, or leave it out for the default"
            )
    return config or MemoryConfig.from_env()


def open_store_at(path: object, url: object) -> Store:
    """The store a path or a URL names (neither: the default file under the home folder)."""
    if path is not None and url is not None:
        raise ConfigError("pass either path or url, not both")
    if url is not None:
        if not isinstance(url, str):
            raise ConfigError(
                f"url={url!r} must be a string such as 'sqlite:///memory.db' or "
                "'postgresql://user:password@host/database'"
            )
        if is_postgres_url(url):
            return open_store(url)
        return open_store(_file_path(sqlite_path_from_url(url)))
    return open_store(_file_path(path) if path is not None else home_dir() / "memory.db")


def _file_path(path: object) -> Path | str:
    """The store file a path names, with `~` expanded (":memory:" stays as it is)."""
    if not isinstance(path, str | Path):
        raise ConfigError(
            f"path={path!r} has type {type(path).__name__}; pass a file path such as "
            "'memory.db' or a pathlib.Path"
        )
    if isinstance(path, str) and not path.strip():
        raise ConfigError("path='' names no file; pass a file path such as 'memory.db'")
    if str(path) == ":memory:":
        return ":memory:"
    return Path(path).expanduser()


def backup_path(path: object) -> Path:
    """The file a backup goes to, with `~` expanded."""
    if not isinstance(path, str | Path) or not str(path).strip() or str(path) == ":memory:":
        raise ValidationError(
            f"backup path={path!r} names no file; pass a file path such as "
            "'backups/memory.db' or a pathlib.Path"
        )
    return Path(path).expanduser()


def default_extractor(llm: LLM | None) -> Extractor:
    """Rules offline; with an LLM, the LLM first and the rules when it fails."""
    rules = RulesExtractor()
    if llm is None:
        return rules
    from dualtrace.encode.llm_extractor import FallbackExtractor, LLMExtractor

    return FallbackExtractor(LLMExtractor(llm), rules)


def warm_up(config: MemoryConfig, embedder: Embedder, crosslingual: Embedder | None) -> None:
    """Load the embedding models, the tokenizer, the Chinese word segmenter, the script
    converters and the bilingual lexicon (`Memory.warm_up`)."""
    embedder.embed_queries(["warm up"])
    if crosslingual is not None:
        crosslingual.embed_queries(["warm up"])
    count_tokens("warm up")
    query_terms("加载中文分词词典")  # jieba loads its dictionary on first use
    in_script_of("载入", "載入")  # and OpenCC its two converters (text/script.py)
    extract_entities("王小明住在杭州")  # and its part-of-speech tagger (~2 s)
    if config.crosslingual_weight > 0 or config.crosslingual_glosses:
        lexicon()
