"""SQLiteStore: the embedded default — one file, WAL, foreign keys, FTS5, exact dense search."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dualtrace.errors import EmbedderMismatchError, NotFoundError, StoreError
from dualtrace.models import Candidate, Episode, HistoryEntry, MemoryRecord, SessionRow
from dualtrace.store.base import (
    EntityRow,
    IndexEntry,
    MemoryChange,
    MemoryGraph,
    SearchScope,
    Vector,
)
from dualtrace.store.sqlite import codec, lifecycle
from dualtrace.store.sqlite import graph as graph_sql
from dualtrace.store.sqlite import sessions as session_sql
from dualtrace.store.sqlite.migrations import migrate
from dualtrace.store.sqlite.search import (
    DenseIndex,
    allowed_ids,
    in_window,
    lexical_search,
    scope_token,
)

# Tables holding per-user rows, children first (deletion order).
USER_TABLES = (
    "memory_entities", "memory_sources", "links", "entities", "history", "search_keys",
    "memories", "episodes", "index_versions", "sessions",
)  # fmt: skip


# Entity hits whose links the structural channel follows (one hop), best first.
HOP_SOURCES = 20

# Ids per `IN (...)` list: far below SQLite builds' variable limit (32,766 on many).
CHUNK = 500

# Reinforcement raises importance; once a user's mean passes this, all are scaled back
# (a mean over a handful of memories says nothing about inflation).
MAX_MEAN_IMPORTANCE = 0.7
MIN_MEMORIES_TO_NORMALISE = 10
NORMALISED_MEAN_IMPORTANCE = 0.5


def _now() -> datetime:
    return datetime.now(UTC)


class SQLiteStore:
    """A Store in one SQLite file. Thread-safe through one connection and a lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=30
            )
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(
                f"cannot open SQLite file {str(path)!r}: {exc}; check the path and permissions"
            ) from exc
        self._conn.row_factory = sqlite3.Row
        for pragma in (
            "journal_mode = WAL",
            "foreign_keys = ON",
            "secure_delete = ON",
            "synchronous = NORMAL",
        ):
            self._conn.execute(f"PRAGMA {pragma}")
        self._lock = threading.RLock()
        self._local = threading.local()  # each thread's read connection (see _reading)
        self._readers: list[sqlite3.Connection] = []
        self._dense = DenseIndex()
        # per user: (memories, mean importance when measured, importance gained since)
        self._means: dict[str, tuple[int, float, float]] = {}
        with self._lock:
            migrate(self._conn)

    # -- plumbing -------------------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; rolled back entirely on any error."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A connection for the search channels: this thread's own read-only connection, so
        that channels run at once (WAL lets readers proceed beside each other and a writer);
        the shared one, under the lock, for an in-memory database."""
        if str(self.path) == ":memory:":
            with self._lock:
                yield self._conn
            return
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=30,
                                   check_same_thread=False)  # fmt: skip
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA query_only = ON")
            self._local.conn = conn
            with self._lock:
                self._readers.append(conn)
        yield conn

    def close(self) -> None:
        """Checkpoint the WAL and close the file (and the search threads' connections)."""
        with self._lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.close()

    @staticmethod
    def _audit(
        conn: sqlite3.Connection, user_id: str, actor: str, action: str, target: str | None,
        detail: dict[str, Any] | None = None,
    ) -> None:  # fmt: skip
        conn.execute(
            "INSERT INTO audit_log (user_id, at, actor, action, target_id, detail) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (user_id, codec.ts(_now()), actor, action, target, json.dumps(detail or {})),
        )

    @staticmethod
    def _history(
        conn: sqlite3.Connection, user_id: str, record_id: str, event: str,
        old: str | None, new: str | None, actor: str,
    ) -> None:  # fmt: skip
        conn.execute(
            "INSERT INTO history (user_id, record_id, event, old_text, new_text, at, actor) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (user_id, record_id, event, old, new, codec.ts(_now()), actor),
        )

    def _write_keys(
        self, conn: sqlite3.Connection, user_id: str, keys: Sequence[IndexEntry]
    ) -> None:
        if not keys:
            return
        token = scope_token(user_id)
        for key in keys:
            vector = None if key.vector is None else codec.blob(key.vector)
            dim = None if key.vector is None else int(key.vector.shape[0])
            cur = conn.execute(
                "INSERT INTO search_keys (user_id, record_id, trace, kind, session_id, "
                "content_hash, embedder_id, dim, vector) VALUES (?, ?, ?, ?, ?, ?, "
                "(SELECT value FROM store_meta WHERE key = 'embedder_id'), ?, ?)",
                (user_id, key.record_id, key.trace, key.kind, key.session_id,
                 key.content_hash, dim, vector),
            )  # fmt: skip
            conn.execute(
                "INSERT INTO fts (rowid, scope, body, user_id) VALUES (?, ?, ?, ?)",
                (cur.lastrowid, token, key.body, user_id),
            )
        self._bump(conn, user_id)

    def _drop_keys(self, conn: sqlite3.Connection, user_id: str, record_id: str) -> None:
        conn.execute(
            "DELETE FROM fts WHERE rowid IN "
            "(SELECT id FROM search_keys WHERE user_id = ? AND record_id = ?)",
            (user_id, record_id),
        )
        conn.execute(
            "DELETE FROM search_keys WHERE user_id = ? AND record_id = ?", (user_id, record_id)
        )
        self._bump(conn, user_id)

    def _bump(self, conn: sqlite3.Connection, user_id: str) -> None:
        # Versions come from one store-wide counter, so a user deleted and re-created never
        # repeats a version another process may still have cached.
        conn.execute(
            "INSERT INTO store_meta (key, value) VALUES ('index_seq', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )
        conn.execute(
            "INSERT INTO index_versions (user_id, version) VALUES (?, "
            "(SELECT CAST(value AS INTEGER) FROM store_meta WHERE key = 'index_seq')) "
            "ON CONFLICT(user_id) DO UPDATE SET version = excluded.version",
            (user_id,),
        )
        # the dense cache notices the new version and reads only what changed

    # -- embedder binding -----------------------------------------------------------------

    def bind_embedder(self, embedder_id: str, dimensions: int) -> None:
        """Record the embedder on first use; refuse a different one afterwards."""
        with self._tx() as conn:
            rows = dict(conn.execute("SELECT key, value FROM store_meta").fetchall())
            if "embedder_id" not in rows:
                conn.executemany(
                    "INSERT INTO store_meta (key, value) VALUES (?, ?)",
                    [("embedder_id", embedder_id), ("embedder_dim", str(dimensions))],
                )
                return
        stored_id, stored_dim = rows["embedder_id"], int(rows["embedder_dim"])
        if stored_id != embedder_id or stored_dim != dimensions:
            raise EmbedderMismatchError(
                f"this store's vectors come from embedder {stored_id!r} ({stored_dim} dims), "
                f"but it was opened with {embedder_id!r} ({dimensions} dims); open it with "
                "the same embedder, or use a new store file"
            )

    # -- episodes -------------------------------------------------------------------------

    def episode_ids_by_external(self, user_id: str, external_ids: Sequence[str]) -> dict[str, str]:
        """Map ids already stored (as external ids, or as episode ids) to episode ids."""
        found: dict[str, str] = {}
        for start in range(0, len(external_ids), 500):
            chunk = list(external_ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            by_external = self._read(
                f"SELECT external_id, id FROM episodes WHERE user_id = ? "
                f"AND external_id IN ({marks})",
                [user_id, *chunk],
            )
            by_id = self._read(
                f"SELECT id, id FROM episodes WHERE +user_id = ? AND id IN ({marks})",
                [user_id, *chunk],
            )
            found.update({key: eid for key, eid in by_id})
            found.update({key: eid for key, eid in by_external})
        return found

    def next_seq(self, user_id: str, session_id: str | None) -> int:
        """The next turn number in a session (0 for a new one)."""
        rows = self._read(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM episodes WHERE user_id = ? AND session_id IS ?",
            (user_id, session_id),
        )
        return int(rows[0][0])

    def vectors_by_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, Vector]:
        """Vectors this user already has for these content hashes (reuse, never re-embed)."""
        found: dict[str, Vector] = {}
        for start in range(0, len(hashes), 500):
            chunk = list(hashes[start : start + 500])
            rows = self._read(
                f"SELECT content_hash, dim, vector FROM search_keys WHERE user_id = ? "
                f"AND vector IS NOT NULL AND content_hash IN ({','.join('?' * len(chunk))})",
                [user_id, *chunk],
            )
            found.update({r[0]: codec.unblob(r[2], r[1]) for r in rows})
        return found

    def insert_episodes(
        self, user_id: str, episodes: Sequence[Episode], keys: Sequence[IndexEntry], actor: str
    ) -> list[Episode]:
        """Store episodes and their search keys in one transaction; returns them as stored.

        Seq numbers are checked inside the transaction: if another process added turns to
        the session since `next_seq` was read, these follow them.
        """
        with self._tx() as conn:
            episodes = self._after_last(conn, user_id, episodes)
            for e in episodes:
                conn.execute(
                    "INSERT INTO episodes (id, user_id, agent_id, session_id, seq, role, speaker, "
                    "text, occurred_at, occurred_tz, recorded_at, external_id, metadata, "
                    "content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (e.id, user_id, e.agent_id, e.session_id, e.seq, e.role, e.speaker, e.text,
                     codec.ts(e.occurred_at), codec.utc_offset_seconds(e.occurred_at),
                     codec.ts(e.recorded_at), e.external_id,
                     json.dumps(e.metadata, ensure_ascii=False), e.content_hash),
                )  # fmt: skip
                self._history(conn, user_id, e.id, "ADD", None, e.text, actor)
            self._write_keys(conn, user_id, keys)
            if episodes:
                self._audit(conn, user_id, actor, "add_episodes", None, {"count": len(episodes)})
        return list(episodes)

    @staticmethod
    def _after_last(
        conn: sqlite3.Connection, user_id: str, episodes: Sequence[Episode]
    ) -> Sequence[Episode]:
        if not episodes:
            return episodes
        first = episodes[0]
        (following,) = conn.execute(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM episodes WHERE user_id = ? AND session_id IS ?",
            (user_id, first.session_id),
        ).fetchone()
        if following <= first.seq:
            return episodes
        shift = following - first.seq
        return [replace(e, seq=e.seq + shift) for e in episodes]

    def get_episodes(self, user_id: str, ids: Sequence[str]) -> dict[str, Episode]:
        """Episodes by id (missing ids are simply absent)."""
        found: dict[str, Episode] = {}
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            rows = self._read(
                f"SELECT * FROM episodes WHERE +user_id = ? AND id IN ({marks})",
                [user_id, *chunk],
            )
            found.update({r["id"]: codec.episode_from_row(r) for r in rows})
        return found

    def iter_episodes(self, user_id: str) -> Iterator[Episode]:
        """All of a user's episodes in time order."""
        rows = self._read(
            "SELECT * FROM episodes WHERE user_id = ? ORDER BY occurred_at, session_id, seq",
            (user_id,),
        )
        for row in rows:
            yield codec.episode_from_row(row)

    # -- memories -------------------------------------------------------------------------

    def insert_memories(
        self,
        user_id: str,
        memories: Sequence[MemoryRecord],
        keys: Sequence[IndexEntry],
        actor: str,
        graph: MemoryGraph | None = None,
        changes: Sequence[MemoryChange] = (),
    ) -> None:
        """Store memories, sources, search keys, entities and links, then apply the
        consolidation `changes` to stored memories — all in one transaction."""
        now = _now()
        marks = ",".join("?" * len(codec.MEMORY_COLUMNS.split(",")))
        with self._tx() as conn:
            for m in memories:
                conn.execute(
                    f"INSERT INTO memories ({codec.MEMORY_COLUMNS}) VALUES ({marks})",
                    codec.memory_params(m, now),
                )
                conn.executemany(
                    "INSERT INTO memory_sources (user_id, memory_id, episode_id) VALUES (?, ?, ?)",
                    [(user_id, m.id, ep) for ep in m.source_episode_ids],
                )
                self._history(conn, user_id, m.id, "ADD", None, m.text, actor)
                self._audit(conn, user_id, actor, "add_memory", m.id, {"kind": m.kind})
            self._write_keys(conn, user_id, keys)
            if graph is not None:
                graph_sql.write_graph(conn, user_id, graph)
            for change in changes:
                lifecycle.apply_change(conn, user_id, change, now, actor)
                if change.keys:  # MERGE: the memory's text changed
                    self._drop_keys(conn, user_id, change.memory_id)
                    self._write_keys(conn, user_id, change.keys)
                self._audit(conn, user_id, actor, change.action.lower(), change.memory_id,
                            {"by": change.by_id} if change.by_id else {})  # fmt: skip
        if any(c.keys for c in changes):  # a merged memory's old text leaves the file
            self._scrub(vacuum=False)

    def recent_episodes(
        self, user_id: str, session_id: str | None, before_seq: int, limit: int
    ) -> list[Episode]:
        """The session's turns just before `before_seq`, oldest first."""
        rows = self._read(
            "SELECT * FROM episodes WHERE user_id = ? AND session_id IS ? AND seq < ? "
            "ORDER BY seq DESC LIMIT ?",
            (user_id, session_id, before_seq, limit),
        )
        return [codec.episode_from_row(r) for r in reversed(rows)]

    def memory_ids_by_fact_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, str]:
        """Existing memories whose fact trace has one of these content hashes."""
        if not hashes:
            return {}
        rows = self._read(
            f"SELECT content_hash, record_id FROM search_keys WHERE user_id = ? "
            f"AND trace = 'fact' AND content_hash IN ({','.join('?' * len(hashes))})",
            [user_id, *hashes],
        )
        return {r[0]: r[1] for r in rows}

    def entity_rows(self, user_id: str) -> list[EntityRow]:
        """Every entity the user's memories mention."""
        with self._lock:
            return graph_sql.entity_rows(self._conn, user_id)

    def set_canonical(self, user_id: str, canonical: dict[str, str]) -> None:
        """Re-point entities (norm → canonical norm) after an alias was learned."""
        with self._tx() as conn:
            graph_sql.set_canonical(conn, user_id, canonical)

    def related_memories(
        self, user_id: str, canonicals: Sequence[str], exclude: Sequence[str], limit: int
    ) -> list[tuple[str, int]]:
        """Memories sharing these canonical entities: (memory id, shared count), best first."""
        with self._lock:
            return graph_sql.related(self._conn, user_id, canonicals, exclude, limit)

    def related_memories_many(
        self, user_id: str, groups: Sequence[Sequence[str]], exclude: Sequence[str], limit: int
    ) -> list[list[tuple[str, int]]]:
        """`related_memories` for several groups of entities at once (each entity read once)."""
        with self._lock:
            return graph_sql.related_many(self._conn, user_id, groups, exclude, limit)

    def get_memories(self, user_id: str, ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Memories by id, with their source episode ids."""
        if len(ids) > CHUNK:
            return {k: v for i in range(0, len(ids), CHUNK)
                    for k, v in self.get_memories(user_id, ids[i : i + CHUNK]).items()}  # fmt: skip
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._read(
            f"SELECT {codec.MEMORY_COLUMNS} FROM memories WHERE +user_id = ? AND id IN ({marks})",
            [user_id, *ids],
        )
        sources: dict[str, list[str]] = {}
        for r in self._read(
            f"SELECT memory_id, episode_id FROM memory_sources WHERE +user_id = ? "
            f"AND memory_id IN ({marks})",
            [user_id, *ids],
        ):
            sources.setdefault(r[0], []).append(r[1])
        return {r["id"]: codec.memory_from_row(r, tuple(sources.get(r["id"], []))) for r in rows}

    def memories_by_subject(
        self, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
    ) -> list[MemoryRecord]:
        """Valid memories with one of these predicates and subjects (case-insensitive)."""
        with self._lock:
            ids = lifecycle.subject_rows(self._conn, user_id, subjects, predicates)
        found = self.get_memories(user_id, ids)
        return [found[i] for i in ids if i in found]

    def history_entry(self, user_id: str, history_id: int) -> HistoryEntry:
        """One history entry of this user's (NotFoundError if there is none)."""
        with self._lock:
            entry = lifecycle.history_entry(self._conn, user_id, history_id)
        if entry is None:
            raise NotFoundError(
                f"no history entry {history_id!r} for user {user_id!r}; see a record's entries "
                "with Memory.history(id, user_id=...) or `dualtrace history ID --user ...`"
            )
        return entry

    def revert_change(
        self, user_id: str, entry: HistoryEntry, keys: Sequence[IndexEntry], actor: str
    ) -> None:
        """Undo a REINFORCE, MERGE or SUPERSEDE entry (MERGE: `keys` index the old text)."""
        with self._tx() as conn:
            lifecycle.revert(conn, user_id, entry, _now(), actor)
            if keys:
                self._drop_keys(conn, user_id, entry.record_id)
                self._write_keys(conn, user_id, keys)
            self._audit(conn, user_id, actor, "revert", entry.record_id,
                        {"history_id": entry.id, "event": entry.event})  # fmt: skip
        if keys:
            self._scrub(vacuum=False)

    def superseded_by(self, user_id: str, memory_id: str) -> list[HistoryEntry]:
        """The SUPERSEDE entries (not undone) that closed memories in favour of this one."""
        with self._lock:
            return lifecycle.superseded_by(self._conn, user_id, memory_id)

    # -- maintenance ----------------------------------------------------------------------

    def user_ids(self) -> list[str]:
        """Every user with stored turns or memories."""
        with self._lock:
            return lifecycle.user_ids(self._conn)

    def expired_memories(self, user_id: str, now: datetime) -> list[str]:
        """Ids of memories in default search whose expire_at has passed."""
        with self._lock:
            return lifecycle.expired_ids(self._conn, user_id, now)

    def memory_usage(self, user_id: str) -> list[tuple[str, float, datetime]]:
        """(id, importance, last used) of the memories in default search."""
        with self._lock:
            return lifecycle.usage_rows(self._conn, user_id)

    def archive_memories(self, user_id: str, ids: Sequence[str], reason: str, actor: str) -> int:
        """Take memories out of default search (restorable); returns how many changed."""
        if not ids:
            return 0
        with self._tx() as conn:
            count = lifecycle.archive(conn, user_id, ids, reason, _now(), actor)
            if count:
                self._audit(conn, user_id, actor, "archive", None,
                            {"count": count, "reason": reason})  # fmt: skip
                self._bump(conn, user_id)
        return count

    def restore_memory(self, user_id: str, memory_id: str, actor: str) -> bool:
        """Bring an archived memory back; False if it was not archived."""
        self._require(user_id, memory_id)
        with self._tx() as conn:
            done = lifecycle.restore(conn, user_id, memory_id, _now(), actor)
            if done:
                self._audit(conn, user_id, actor, "restore", memory_id)
                self._bump(conn, user_id)
        return done

    def normalise_importance(self, user_id: str) -> bool:
        """Scale the user's importances back if their mean inflated; True if it did."""
        with self._tx() as conn:
            return lifecycle.normalise_importance(
                conn, user_id, MAX_MEAN_IMPORTANCE, NORMALISED_MEAN_IMPORTANCE,
                MIN_MEMORIES_TO_NORMALISE,
            )  # fmt: skip

    def unlinked_memories(self, user_id: str, limit: int) -> list[tuple[str, list[str]]]:
        """Memories with entities but no links: (id, canonical entities), newest first."""
        with self._lock:
            return lifecycle.unlinked(self._conn, user_id, limit)

    def add_links(self, user_id: str, links: Sequence[tuple[str, str, str, float]]) -> None:
        """Insert links (src id, dst id, kind, weight); existing ones are kept."""
        if links:
            with self._tx() as conn:
                graph_sql.write_graph(conn, user_id, MemoryGraph(links=tuple(links)))

    # -- records (episode or memory) -------------------------------------------------------

    def record_kinds(self, user_id: str, ids: Sequence[str]) -> dict[str, str]:
        """The kind of each id that exists for this user ('episode' or a memory kind)."""
        if len(ids) > CHUNK:
            return {k: v for i in range(0, len(ids), CHUNK)
                    for k, v in self.record_kinds(user_id, ids[i : i + CHUNK]).items()}  # fmt: skip
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._read(
            f"SELECT id, 'episode' FROM episodes WHERE +user_id = ? AND id IN ({marks}) "
            f"UNION ALL SELECT id, kind FROM memories WHERE +user_id = ? AND id IN ({marks})",
            [user_id, *ids, user_id, *ids],
        )
        return {r[0]: r[1] for r in rows}

    def _require(self, user_id: str, record_id: str) -> str:
        kind = self.record_kinds(user_id, [record_id]).get(record_id)
        if kind is None:
            raise NotFoundError(
                f"no record {record_id!r} for user {user_id!r}; list the user's ids with "
                "Memory.get_all(user_id=...) or `dualtrace list --user ...`"
            )
        return kind

    def list_records(
        self, user_id: str, kinds: tuple[str, ...] | None, include_invalid: bool, limit: int | None
    ) -> list[str]:
        """Ids of a user's records, newest first."""
        mem_where = "" if include_invalid else " AND invalidated_at IS NULL AND archived = 0"
        sql = (
            "SELECT id, 'episode' AS kind, occurred_at AS t FROM episodes WHERE user_id = ? "
            "UNION ALL SELECT id, kind, COALESCE(valid_from, recorded_at) AS t FROM memories "
            f"WHERE user_id = ?{mem_where}"
        )
        params: list[Any] = [user_id, user_id]
        sql = f"SELECT id FROM ({sql})"
        if kinds is not None:
            sql += f" WHERE kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        sql += " ORDER BY t DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [r[0] for r in self._read(sql, params)]

    def update_text(
        self, user_id: str, record_id: str, text: str, keys: Sequence[IndexEntry], actor: str
    ) -> str:
        """Replace a record's text and search keys; returns the old text."""
        kind = self._require(user_id, record_id)
        table = "episodes" if kind == "episode" else "memories"
        with self._tx() as conn:
            old = conn.execute(
                f"SELECT text FROM {table} WHERE user_id = ? AND id = ?", (user_id, record_id)
            ).fetchone()[0]
            conn.execute(
                f"UPDATE {table} SET text = ? WHERE user_id = ? AND id = ?",
                (text, user_id, record_id),
            )
            self._drop_keys(conn, user_id, record_id)
            self._write_keys(conn, user_id, keys)
            self._history(conn, user_id, record_id, "UPDATE", old, text, actor)
            self._audit(conn, user_id, actor, "update", record_id)
        return str(old)

    def replace_keys(self, user_id: str, record_id: str, keys: Sequence[IndexEntry]) -> None:
        """Rebuild a record's search keys (its text unchanged) and scrub the old ones."""
        with self._tx() as conn:
            self._drop_keys(conn, user_id, record_id)
            self._write_keys(conn, user_id, keys)
        self._scrub(vacuum=False)

    def next_episode(self, user_id: str, episode_id: str) -> Episode | None:
        """The turn right after this one in its session, if any."""
        rows = self._read(
            "SELECT n.* FROM episodes e JOIN episodes n ON n.user_id = e.user_id "
            "AND n.session_id IS e.session_id AND n.seq > e.seq "
            "WHERE e.user_id = ? AND e.id = ? ORDER BY n.seq LIMIT 1",
            (user_id, episode_id),
        )
        return codec.episode_from_row(rows[0]) if rows else None

    def sessions_with_role(self, user_id: str, session_ids: Sequence[str], role: str) -> set[str]:
        """Those of these sessions in which a turn of `role` was said (e.g. "assistant")."""
        if not session_ids:
            return set()
        rows = self._read(
            "SELECT DISTINCT session_id FROM episodes WHERE user_id = ? AND role = ? "
            "AND session_id IN (SELECT value FROM json_each(?))",
            (user_id, role, json.dumps(sorted(set(session_ids)))),
        )
        return {row[0] for row in rows}

    def delete_record(self, user_id: str, record_id: str, actor: str) -> None:
        """Delete one record, its keys, links and history, and scrub it from the file."""
        kind = self._require(user_id, record_id)
        with self._tx() as conn:
            self._drop_keys(conn, user_id, record_id)
            conn.execute(
                "DELETE FROM history WHERE user_id = ? AND record_id = ?", (user_id, record_id)
            )
            if kind == "episode":
                self._delete_episode(conn, user_id, record_id)
            else:
                conn.execute(
                    "DELETE FROM memories WHERE user_id = ? AND id = ?", (user_id, record_id)
                )
            graph_sql.drop_unused_entities(conn, user_id)
            self._audit(conn, user_id, actor, "delete", record_id, {"kind": kind})
        self._scrub(vacuum=False)

    def _delete_episode(self, conn: sqlite3.Connection, user_id: str, episode_id: str) -> None:
        # A memory whose only source is this episode would cite nothing: it goes too.
        self._delete_orphans(conn, user_id, episode_id)
        conn.execute("DELETE FROM episodes WHERE user_id = ? AND id = ?", (user_id, episode_id))

    def _delete_orphans(self, conn: sqlite3.Connection, user_id: str, episode_id: str) -> list[str]:
        orphans = [
            r[0]
            for r in conn.execute(
                "SELECT memory_id FROM memory_sources s WHERE user_id = ? AND episode_id = ? "
                "AND NOT EXISTS (SELECT 1 FROM memory_sources o WHERE o.memory_id = s.memory_id "
                "AND o.episode_id != s.episode_id)",
                (user_id, episode_id),
            )
        ]
        for memory_id in orphans:
            self._drop_keys(conn, user_id, memory_id)
            conn.execute(
                "DELETE FROM history WHERE user_id = ? AND record_id = ?", (user_id, memory_id)
            )
            conn.execute("DELETE FROM memories WHERE user_id = ? AND id = ?", (user_id, memory_id))
        return orphans

    def delete_derived(self, user_id: str, episode_id: str, actor: str) -> list[str]:
        """Delete the memories that only this episode supports (before re-deriving them)."""
        with self._tx() as conn:
            gone = self._delete_orphans(conn, user_id, episode_id)
            graph_sql.drop_unused_entities(conn, user_id)
            if gone:
                self._audit(
                    conn, user_id, actor, "delete_derived", episode_id, {"count": len(gone)}
                )
        if gone:
            self._scrub(vacuum=False)
        return gone

    def delete_user(self, user_id: str, actor: str) -> dict[str, int]:
        """Delete every row of a user (audit log aside) and scrub the file; returns counts."""
        counts: dict[str, int] = {}
        with self._tx() as conn:
            conn.execute(
                "DELETE FROM fts WHERE rowid IN (SELECT id FROM search_keys WHERE user_id = ?)",
                (user_id,),
            )
            for table in USER_TABLES:
                cur = conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
                counts[table] = cur.rowcount
            self._audit(conn, user_id, actor, "forget_user", None, counts)
        self._dense.invalidate(user_id)
        self._means.pop(user_id, None)
        self._scrub(vacuum=True)
        return counts

    def _scrub(self, *, vacuum: bool) -> None:
        """Make deleted text unrecoverable: merge FTS segments, empty the WAL, maybe VACUUM."""
        with self._lock:
            self._conn.execute("INSERT INTO fts (fts) VALUES ('optimize')")
            if vacuum:
                self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def history(self, user_id: str, record_id: str) -> list[HistoryEntry]:
        """Every change to a record, oldest first."""
        self._require(user_id, record_id)
        rows = self._read(
            "SELECT * FROM history WHERE user_id = ? AND record_id = ? ORDER BY id",
            (user_id, record_id),
        )
        return [lifecycle.entry_from_row(r) for r in rows]

    def audit_entries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit log, oldest first (no memory text is ever written there)."""
        rows = self._read("SELECT * FROM audit_log WHERE user_id = ? ORDER BY id", (user_id,))
        return [dict(r) | {"detail": json.loads(r["detail"])} for r in rows]

    def count_records(self, user_id: str) -> dict[str, int]:
        """Row counts of every per-user table."""
        return {
            t: int(self._read(f"SELECT COUNT(*) FROM {t} WHERE user_id = ?", (user_id,))[0][0])
            for t in (*USER_TABLES, "audit_log")
        }

    # -- search ---------------------------------------------------------------------------

    def search_dense(
        self, user_id: str, vector: Vector, limit: int, scope: SearchScope
    ) -> list[Candidate]:
        """Nearest keys by cosine similarity, filtered by scope."""
        with self._reading() as conn:
            found = self._dense.search(conn, user_id, vector, limit, scope)
            return self._admit(conn, user_id, found, limit, scope)

    def search_dense_many(
        self, user_id: str, vectors: Sequence[Vector], limit: int, scope: SearchScope
    ) -> list[list[Candidate]]:
        """`search_dense` for several vectors at once (one pass over the user's vectors)."""
        with self._reading() as conn:
            found = self._dense.search_many(conn, user_id, vectors, limit, scope)
            return [self._admit(conn, user_id, f, limit, scope) for f in found]

    def search_lexical(
        self, user_id: str, terms: Sequence[str], limit: int, scope: SearchScope
    ) -> list[Candidate]:
        """BM25 matches for the terms, filtered by scope."""
        with self._reading() as conn:
            found = lexical_search(conn, user_id, terms, limit, scope)
            return self._admit(conn, user_id, found, limit, scope)

    def search_entities(
        self, user_id: str, canonicals: Sequence[str], limit: int, scope: SearchScope,
        max_share: float = 0.2,
    ) -> list[Candidate]:  # fmt: skip
        """Memories of these entities, scored by the entities' rarity (idf), filtered by scope."""
        with self._reading() as conn:
            found = graph_sql.search_entities(conn, user_id, canonicals, limit, max_share)
            found += self._one_hop(conn, user_id, found)
            return self._admit(conn, user_id, found, limit, scope)

    def search_time(
        self, user_id: str, start: datetime, end: datetime, limit: int, scope: SearchScope,
        among: Sequence[str] = (),
    ) -> list[Candidate]:  # fmt: skip
        """Records that happened in [start, end) (episodes said then, memories valid from
        then): those of `among` first, then up to `limit` more, newest first. A busy window
        holds more records than `limit`; `among` makes sure the candidates the other
        channels found are judged by their time, not by whether they were among the newest."""
        lo, hi = codec.ts(start), codec.ts(end)
        with self._reading() as conn:
            inside = [
                Candidate(i, "time", 1.0) for i in in_window(conn, user_id, among, start, end)
            ]
            rows = conn.execute(
                "SELECT id, t FROM (SELECT id, occurred_at AS t FROM episodes WHERE user_id = ? "
                "AND occurred_at >= ? AND occurred_at < ? UNION ALL SELECT id, valid_from AS t "
                "FROM memories WHERE user_id = ? AND valid_from >= ? AND valid_from < ?) "
                "ORDER BY t DESC LIMIT ?",
                (user_id, lo, hi, user_id, lo, hi, limit * 3),
            ).fetchall()
            known = {c.record_id for c in inside}
            newest = [Candidate(r[0], "time", 1.0) for r in rows if r[0] not in known]
            return self._admit(conn, user_id, inside + newest, len(inside) + limit, scope)

    def reinforce(
        self, user_id: str, memory_ids: Sequence[str], at: datetime,
        update: Callable[[float, int], float],
    ) -> None:  # fmt: skip
        """Recalled memories get `update(importance, access_count)`; the mean can't inflate."""
        if not memory_ids:
            return
        marks = ",".join("?" * len(memory_ids))
        with self._tx() as conn:
            rows = conn.execute(
                f"SELECT id, importance, access_count FROM memories WHERE +user_id = ? "
                f"AND id IN ({marks})",
                [user_id, *memory_ids],
            ).fetchall()
            updates = [(update(r[1], r[2]), codec.ts(at), user_id, r[0]) for r in rows]
            conn.executemany(
                "UPDATE memories SET importance = ?, access_count = access_count + 1, "
                "last_accessed_at = ? WHERE user_id = ? AND id = ?",
                updates,
            )
            gained = sum(new - r[1] for (new, *_), r in zip(updates, rows, strict=True))
            self._check_mean(conn, user_id, gained)

    def _check_mean(self, conn: sqlite3.Connection, user_id: str, gained: float) -> None:
        """Scale the user's importances back once their mean passes MAX_MEAN_IMPORTANCE.

        Averaging every memory after every search costs a scan of the user's rows, so this
        process tracks an upper bound (the mean when last measured plus what its recalls
        added since) and measures only when the bound could pass the limit.
        """
        known = self._means.get(user_id)
        if known is not None:
            count, mean, pending = known
            if mean + (pending + gained) / max(count, 1) <= MAX_MEAN_IMPORTANCE:
                self._means[user_id] = (count, mean, pending + gained)
                return
        count, mean = conn.execute(
            "SELECT COUNT(*), AVG(importance) FROM memories WHERE user_id = ?", (user_id,)
        ).fetchone()
        if count >= MIN_MEMORIES_TO_NORMALISE and mean > MAX_MEAN_IMPORTANCE:
            conn.execute(
                "UPDATE memories SET importance = importance * ? WHERE user_id = ?",
                (NORMALISED_MEAN_IMPORTANCE / mean, user_id),
            )
            mean = NORMALISED_MEAN_IMPORTANCE
        self._means[user_id] = (int(count), float(mean or 0.0), 0.0)

    def _one_hop(
        self, conn: sqlite3.Connection, user_id: str, found: list[Candidate]
    ) -> list[Candidate]:
        """Memories linked to the entity hits, at half their score (one hop along links)."""
        score = {c.record_id: c.score for c in found[:HOP_SOURCES]}
        already = {c.record_id for c in found}
        hop: dict[str, float] = {}
        for src, dst, _ in graph_sql.neighbours(conn, user_id, list(score)):
            if dst not in already:
                hop[dst] = max(hop.get(dst, 0.0), 0.5 * score[src])
        return [Candidate(mid, "link", value) for mid, value in hop.items()]

    @staticmethod
    def _admit(
        conn: sqlite3.Connection, user_id: str, found: list[Candidate], limit: int,
        scope: SearchScope,
    ) -> list[Candidate]:  # fmt: skip
        ok = allowed_ids(conn, user_id, [c.record_id for c in found], scope)
        return [c for c in found if c.record_id in ok][:limit]

    # -- sessions ---

    def touch_session(self, user_id: str, session_id: str, at: datetime) -> None:
        """Create a session row (started at `at`) or move its last activity forward."""
        with self._tx() as conn:
            session_sql.touch(conn, user_id, session_id, at)

    def get_session(self, user_id: str, session_id: str) -> SessionRow | None:
        """A session's bookkeeping row, or None if this user has no such session."""
        with self._lock:
            return session_sql.get(self._conn, user_id, session_id)

    def set_session_extracted(self, user_id: str, session_id: str, seq: int) -> None:
        """Record that the session's turns up to `seq` are in long-term memory."""
        with self._tx() as conn:
            session_sql.set_extracted(conn, user_id, session_id, seq)

    def end_session(self, user_id: str, session_id: str, at: datetime, reason: str) -> bool:
        """Mark an open session ended; False if it was already ended or does not exist."""
        with self._tx() as conn:
            return session_sql.end(conn, user_id, session_id, at, reason)

    def idle_sessions(self, before: datetime) -> list[tuple[str, str]]:
        """(user id, session id) of open sessions, of every user, last active before `before`."""
        with self._lock:
            return session_sql.idle(self._conn, before)

    def session_episodes(self, user_id: str, session_id: str, after_seq: int) -> list[Episode]:
        """The session's turns with seq > `after_seq`, in order."""
        with self._lock:
            return session_sql.episodes_after(self._conn, user_id, session_id, after_seq)
