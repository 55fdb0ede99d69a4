"""PostgresStore: the server backend — PostgreSQL with pgvector, shared by many processes.

The store is its role mixins over one connection pool (the layout of the SQLite store):

    connection.py   PostgresConnection: pool, user-scoped transactions and row-level
                    security, audit, embedder binding, the deletion clean-up (VACUUM)
    backup.py       StoreLifecycle's backup (pg_dump)
    episodes.py     EpisodeStore       memories.py    MemoryStore (SQL in lifecycle.py)
    graph.py        GraphStore         index.py       SearchIndex (SQL in search.py)
    sessions.py     SessionStore       maintenance.py MaintenanceStore
    deletion.py     DeletionStore      (SQL in purge.py; what PostgreSQL keeps: its docstring)
    access.py       AccessStore        browse.py      BrowseStore
    copy.py         CopyStore          (every row as stored, for `dualtrace migrate`)
    codec.py, migrations.py, survivors.py: rows, the schema (Citus-ready), write checks

Dense search is pgvector (HNSW, cosine, iterative scans for big users, exact for small
ones); lexical search is PostgreSQL's full text (english + simple for segmented Chinese,
`ts_rank_cd`): see search.py.
"""

from __future__ import annotations

from dualtrace.store.postgres.access import PostgresAccess
from dualtrace.store.postgres.backup import PostgresBackup
from dualtrace.store.postgres.browse import PostgresBrowse
from dualtrace.store.postgres.copy import PostgresCopy
from dualtrace.store.postgres.deletion import PostgresDeletion
from dualtrace.store.postgres.episodes import PostgresEpisodes
from dualtrace.store.postgres.graph import PostgresGraph
from dualtrace.store.postgres.index import PostgresIndex
from dualtrace.store.postgres.maintenance import PostgresMaintenance
from dualtrace.store.postgres.memories import PostgresMemories
from dualtrace.store.postgres.sessions import PostgresSessions


class PostgresStore(
    PostgresEpisodes,
    PostgresMemories,
    PostgresGraph,
    PostgresIndex,
    PostgresSessions,
    PostgresMaintenance,
    PostgresDeletion,
    PostgresBackup,
    PostgresAccess,
    PostgresBrowse,
    PostgresCopy,
):
    """A Store in a PostgreSQL database (with the pgvector extension), at `url`.

    Connect as an ordinary role that owns the database: row-level security isolates users,
    and a superuser would bypass it (refused with a ConfigError that says how to set up).

        store = PostgresStore("postgresql://dualtrace:secret@db.internal/memory")
        store.next_seq("alice", "s1")   # 0
        store.close()
    """
