"""What only the PostgreSQL backend has to prove: a big user's search goes through an HNSW
graph of their own, built and dropped by maintenance, and finds what exact search finds;
deletion leaves no row behind and
VACUUMs; the URL, `--url` and `DUALTRACE_URL` choose it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pg_server
import psycopg
import pytest
from click.testing import CliRunner

from dualtrace import Memory
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ConfigError, StoreError
from dualtrace.models import Episode
from dualtrace.store.base import IndexEntry, SearchScope
from dualtrace.store.postgres import graphs, migrations, search
from dualtrace.store.postgres.store import PostgresStore

pytestmark = pytest.mark.postgres
DIM = 16
T0 = datetime(2024, 5, 1, tzinfo=UTC)


def _turns(store: PostgresStore, user: str, vectors: np.ndarray) -> None:
    episodes = [
        Episode(
            id=f"{user}-{i}",
            user_id=user,
            session_id="s",
            agent_id=None,
            seq=i,
            role="user",
            speaker=None,
            text=f"turn {i}",
            occurred_at=T0,
            recorded_at=T0,
            external_id=None,
            metadata={},
            content_hash=f"{user}-h{i}",
        )
        for i in range(len(vectors))
    ]
    keys = [
        IndexEntry(e.id, "episode", "episode", "s", e.text, e.content_hash, vectors[i])
        for i, e in enumerate(episodes)
    ]
    store.insert_episodes(user, episodes, keys, "test")


def _unit(rows: int, seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(rows, DIM)).astype(np.float32)
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def _plan(store: PostgresStore, user: str, query: np.ndarray) -> str:
    """The plan of the store's nearest-neighbour query for `user`, walking the index."""
    with store._tx(user) as cur:
        search.through_index(cur)
        rows = cur.execute(
            f"EXPLAIN SELECT id FROM search_keys WHERE user_id = {graphs.user_literal(user)} "
            "ORDER BY vector <=> %s::halfvec LIMIT 10",
            (search.codec.vector_text(query),),
        ).fetchall()
    return " ".join(str(r[0]) for r in rows)


def test_a_big_user_is_searched_through_a_graph_of_their_own(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(graphs, "GRAPH_FROM", 1000)
    monkeypatch.setattr(graphs, "DROP_BELOW", 500)
    store = PostgresStore(postgres_url)
    try:
        store.bind_embedder("test", DIM)
        _turns(store, "big", _unit(3000, 1))
        _turns(store, "small", _unit(12, 2))
        query = _unit(1, 3)[0]
        exact_small = store.search_dense("small", query, 10, SearchScope())
        exact_big = store.search_dense("big", query, 50, SearchScope())  # no graph yet: exact
        assert graphs.graph_name("big") not in _plan(store, "big", query)
        assert store.refresh_search_index("small") is False  # under the cut: nothing to build
        assert store.refresh_search_index("big") is True  # built
        assert store.refresh_search_index("big") is False  # already there
        assert graphs.graph_name("big") in _plan(store, "big", query)
        assert graphs.graph_name("big") not in _plan(store, "small", query)  # big's alone
        own_big = store.search_dense("big", query, 50, SearchScope())
        own_small = store.search_dense("small", query, 10, SearchScope())
        monkeypatch.setattr(graphs, "DROP_BELOW", 5000)  # as if the user had shrunk
        assert store.refresh_search_index("big") is True  # dropped
        assert graphs.graph_name("big") not in _plan(store, "big", query)
        after_drop = store.search_dense("big", query, 50, SearchScope())
    finally:
        store.close()
    assert [c.record_id for c in own_small] == [c.record_id for c in exact_small]
    recall = len({c.record_id for c in own_big} & {c.record_id for c in exact_big}) / 50
    assert recall >= 0.96
    assert [c.record_id for c in after_drop] == [c.record_id for c in exact_big]


def test_maintain_builds_a_big_users_graph_and_search_keeps_its_results(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(graphs, "GRAPH_FROM", 20)
    monkeypatch.setattr(graphs, "DROP_BELOW", 10)
    with Memory(url=postgres_url, embedder=FakeEmbedder()) as mem:
        mem.add(
            [f"Note {i}: the {w} is in drawer {i}" for i, w in enumerate(WORDS)],
            user_id="ann",
            timestamp=T0,
        )
        mem.add("The spare key is under the mat", user_id="bob", timestamp=T0)
        before = [h.id for h in mem.search("where is the stapler?", user_id="ann", limit=5)]
        report = mem.maintain()
        after = [h.id for h in mem.search("where is the stapler?", user_id="ann", limit=5)]
        bob = mem.search("where is the key?", user_id="bob", limit=5)
        assert report.search_indexes == 1  # ann's graph; bob is under the cut
        assert mem.maintain().search_indexes == 0
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            built = conn.execute("SELECT to_regclass(%s)", (graphs.graph_name("ann"),)).fetchone()
            mem.delete_all(user_id="ann")  # forgetting the user drops their graph too
            gone = conn.execute("SELECT to_regclass(%s)", (graphs.graph_name("ann"),)).fetchone()
    assert built is not None and built[0] is not None and gone == (None,)
    assert after == before
    assert [h.text for h in bob][:1] == ["The spare key is under the mat"]


WORDS = [
    "stapler",
    "ruler",
    "torch",
    "scissors",
    "tape",
    "glue",
    "charger",
    "notebook",
    "passport",
    "compass",
    "whistle",
    "magnifier",
    "calculator",
    "stamp",
]


def test_a_store_with_float32_vectors_is_upgraded_to_halfvec_keeping_its_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = pg_server.server().bare_database()
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:2])  # before 0003
    PostgresStore(url).close()
    with psycopg.connect(url, autocommit=True) as conn:  # what bind_embedder did before 0003
        conn.execute(
            "INSERT INTO store_meta VALUES ('embedder_id', 'test'), ('embedder_dim', %s)",
            (str(DIM),),
        )
        conn.execute(f"ALTER TABLE search_keys ALTER COLUMN vector TYPE vector({DIM})")
        conn.execute(
            "CREATE INDEX search_keys_hnsw ON search_keys USING hnsw (vector vector_cosine_ops)"
        )
        # the column today's key writer fills (0007), so that it can write the old rows
        conn.execute("ALTER TABLE search_keys ADD COLUMN xvector halfvec")
    vectors, query = _unit(40, 4), _unit(1, 5)[0]
    old = PostgresStore(url)
    try:
        _turns(old, "alice", vectors)
        before = old.search_dense("alice", query, 10, SearchScope())
    finally:
        old.close()
    monkeypatch.undo()
    store = PostgresStore(url)  # applies 0003_halfvec
    try:
        store.bind_embedder("test", DIM)  # the binding is unchanged
        after = store.search_dense("alice", query, 10, SearchScope())
        copied = store.vectors_by_hash("alice", ["alice-h0"])["alice-h0"]
    finally:
        store.close()
    assert [c.record_id for c in after] == [c.record_id for c in before]
    assert np.allclose(copied, vectors[0], atol=1e-3)  # float16 of the float32 vector
    with psycopg.connect(url) as conn:
        kind = conn.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'search_keys'::regclass AND attname = 'vector'"
        ).fetchone()
        shared = conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'search_keys_hnsw'"
        ).fetchone()
    assert kind == (f"halfvec({DIM})",)
    assert shared is None  # 0005: big users search graphs of their own


def test_an_embedder_too_wide_for_halfvec_is_refused_before_any_write(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    try:
        with pytest.raises(ConfigError, match=r"20000-dimension vectors.*1 to 16000"):
            store.bind_embedder("huge", 20_000)
        store.bind_embedder("test", DIM)  # nothing was bound by the refusal
    finally:
        store.close()


def test_deleting_a_user_leaves_no_row_of_theirs_in_any_table(postgres_url: str) -> None:
    with Memory(url=postgres_url, embedder=FakeEmbedder()) as mem:
        mem.add("I keep my Vexmundo passport in the blue drawer", user_id="gone")
        mem.add("Bob lives in Nice", user_id="kept")
        mem.delete_all(user_id="gone")
        assert mem.search("Vexmundo passport", user_id="gone") == []
    with psycopg.connect(pg_server.TestServer.as_superuser(postgres_url)) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
        ]
        for table in tables:  # every row of every table, as text (a superuser sees all)
            rows = conn.execute(f"SELECT t::text FROM {table} t").fetchall()
            assert not [r for r in rows if "Vexmundo" in r[0] or "'gone'" in r[0]], table
        assert (
            conn.execute("SELECT value FROM store_meta WHERE key = 'scrub_pending'").fetchone()
            is None
        )  # the VACUUM ran


def test_memory_url_cli_url_and_environment_choose_postgres(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUALTRACE_HOME", str(tmp_path / "home"))
    added = CliRunner().invoke(
        cli, ["--url", postgres_url, "add", "I moved to Lyon last spring", "--user", "alice"]
    )
    assert added.exit_code == 0, (added.output, added.exception)
    monkeypatch.setenv("DUALTRACE_URL", postgres_url)
    found = CliRunner().invoke(cli, ["--json", "search", "Lyon", "--user", "alice"])
    assert found.exit_code == 0, (found.output, found.exception)
    assert "Lyon" in found.stdout
    assert not (tmp_path / "home" / "memory.db").exists()  # nothing went to SQLite
    bad = CliRunner().invoke(
        cli, ["--url", postgres_url.replace("/t_", "/nope_"), "list", "--user", "alice"]
    )
    assert bad.exit_code != 0 and "cannot reach PostgreSQL" in bad.output


def test_the_backup_tools_get_the_password_in_a_private_file_not_on_the_command_line() -> None:
    from dualtrace.store.postgres.backup import tool_conninfo

    with tool_conninfo("postgresql://app:pa:ss@db.internal/memory") as conninfo:
        assert "pa:ss" not in conninfo and "dualtrace.all_users=on" in conninfo
        passfile = Path(conninfo.split("passfile=")[1].split()[0].strip("'"))
        assert passfile.read_text() == "*:*:*:*:pa\\:ss\n"
        assert passfile.stat().st_mode & 0o077 == 0
    assert not passfile.exists()


def test_a_role_that_may_not_build_a_graph_gets_a_store_error_naming_the_fix(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(conn: object, user_id: str, keys: int) -> bool:
        raise psycopg.errors.InsufficientPrivilege("must be owner of table search_keys")

    monkeypatch.setattr(graphs, "refresh", refused)
    monkeypatch.setattr(graphs, "GRAPH_FROM", 1)
    store = PostgresStore(postgres_url)
    try:
        store.bind_embedder("test", DIM)
        _turns(store, "big", _unit(3, 1))
        with pytest.raises(StoreError, match=r"user 'big'.*owner of its tables"):
            store.refresh_search_index("big")
        assert len(store.search_dense("big", _unit(1, 2)[0], 3, SearchScope())) == 3
    finally:
        store.close()
