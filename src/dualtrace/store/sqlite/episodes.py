"""The EpisodeStore role in SQLite: turns as they were said, numbered within their session."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import replace

from dualtrace.models import Episode
from dualtrace.store.base import IndexEntry
from dualtrace.store.sqlite import codec
from dualtrace.store.sqlite.connection import CHUNK, SQLiteConnection, now
from dualtrace.store.sqlite.index import write_keys
from dualtrace.store.sqlite.purge import mark_pending


class SQLiteEpisodes(SQLiteConnection):
    """EpisodeStore: insert, look up and walk a user's episodes."""

    def episode_ids_by_external(self, user_id: str, external_ids: Sequence[str]) -> dict[str, str]:
        """Map ids already stored (as external ids, or as episode ids) to episode ids."""
        found: dict[str, str] = {}
        for start in range(0, len(external_ids), CHUNK):
            chunk = list(external_ids[start : start + CHUNK])
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

    def insert_episodes(
        self,
        user_id: str,
        episodes: Sequence[Episode],
        keys: Sequence[IndexEntry],
        actor: str,
        pending: bool = False,
    ) -> list[Episode]:
        """Store episodes and their search keys in one transaction; returns them as stored.

        Seq numbers are checked inside the transaction: if another process added turns to
        the session since `next_seq` was read, these follow them. An external id another
        writer stored meanwhile (a retry racing the original) is not stored again: its
        place in the result holds that writer's episode, and its keys are dropped.
        """
        with self._tx() as conn:
            stored = [_insert_once(conn, user_id, e) for e in _after_last(conn, user_id, episodes)]
            new = {e.id for e in stored} & {e.id for e in episodes}
            for e in stored:
                if e.id in new:
                    self._history(conn, user_id, e.id, "ADD", None, e.text, actor)
            write_keys(conn, user_id, [k for k in keys if k.record_id in new])
            if pending:  # cleared with their memories; what a crash leaves is resumed
                mark_pending(conn, user_id, sorted(new), now())
            if new:
                self._audit(conn, user_id, actor, "add_episodes", None, {"count": len(new)})
        return stored

    def get_episodes(self, user_id: str, ids: Sequence[str]) -> dict[str, Episode]:
        """Episodes by id (missing ids are simply absent)."""
        rows = self._read_in(
            "SELECT * FROM episodes WHERE +user_id = ? AND id IN ({marks})", user_id, ids
        )
        return {r["id"]: codec.episode_from_row(r) for r in rows}

    def iter_episodes(self, user_id: str) -> Iterator[Episode]:
        """All of a user's episodes in time order."""
        rows = self._read(
            "SELECT * FROM episodes WHERE user_id = ? ORDER BY occurred_at, session_id, seq",
            (user_id,),
        )
        for row in rows:
            yield codec.episode_from_row(row)

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

    def next_episode(self, user_id: str, episode_id: str) -> Episode | None:
        """The turn right after this one in its session, if any."""
        rows = self._read(
            "SELECT n.* FROM episodes e JOIN episodes n ON n.user_id = e.user_id "
            "AND n.session_id IS e.session_id AND n.seq > e.seq "
            "WHERE e.user_id = ? AND e.id = ? ORDER BY n.seq LIMIT 1",
            (user_id, episode_id),
        )
        return codec.episode_from_row(rows[0]) if rows else None


def _insert_once(conn: sqlite3.Connection, user_id: str, e: Episode) -> Episode:
    """Insert an episode; if its external id is already stored, the stored episode instead.

    `ON CONFLICT DO NOTHING` rather than a look-up first: the look-up the caller made
    before the transaction may be stale, and the unique index decides across processes.
    """
    cur = conn.execute(
        "INSERT INTO episodes (id, user_id, agent_id, session_id, seq, role, speaker, text, "
        "occurred_at, occurred_tz, recorded_at, external_id, metadata, content_hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (user_id, external_id) WHERE external_id IS NOT NULL DO NOTHING",
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
        ),
    )
    if cur.rowcount:
        return e
    row = conn.execute(
        "SELECT * FROM episodes WHERE user_id = ? AND external_id = ?", (user_id, e.external_id)
    ).fetchone()
    return codec.episode_from_row(row)


def _after_last(
    conn: sqlite3.Connection, user_id: str, episodes: Sequence[Episode]
) -> Sequence[Episode]:
    """The episodes renumbered to follow the session's last stored turn, if they would not."""
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
