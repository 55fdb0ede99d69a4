"""The GraphStore role in PostgreSQL: entities, memory ↔ entity rows, links, entity retrieval.

The SQL functions take an open cursor, so memories.py writes a new memory's graph in its
own transaction and index.py runs the entity channel in a search's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from dualtrace.models import Candidate
from dualtrace.store import entity_scores
from dualtrace.store.base import EntityRow, MemoryGraph
from dualtrace.store.postgres.connection import Cursor, PostgresConnection
from dualtrace.store.write_rules import entity_id


class PostgresGraph(PostgresConnection):
    """GraphStore: a user's entities, their canonical names, and links between memories."""

    def entity_rows(self, user_id: str) -> list[EntityRow]:
        """Every entity the user's memories mention."""
        with self._tx(user_id) as cur:
            return entity_rows(cur, user_id)

    def set_canonical(self, user_id: str, canonical: dict[str, str]) -> None:
        """Re-point entities (norm → canonical norm) after an alias was learned."""
        with self._tx(user_id, write=True) as cur:
            cur.executemany(
                "UPDATE entities SET canonical_norm = %s WHERE user_id = %s AND norm_name = %s",
                [(c, user_id, n) for n, c in canonical.items()],
            )

    def related_memories(
        self, user_id: str, canonicals: Sequence[str], exclude: Sequence[str], limit: int
    ) -> list[tuple[str, int]]:
        """Memories sharing these canonical entities: (memory id, shared count), best first."""
        return self.related_memories_many(user_id, [canonicals], exclude, limit)[0]

    def related_memories_many(
        self, user_id: str, groups: Sequence[Sequence[str]], exclude: Sequence[str], limit: int
    ) -> list[list[tuple[str, int]]]:
        """`related_memories` for several groups of entities at once (each entity read once)."""
        with self._tx(user_id) as cur:
            return related_many(cur, user_id, groups, exclude, limit)

    def unlinked_memories(self, user_id: str, limit: int) -> list[tuple[str, list[str]]]:
        """Memories with entities but no links: (id, canonical entities), newest first."""
        rows = self._read(
            user_id,
            "SELECT m.id, array_agg(COALESCE(e.canonical_norm, e.norm_name)) FROM memories m "
            "JOIN memory_entities me ON me.user_id = m.user_id AND me.memory_id = m.id "
            "JOIN entities e ON e.user_id = me.user_id AND e.id = me.entity_id "
            "WHERE m.user_id = %s AND NOT m.archived AND NOT EXISTS (SELECT 1 FROM links l "
            "WHERE l.user_id = m.user_id AND (l.src_id = m.id OR l.dst_id = m.id)) "
            "GROUP BY m.id, m.recorded_at ORDER BY m.recorded_at DESC LIMIT %s",
            (user_id, limit),
        )
        return [(r[0], sorted(set(r[1]))) for r in rows]

    def add_links(self, user_id: str, links: Sequence[tuple[str, str, str, float]]) -> None:
        """Insert links (src id, dst id, kind, weight); existing ones are kept."""
        if links:
            with self._tx(user_id, write=True) as cur:
                write_graph(cur, user_id, MemoryGraph(links=tuple(links)))


def write_graph(cur: Cursor, user_id: str, graph: MemoryGraph) -> None:
    """Insert entities (once per user), memory ↔ entity rows and links."""
    for memory_id, row in graph.entities:
        eid = entity_id(user_id, row.norm, row.type)
        cur.execute(
            "INSERT INTO entities (user_id, id, name, norm_name, type, canonical_norm) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, norm_name, type) "
            "DO UPDATE SET canonical_norm = excluded.canonical_norm",
            (user_id, eid, row.name, row.norm, row.type, row.canonical),
        )
        cur.execute(
            "INSERT INTO memory_entities (user_id, memory_id, entity_id) VALUES (%s, %s, %s) "
            "ON CONFLICT DO NOTHING",
            (user_id, memory_id, eid),
        )
    if graph.links:
        cur.executemany(
            "INSERT INTO links (user_id, src_id, dst_id, kind, weight) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            [(user_id, *link) for link in graph.links],
        )


def drop_unused_entities(cur: Cursor, user_id: str) -> None:
    """Delete the user's entities that no memory mentions any more (deletion is real)."""
    cur.execute(
        "DELETE FROM entities e WHERE e.user_id = %s AND NOT EXISTS (SELECT 1 FROM "
        "memory_entities me WHERE me.user_id = e.user_id AND me.entity_id = e.id)",
        (user_id,),
    )


def entity_rows(cur: Cursor, user_id: str) -> list[EntityRow]:
    """All of a user's entities, in the order they were first stored."""
    rows = cur.execute(
        "SELECT name, norm_name, type, COALESCE(canonical_norm, norm_name) FROM entities "
        "WHERE user_id = %s ORDER BY n",
        (user_id,),
    ).fetchall()
    return [EntityRow(r[0], r[1], r[2], r[3]) for r in rows]


def related_many(
    cur: Cursor,
    user_id: str,
    groups: Sequence[Sequence[str]],
    exclude: Sequence[str],
    limit: int,
    max_share: float = 0.2,
    per_entity: int = 50,
) -> list[list[tuple[str, int]]]:
    """For each group of canonical entities, the valid memories sharing the most of them
    (memory id, shared count), newest first on ties; entities too common to tell memories
    apart link nothing, and only each entity's newest `per_entity` memories count (see the
    SQLite store's `related_many`)."""
    skip = set(exclude)
    wanted = sorted({c for group in groups for c in group})
    rows_of: dict[str, list[tuple[str, int]]] = {}
    for canonical in _informative(cur, user_id, wanted, max_share)[0]:
        rows_of[canonical] = [
            (r[0], int(r[1]))
            for r in cur.execute(
                "SELECT me.memory_id, me.n FROM entities e JOIN memory_entities me "
                "ON me.user_id = e.user_id AND me.entity_id = e.id "
                "WHERE e.user_id = %s AND e.canonical_norm = %s ORDER BY me.n DESC LIMIT %s",
                (user_id, canonical, per_entity + len(skip)),
            ).fetchall()
        ]
    found = sorted({m for rows in rows_of.values() for m, _ in rows} - skip)
    valid = {
        r[0]
        for r in cur.execute(
            "SELECT id FROM memories WHERE user_id = %s AND id = ANY(%s) "
            "AND invalidated_at IS NULL AND NOT archived",
            (user_id, found),
        ).fetchall()
    }
    return entity_scores.related_groups(groups, rows_of, valid, skip, limit)


def _informative(
    cur: Cursor, user_id: str, canonicals: Sequence[str], max_share: float
) -> tuple[dict[str, int], int]:
    """The canonical entities mentioned by at most `max_share` of the user's memories (up to
    5 mentions always count), with their mention counts; and the user's memory count."""
    if not canonicals:
        return {}, 0
    counts = {
        r[0]: int(r[1])
        for r in cur.execute(
            "SELECT e.canonical_norm, count(*) FROM entities e JOIN memory_entities me "
            "ON me.user_id = e.user_id AND me.entity_id = e.id "
            "WHERE e.user_id = %s AND e.canonical_norm = ANY(%s) GROUP BY e.canonical_norm",
            (user_id, list(canonicals)),
        ).fetchall()
    }
    row = cur.execute("SELECT count(*) FROM memories WHERE user_id = %s", (user_id,)).fetchone()
    total = int(row[0]) if row is not None else 0
    return entity_scores.informative(counts, total, max_share), total


def search_entities(
    cur: Cursor, user_id: str, canonicals: Sequence[str], limit: int, max_share: float = 0.2
) -> list[Candidate]:
    """Memories mentioning the query's informative entities, scored in [0, 1] by the idf of
    the entities each mentions over the idf of all of them."""
    counts, total = _informative(cur, user_id, canonicals, max_share)
    if not counts:
        return []
    rows = cur.execute(
        "SELECT e.canonical_norm, me.memory_id FROM entities e JOIN memory_entities me "
        "ON me.user_id = e.user_id AND me.entity_id = e.id "
        "WHERE e.user_id = %s AND e.canonical_norm = ANY(%s)",
        (user_id, list(counts)),
    ).fetchall()
    return entity_scores.scored(((r[0], r[1]) for r in rows), total, limit)


def neighbours(
    cur: Cursor, user_id: str, memory_ids: Sequence[str]
) -> list[tuple[str, str, float]]:
    """(memory id, linked memory id, weight) for every link touching these memories."""
    if not memory_ids:
        return []
    rows = cur.execute(
        "SELECT src_id, dst_id, weight FROM links WHERE user_id = %s AND src_id = ANY(%s) "
        "UNION ALL SELECT dst_id, src_id, weight FROM links WHERE user_id = %s "
        "AND dst_id = ANY(%s)",
        (user_id, list(memory_ids), user_id, list(memory_ids)),
    ).fetchall()
    return [(r[0], r[1], float(r[2])) for r in rows]
