"""Forward-only, named schema migrations for the PostgreSQL store.

Each migration runs in its own transaction together with the row that records it in
`schema_migrations`, under an advisory lock, so several processes opening one new database
apply each migration once and a database is never left half-migrated. Append new
migrations at the end; never edit or reorder applied ones.

The schema is ready for Citus (distribution by `user_id`): every per-user table carries
`user_id`, and every primary key, unique key and foreign key includes it, so each user's
rows can live on one shard and no statement needs another shard. Three tables are global,
as Citus reference tables: `schema_migrations` and `store_meta` (the store's own settings:
embedder, audit key) and `api_keys` (a key is looked up by its hash before anyone knows
which user it acts for; admin keys act for none). `tests/store/test_postgres_schema.py`
reads the catalog and fails if a table breaks these rules.

Every per-user table has row-level security, forced for its owner too: a row is visible
only to a transaction whose `dualtrace.user_id` setting names its user, or one that set
`dualtrace.all_users` on purpose (see connection.py for who may).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import psycopg

from dualtrace.errors import MigrationError, SchemaError

# Vectors are stored as `halfvec` (float16), typed to the embedder's dimension when it is
# bound. Big users get HNSW graphs of their own (graphs.py) up to HNSW_MAX_DIM dimensions
# (pgvector's limit for halfvec; above it search is exact). A halfvec column holds at most
# HALFVEC_MAX_DIM. HNSW_INDEX_SQL is the one shared index that 0003 rebuilt and 0005 drops.
HNSW_MAX_DIM = 4000
HALFVEC_MAX_DIM = 16000
HNSW_INDEX_SQL = (
    "CREATE INDEX search_keys_hnsw ON search_keys USING hnsw (vector halfvec_cosine_ops)"
)

# Text compared and sorted byte by byte (as SQLite does), whatever the database's locale.
ID = 'text COLLATE "C"'

# Tables with one user's rows each (row-level security, distributed by user_id in Citus).
USER_TABLES = (
    "episodes",
    "memories",
    "memory_sources",
    "entities",
    "memory_entities",
    "links",
    "history",
    "audit_log",
    "search_keys",
    "sessions",
    "extraction_pending",
    "operations",
)

# Global tables (Citus reference tables), each with why it is not per user.
REFERENCE_TABLES = {
    "schema_migrations": "the schema's own version, one for the whole database",
    "store_meta": "store-wide settings: the embedder and the audit pseudonym key",
    "api_keys": "looked up by key hash before the user is known; admin keys have no user",
}

_OWN_ROWS = (
    "user_id = current_setting('dualtrace.user_id', true) "
    "OR current_setting('dualtrace.all_users', true) = 'on'"
)


def _row_security(table: str) -> str:
    return (
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;\n"
        f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY;\n"
        f"CREATE POLICY {table}_own_rows ON {table} USING ({_OWN_ROWS}) WITH CHECK ({_OWN_ROWS});"
    )


_SCHEMA = f"""
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE store_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE episodes (
    user_id {ID} NOT NULL,
    id {ID} NOT NULL,
    agent_id text,
    session_id {ID},
    seq integer NOT NULL,
    role text NOT NULL,
    speaker text,
    text text NOT NULL,
    occurred_at timestamptz NOT NULL,
    occurred_tz integer NOT NULL DEFAULT 0,
    recorded_at timestamptz NOT NULL,
    external_id {ID},
    metadata jsonb NOT NULL DEFAULT '{{}}',
    content_hash text NOT NULL,
    PRIMARY KEY (user_id, id)
);
CREATE UNIQUE INDEX episodes_external ON episodes (user_id, external_id)
    WHERE external_id IS NOT NULL;
CREATE INDEX episodes_session ON episodes (user_id, session_id, seq);
CREATE INDEX episodes_time ON episodes (user_id, occurred_at);
CREATE TABLE memories (
    user_id {ID} NOT NULL,
    id {ID} NOT NULL,
    kind text NOT NULL,
    text text NOT NULL,
    scene text,
    subject text, predicate text, object text, topic text,
    importance double precision NOT NULL DEFAULT 0.5,
    confidence double precision NOT NULL DEFAULT 1.0,
    access_count integer NOT NULL DEFAULT 0,
    last_accessed_at timestamptz,
    valid_from timestamptz, valid_to timestamptz,
    recorded_at timestamptz NOT NULL,
    invalidated_at timestamptz,
    superseded_by {ID},
    expire_at timestamptz,
    archived boolean NOT NULL DEFAULT false,
    archived_at timestamptz,
    session_id {ID},
    metadata jsonb NOT NULL DEFAULT '{{}}',
    PRIMARY KEY (user_id, id)
);
CREATE INDEX memories_kind ON memories (user_id, kind, archived);
CREATE INDEX memories_spo ON memories (user_id, predicate, subject);
CREATE INDEX memories_valid_from ON memories (user_id, valid_from);
CREATE TABLE memory_sources (
    user_id {ID} NOT NULL,
    memory_id {ID} NOT NULL,
    episode_id {ID} NOT NULL,
    n bigint GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (user_id, memory_id, episode_id),
    FOREIGN KEY (user_id, memory_id) REFERENCES memories (user_id, id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, episode_id) REFERENCES episodes (user_id, id) ON DELETE CASCADE
);
CREATE INDEX memory_sources_episode ON memory_sources (user_id, episode_id);
CREATE TABLE entities (
    user_id {ID} NOT NULL,
    id {ID} NOT NULL,
    n bigint GENERATED ALWAYS AS IDENTITY,
    name text NOT NULL,
    norm_name {ID} NOT NULL,
    type {ID} NOT NULL DEFAULT 'other',
    canonical_norm {ID},
    PRIMARY KEY (user_id, id),
    UNIQUE (user_id, norm_name, type)
);
CREATE INDEX entities_canonical ON entities (user_id, canonical_norm);
CREATE TABLE memory_entities (
    user_id {ID} NOT NULL,
    memory_id {ID} NOT NULL,
    entity_id {ID} NOT NULL,
    n bigint GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (user_id, memory_id, entity_id),
    FOREIGN KEY (user_id, memory_id) REFERENCES memories (user_id, id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, entity_id) REFERENCES entities (user_id, id) ON DELETE CASCADE
);
CREATE INDEX memory_entities_entity ON memory_entities (user_id, entity_id, n);
CREATE TABLE links (
    user_id {ID} NOT NULL,
    src_id {ID} NOT NULL,
    dst_id {ID} NOT NULL,
    kind text NOT NULL,
    weight double precision NOT NULL DEFAULT 1.0,
    PRIMARY KEY (user_id, src_id, dst_id, kind),
    FOREIGN KEY (user_id, src_id) REFERENCES memories (user_id, id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, dst_id) REFERENCES memories (user_id, id) ON DELETE CASCADE
);
CREATE INDEX links_dst ON links (user_id, dst_id);
CREATE TABLE history (
    user_id {ID} NOT NULL,
    id bigint GENERATED ALWAYS AS IDENTITY,
    record_id {ID} NOT NULL,
    event text NOT NULL,
    old_text text,
    new_text text,
    at timestamptz NOT NULL,
    actor text NOT NULL,
    detail jsonb NOT NULL DEFAULT '{{}}',
    PRIMARY KEY (user_id, id)
);
CREATE INDEX history_record ON history (user_id, record_id, id);
CREATE TABLE audit_log (
    user_id {ID} NOT NULL,
    id bigint GENERATED ALWAYS AS IDENTITY,
    at timestamptz NOT NULL,
    actor text NOT NULL,
    action text NOT NULL,
    target_id text,
    detail jsonb NOT NULL DEFAULT '{{}}',
    PRIMARY KEY (user_id, id)
);
CREATE TABLE search_keys (
    user_id {ID} NOT NULL,
    id bigint GENERATED ALWAYS AS IDENTITY,
    record_id {ID} NOT NULL,
    trace text NOT NULL,
    chunk integer NOT NULL DEFAULT 0,
    kind text NOT NULL,
    session_id {ID},
    content_hash text NOT NULL,
    embedder_id text,
    vector vector,
    tsv tsvector NOT NULL,
    gloss_tsv tsvector,
    PRIMARY KEY (user_id, id),
    UNIQUE (user_id, record_id, trace, chunk)
);
CREATE INDEX search_keys_hash ON search_keys (user_id, content_hash);
CREATE INDEX search_keys_tsv ON search_keys USING gin (tsv);
CREATE INDEX search_keys_gloss ON search_keys USING gin (gloss_tsv) WHERE gloss_tsv IS NOT NULL;
CREATE TABLE sessions (
    user_id {ID} NOT NULL,
    session_id {ID} NOT NULL,
    started_at timestamptz NOT NULL,
    last_active_at timestamptz NOT NULL,
    ended_at timestamptz,
    extracted_seq integer NOT NULL DEFAULT -1,
    state jsonb NOT NULL DEFAULT '{{}}',
    PRIMARY KEY (user_id, session_id)
);
CREATE INDEX sessions_idle ON sessions (last_active_at) WHERE ended_at IS NULL;
CREATE TABLE extraction_pending (
    user_id {ID} NOT NULL,
    episode_id {ID} NOT NULL,
    since timestamptz NOT NULL,
    PRIMARY KEY (user_id, episode_id),
    FOREIGN KEY (user_id, episode_id) REFERENCES episodes (user_id, id) ON DELETE CASCADE
);
CREATE TABLE operations (
    user_id {ID} NOT NULL,
    id {ID} NOT NULL,
    created_at timestamptz NOT NULL,
    episode_ids text[] NOT NULL,
    error text,
    PRIMARY KEY (user_id, id)
);
CREATE TABLE api_keys (
    key_id {ID} PRIMARY KEY,
    key_hash text NOT NULL UNIQUE,
    user_id {ID},
    admin boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz,
    label text
);
ALTER TABLE api_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE api_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY api_keys_admin ON api_keys
    USING (current_setting('dualtrace.all_users', true) = 'on')
    WITH CHECK (current_setting('dualtrace.all_users', true) = 'on');
"""

# A key's text and gloss as written (its tsvectors cannot give them back): what a copy to
# another backend (`dualtrace migrate`) re-indexes; and the text's language
# (`store.languages.key_language`), which dense search offsets. Keys written before this
# have '' and 'en'.
_KEY_TEXTS = """
ALTER TABLE search_keys ADD COLUMN body text NOT NULL DEFAULT '';
ALTER TABLE search_keys ADD COLUMN gloss text NOT NULL DEFAULT '';
ALTER TABLE search_keys ADD COLUMN language text NOT NULL DEFAULT 'en'
"""


def _halfvec(conn: psycopg.Connection[tuple[object, ...]]) -> None:
    """Vectors as `halfvec` (float16): half the bytes in the table and in the HNSW graph, for
    a recall@50 of 0.999 against float32 (docs/benchmarks.md, "Scale"). A column already
    typed to the embedder's dimension keeps it; its index is rebuilt for the new type."""
    row = conn.execute(
        "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
        "WHERE attrelid = 'search_keys'::regclass AND attname = 'vector'"
    ).fetchone()
    typed = str(row[0]) if row is not None else "vector"
    if not typed.startswith("vector"):
        return
    half = "halfvec" + typed[len("vector") :]
    conn.execute("DROP INDEX IF EXISTS search_keys_hnsw")
    conn.execute(
        f"ALTER TABLE search_keys ALTER COLUMN vector TYPE {half} USING vector::{half}".encode()
    )
    dimensions = int(typed[len("vector(") : -1]) if typed.endswith(")") else 0
    if 0 < dimensions <= HNSW_MAX_DIM:
        conn.execute(HNSW_INDEX_SQL.encode())


# A migration is SQL statements separated by ";", or a function run in its transaction.
Migration = str | Callable[[psycopg.Connection[tuple[object, ...]]], None]

# The row-security test with each setting read once per statement (an InitPlan) rather than
# once per row: as written in 0001, a 10,000-key user's exact dense search spent ~10 ms and a
# count of their keys ~4 ms calling current_setting() (docs/notebook.md, "Scale").
_OWN_ROWS_ONCE = (
    "user_id = (SELECT current_setting('dualtrace.user_id', true)) "
    "OR (SELECT current_setting('dualtrace.all_users', true)) = 'on'"
)
_POLICIES_ONCE = "\n".join(
    f"DROP POLICY {t}_own_rows ON {t};\n"
    f"CREATE POLICY {t}_own_rows ON {t} USING ({_OWN_ROWS_ONCE}) WITH CHECK ({_OWN_ROWS_ONCE});"
    for t in USER_TABLES
)

MIGRATIONS: list[tuple[str, Migration]] = [
    ("0001_schema", _SCHEMA + "\n".join(_row_security(t) for t in USER_TABLES)),
    ("0002_key_texts", _KEY_TEXTS),
    ("0003_halfvec", _halfvec),
    ("0004_row_security_once", _POLICIES_ONCE),
    # big users search their own graphs (graphs.py); the shared index served no query, and
    # each insert paid to keep it up to date
    ("0005_own_graphs", "DROP INDEX IF EXISTS search_keys_hnsw"),
    # the valid memories of some predicates (the profile's read) by an index seek on
    # `valid_to IS NULL`, not a visit of every memory of those predicates, closed ones too
    (
        "0006_memories_predicate",
        "CREATE INDEX memories_predicate ON memories (user_id, predicate, valid_to)",
    ),
    # the cross-lingual embedder's vector of each key (`crosslingual_embedder`), which scores
    # it for a question in the other language; NULL: none yet (`Memory.maintain` adds them)
    ("0007_key_xvector", "ALTER TABLE search_keys ADD COLUMN IF NOT EXISTS xvector halfvec"),
]

LATEST = MIGRATIONS[-1][0]

# Advisory lock key under which migrations (and the embedder's index build) run.
MIGRATION_LOCK = 0x6475616C  # "dual"


def migrate(conn: psycopg.Connection[tuple[object, ...]]) -> list[str]:
    """Apply pending migrations in order; returns their names. `conn` is in autocommit
    mode; each migration is its own transaction."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(name text PRIMARY KEY, applied_at timestamptz NOT NULL)"
        )
    known = [name for name, _ in MIGRATIONS]
    applied = [str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations ORDER BY 1")]
    unknown = [name for name in applied if name not in known]
    if unknown:
        raise SchemaError(
            f"database has migrations this version does not know: {unknown}; "
            "upgrade dualtrace to open it"
        )
    done: list[str] = []
    for name, sql in MIGRATIONS:
        if name not in applied and _apply(conn, name, sql):
            done.append(name)
    return done


def _apply(conn: psycopg.Connection[tuple[object, ...]], name: str, sql: Migration) -> bool:
    """Apply one migration; False if another process applied it first."""
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            if conn.execute("SELECT 1 FROM schema_migrations WHERE name = %s", (name,)).fetchone():
                return False
            if callable(sql):
                sql(conn)
            else:
                for statement in (s.strip() for s in sql.split(";")):
                    if statement:
                        conn.execute(statement.encode())
            conn.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (%s, %s)",
                (name, datetime.now(UTC)),
            )
        return True
    except psycopg.errors.InsufficientPrivilege as exc:
        raise MigrationError(
            f"migration {name!r} needs a privilege the store's role lacks ({exc}); the "
            "database is unchanged. Have a superuser run `CREATE EXTENSION vector` in the "
            "database, and make the role the database's owner (or grant it CREATE)"
        ) from exc
    except psycopg.Error as exc:
        raise MigrationError(
            f"migration {name!r} failed: {exc}; the database is unchanged"
        ) from exc
