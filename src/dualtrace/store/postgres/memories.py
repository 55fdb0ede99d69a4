"""The MemoryStore role in PostgreSQL: memories, any record's text and history, undoable changes.

The consolidation and undo SQL is in lifecycle.py (what it decides: store/memory_changes.py);
this mixin owns their transactions, the search keys that change with a memory's text, and the
audit rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from dualtrace.errors import NotFoundError
from dualtrace.models import HistoryEntry, MemoryRecord
from dualtrace.store import memory_changes
from dualtrace.store.base import IndexEntry, MemoryChange, MemoryGraph
from dualtrace.store.postgres import codec, lifecycle
from dualtrace.store.postgres import graph as graph_sql
from dualtrace.store.postgres.connection import Cursor, PostgresConnection, now
from dualtrace.store.postgres.index import drop_keys, write_keys
from dualtrace.store.postgres.survivors import surviving
from dualtrace.store.write_rules import MemoryWrite

_INSERT_MEMORY = (
    f"INSERT INTO memories ({codec.MEMORY_COLUMNS}) VALUES "
    f"({', '.join(['%s'] * len(codec.MEMORY_COLUMNS.split(',')))})"
)


class PostgresMemories(PostgresConnection):
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
        consolidation `changes` — one transaction, which also clears the extraction-pending
        mark of the `extracted` turns (False, nothing written, if one is no longer marked).
        What cites a record deleted since extraction began is left out (survivors.py)."""
        with self._tx(user_id, write=True) as cur:
            at = now()  # taken under the write lock, so history stays in time order
            if extracted and not memory_changes.clear_pending(
                lifecycle.PostgresLifecycleRows(cur), user_id, extracted
            ):
                return False
            write = surviving(cur, user_id, MemoryWrite(memories, keys, graph, changes))
            cur.executemany(
                _INSERT_MEMORY, [codec.memory_params(m, user_id, at) for m in write.memories]
            )
            sources = [(user_id, m.id, e) for m in write.memories for e in m.source_episode_ids]
            if sources:
                cur.executemany(
                    "INSERT INTO memory_sources (user_id, memory_id, episode_id) "
                    "VALUES (%s, %s, %s)",
                    sources,
                )
            for m in write.memories:
                self._history(cur, user_id, m.id, "ADD", None, m.text, actor, at)
                self._audit(cur, user_id, actor, "add_memory", m.id, {"kind": m.kind})
            write_keys(cur, user_id, write.keys)
            if write.graph is not None:
                graph_sql.write_graph(cur, user_id, write.graph)
            self._apply_changes(cur, user_id, write.changes, at, actor)
            scrub = any(c.keys for c in write.changes)  # a merged memory's old text goes
            if scrub:
                self._mark_scrub(cur)
        if scrub:
            self._scrub()
        return True

    def _apply_changes(
        self,
        cur: Cursor,
        user_id: str,
        changes: Sequence[MemoryChange],
        at: datetime,
        actor: str,
    ) -> None:
        for change in changes:
            memory_changes.apply_change(
                lifecycle.PostgresLifecycleRows(cur), user_id, change, at, actor
            )
            if change.keys:  # MERGE: the memory's text changed
                drop_keys(cur, user_id, change.memory_id)
                write_keys(cur, user_id, change.keys)
            self._audit(
                cur,
                user_id,
                actor,
                change.action.lower(),
                change.memory_id,
                {"by": change.by_id} if change.by_id else {},
            )

    def get_memories(self, user_id: str, ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Memories by id, with their source episode ids."""
        if not ids:
            return {}
        with self._tx(user_id) as cur:
            return _memories(cur, user_id, ids)

    def memory_ids_by_fact_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, str]:
        """Existing memories whose fact trace has one of these content hashes."""
        if not hashes:
            return {}
        rows = self._read(
            user_id,
            "SELECT content_hash, record_id FROM search_keys WHERE user_id = %s "
            "AND trace = 'fact' AND content_hash = ANY(%s) ORDER BY id",
            (user_id, list(hashes)),
        )
        return {r[0]: r[1] for r in rows}

    def memories_by_subject(
        self, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
    ) -> list[MemoryRecord]:
        """Valid memories with one of these predicates and subjects (case-insensitive)."""
        with self._tx(user_id) as cur:
            ids = lifecycle.subject_rows(cur, user_id, subjects, predicates)
            found = _memories(cur, user_id, ids)
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
        with self._tx(user_id) as cur:
            ids = lifecycle.predicate_rows(cur, user_id, predicates, include_invalid, status)
            found = _memories(cur, user_id, ids)
        return [found[i] for i in ids if i in found]

    # -- records (episode or memory ids) ------------------------------------------------------

    def record_kinds(self, user_id: str, ids: Sequence[str]) -> dict[str, str]:
        """The kind of each id that exists for this user ('episode' or a memory kind)."""
        return self._kinds(user_id, ids)

    def taken_ids(self, ids: Sequence[str]) -> set[str]:
        """Which of these ids a stored episode or memory of any user holds."""
        if not ids:
            return set()
        rows = self._read(  # every user's rows, deliberately: ids are unique in the store
            None,
            "SELECT id FROM episodes WHERE id = ANY(%s) UNION SELECT id FROM memories "
            "WHERE id = ANY(%s)",
            (list(ids), list(ids)),
        )
        return {r[0] for r in rows}

    def list_records(
        self, user_id: str, kinds: tuple[str, ...] | None, include_invalid: bool, limit: int | None
    ) -> list[str]:
        """Ids of a user's records, newest first."""
        mem_where = "" if include_invalid else " AND invalidated_at IS NULL AND NOT archived"
        sql = (
            "SELECT id FROM (SELECT id, 'episode' AS kind, occurred_at AS t FROM episodes "
            "WHERE user_id = %s UNION ALL SELECT id, kind, COALESCE(valid_from, recorded_at) "
            f"FROM memories WHERE user_id = %s{mem_where}) r WHERE %s::text[] IS NULL "
            "OR kind = ANY(%s) ORDER BY t DESC, id DESC LIMIT %s"
        )
        kind_list = None if kinds is None else list(kinds)
        rows = self._read(user_id, sql, (user_id, user_id, kind_list, kind_list, limit))
        return [r[0] for r in rows]

    def update_text(
        self, user_id: str, record_id: str, text: str, keys: Sequence[IndexEntry], actor: str
    ) -> str:
        """Replace a record's text and search keys; returns the old text."""
        kind = self._require(user_id, record_id)
        table = "episodes" if kind == "episode" else "memories"
        with self._tx(user_id, write=True) as cur:
            row = cur.execute(
                f"SELECT text FROM {table} WHERE user_id = %s AND id = %s FOR UPDATE".encode(),
                (user_id, record_id),
            ).fetchone()
            if row is None:
                raise NotFoundError(f"record {record_id!r} of user {user_id!r} is gone")
            cur.execute(
                f"UPDATE {table} SET text = %s WHERE user_id = %s AND id = %s".encode(),
                (text, user_id, record_id),
            )
            drop_keys(cur, user_id, record_id)
            write_keys(cur, user_id, keys)
            self._history(cur, user_id, record_id, "UPDATE", row[0], text, actor)
            self._audit(cur, user_id, actor, "update", record_id)
        return str(row[0])

    # -- history and undo -----------------------------------------------------------------------

    def history(self, user_id: str, record_id: str) -> list[HistoryEntry]:
        """Every change to a record, oldest first."""
        self._require(user_id, record_id)
        rows = self._read(
            user_id,
            "SELECT * FROM history WHERE user_id = %s AND record_id = %s ORDER BY id",
            (user_id, record_id),
        )
        return [lifecycle.entry_from_row(r) for r in rows]

    def history_entry(self, user_id: str, history_id: int) -> HistoryEntry:
        """One history entry of this user's (NotFoundError if there is none)."""
        with self._tx(user_id) as cur:
            entry = lifecycle.history_entry(cur, user_id, history_id)
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
        with self._tx(user_id, write=True) as cur:
            memory_changes.revert(
                lifecycle.PostgresLifecycleRows(cur), user_id, entry, now(), actor
            )
            if keys:
                drop_keys(cur, user_id, entry.record_id)
                write_keys(cur, user_id, keys)
                self._mark_scrub(cur)
            self._audit(
                cur,
                user_id,
                actor,
                "revert",
                entry.record_id,
                {"history_id": entry.id, "event": entry.event},
            )
        if keys:
            self._scrub()

    def superseded_by(self, user_id: str, memory_id: str) -> list[HistoryEntry]:
        """The SUPERSEDE entries (not undone) that closed memories in favour of this one."""
        with self._tx(user_id) as cur:
            return lifecycle.superseded_by(cur, user_id, memory_id)

    # -- importance and archive -----------------------------------------------------------------

    def reinforce(
        self,
        user_id: str,
        memory_ids: Sequence[str],
        at: datetime,
        update: Callable[[float, int], float],
    ) -> None:
        """Recalled memories get `update(importance, access_count)`; the mean can't inflate
        (scaled back in the same transaction once it passes the limit)."""
        if not memory_ids:
            return
        with self._tx(user_id, write=True) as cur:
            rows = cur.execute(
                "SELECT id, importance, access_count FROM memories WHERE user_id = %s "
                "AND id = ANY(%s) FOR UPDATE",
                (user_id, list(memory_ids)),
            ).fetchall()
            updates = [(update(r[1], r[2]), at, user_id, r[0]) for r in rows]
            cur.executemany(
                "UPDATE memories SET importance = %s, access_count = access_count + 1, "
                "last_accessed_at = %s WHERE user_id = %s AND id = %s",
                updates,
            )
            gained = sum(u[0] - r[1] for u, r in zip(updates, rows, strict=True))
            self._check_mean(cur, user_id, gained)

    def _check_mean(self, cur: Cursor, user_id: str, gained: float) -> None:
        """Scale the user's importances back once their mean passes the limit. As in the
        SQLite store, this handle tracks an upper bound (the mean when last measured plus
        what its recalls added since) and scans the user's memories only when the bound
        could pass the limit; other processes' recalls are seen at the next measurement."""
        count, mean, pending = self._means.get(user_id, (0, 0.0, float("inf")))
        if mean + (pending + gained) / max(count, 1) <= lifecycle.MAX_MEAN_IMPORTANCE:
            self._means[user_id] = (count, mean, pending + gained)
            return
        rescale_importance(cur, user_id)
        row = cur.execute(
            "SELECT count(*), COALESCE(avg(importance), 0) FROM memories WHERE user_id = %s",
            (user_id,),
        ).fetchone()
        self._means[user_id] = (int(row[0]), float(row[1]), 0.0) if row else (0, 0.0, 0.0)

    def archive_memories(self, user_id: str, ids: Sequence[str], reason: str, actor: str) -> int:
        """Take memories out of default search (restorable); returns how many changed."""
        if not ids:
            return 0
        with self._tx(user_id, write=True) as cur:
            count = memory_changes.archive(
                lifecycle.PostgresLifecycleRows(cur), user_id, ids, reason, now(), actor
            )
            if count:
                self._audit(
                    cur, user_id, actor, "archive", None, {"count": count, "reason": reason}
                )
        return count

    def restore_memory(self, user_id: str, memory_id: str, actor: str) -> bool:
        """Bring an archived memory back; False if it was not archived."""
        self._require(user_id, memory_id)
        with self._tx(user_id, write=True) as cur:
            done = memory_changes.restore(
                lifecycle.PostgresLifecycleRows(cur), user_id, memory_id, now(), actor
            )
            if done:
                self._audit(cur, user_id, actor, "restore", memory_id)
        return done


def _memories(cur: Cursor, user_id: str, ids: Sequence[str]) -> dict[str, MemoryRecord]:
    """Memories by id with their sources, read in the caller's transaction."""
    if not ids:
        return {}
    rows = cur.execute(
        f"SELECT {codec.MEMORY_COLUMNS} FROM memories WHERE user_id = %s AND id = ANY(%s)".encode(),
        (user_id, list(ids)),
    ).fetchall()
    sources: dict[str, list[str]] = {}
    for r in cur.execute(
        "SELECT memory_id, episode_id FROM memory_sources WHERE user_id = %s "
        "AND memory_id = ANY(%s) ORDER BY n",
        (user_id, list(ids)),
    ).fetchall():
        sources.setdefault(r[0], []).append(r[1])
    return {r["id"]: codec.memory_from_row(r, tuple(sources.get(r["id"], []))) for r in rows}


def rescale_importance(cur: Cursor, user_id: str) -> bool:
    """Scale the user's importances back to the normalised mean once their mean passed the
    limit (with enough memories to judge); True if it did."""
    row = cur.execute(
        "SELECT count(*), avg(importance) FROM memories WHERE user_id = %s", (user_id,)
    ).fetchone()
    if row is None:
        return False
    count, mean = int(row[0]), row[1]
    if count < lifecycle.MIN_MEMORIES_TO_NORMALISE or mean is None:
        return False
    if float(mean) <= lifecycle.MAX_MEAN_IMPORTANCE:
        return False
    cur.execute(
        "UPDATE memories SET importance = importance * %s WHERE user_id = %s",
        (lifecycle.NORMALISED_MEAN_IMPORTANCE / float(mean), user_id),
    )
    return True
