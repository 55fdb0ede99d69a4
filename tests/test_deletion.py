"""Real deletion: rows, vectors, full-text entries and the text itself leave the files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder

SECRET = "Zorblaxian quartermaster Vexmundo"


def _file_bytes(db_path: Path) -> bytes:
    data = b""
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(db_path) + suffix)
        if p.exists():
            data += p.read_bytes()
    return data


def _fill(mem: Memory) -> None:
    for i in range(40):
        mem.add(
            [
                {
                    "id": f"x{i}",
                    "content": f"{SECRET} number {i} keeps the 秘密钥匙 in locker {i}.",
                },
                {"id": f"y{i}", "role": "assistant", "content": f"Noted, locker {i}."},
            ],
            user_id="victim",
            session_id=f"s{i % 3}",
        )
    mem.add("Bystander keeps nothing private, just a plain note.", user_id="bystander")


def test_delete_all_leaves_no_row_and_no_text(db_path: Path) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        _fill(mem)
    assert b"Vexmundo" in _file_bytes(db_path)  # the check below can see text when it is there
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        counts = mem.delete_all(user_id="victim")
        assert counts["episodes"] == 80 and counts["search_keys"] == 80
        remaining = mem.store.count_records("victim")  # type: ignore[attr-defined]
        assert {t: n for t, n in remaining.items() if t != "audit_log" and n} == {}
        audit = mem.store.audit_entries("victim")  # type: ignore[attr-defined]
        assert audit[-1]["action"] == "forget_user"
        assert SECRET not in str(audit) and "秘密" not in str(audit)
        assert mem.search("Zorblaxian quartermaster", user_id="victim") == []
        assert [i.kind for i in mem.get_all(user_id="bystander")] == ["fact", "episode"]
    raw = _file_bytes(db_path)
    for needle in ("Zorblaxian", "zorblaxian", "Vexmundo", "vexmundo", "秘密钥匙", "秘密"):
        assert needle.encode() not in raw, needle
    assert b"Bystander keeps nothing private" in raw


def test_delete_one_record_scrubs_its_text(db_path: Path) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        keep = mem.add("Ordinary remark about the weather.", user_id="u").episodes[0]
        gone = mem.add(f"{SECRET} said the vault code.", user_id="u").episodes[0]
    assert b"Vexmundo" in _file_bytes(db_path)
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        mem.delete(gone, user_id="u")
        assert [i.id for i in mem.get_all(user_id="u", kinds=["episode"])] == [keep]
        assert all(
            i.sources[0].episode_id == keep for i in mem.get_all(user_id="u")
        )  # the memory derived from the deleted turn went with it
        assert mem.search("Vexmundo vault", user_id="u", kinds=["episode"])[0].id == keep
    raw = _file_bytes(db_path)
    assert b"Vexmundo" not in raw and b"vexmundo" not in raw


def test_deleted_turn_leaves_no_trace_in_the_next_turn(db_path: Path) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        first, second = mem.add(
            [f"The {SECRET} hint is in the drawer.", "I moved to Berlin last spring."],
            user_id="u",
            session_id="s",
        ).episodes
        assert any(h.id == second for h in mem.search("Vexmundo", user_id="u"))
        mem.delete(first, user_id="u")
        assert mem.search("Vexmundo quartermaster", user_id="u", kinds=["episode"])[0].id == second
        assert all("Vexmundo" not in (i.scene or "") for i in mem.get_all(user_id="u"))
        assert {h.scores.get("lexical", 0.0) for h in mem.search("Vexmundo", user_id="u")} == {0.0}
    raw = _file_bytes(db_path)
    assert b"Vexmundo" not in raw and b"vexmundo" not in raw


def test_a_merged_memory_is_rebuilt_from_its_surviving_turn(db_path: Path) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        first = mem.add("I care about fuel economy mrg4qz8.", user_id="u", session_id="s")
        mem.add("The weather is nice today.", user_id="u", session_id="s")
        merged = mem.add("I care about boot space.", user_id="u", session_id="s")
        assert [e[1] for e in merged.events] == ["MERGE"]
        mem.delete(first.episodes[0], user_id="u")
        texts = [i.text for i in mem.get_all(user_id="u", include_invalid=True)]
        assert "The user cares about boot space." in texts
        assert not any("mrg4qz8" in t for t in texts)
        assert mem.search("mrg4qz8 fuel economy", user_id="u", kinds=["fact"]) == [] or all(
            "mrg4qz8" not in h.text for h in mem.search("mrg4qz8", user_id="u")
        )
        for item in mem.get_all(user_id="u", include_invalid=True):
            assert "mrg4qz8" not in repr(mem.history(item.id, user_id="u"))
    assert b"mrg4qz8" not in _file_bytes(db_path)


def test_deleting_a_turn_reopens_the_value_it_superseded(db_path: Path) -> None:
    with Memory(db_path, embedder=FakeEmbedder()) as mem:
        mem.add("I live in Paris.", user_id="u", session_id="s")
        moved = mem.add("I moved to Lyon qx7 last week.", user_id="u", session_id="s")
        assert "SUPERSEDE" in [e[1] for e in moved.events]
        mem.delete(moved.episodes[0], user_id="u")
        texts = [i.text for i in mem.get_all(user_id="u", kinds=["fact"])]
        assert any("Paris" in t for t in texts), texts  # valid again
        for item in mem.get_all(user_id="u", include_invalid=True):
            assert "Lyon" not in repr(mem.history(item.id, user_id="u"))
    assert b"qx7" not in _file_bytes(db_path)


def test_forgetting_a_user_leaves_no_id_in_the_audit_log_and_no_cached_vector(
    tmp_path: Path,
) -> None:
    from dualtrace.config import MemoryConfig

    db_path, cache = tmp_path / "m.db", tmp_path / "cache.db"
    config = MemoryConfig(embed_cache_path=str(cache))
    with Memory(db_path, embedder=FakeEmbedder(), config=config) as mem:
        mem.add(f"{SECRET} keeps the spare key.", user_id="victim@example.com")
        kept = mem.add("Nothing to hide here.", user_id="other").episodes[0]
        gone = mem.add("Delete me, zorp.", user_id="other").episodes[0]
        store = mem.store
        forgotten = store.deletion_hashes("victim@example.com", None)
        forgotten += store.deletion_hashes("other", gone)
        still = [h for h in store.deletion_hashes("other", kept) if h not in forgotten]
        mem.delete(gone, user_id="other")
        mem.delete_all(user_id="victim@example.com")
        audit = store.audit_entries("victim@example.com")
        assert audit[-1]["action"] == "forget_user"
        assert mem.get(kept, user_id="other").text == "Nothing to hide here."
    raw = _file_bytes(db_path)
    assert b"victim@example.com" not in raw and b"victim" not in raw
    cached = sqlite3.connect(cache)
    keys = {k.rsplit("|", 1)[1] for (k,) in cached.execute("SELECT key FROM embeddings")}
    cached.close()
    assert forgotten and still and set(still) <= keys
    assert not keys & set(forgotten)
