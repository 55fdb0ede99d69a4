"""The PostgreSQL store's schema, read from the catalog: ready for Citus, isolated by
row-level security; and what the store refuses when it is opened.

Citus distributes a table by one column and can enforce a primary, unique or foreign key
only if it includes that column, and run a statement on one shard only if it is confined
to one value of it. So every table but the listed reference tables must carry `user_id`,
and every key must include it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pg_server
import psycopg
import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ConfigError, SchemaError, StoreError
from dualtrace.store.postgres.migrations import (
    LATEST,
    MIGRATIONS,
    REFERENCE_TABLES,
    USER_TABLES,
    migrate,
)
from dualtrace.store.postgres.store import PostgresStore

pytestmark = pytest.mark.postgres
T0 = datetime(2024, 5, 1, tzinfo=UTC)


@pytest.fixture
def catalog(postgres_url: str) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    """A superuser's connection to a database holding the store's schema."""
    PostgresStore(postgres_url).close()
    with psycopg.connect(pg_server.TestServer.as_superuser(postgres_url)) as conn:
        yield conn


def _tables(conn: psycopg.Connection[tuple[object, ...]]) -> set[str]:
    rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
    return {str(r[0]) for r in rows}


Conn = psycopg.Connection[tuple[object, ...]]


def _keys(conn: Conn, table: str) -> list[tuple[str, str, list[str], list[str]]]:
    """(constraint name, type p/u/f, its columns, the referenced columns) of a table, and its
    unique indexes as type 'u'."""
    rows = conn.execute(
        "SELECT c.conname, c.contype, "
        "ARRAY(SELECT a.attname FROM unnest(c.conkey) k JOIN pg_attribute a "
        "      ON a.attrelid = c.conrelid AND a.attnum = k), "
        "ARRAY(SELECT a.attname FROM unnest(c.confkey) k JOIN pg_attribute a "
        "      ON a.attrelid = c.confrelid AND a.attnum = k) "
        "FROM pg_constraint c WHERE c.conrelid = %s::regclass AND c.contype IN ('p', 'u', 'f')",
        (table,),
    ).fetchall()
    found = [(str(r[0]), str(r[1]), list(r[2]), list(r[3])) for r in rows]
    indexes = conn.execute(
        "SELECT i.indexrelid::regclass::text, ARRAY(SELECT a.attname FROM unnest(i.indkey) k "
        "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k) FROM pg_index i "
        "WHERE i.indrelid = %s::regclass AND i.indisunique",
        (table,),
    ).fetchall()
    return found + [(str(r[0]), "u", list(r[1]), []) for r in indexes]


def test_every_table_is_per_user_or_a_listed_reference_table(
    catalog: psycopg.Connection[tuple[object, ...]],
) -> None:
    tables = _tables(catalog)
    assert tables == set(USER_TABLES) | set(REFERENCE_TABLES)
    for table in USER_TABLES:
        column = catalog.execute(
            "SELECT is_nullable FROM information_schema.columns WHERE table_schema = 'public' "
            "AND table_name = %s AND column_name = 'user_id'",
            (table,),
        ).fetchone()
        assert column == ("NO",), f"{table} must carry a NOT NULL user_id"


def test_every_key_of_a_per_user_table_includes_user_id(
    catalog: psycopg.Connection[tuple[object, ...]],
) -> None:
    for table in USER_TABLES:
        keys = _keys(catalog, table)
        assert any(kind == "p" for _, kind, _, _ in keys), f"{table} has no primary key"
        for name, kind, columns, referenced in keys:
            assert "user_id" in columns, f"{table}.{name} ({kind}) lacks user_id: {columns}"
            if kind == "f":  # the same user on both sides: co-located shards
                assert columns[0] == "user_id" and referenced[0] == "user_id", (table, name)


def test_reference_tables_have_no_foreign_keys(
    catalog: psycopg.Connection[tuple[object, ...]],
) -> None:
    for table in REFERENCE_TABLES:
        assert [k for k in _keys(catalog, table) if k[1] == "f"] == [], table


def test_row_level_security_is_on_and_forced_for_every_per_user_table(
    catalog: psycopg.Connection[tuple[object, ...]],
) -> None:
    rows = catalog.execute(
        "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace "
        "AND relkind = 'r' AND relrowsecurity AND relforcerowsecurity"
    ).fetchall()
    assert set(USER_TABLES) | {"api_keys"} <= {str(r[0]) for r in rows}


def test_a_statement_that_forgot_its_user_filter_sees_nothing(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    try:
        store.bind_embedder("test", 4)
        store.touch_session("alice", "s1", T0)
        for user, expected in (("bob", 0), ("alice", 1)):
            with store._tx(user) as cur:  # a query without `WHERE user_id = ...`
                assert cur.execute("SELECT count(*) FROM sessions").fetchone()[0] == expected
                assert cur.execute("SELECT count(*) FROM audit_log").fetchone()[0] == 0
        # as the store's role outside any user's transaction: no user's rows, and no writes
        with psycopg.connect(postgres_url) as conn:
            assert conn.execute("SELECT count(*) FROM sessions").fetchone() == (0,)
            assert conn.execute("SELECT count(*) FROM api_keys").fetchone() == (0,)
            assert conn.execute("SELECT count(*) FROM store_meta").fetchone() != (0,)  # global
            conn.execute("SELECT set_config('dualtrace.user_id', 'bob', false)")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(
                    "INSERT INTO sessions (user_id, session_id, started_at, last_active_at) "
                    "VALUES ('alice', 's2', now(), now())"
                )
    finally:
        store.close()


def test_every_per_user_table_hides_other_users_rows_from_an_unfiltered_statement(
    postgres_url: str,
) -> None:
    with Memory(url=postgres_url, embedder=FakeEmbedder()) as mem:
        mem.add(
            [{"role": "user", "content": "I moved to Lyon in May and my sister Ana visited"}],
            user_id="alice",
            session_id="s1",
        )
        store = mem.store
        assert isinstance(store, PostgresStore)
        seen: dict[str, dict[str, int]] = {}
        for user in ("alice", "bob"):
            with store._tx(user) as cur:
                seen[user] = {
                    t: int(cur.execute(f"SELECT count(*) FROM {t}".encode()).fetchone()[0])
                    for t in USER_TABLES
                }
    assert {t for t, n in seen["alice"].items() if n} >= {"episodes", "memories", "search_keys"}
    assert seen["bob"] == dict.fromkeys(USER_TABLES, 0)


def test_a_superuser_is_refused_with_the_fix(postgres_url: str) -> None:
    with pytest.raises(ConfigError, match="superuser or has BYPASSRLS"):
        PostgresStore(pg_server.TestServer.as_superuser(postgres_url))


def test_a_database_that_cannot_be_reached_is_a_clear_store_error(postgres_url: str) -> None:
    wrong = postgres_url.replace("/t_", "/missing_t_")
    with pytest.raises(StoreError, match=r"cannot reach PostgreSQL at .*missing_t_.*check that"):
        PostgresStore(wrong)
    with pytest.raises(StoreError, match="check that the server is running") as raised:
        PostgresStore("postgresql://nobody:s3cret@127.0.0.1:1/db?connect_timeout=2")
    assert "s3cret" not in str(raised.value) and "nobody:***@" in str(raised.value)


def test_a_new_database_is_migrated_once_and_an_unknown_migration_is_refused() -> None:
    url = pg_server.server().bare_database()
    PostgresStore(url).close()  # applies every migration
    PostgresStore(url).close()  # and then none
    with psycopg.connect(url, autocommit=True) as conn:
        applied = conn.execute("SELECT name FROM schema_migrations ORDER BY 1").fetchall()
        assert applied == [(name,) for name, _ in MIGRATIONS] and applied[-1] == (LATEST,)
        assert migrate(conn) == []
        conn.execute("INSERT INTO schema_migrations VALUES ('9999_from_the_future', now())")
    with pytest.raises(SchemaError, match=r"9999_from_the_future.*upgrade dualtrace"):
        PostgresStore(url)


def test_a_vacuum_the_role_may_not_run_is_an_error_not_a_silent_skip(postgres_url: str) -> None:
    superuser = pg_server.TestServer.as_superuser(postgres_url)
    with psycopg.connect(superuser, autocommit=True) as su:
        su.execute("DROP ROLE IF EXISTS dt_grantee")
        su.execute("CREATE ROLE dt_grantee LOGIN")
        su.execute("GRANT CREATE, USAGE ON SCHEMA public TO dt_grantee")
        su.execute(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO dt_grantee"
        )
    url = postgres_url.replace("://dualtrace_test@", "://dt_grantee@")
    store = PostgresStore(url)  # not the tables' owner: it may write, not VACUUM
    try:
        store.touch_session("alice", "s1", T0)
        with pytest.raises(StoreError, match="VACUUM after a deletion was refused"):
            store.delete_user("alice", "test")
        assert store.count_records("alice")["sessions"] == 0  # the deletion itself committed
        with pytest.raises(StoreError, match="refused"):
            store.finish_deletions()  # still owed, and said so again
    finally:
        store.close()
        with psycopg.connect(superuser, autocommit=True) as su:
            su.execute("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM dt_grantee")
            su.execute("REVOKE ALL ON SCHEMA public FROM dt_grantee")


def test_a_malformed_url_is_a_config_error_naming_the_form(postgres_url: str) -> None:
    with pytest.raises(ConfigError, match=r"not a PostgreSQL URL .*postgresql://user:password@"):
        PostgresStore("postgresql://app:pw@db.internal:5432/memory?no_such_option=1")
    with_options = postgres_url + "&options=-c%20statement_timeout%3D60000"
    store = PostgresStore(with_options)  # the URL's own options are kept beside the store's
    try:
        with store._tx("u") as cur:
            assert cur.execute("SHOW statement_timeout").fetchone()[0] == "1min"
            assert cur.execute("SHOW TimeZone").fetchone()[0] == "UTC"
    finally:
        store.close()
