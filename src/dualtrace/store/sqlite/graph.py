"""The GraphStore role in SQLite: entities, memory ↔ entity rows, links, entity retrieval.

The SQL functions take an open connection, so memories.py writes a new memory's graph in
its own transaction and index.py runs the entity channel on a search thread's connection;
`SQLiteGraph` is the port's face.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from dualtrace.models import Candidate
from dualtrace.store import entity_scores
from dualtrace.store.base import EntityRow, MemoryGraph
from dualtrace.store.sqlite.connection import SQLiteConnection
from dualtrace.store.write_rules import entity_id


class SQLiteGraph(SQLiteConnection):
    """GraphStore: a user's entities, their canonical names, and links between memories."""

    def entity_rows(self, user_id: str) -> list[EntityRow]:
        """Every entity the user's memories mention."""
        with self._lock:
            return entity_rows(self._conn, user_id)

    def set_canonical(self, user_id: str, canonical: dict[str, str]) -> None:
        """Re-point entities (norm → canonical norm) after an alias was learned."""
        with self._tx() as conn:
            set_canonical(conn, user_id, canonical)

    def related_memories(
        self, user_id: str, canonicals: Sequence[str], exclude: Sequence[str], limit: int
    ) -> list[tuple[str, int]]:
        """Memories sharing these canonical entities: (memory id, shared count), best first."""
        with self._lock:
            return related(self._conn, user_id, canonicals, exclude, limit)

    def related_memories_many(
        self, user_id: str, groups: Sequence[Sequence[str]], exclude: Sequence[str], limit: int
    ) -> list[list[tuple[str, int]]]:
        """`related_memories` for several groups of entities at once (each entity read once)."""
        with self._lock:
            return related_many(self._conn, user_id, groups, exclude, limit)

    def unlinked_memories(self, user_id: str, limit: int) -> list[tuple[str, list[str]]]:
        """Memories with entities but no links: (id, canonical entities), newest first."""
        with self._lock:
            return unlinked(self._conn, user_id, limit)

    def add_links(self, user_id: str, links: Sequence[tuple[str, str, str, float]]) -> None:
        """Insert links (src id, dst id, kind, weight); existing ones are kept."""
        if links:
            with self._tx() as conn:
                write_graph(conn, user_id, MemoryGraph(links=tuple(links)))


def write_graph(conn: sqlite3.Connection, user_id: str, graph: MemoryGraph) -> None:
    """Insert entities (once per user), memory ↔ entity rows and links."""
    for memory_id, row in graph.entities:
        eid = entity_id(user_id, row.norm, row.type)
        conn.execute(
            "INSERT INTO entities (id, user_id, name, norm_name, type, canonical_norm) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(user_id, norm_name, type) "
            "DO UPDATE SET canonical_norm = excluded.canonical_norm",
            (eid, user_id, row.name, row.norm, row.type, row.canonical),
        )
        conn.execute(
            "INSERT OR IGNORE INTO memory_entities (user_id, memory_id, entity_id) "
            "VALUES (?, ?, ?)",
            (user_id, memory_id, eid),
        )
    conn.executemany(
        "INSERT OR IGNORE INTO links (user_id, src_id, dst_id, kind, weight) "
        "VALUES (?, ?, ?, ?, ?)",
        [(user_id, *link) for link in graph.links],
    )


def drop_unused_entities(conn: sqlite3.Connection, user_id: str) -> None:
    """Delete the user's entities that no memory mentions any more (deletion is real)."""
    conn.execute(
        "DELETE FROM entities WHERE user_id = ? AND NOT EXISTS "
        "(SELECT 1 FROM memory_entities me WHERE me.entity_id = entities.id)",
        (user_id,),
    )


def entity_rows(conn: sqlite3.Connection, user_id: str) -> list[EntityRow]:
    """All of a user's entities."""
    rows = conn.execute(
        "SELECT name, norm_name, type, COALESCE(canonical_norm, norm_name) FROM entities "
        "WHERE user_id = ? ORDER BY rowid",
        (user_id,),
    )
    return [EntityRow(r[0], r[1], r[2], r[3]) for r in rows]


def set_canonical(conn: sqlite3.Connection, user_id: str, canonical: dict[str, str]) -> None:
    """Point each norm at its canonical norm."""
    conn.executemany(
        "UPDATE entities SET canonical_norm = ? WHERE user_id = ? AND norm_name = ?",
        [(c, user_id, n) for n, c in canonical.items()],
    )


def related(
    conn: sqlite3.Connection,
    user_id: str,
    canonicals: Sequence[str],
    exclude: Sequence[str],
    limit: int,
    max_share: float = 0.2,
    per_entity: int = 50,
) -> list[tuple[str, int]]:
    """Valid memories sharing the most of these canonical entities, newest first on ties."""
    return related_many(conn, user_id, [canonicals], exclude, limit, max_share, per_entity)[0]


def related_many(
    conn: sqlite3.Connection,
    user_id: str,
    groups: Sequence[Sequence[str]],
    exclude: Sequence[str],
    limit: int,
    max_share: float = 0.2,
    per_entity: int = 50,
) -> list[list[tuple[str, int]]]:
    """For each group of canonical entities, the valid memories sharing the most of them
    (memory id, shared count), newest first on ties.

    Entities too common to tell memories apart (see `informative`) link nothing; of the
    others, only the newest `per_entity` memories are considered, so the cost of a link
    lookup does not grow with the user's history. Each entity is read once for all groups
    (the memories of one `add` share their people and places).
    """
    skip = set(exclude)
    wanted = sorted({c for group in groups for c in group})
    rows_of: dict[str, list[tuple[str, int]]] = {}
    for canonical in informative(conn, user_id, wanted, max_share):
        rows_of[canonical] = [
            (r[0], int(r[1]))
            for r in conn.execute(
                # CROSS JOIN keeps SQLite from scanning all of the user's mentions to
                # order them (254 -> 12 ms an add at 14k memories): this entity's rows first
                "SELECT me.memory_id, me.rowid FROM entities e CROSS JOIN memory_entities me "
                "ON me.user_id = e.user_id AND me.entity_id = e.id "
                "WHERE e.user_id = ? AND e.canonical_norm = ? ORDER BY me.rowid DESC LIMIT ?",
                (user_id, canonical, per_entity + len(skip)),
            )
        ]
    found = sorted({m for rows in rows_of.values() for m, _ in rows} - skip)
    valid = set(_valid_memories(conn, user_id, found))
    return entity_scores.related_groups(groups, rows_of, valid, skip, limit)


def _valid_memories(conn: sqlite3.Connection, user_id: str, ids: list[str]) -> list[str]:
    found: list[str] = []
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = conn.execute(
            f"SELECT id FROM memories WHERE +user_id = ? AND id IN ({marks}) "
            "AND invalidated_at IS NULL AND archived = 0",
            [user_id, *chunk],
        )
        found += [r[0] for r in rows]
    return found


def informative(
    conn: sqlite3.Connection, user_id: str, canonicals: Sequence[str], max_share: float
) -> dict[str, int]:
    """The canonical entities mentioned by at most `max_share` of the user's memories (up to
    5 mentions always count), with their mention counts. Counted from the index alone, so a
    speaker named in thousands of memories costs a count, not thousands of rows."""
    return _informative(conn, user_id, canonicals, max_share)[0]


def _informative(
    conn: sqlite3.Connection, user_id: str, canonicals: Sequence[str], max_share: float
) -> tuple[dict[str, int], int]:
    """`informative`'s counts, and the user's number of memories they were judged against."""
    if not canonicals:
        return {}, 0
    marks = ",".join("?" * len(canonicals))
    counts = {
        r[0]: int(r[1])
        for r in conn.execute(
            f"SELECT e.canonical_norm, COUNT(*) FROM entities e CROSS JOIN memory_entities me "
            f"ON me.user_id = e.user_id AND me.entity_id = e.id "
            f"WHERE e.user_id = ? AND e.canonical_norm IN ({marks}) GROUP BY e.canonical_norm",
            [user_id, *canonicals],
        )
    }
    (total,) = conn.execute(
        "SELECT COUNT(*) FROM memories WHERE user_id = ?", (user_id,)
    ).fetchone()
    return entity_scores.informative(counts, int(total), max_share), int(total)


def search_entities(
    conn: sqlite3.Connection,
    user_id: str,
    canonicals: Sequence[str],
    limit: int,
    max_share: float = 0.2,
) -> list[Candidate]:
    """Memories mentioning the query's entities, scored in [0, 1].

    An entity mentioned by more than `max_share` of the user's memories (the speaker, say)
    tells nothing apart and is ignored (in small stores, up to 5 mentions always count).
    A memory's score is the idf of the entities it mentions over the idf of all the query's
    informative entities.
    """
    counts, total = _informative(conn, user_id, canonicals, max_share)
    if not counts:
        return []
    marks = ",".join("?" * len(counts))
    rows = conn.execute(
        f"SELECT e.canonical_norm, me.memory_id FROM entities e CROSS JOIN memory_entities "
        f"me ON me.user_id = e.user_id AND me.entity_id = e.id "  # entities first (`related`)
        f"WHERE e.user_id = ? AND e.canonical_norm IN ({marks})",
        [user_id, *counts],
    ).fetchall()
    return entity_scores.scored(rows, total, limit)


def neighbours(
    conn: sqlite3.Connection, user_id: str, memory_ids: Sequence[str]
) -> list[tuple[str, str, float]]:
    """(memory id, linked memory id, weight) for every link touching these memories."""
    if not memory_ids:
        return []
    marks = ",".join("?" * len(memory_ids))
    rows = conn.execute(
        # `+user_id`: look rows up by the primary key (src_id first), not by scanning all
        # the user's links through links_user
        f"SELECT src_id, dst_id, weight FROM links WHERE +user_id = ? AND src_id IN ({marks}) "
        f"UNION ALL SELECT dst_id, src_id, weight FROM links WHERE user_id = ? "
        f"AND dst_id IN ({marks})",
        [user_id, *memory_ids, user_id, *memory_ids],
    )
    return [(r[0], r[1], float(r[2])) for r in rows]


def unlinked(conn: sqlite3.Connection, user_id: str, limit: int) -> list[tuple[str, list[str]]]:
    """Memories in default search with entities but no links yet, with their canonical
    entities (most recent first, at most `limit`)."""
    rows = conn.execute(
        "SELECT m.id, GROUP_CONCAT(COALESCE(e.canonical_norm, e.norm_name), char(31)) "
        "FROM memories m JOIN memory_entities me ON me.memory_id = m.id AND me.user_id = m.user_id "
        "JOIN entities e ON e.id = me.entity_id "
        "WHERE m.user_id = ? AND m.archived = 0 AND NOT EXISTS "
        "(SELECT 1 FROM links l WHERE l.user_id = m.user_id "
        "AND (l.src_id = m.id OR l.dst_id = m.id)) "
        "GROUP BY m.id ORDER BY m.recorded_at DESC LIMIT ?",
        (user_id, limit),
    )
    return [(r[0], sorted(set(r[1].split("\x1f")))) for r in rows]
