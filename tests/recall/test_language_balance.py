"""The dense channel adds an embedder's declared language gap back to the other language."""

from __future__ import annotations

from pathlib import Path

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder


class GappedEmbedder(FakeEmbedder):
    language_gap = 0.25


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
    with Memory(tmp_path / "gap.db", embedder=GappedEmbedder()) as gapped:
        _store(gapped)
        after = _dense(gapped, "How long is my parking space?")
        chinese = _dense(gapped, "我的车位有多长？")
    english, zh = "My parking space is 5.2 m long.", "我的车位有五米二长。"
    assert abs(after[zh] - (before[zh] + 0.25)) < 1e-5  # the Chinese key, asked in English
    assert abs(after[english] - before[english]) < 1e-5  # the question's own language: as is
    assert english in chinese and chinese[english] >= 0.25  # and the other way round


def test_balance_zero_turns_it_off(tmp_path: Path) -> None:
    config = MemoryConfig(dense_language_balance=0.0)
    with Memory(tmp_path / "off.db", embedder=GappedEmbedder(), config=config) as off:
        _store(off)
        scores = _dense(off, "How long is my parking space?")
    with Memory(tmp_path / "plain.db", embedder=FakeEmbedder()) as plain:
        _store(plain)
        assert _dense(plain, "How long is my parking space?") == scores
