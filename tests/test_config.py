"""Settings: each given, replaced, read and loaded from the environment by one name."""

from __future__ import annotations

import dataclasses
import pickle
import re
from pathlib import Path

import pytest

import dualtrace
from dualtrace.config import REMOVED, MemoryConfig, ServiceConfig, llm_api_key
from dualtrace.errors import ConfigError, SettingError


def test_settings_are_given_and_read_by_one_name() -> None:
    config = MemoryConfig(
        dense_weight=0.7,
        pii="keep",
        context_user_messages=False,
        session_idle_minutes=5,
        embed_cache_path="/tmp/e.db",
    )
    assert config.dense_weight == 0.7 and config.pii == "keep"
    assert config.context_user_messages is False and config.session_idle_minutes == 5
    assert config.embed_cache_path == "/tmp/e.db"
    assert config.recency_weight == MemoryConfig().recency_weight


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_a_removed_setting_is_refused_by_name(name: str) -> None:
    """A removed setting is not silently ignored: every way of giving it names it."""
    with pytest.raises(SettingError, match=rf"{name}=...\): '{name}' was removed: "):
        MemoryConfig(**{name: 1})
    with pytest.raises(SettingError, match=f"'{name}' was removed"):
        dataclasses.replace(MemoryConfig(), **{name: 1})
    with pytest.raises(ConfigError, match=f"DUALTRACE_{name.upper()} is set, but '{name}' was"):
        MemoryConfig.from_env({f"DUALTRACE_{name.upper()}": "1"})
    assert name not in MemoryConfig.setting_names()


def test_removed_settings_say_what_to_do_instead() -> None:
    with pytest.raises(SettingError, match=r"no longer grouped.*MemoryConfig\(dense_weight=0\.7\)"):
        MemoryConfig(retrieval=object())  # type: ignore[call-arg]
    assert MemoryConfig.from_env({"DUALTRACE_SESSION": "x"}) == MemoryConfig()  # never a setting
    with pytest.raises(SettingError, match="weighted fusion is the only one"):
        MemoryConfig(fusion="weighted")  # type: ignore[call-arg]
    with pytest.raises(ImportError, match="RetrievalConfig was removed: settings are no longer"):
        from dualtrace.config import RetrievalConfig  # type: ignore[attr-defined]  # noqa: F401
    with pytest.raises(AttributeError):
        dualtrace.config.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_unknown_names_and_positional_values_are_type_errors() -> None:
    with pytest.raises(SettingError, match="'dense_wieght'; did you mean 'dense_weight'"):
        MemoryConfig(dense_wieght=0.3)  # type: ignore[call-arg]
    with pytest.raises(SettingError, match=r"ServiceConfig\(\) got an unexpected setting 'prot'"):
        ServiceConfig(prot=80)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        MemoryConfig("keep")  # type: ignore[misc]


def test_replace_takes_setting_names() -> None:
    base = MemoryConfig(pii="keep", dense_weight=0.7)
    changed = dataclasses.replace(base, dense_weight=0.3)
    assert changed.dense_weight == 0.3 and changed.pii == "keep" and base.dense_weight == 0.7
    traces = dataclasses.replace(base, **{"search_traces": ("episode",)})  # type: ignore[arg-type]
    assert traces.search_traces == ("episode",) and traces.dense_weight == 0.7
    assert dataclasses.replace(base, extract=False).extract is False
    with pytest.raises(ConfigError, match="dense_weight=2"):
        dataclasses.replace(base, dense_weight=2.0)


def test_a_config_rebuilds_from_its_vars_and_its_settings() -> None:
    base = MemoryConfig(extract=False, embed_cache_path="/tmp/e.db")
    again = MemoryConfig(**{**vars(base), "candidates": 5})  # as bench/locomo_fusion.py does
    assert again == dataclasses.replace(base, candidates=5)
    assert MemoryConfig(**base.settings()) == base  # type: ignore[arg-type]


def test_equality_hashing_pickling_and_repr() -> None:
    assert MemoryConfig() == MemoryConfig(dense_weight=0.5)
    assert hash(MemoryConfig()) == hash(MemoryConfig(dense_weight=0.5))
    assert MemoryConfig() != MemoryConfig(dense_weight=0.4)
    assert len({MemoryConfig(), MemoryConfig(), MemoryConfig(candidates=1)}) == 2
    config = MemoryConfig(candidates=7)
    assert pickle.loads(pickle.dumps(config)) == config
    assert repr(config).startswith("MemoryConfig(pii='redact', ")
    assert "dense_weight=0.5, candidates=7, " in repr(config)


def test_configs_are_frozen() -> None:
    config = MemoryConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.dense_weight = 0.3  # type: ignore[misc]


def test_class_attributes_give_defaults_as_before() -> None:
    assert MemoryConfig.dense_weight == 0.5 and MemoryConfig.pii == "redact"
    assert MemoryConfig.search_traces == ("episode", "fact", "scene")


def test_setting_names_are_the_fields() -> None:
    names = MemoryConfig.setting_names()
    assert len(names) == len(set(names)) == 40
    assert list(names) == [f.name for f in dataclasses.fields(MemoryConfig)]
    assert list(MemoryConfig().settings()) == list(names)
    assert not set(names) & set(ServiceConfig.setting_names())


@pytest.mark.parametrize("config", [MemoryConfig, ServiceConfig])
def test_every_setting_has_one_line_saying_what_it_does(config: type) -> None:
    for f in dataclasses.fields(config):
        doc = f.metadata["doc"]
        assert doc and "\n" not in doc and "|" not in doc and len(doc) < 160, f.name
        assert f.metadata["topic"] in dualtrace.config.TOPICS, f.name


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"pii": "maybe"}, "pii='maybe' is not a policy"),
        ({"lexical_context_turns": 2}, "lexical_context_turns=2: use 1"),
        ({"dense_context_turns": 3}, "dense_context_turns=3: use 1"),
        ({"dense_weight": 1.5}, r"dense_weight=1\.5 must lie in \[0, 1\]"),
        ({"embed_max_chars": 10}, "embed_max_chars=10 is too small"),
        ({"assistant_embed_chars": 2000}, r"must be from 0 to embed_max_chars \(1000\)"),
        ({"max_message_chars": 0}, "max_message_chars=0 must be positive"),
        ({"search_traces": ("turn",)}, "search_traces=.*use some of"),
        ({"search_traces": ()}, "search_traces=.*use some of"),
        ({"entity_weight": -0.1}, "entity_weight=-0.1 must not be negative"),
        ({"temporal_weight": -1.0}, "temporal_weight=-1.0 must not be negative"),
        ({"recency_weight": 0.6}, r"recency_weight=0\.6 must lie in \[0, 0\.5\]"),
        ({"importance_weight": -0.1}, "importance_weight=-0.1 must lie in"),
        ({"speaker_weight": 0.9}, "speaker_weight=0.9 must lie in"),
        ({"answer_weight": -0.1}, "answer_weight=-0.1 must lie in"),
        ({"context_snippet_tokens": 5}, "context_snippet_tokens=5 is too small"),
        ({"archive_importance": 1.0}, "archive_importance=1.0 must be in"),
        ({"archive_after_days": -1.0}, "archive_after_days=-1.0 at least 0"),
        ({"recency_halflife_days": 0.0}, "recency_halflife_days=0.0 must be positive"),
        ({"candidates": 0}, "candidates=0 must be a positive integer"),
        ({"session_turns_share": 0.93}, r"session shares sum to 1\.33"),
        ({"session_memory_share": -0.1}, r"session_memory_share=-0\.1"),
        ({"session_idle_minutes": 0}, "session_idle_minutes=0 must be positive"),
    ],
)
def test_bad_values_are_config_errors(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        MemoryConfig(**changes)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=message):
        dataclasses.replace(MemoryConfig(), **changes)


def test_env_overrides_defaults_with_strict_casts() -> None:
    env = {
        "DUALTRACE_PII": "keep",
        "DUALTRACE_EXTRACT": "off",
        "DUALTRACE_CONTEXT_USER_MESSAGES": "False",
        "DUALTRACE_CONTEXT_HEADER": " no ",
        "DUALTRACE_CANDIDATES": "12",
        "DUALTRACE_DENSE_WEIGHT": "0.25",
        "DUALTRACE_SEARCH_TRACES": "episode, fact,",
        "DUALTRACE_EMBED_CACHE_PATH": "/tmp/e.db",
        "DUALTRACE_SESSION_IDLE_MINUTES": "5",
        "OTHER": "ignored",
    }
    config = MemoryConfig.from_env(env)
    assert config.pii == "keep" and config.extract is False
    assert config.context_user_messages is False and config.context_header is False
    assert config.candidates == 12 and config.dense_weight == 0.25
    assert config.search_traces == ("episode", "fact")
    assert config.embed_cache_path == "/tmp/e.db" and config.session_idle_minutes == 5.0
    assert MemoryConfig.from_env({}) == MemoryConfig()


def test_every_setting_can_come_from_the_env() -> None:
    custom = MemoryConfig(
        pii="keep",
        max_message_chars=99,
        actor="cli",
        extract=False,
        dense_weight=0.3,
        candidates=9,
        entity_weight=0.4,
        entity_max_share=0.3,
        temporal_weight=0.1,
        search_traces=("fact",),
        crosslingual_weight=0.9,
        crosslingual_glosses=False,
        dense_language_balance=0.5,
        crosslingual_embedder="none",
        recency_weight=0.1,
        recency_halflife_days=10.0,
        importance_weight=0.2,
        speaker_weight=0.3,
        answer_weight=0.2,
        owner_weight=0.1,
        slot_weight=2.0,
        context_snippet_tokens=40,
        context_user_messages=False,
        context_header=False,
        session_memory_share=0.2,
        session_turns_share=0.3,
        session_summary_share=0.1,
        session_reserve_share=0.2,
        start_profile_share=0.3,
        session_idle_minutes=12.5,
        reinforce_step=0.1,
        archive_importance=0.2,
        archive_after_days=30.0,
        embed_max_chars=500,
        assistant_embed_chars=0,
        lexical_context_turns=0,
        dense_context_turns=0,
        chunk_chars=900,
        embed_chunks=False,
        embed_cache_path="/tmp/c.db",
    )
    values = custom.settings()
    assert all(values[name] != MemoryConfig().settings()[name] for name in values)

    def text(value: object) -> str:
        return ",".join(value) if isinstance(value, tuple) else str(value)

    env = {f"DUALTRACE_{name.upper()}": text(value) for name, value in values.items()}
    assert MemoryConfig.from_env(env) == custom


@pytest.mark.parametrize(
    ("name", "raw", "message"),
    [
        ("EXTRACT", "banana", "DUALTRACE_EXTRACT='banana' is not a boolean"),
        ("CONTEXT_USER_MESSAGES", "", "DUALTRACE_CONTEXT_USER_MESSAGES='' is not a boolean"),
        ("CHUNK_CHARS", "1.5", "DUALTRACE_CHUNK_CHARS='1.5' is not a valid int"),
        ("CANDIDATES", "many", "DUALTRACE_CANDIDATES='many' is not a valid int"),
        ("DENSE_WEIGHT", "half", "DUALTRACE_DENSE_WEIGHT='half' is not a valid float"),
        ("SESSION_IDLE_MINUTES", "", "DUALTRACE_SESSION_IDLE_MINUTES='' is not a valid float"),
    ],
)
def test_bad_env_values_name_the_variable(name: str, raw: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        MemoryConfig.from_env({f"DUALTRACE_{name}": raw})


def test_env_values_are_still_validated() -> None:
    with pytest.raises(ConfigError, match=r"dense_weight=3\.0 must lie in"):
        MemoryConfig.from_env({"DUALTRACE_DENSE_WEIGHT": "3"})
    with pytest.raises(ConfigError, match="pii='maybe' is not a policy"):
        MemoryConfig.from_env({"DUALTRACE_PII": "maybe"})


def test_llm_api_key_comes_from_the_env() -> None:
    assert llm_api_key({"DUALTRACE_LLM_API_KEY": "sk-test"}) == "sk-test"
    assert llm_api_key({"DUALTRACE_LLM_API_KEY": ""}) is None
    assert llm_api_key({}) is None


def test_only_config_reads_the_environment() -> None:
    package = Path(dualtrace.__file__).parent
    readers = {
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if re.search(r"os\.environ|getenv\(|environ\.get", path.read_text(encoding="utf-8"))
    }
    assert readers == {"config.py"}


def test_the_environment_helpers_read_the_process_environment_through_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from dualtrace import config

    monkeypatch.setenv("DUALTRACE_HOME", str(tmp_path))
    monkeypatch.setenv("DUALTRACE_URL", "sqlite:///x.db")
    monkeypatch.setenv("DUALTRACE_LLM_API_KEY", "sk-env")
    assert config.home_dir() == tmp_path
    assert config.store_url() == "sqlite:///x.db"
    assert config.llm_api_key() == "sk-env"
    assert config.home_dir({}) == Path.home() / ".dualtrace"  # a given mapping, not the process's
    assert config.store_url({}) is None
