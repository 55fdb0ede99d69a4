"""What a deletion takes with it, shared by the backends so they cannot drift apart.

The decisions are here: which rows a deleted record or turn takes along (its keys and history,
the memories built from its words, the next turn's quoted keys), which turns are marked for
re-derivation, in what order, and the pseudonym a forgotten user's audit rows carry. Each
backend's purge.py supplies the statements as a `PurgeRows`, in its own dialect, run inside
the deleting transaction; its deletion.py owns that transaction, the audit row and the
clean-up after it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from typing import Protocol

from dualtrace.store.base import IndexEntry


class PurgeRows(Protocol):
    """The statements the deletion decisions run, in one backend's dialect; each names its
    user, and runs inside the caller's transaction."""

    def existing_episodes(self, user_id: str, ids: Iterable[str]) -> list[str]:
        """Those of these ids that are the user's episodes."""
        ...

    def next_turn(self, user_id: str, episode_id: str) -> list[str]:
        """The id of the turn after this one in its session, if any (a list of at most one)."""
        ...

    def co_sources(self, user_id: str, turns: Sequence[str]) -> list[str]:
        """The sources of every memory citing one of these turns."""
        ...

    def memories_citing(
        self, user_id: str, within: Sequence[str], cited: Sequence[str]
    ) -> list[str]:
        """Memories whose every source is one of `within`, and memories citing any of `cited`."""
        ...

    def drop_keys(self, user_id: str, record_id: str) -> None:
        """Delete a record's search keys."""
        ...

    def write_keys(self, user_id: str, keys: Sequence[IndexEntry]) -> None:
        """Insert search keys."""
        ...

    def drop_history(self, user_id: str, record_id: str) -> None:
        """Delete a record's history entries."""
        ...

    def drop_episode(self, user_id: str, episode_id: str) -> None:
        """Delete the turn's own row."""
        ...

    def reopen_superseded(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Undo the supersessions these memories made, and purge their history entries (each
        holds the superseding memory's text)."""
        ...

    def delete_memories(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Delete these memories' rows and their history entries."""
        ...

    def mark_pending(self, user_id: str, episode_ids: Sequence[str]) -> None:
        """Mark these turns extraction-pending, as of now."""
        ...

    def drop_unused_entities(self, user_id: str) -> None:
        """Delete the user's entities that no memory mentions any more."""
        ...

    def content_hashes(self, user_id: str, record_ids: Sequence[str]) -> list[str]:
        """The distinct content hashes of these records' search keys."""
        ...

    def all_content_hashes(self, user_id: str) -> list[str]:
        """The distinct content hashes of all the user's search keys."""
        ...


def delete_record(
    rows: PurgeRows,
    user_id: str,
    record_id: str,
    kind: str,
    next_keys: Sequence[IndexEntry],
    rederive: bool,
) -> list[str]:
    """Delete one record's rows: its keys, history and what was derived from it.

    An episode takes with it every memory that cites it (a memory merged from it and a later
    turn too); `next_keys` replace the keys of the turn after it (they quoted it). With
    `rederive`, the memories of that next turn go too (their scenes quote the deleted one),
    and it and the other sources of the memories that went are marked extraction-pending,
    their own memories gone with the rest. Returns those turns' ids.
    """
    redo: list[str] = []
    for rekeyed in rows.existing_episodes(user_id, {k.record_id for k in next_keys}):
        rows.drop_keys(user_id, rekeyed)
        rows.write_keys(user_id, [k for k in next_keys if k.record_id == rekeyed])
    rows.drop_keys(user_id, record_id)
    rows.drop_history(user_id, record_id)
    if kind == "episode":
        redo = rederived_turns(rows, user_id, record_id) if rederive else []
        cited = [record_id, *rows.next_turn(user_id, record_id)[: int(rederive)]]
        gone = rows.memories_citing(user_id, [record_id, *redo], cited)
        drop_memories(rows, user_id, gone)
        rows.drop_episode(user_id, record_id)
        rows.mark_pending(user_id, redo)
    else:
        drop_memories(rows, user_id, [record_id])
    rows.drop_unused_entities(user_id)
    return redo


def delete_derived(rows: PurgeRows, user_id: str, episode_id: str) -> list[str]:
    """Delete the memories that only this episode supports; returns their ids."""
    gone = rows.memories_citing(user_id, [episode_id], [])
    drop_memories(rows, user_id, gone)
    rows.drop_unused_entities(user_id)
    return gone


def rederived_turns(rows: PurgeRows, user_id: str, episode_id: str) -> list[str]:
    """The turns to re-derive when this one goes: the next turn of its session (its keys,
    and the scenes of its memories, quoted it) and the other sources of every memory citing
    either of them."""
    turns = [episode_id, *rows.next_turn(user_id, episode_id)]
    found = [*turns[1:], *rows.co_sources(user_id, turns)]
    return list(dict.fromkeys(t for t in found if t != episode_id))


def drop_memories(rows: PurgeRows, user_id: str, memory_ids: Sequence[str]) -> None:
    """Delete memories with their keys and history; the memories they had superseded hold
    again, and the history entries that quoted them (SUPERSEDE, its REVERT) go."""
    if not memory_ids:
        return
    for memory_id in memory_ids:
        rows.drop_keys(user_id, memory_id)
    rows.reopen_superseded(user_id, memory_ids)
    rows.delete_memories(user_id, memory_ids)


def key_hashes(rows: PurgeRows, user_id: str, record_id: str | None) -> list[str]:
    """Content hashes of the keys a deletion would remove: the user's all (None), or the
    record's, with (an episode) the memories citing it and the next turn's."""
    if record_id is None:
        return rows.all_content_hashes(user_id)
    ids = [record_id, *rows.next_turn(user_id, record_id)]
    ids += rows.memories_citing(user_id, [], ids)
    return rows.content_hashes(user_id, ids)


def pseudonym(key: str, user_id: str) -> str:
    """The pseudonym a forgotten user's audit rows carry: an HMAC of the id under the store's
    own random key (hex), so the store no longer names the user (ids are often e-mail
    addresses), yet whoever asks about that user can still be shown what was done."""
    digest = hmac.new(
        bytes.fromhex(key), user_id.encode("utf-8", "surrogatepass"), hashlib.sha256
    ).hexdigest()
    return f"forgotten:{digest[:32]}"
