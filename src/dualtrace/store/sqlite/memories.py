"""The MemoryStore role in SQLite: memories, any record's text and history, undoable changes.

The consolidation and undo SQL is in lifecycle.py (what it decides: store/memory_changes.py);
this mixin owns their transactions, the search keys that change with a memory's text, and the
audit rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from dualtrace.errors import NotFoundError
from dualtrace.models import HistoryEntry, MemoryRecord
from dualtrace.store import memory_changes
from dualtrace.store.base import IndexEntry, MemoryChange, MemoryGraph
from dualtrace.store.sqlite import codec, lifecycle
from dualtrace.store.sqlite import graph as graph_sql
from dualtrace.store.sqlite.connection import CHUNK, SQLiteConnection, now
from dualtrace.store.sqlite.index import bump, drop_keys, write_keys
from dualtrace.store.sqlite.survivors import surviving
from dualtrace.store.write_rules import MemoryWrite


class SQLiteMemories(SQLiteConnection):
    """MemoryStore: write and read memories, edit records, walk and undo their history."""

    def insert_memories(
        self,
        user_id: str,
        memories: Sequence[MemoryRecord],
        keys: Sequence[IndexEntry],
        actor: str,
        graph: MemoryGraph | None = None,
        changes: Sequence[MemoryChange] = (),
        extracted: Sequence[str] = (),
    ) -> bool:
        """Store memories, sources, search keys, entities and links, then apply the
        consolidation `changes` to stored memories — all in one transaction, which also
        clears the extraction-pending mark of the `extracted` turns. If one of those is no
        longer marked (another process stored its memories first), nothing is written and
        False is returned.

        What cites a record deleted since extraction began is left out (see survivors.py).
        """
        marks = ",".join("?" * len(codec.MEMORY_COLUMNS.split(",")))
        with self._tx() as conn:
            at = now()  # taken under the write lock, so history stays in time order
            if extracted and not memory_changes.clear_pending(
                lifecycle.SQLiteLifecycleRows(conn), user_id, extracted
            ):
                return False
            write = surviving(conn, user_id, MemoryWrite(memories, keys, graph, changes))
            memories, keys, graph, changes = write.memories, write.keys, write.graph, write.changes
            for m in memories:
                conn.execute(
                    f"INSERT INTO memories ({codec.MEMORY_COLUMNS}) VALUES ({marks})",
                    codec.memory_params(m, at),
                )
                conn.executemany(
                    "INSERT INTO memory_sources (user_id, memory_id, episode_id) VALUES (?, ?, ?)",
                    [(user_id, m.id, ep) for ep in m.source_episode_ids],
                )
                self._history(conn, user_id, m.id, "ADD", None, m.text, actor, at)
                self._audit(conn, user_id, actor, "add_memory", m.id, {"kind": m.kind})
            write_keys(conn, user_id, keys)
            if graph is not None:
                graph_sql.write_graph(conn, user_id, graph)
            self._apply_changes(conn, user_id, changes, at, actor)
            if any(c.keys for c in changes):  # a merged memory's old text leaves the file
                self._mark_scrub(conn)
        self._scrub()
        return True

    def _apply_changes(
        self,
        conn: sqlite3.Connection,
        user_id: str,
        changes: Sequence[MemoryChange],
        at: datetime,
        actor: str,
    ) -> None:
        for change in changes:
            memory_changes.apply_change(
                lifecycle.SQLiteLifecycleRows(conn), user_id, change, at, actor
            )
            if change.keys:  # MERGE: the memory's text changed
                drop_keys(conn, user_id, change.memory_id)
                write_keys(conn, user_id, change.keys)
            self._audit(
                conn,
                user_id,
                actor,
                change.action.lower(),
                change.memory_id,
                {"by": change.by_id} if change.by_id else {},
            )

    def get_memories(self, user_id: str, ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Memories by id, with their source episode ids."""
        if len(ids) > CHUNK:
            return {
                k: v
                for i in range(0, len(ids), CHUNK)
                for k, v in self.get_memories(user_id, ids[i : i + CHUNK]).items()
            }
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

    def memories_by_subject(
        self, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
    ) -> list[MemoryRecord]:
        """Valid memories with one of these predicates and subjects (case-insensitive)."""
        with self._lock:
            ids = lifecycle.subject_rows(self._conn, user_id, subjects, predicates)
        found = self.get_memories(user_id, ids)
        return [found[i] for i in ids if i in found]

    def memories_by_predicate(
        self,
        user_id: str,
        predicates: Sequence[str],
        *,
        include_invalid: bool = False,
        status: str | None = None,
    ) -> list[MemoryRecord]:
        """Memories with one of these predicates, any subject, oldest first (valid ones
        only unless `include_invalid`; never archived ones; with `status`, only those whose
        metadata's "status" is it)."""
        with self._lock:
            ids = lifecycle.predicate_rows(self._conn, user_id, predicates, include_invalid, status)
        found = self.get_memories(user_id, ids)
        return [found[i] for i in ids if i in found]

    # -- records (episode or memory ids) ------------------------------------------------------

    def record_kinds(self, user_id: str, ids: Sequence[str]) -> dict[str, str]:
        """The kind of each id that exists for this user ('episode' or a memory kind)."""
        return self._kinds(user_id, ids)

    def taken_ids(self, ids: Sequence[str]) -> set[str]:
        """Which of these ids a stored episode or memory of any user holds."""
        taken: set[str] = set()
        for i in range(0, len(ids), CHUNK):
            part = ids[i : i + CHUNK]
            marks = ",".join("?" * len(part))
            rows = self._read(
                f"SELECT id FROM episodes WHERE id IN ({marks}) "
                f"UNION SELECT id FROM memories WHERE id IN ({marks})",
                [*part, *part],
            )
            taken.update(r[0] for r in rows)
        return taken

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
            drop_keys(conn, user_id, record_id)
            write_keys(conn, user_id, keys)
            self._history(conn, user_id, record_id, "UPDATE", old, text, actor)
            self._audit(conn, user_id, actor, "update", record_id)
        return str(old)

    # -- history and undo -----------------------------------------------------------------------

    def history(self, user_id: str, record_id: str) -> list[HistoryEntry]:
        """Every change to a record, oldest first."""
        self._require(user_id, record_id)
        rows = self._read(
            "SELECT * FROM history WHERE user_id = ? AND record_id = ? ORDER BY id",
            (user_id, record_id),
        )
        return [lifecycle.entry_from_row(r) for r in rows]

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
            memory_changes.revert(lifecycle.SQLiteLifecycleRows(conn), user_id, entry, now(), actor)
            if keys:
                drop_keys(conn, user_id, entry.record_id)
                write_keys(conn, user_id, keys)
            self._audit(
                conn,
                user_id,
                actor,
                "revert",
                entry.record_id,
                {"history_id": entry.id, "event": entry.event},
            )
            if keys:
                self._mark_scrub(conn)
        self._scrub()

    def superseded_by(self, user_id: str, memory_id: str) -> list[HistoryEntry]:
        """The SUPERSEDE entries (not undone) that closed memories in favour of this one."""
        with self._lock:
            return lifecycle.superseded_by(self._conn, user_id, memory_id)

    # -- importance and archive -----------------------------------------------------------------

    def reinforce(
        self,
        user_id: str,
        memory_ids: Sequence[str],
        at: datetime,
        update: Callable[[float, int], float],
    ) -> None:
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
            if mean + (pending + gained) / max(count, 1) <= lifecycle.MAX_MEAN_IMPORTANCE:
                self._means[user_id] = (count, mean, pending + gained)
                return
        count, mean = conn.execute(
            "SELECT COUNT(*), AVG(importance) FROM memories WHERE user_id = ?", (user_id,)
        ).fetchone()
        if count >= lifecycle.MIN_MEMORIES_TO_NORMALISE and mean > lifecycle.MAX_MEAN_IMPORTANCE:
            conn.execute(
                "UPDATE memories SET importance = importance * ? WHERE user_id = ?",
                (lifecycle.NORMALISED_MEAN_IMPORTANCE / mean, user_id),
            )
            mean = lifecycle.NORMALISED_MEAN_IMPORTANCE
        self._means[user_id] = (int(count), float(mean or 0.0), 0.0)

    def archive_memories(self, user_id: str, ids: Sequence[str], reason: str, actor: str) -> int:
        """Take memories out of default search (restorable); returns how many changed."""
        if not ids:
            return 0
        with self._tx() as conn:
            count = memory_changes.archive(
                lifecycle.SQLiteLifecycleRows(conn), user_id, ids, reason, now(), actor
            )
            if count:
                self._audit(
                    conn, user_id, actor, "archive", None, {"count": count, "reason": reason}
                )
                bump(conn, user_id)
        return count

    def restore_memory(self, user_id: str, memory_id: str, actor: str) -> bool:
        """Bring an archived memory back; False if it was not archived."""
        self._require(user_id, memory_id)
        with self._tx() as conn:
            done = memory_changes.restore(
                lifecycle.SQLiteLifecycleRows(conn), user_id, memory_id, now(), actor
            )
            if done:
                self._audit(conn, user_id, actor, "restore", memory_id)
                bump(conn, user_id)
        return done
