"""The CopyStore role in PostgreSQL: every row of a user as stored, page by page, and loading
such pages back (`dualtrace migrate` moves a store between backends with them).

As in the SQLite store (`store/sqlite/copy.py`, whose semantics this mirrors), pages are
read in keyset order over an index that starts with `user_id` — the columns after it, ending
in a unique one, so the order is total — and the cursor is the last row's sort values (as
JSON), so a page costs the same at the start of a big user as at its end. Each page is one
transaction scoped to its user (row-level security applies); API keys are global and read
as the other API-key methods read them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg

from dualtrace.errors import ConflictError, ValidationError
from dualtrace.models import ApiKey, AuditRow, Operation
from dualtrace.store.base import COPY_PARTS, EntityRow, IndexEntry, MemoryGraph, UserRows
from dualtrace.store.postgres import codec, lifecycle
from dualtrace.store.postgres import graph as graph_sql
from dualtrace.store.postgres.access import _key
from dualtrace.store.postgres.codec import Row
from dualtrace.store.postgres.connection import Cursor, PostgresConnection
from dualtrace.store.postgres.index import write_keys
from dualtrace.store.postgres.sessions import _row as session_row

# part -> (table, keyset columns after user_id with their types: an index on (user_id, ...))
PAGED: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "episodes": ("episodes", (("occurred_at", "timestamptz"), ("id", "text"))),  # episodes_time
    "pending": ("extraction_pending", (("episode_id", "text"),)),  # its primary key
    "memories": ("memories", (("kind", "text"), ("archived", "boolean"), ("id", "text"))),
    "keys": ("search_keys", (("id", "bigint"),)),  # its primary key
    "entities": ("memory_entities", (("entity_id", "text"), ("n", "bigint"))),
    "links": ("links", (("src_id", "text"), ("dst_id", "text"), ("kind", "text"))),  # pkey
    "history": ("history", (("record_id", "text"), ("id", "bigint"))),  # history_record
    "sessions": ("sessions", (("session_id", "text"),)),  # its primary key
    "operations": ("operations", (("id", "text"),)),  # its primary key
    "audit": ("audit_log", (("id", "bigint"),)),  # its primary key
}
assert tuple(PAGED) == COPY_PARTS

# text keyset columns compare byte by byte, as the tables' `C` collation sorts them
_CASTS = {
    "text": 'text COLLATE "C"',
    "timestamptz": "timestamptz",
    "boolean": "boolean",
    "bigint": "bigint",
}


class PostgresCopy(PostgresConnection):
    """CopyStore: page through a user's rows as stored, and load such rows back."""

    def embedder_binding(self) -> tuple[str, int] | None:
        """The (embedder id, dimensions) recorded on first use, or None."""
        rows = {r[0]: r[1] for r in self._read(None, "SELECT key, value FROM store_meta")}
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
        keyset = ", ".join(name for name, _ in order)
        extra = (
            ", vector::text AS vector_text, xvector::text AS xvector_text" if part == "keys" else ""
        )
        sql = f"SELECT *{extra} FROM {table} WHERE user_id = %s"
        params: list[Any] = [user_id]
        if after is not None:
            marks = ", ".join(f"%s::{_CASTS[kind]}" for _, kind in order)
            sql += f" AND ({keyset}) > ({marks})"
            params += json.loads(after)
        with self._tx(user_id) as cur:
            rows = cur.execute(
                f"{sql} ORDER BY {keyset} LIMIT %s".encode(), [*params, limit]
            ).fetchall()
            if not rows:
                return UserRows(), None
            page = _READERS[part](cur, user_id, rows)
        cursor = json.dumps([_jsonable(rows[-1][name]) for name, _ in order])
        return page, cursor if len(rows) == limit else None

    def load_rows(self, user_id: str, rows: UserRows) -> list[int]:
        """Write the rows as read (ids, times, vectors kept) in one transaction."""
        try:
            with self._tx(user_id, write=True) as cur:
                _load_records(cur, user_id, rows)
                write_keys(cur, user_id, rows.keys)
                graph_sql.write_graph(cur, user_id, MemoryGraph(rows.entities, rows.links))
                history = [
                    lifecycle.history_detail(
                        cur,
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
                _load_bookkeeping(cur, user_id, rows)
        except psycopg.IntegrityError as exc:
            raise ConflictError(
                f"user {user_id!r}: a row to load is already stored or cites a row that is "
                f"not ({str(exc).strip()}); load into a store that does not hold this user"
            ) from exc
        return history

    def api_key_rows(self) -> list[tuple[ApiKey, str]]:
        """Every API key with its stored hash, oldest first."""
        rows = self._read(None, "SELECT * FROM api_keys ORDER BY created_at, key_id")
        return [(_key(r), str(r["key_hash"])) for r in rows]


def _jsonable(value: Any) -> Any:
    """A keyset value for the JSON cursor (a timestamp as its ISO text, exact to the µs)."""
    return value.isoformat() if isinstance(value, datetime) else value


def _load_records(cur: Cursor, user_id: str, rows: UserRows) -> None:
    """Episodes, pending marks, memories and their sources, as they were."""
    if rows.episodes:
        cur.executemany(
            "INSERT INTO episodes (id, user_id, agent_id, session_id, seq, role, speaker, text, "
            "occurred_at, occurred_tz, recorded_at, external_id, metadata, content_hash) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
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
                    e.occurred_at,
                    codec.utc_offset_seconds(e.occurred_at),
                    e.recorded_at,
                    e.external_id,
                    codec.jsonb(e.metadata),
                    e.content_hash,
                )
                for e in rows.episodes
            ],
        )
    if rows.pending:
        cur.executemany(
            "INSERT INTO extraction_pending (user_id, episode_id, since) VALUES (%s, %s, %s)",
            [(user_id, episode_id, since) for episode_id, since in rows.pending],
        )
    marks = ", ".join(["%s"] * len(codec.MEMORY_COLUMNS.split(",")))
    for m in rows.memories:
        assert m.recorded_at is not None  # every stored memory has one
        cur.execute(
            f"INSERT INTO memories ({codec.MEMORY_COLUMNS}) VALUES ({marks})".encode(),
            codec.memory_params(m, user_id, m.recorded_at),
        )
        if m.source_episode_ids:
            cur.executemany(
                "INSERT INTO memory_sources (user_id, memory_id, episode_id) VALUES (%s, %s, %s)",
                [(user_id, m.id, ep) for ep in m.source_episode_ids],
            )


def _load_bookkeeping(cur: Cursor, user_id: str, rows: UserRows) -> None:
    """Sessions, operations and audit rows, as they were."""
    if rows.sessions:
        cur.executemany(
            "INSERT INTO sessions (user_id, session_id, started_at, last_active_at, ended_at, "
            "extracted_seq, state) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    user_id,
                    s.session_id,
                    s.started_at,
                    s.last_active_at,
                    s.ended_at,
                    s.extracted_seq,
                    codec.jsonb(s.state),
                )
                for s in rows.sessions
            ],
        )
    if rows.operations:
        cur.executemany(
            "INSERT INTO operations (user_id, id, created_at, episode_ids, error) "
            "VALUES (%s, %s, %s, %s, %s)",
            [(user_id, o.id, o.created_at, list(o.episode_ids), o.error) for o in rows.operations],
        )
    if rows.audit:
        cur.executemany(
            "INSERT INTO audit_log (user_id, at, actor, action, target_id, detail) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            [
                (user_id, a.at, a.actor, a.action, a.target_id, codec.jsonb(a.detail))
                for a in rows.audit
            ],
        )


# -- reading a page's rows into UserRows --------------------------------------------------------

Rows = Sequence[Row]


def _episodes(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    return UserRows(episodes=tuple(codec.episode_from_row(r) for r in rows))


def _pending(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    return UserRows(pending=tuple((r["episode_id"], codec.utc_required(r["since"])) for r in rows))


def _memories(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    sources: dict[str, list[str]] = {}
    for memory_id, episode_id in cur.execute(
        "SELECT memory_id, episode_id FROM memory_sources WHERE user_id = %s "
        "AND memory_id = ANY(%s) ORDER BY n",
        (user_id, [r["id"] for r in rows]),
    ).fetchall():
        sources.setdefault(memory_id, []).append(episode_id)
    return UserRows(
        memories=tuple(codec.memory_from_row(r, tuple(sources.get(r["id"], []))) for r in rows)
    )


def _keys(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    return UserRows(
        keys=tuple(
            IndexEntry(
                record_id=r["record_id"],
                trace=r["trace"],
                kind=r["kind"],
                session_id=r["session_id"],
                body=r["body"],
                content_hash=r["content_hash"],
                chunk=r["chunk"],
                gloss=r["gloss"],
                vector=None
                if r["vector_text"] is None
                else codec.vector_from_text(r["vector_text"]),
                xvector=None
                if r["xvector_text"] is None
                else codec.vector_from_text(r["xvector_text"]),
                language=r["language"],
            )
            for r in rows
        )
    )


def _entities(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    found = {
        e["id"]: EntityRow(e["name"], e["norm_name"], e["type"], e["canonical"])
        for e in cur.execute(
            "SELECT id, name, norm_name, type, COALESCE(canonical_norm, norm_name) AS canonical "
            "FROM entities WHERE user_id = %s AND id = ANY(%s)",
            (user_id, sorted({r["entity_id"] for r in rows})),
        ).fetchall()
    }
    return UserRows(entities=tuple((r["memory_id"], found[r["entity_id"]]) for r in rows))


def _links(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    return UserRows(
        links=tuple((r["src_id"], r["dst_id"], r["kind"], float(r["weight"])) for r in rows)
    )


def _history(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    return UserRows(history=tuple(lifecycle.entry_from_row(r) for r in rows))


def _sessions(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    return UserRows(sessions=tuple(session_row(r) for r in rows))


def _operations(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    return UserRows(
        operations=tuple(
            Operation(
                id=r["id"],
                user_id=user_id,
                created_at=codec.utc_required(r["created_at"]),
                episode_ids=tuple(r["episode_ids"]),
                pending=0,
                error=r["error"],
            )
            for r in rows
        )
    )


def _audit(cur: Cursor, user_id: str, rows: Rows) -> UserRows:
    return UserRows(
        audit=tuple(
            AuditRow(
                at=codec.utc_required(r["at"]),
                actor=r["actor"],
                action=r["action"],
                target_id=r["target_id"],
                detail=r["detail"] or {},
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
