"""Cross-lingual vectors for keys stored without one.

Keys written before the cross-lingual embedder was on (`crosslingual_embedder`: an older
store, or the setting "none" then) have only the main embedder's vector. While a user has
such keys, the dense channel scores their other-language keys by the main embedder alone
(recall/dense.py); `Memory.maintain` rebuilds those records' keys and gives each its
cross-lingual vector (the main vectors are reused by text hash, not embedded again).
"""

from __future__ import annotations

from typing import Protocol

from dualtrace.encode.keys import KeyBuilder
from dualtrace.lifecycle.pending import runs_of
from dualtrace.store.ports.episode_reads import EpisodeReads
from dualtrace.store.ports.index_reads import IndexReads
from dualtrace.store.ports.index_writes import IndexWrites
from dualtrace.store.ports.memory_reads import MemoryReads
from dualtrace.store.ports.records import IndexEntry

# Records whose keys are rebuilt at a time.
BATCH = 200


class CrossVectorStore(EpisodeReads, MemoryReads, IndexReads, IndexWrites, Protocol):
    """What adding cross-lingual vectors reads and writes: the records, their keys."""


def add_crosslingual_vectors(store: CrossVectorStore, keys: KeyBuilder, user_id: str) -> int:
    """Give this user's keys that lack a cross-lingual vector one; returns how many keys
    got one. A record whose key no longer rebuilds to the text it was stored with (its
    settings changed since) keeps the one vector it has."""
    if keys.crosslingual is None:
        return 0
    added, tried = 0, set[str]()
    while True:
        lacking = store.records_lacking_xvectors(user_id, len(tried) + BATCH)
        ids = [i for i in lacking if i not in tried]
        if not ids:
            return added
        tried.update(ids)
        episodes = store.get_episodes(user_id, ids)
        memories = store.get_memories(user_id, [i for i in ids if i not in episodes])
        built: list[IndexEntry] = []
        for run in runs_of(list(episodes.values())):
            built += keys.episode_keys(user_id, run)
        for found in keys.memory_keys_many(user_id, list(memories.values())):
            built += found
        added += store.add_vectors(user_id, built)
