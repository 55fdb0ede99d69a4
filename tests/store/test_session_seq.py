"""Two writers adding to one session at once never share a turn number."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder


def test_a_stale_next_seq_is_corrected_inside_the_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = MemoryConfig(extract=False)
    with (
        Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as a,
        Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as b,
    ):
        a.add(["one", "two"], user_id="u", session_id="s")
        monkeypatch.setattr(b.store, "next_seq", lambda user_id, session_id: 0)  # read before
        b.add(["three", "four"], user_id="u", session_id="s")
        turns = a.store.recent_episodes("u", "s", 100, 100)
        assert [(t.seq, t.text) for t in turns] == [
            (0, "one"),
            (1, "two"),
            (2, "three"),
            (3, "four"),
        ]
