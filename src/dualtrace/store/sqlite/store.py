"""SQLiteStore: the embedded default — one file, WAL, foreign keys, FTS5, exact dense search.

The store is its role mixins over one connection (see connection.py for why mixins):

    connection.py   SQLiteConnection: file, lock, transactions, audit, embedder binding
    backup.py       StoreLifecycle's backup (SQLite's online backup API)
    episodes.py     EpisodeStore       memories.py    MemoryStore (SQL in lifecycle.py)
    graph.py        GraphStore         index.py       SearchIndex (SQL in search.py)
    sessions.py     SessionStore       maintenance.py MaintenanceStore
    deletion.py     DeletionStore      (SQL in purge.py)
    pending.py      EpisodeStore's extraction-pending reads
    access.py       AccessStore        browse.py      BrowseStore
    copy.py         CopyStore (every row as stored, for `dualtrace migrate`)
    codec.py, migrations.py: columns and schema
"""

from __future__ import annotations

from dualtrace.store.sqlite.access import SQLiteAccess
from dualtrace.store.sqlite.backup import SQLiteBackup
from dualtrace.store.sqlite.browse import SQLiteBrowse
from dualtrace.store.sqlite.copy import SQLiteCopy
from dualtrace.store.sqlite.deletion import SQLiteDeletion
from dualtrace.store.sqlite.episodes import SQLiteEpisodes
from dualtrace.store.sqlite.graph import SQLiteGraph
from dualtrace.store.sqlite.index import SQLiteIndex
from dualtrace.store.sqlite.maintenance import SQLiteMaintenance
from dualtrace.store.sqlite.memories import SQLiteMemories
from dualtrace.store.sqlite.pending import SQLitePending
from dualtrace.store.sqlite.sessions import SQLiteSessions


class SQLiteStore(
    SQLiteEpisodes,
    SQLiteMemories,
    SQLiteGraph,
    SQLiteIndex,
    SQLiteSessions,
    SQLiteMaintenance,
    SQLiteDeletion,
    SQLitePending,
    SQLiteBackup,
    SQLiteAccess,
    SQLiteBrowse,
    SQLiteCopy,
):
    """A Store in one SQLite file. Thread-safe through one connection and a lock.

    >>> store = SQLiteStore(":memory:")
    >>> store.next_seq("alice", "s1")
    0
    >>> store.close()
    """
