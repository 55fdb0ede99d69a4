"""From new episodes to stored memories: extract, drop duplicates, resolve entities, link, store."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from dualtrace.embed.cache import text_hash
from dualtrace.encode.aliases import AliasIndex
from dualtrace.encode.base import Extraction, Extractor, Usage, Window
from dualtrace.encode.episodes import new_id
from dualtrace.models import (
    MEMORY_KINDS,
    EntityMention,
    Episode,
    EventKind,
    MemoryDraft,
    MemoryRecord,
)
from dualtrace.store.base import EntityRow, IndexEntry, MemoryGraph, SearchScope, Store

log = logging.getLogger(__name__)

KeysFn = Callable[[str, MemoryRecord], list[IndexEntry]]
Event = tuple[str, EventKind, str]


@dataclass
class ExtractionStats:
    """Running totals of what extraction did and cost (for reports and benchmarks)."""

    windows: int = 0
    turns: int = 0
    memories: int = 0
    failures: int = 0
    usage: Usage = field(default_factory=Usage)
    errors: list[str] = field(default_factory=list)

    def record(self, window: Window, extraction: Extraction, stored: int) -> None:
        """Add one window's outcome."""
        self.windows += 1
        self.turns += len(window.episodes)
        self.memories += stored
        u = extraction.usage
        self.usage = Usage(
            self.usage.calls + u.calls,
            self.usage.prompt_tokens + u.prompt_tokens,
            self.usage.completion_tokens + u.completion_tokens,
        )
        if extraction.error is not None:
            self.failures += 1
            self.errors = [*self.errors[-9:], extraction.error]


class MemoryWriter:
    """Runs the extractor over a window of new turns and stores what it derives."""

    def __init__(
        self, store: Store, extractor: Extractor, keys: KeysFn, *, actor: str,
        context_turns: int = 4, link_limit: int = 5, similar_threshold: float = 0.93,
        key_chars: int = 1000,
    ) -> None:  # fmt: skip
        self.store = store
        self.extractor = extractor
        self.keys = keys
        self.actor = actor
        self.context_turns = context_turns
        self.link_limit = link_limit
        self.key_chars = key_chars
        # e5-small puts unrelated sentences near 0.75 and related ones near 0.85; 0.93 and up
        # is the same statement in other words.
        self.similar_threshold = similar_threshold
        self.stats = ExtractionStats()

    def write(self, user_id: str, episodes: Sequence[Episode]) -> tuple[list[Event], str | None]:
        """Extract memories from one session's new episodes and store them.

        Returns the events, and the extractor's error if it failed (then fell back).
        """
        if not episodes:
            return [], None
        first = episodes[0]
        context = self.store.recent_episodes(
            user_id, first.session_id, first.seq, self.context_turns
        )
        speakers = [e.speaker or e.role for e in (*context, *episodes) if e.role != "assistant"]
        window = Window(tuple(episodes), tuple(context), tuple(dict.fromkeys(speakers)))
        extraction = self.extractor.extract(window)
        fresh, events = self._drop_duplicates(user_id, extraction.drafts)
        turns = {e.id: e for e in episodes}
        records = [self._record(user_id, d, turns, extraction) for d in fresh]
        keys = [key for record in records for key in self.keys(user_id, record)]
        graph = self._graph(user_id, records, fresh)
        graph = replace(graph, links=graph.links + tuple(self._similar(user_id, keys)))
        if records:
            self.store.insert_memories(user_id, records, keys, self.actor, graph)
        self.stats.record(window, extraction, len(records))
        if extraction.error is not None:
            log.warning("extractor %s failed on %d turns", extraction.extractor, len(episodes))
        added: list[Event] = [(r.id, "ADD", r.text) for r in records]
        return [*added, *events], extraction.error

    def _drop_duplicates(
        self, user_id: str, drafts: list[MemoryDraft]
    ) -> tuple[list[MemoryDraft], list[Event]]:
        # the same prefix the fact key's content hash was made from (see Memory._keys)
        hashes = [text_hash(d.text[: self.key_chars]) for d in drafts]
        existing = self.store.memory_ids_by_fact_hash(user_id, hashes)
        fresh: list[MemoryDraft] = []
        events: list[Event] = []
        for draft, h in zip(drafts, hashes, strict=True):
            if h in existing:
                events.append((existing[h], "NOOP", draft.text))
            else:
                existing[h] = "pending"
                fresh.append(draft)
        return fresh, events

    @staticmethod
    def _record(
        user_id: str, d: MemoryDraft, turns: dict[str, Episode], extraction: Extraction
    ) -> MemoryRecord:
        sources = [turns[i] for i in d.source_episode_ids if i in turns]
        inherited: dict[str, object] = {}
        for turn in sources:  # a memory carries its turns' metadata, so filters reach it
            inherited.update(turn.metadata)
        session_id = sources[0].session_id if sources else None
        return MemoryRecord(
            id=new_id("mem"), user_id=user_id, kind=d.kind, text=d.text, scene=d.scene,
            subject=d.subject, predicate=d.predicate, object=d.object, topic=d.topic,
            importance=d.importance, valid_from=d.valid_from, expire_at=d.expire_at,
            session_id=session_id, source_episode_ids=d.source_episode_ids,
            metadata={
                **inherited, "extractor": extraction.extractor, "keyphrases": list(d.keyphrases),
            },
        )  # fmt: skip

    def _graph(
        self, user_id: str, records: list[MemoryRecord], drafts: list[MemoryDraft]
    ) -> MemoryGraph:
        rows = self.store.entity_rows(user_id)
        aliases = AliasIndex(EntityMention(r.name, r.norm, r.type) for r in rows)
        entities: list[tuple[str, EntityRow]] = []
        for record, draft in zip(records, drafts, strict=True):
            for mention in draft.entities:
                canonical = aliases.add(mention)
                row = EntityRow(mention.name, mention.norm, mention.type, canonical.norm)
                entities.append((record.id, row))
        moved = {
            r.norm: c.norm
            for r in rows
            if (c := aliases.canonical(EntityMention(r.name, r.norm, r.type))).norm != r.canonical
        }
        if moved:
            self.store.set_canonical(user_id, moved)
        return MemoryGraph(tuple(entities), tuple(self._links(user_id, records, entities)))

    def _similar(self, user_id: str, keys: list[IndexEntry]) -> list[tuple[str, str, str, float]]:
        """Link each new fact to stored facts that say nearly the same (cosine ≥ threshold)."""
        scope = SearchScope(kinds=MEMORY_KINDS, traces=("fact",), include_invalid=True)
        links = []
        for key in keys:
            if key.trace != "fact" or key.vector is None:
                continue
            for found in self.store.search_dense(user_id, key.vector, 3, scope):
                if found.score >= self.similar_threshold and found.record_id != key.record_id:
                    links.append((key.record_id, found.record_id, "similar", round(found.score, 4)))
        return links

    def _links(
        self, user_id: str, records: list[MemoryRecord], entities: list[tuple[str, EntityRow]]
    ) -> list[tuple[str, str, str, float]]:
        """Link each new memory to others sharing a named thing (its speaker aside)."""
        named: dict[str, set[str]] = {r.id: set() for r in records}
        for record in records:
            speaker = (record.subject or "").casefold()
            named[record.id] = {
                row.canonical
                for mid, row in entities
                if mid == record.id and row.canonical != speaker
            }
        links: list[tuple[str, str, str, float]] = []
        batch = [r.id for r in records]
        for i, record in enumerate(records):
            mine = named[record.id]
            sharing = [e for e in reversed(records[:i]) if mine & named[e.id]]  # newest first
            for earlier in sharing[: self.link_limit]:  # within this batch: not stored yet
                shared = mine & named[earlier.id]
                links.append((record.id, earlier.id, "related", float(len(shared))))
            for other, count in self.store.related_memories(
                user_id, sorted(mine), batch, self.link_limit
            ):
                links.append((record.id, other, "related", float(count)))
        return links
