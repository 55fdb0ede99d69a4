"""Shared fixtures: a Memory on a real SQLite file, with the deterministic fake embedder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def mem(db_path: Path) -> Iterator[Memory]:
    with Memory(db_path, embedder=FakeEmbedder()) as memory:
        yield memory


_CONVERSATION = [
    {
        "id": "a1",
        "role": "user",
        "name": "Alice",
        "content": "I live in Hangzhou near the West Lake.",
    },
    {"id": "a2", "role": "assistant", "content": "Hangzhou is lovely in spring."},
    {"id": "a3", "role": "user", "name": "Alice", "content": "My budget for the car is 300k yuan."},
    {"id": "a4", "role": "user", "name": "Alice", "content": "我不喜欢白色的车，喜欢深蓝色。"},
]


@pytest.fixture
def conversation() -> list[dict[str, str]]:
    """Four turns by Alice and the assistant, one in Chinese, with external ids a1–a4."""
    return [dict(m) for m in _CONVERSATION]
