"""Long texts: the dense vector is made from their opening, the full-text index has all."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder


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
