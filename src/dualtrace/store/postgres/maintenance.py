"""The MaintenanceStore role in PostgreSQL: what the forgetting and normalising passes read
and adjust, user by user (the passes themselves are in `lifecycle/`, above the port)."""

from __future__ import annotations

from datetime import datetime

from dualtrace.store.postgres import codec, graphs
from dualtrace.store.postgres.connection import PostgresConnection
from dualtrace.store.postgres.memories import rescale_importance
from dualtrace.store.postgres.migrations import HNSW_MAX_DIM


class PostgresMaintenance(PostgresConnection):
    """MaintenanceStore: users to visit, expired and idle memories, importance inflation,
    each big user's own search graph."""

    def user_ids(self) -> list[str]:
        """Every user with stored turns or memories (a deliberate cross-user read)."""
        rows = self._read(
            None, "SELECT user_id FROM episodes UNION SELECT user_id FROM memories ORDER BY 1"
        )
        return [r[0] for r in rows]

    def expired_memories(self, user_id: str, now: datetime) -> list[str]:
        """Ids of memories in default search whose expire_at has passed."""
        rows = self._read(
            user_id,
            "SELECT id FROM memories WHERE user_id = %s AND NOT archived "
            "AND expire_at IS NOT NULL AND expire_at <= %s ORDER BY id",
            (user_id, now),
        )
        return [r[0] for r in rows]

    def memory_usage(self, user_id: str) -> list[tuple[str, float, datetime]]:
        """(id, importance, last used) of memories in default search; last used is the last
        recall, else when the memory began to hold, else when it was recorded."""
        rows = self._read(
            user_id,
            "SELECT id, importance, COALESCE(last_accessed_at, valid_from, recorded_at) "
            "FROM memories WHERE user_id = %s AND NOT archived ORDER BY recorded_at, id",
            (user_id,),
        )
        return [(r[0], float(r[1]), codec.utc_required(r[2])) for r in rows]

    def normalise_importance(self, user_id: str) -> bool:
        """Scale the user's importances back if their mean inflated; True if it did."""
        with self._tx(user_id, write=True) as cur:
            return rescale_importance(cur, user_id)

    def refresh_search_index(self, user_id: str) -> bool:
        """Build the user's own HNSW graph once they have more than `graphs.GRAPH_FROM`
        keys, drop it when they fall under `graphs.DROP_BELOW` (graphs.py says why); True if
        it did either. Vectors too wide for an HNSW index (or none bound yet) get no graph:
        their search stays exact."""
        with self._tx(user_id) as cur:
            dim = cur.execute("SELECT value FROM store_meta WHERE key = 'embedder_dim'").fetchone()
            row = cur.execute(
                "SELECT count(*) FROM search_keys WHERE user_id = %s", (user_id,)
            ).fetchone()
            ready = graphs.state(cur, user_id)
        if dim is None or not 0 < int(dim[0]) <= HNSW_MAX_DIM:
            return False
        return self._refresh_graph(user_id, int(row[0]) if row is not None else 0, ready)
