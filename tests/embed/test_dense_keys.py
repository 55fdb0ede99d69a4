"""Long texts: the dense vector is made from their opening, the full-text index has all."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ConfigError


class RecordingEmbedder(FakeEmbedder):
    """Remembers the length of every passage it embedded."""

    def __init__(self) -> None:
        super().__init__()
        self.lengths: list[int] = []

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.lengths += [len(t) for t in texts]
        return super().embed_passages(texts)


def test_long_turn_is_embedded_by_its_opening_and_indexed_whole(tmp_path: Path) -> None:
    embedder = RecordingEmbedder()
    config = MemoryConfig(embed_max_chars=300, extract=False)
    with Memory(tmp_path / "m.db", embedder=embedder, config=config) as mem:
        text = "Opening about gardening. " + "filler words here. " * 200 + "Zanzibarian ending."
        (eid,) = mem.add(text, user_id="u").episodes
        assert embedder.lengths == [300]
        hits = mem.search("Zanzibarian", user_id="u", explain=True)
        assert hits[0].id == eid and hits[0].scores["lexical"] == 1.0


def test_assistant_turns_get_a_shorter_dense_prefix(tmp_path: Path) -> None:
    embedder = RecordingEmbedder()
    config = MemoryConfig(embed_max_chars=300, assistant_embed_chars=60, extract=False)
    with Memory(tmp_path / "m.db", embedder=embedder, config=config) as mem:
        reply = "Here are tips for pruning roses. " + "More advice follows. " * 40
        mem.add(
            [
                {"role": "user", "content": "How do I prune roses? " * 30},
                {"role": "assistant", "content": reply},
            ],
            user_id="u",
        )
        assert embedder.lengths == [300, 60]


def test_assistant_turns_without_vectors_stay_findable_by_words(tmp_path: Path) -> None:
    embedder = RecordingEmbedder()
    config = MemoryConfig(assistant_embed_chars=0, extract=False)
    with Memory(tmp_path / "m.db", embedder=embedder, config=config) as mem:
        _, reply = mem.add(
            [
                {"role": "user", "content": "Which bulbs flower first?"},
                {"role": "assistant", "content": "Snowdrops flower first, then crocuses."},
            ],
            user_id="u",
        ).episodes
        assert len(embedder.lengths) == 1  # the user's turn only
        found = {h.id: h for h in mem.search("crocuses", user_id="u", explain=True)}
        assert found[reply].scores["lexical"] == 1.0 and not found[reply].scores.get("dense")


def test_assistant_prefix_above_the_dense_limit_is_refused() -> None:
    with pytest.raises(ConfigError, match="assistant_embed_chars=2000"):
        MemoryConfig(embed_max_chars=1000, assistant_embed_chars=2000)


class TextRecordingEmbedder(FakeEmbedder):
    """Remembers every passage it embedded."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.texts += texts
        return super().embed_passages(texts)


def test_a_memorys_fact_is_embedded_and_its_scene_takes_its_turns_vector(tmp_path: Path) -> None:
    embedder = TextRecordingEmbedder()
    with Memory(tmp_path / "m.db", embedder=embedder) as mem:
        mem.add(
            "I moved to Lisbon for my new job.",
            user_id="u",
            session_id="s",
            timestamp="2026-03-02T10:00:00Z",  # the date is in the turn's key, hence its vector
        )
        (item,) = [m for m in mem.get_all(user_id="u") if m.kind != "episode"]
        record = mem.store.get_memories("u", [item.id])[item.id]
        keys = {k.trace: k for k in mem.memory_keys("u", record)}
    assert record.scene and record.scene != record.text
    assert record.text in embedder.texts and record.scene not in embedder.texts
    (turn,) = [t for t in embedder.texts if "I moved to Lisbon" in t and t != record.text]
    assert keys["scene"].vector is not None
    # stored as float16: equal within its precision, and not the scene's own vector
    own, of_turn = embedder.embed_passages([record.scene, turn])
    assert np.allclose(keys["scene"].vector, of_turn, atol=1e-3)
    assert not np.allclose(keys["scene"].vector, own, atol=1e-3)
