"""A store remembers its embedder; opening it with another one is a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import EmbedderMismatchError, Memory
from dualtrace.embed.fake import FakeEmbedder


def test_other_embedder_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder=FakeEmbedder(dimensions=64)) as mem:
        mem.add("hello", user_id="u")
    with pytest.raises(EmbedderMismatchError, match=r"'fake:fake' \(64 dims\).*'fake:other'"):
        Memory(path, embedder=FakeEmbedder(dimensions=64, name="other"))
    with pytest.raises(EmbedderMismatchError, match="32 dims"):
        Memory(path, embedder=FakeEmbedder(dimensions=32))
    with Memory(path, embedder=FakeEmbedder(dimensions=64)) as mem:
        assert mem.get_all(user_id="u")[0].text == "hello"


def test_vectors_record_their_embedder(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder=FakeEmbedder(dimensions=48)) as mem:
        mem.add("hello", user_id="u")
        rows = mem.store._read("SELECT embedder_id, dim FROM search_keys")  # type: ignore[attr-defined]
    assert [tuple(r) for r in rows] == [("fake:fake", 48)]
