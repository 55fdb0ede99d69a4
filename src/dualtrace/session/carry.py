"""What a session leaves for the next: its active goal and pending tasks as memories of their
own kinds (status open), its summary, and the closing of earlier goals and tasks that one of
its turns says are done or dropped.

A goal or task is a memory of kind "goal" / "task" (predicate the same, `metadata["status"]`
"open"); a turn that closes one is stored as a memory of the same kind with status "done" or
"dropped", which supersedes the open one at the turn's time (its `valid_to`, like any
supersession, so `history` and `as_of` read it). The summary is a memory of kind "summary",
predicate "session_summary"; it supersedes the previous session's. `Memory.profile` lists
the open ones and the last summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from dualtrace.encode.episodes import new_id
from dualtrace.encode.rules import RulesExtractor
from dualtrace.lifecycle.writer import KeysFn
from dualtrace.models import Episode, MemoryRecord
from dualtrace.recall.profile import GOAL, OPEN, SESSION_SUMMARY, TASK
from dualtrace.session.summary import RollingSummary, normalise_value, read_turn
from dualtrace.store.base import Store
from dualtrace.store.ports.records import MemoryChange
from dualtrace.text.sentences import split_sentences
from dualtrace.text.tasks import closes

ACTOR = "session-end"


@dataclass(frozen=True)
class _Open:
    kind: str
    text: str
    turn: Episode


def carry_over(
    store: Store, keys: KeysFn, user_id: str, session_id: str, turns: Sequence[Episode]
) -> list[str]:
    """Store the session's goal, open tasks and summary; close the earlier goals and tasks
    its turns say are done or dropped. Returns the ids of the memories it stored."""
    if not turns:
        return []
    extractor = RulesExtractor()
    rolling = RollingSummary()
    stated: dict[str, _Open] = {}
    goal: _Open | None = None
    for turn in turns:
        facts = read_turn(turn, extractor)
        rolling.fold(turn.seq, facts)
        for task in facts.tasks:
            stated.pop(normalise_value(task), None)
            stated[normalise_value(task)] = _Open(TASK, task, turn)
        if facts.goal:
            goal = _Open(GOAL, facts.goal, turn)
    # the open ones only, chosen in the store: not every closing the user ever said
    earlier = store.memories_by_predicate(user_id, [GOAL, TASK], status=OPEN)
    records, changes = _closings(user_id, earlier, turns)
    kept = {normalise_value(t) for t in rolling.tasks.values()}
    fresh = [o for k, o in stated.items() if k in kept]
    already = {normalise_value(m.text) for m in earlier}
    for item in [*([goal] if goal else []), *fresh]:
        if normalise_value(item.text) in already or _closed_later(item, turns):
            continue
        records.append(_record(user_id, item.kind, item.text, [item.turn], OPEN))
    summary = "\n".join(rolling.lines())
    if summary:
        last = turns[-1]
        newest = _record(
            user_id,
            "summary",
            summary,
            turns,
            None,
            predicate=SESSION_SUMMARY,
            at=last.occurred_at,
            session_id=session_id,
        )
        records.append(newest)
        changes += _replaced_summaries(store, user_id, newest)
    # open goals and tasks are searchable; a summary or a closing repeats what turns said
    opened = [r for r in records if _is_open(r)]
    keyed = [k for ks in keys(user_id, opened) for k in ks]
    store.insert_memories(user_id, records, keyed, ACTOR, changes=changes)
    return [r.id for r in records]


def _replaced_summaries(store: Store, user_id: str, newest: MemoryRecord) -> list[MemoryChange]:
    """The last session's summary is the current one: the earlier ones are superseded at its
    time (`as_of` and `history` still read them), so that reading the profile loads one
    summary, not one per session the user ever had."""
    earlier = store.memories_by_predicate(user_id, [SESSION_SUMMARY])
    at = newest.valid_from
    return [
        MemoryChange(
            "SUPERSEDE",
            m.id,
            newest.text,
            by_id=newest.id,
            valid_to=at,
            why={"decision": "SUPERSEDE", "cue": "a later session's summary"},
        )
        for m in earlier
        if m.kind == "summary" and (m.valid_from is None or at is None or m.valid_from <= at)
    ]


def _is_open(m: MemoryRecord) -> bool:
    return m.metadata.get("status") == OPEN


def _closings(
    user_id: str, earlier: list[MemoryRecord], turns: Sequence[Episode]
) -> tuple[list[MemoryRecord], list[MemoryChange]]:
    """A closing memory for each open goal or task a later turn says is done or dropped,
    and the change that closes the open one."""
    records: list[MemoryRecord] = []
    changes: list[MemoryChange] = []
    for m in earlier:
        for turn in turns:
            if m.valid_from is not None and turn.occurred_at <= m.valid_from:
                continue
            how = _closed_by(m.text, turn)
            if how is None:
                continue
            kind = m.kind if m.kind in (GOAL, TASK) else TASK
            closing = _record(user_id, kind, turn.text, [turn], how, closes_id=m.id)
            records.append(closing)
            why = {"decision": "SUPERSEDE", "status": how, "cue": "closed by a later turn"}
            changes.append(
                MemoryChange(
                    "SUPERSEDE",
                    m.id,
                    closing.text,
                    by_id=closing.id,
                    valid_to=turn.occurred_at,
                    why=why,
                )
            )
            break
    return records, changes


def _closed_by(task: str, turn: Episode) -> str | None:
    if turn.role != "user":
        return None
    for sentence in split_sentences(turn.text, clauses=True):
        how = closes(task, sentence)
        if how is not None:
            return how
    return None


def _closed_later(item: _Open, turns: Sequence[Episode]) -> bool:
    """Opened and closed within the same session: nothing is left open."""
    return any(_closed_by(item.text, t) for t in turns if t.seq > item.turn.seq)


def _record(
    user_id: str,
    kind: str,
    text: str,
    turns: Sequence[Episode],
    status: str | None,
    *,
    predicate: str | None = None,
    at: datetime | None = None,
    session_id: str | None = None,
    closes_id: str | None = None,
) -> MemoryRecord:
    first = turns[0]
    metadata: dict[str, object] = {"extractor": ACTOR}
    if status is not None:
        metadata["status"] = status
    if closes_id is not None:
        metadata["closes"] = closes_id
    return MemoryRecord(
        id=new_id("mem"),
        user_id=user_id,
        kind=kind,
        text=text,
        subject="the user",
        predicate=predicate or kind,
        object=text,
        importance=0.7,
        valid_from=at or first.occurred_at,
        session_id=session_id or first.session_id,
        metadata=metadata,
        source_episode_ids=tuple(t.id for t in turns),
    )
