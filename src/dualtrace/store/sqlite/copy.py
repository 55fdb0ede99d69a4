"""The CopyStore role in SQLite: every row of a user as stored, page by page, and loading
such pages back (`dualtrace migrate` moves a store between backends with them).

Pages are read in keyset order over an index that starts with `user_id` (the cursor is the
last row's sort values and rowid, as JSON), so a page costs the same at the start of a big
user as at its end, and paging one user never walks the others' rows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from dualtrace.errors import ConflictError, ValidationError
from dualtrace.models import ApiKey, AuditRow, Operation
from dualtrace.store.base import COPY_PARTS, EntityRow, IndexEntry, MemoryGraph, UserRows
from dualtrace.store.sqlite import codec, lifecycle
from dualtrace.store.sqlite import graph as graph_sql
from dualtrace.store.sqlite.access import _key
from dualtrace.store.sqlite.connection import SQLiteConnection
from dualtrace.store.sqlite.index import write_keys
from dualtrace.store.sqlite.sessions import _row as session_row

# part -> (table, sort columns after user_id: the columns of an index on (user_id, ...))
PAGED: dict[str, tuple[str, tuple[str, ...]]] = {
    "episodes": ("episodes", ("occurred_at",)),  # episodes_time
    "pending": ("extraction_pending", ()),  # extraction_pending_user
    "memories": ("memories", ("kind", "archived")),  # memories_user
    "keys": ("search_keys", ()),  # search_keys_user (its id is the rowid)
    "entities": ("memory_entities", ("entity_id",)),  # memory_entities_entity
    "links": ("links", ("dst_id",)),  # links_user
    "history": ("history", ("record_id",)),  # history_record: a record's entries in order
    "sessions": ("sessions", ("session_id",)),  # its primary key
    "operations": ("operations", ("created_at",)),  # operations_user
    "audit": ("audit_log", ()),  # audit_user
}
assert tuple(PAGED) == COPY_PARTS


class SQLiteCopy(SQLiteConnection):
    """CopyStore: page through a user's rows as stored, and load such rows back."""

    def embedder_binding(self) -> tuple[str, int] | None:
        """The (embedder id, dimensions) recorded on first use, or None."""
        rows = {r[0]: r[1] for r in self._read("SELECT key, value FROM store_meta")}
        if "embedder_id" not in rows:
            return None
        return str(rows["embedder_id"]), int(rows["embedder_dim"])

    def copy_page(
        self, user_id: str, part: str, after: str | None, limit: int
    ) -> tuple[UserRows, str | None]:
        """Up to `limit` of the user's rows of `part`, after the cursor `after`."""
        if part not in PAGED:
            raise ValidationError(f"part={part!r} is not one of {list(COPY_PARTS)}")
        table, order = PAGED[part]
        keyset = ", ".join((*order, "rowid"))
        sql = f"SELECT rowid AS _r, * FROM {table} WHERE user_id = ?"
        params: list[Any] = [user_id]
        if after is not None:
            sql += f" AND ({keyset}) > ({','.join('?' * (len(order) + 1))})"
            params += json.loads(after)
        rows = self._read(f"{sql} ORDER BY {keyset} LIMIT ?", [*params, limit])
        if not rows:
            return UserRows(), None
        cursor = json.dumps([rows[-1][c] for c in order] + [rows[-1]["_r"]])
        with self._lock:
            page = _READERS[part](self._conn, user_id, rows)
        return page, cursor if len(rows) == limit else None

    def load_rows(self, user_id: str, rows: UserRows) -> list[int]:
        """Write the rows as read (ids, times, vectors kept) in one transaction."""
        try:
            with self._tx() as conn:
                _load_records(conn, user_id, rows)
                write_keys(conn, user_id, rows.keys)
                graph_sql.write_graph(conn, user_id, MemoryGraph(rows.entities, rows.links))
                history = [
                    lifecycle.history_detail(
                        conn,
                        user_id,
                        h.record_id,
                        h.event,
                        h.old_text,
                        h.new_text,
                        h.at,
                        h.actor,
                        h.detail,
                    )
                    for h in rows.history
                ]
                _load_bookkeeping(conn, user_id, rows)
        except sqlite3.IntegrityError as exc:
            raise ConflictError(
                f"user {user_id!r}: a row to load is already stored or cites a row that is "
                f"not ({exc}); load into a store that does not hold this user"
            ) from exc
        return history

    def api_key_rows(self) -> list[tuple[ApiKey, str]]:
        """Every API key with its stored hash, oldest first."""
        rows = self._read("SELECT * FROM api_keys ORDER BY created_at, key_id")
        return [(_key(r), str(r["key_hash"])) for r in rows]


def _load_records(conn: sqlite3.Connection, user_id: str, rows: UserRows) -> None:
    """Episodes, pending marks, memories and their sources, as they were."""
    conn.executemany(
        "INSERT INTO episodes (id, user_id, agent_id, session_id, seq, role, speaker, text, "
        "occurred_at, occurred_tz, recorded_at, external_id, metadata, content_hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                e.id,
                user_id,
                e.agent_id,
                e.session_id,
                e.seq,
                e.role,
                e.speaker,
                e.text,
                codec.ts(e.occurred_at),
                codec.utc_offset_seconds(e.occurred_at),
                codec.ts(e.recorded_at),
                e.external_id,
                json.dumps(e.metadata, ensure_ascii=False),
                e.content_hash,
            )
            for e in rows.episodes
        ],
    )
    conn.executemany(
        "INSERT INTO extraction_pending (episode_id, user_id, since) VALUES (?, ?, ?)",
        [(episode_id, user_id, codec.ts(since)) for episode_id, since in rows.pending],
    )
    marks = ",".join("?" * len(codec.MEMORY_COLUMNS.split(",")))
    for m in rows.memories:
        assert m.recorded_at is not None  # every stored memory has one
        conn.execute(
            f"INSERT INTO memories ({codec.MEMORY_COLUMNS}) VALUES ({marks})",
            codec.memory_params(m, m.recorded_at),
        )
        conn.executemany(
            "INSERT INTO memory_sources (user_id, memory_id, episode_id) VALUES (?, ?, ?)",
            [(user_id, m.id, ep) for ep in m.source_episode_ids],
        )


def _load_bookkeeping(conn: sqlite3.Connection, user_id: str, rows: UserRows) -> None:
    """Sessions, operations and audit rows, as they were."""
    conn.executemany(
        "INSERT INTO sessions (user_id, session_id, started_at, last_active_at, ended_at, "
        "extracted_seq, state) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                user_id,
                s.session_id,
                codec.ts(s.started_at),
                codec.ts(s.last_active_at),
                codec.ts(s.ended_at),
                s.extracted_seq,
                json.dumps(s.state, ensure_ascii=False),
            )
            for s in rows.sessions
        ],
    )
    conn.executemany(
        "INSERT INTO operations (id, user_id, created_at, episode_ids, error) "
        "VALUES (?, ?, ?, ?, ?)",
        [
            (o.id, user_id, codec.ts(o.created_at), json.dumps(list(o.episode_ids)), o.error)
            for o in rows.operations
        ],
    )
    conn.executemany(
        "INSERT INTO audit_log (user_id, at, actor, action, target_id, detail) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [
            (
                user_id,
                codec.ts(a.at),
                a.actor,
                a.action,
                a.target_id,
                json.dumps(a.detail, ensure_ascii=False),
            )
            for a in rows.audit
        ],
    )


# -- reading a page's rows into UserRows --------------------------------------------------------

Rows = Sequence[sqlite3.Row]


def _episodes(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    return UserRows(episodes=tuple(codec.episode_from_row(r) for r in rows))


def _pending(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    return UserRows(pending=tuple((r["episode_id"], codec.dt_required(r["since"])) for r in rows))


def _memories(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    ids = json.dumps([r["id"] for r in rows])
    sources: dict[str, list[str]] = {}
    for memory_id, episode_id in conn.execute(
        "SELECT memory_id, episode_id FROM memory_sources WHERE +user_id = ? "
        "AND memory_id IN (SELECT value FROM json_each(?)) ORDER BY rowid",
        (user_id, ids),
    ):
        sources.setdefault(memory_id, []).append(episode_id)
    return UserRows(
        memories=tuple(codec.memory_from_row(r, tuple(sources.get(r["id"], []))) for r in rows)
    )


def _keys(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    ids = json.dumps([r["id"] for r in rows])
    texts: dict[str, dict[int, str]] = {}
    for table, column in (("fts", "body"), ("fts_gloss", "gloss")):
        texts[column] = dict(
            conn.execute(
                f"SELECT rowid, {column} FROM {table} WHERE rowid IN "
                "(SELECT value FROM json_each(?))",
                (ids,),
            ).fetchall()
        )
    return UserRows(
        keys=tuple(
            IndexEntry(
                record_id=r["record_id"],
                trace=r["trace"],
                kind=r["kind"],
                session_id=r["session_id"],
                body=texts["body"].get(r["id"], ""),
                content_hash=r["content_hash"],
                chunk=r["chunk"],
                vector=None if r["vector"] is None else codec.unblob(r["vector"], r["dim"]).copy(),
                gloss=texts["gloss"].get(r["id"], ""),
                xvector=None if r["xvector"] is None else codec.half_many([r["xvector"]])[0][0],
                language=r["language"] or "",
            )
            for r in rows
        )
    )


def _entities(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    ids = json.dumps(sorted({r["entity_id"] for r in rows}))
    found = {
        e["id"]: EntityRow(e["name"], e["norm_name"], e["type"], e["canonical"])
        for e in conn.execute(
            "SELECT id, name, norm_name, type, COALESCE(canonical_norm, norm_name) AS canonical "
            "FROM entities WHERE +user_id = ? AND id IN (SELECT value FROM json_each(?))",
            (user_id, ids),
        )
    }
    return UserRows(entities=tuple((r["memory_id"], found[r["entity_id"]]) for r in rows))


def _links(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    return UserRows(
        links=tuple((r["src_id"], r["dst_id"], r["kind"], float(r["weight"])) for r in rows)
    )


def _history(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    return UserRows(history=tuple(lifecycle.entry_from_row(r) for r in rows))


def _sessions(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    return UserRows(sessions=tuple(session_row(r) for r in rows))


def _operations(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    return UserRows(
        operations=tuple(
            Operation(
                id=r["id"],
                user_id=user_id,
                created_at=codec.dt_required(r["created_at"]),
                episode_ids=tuple(json.loads(r["episode_ids"])),
                pending=0,
                error=r["error"],
            )
            for r in rows
        )
    )


def _audit(conn: sqlite3.Connection, user_id: str, rows: Rows) -> UserRows:
    return UserRows(
        audit=tuple(
            AuditRow(
                at=codec.dt_required(r["at"]),
                actor=r["actor"],
                action=r["action"],
                target_id=r["target_id"],
                detail=json.loads(r["detail"] or "{}"),
            )
            for r in rows
        )
    )


_READERS = {
    "episodes": _episodes,
    "pending": _pending,
    "memories": _memories,
    "keys": _keys,
    "entities": _entities,
    "links": _links,
    "history": _history,
    "sessions": _sessions,
    "operations": _operations,
    "audit": _audit,
}
