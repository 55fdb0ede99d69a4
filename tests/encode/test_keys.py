"""What a one-message add embeds: a turn (with the last words of the turn before) and each
memory's fact; a memory's scene is found in meaning by its turn's vector, reused by hash,
and in the other language by its own words' cross-lingual vector; a vector the store holds
is never embedded again, by either embedder."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed import use as use_module
from dualtrace.embed.base import Matrix
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.encode.keys import DENSE_CONTEXT_CHARS, last_words

MAY_8 = "2023-05-08T13:56:00+00:00"
LONG_QUESTION = (
    "Aardvarks aside, I spent the whole weekend sorting out the garden shed, the bikes, the "
    "old paint tins and a box of letters from my grandmother that I had forgotten about. "
    "Anyway, enough about me: how did the interview at the bakery go?"
)
TALK = [
    {"id": "1", "name": "Priya", "content": LONG_QUESTION},
    {
        "id": "2",
        "name": "Tom",
        "content": "It went well. I start at the bakery on Monday. My sister Ana lives in Porto.",
    },
]


class Recording(FakeEmbedder):
    """A fake embedder that keeps every text it was asked to embed."""

    def __init__(self, name: str = "fake") -> None:
        super().__init__(name=name)
        self.texts: list[str] = []

    def embed_passages(self, texts: list[str]) -> Matrix:
        self.texts += texts
        return super().embed_passages(texts)


def _keys(path: Path) -> list[sqlite3.Row]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(
            "SELECT k.record_id, k.trace, k.content_hash, k.vector, k.xvector, "
            "(SELECT episode_id FROM memory_sources s WHERE s.memory_id = k.record_id "
            "ORDER BY episode_id LIMIT 1) AS turn FROM search_keys k"
        ).fetchall()
    finally:
        conn.close()


def test_a_scene_takes_its_turns_vector_and_is_not_embedded(tmp_path: Path) -> None:
    embedder = Recording()
    with Memory(tmp_path / "m.db", embedder=embedder) as mem:
        mem.add(TALK, user_id="u", session_id="s1", timestamp=MAY_8)
    keys = _keys(tmp_path / "m.db")
    episodes = {k["record_id"]: k for k in keys if k["trace"] == "episode"}
    scene_keys = [k for k in keys if k["trace"] == "scene"]
    assert len(scene_keys) >= 2  # the start and the sister, from Tom's turn
    for key in scene_keys:
        turn = episodes[key["turn"]]
        assert key["vector"] == turn["vector"]
        assert key["content_hash"] != turn["content_hash"]  # named by its own text
    # embedded: the two turns and the facts; no scene ("On Mon 8 May 2023, … said: …")
    assert not [t for t in embedder.texts if t.startswith("On Mon 8 May 2023")]
    facts = [k for k in keys if k["trace"] == "fact"]
    assert len(embedder.texts) == len(episodes) + len(facts)


def test_a_turns_dense_key_ends_with_the_last_words_of_the_turn_before(tmp_path: Path) -> None:
    embedder = Recording()
    with Memory(tmp_path / "m.db", embedder=embedder) as mem:
        mem.add(TALK, user_id="u", session_id="s1", timestamp=MAY_8)
        # the full-text key keeps the whole turn before: its first word finds Tom's turn
        hits = mem.search("aardvarks", user_id="u", limit=10)
    assert any("I start at the bakery" in h.text for h in hits)
    tom = next(t for t in embedder.texts if "I start at the bakery on Monday" in t)
    assert tom.endswith("how did the interview at the bakery go?")
    assert "Aardvarks" not in tom and "…" in tom


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("short enough", "short enough"),
        ("one two three four five six", "…four five six"),  # from a word's start
        ("昨天我们去了西湖然后吃了饭", "…然后吃了饭"),  # no spaces: from a character
    ],
)
def test_last_words(text: str, expected: str) -> None:
    size = 14 if " " in text else 5
    assert last_words(text, size) == expected


def test_last_words_stays_within_its_size() -> None:
    words = " ".join(f"word{i}" for i in range(200))
    assert len(last_words(words, DENSE_CONTEXT_CHARS)) <= DENSE_CONTEXT_CHARS + 1


def test_cross_lingual_vectors_are_reused_by_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = Recording(name="second")
    monkeypatch.setattr(use_module, "UseEmbedder", lambda: second)
    config = MemoryConfig(crosslingual_embedder="use")
    with Memory(tmp_path / "m.db", embedder=Recording(), config=config) as mem:
        mem.add(TALK, user_id="u", session_id="s1", timestamp=MAY_8)
        first = len(second.texts)
        assert first and len(set(second.texts)) == first  # each text once
    # reopened (no vectors cached in the process): the memories' keys rebuilt from the store
    with Memory(tmp_path / "m.db", embedder=Recording(), config=config) as mem:
        ids = [i.id for i in mem.get_all(user_id="u") if i.kind != "episode"]
        for memory in mem.store.get_memories("u", ids).values():
            assert mem.memory_keys("u", memory)
        assert len(second.texts) == first
    keys = _keys(tmp_path / "m.db")
    assert all(k["xvector"] is not None for k in keys if k["vector"] is not None)
    # a scene's cross-lingual vector is its own words' ("On Mon 8 May 2023, … said: …")
    assert [t for t in second.texts if t.startswith("On Mon 8 May 2023")]
    for key in (k for k in keys if k["trace"] == "scene"):
        turn = next(k for k in keys if k["record_id"] == key["turn"] and k["trace"] == "episode")
        assert key["vector"] == turn["vector"] and key["xvector"] != turn["xvector"]
