"""A question for a family member's name is answered by the member said with that relation,
not by the user's own name nor by another member."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder

NOW = datetime(2026, 9, 1, 9, tzinfo=UTC)
SESSIONS = [
    ("2026-03-02T19:00:00+00:00", "hello, my name is Ines and I teach piano in Porto"),
    ("2026-04-11T19:00:00+00:00", "my son Rafael starts swimming lessons next week, he's thrilled"),
    ("2026-06-20T19:00:00+00:00", "my sister Joana is visiting in July, I need a guest bed"),
    ("2026-07-30T19:00:00+00:00", "我女儿朵朵今天第一次自己骑车"),
]


def _memory(path: Path) -> Memory:
    # lexical channels only: the fake embedder's scores would decide the order by chance
    mem = Memory(path, embedder=FakeEmbedder(), config=MemoryConfig(dense_weight=0.0))
    for n, (when, text) in enumerate(SESSIONS):
        mem.add(text, user_id="u", session_id=f"s{n}", timestamp=when)
    return mem


def test_the_member_of_the_asked_relation_answers(tmp_path: Path) -> None:
    with _memory(tmp_path / "m.db") as mem:
        for question, name in (
            ("What's my son's name?", "Rafael"),
            ("What is my sister called?", "Joana"),
            ("我女儿叫什么？", "朵朵"),
        ):
            hits = mem.search(question, user_id="u", limit=3, now=NOW, reinforce=False)
            assert name in hits[0].text, (question, [h.text for h in hits])
