"""Settings: grouped by component, still given, replaced, read and loaded by flat names."""

from __future__ import annotations

import dataclasses
import pickle
import re
import typing
from pathlib import Path

import pytest

import dualtrace
from dualtrace.config import (
    BoostConfig,
    IndexingConfig,
    LifecycleConfig,
    MemoryConfig,
    PackingConfig,
    RetrievalConfig,
    SessionConfig,
    Settings,
    llm_api_key,
)
from dualtrace.errors import ConfigError

GROUPS = {
    "retrieval": RetrievalConfig,
    "boost": BoostConfig,
    "packing": PackingConfig,
    "session": SessionConfig,
    "lifecycle": LifecycleConfig,
    "indexing": IndexingConfig,
}


def test_flat_keywords_land_in_their_groups() -> None:
    config = MemoryConfig(dense_weight=0.7, pii="keep", context_user_messages=False,
                          session_idle_minutes=5, embed_cache_path="/tmp/e.db")  # fmt: skip
    assert config.retrieval.dense_weight == config.dense_weight == 0.7
    assert config.pii == "keep"
    assert config.packing.context_user_messages is config.context_user_messages is False
    assert config.session.session_idle_minutes == config.session_idle_minutes == 5
    assert config.indexing.embed_cache_path == config.embed_cache_path == "/tmp/e.db"
    assert config.boost == BoostConfig() and config.lifecycle == LifecycleConfig()


def test_groups_are_given_whole_and_flat_names_override_them() -> None:
    retrieval = RetrievalConfig(fusion="rrf", rrf_k=10)
    config = MemoryConfig(retrieval=retrieval, rrf_k=20, speaker_weight=0.0)
    assert config.fusion == "rrf" and config.rrf_k == 20 and config.speaker_weight == 0.0
    assert retrieval.rrf_k == 10  # the group given is not changed
    assert MemoryConfig(retrieval=retrieval).retrieval is retrieval


def test_flat_overrides_are_checked_together() -> None:
    # Each alone would break assistant_embed_chars <= embed_max_chars on the way.
    config = MemoryConfig(embed_max_chars=100, assistant_embed_chars=80)
    assert (config.embed_max_chars, config.assistant_embed_chars) == (100, 80)
    small = MemoryConfig(indexing=IndexingConfig(embed_max_chars=100, assistant_embed_chars=80))
    assert MemoryConfig(indexing=small.indexing, embed_max_chars=2000).embed_max_chars == 2000


def test_unknown_names_and_wrong_groups_are_type_errors() -> None:
    with pytest.raises(TypeError, match="'dense_wieght'; did you mean 'dense_weight'"):
        MemoryConfig(dense_wieght=0.3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes a RetrievalConfig"):
        MemoryConfig(retrieval=BoostConfig())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        MemoryConfig("keep")  # type: ignore[call-arg, arg-type]


def test_replace_takes_flat_names_and_groups() -> None:
    base = MemoryConfig(pii="keep", dense_weight=0.7)
    changed = dataclasses.replace(base, dense_weight=0.3)  # type: ignore[call-arg]
    assert changed.dense_weight == 0.3 and changed.pii == "keep" and base.dense_weight == 0.7
    traces = dataclasses.replace(base, **{"search_traces": ("episode",)})  # type: ignore[arg-type]
    assert traces.search_traces == ("episode",) and traces.dense_weight == 0.7
    grouped = dataclasses.replace(base, retrieval=RetrievalConfig(candidates=7))
    assert grouped.candidates == 7 and grouped.dense_weight == 0.5
    assert dataclasses.replace(base, extract=False).extract is False
    with pytest.raises(ConfigError, match="dense_weight=2"):
        dataclasses.replace(base, dense_weight=2.0)  # type: ignore[call-arg]


def test_a_config_rebuilds_from_its_vars_and_its_settings() -> None:
    base = MemoryConfig(extract=False, embed_cache_path="/tmp/e.db")
    again = MemoryConfig(**{**vars(base), "rrf_k": 5})  # as bench/locomo_fusion.py does
    assert again == dataclasses.replace(base, rrf_k=5)  # type: ignore[call-arg]
    assert MemoryConfig(**base.settings()) == base  # type: ignore[arg-type]


def test_equality_hashing_pickling_and_repr() -> None:
    assert MemoryConfig() == MemoryConfig(dense_weight=0.5)
    assert hash(MemoryConfig()) == hash(MemoryConfig(dense_weight=0.5))
    assert MemoryConfig() != MemoryConfig(dense_weight=0.4)
    assert len({MemoryConfig(), MemoryConfig(), MemoryConfig(rrf_k=1)}) == 2
    config = MemoryConfig(fusion="rrf")
    assert pickle.loads(pickle.dumps(config)) == config
    assert repr(config).startswith("MemoryConfig(pii='redact', ")
    assert "retrieval=RetrievalConfig(dense_weight=0.5, fusion='rrf'" in repr(config)


def test_configs_are_frozen() -> None:
    config = MemoryConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.dense_weight = 0.3
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.retrieval.dense_weight = 0.3  # type: ignore[misc]


def test_class_attributes_give_defaults_as_before() -> None:
    assert MemoryConfig.dense_weight == 0.5 and MemoryConfig.pii == "redact"
    assert MemoryConfig.search_traces == ("episode", "fact", "scene")


def test_setting_names_are_unique_and_cover_every_group() -> None:
    names = MemoryConfig.setting_names()
    assert len(names) == len(set(names)) == 45
    own = [f.name for f in dataclasses.fields(MemoryConfig) if f.name not in GROUPS]
    grouped = [f.name for cls in GROUPS.values() for f in dataclasses.fields(cls)]
    assert list(names) == own + grouped
    assert set(MemoryConfig().settings()) == set(names)
    assert list(dataclasses.fields(MemoryConfig))[len(own) :] == [
        f for f in dataclasses.fields(MemoryConfig) if f.name in GROUPS
    ]


def test_flat_names_are_typed_as_their_fields() -> None:
    """The keyword types (Settings) and read types (MemoryConfig.<name>) match the fields."""
    declared = typing.get_type_hints(Settings)
    assert list(declared) == list(MemoryConfig.setting_names())
    hints = typing.get_type_hints(MemoryConfig)
    for group, cls in GROUPS.items():
        group_hints = typing.get_type_hints(cls)
        for name, kind in group_hints.items():
            reader = vars(MemoryConfig)[name]
            assert reader.group == group, name
            assert typing.get_args(reader.__orig_class__) == (kind,), name
            assert declared[name] == kind, name
    for name in ("pii", "max_message_chars", "actor", "extract"):
        assert declared[name] == hints[name], name


def test_group_docs_say_what_each_field_does() -> None:
    source = Path(dualtrace.config.__file__).read_text(encoding="utf-8")
    for cls in GROUPS.values():
        for f in dataclasses.fields(cls):
            assert re.search(rf"#: .+\n    {f.name}: ", source), f"{cls.__name__}.{f.name}"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"pii": "maybe"}, "pii='maybe' is not a policy"),
        ({"fusion": "max"}, "fusion='max' is unknown"),
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
        ({"context_diversity": 1.5}, "context_diversity=1.5 must be in"),
        ({"context_snippet_tokens": 5}, "context_snippet_tokens=5 is too small"),
        ({"archive_importance": 1.0}, "archive_importance=1.0 must be in"),
        ({"archive_after_days": -1.0}, "archive_after_days=-1.0 at least 0"),
        ({"recency_halflife_days": 0.0}, "recency_halflife_days=0.0 must be positive"),
        ({"candidates": 0}, "candidates and rrf_k must be positive"),
        ({"rrf_k": 0}, "candidates and rrf_k must be positive"),
        ({"session_turns_share": 0.93}, r"session shares sum to 1\.33"),
        ({"session_memory_share": -0.1}, r"session_memory_share=-0\.1"),
        ({"session_idle_minutes": 0}, "session_idle_minutes=0 must be positive"),
    ],
)
def test_bad_values_are_config_errors(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        MemoryConfig(**changes)  # type: ignore[arg-type]
    name = next(iter(changes))
    if name in MemoryConfig.setting_names()[4:]:  # a group's setting: the group checks it
        owners = [c for c in GROUPS.values() if name in {f.name for f in dataclasses.fields(c)}]
        cls = owners[0]
        with pytest.raises(ConfigError, match=message):
            cls(**changes)


def test_env_overrides_defaults_with_strict_casts() -> None:
    env = {
        "DUALTRACE_PII": "keep",
        "DUALTRACE_EXTRACT": "off",
        "DUALTRACE_CONTEXT_USER_MESSAGES": "False",
        "DUALTRACE_CONTEXT_RELATIVE_DATES": " yes ",
        "DUALTRACE_RRF_K": "12",
        "DUALTRACE_DENSE_WEIGHT": "0.25",
        "DUALTRACE_SEARCH_TRACES": "episode, fact,",
        "DUALTRACE_EMBED_CACHE_PATH": "/tmp/e.db",
        "DUALTRACE_FUSION": "rrf",
        "DUALTRACE_SESSION_IDLE_MINUTES": "5",
        "OTHER": "ignored",
    }
    config = MemoryConfig.from_env(env)
    assert config.pii == "keep" and config.extract is False
    assert config.context_user_messages is False and config.context_relative_dates is True
    assert config.rrf_k == 12 and config.dense_weight == 0.25 and config.fusion == "rrf"
    assert config.search_traces == ("episode", "fact")
    assert config.embed_cache_path == "/tmp/e.db" and config.session_idle_minutes == 5.0
    assert MemoryConfig.from_env({}) == MemoryConfig()


def test_every_setting_can_come_from_the_env() -> None:
    custom = MemoryConfig(
        pii="keep", max_message_chars=99, actor="cli", extract=False, dense_weight=0.3,
        fusion="rrf", rrf_k=7, dense_min_spread=0.1, lexical_min_spread=0.2, candidates=9,
        entity_weight=0.4, entity_max_share=0.3, temporal_weight=0.1, search_traces=("fact",),
        crosslingual_weight=0.9, crosslingual_dense=True, crosslingual_glosses=False,
        dense_language_balance=0.5,
        recency_weight=0.1, recency_halflife_days=10.0, importance_weight=0.2,
        speaker_weight=0.3, answer_weight=0.2, owner_weight=0.1, slot_weight=2.0,
        context_diversity=0.5,
        context_snippet_tokens=40,
        context_relative_dates=True, context_user_messages=False, context_header=False,
        session_memory_share=0.2,
        session_turns_share=0.3, session_summary_share=0.1, session_reserve_share=0.2,
        session_idle_minutes=12.5, reinforce_step=0.1, archive_importance=0.2,
        archive_after_days=30.0, embed_max_chars=500, assistant_embed_chars=0,
        lexical_context_turns=0, dense_context_turns=0, chunk_chars=900, embed_chunks=False,
        embed_cache_path="/tmp/c.db",
    )  # fmt: skip
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
        ("RRF_K", "1.5", "DUALTRACE_RRF_K='1.5' is not a valid int"),
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
    with pytest.raises(ConfigError, match="fusion='max' is unknown"):
        MemoryConfig.from_env({"DUALTRACE_FUSION": "max"})


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
