"""Finishing extraction a crash (or a deletion) left owed: turns marked extraction-pending.

A turn is marked in the transaction that stores it (`add`) or that deletes what its memories
quoted (`delete`), and unmarked in the transaction that stores its memories. Whatever is
still marked is extracted here: by the `add` that marked it, on the next open, by
`maintain()`, or when the same message id is added again. Extraction is idempotent: if two
processes finish the same turn, the second one's memories are not stored.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import groupby
from typing import Protocol

from dualtrace.encode.keys import KeyBuilder
from dualtrace.lifecycle.writer import Event, MemoryWriter
from dualtrace.models import Episode
from dualtrace.store.ports.episode_reads import EpisodeReads
from dualtrace.store.ports.index_writes import IndexWrites

log = logging.getLogger(__name__)

# Tries per session batch when a concurrent writer cleared part of it first.
TRIES = 3


class PendingStore(EpisodeReads, IndexWrites, Protocol):
    """What finishing pending turns reads and writes: the pending turns, their vectors."""


class AddsInFlight:
    """Users with a synchronous `add` under way in this process. That add stores its turns
    marked pending, then extracts them itself and reports their events; a background
    `finish_pending` that took them in between answered the add with no events. It now
    leaves such a user for its next round: the check and its read of the pending turns are
    one step against an add's start, so it either sees the user busy or reads before the
    add stored anything."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users: Counter[str] = Counter()

    @contextmanager
    def adding(self, user_id: str) -> Iterator[None]:
        with self._lock:
            self._users[user_id] += 1
        try:
            yield
        finally:
            with self._lock:
                self._users[user_id] -= 1
                if not self._users[user_id]:
                    del self._users[user_id]

    def pending(self, store: EpisodeReads, user_id: str) -> list[Episode]:
        """The user's pending turns, or none while an add of theirs is under way."""
        with self._lock:
            return [] if self._users[user_id] else store.pending_episodes(user_id)


def extract_pending(
    store: EpisodeReads,
    writer: MemoryWriter,
    user_id: str,
    episodes: Sequence[Episode],
    actor: str | None = None,
) -> tuple[list[Event], list[str]]:
    """Extract these pending turns, one run of adjacent turns at a time; returns the events
    and the extractors' errors (each fell back). Turns no longer pending are skipped."""
    events: list[Event] = []
    errors: list[str] = []
    for batch in runs_of(episodes):
        for _ in range(TRIES):
            found, error = writer.write(user_id, batch, mark_extracted=True, actor=actor)
            events += found
            if error is not None:
                errors.append(error)
            batch = store.pending_episodes(user_id, [e.id for e in batch])
            if not batch:
                break
    return events, errors


def runs_of(episodes: Sequence[Episode]) -> list[list[Episode]]:
    """The turns split into runs of one session and consecutive numbers: an extractor reads
    a batch as turns said one after the other (each quoting the one before), which two
    pending turns with others between them were not."""
    ordered = sorted(episodes, key=lambda e: (e.session_id or "", e.seq))
    runs: list[list[Episode]] = []
    for _, group in groupby(ordered, key=lambda e: e.session_id):
        for episode in group:
            if (
                runs
                and runs[-1][-1].session_id == episode.session_id
                and (runs[-1][-1].seq + 1 == episode.seq)
            ):
                runs[-1].append(episode)
            else:
                runs.append([episode])
    return runs


def embed_pending(
    store: IndexWrites, keys: KeyBuilder, user_id: str, episodes: Sequence[Episode]
) -> int:
    """Give pending turns stored without vectors (a deferred add) their vectors; returns
    how many keys got one. Turns embedded already cost a lookup, not an embedding."""
    count = 0
    for run in runs_of(episodes):
        count += store.add_vectors(user_id, keys.episode_keys(user_id, run))
    return count


def finish_pending(
    store: PendingStore,
    writer: MemoryWriter,
    keys: KeyBuilder,
    users: Sequence[str] | None = None,
    adds: AddsInFlight | None = None,
) -> int:
    """Embed, then extract, every pending turn of these users (None: of every user);
    returns how many turns were pending. With `adds`, a user whose add is under way is
    left for later (that add extracts its own turns)."""
    count = 0
    for user_id in store.pending_users() if users is None else users:
        episodes = (adds or AddsInFlight()).pending(store, user_id)
        if episodes:
            log.info("finishing %d turns left pending", len(episodes))
            count += len(episodes)
            embed_pending(store, keys, user_id, episodes)
            extract_pending(store, writer, user_id, episodes)
    return count
