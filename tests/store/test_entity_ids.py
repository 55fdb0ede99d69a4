"""Both backends store an entity under the one id `write_rules.entity_id` gives, so a store
moved by `dualtrace migrate` (which re-derives them) keeps its entities' ids."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pg_server
import psycopg
import pytest
from contract.rows import ACTOR, DIM, EMBEDDER, memory

from dualtrace.store.base import EntityRow, MemoryGraph, Store
from dualtrace.store.write_rules import entity_id

PARIS = EntityRow("Paris", "paris", "place", "paris")


def _write(store: Store) -> None:
    store.bind_embedder(EMBEDDER, DIM)
    graph = MemoryGraph(entities=(("m1", PARIS),))
    store.insert_memories("u", [memory("u", "m1", "lives in Paris")], [], ACTOR, graph)
    store.close()


def test_the_id_is_stable() -> None:
    # stored ids: the formula may not change under a store that holds them
    assert entity_id("u", "paris", "place") == "ent_5f0802b0e94e609dd627c7ae8b14fd7b"
    assert entity_id("v", "paris", "place") != entity_id("u", "paris", "place")
    assert entity_id("u", "paris", "org") != entity_id("u", "paris", "place")


def test_sqlite_stores_it(tmp_path: Path) -> None:
    from dualtrace.store.sqlite.store import SQLiteStore

    _write(SQLiteStore(tmp_path / "s.db"))
    with sqlite3.connect(tmp_path / "s.db") as conn:
        rows = conn.execute("SELECT id FROM entities").fetchall()
        links = conn.execute("SELECT entity_id FROM memory_entities").fetchall()
    assert rows == links == [(entity_id("u", "paris", "place"),)]


@pytest.mark.postgres
def test_postgres_stores_it(postgres_url: str) -> None:
    from dualtrace.store.postgres.store import PostgresStore

    _write(PostgresStore(postgres_url))
    # as the owner: row-level security shows the store's role no user's rows outside a call
    with psycopg.connect(pg_server.TestServer.as_superuser(postgres_url)) as conn:
        rows = conn.execute("SELECT id FROM entities").fetchall()
        links = conn.execute("SELECT entity_id FROM memory_entities").fetchall()
    assert rows == links == [(entity_id("u", "paris", "place"),)]
