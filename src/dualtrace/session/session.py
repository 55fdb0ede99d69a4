"""Short-term sessions: every turn stored at once, a rolling fact summary, and a context that
splits a token budget between long-term memories, that summary and the recent turns.

    with Memory("memory.db") as mem:
        chat = mem.session(user_id="alice")
        chat.add("user", "Let's raise the budget to 400k")
        prompt = chat.context(max_tokens=2000).text   # memories, summary, recent turns
        chat.end()                                    # derive long-term memories now

Every turn is an episode the moment it is added, so a crash loses nothing; extraction waits
for `end()` (or the idle timeout, `end_idle_sessions`). The `sessions` table holds only
bookkeeping (times, how far extraction got, non-text flags): the summary is rebuilt from the
stored turns, so a deleted turn leaves none of its words behind. An ended session can still
be opened and read, but not added to: start a new session instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from dualtrace.config import MemoryConfig
from dualtrace.encode.episodes import new_id
from dualtrace.encode.messages import ROLES
from dualtrace.encode.recorder import EpisodeRecorder
from dualtrace.encode.rules import RulesExtractor
from dualtrace.errors import ValidationError
from dualtrace.inputs import (
    check_count,
    check_optional_id,
    check_query,
    check_text,
    check_user_id,
    parse_time,
)
from dualtrace.lifecycle.reinforcement import reinforce_recalled
from dualtrace.lifecycle.writer import MemoryWriter
from dualtrace.models import (
    AddResult,
    Context,
    Episode,
    EventKind,
    Hit,
    MemoryRecord,
    Profile,
    SessionContext,
)
from dualtrace.recall.read import Keep, read
from dualtrace.recall.search import Searcher
from dualtrace.recall.start import Opening, opening
from dualtrace.session.carry import carry_over
from dualtrace.session.summary import (
    Key,
    RollingSummary,
    TurnFacts,
    normalise_value,
    outdated_line,
    read_turn,
    value_key,
)
from dualtrace.store.base import Store
from dualtrace.text.slots.stored import holds_value
from dualtrace.text.tokens import count_tokens

SUMMARY_HEADER = "## This session so far (facts; newest value wins)"
TURNS_HEADER = "## Recent turns (oldest first)"
SEPARATOR = "\n\n"
END_BATCH = 50  # turns per extraction call when a session ends
_EMPTY = Context(text="", items=[], tokens=0)

Event = tuple[str, EventKind, str]


class Extracting(Protocol):
    """What ending a session needs: the store, the settings and the writer."""

    @property
    def store(self) -> Store: ...

    @property
    def config(self) -> MemoryConfig: ...

    @property
    def writer(self) -> MemoryWriter: ...


@dataclass(frozen=True)
class SessionParts:
    """The collaborators a session works with (built once by `Memory`)."""

    store: Store
    config: MemoryConfig
    recorder: EpisodeRecorder
    searcher: Searcher
    writer: MemoryWriter


class Session:
    """A conversation in progress: add turns, get a budgeted context, end it.

    Get one with `Memory.session(user_id=..., session_id=None)`; passing an existing id
    resumes that session (after a restart, too) from its stored turns.

    Example::

        chat = mem.session(user_id="alice")
        chat.add("user", "My budget is 300k")
        chat.add("assistant", "Noted.")
        print(chat.context("what can I afford?", max_tokens=1000).text)
        chat.end()
    """

    def __init__(
        self, parts: SessionParts, user_id: str, session_id: str, actor: str | None = None
    ) -> None:
        self._parts = parts
        self._actor = actor  # who history names for this handle's changes (None: config's)
        self._store = parts.store
        self.user_id = user_id
        self.id = session_id
        self._extractor = RulesExtractor()
        self._facts: dict[tuple[str, str], TurnFacts] = {}  # (episode id, text) → facts
        self._costs: dict[tuple[str, str], int] = {}  # (episode id, text) → line tokens

    @classmethod
    def open(
        cls,
        parts: SessionParts,
        *,
        user_id: str,
        session_id: str | None = None,
        now: datetime | str | None = None,
        actor: str | None = None,
    ) -> Session:
        """A new session (started at `now`), or an existing one of this user, by id."""
        user_id = check_user_id(user_id)
        session_id = check_optional_id("session_id", session_id) or new_id("sess")
        if parts.store.get_session(user_id, session_id) is None:
            parts.store.touch_session(user_id, session_id, _time(now, "now"))
        return cls(parts, user_id, session_id, check_optional_id("actor", actor))

    def __repr__(self) -> str:
        return f"Session(user_id={self.user_id!r}, id={self.id!r})"

    # -- write ----------------------------------------------------------------------------

    def add(
        self,
        role: str,
        content: str,
        timestamp: datetime | str | float | None = None,
        name: str | None = None,
        id: str | None = None,
    ) -> str:
        """Store one turn as an episode now (extraction waits for `end`); returns its id.

        `id` is the caller's message id: adding it again returns the stored episode.
        """
        if not isinstance(role, str) or role not in ROLES:
            raise ValidationError(f"role={role!r} is unknown; use one of {sorted(ROLES)}")
        max_chars = self._parts.config.max_message_chars
        content = check_text(content, field="content", max_chars=max_chars)
        at = _time(timestamp, "timestamp")
        self._require_open()
        message = {"role": role, "content": content, "name": name, "id": id}
        ids, _ = self._parts.recorder.record(
            message, user_id=self.user_id, session_id=self.id, timestamp=at, actor=self._actor
        )
        self._store.touch_session(self.user_id, self.id, at)
        return ids[0]

    def end(self, now: datetime | str | None = None) -> AddResult:
        """Write the session to long-term memory (extraction over the turns not yet
        extracted) and mark it ended. A second call does nothing and returns no events.

        The result lists the turns extracted now, the memory events, and warnings. With
        the config's `extract` off, the session is ended without deriving memories.
        """
        at = _time(now, "now")
        done = _finish(self._parts, self.user_id, self.id, at, "explicit", self._actor)
        return done or AddResult(episodes=[], events=[])

    def _require_open(self) -> None:
        row = self._store.get_session(self.user_id, self.id)
        if row is not None and row.ended_at is not None:
            why = row.state.get("end_reason", "ended")
            raise ValidationError(
                f"session {self.id!r} of user {self.user_id!r} ended at "
                f"{row.ended_at:%Y-%m-%d %H:%M} UTC ({why}) and takes no more turns; its "
                f"turns are in long-term memory: start a new session with "
                f"Memory.session(user_id={self.user_id!r})"
            )

    # -- state ----------------------------------------------------------------------------

    @property
    def session_id(self) -> str:
        """The session's id (the same as `id`), as `Memory.session(session_id=...)` takes it."""
        return self.id

    @property
    def ended(self) -> bool:
        """True once the session was ended (by `end` or the idle timeout)."""
        row = self._store.get_session(self.user_id, self.id)
        return row is not None and row.ended_at is not None

    @property
    def summary(self) -> list[str]:
        """The whole session's rolling summary: goal, pending tasks, facts, notes."""
        return self._rolling(self._turns()).lines()

    @property
    def goal(self) -> str | None:
        """The active goal: the latest plan or decision stated in the session."""
        return self._rolling(self._turns()).goal

    @property
    def tasks(self) -> list[str]:
        """Pending tasks ("remind me…", "记得…"), oldest first."""
        return list(self._rolling(self._turns()).tasks.values())

    @property
    def profile(self) -> dict[tuple[str, str], str]:
        """Single-valued facts learned in this session: (subject, predicate) → newest value."""
        return self._rolling(self._turns()).profile()

    def _turns(self) -> list[Episode]:
        # Read from the store each time: turns deleted or edited since show as they are now.
        return self._store.session_episodes(self.user_id, self.id, -1)

    def _rolling(self, turns: list[Episode]) -> RollingSummary:
        rolling = RollingSummary()
        for turn in turns:
            rolling.fold(turn.seq, self._turn_facts(turn))
        return rolling

    def _turn_facts(self, turn: Episode) -> TurnFacts:
        key = (turn.id, turn.text)
        if key not in self._facts:
            self._facts[key] = read_turn(turn, self._extractor)
        return self._facts[key]

    # -- context --------------------------------------------------------------------------

    def context(
        self,
        query: str | None = None,
        max_tokens: int = 4000,
        now: datetime | str | None = None,
        *,
        reinforce: bool = True,
    ) -> SessionContext:
        """Long-term memories, the rolling summary and the newest whole turns, in max_tokens.

        The budget is split by the `session_*_share` settings; what the memories or the
        summary leave unused goes to recent turns. Turns are never cut: older ones that do
        not fit are folded into the summary. Memories come from searching `query` (default:
        the last user turn); a memory the session has since contradicted is left out.
        """
        max_tokens = check_count(
            "max_tokens", max_tokens, fix="pass the context's size in tokens, e.g. 2000"
        )
        cfg = self._parts.config
        if query is not None:
            query = check_query(query, cfg.max_message_chars)
        turns = self._turns()
        rolling = self._rolling(turns)
        question = query or next((t.text for t in reversed(turns) if t.role == "user"), None)
        if len(turns) <= 1:  # the session starts (at most its current input is stored)
            return self._opening(question, turns, rolling, max_tokens, now, reinforce)
        mem_room = int(max_tokens * cfg.session_memory_share)
        summary_room = int(max_tokens * cfg.session_summary_share)
        memories = self._long_term(question, mem_room, now, reinforce, rolling.current())
        room = int(max_tokens * cfg.session_turns_share) + mem_room - memories.tokens
        room -= 2 * count_tokens(SEPARATOR)
        recent = self._fit_turns(turns, room)
        summary = _fit_lines(rolling.lines(_first_seq(recent)), summary_room)
        spare = summary_room - count_tokens(_render_summary(summary))
        if spare > 0 and len(recent) < len(turns):  # unused summary room goes to turns
            longer = self._fit_turns(turns, room + spare)
            if len(longer) > len(recent):
                used = count_tokens(_render_summary(summary))
                recent = longer
                summary = _fit_lines(rolling.lines(_first_seq(recent)), used)
        return _assemble(max_tokens, memories, summary, recent)

    def _long_term(
        self,
        question: str | None,
        room: int,
        now: datetime | str | None,
        reinforce: bool,
        current: dict[Key, str],
    ) -> Context:
        """The best long-term hits for the question, minus this session's own records and
        memories the session contradicts, packed into `room` tokens."""
        if question is None or room < 1:
            return Context(text="", items=[], tokens=0)
        return read(
            self._parts.searcher,
            question,
            user_id=self.user_id,
            max_tokens=room,
            now=now,
            keep=self._keep(current),
            reinforce=self._reinforce if reinforce else None,
        )

    def _opening(
        self,
        question: str | None,
        turns: list[Episode],
        rolling: RollingSummary,
        max_tokens: int,
        now: datetime | str | None,
        reinforce: bool,
    ) -> SessionContext:
        """A starting session's context: the user's profile (less the values the current
        input has changed), the memories for the input, then the input itself. The turns
        and summary take what they need of their shares first; the long-term part has the
        rest of the memory, summary and turns shares, split by `start_profile_share`."""
        cfg = self._parts.config
        recent = self._fit_turns(turns, int(max_tokens * cfg.session_turns_share))
        summary_room = int(max_tokens * cfg.session_summary_share)
        summary = _fit_lines(rolling.lines(_first_seq(recent)), summary_room)
        shares = cfg.session_memory_share + cfg.session_turns_share + cfg.session_summary_share
        used = count_tokens(_render_turns(recent)) + count_tokens(_render_summary(summary))
        room = int(max_tokens * shares) - used - 3 * count_tokens(SEPARATOR)
        current = rolling.current()
        start = Opening(Profile(user_id=self.user_id, text="", tokens=0, values=[]), _EMPTY)
        if room >= 1:
            start = opening(
                self._parts.searcher,
                question,
                user_id=self.user_id,
                max_tokens=room,
                share=cfg.start_profile_share,
                now=now,
                keep=self._keep(current),
                reinforce=self._reinforce if reinforce else None,
                stale=lambda m: _stale(m, current),
                stale_line=lambda line: outdated_line(line, current),
            )
        return _assemble(max_tokens, start.memories, summary, recent, start.profile)

    def _keep(self, current: dict[Key, str]) -> Keep:
        """Hits less this session's own (it shows them itself) and those it contradicts."""

        def keep(hits: list[Hit]) -> list[Hit]:
            hits = [h for h in hits if h.session_id != self.id]
            stale = self._contradicted(hits, current)
            return [h for h in hits if h.id not in stale]

        return keep

    def _reinforce(self, user_id: str, recalled: Sequence[Hit]) -> None:
        step = self._parts.config.reinforce_step
        reinforce_recalled(self._store, user_id, recalled, step)

    def _contradicted(self, hits: list[Hit], current: dict[Key, str]) -> set[str]:
        """Ids of hits stating another value of a single-valued fact the session set."""
        if not current:
            return set()
        store = self._store
        stale: set[str] = set()
        records = store.get_memories(self.user_id, [h.id for h in hits if h.kind != "episode"])
        stale.update(rid for rid, record in records.items() if _stale(record, current))
        turns = store.get_episodes(self.user_id, [h.id for h in hits if h.kind == "episode"])
        for eid, turn in turns.items():
            for key, obj, _ in self._turn_facts(turn).keyed:
                if key in current and current[key] != normalise_value(obj):
                    stale.add(eid)
        return stale

    def _fit_turns(self, turns: list[Episode], room: int) -> list[Episode]:
        """The newest whole turns that fit in `room` tokens with their header, oldest first."""
        used = count_tokens(TURNS_HEADER)
        chosen: list[Episode] = []
        for turn in reversed(turns):
            key = (turn.id, turn.text)
            if key not in self._costs:
                self._costs[key] = count_tokens("\n" + _turn_line(turn))
            if used + self._costs[key] > room:
                break
            chosen.append(turn)
            used += self._costs[key]
        chosen.reverse()
        while chosen and count_tokens(_render_turns(chosen)) > room:  # BPE merges, rarely
            chosen.pop(0)
        return chosen


def end_idle_sessions(
    parts: Extracting,
    now: datetime | str | None = None,
    idle_minutes: float | None = None,
    user_id: str | None = None,
) -> list[tuple[str, str]]:
    """End every open session (of every user, or of `user_id`) with no turn for
    `idle_minutes` (default: the config's `session_idle_minutes`): extract its turns, then
    mark it ended.

    Returns the (user id, session id) pairs it ended.
    """
    at = _time(now, "now")
    minutes = parts.config.session_idle_minutes if idle_minutes is None else idle_minutes
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not minutes > 0:
        raise ValidationError(f"idle_minutes={idle_minutes!r} must be a positive number")
    ended: list[tuple[str, str]] = []
    for owner, session_id in parts.store.idle_sessions(at - timedelta(minutes=minutes)):
        if user_id is not None and owner != user_id:
            continue
        if _finish(parts, owner, session_id, at, "idle") is not None:
            ended.append((owner, session_id))
    return ended


def _finish(
    parts: Extracting,
    user_id: str,
    session_id: str,
    at: datetime,
    reason: str,
    actor: str | None = None,
) -> AddResult | None:
    """Extract the session's turns not yet extracted, then end it; None if already ended."""
    store = parts.store
    row = store.get_session(user_id, session_id)
    if row is None or row.ended_at is not None:
        return None
    turns = store.session_episodes(user_id, session_id, row.extracted_seq)
    if not parts.config.extract:
        turns = []
    events: list[Event] = []
    warnings: list[str] = []
    for start in range(0, len(turns), END_BATCH):
        batch = turns[start : start + END_BATCH]
        found, error = parts.writer.write(user_id, batch, actor=actor)
        events += found
        if error is not None:
            warnings.append(f"extraction degraded: {error}")
        # recorded per batch: an interrupted end() resumes where it stopped
        store.set_session_extracted(user_id, session_id, batch[-1].seq)
    if parts.config.extract:  # the goal, open tasks and summary carried to the next session
        everything = store.session_episodes(user_id, session_id, -1)
        carry_over(store, parts.writer.keys, user_id, session_id, everything)
    store.end_session(user_id, session_id, at, reason)
    return AddResult(episodes=[t.id for t in turns], events=events, warnings=warnings)


def _stale(record: MemoryRecord, current: dict[Key, str]) -> bool:
    """Whether a memory states another value of a single-valued fact the session set."""
    key = value_key(record)
    value = normalise_value(record.object or "")
    return key in current and holds_value(record) and bool(value) and current[key] != value


def _assemble(
    max_tokens: int,
    memories: Context,
    summary: list[str],
    recent: list[Episode],
    profile: Profile | None = None,
) -> SessionContext:
    """Join the sections (the profile first, when a starting session has one); trim (oldest
    turn, last summary line, memories, profile) if BPE overflows."""
    while True:
        parts = {
            **({"profile": profile.text} if profile is not None else {}),
            "memories": memories.text,
            "summary": _render_summary(summary),
            "turns": _render_turns(recent),
        }
        text = SEPARATOR.join(part for part in parts.values() if part)
        tokens = count_tokens(text)
        if tokens <= max_tokens:
            break
        if recent:
            recent = recent[1:]
        elif summary:
            summary = summary[:-1]
        elif memories.text:
            memories = _EMPTY
        else:
            profile = None
    references = {**memories.references, **(profile.references if profile else {})}
    return SessionContext(
        text=text,
        tokens=tokens,
        sections={name: count_tokens(part) for name, part in parts.items()},
        turns=[t.id for t in recent],
        memories=list(memories.items),
        summary=summary,
        references=references,
    )


def _fit_lines(lines: list[str], room: int) -> list[str]:
    """The summary lines that fit in `room` tokens with the header, most important first."""
    used = count_tokens(SUMMARY_HEADER)
    chosen: list[str] = []
    for line in lines:
        cost = count_tokens("\n- " + line)
        if used + cost <= room:
            chosen.append(line)
            used += cost
    while chosen and count_tokens(_render_summary(chosen)) > room:
        chosen.pop()
    return chosen


def _render_summary(lines: list[str]) -> str:
    return "\n".join([SUMMARY_HEADER, *(f"- {line}" for line in lines)]) if lines else ""


def _render_turns(turns: list[Episode]) -> str:
    return "\n".join([TURNS_HEADER, *(_turn_line(t) for t in turns)]) if turns else ""


def _turn_line(turn: Episode) -> str:
    return f"{turn.speaker or turn.role}: {turn.text}"


def _first_seq(recent: list[Episode]) -> int | None:
    return recent[0].seq if recent else None


def _time(value: datetime | str | float | None, field: str) -> datetime:
    return datetime.now(UTC) if value is None else parse_time(value, field=field)
