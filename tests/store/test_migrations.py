"""Forward-only named migrations: blank database, previous version, unknown and failing ones."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dualtrace import Memory, MigrationError, SchemaError
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.sqlite import migrations
from dualtrace.store.sqlite.store import SQLiteStore


def _applied(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY rowid")]


def test_blank_database_gets_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "blank.db"
    SQLiteStore(path).close()
    assert _applied(path) == [name for name, _ in migrations.MIGRATIONS]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    SQLiteStore(path).close()  # reopening applies nothing twice
    assert _applied(path) == [name for name, _ in migrations.MIGRATIONS]


def test_database_from_previous_migration_is_upgraded_with_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    first = migrations.MIGRATIONS[0][0]
    migrations.migrate(conn, upto=first)
    conn.execute(
        "INSERT INTO episodes (id, user_id, session_id, seq, role, speaker, text, occurred_at, "
        "recorded_at, content_hash) VALUES ('ep_old', 'u', 's', 0, 'user', 'Ann', 'kept turn', "
        "'2026-01-01T00:00:00.000000+00:00', '2026-01-01T00:00:00.000000+00:00', 'h')"
    )
    conn.close()
    assert _applied(path) == [first]
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert mem.get("ep_old", user_id="u").text == "kept turn"
        mem.add("new turn after upgrade", user_id="u")
        assert mem.search("upgrade", user_id="u")[0].text == "new turn after upgrade"
    assert _applied(path) == [name for name, _ in migrations.MIGRATIONS]


def test_unknown_migration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    SQLiteStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES ('9999_from_the_future', 'x')")
    with pytest.raises(SchemaError, match="9999_from_the_future"):
        SQLiteStore(path)


def test_failing_migration_leaves_database_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "fail.db"
    SQLiteStore(path).close()
    broken = ("9000_broken", "CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table")
    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, broken])
    with pytest.raises(MigrationError, match="9000_broken"):
        SQLiteStore(path)
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "half_done" not in tables
    assert "9000_broken" not in _applied(path)


def test_term_counts_of_an_older_store_are_filled_as_writes_fill_them(tmp_path: Path) -> None:
    path = tmp_path / "terms.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        mem.add("My sister Anna runs a café in Porto; she's running two now.", user_id="u")
        mem.add("我周末去北京看朋友。", user_id="v")
    query = "SELECT user_id, tbl, term, key_id, freq FROM fts_terms ORDER BY 1, 2, 3, 4"
    with sqlite3.connect(path) as conn:
        written = conn.execute(query).fetchall()
        assert {row[0] for row in written} == {"u", "v"}
        conn.execute("DROP TABLE fts_terms")  # the store as 0012 left it
        conn.execute("DELETE FROM schema_migrations WHERE name = '0013_fts_terms'")
    SQLiteStore(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute(query).fetchall() == written
