"""Forward-only, named schema migrations for the SQLite store.

Each migration runs in its own transaction together with the row that records it in
`schema_migrations`; a database is never left half-migrated. Append new migrations at the
end; never edit or reorder applied ones.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from dualtrace.errors import MigrationError, SchemaError

MIGRATIONS: list[tuple[str, str]] = [
    (
        "0001_episodes_and_memories",
        """
        CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE episodes (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            agent_id TEXT,
            session_id TEXT,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL,
            speaker TEXT,
            text TEXT NOT NULL,
            occurred_at TEXT NOT NULL,
            occurred_tz INTEGER NOT NULL DEFAULT 0,
            recorded_at TEXT NOT NULL,
            external_id TEXT,
            metadata TEXT NOT NULL DEFAULT '{}',
            content_hash TEXT NOT NULL
        );
        CREATE UNIQUE INDEX episodes_external ON episodes(user_id, external_id)
            WHERE external_id IS NOT NULL;
        CREATE INDEX episodes_session ON episodes(user_id, session_id, seq);
        CREATE INDEX episodes_time ON episodes(user_id, occurred_at);
        CREATE TABLE memories (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            scene TEXT,
            subject TEXT, predicate TEXT, object TEXT, topic TEXT,
            importance REAL NOT NULL DEFAULT 0.5,
            confidence REAL NOT NULL DEFAULT 1.0,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_accessed_at TEXT,
            valid_from TEXT, valid_to TEXT,
            recorded_at TEXT NOT NULL,
            invalidated_at TEXT,
            superseded_by TEXT,
            expire_at TEXT,
            archived INTEGER NOT NULL DEFAULT 0,
            session_id TEXT,
            metadata TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX memories_user ON memories(user_id, kind, archived);
        CREATE INDEX memories_spo ON memories(user_id, subject, predicate);
        CREATE TABLE memory_sources (
            user_id TEXT NOT NULL,
            memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            episode_id TEXT NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
            PRIMARY KEY (memory_id, episode_id)
        );
        CREATE INDEX memory_sources_episode ON memory_sources(user_id, episode_id);
        CREATE TABLE entities (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            norm_name TEXT NOT NULL,
            type TEXT NOT NULL DEFAULT 'other',
            UNIQUE (user_id, norm_name, type)
        );
        CREATE TABLE memory_entities (
            user_id TEXT NOT NULL,
            memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            PRIMARY KEY (memory_id, entity_id)
        );
        CREATE INDEX memory_entities_entity ON memory_entities(user_id, entity_id);
        CREATE TABLE links (
            user_id TEXT NOT NULL,
            src_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            dst_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            weight REAL NOT NULL DEFAULT 1.0,
            PRIMARY KEY (src_id, dst_id, kind)
        );
        CREATE INDEX links_user ON links(user_id, dst_id);
        CREATE TABLE history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT NOT NULL,
            record_id TEXT NOT NULL,
            event TEXT NOT NULL,
            old_text TEXT,
            new_text TEXT,
            at TEXT NOT NULL,
            actor TEXT NOT NULL
        );
        CREATE INDEX history_record ON history(user_id, record_id, id);
        CREATE TABLE audit_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT NOT NULL,
            at TEXT NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            target_id TEXT,
            detail TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX audit_user ON audit_log(user_id, id);
        """,
    ),
    (
        "0002_search_index",
        """
        CREATE TABLE search_keys (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT NOT NULL,
            record_id TEXT NOT NULL,
            trace TEXT NOT NULL,
            kind TEXT NOT NULL,
            session_id TEXT,
            content_hash TEXT NOT NULL,
            embedder_id TEXT,
            dim INTEGER,
            vector BLOB,
            UNIQUE (record_id, trace)
        );
        CREATE INDEX search_keys_user ON search_keys(user_id, id);
        CREATE INDEX search_keys_hash ON search_keys(user_id, content_hash);
        CREATE VIRTUAL TABLE fts USING fts5(
            scope, body, user_id UNINDEXED,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TABLE index_versions (user_id TEXT PRIMARY KEY, version INTEGER NOT NULL);
        """,
    ),
]

MIGRATIONS.append(
    (
        "0003_entity_canonical",
        """
        ALTER TABLE entities ADD COLUMN canonical_norm TEXT;
        UPDATE entities SET canonical_norm = norm_name;
        CREATE INDEX entities_canonical ON entities(user_id, canonical_norm);
        """,
    )
)

MIGRATIONS.append(
    (
        "0004_lifecycle_and_sessions",
        """
        ALTER TABLE history ADD COLUMN detail TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE memories ADD COLUMN archived_at TEXT;
        CREATE TABLE sessions (
            user_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            started_at TEXT NOT NULL,
            last_active_at TEXT NOT NULL,
            ended_at TEXT,
            extracted_seq INTEGER NOT NULL DEFAULT -1,
            state TEXT NOT NULL DEFAULT '{}',
            PRIMARY KEY (user_id, session_id)
        );
        CREATE INDEX sessions_idle ON sessions(ended_at, last_active_at);
        """,
    )
)

MIGRATIONS.append(
    (
        # Turns stored but not yet extracted (an `add` under way, or one a crash cut short,
        # or turns a deletion left to re-derive): set with the turns, cleared with their
        # memories, so whatever is still marked on the next open or `maintain` is finished.
        "0005_extraction_pending",
        """
        CREATE TABLE extraction_pending (
            episode_id TEXT PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL,
            since TEXT NOT NULL
        );
        CREATE INDEX extraction_pending_user ON extraction_pending(user_id);
        """,
    )
)

MIGRATIONS.append(
    (
        # A long turn is indexed in chunks (several keys of one trace), so a key is named by
        # (record, trace, chunk). SQLite cannot change a UNIQUE constraint in place: the table
        # is rebuilt with its ids kept, which are the full-text rows' ids.
        "0006_search_key_chunks",
        """
        CREATE TABLE search_keys_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT NOT NULL,
            record_id TEXT NOT NULL,
            trace TEXT NOT NULL,
            chunk INTEGER NOT NULL DEFAULT 0,
            kind TEXT NOT NULL,
            session_id TEXT,
            content_hash TEXT NOT NULL,
            embedder_id TEXT,
            dim INTEGER,
            vector BLOB,
            UNIQUE (record_id, trace, chunk)
        );
        INSERT INTO search_keys_new (id, user_id, record_id, trace, chunk, kind, session_id,
                                     content_hash, embedder_id, dim, vector)
            SELECT id, user_id, record_id, trace, 0, kind, session_id, content_hash,
                   embedder_id, dim, vector FROM search_keys;
        DROP TABLE search_keys;
        ALTER TABLE search_keys_new RENAME TO search_keys;
        CREATE INDEX search_keys_user ON search_keys(user_id, id);
        CREATE INDEX search_keys_hash ON search_keys(user_id, content_hash);
        """,
    )
)

MIGRATIONS.append(
    (
        # API keys of the HTTP service: only a SHA-256 of each key is kept (the key itself
        # is shown once, when created); a key acts for one user, or for any (admin).
        "0007_api_keys",
        """
        CREATE TABLE api_keys (
            key_id TEXT PRIMARY KEY,
            key_hash TEXT NOT NULL UNIQUE,
            user_id TEXT,
            admin INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            revoked_at TEXT,
            label TEXT
        );
        """,
    )
)

MIGRATIONS.append(
    (
        # Deferred adds the service acknowledged (`"async": true`): which turns each one
        # stored. Its state is read from `extraction_pending` (done once none is marked).
        "0008_operations",
        """
        CREATE TABLE operations (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            created_at TEXT NOT NULL,
            episode_ids TEXT NOT NULL,
            error TEXT
        );
        CREATE INDEX operations_user ON operations(user_id, created_at);
        """,
    )
)

MIGRATIONS.append(
    (
        # Glosses (a key's words in the other language, for cross-lingual search) get a
        # full-text table of their own, rows keyed like `fts` by the search key's id: FTS5's
        # BM25 normalises by the length of the whole row, so glosses in `fts` would change
        # how the text itself ranks.
        "0009_fts_gloss",
        """
        CREATE VIRTUAL TABLE fts_gloss USING fts5(
            scope, gloss, user_id UNINDEXED,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        """,
    )
)

MIGRATIONS.append(
    (
        # Each key's language (`store.languages.key_language` of its text), which dense search
        # offsets: read with the vectors, instead of reading every key's text to work it out
        # (a third of a 1,300-key LongMemEval user's first load). Keys written before this
        # have NULL, and their language is still worked out from their text.
        "0010_key_language",
        "ALTER TABLE search_keys ADD COLUMN language TEXT;",
    )
)

MIGRATIONS.append(
    (
        # A read of the valid memories of some predicates (the profile's, `slot_view`'s, a
        # session end's) found them through `memories_user` (user, kind, archived): every
        # memory of the user visited, ~9 ms at 16,000 of them. By (user, predicate, valid_to)
        # it visits only the valid ones of those predicates (`valid_to IS NULL` is a seek).
        "0011_memories_predicate",
        "CREATE INDEX memories_predicate ON memories(user_id, predicate, valid_to);",
    )
)

MIGRATIONS.append(
    (
        # The cross-lingual embedder's vector of each key (float16, `crosslingual_embedder`),
        # which scores the key for a question in the other language. NULL: none (written
        # before, or with the setting "none"); `Memory.maintain` gives them one.
        "0012_key_xvector",
        "ALTER TABLE search_keys ADD COLUMN xvector BLOB;",
    )
)

MIGRATIONS.append(
    (
        # How often each term (as the full-text tokenizer makes it) occurs in each full-text
        # row, per user and table: BM25 reads a term's rows here rather than re-reading each
        # matched row's text (store/sqlite/bm25.py). Filled from the existing rows through
        # the tables' own per-instance vocabulary.
        "0013_fts_terms",
        """
        CREATE TABLE fts_terms (
            user_id TEXT NOT NULL,
            tbl TEXT NOT NULL,
            term TEXT NOT NULL,
            key_id INTEGER NOT NULL,
            freq INTEGER NOT NULL,
            PRIMARY KEY (user_id, tbl, term, key_id)
        ) WITHOUT ROWID;
        CREATE INDEX fts_terms_key ON fts_terms(key_id);
        CREATE VIRTUAL TABLE temp.fts_body_terms USING fts5vocab(main, fts, instance);
        INSERT INTO fts_terms (user_id, tbl, term, key_id, freq)
            SELECT k.user_id, 'fts', v.term, v.doc, count(*)
            FROM temp.fts_body_terms AS v JOIN search_keys AS k ON k.id = v.doc
            WHERE v.col = 'body' GROUP BY v.doc, v.term;
        DROP TABLE temp.fts_body_terms;
        CREATE VIRTUAL TABLE temp.fts_gloss_terms USING fts5vocab(main, fts_gloss, instance);
        INSERT INTO fts_terms (user_id, tbl, term, key_id, freq)
            SELECT k.user_id, 'fts_gloss', v.term, v.doc, count(*)
            FROM temp.fts_gloss_terms AS v JOIN search_keys AS k ON k.id = v.doc
            WHERE v.col = 'gloss' GROUP BY v.doc, v.term;
        DROP TABLE temp.fts_gloss_terms
        """,
    )
)

LATEST = MIGRATIONS[-1][0]


def _applied(conn: sqlite3.Connection) -> list[str]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT)"
    )
    return [row[0] for row in conn.execute("SELECT name FROM schema_migrations ORDER BY rowid")]


def migrate(conn: sqlite3.Connection, *, upto: str | None = None) -> list[str]:
    """Apply pending migrations in order (up to and including `upto`); returns their names."""
    applied = _applied(conn)
    known = [name for name, _ in MIGRATIONS]
    unknown = [name for name in applied if name not in known]
    if unknown:
        raise SchemaError(
            f"database has migrations this version does not know: {unknown}; "
            "upgrade dualtrace to open it"
        )
    done: list[str] = []
    for name, sql in MIGRATIONS:
        if name in applied:
            continue
        if _apply(conn, name, sql):
            done.append(name)
        if name == upto:
            break
    return done


def _apply(conn: sqlite3.Connection, name: str, sql: str) -> bool:
    """Apply one migration; False if another process applied it first (several processes
    opening a new file at once all saw it pending; the write lock lets one apply it)."""
    statements = [s.strip() for s in sql.split(";") if s.strip()]
    try:
        conn.execute("BEGIN IMMEDIATE")
        if conn.execute("SELECT 1 FROM schema_migrations WHERE name = ?", (name,)).fetchone():
            conn.execute("ROLLBACK")
            return False
        for statement in statements:
            conn.execute(statement)
        conn.execute(
            "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
            (name, datetime.now(UTC).isoformat()),
        )
        conn.execute("COMMIT")
        return True
    except sqlite3.Error as exc:
        conn.execute("ROLLBACK")
        raise MigrationError(
            f"migration {name!r} failed: {exc}; the database is unchanged"
        ) from exc
