"""A question that says a slot's words but asks something else does not put the slot's
values first: they lead only where the channels found them (`current.FOUND_SHARE`). The
swimming is in the pool only by the dense channel, here weighted 0: no channel found it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.recall import current
from dualtrace.text.slots import ask

NOW = datetime(2026, 9, 1, 9, tzinfo=UTC)
SESSIONS = [
    ("2026-03-02T19:00:00+00:00", "I swim thirty lengths at the lido every morning"),
    ("2026-04-11T19:00:00+00:00", "my passport expires in October next year, must renew it"),
    ("2026-05-20T19:00:00+00:00", "the boiler engineer is coming on Tuesday at nine"),
    ("2026-06-20T19:00:00+00:00", "booked a table for my mum's birthday at the Thai place"),
]
QUESTION = "When does my passport run out?"


def _first(path: Path) -> str:
    # lexical channels only: the fake embedder's scores would decide the order by chance
    config = MemoryConfig(dense_weight=0.0)
    with Memory(path, embedder=FakeEmbedder(), config=config) as mem:
        for n, (when, text) in enumerate(SESSIONS):
            mem.add(text, user_id="u", session_id=f"s{n}", timestamp=when)
        return mem.search(QUESTION, user_id="u", limit=3, now=NOW, reinforce=False)[0].text


def test_a_slot_the_channels_did_not_find_does_not_lead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "exercise" in {q.attribute for q in ask(QUESTION)}  # "run": the slot's word
    assert "passport" in _first(tmp_path / "a.db")
    monkeypatch.setattr(current, "FOUND_SHARE", -1.0)  # any value the pool holds leads
    assert "swim" in _first(tmp_path / "b.db")
