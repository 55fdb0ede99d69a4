"""A user's profile: the current value of every slot, open goals and tasks, and the last
session's summary, read from what the write path keeps (no LLM, no search).

Two store reads bring every memory that fills a slot of the catalogue or that a session
end stored as a summary (`memories_by_predicate`, closed ones too, for the history and for
`as_of`), and the goals and tasks a session end opened (status "open", closed ones too for
`as_of`; the closing of a task done, which stays valid, is never read). A one-valued slot
shows its newest value valid at the time; a many-valued slot (pets, languages, …) every
valid member. With `history`, each value lists what it replaced: the memories the writer
closed in its favour (`superseded_by`), and what those replaced in turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from dualtrace.inputs import check_count, check_flag, check_user_id, parse_time
from dualtrace.models import MemoryRecord, Profile, ProfileValue
from dualtrace.recall.current import begun, valid_at
from dualtrace.store.ports.memory_reads import MemoryReads
from dualtrace.text.districts import city_of
from dualtrace.text.script import in_script_of
from dualtrace.text.slots import ATTRIBUTES
from dualtrace.text.slots.family import FAMILY, outside_household
from dualtrace.text.slots.stored import holds_value, slot_of
from dualtrace.text.tokens import count_tokens

GOAL, TASK, SESSION_SUMMARY = "goal", "task", "session_summary"
OPEN = "open"  # the status of a goal or task not yet closed (`metadata["status"]`)
CARRIED = (GOAL, TASK, SESSION_SUMMARY)  # predicates of what a session end stores
_ORDER = {a.name: i for i, a in enumerate(ATTRIBUTES)}
# slots whose values are plans (a trip): said when, not held since
_PLANNED = frozenset(a.name for a in ATTRIBUTES if a.planned)
_USER = ("", "the user", "user", "用户")
# the attributes the picture shows: not those of one occasion (a budget for one purchase)
_HELD = tuple(a.name for a in ATTRIBUTES if not a.passing)
# Attributes whose value is a place, shown with its city where it names only a district.
_PLACES = frozenset({"lives_in", "from"})
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NOT_WORD = re.compile(r"[\W_]+")

HEADER = "## What we know about the user now ([n] = source turn)"
PLANS_HEADER = "## Open goals and tasks"
SUMMARY_HEADER = "## Last session"
PEOPLE_HEADER = "## Other people the user spoke of"


def read_profile(
    store: MemoryReads,
    user_id: str,
    *,
    as_of: datetime | str | None = None,
    max_tokens: int | None = None,
    history: bool = False,
) -> Profile:
    """The user's profile at `as_of` (now when None), its text within `max_tokens`; the
    arguments are checked here."""
    user_id = check_user_id(user_id)
    as_of = None if as_of is None else parse_time(as_of, field="as_of")
    if max_tokens is not None:
        max_tokens = check_count(
            "max_tokens", max_tokens, fix="pass the profile's size in tokens, e.g. 500"
        )
    history = check_flag("history", history)
    return gather(store, user_id, as_of=as_of, history=history).render(max_tokens)


@dataclass(frozen=True)
class Picture:
    """A user's profile before it is rendered: the values, open goals and tasks and the
    last summary, with the memories that hold them (a session drops the values its own
    turns have since changed, `without`, before rendering)."""

    user_id: str
    as_of: datetime | None
    values: list[ProfileValue]  # the user's own slots
    goals: list[ProfileValue]
    tasks: list[ProfileValue]
    summary: MemoryRecord | None
    records: dict[str, MemoryRecord]  # memory id -> the memory of each value, goal, task
    people: list[ProfileValue] = field(default_factory=list)  # others' slots, with whose

    def without(self, ids: Iterable[str]) -> Picture:
        """The picture less the values, goals and tasks held by these memories."""
        drop = set(ids)
        if not drop:
            return self
        return replace(
            self,
            values=[v for v in self.values if v.memory_id not in drop],
            people=[v for v in self.people if v.memory_id not in drop],
            goals=[g for g in self.goals if g.memory_id not in drop],
            tasks=[t for t in self.tasks if t.memory_id not in drop],
        )

    def summary_without(self, drop: Callable[[str], bool]) -> Picture:
        """The picture with the summary's lines that `drop` names left out."""
        if self.summary is None:
            return self
        kept = "\n".join(line for line in self.summary.text.splitlines() if not drop(line))
        return replace(self, summary=replace(self.summary, text=kept) if kept else None)

    def shown_ids(self) -> set[str]:
        """The memories the picture shows: those of its values, goals and tasks, and the
        summary (the turns that said them may still be shown: they say more)."""
        shown = {v.memory_id for v in (*self.values, *self.people, *self.goals, *self.tasks)}
        return shown | ({self.summary.id} if self.summary is not None else set())

    def render(self, max_tokens: int | None, cited: Mapping[str, str] | None = None) -> Profile:
        """The profile with its text within `max_tokens`; `cited` (label -> turn id): the
        labels a context's other part already gives turns, which the text then shares, new
        turns taking numbers those labels leave free."""
        text, references = _render(self, max_tokens, cited or {})
        return Profile(
            user_id=self.user_id,
            text=text,
            tokens=count_tokens(text) if text else 0,
            values=self.values,
            people=self.people,
            goals=self.goals,
            tasks=self.tasks,
            summary=None if self.summary is None else self.summary.text,
            as_of=self.as_of,
            references=references,
        )


def gather(store: MemoryReads, user_id: str, *, as_of: datetime | None, history: bool) -> Picture:
    """The user's picture at `as_of` from two store reads (arguments already checked)."""
    # closed memories only for what they replaced, or for the past
    closed_too = history or as_of is not None
    memories = store.memories_by_predicate(
        user_id, [*_HELD, SESSION_SUMMARY], include_invalid=closed_too
    )
    # goals and tasks opened, closed or not: never their closings (one per task ever done,
    # valid for good, which the picture never shows)
    plans = store.memories_by_predicate(
        user_id, [GOAL, TASK], include_invalid=as_of is not None, status=OPEN
    )
    valid = [m for m in memories if valid_at(m, as_of)]
    by_id = {m.id: m for m in memories}
    replaced = _replaced_index(memories) if history else {}
    current = _current(valid)
    goals = [m for m in plans if valid_at(m, as_of) and _open(m, GOAL)]
    tasks = [m for m in plans if valid_at(m, as_of) and _open(m, TASK)]
    summaries = [m for m in memories if m.predicate == SESSION_SUMMARY and begun(m, as_of)]
    return Picture(
        user_id=user_id,
        as_of=as_of,
        values=[_value(m, replaced, by_id, as_of) for m in current if _own(m)],
        people=[_value(m, replaced, by_id, as_of) for m in current if not _own(m)],
        goals=[_value(m, {}, by_id, as_of) for m in goals],
        tasks=[_value(m, {}, by_id, as_of) for m in tasks],
        summary=summaries[-1] if summaries else None,
        records={m.id: m for m in (*current, *goals, *tasks)},
    )


def _open(m: MemoryRecord, kind: str) -> bool:
    """An open goal or task a session end stored (one closed is superseded by its closing)."""
    return m.predicate == kind and m.kind == kind and m.metadata.get("status") == OPEN


def _own(m: MemoryRecord) -> bool:
    """Whether a slot memory is part of the user's own picture: the speaker's slot, and of
    the family their household (children, grandchildren). A brother, a sister or a parent
    is a person the user speaks of, listed with the others (`people`), as a partner's job
    or a sister's city are."""
    if m.predicate == FAMILY.name and outside_household(_said(m)):
        return False
    return _speakers(m)


def _speakers(m: MemoryRecord) -> bool:
    """Whether a slot memory is of whoever said it (the user, or a named speaker of the
    user's turns: "Alice" in a chat between people), not of someone they spoke of."""
    return (slot_of(m) or {}).get("subject") is None


def _key(m: MemoryRecord) -> tuple[str, str, str]:
    slot = slot_of(m) or {}
    subject = (m.subject or "").casefold()
    return (
        ("" if subject in _USER else subject),
        m.predicate or "",
        str(slot.get("qualifier") or ""),
    )


def _current(valid: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """Each slot's current values: the newest of a one-valued slot, every member of a
    many-valued one (a member said again in the same words counts once, at its newest
    statement: compared by a dict key, as a user may have thousands of slot memories)."""
    slots: dict[tuple[str, str, str], dict[str, MemoryRecord]] = {}
    for m in valid:  # oldest first
        slot = slot_of(m)
        if slot is None or not holds_value(m):
            continue
        held = slots.setdefault(_key(m), {})
        if not slot.get("many"):
            held.clear()
        member = _NOT_WORD.sub("", _said(m).casefold())
        held.pop(member, None)
        held[member] = m
    ordered = sorted(
        slots.items(), key=lambda kv: (kv[0][0] != "", kv[0][0], _ORDER.get(kv[0][1], 99), kv[0][2])
    )
    return [m for _, held in ordered for m in held.values()]


def _said(m: MemoryRecord) -> str:
    slot = slot_of(m) or {}
    return str(slot.get("value") or m.object or m.text)


def _chain(
    m: MemoryRecord, replaced: dict[str, list[MemoryRecord]], as_of: datetime | None
) -> list[MemoryRecord]:
    """What `m` replaced, and what those replaced in turn, newest first (one flat list)."""
    found: dict[str, MemoryRecord] = {}
    todo = [m.id]
    while todo:
        for r in replaced.get(todo.pop(), []):
            if r.id not in found and r.id != m.id and begun(r, as_of):
                found[r.id] = r
                todo.append(r.id)
    return sorted(
        found.values(), key=lambda r: r.valid_from or r.recorded_at or _EPOCH, reverse=True
    )


def _replaced_index(memories: Iterable[MemoryRecord]) -> dict[str, list[MemoryRecord]]:
    """Memory id -> the memories closed in its favour, newest first."""
    index: dict[str, list[MemoryRecord]] = {}
    for m in memories:
        if m.superseded_by:
            index.setdefault(m.superseded_by, []).insert(0, m)
    return index


def _value(
    m: MemoryRecord,
    replaced: dict[str, list[MemoryRecord]],
    by_id: dict[str, MemoryRecord],
    as_of: datetime | None,
) -> ProfileValue:
    slot = slot_of(m) or {}
    earlier = tuple(_value(r, {}, by_id, as_of) for r in _chain(m, replaced, as_of))
    subject = None if _key(m)[0] == "" else m.subject
    return ProfileValue(
        attribute=m.predicate or m.kind,
        # as the rules read it, in the script of the memory's text (as its turn was typed)
        value=in_script_of(_said(m), m.text),
        text=m.text,
        memory_id=m.id,
        since=m.valid_from,
        sources=m.source_episode_ids,
        subject=subject,
        qualifier=slot.get("qualifier"),
        until=m.valid_to,
        replaced=earlier,
        city=city_of(_said(m)) if m.predicate in _PLACES else None,
    )


@dataclass
class _Lines:
    """Lines added in priority order while they fit the budget; sources numbered as cited."""

    max_tokens: int | None
    lines: list[str] = field(default_factory=list)
    used: int = 0
    references: dict[str, str] = field(default_factory=dict)
    full: bool = False
    # source -> its first label: a value said in hundreds of turns cites each, and a scan
    # of `references` per source made the unbounded text quadratic (7 ms at ~1,000 labels)
    labels: dict[str, str] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for label, source in self.references.items():
            self.labels.setdefault(source, label)

    def cite(self, sources: Sequence[str]) -> str:
        labels = []
        for source in sources:
            label = self.labels.get(source)
            if label is None:
                n = len(self.references) + 1
                while str(n) in self.references:  # a label the context's other part gave
                    n += 1
                label = str(n)
                self.references[label] = source
                self.labels[source] = label
            labels.append(f"[{label}]")
        return (" " + "".join(labels)) if labels else ""

    def add(self, line: str, sources: Sequence[str] = ()) -> bool:
        if self.full:
            return False
        before = dict(self.references)
        line += self.cite(sources)
        cost = count_tokens(line) + 1
        if self.max_tokens is not None and self.used + cost > self.max_tokens:
            self.full = True
            for label in set(self.references) - set(before):  # the labels the line took
                del self.labels[self.references[label]]
            self.references = before
            return False
        self.lines.append(line)
        self.used += cost
        return True


def _render(
    picture: Picture, max_tokens: int | None, cited: Mapping[str, str]
) -> tuple[str, dict[str, str]]:
    """The picture's text, in the order of what matters first when the budget runs out:
    the user's own values, open goals and tasks, the last session, other people's values."""
    out = _Lines(max_tokens, references=dict(cited))
    _values(out, HEADER, picture.values)
    goals, tasks = picture.goals, picture.tasks
    if (goals or tasks) and not out.full and out.add(PLANS_HEADER):
        for kind, items in (("Goal", goals), ("To do", tasks)):
            for g in items:
                out.add(f"- {kind}: {g.text} ({_since(g.since)})", g.sources)
    summary = picture.summary
    if summary is not None and not out.full:
        at = summary.valid_from
        day = "" if at is None else f" ({at:%a} {at.day} {at:%B %Y})"
        if out.add(SUMMARY_HEADER + day):
            for line in summary.text.splitlines():
                out.add(line)
    _values(out, PEOPLE_HEADER, picture.people)
    return "\n".join(out.lines), out.references


def _values(out: _Lines, header: str, values: Sequence[ProfileValue]) -> None:
    """A section of values under its header, each with what it replaced, while they fit."""
    if not values or out.full or not out.add(header):
        return
    for v in values:
        when = _since(v.since, "said" if v.attribute in _PLANNED else "since")
        where = f", {v.city}" if v.city else ""
        if not out.add(f"- {_label(v)}: {v.value}{where} ({when})", v.sources):
            return
        for r in v.replaced:
            out.add(f"  - replaced {r.value} ({_span(r)})", r.sources)


def _label(v: ProfileValue) -> str:
    name = v.attribute.replace("_", " ")
    if v.attribute in _PLANNED:
        name += " (planned)"
    if v.qualifier:
        name += f" ({v.qualifier})"
    return f"{v.subject} — {name}" if v.subject else name


def _since(at: datetime | None, word: str = "since") -> str:
    """ "since 5 Jan 2025" (a plan: "said 5 Jan 2025")."""
    return "date unknown" if at is None else f"{word} {at.day} {at:%b %Y}"


def _span(v: ProfileValue) -> str:
    start = "?" if v.since is None else f"{v.since.day} {v.since:%b %Y}"
    end = "?" if v.until is None else f"{v.until.day} {v.until:%b %Y}"
    return f"{start} – {end}"
