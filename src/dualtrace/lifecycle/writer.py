"""From new episodes to stored memories: extract, drop duplicates, resolve entities, link, store."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol

import numpy as np
import numpy.typing as npt

from dualtrace.embed.cache import text_hash
from dualtrace.encode.base import Extraction, Extractor, Usage, Window
from dualtrace.encode.episodes import new_id
from dualtrace.lifecycle import consolidate
from dualtrace.lifecycle.judge import Judgement, LLMJudge
from dualtrace.lifecycle.reinforcement import reinforced
from dualtrace.models import (
    MEMORY_KINDS,
    EntityMention,
    Episode,
    EventKind,
    MemoryDraft,
    MemoryRecord,
)
from dualtrace.store.base import (
    EntityRow,
    IndexEntry,
    MemoryChange,
    MemoryGraph,
    SearchScope,
)
from dualtrace.store.ports.graph_reads import GraphReads
from dualtrace.store.ports.graph_writes import GraphWrites
from dualtrace.store.ports.index_reads import IndexReads
from dualtrace.store.ports.memory_writes import MemoryWrites
from dualtrace.store.ports.reads import RecordReads
from dualtrace.text.aliases import AliasIndex
from dualtrace.text.slots.stored import slot_of

log = logging.getLogger(__name__)

# The search keys of each memory, new vectors embedded in one batch.
KeysFn = Callable[[str, Sequence[MemoryRecord]], list[list[IndexEntry]]]
Event = tuple[str, EventKind, str]


class WriterStore(RecordReads, MemoryWrites, IndexReads, GraphReads, GraphWrites, Protocol):
    """What consolidation reads (memories by slot, hash and vector, entities, the turns
    before) and writes (memories with their keys, graph and changes; canonical entities)."""


# A statement said again raises its memory's importance like a recall does, by this step.
REPEAT_STEP = 0.05


def _valid(m: MemoryRecord) -> bool:
    return m.invalidated_at is None and m.valid_to is None and not m.archived


def _union(old: MemoryRecord, new: MemoryRecord) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*old.source_episode_ids, *new.source_episode_ids)))


@dataclass
class _Plan:
    """One batch's consolidation: the user's memories as the batch changes them."""

    view: dict[str, MemoryRecord]  # stored and new memories seen so far, by id
    new: list[str] = field(default_factory=list)  # ids of new memories to insert, in order
    keys: dict[str, list[IndexEntry]] = field(default_factory=dict)
    hashes: dict[str, str] = field(default_factory=dict)
    changes: list[MemoryChange] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    closed: set[str] = field(default_factory=set)

    def inserted(self) -> list[MemoryRecord]:
        """The new memories, as the batch left them."""
        return [self.view[i] for i in self.new]

    def add(self, record: MemoryRecord) -> None:
        """A new memory joins the batch."""
        self.view[record.id] = record
        self.new.append(record.id)

    def close(
        self,
        old: MemoryRecord,
        by_id: str,
        at: datetime | None,
        why: dict[str, object] | None = None,
    ) -> None:
        """`old` stops holding at `at`; `by_id` holds the value (or says it ended) from then."""
        self.changes.append(
            MemoryChange(
                "SUPERSEDE",
                old.id,
                self.view[by_id].text,
                by_id=by_id,
                valid_to=at,
                why=why,
            )
        )
        self.closed.add(old.id)

    def same_subject(self, record: MemoryRecord) -> list[MemoryRecord]:
        """Valid memories (stored or new) a record is decided against
        (`consolidate.keys_considered`)."""
        keys = consolidate.keys_considered(record)
        return [
            m
            for i, m in self.view.items()
            if i not in self.closed and _valid(m) and consolidate.subject_key(m) in keys
        ]

    def batch_near(self, record: MemoryRecord, h: str, writer: MemoryWriter) -> list[str]:
        """New memories of this batch with the same words or nearly the same fact vector."""
        mine = _fact_vector(self.keys.get(record.id, []))
        found = []
        for other in self.new:
            theirs = _fact_vector(self.keys[other])
            if self.hashes.get(other) == h or (
                mine is not None
                and theirs is not None
                and float(np.dot(mine, theirs)) >= writer.similar_threshold
            ):
                found.append(other)
        return found


def _judged(record: MemoryRecord, judgement: Judgement, plan: _Plan) -> consolidate.Decision | None:
    """The judge's decision for a record as a consolidation decision, or None where it gave
    none usable (its target closed meanwhile by another fact of the batch)."""
    said = judgement.decisions.get(record.id)
    if said is None:
        return None
    if said.action == "ADD":
        return consolidate.Decision("ADD")
    target = plan.view.get(said.target_id or "")
    if target is None or target.id in plan.closed:
        return None
    slot = (slot_of(record) or {}).get("attribute")
    why = {"decided_by": "llm", "reason": said.reason, "slot": slot}
    if said.action == "NOOP":
        same = set(record.source_episode_ids) <= set(target.source_episode_ids)
        return consolidate.Decision("NOOP" if same else "REINFORCE", (target,))
    if said.action == "UPDATE":
        return consolidate.Decision("SUPERSEDE", (target,), why={**why, "decision": "UPDATE"})
    return consolidate.Decision("INVALIDATE", (target,), why=why)


def _add_usage(total: Usage, judgement: Judgement | None) -> Usage:
    if judgement is None:
        return total
    u = judgement.usage
    return Usage(
        total.calls + u.calls,
        total.prompt_tokens + u.prompt_tokens,
        total.completion_tokens + u.completion_tokens,
    )


def _fact_vector(keys: list[IndexEntry]) -> npt.NDArray[np.float32] | None:
    return next((k.vector for k in keys if k.trace == "fact"), None)


@dataclass
class ExtractionStats:
    """Running totals of what extraction did and cost (for reports and benchmarks)."""

    windows: int = 0
    turns: int = 0
    memories: int = 0
    failures: int = 0
    usage: Usage = field(default_factory=Usage)
    errors: list[str] = field(default_factory=list)
    judge_usage: Usage = field(default_factory=Usage)  # the consolidation judge's calls

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
        self,
        store: WriterStore,
        extractor: Extractor,
        keys: KeysFn,
        *,
        actor: str,
        context_turns: int = 4,
        link_limit: int = 5,
        similar_threshold: float = 0.93,
        key_chars: int = 1000,
        judge: LLMJudge | None = None,
    ) -> None:
        self.store = store
        self.judge = judge  # with an LLM: it decides each new fact against its neighbours
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

    def write(
        self,
        user_id: str,
        episodes: Sequence[Episode],
        *,
        mark_extracted: bool = False,
        actor: str | None = None,
    ) -> tuple[list[Event], str | None]:
        """Extract memories from one session's new episodes and store them.

        Returns the events, and the extractor's error if it failed (then fell back).
        `mark_extracted`: the turns are extraction-pending; their mark is cleared in the
        transaction that stores their memories, and if another process cleared it first,
        nothing is stored (no events). `actor`: who history names (default: the writer's).
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
        turns = {e.id: e for e in episodes}
        records = [self._record(user_id, d, turns, extraction) for d in extraction.drafts]
        plan, judge_error = self._consolidate(user_id, records)
        drafts = {r.id: d for r, d in zip(records, extraction.drafts, strict=True)}
        inserts = plan.inserted()
        keys = [key for record in inserts for key in plan.keys[record.id]]
        graph = self._graph(user_id, inserts, [drafts[r.id] for r in inserts])
        extracted = [e.id for e in episodes] if mark_extracted else []
        if (inserts or plan.changes or extracted) and not self.store.insert_memories(
            user_id, inserts, keys, actor or self.actor, graph, plan.changes, extracted
        ):
            return [], None  # another process stored these turns' memories first
        self.stats.record(window, extraction, len(inserts))
        if extraction.error is not None:
            log.warning("extractor %s failed on %d turns", extraction.extractor, len(episodes))
        if judge_error is not None:
            log.warning("consolidation judge failed; the offline decisions stand")
            judged = f"consolidation judge failed, offline decisions kept: {judge_error}"
            return plan.events, "; ".join(e for e in (extraction.error, judged) if e)
        return plan.events, extraction.error

    def _consolidate(self, user_id: str, records: list[MemoryRecord]) -> tuple[_Plan, str | None]:
        """Decide, memory by memory, what each new one does to the user's stored ones (with
        a judge, as it says where it answers; the offline rule otherwise). Returns the plan
        and the judge's error, if it failed."""
        hashes = [text_hash(r.text[: self.key_chars]) for r in records]
        by_hash = self.store.memory_ids_by_fact_hash(user_id, hashes)
        triples = [r for r in records if r.subject and r.predicate]
        same = self.store.memories_by_subject(
            user_id,
            sorted({r.subject or "" for r in triples}),
            sorted({p for r in triples for _, p in consolidate.keys_considered(r)}),
        )
        plan = _Plan({m.id: m for m in same})
        stored = self.store.get_memories(user_id, sorted(set(by_hash.values())))
        plan.view.update({i: m for i, m in stored.items() if _valid(m)})
        fresh = [r for r, h in zip(records, hashes, strict=True) if h not in by_hash]
        for record, keys in zip(fresh, self.keys(user_id, fresh), strict=True):
            plan.keys[record.id] = keys  # new words: embedded in one batch
        near, nearest = self._near(user_id, plan)
        wanted = nearest if self.judge is not None else near  # the judge sees the nearest
        found_ids = sorted({i for ids in wanted.values() for i in ids} - set(plan.view))
        plan.view.update(self.store.get_memories(user_id, found_ids))
        judgement = self._ask_judge(records, plan, nearest)
        for record, h in zip(records, hashes, strict=True):
            candidates = [by_hash[h]] if h in by_hash else []
            candidates += near.get(record.id, []) + plan.batch_near(record, h, self)
            found = [
                plan.view[i]
                for i in dict.fromkeys(candidates)
                if i in plan.view and i not in plan.closed
            ]
            decision = consolidate.decide(record, plan.same_subject(record), found)
            if judgement is not None and judgement.error is None:
                decision = _judged(record, judgement, plan) or decision
            plan.hashes[record.id] = h
            self._apply(user_id, plan, record, decision)
        self.stats.judge_usage = _add_usage(self.stats.judge_usage, judgement)
        return plan, None if judgement is None else judgement.error

    def _ask_judge(
        self, records: list[MemoryRecord], plan: _Plan, near: dict[str, list[str]]
    ) -> Judgement | None:
        """The judge's decisions for the new facts against their stored neighbours (the
        valid memories of the same subject and predicate, and the near-duplicates)."""
        if self.judge is None or not records:
            return None
        neighbours = {m.id: m for r in records for m in plan.same_subject(r)}
        neighbours.update({i: plan.view[i] for ids in near.values() for i in ids if i in plan.view})
        if not neighbours:
            return None
        return self.judge.judge(records, list(neighbours.values()))

    def _near(self, user_id: str, plan: _Plan) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """For each new fact, the stored valid facts that say nearly the same (cosine ≥ the
        threshold), and its nearest stored facts however near (what a judge is shown)."""
        scope = SearchScope(kinds=MEMORY_KINDS, traces=("fact",))
        asked = [
            (record_id, key.vector)
            for record_id, keys in plan.keys.items()
            for key in keys
            if key.trace == "fact" and key.vector is not None
        ]
        found = self.store.search_dense_many(user_id, [v for _, v in asked], 3, scope)
        hits_of = {record_id: hits for (record_id, _), hits in zip(asked, found, strict=True)}
        near = {
            record_id: [c.record_id for c in hits if c.score >= self.similar_threshold]
            for record_id, hits in hits_of.items()
        }
        return near, {record_id: [c.record_id for c in hits] for record_id, hits in hits_of.items()}

    def _apply(
        self, user_id: str, plan: _Plan, record: MemoryRecord, decision: consolidate.Decision
    ) -> None:
        action, targets = decision.action, decision.targets
        if action == "NOOP":
            plan.events.append((targets[0].id, "NOOP", record.text))
            return
        if action == "REINFORCE":
            self._reinforce(plan, plan.view[targets[0].id], record)
            return
        if action == "MERGE":
            self._merge(user_id, plan, plan.view[targets[0].id], record, decision)
            return
        if record.id not in plan.keys:  # the same words as a closed or other-day memory
            plan.keys[record.id] = self.keys(user_id, [record])[0]
        plan.add(record)
        plan.events.append((record.id, "ADD", record.text))
        if action not in ("SUPERSEDE", "INVALIDATE"):
            return
        why = None if decision.why is None else {**decision.why, "decision": action}
        if decision.older:  # the new memory is an older value: it is the one closed
            newer = targets[0]
            plan.close(record, newer.id, newer.valid_from, why)
            plan.events.append((record.id, "SUPERSEDE", record.text))
            return
        for old in targets:
            plan.close(old, record.id, record.valid_from, why)
            plan.events.append((old.id, action, old.text))

    @staticmethod
    def _reinforce(plan: _Plan, old: MemoryRecord, record: MemoryRecord) -> None:
        """The same statement again: the stored memory gains the source and importance."""
        if old.id not in plan.new:  # said twice in this batch: one new memory, both sources
            plan.changes.append(
                MemoryChange(
                    "REINFORCE",
                    old.id,
                    record.text,
                    sources=record.source_episode_ids,
                    importance=reinforced(old.importance, old.access_count, REPEAT_STEP),
                )
            )
        plan.view[old.id] = replace(old, source_episode_ids=_union(old, record))
        plan.events.append((old.id, "REINFORCE", record.text))

    def _merge(
        self,
        user_id: str,
        plan: _Plan,
        old: MemoryRecord,
        record: MemoryRecord,
        decision: consolidate.Decision,
    ) -> None:
        """Another value of a mergeable attribute: joined into the stored memory's text."""
        values = (*consolidate.values_of(old), (record.object or "").strip())
        merged = replace(
            old,
            text=decision.text or old.text,
            object=decision.object,
            metadata={**old.metadata, "values": list(values)},
            source_episode_ids=_union(old, record),
        )
        plan.view[old.id] = merged
        plan.events.append((old.id, "MERGE", merged.text))
        keys = self.keys(user_id, [merged])[0]
        if old.id in plan.new:  # merged before it was ever stored: store it merged
            plan.keys[old.id] = keys
            return
        plan.changes.append(
            MemoryChange(
                "MERGE",
                old.id,
                record.text,
                sources=record.source_episode_ids,
                text=merged.text,
                object=merged.object,
                values=values,
                keys=tuple(keys),
            )
        )

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
            id=new_id("mem"),
            user_id=user_id,
            kind=d.kind,
            text=d.text,
            scene=d.scene,
            subject=d.subject,
            predicate=d.predicate,
            object=d.object,
            topic=d.topic,
            importance=d.importance,
            valid_from=d.valid_from,
            expire_at=d.expire_at,
            session_id=session_id,
            source_episode_ids=d.source_episode_ids,
            metadata={
                **inherited,
                "extractor": extraction.extractor,
                "keyphrases": list(d.keyphrases),
                **({"slot": d.slot} if d.slot else {}),
            },
        )

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
        stored = self.store.related_memories_many(
            user_id, [sorted(named[r.id]) for r in records], batch, self.link_limit
        )
        for i, (record, earlier_links) in enumerate(zip(records, stored, strict=True)):
            mine = named[record.id]
            sharing = [e for e in reversed(records[:i]) if mine & named[e.id]]  # newest first
            for earlier in sharing[: self.link_limit]:  # within this batch: not stored yet
                shared = mine & named[earlier.id]
                links.append((record.id, earlier.id, "related", float(len(shared))))
            for other, count in earlier_links:
                links.append((record.id, other, "related", float(count)))
        return links
