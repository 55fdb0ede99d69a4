"""Each big user's own HNSW graph: a partial pgvector index over that user's keys alone.

Why not one HNSW index over the whole table, filtered by user: a filtered walk of a shared
graph finds a user's nearest keys only as well as the user's share of the graph lets it.
Measured with random 384-dimension vectors (the hardest case), recall@50 against exact
search was 0.90 for a user holding 10% of a 100k table at ef_search 800, 0.87 at 1% of 1M;
a user's own graph, 30,000 keys in a 100,000-key table, gave 1.000 from ef_search 200 up,
in 9-24 ms; with real e5-small vectors 0.998 (see GRAPH_M; docs/notebook.md). So users
are searched exactly up to GRAPH_FROM keys (exact search never misses and is fast there),
and above it through a graph of their own, built by the maintenance pass (`Memory.maintain`,
`dualtrace maintain`): `refresh` builds it with CREATE INDEX CONCURRENTLY (other users'
writes go on meanwhile) once a user has more than GRAPH_FROM keys, and drops it when they
fall under DROP_BELOW. Until it is built, the user's search stays exact: complete, only
slower.

A graph is named after a hash of its user id and its predicate names the user id as a
literal, so the planner can use it only for a query that names the same user; search.py
writes that literal into the query. A deletion's VACUUM (connection.py) takes the deleted
keys out of these indexes as out of every other. With Citus, a partial index on the
distributed table is built on each shard; only the shard holding the user has rows in it.
"""

from __future__ import annotations

import hashlib
from typing import Any

import psycopg
from psycopg import sql

# Users with more keys than this are searched through their own graph once it is built.
GRAPH_FROM = 20_000
# A user's graph is dropped when their keys fall under this (hysteresis: no rebuild churn).
DROP_BELOW = GRAPH_FROM // 2
# The graph's links per node and build-time candidate list (pgvector's defaults: 16, 64).
# Real e5-small vectors, a 30,000-key user whose facts repeat (7,000 duplicate vectors):
# recall@50 at ef_search 800 0.979 with the defaults (one query in 60 found none of its
# neighbours: the walk stayed in another region), 0.998 with these (worst query 0.98),
# for twice the build time (19 s) and ~5 ms more a search (docs/notebook.md).
GRAPH_M, GRAPH_EF_CONSTRUCTION = 24, 128
# Session advisory locks serialising graph builds per user: this key, then the user's hash.
GRAPH_LOCK = 0x67726170  # "grap"

_PREFIX = "search_keys_hnsw_u"


def graph_name(user_id: str) -> str:
    """The name of the user's own index (a hash: user ids may hold any character)."""
    return _PREFIX + hashlib.blake2b(user_id.encode(), digest_size=8).hexdigest()


def user_literal(user_id: str) -> str:
    """The user id as an SQL string literal (quoted and escaped by psycopg)."""
    return sql.Literal(user_id).as_string(None)


def has_graph(cur: psycopg.Cursor[Any], user_id: str) -> bool:
    """Whether the user's own graph exists and is ready (a failed concurrent build leaves
    an invalid index behind, which the planner ignores)."""
    return bool(state(cur, user_id))


def state(on: psycopg.Cursor[Any] | psycopg.Connection[Any], user_id: str) -> bool | None:
    """Whether the user's graph is valid; None if they have none."""
    row = on.execute(
        "SELECT i.indisvalid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid "
        "WHERE c.relname = %s",
        (graph_name(user_id),),
    ).fetchone()
    return None if row is None else bool(row[0])


def due(ready: bool | None, keys: int) -> bool:
    """Whether a user with this graph `state` and number of `keys` needs it built (above
    GRAPH_FROM, none or an invalid one) or dropped (under DROP_BELOW)."""
    if ready is None:
        return keys > GRAPH_FROM
    return not ready or keys < DROP_BELOW


def refresh(conn: psycopg.Connection[Any], user_id: str, keys: int) -> bool:
    """Build or drop the user's graph as their number of `keys` calls for; True if it did.
    `conn` is in autocommit mode (CONCURRENTLY cannot run in a transaction). Another process
    building the same user's graph meanwhile makes this one return False."""
    name = graph_name(user_id)
    lock = int.from_bytes(bytes.fromhex(name[len(_PREFIX) :])[:4], "big") & 0x7FFFFFFF
    row = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (GRAPH_LOCK, lock)).fetchone()
    if row is None or not row[0]:
        return False
    try:
        ready = state(conn, user_id)  # again, under the lock
        if not due(ready, keys):
            return False
        if ready is not None:  # too few keys now, or a build that failed half-way
            conn.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}".encode())
            if keys < DROP_BELOW or keys <= GRAPH_FROM:
                return True
        conn.execute(
            (
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON search_keys "
                "USING hnsw (vector halfvec_cosine_ops) "
                f"WITH (m = {GRAPH_M}, ef_construction = {GRAPH_EF_CONSTRUCTION}) "
                f"WHERE user_id = {user_literal(user_id)}"
            ).encode()
        )
        return True
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s, %s)", (GRAPH_LOCK, lock))
