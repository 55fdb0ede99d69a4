"""Real deletion: rows, vectors, full-text entries and the text itself leave the files."""

from __future__ import annotations

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
    mem.add("Bystander keeps nothing secret, just a plain note.", user_id="bystander")


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
    assert b"Bystander keeps nothing secret" in raw


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
            user_id="u", session_id="s",
        ).episodes  # fmt: skip
        assert any(h.id == second for h in mem.search("Vexmundo", user_id="u"))
        mem.delete(first, user_id="u")
        assert mem.search("Vexmundo quartermaster", user_id="u", kinds=["episode"])[0].id == second
        assert all("Vexmundo" not in (i.scene or "") for i in mem.get_all(user_id="u"))
        assert {h.scores.get("lexical", 0.0) for h in mem.search("Vexmundo", user_id="u")} == {0.0}
    raw = _file_bytes(db_path)
    assert b"Vexmundo" not in raw and b"vexmundo" not in raw
