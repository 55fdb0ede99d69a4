"""Commands that write a file refuse the store's own files; --db refuses another program's
SQLite file before changing it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dualtrace import Memory
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import SchemaError, ValidationError


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUALTRACE_HOME", str(tmp_path / "home"))


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args])


def _store_with_turns(tmp_path: Path) -> Path:
    db = tmp_path / "memory.db"
    for user in ("alice", "bob"):
        result = run(db, "add", f"{user} likes dark blue cars", "--user", user)
        assert result.exit_code == 0, result.output
    return db


def _users_episodes(db: Path) -> dict[str, int]:
    """Episodes per user, read with plain sqlite3 (the file must still be a good store)."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = conn.execute("SELECT user_id, count(*) FROM episodes GROUP BY user_id")
        return dict(rows.fetchall())
    finally:
        conn.close()


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_export_onto_the_store_or_its_sibling_is_refused_and_loses_nothing(
    tmp_path: Path, suffix: str
) -> None:
    db = _store_with_turns(tmp_path)
    before = _users_episodes(db)
    target = tmp_path / "sub" / ".." / f"memory.db{suffix}"  # not spelled like --db
    (tmp_path / "sub").mkdir()
    result = run(db, "export", "--user", "alice", "-o", str(target))
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert str(target) in result.output and "Choose another path" in result.output
    assert _users_episodes(db) == before == {"alice": 1, "bob": 1}


def test_export_through_a_link_to_the_store_is_refused(tmp_path: Path) -> None:
    db = _store_with_turns(tmp_path)
    link = tmp_path / "dump.jsonl"
    link.symlink_to(db)
    result = run(db, "export", "--user", "alice", "-o", str(link))
    assert result.exit_code == 2, result.output
    assert "store's own file" in result.output
    assert _users_episodes(db) == {"alice": 1, "bob": 1}


def test_export_to_another_file_still_works(tmp_path: Path) -> None:
    db = _store_with_turns(tmp_path)
    result = run(db, "export", "--user", "alice", "-o", str(tmp_path / "alice.jsonl"))
    assert result.exit_code == 0, result.output
    assert "alice likes dark blue cars" in (tmp_path / "alice.jsonl").read_text()


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
def test_backup_onto_a_sibling_of_the_store_is_refused(tmp_path: Path, suffix: str) -> None:
    db = tmp_path / "memory.db"
    with Memory(db, embedder=FakeEmbedder()) as mem:
        mem.add("I moved to Shanghai", user_id="alice", extract=False)
        with pytest.raises(ValidationError, match=f"store's SQLite {suffix} file") as caught:
            mem.backup(tmp_path / f"memory.db{suffix}", overwrite=True)
        assert "nothing was written" in str(caught.value)
    assert _users_episodes(db)["alice"] == 1


def test_cli_backup_onto_the_wal_file_fails_and_keeps_it(tmp_path: Path) -> None:
    db = _store_with_turns(tmp_path)
    result = run(db, "backup", str(tmp_path / "memory.db-wal"), "--force")
    assert result.exit_code == 2, result.output
    assert "-wal" in result.output
    assert _users_episodes(db) == {"alice": 1, "bob": 1}


def _foreign_db(tmp_path: Path) -> Path:
    path = tmp_path / "app.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.execute("INSERT INTO invoices (total) VALUES (12.5)")
    conn.commit()
    conn.close()
    return path


def _schema_and_journal(path: Path) -> tuple[list[tuple[str, str]], str]:
    conn = sqlite3.connect(path)
    try:
        schema = conn.execute("SELECT type, name FROM sqlite_master ORDER BY name").fetchall()
        return schema, conn.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        conn.close()


def test_library_refuses_another_programs_sqlite_file_and_changes_nothing(
    tmp_path: Path,
) -> None:
    path = _foreign_db(tmp_path)
    before = _schema_and_journal(path)
    with pytest.raises(SchemaError) as caught:
        Memory(path, embedder=FakeEmbedder())
    message = str(caught.value)
    assert str(path) in message and "invoices" in message
    assert "new file or at a dualtrace store" in message
    assert _schema_and_journal(path) == before == ([("table", "invoices")], "delete")
    assert not (tmp_path / "app.sqlite-wal").exists()


def test_cli_refuses_another_programs_sqlite_file_and_changes_nothing(tmp_path: Path) -> None:
    path = _foreign_db(tmp_path)
    before = _schema_and_journal(path)
    result = run(path, "add", "hello", "--user", "alice")
    assert result.exit_code == 1, result.output
    assert str(path) in result.output and "another program's database" in result.output
    assert _schema_and_journal(path) == before


def test_an_empty_file_and_a_new_path_still_become_stores(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    for path in (empty, tmp_path / "new.db"):
        with Memory(path, embedder=FakeEmbedder()) as mem:
            mem.add("I moved to Shanghai", user_id="alice", extract=False)
        with Memory(path, embedder=FakeEmbedder()) as mem:  # reopened: ours now
            assert len(mem.get_all(user_id="alice", kinds=["episode"])) == 1
        assert _schema_and_journal(path)[1] == "wal"
