"""Turning stored episodes and memories into the public Item / Hit objects, with provenance."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from dualtrace.errors import NotFoundError
from dualtrace.models import Episode, Hit, Item, MemoryRecord, Source
from dualtrace.store.ports.reads import RecordReads


def source_of(episode: Episode) -> Source:
    """The provenance entry for an episode."""
    return Source(
        episode_id=episode.id,
        external_id=episode.external_id,
        session_id=episode.session_id,
        occurred_at=episode.occurred_at,
        speaker=episode.speaker or episode.role,
        text=episode.text,
        role=episode.role,
    )


def _from_episode(e: Episode) -> Item:
    return Item(
        id=e.id,
        kind="episode",
        text=e.text,
        scene=None,
        valid_from=e.occurred_at,
        valid_to=None,
        recorded_at=e.recorded_at,
        session_id=e.session_id,
        sources=[source_of(e)],
        metadata=dict(e.metadata),
    )


def _from_memory(m: MemoryRecord, episodes: dict[str, Episode]) -> Item:
    sources = [source_of(episodes[i]) for i in m.source_episode_ids if i in episodes]
    sources.sort(key=lambda s: s.occurred_at)
    recorded = m.recorded_at or (sources[0].occurred_at if sources else None)
    assert recorded is not None, "stored memories always have recorded_at"
    # Times are stored in UTC; show them in the conversation's own time zone, as its turns.
    tz = sources[0].occurred_at.tzinfo if sources else None
    return Item(
        id=m.id,
        kind=m.kind,
        text=m.text,
        scene=m.scene,
        valid_from=_local(m.valid_from, tz),
        valid_to=_local(m.valid_to, tz),
        recorded_at=recorded,
        session_id=m.session_id,
        sources=sources,
        metadata=dict(m.metadata),
        importance=m.importance,
        invalidated_at=m.invalidated_at,
        superseded_by=m.superseded_by,
        archived=m.archived,
    )


def _local(value: datetime | None, tz: tzinfo | None) -> datetime | None:
    return value.astimezone(tz) if value is not None and tz is not None else value


@dataclass(frozen=True)
class Loaded:
    """Items, with the memory records and turns read to make them (`read_items`)."""

    items: dict[str, Item]
    memories: dict[str, MemoryRecord]
    episodes: dict[str, Episode]


def load_items(
    store: RecordReads, user_id: str, ids: Sequence[str], *, sources: bool = True
) -> dict[str, Item]:
    """Items for the ids that exist for this user (episodes and memories alike).

    With `sources=False`, a memory's source turns are read only where its time comes from
    them (no valid_from): its item is enough to rank, not to show, and `with_sources`
    completes the hits made of it. A search ranks hundreds of candidates to keep a few, and
    reading every candidate's source turns was most of its loading time."""
    return read_items(store, user_id, ids, sources=sources).items


def read_items(
    store: RecordReads, user_id: str, ids: Sequence[str], *, sources: bool = True
) -> Loaded:
    """`load_items`, keeping what was read (for `with_sources`)."""
    kinds = store.record_kinds(user_id, ids)
    episode_ids = [i for i in ids if kinds.get(i) == "episode"]
    memory_ids = [i for i in ids if i in kinds and kinds[i] != "episode"]
    memories = store.get_memories(user_id, memory_ids)
    sourced = {i for i, m in memories.items() if sources or m.valid_from is None}
    wanted = set(episode_ids) | {s for i in sourced for s in memories[i].source_episode_ids}
    episodes = store.get_episodes(user_id, sorted(wanted))
    items: dict[str, Item] = {i: _from_episode(episodes[i]) for i in episode_ids if i in episodes}
    for i, m in memories.items():
        items[i] = _from_memory(m, episodes if i in sourced else {})
    return Loaded(items, memories, episodes)


def with_sources(
    store: RecordReads, user_id: str, hits: Sequence[Hit], loaded: Loaded | None = None
) -> list[Hit]:
    """The hits, each memory with its sources (hits made of `load_items(sources=False)`;
    `loaded`: what that read, so that only the missing turns are read now)."""
    bare = [h.id for h in hits if h.kind != "episode" and not h.sources]
    if not bare:
        return list(hits)
    if loaded is None:
        loaded = read_items(store, user_id, bare, sources=False)
    memories = {i: loaded.memories[i] for i in bare if i in loaded.memories}
    wanted = {s for m in memories.values() for s in m.source_episode_ids} - loaded.episodes.keys()
    episodes = {**loaded.episodes, **store.get_episodes(user_id, sorted(wanted))}
    full = {i: _from_memory(m, episodes) for i, m in memories.items()}
    return [as_hit(full[h.id], h.score, h.scores) if h.id in full else h for h in hits]


def as_hit(item: Item, score: float, scores: dict[str, float]) -> Hit:
    """A search hit for an item."""
    return Hit(**vars(item), score=score, scores=scores)


def load_item(store: RecordReads, user_id: str, record_id: str) -> Item:
    """One episode or memory by id (NotFoundError if this user has no such id)."""
    found = load_items(store, user_id, [record_id]).get(record_id)
    if found is None:
        raise NotFoundError(
            f"no record {record_id!r} for user {user_id!r}; list the user's ids with "
            "Memory.get_all(user_id=...) or `dualtrace list --user ...`"
        )
    return found
