"""SQLite keeps vectors as float16 (half the bytes); a store written before reads its float32
vectors as they are, beside new float16 ones; a vector float16 cannot hold stays float32."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.base import SearchScope
from dualtrace.store.sqlite.codec import blob, unblob


def test_new_vectors_are_float16_and_old_float32_ones_still_search(tmp_path: Path) -> None:
    db, embedder = tmp_path / "m.db", FakeEmbedder()
    config = MemoryConfig(extract=False)
    with Memory(db, embedder=embedder, config=config) as mem:
        mem.add(["apples in the orchard", "pears on the tree"], user_id="u")
    with sqlite3.connect(db) as conn:  # one key as a store before float16 wrote it
        rows = conn.execute("SELECT id, dim, length(vector) FROM search_keys").fetchall()
        assert rows and all(length == 2 * dim for _, dim, length in rows)
        old_id = rows[0][0]
        half = conn.execute("SELECT vector FROM search_keys WHERE id = ?", (old_id,)).fetchone()
        as32 = np.frombuffer(half[0], dtype=np.float16).astype(np.float32).tobytes()
        conn.execute("UPDATE search_keys SET vector = ? WHERE id = ?", (as32, old_id))
    with Memory(db, embedder=embedder, config=config) as mem:
        mem.add("plums in the basket", user_id="u")  # a float16 row beside the float32 one
        query = embedder.embed_queries(["apples in the orchard"])[0]
        found = mem.store.search_dense("u", query, 5, SearchScope())
        texts = {h.id: h.text for h in mem.search("apples", user_id="u", limit=5)}
    assert len(found) == 3 and texts[found[0].record_id] == "apples in the orchard"


def test_a_vector_out_of_float16_range_is_kept_float32() -> None:
    small = np.array([0.6, -0.8, 0.0], dtype=np.float32)
    huge = np.array([1e6, -3.5, 0.25], dtype=np.float32)
    assert len(blob(small)) == 6 and np.allclose(unblob(blob(small), 3), small, atol=1e-3)
    assert len(blob(huge)) == 12 and np.array_equal(unblob(blob(huge), 3), huge)
