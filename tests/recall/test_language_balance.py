"""Without a cross-lingual embedder, the dense channel adds an embedder's declared language
gap back to the other language."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import ConfigError, Memory, MemoryConfig
from dualtrace.embed.base import Embedder, Matrix
from dualtrace.embed.fake import FakeEmbedder


class GappedEmbedder(FakeEmbedder):
    language_gap = 0.25


ONE_EMBEDDER = MemoryConfig(crosslingual_embedder="none")  # "auto" takes one for a gap


def _dense(mem: Memory, query: str) -> dict[str, float]:
    hits = mem.search(query, user_id="u", limit=5, kinds=["episode"], explain=True)
    return {h.text: h.scores.get("dense_raw", 0.0) for h in hits}


def _store(mem: Memory) -> None:
    mem.add("My parking space is 5.2 m long.", user_id="u", session_id="a", extract=False)
    mem.add("我的车位有五米二长。", user_id="u", session_id="b", extract=False)


def test_keys_in_the_other_language_get_the_gap_back(tmp_path: Path) -> None:
    with Memory(tmp_path / "plain.db", embedder=FakeEmbedder()) as plain:
        _store(plain)
        before = _dense(plain, "How long is my parking space?")
    with Memory(tmp_path / "gap.db", embedder=GappedEmbedder(), config=ONE_EMBEDDER) as gapped:
        _store(gapped)
        after = _dense(gapped, "How long is my parking space?")
        chinese = _dense(gapped, "我的车位有多长？")
    english, zh = "My parking space is 5.2 m long.", "我的车位有五米二长。"
    assert abs(after[zh] - (before[zh] + 0.25)) < 1e-5  # the Chinese key, asked in English
    assert abs(after[english] - before[english]) < 1e-5  # the question's own language: as is
    assert english in chinese and chinese[english] >= 0.25  # and the other way round


def test_balance_zero_turns_it_off(tmp_path: Path) -> None:
    config = MemoryConfig(dense_language_balance=0.0, crosslingual_embedder="none")
    with Memory(tmp_path / "off.db", embedder=GappedEmbedder(), config=config) as off:
        _store(off)
        scores = _dense(off, "How long is my parking space?")
    with Memory(tmp_path / "plain.db", embedder=FakeEmbedder()) as plain:
        _store(plain)
        assert _dense(plain, "How long is my parking space?") == scores


class _Words:
    """An embedder of the caller's own, by composition: the fake's vectors."""

    def __init__(self) -> None:
        self.fake = FakeEmbedder()

    id = property(lambda self: self.fake.id)
    dimensions = property(lambda self: self.fake.dimensions)
    max_batch = property(lambda self: self.fake.max_batch)

    def embed_passages(self, texts: list[str]) -> Matrix:
        return self.fake.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> Matrix:
        return self.fake.embed_queries(texts)


class _Declared(_Words, Embedder):
    """The same, subclassing the port: it inherits the port's language_gap of none."""


def test_the_gap_is_declared_on_the_port(tmp_path: Path) -> None:
    assert _Declared().language_gap == 0.0
    with Memory(tmp_path / "declared.db", embedder=_Declared()) as declared:
        _store(declared)
        scores = _dense(declared, "How long is my parking space?")
    with Memory(tmp_path / "plain.db", embedder=FakeEmbedder()) as plain:
        _store(plain)
        assert _dense(plain, "How long is my parking space?") == scores
    # one that does not declare it is refused at the edge, saying what it lacks
    with pytest.raises(ConfigError, match=r"lacks language_gap: see dualtrace\.embed\.base"):
        Memory(tmp_path / "bare.db", embedder=_Words())
