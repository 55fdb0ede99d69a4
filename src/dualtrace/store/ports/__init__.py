"""The store's role ports, one per file: everything dualtrace persists, scoped to one user.

A consumer imports the roles it uses from their own modules (`store.ports.memory_reads`, …),
so what it may do to the store shows in its imports; `.importlinter` keeps the read path
(`recall`) away from every writing role. `store/base.py` joins the roles into `Store`.

    lifecycle        StoreLifecycle    bind the embedder, back up, close
    episode_reads    EpisodeReads      turns as said (the lossless trace)
    episode_writes   EpisodeWrites     storing turns
    memory_reads     MemoryReads       derived memories, any record's kind and history
    memory_writes    MemoryWrites      inserts, edits, undo, reinforcement, archiving
    graph_reads      GraphReads        entities and the memories that share them
    graph_writes     GraphWrites       canonical entities, links between memories
    index_reads      IndexReads        the dense, lexical, time and entity channels
    index_writes     IndexWrites       a record's search keys and their vectors
    session_reads    SessionReads      session rows and the turns said in them
    session_writes   SessionWrites     session bookkeeping
    maintenance      MaintenanceStore  what forgetting and normalising read and adjust
    deletion         DeletionStore     real deletion, row counts, the audit log
    access           AccessStore       the service's API keys, deferred-add operations
    browse           BrowseStore       pages of turns and records, a memory's graph
    copy             CopyStore         every row as stored, and loading it back (migrate)
    reads            RecordReads, ChannelReads, StoreReads, BrowseReads: read roles joined
    records          the values they pass (IndexEntry, SearchScope, MemoryChange, …)

This package's `__init__` imports nothing, so importing one role brings no other.
"""
