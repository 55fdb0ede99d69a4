"""A long turn (a pasted document) is stored whole and indexed in chunks: each part is found
on its own, deletion removes every chunk, and stores from before chunks are upgraded."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.sqlite import migrations
from dualtrace.store.sqlite.search import scope_token
from dualtrace.text.sentences import split_chunks

_WORDS = (
    "report quarterly revenue margin analysis region product team customer market growth "
    "forecast supply chain logistics inventory vendor contract pricing strategy review"
).split()


def _document(rng: random.Random, chars: int) -> str:
    sentences = []
    while sum(len(s) + 1 for s in sentences) < chars:
        words = rng.choices(_WORDS, k=rng.randint(8, 16))
        sentences.append(" ".join(words).capitalize() + ".")
    return " ".join(sentences)


def _pasted(needle: str, *, at: int, chars: int = 60_000) -> str:
    body = _document(random.Random(7), chars)
    cut = body.index(". ", at) + 2
    return f"{body[:cut]}{needle} {body[cut:]}"


@given(st.text(min_size=0, max_size=3000), st.integers(min_value=1, max_value=700))
def test_chunks_join_to_the_text_and_keep_their_size(text: str, size: int) -> None:
    chunks = split_chunks(text, size)
    assert "".join(chunks) == text
    assert all(len(c) <= size for c in chunks)
    assert all(chunks[:-1])  # no empty chunk but possibly the last of an empty text


def _store_with_long_turn(path: Path, chunk_chars: int) -> tuple[Memory, str, str]:
    """A 60k-character pasted turn with one personal sentence deep inside, among short turns
    that share its words and long turns that do not."""
    text = _pasted("My locker combination at the climbing gym is 4471.", at=45_000)
    # the lexical channel alone: the fake embedder's vectors carry no meaning
    config = MemoryConfig(chunk_chars=chunk_chars, dense_weight=0.0)
    mem = Memory(path, embedder=FakeEmbedder(), config=config)
    [eid] = mem.add(text, user_id="u", extract=False).episodes
    mem.add(
        [
            "The locker room at the pool was crowded again.",
            "What a strange combination of colours!",
            "I finally went to the climbing gym with Tom.",
        ],
        user_id="u",
        extract=False,
    )
    for i in range(20):
        mem.add(_document(random.Random(i), 3000), user_id="u", extract=False)
    return mem, eid, text


def test_a_sentence_deep_in_a_long_turn_is_found(tmp_path: Path) -> None:
    mem, eid, text = _store_with_long_turn(tmp_path / "m.db", 4000)
    with mem:
        hits = mem.search("locker combination at the gym", user_id="u", limit=3)
        assert eid in [h.id for h in hits]
        assert mem.get(eid, user_id="u").text == text  # stored whole
        context = mem.context("What is my locker combination?", user_id="u", max_tokens=300)
        assert "4471" in context.text
    with sqlite3.connect(tmp_path / "m.db") as conn:
        rows = conn.execute(
            "SELECT chunk, vector IS NOT NULL FROM search_keys WHERE record_id = ? ORDER BY chunk",
            (eid,),
        ).fetchall()
    assert [c for c, _ in rows] == list(range(len(split_chunks(text, 4000))))
    assert len(rows) >= 15
    assert all(v for _, v in rows)  # every chunk has a vector (embed_chunks, the default)


def test_without_chunks_the_long_turn_loses_to_short_ones(tmp_path: Path) -> None:
    """The control: one key for the whole turn, its BM25 diluted by its length."""
    mem, eid, _ = _store_with_long_turn(tmp_path / "m.db", 0)
    with mem:
        hits = mem.search("locker combination at the gym", user_id="u", limit=3)
        assert eid not in [h.id for h in hits]


def test_the_next_turn_quotes_only_the_end_of_a_long_turn(tmp_path: Path) -> None:
    mem, eid, _ = _store_with_long_turn(tmp_path / "m.db", 4000)
    with mem, sqlite3.connect(tmp_path / "m.db") as conn:
        (body,) = conn.execute(
            "SELECT f.body FROM fts f JOIN search_keys k ON k.id = f.rowid "
            "WHERE k.record_id != ? ORDER BY k.id LIMIT 1",
            (eid,),
        ).fetchone()
    assert body.startswith("[") and "locker room" in body
    assert 1000 < len(body) < 4000 + 100


def test_without_embed_chunks_only_the_opening_has_a_vector(tmp_path: Path) -> None:
    text = _pasted("Our wifi password is mapletree99.", at=9_000, chars=12_000)
    config = MemoryConfig(chunk_chars=3000, embed_chunks=False)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as mem:
        [eid] = mem.add(text, user_id="u", extract=False).episodes
    with sqlite3.connect(tmp_path / "m.db") as conn:
        vectors = [
            r[0]
            for r in conn.execute(
                "SELECT vector IS NOT NULL FROM search_keys WHERE record_id = ?", (eid,)
            )
        ]
    assert len(vectors) == len(split_chunks(text, 3000)) >= 4
    assert vectors == [1] + [0] * (len(vectors) - 1)


def test_deleting_a_chunked_turn_removes_every_chunk(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    text = _pasted("The alarm code zqx5519 opens the back door.", at=30_000, chars=40_000)
    with Memory(path, embedder=FakeEmbedder()) as mem:
        [eid] = mem.add(text, user_id="u").episodes
        mem.add("Another turn about the garden.", user_id="u")
        assert mem.search("zqx5519", user_id="u")[0].id == eid
        mem.delete(eid, user_id="u")
        hits = mem.search("zqx5519", user_id="u")
        assert eid not in [h.id for h in hits] and not any("zqx5519" in h.text for h in hits)
    with sqlite3.connect(path) as conn:
        assert conn.execute(
            "SELECT COUNT(*) FROM search_keys WHERE record_id = ?", (eid,)
        ).fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM fts WHERE fts MATCH 'zqx5519'").fetchone() == (0,)
    assert b"zqx5519" not in path.read_bytes()


def test_keys_from_before_chunks_keep_their_ids_and_are_found(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn, upto="0005_extraction_pending")
    conn.execute(
        "INSERT INTO episodes (id, user_id, session_id, seq, role, speaker, text, occurred_at, "
        "recorded_at, content_hash) VALUES ('ep_old', 'u', 's', 0, 'user', 'Ann', "
        "'The piano tuner comes every March.', '2026-01-01T00:00:00.000000+00:00', "
        "'2026-01-01T00:00:00.000000+00:00', 'h')"
    )
    conn.execute(
        "INSERT INTO search_keys (id, user_id, record_id, trace, kind, session_id, "
        "content_hash) VALUES (41, 'u', 'ep_old', 'episode', 'episode', 's', 'h')"
    )
    conn.execute(
        "INSERT INTO fts (rowid, scope, body, user_id) VALUES (41, ?, ?, 'u')",
        (scope_token("u"), "The piano tuner comes every March."),
    )
    conn.close()
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert [h.id for h in mem.search("piano tuner", user_id="u")] == ["ep_old"]
        mem.add("The violin teacher comes on Fridays.", user_id="u", extract=False)
        assert mem.search("violin teacher", user_id="u")[0].text.startswith("The violin")
    with sqlite3.connect(path) as conn:
        assert conn.execute(
            "SELECT id, chunk FROM search_keys WHERE record_id = 'ep_old'"
        ).fetchall() == [(41, 0)]
