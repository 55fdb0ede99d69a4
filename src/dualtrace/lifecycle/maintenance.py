"""Forgetting and upkeep, run by `Memory.maintain()` / `dualtrace maintain` (e.g. nightly).

Per user: archive expired memories; archive memories whose importance decayed below a
threshold and that were not used for a while; scale importances back if they inflated;
consolidate what write-time consolidation missed (duplicates, and two current values of a
single-valued fact, e.g. after an import); link memories that have no links yet (each by an
indexed lookup of its entities — never all pairs); build or drop what the user's dense
search needs at their size (on PostgreSQL, a big user's own HNSW graph). Then end the
sessions left idle.

Archiving is not deletion: archived memories leave default search, keep their history and
come back with `Memory.restore`. Deletion (`delete`, `delete_all`) is a different, real act.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from typing import Protocol

from dualtrace.config import MemoryConfig
from dualtrace.encode.keys import KeyBuilder
from dualtrace.encode.patterns import SINGLE_VALUED
from dualtrace.lifecycle import consolidate
from dualtrace.lifecycle.crossvectors import CrossVectorStore, add_crosslingual_vectors
from dualtrace.models import MEMORY_KINDS, MemoryRecord
from dualtrace.store.ports.graph_reads import GraphReads
from dualtrace.store.ports.graph_writes import GraphWrites
from dualtrace.store.ports.maintenance import MaintenanceStore
from dualtrace.store.ports.memory_writes import MemoryWrites
from dualtrace.store.ports.records import MemoryChange

# Memories linked per maintenance pass and user (the rest wait for the next pass).
LINK_BATCH = 500


class MaintainedStore(
    MaintenanceStore, MemoryWrites, GraphReads, GraphWrites, CrossVectorStore, Protocol
):
    """What a maintenance pass reads and adjusts: usage, duplicates, links, indexes."""


@dataclass
class MaintenanceReport:
    """What one maintenance pass did, per action (counts), and which sessions it ended."""

    users: int = 0
    expired: int = 0
    archived: int = 0
    duplicates: int = 0
    superseded: int = 0
    normalised: int = 0
    linked: int = 0
    pending_extracted: int = 0  # turns an interrupted add or delete had left unextracted
    search_indexes: int = 0  # users whose own search index was built or dropped
    crosslingual_vectors: int = 0  # keys given the cross-lingual vector they lacked
    sessions_ended: list[tuple[str, str]] = field(default_factory=list)


def maintain(
    store: MaintainedStore,
    config: MemoryConfig,
    users: Iterable[str],
    now: datetime,
    *,
    link_limit: int,
    keys: KeyBuilder | None = None,
) -> MaintenanceReport:
    """Run every maintenance step for these users at time `now`; a memory is linked to at
    most `link_limit` others. With `keys`, keys stored without a cross-lingual vector get
    one (crossvectors.py)."""
    report = MaintenanceReport()
    for user_id in users:
        report.users += 1
        if keys is not None:
            report.crosslingual_vectors += add_crosslingual_vectors(store, keys, user_id)
        _forget(store, config, user_id, now, report)
        _consolidate(store, config.actor, user_id, report)
        report.normalised += int(store.normalise_importance(user_id))
        report.linked += _link(store, user_id, link_limit)
        report.search_indexes += int(store.refresh_search_index(user_id))
    return report


def decayed(importance: float, last_used: datetime, now: datetime, halflife_days: float) -> float:
    """Importance halved for every `halflife_days` without use."""
    days = max(0.0, (now - last_used).total_seconds() / 86_400)
    return importance * math.exp(-math.log(2) * days / halflife_days)


def _forget(
    store: MaintainedStore,
    cfg: MemoryConfig,
    user_id: str,
    now: datetime,
    report: MaintenanceReport,
) -> None:
    actor = cfg.actor
    expired = store.expired_memories(user_id, now)
    report.expired += store.archive_memories(user_id, expired, "expired", actor)
    stale = [
        memory_id
        for memory_id, importance, last_used in store.memory_usage(user_id)
        if (now - last_used).days >= cfg.archive_after_days
        and decayed(importance, last_used, now, cfg.recency_halflife_days) < cfg.archive_importance
    ]
    report.archived += store.archive_memories(user_id, stale, "faded", actor)


def _consolidate(
    store: MaintainedStore, actor: str, user_id: str, report: MaintenanceReport
) -> None:
    ids = store.list_records(user_id, MEMORY_KINDS, False, None)
    memories = sorted(store.get_memories(user_id, ids).values(), key=_age)
    changes: list[MemoryChange] = []
    duplicates: dict[str, str] = {}  # duplicate id -> the memory kept
    by_text: dict[tuple[str, str], MemoryRecord] = {}
    current: dict[tuple[str, str], list[MemoryRecord]] = defaultdict(list)
    for m in memories:
        day = m.valid_from.date().isoformat() if m.kind == "event" and m.valid_from else ""
        key = (consolidate.normalise(m.text), day)
        kept = by_text.get(key)
        if kept is not None:  # the same statement twice: one memory, both sources
            duplicates[m.id] = kept.id
            changes.append(MemoryChange("REINFORCE", kept.id, m.text, sources=m.source_episode_ids))
            continue
        by_text[key] = m
        sp = consolidate.subject_key(m)
        if sp is not None and m.predicate in SINGLE_VALUED:
            current[sp].append(m)
    for values in current.values():  # two current values of a one-value fact: the older goes
        for older, newer in pairwise(values):
            if consolidate.normalise(older.object) == consolidate.normalise(newer.object):
                continue
            changes.append(
                MemoryChange(
                    "SUPERSEDE", older.id, newer.text, by_id=newer.id, valid_to=newer.valid_from
                )
            )
            report.superseded += 1
    if changes:
        store.insert_memories(user_id, [], [], actor, None, changes)
    for duplicate, kept_id in duplicates.items():
        report.duplicates += store.archive_memories(
            user_id, [duplicate], f"duplicate of {kept_id}", actor
        )


def _age(m: MemoryRecord) -> tuple[str, str]:
    start = m.valid_from or m.recorded_at
    recorded = m.recorded_at.isoformat() if m.recorded_at else ""
    return (start.isoformat() if start else "", recorded)


def _link(store: MaintainedStore, user_id: str, limit: int) -> int:
    pending = store.unlinked_memories(user_id, LINK_BATCH)
    if not pending:
        return 0
    subjects = store.get_memories(user_id, [memory_id for memory_id, _ in pending])
    links: list[tuple[str, str, str, float]] = []
    for memory_id, canonicals in pending:
        subject = (subjects[memory_id].subject or "").casefold() if memory_id in subjects else ""
        named = [c for c in canonicals if c != subject]
        for other, count in store.related_memories(user_id, named, [memory_id], limit):
            links.append((memory_id, other, "related", float(count)))
    store.add_links(user_id, links)
    return len({src for src, *_ in links})
