"""Stateful property test: random runs of add / update / delete / delete_all / revert /
maintain / sessions for three users on one SQLite file, with the invariants checked after
every step:

- isolation: no user's search, get_all or context shows another user's words, and another
  user's id is NotFoundError;
- every valid memory has a surviving source turn of its own user;
- no word of a deleted turn (or of a forgotten user) is left in any table, in the
  full-text vocabulary, or in the bytes of the database file and its WAL;
- a search `as_of` T returns only what was valid (and said) at T;
- delete_all empties that user and leaves the others as they were.

Each turn carries a unique marker token ("zq0007k") so that its words can be looked for
anywhere. `pytest -s` prints how many runs, steps and rules were exercised.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
)

from dualtrace import Memory, NotFoundError, ValidationError
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.models import Item
from dualtrace.session import Session

USERS = ("alice", "bob", "carol")
CITIES = ("Paris", "Lyon", "Berlin", "Hangzhou", "Oslo")
HOBBIES = ("hiking", "chess", "painting", "cycling", "jazz")
THINGS = ("fuel economy", "boot space", "quiet cabins", "cheap rent", "good coffee")
COLOURS = ("red", "blue", "green", "white")
TEMPLATES = (
    "I live in {city} {m}.",
    "I moved to {city} {m} last week.",
    "I like {hobby} {m}.",
    "I care about {thing} {m}.",
    "My favourite colour is {colour} {m}.",
    "The weather is nice today {m}.",
    "I work at Acme in {city} {m}.",
)
REPLIES = ("Noted {m}.", "Good to know about {hobby} {m}.", "Thanks, {city} sounds nice {m}.")
START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)

FIGURES: Counter[str] = Counter()  # runs, steps, rules fired, checks: printed at the end

words = st.fixed_dictionaries(
    {
        "city": st.sampled_from(CITIES),
        "hobby": st.sampled_from(HOBBIES),
        "thing": st.sampled_from(THINGS),
        "colour": st.sampled_from(COLOURS),
    }
)
users = st.sampled_from(USERS)
picks = st.integers(min_value=0, max_value=10_000)  # index into whatever list is current


@dataclass
class Turn:
    """A stored turn in the model: its user and every marker its text has carried."""

    user: str
    markers: set[str] = field(default_factory=set)


class StoreMachine(RuleBasedStateMachine):
    """Drives one Memory on a temp file and keeps a model of what each user said."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="dualtrace-stateful-"))
        self.db = self.dir / "memory.db"
        self.mem = Memory(self.db, embedder=FakeEmbedder())
        self.counter = 0
        self.clock = START
        self.times: list[datetime] = []
        self.turns: dict[str, Turn] = {}  # episode id -> alive turn
        self.owner: dict[str, str] = {}  # every marker ever issued -> its user
        self.dead: set[str] = set()  # markers whose turn (or user) was deleted
        self.ids: dict[str, set[str]] = {u: set() for u in USERS}  # every id seen, by user
        self.sessions: dict[str, Session] = {}
        self.since_maintain = 0
        self.with_memories: list[str] = []  # users with a valid memory, after the last step
        FIGURES["runs"] += 1

    def teardown(self) -> None:
        self.mem.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- helpers --------------------------------------------------------------------------

    def _marker(self, user: str) -> str:
        self.counter += 1
        marker = f"zq{self.counter:04d}k"  # fixed width: no marker is inside another
        self.owner[marker] = user
        return marker

    def _tick(self) -> datetime:
        self.clock += timedelta(minutes=13)
        self.times.append(self.clock)
        return self.clock

    def _fired(self, name: str) -> None:
        self.since_maintain += 1
        FIGURES["steps"] += 1
        FIGURES[f"rule {name}"] += 1

    def _alive(self, user: str) -> list[str]:
        return [e for e, t in self.turns.items() if t.user == user]

    def _memories(self, user: str, include_invalid: bool = False) -> list[Item]:
        # in an order that does not hang on random ids or the wall clock: hypothesis
        # replays a run and must pick the same memory again
        items = self.mem.get_all(user_id=user, include_invalid=include_invalid)
        memories = [i for i in items if i.kind != "episode"]
        return sorted(memories, key=lambda i: (i.text, i.kind, i.valid_from or START))

    def _record(self, user: str, episodes: list[str], markers: list[str]) -> None:
        for episode, marker in zip(episodes, markers, strict=True):
            self.turns.setdefault(episode, Turn(user)).markers.add(marker)
            self.ids[user].add(episode)

    def _kill_turn(self, episode: str) -> None:
        self.dead |= self.turns.pop(episode).markers

    # -- rules ----------------------------------------------------------------------------

    @rule(user=users, w=words, template=st.sampled_from(TEMPLATES), reply=st.booleans())
    def add(self, user: str, w: dict[str, str], template: str, reply: bool) -> None:
        self._fired("add")
        at = self._tick()
        markers = [self._marker(user)]
        messages = [{"role": "user", "content": template.format(m=markers[0], **w)}]
        if reply:
            markers.append(self._marker(user))
            text = REPLIES[self.counter % len(REPLIES)].format(m=markers[1], **w)
            messages.append({"role": "assistant", "content": text})
        res = self.mem.add(messages, user_id=user, session_id="chat", timestamp=at)
        self._record(user, res.episodes, markers)

    @precondition(lambda self: self.turns)
    @rule(i=picks, w=words, template=st.sampled_from(TEMPLATES))
    def update_turn(self, i: int, w: dict[str, str], template: str) -> None:
        self._fired("update_turn")
        self._tick()
        episode = list(self.turns)[i % len(self.turns)]
        turn = self.turns[episode]
        marker = self._marker(turn.user)
        self.mem.update(episode, template.format(m=marker, **w), user_id=turn.user)
        turn.markers.add(marker)  # the old text stays in history: the turn owns both

    @precondition(lambda self: self.with_memories)
    @rule(u=picks, i=picks, w=words)
    def update_memory(self, u: int, i: int, w: dict[str, str]) -> None:
        # A memory's edited text belongs to no turn: its marker is only checked after
        # delete_all (whether deleting a source turn should take a hand edit is open).
        user = self.with_memories[u % len(self.with_memories)]
        memories = self._memories(user)
        self._fired("update_memory")
        self._tick()
        marker = self._marker(user)
        item = memories[i % len(memories)]
        self.mem.update(item.id, f"The user enjoys {w['hobby']} {marker}.", user_id=user)

    @precondition(lambda self: self.turns)
    @rule(i=picks)
    def delete_turn(self, i: int) -> None:
        self._fired("delete_turn")
        self._tick()
        episode = list(self.turns)[i % len(self.turns)]
        self.mem.delete(episode, user_id=self.turns[episode].user)
        self._kill_turn(episode)

    @precondition(lambda self: self.with_memories)
    @rule(u=picks, i=picks)
    def delete_memory(self, u: int, i: int) -> None:
        user = self.with_memories[u % len(self.with_memories)]
        memories = self._memories(user, include_invalid=True)
        self._fired("delete_memory")
        self._tick()
        self.mem.delete(memories[i % len(memories)].id, user_id=user)

    # the rare, sweeping rules wait for something to sweep (else they crowd out the rest)
    @precondition(lambda self: len(self.turns) >= 4)
    @rule(user=users)
    def delete_all(self, user: str) -> None:
        self._fired("delete_all")
        self._tick()
        others = {u: self._snapshot(u) for u in USERS if u != user}
        self.mem.delete_all(user_id=user)
        for episode in self._alive(user):
            self._kill_turn(episode)
        self.dead |= {m for m, u in self.owner.items() if u == user}
        self.sessions.pop(user, None)
        assert self.mem.get_all(user_id=user, include_invalid=True) == []
        assert self.mem.search("I like live care", user_id=user, reinforce=False) == []
        for u, before in others.items():
            assert self._snapshot(u) == before, f"delete_all({user}) changed {u}"

    @precondition(lambda self: self.with_memories)
    @rule(u=picks, i=picks, j=picks)
    def revert(self, u: int, i: int, j: int) -> None:
        self._fired("revert")
        user = self.with_memories[u % len(self.with_memories)]
        memories = self._memories(user, include_invalid=True)
        item = memories[i % len(memories)]
        entries = self.mem.history(item.id, user_id=user)
        self._tick()
        entry = entries[j % len(entries)]
        try:
            self.mem.revert(entry.id, user_id=user)
        except ValidationError:  # not every entry can be undone (a NOOP, a turn's ADD)
            FIGURES["revert refused"] += 1
            return
        FIGURES[f"revert {entry.event}"] += 1

    @precondition(lambda self: self.since_maintain >= 4)
    @rule()
    def maintain(self) -> None:
        self._fired("maintain")
        self.since_maintain = 0
        self.mem.maintain(now=self._tick())
        for user, session in list(self.sessions.items()):
            if session.ended:  # idle for longer than session_idle_minutes
                del self.sessions[user]

    @rule(user=users, w=words, template=st.sampled_from(TEMPLATES + REPLIES))
    def session_turn(self, user: str, w: dict[str, str], template: str) -> None:
        """A turn in the user's open session (one is started first if there is none)."""
        self._fired("session_turn")
        if user not in self.sessions:
            FIGURES["sessions started"] += 1
            self.sessions[user] = self.mem.session(user_id=user, now=self._tick())
        marker = self._marker(user)
        role = "assistant" if template in REPLIES else "user"
        text = template.format(m=marker, **w)
        episode = self.sessions[user].add(role, text, timestamp=self._tick())
        self._record(user, [episode], [marker])

    @precondition(lambda self: self.sessions)
    @rule(i=picks)
    def end_session(self, i: int) -> None:
        self._fired("end_session")
        user = sorted(self.sessions)[i % len(self.sessions)]
        self.sessions.pop(user).end(now=self._tick())

    # -- invariants -----------------------------------------------------------------------

    def _snapshot(self, user: str) -> list[tuple[str, str, str]]:
        items = self.mem.get_all(user_id=user, include_invalid=True)
        return sorted((i.id, i.kind, i.text) for i in items)

    def _foreign(self, user: str, text: str) -> list[str]:
        return [m for m, u in self.owner.items() if u != user and m in text]

    @invariant()
    def users_stay_apart(self) -> None:
        FIGURES["checks isolation"] += 1
        for user in USERS:
            items = self.mem.get_all(user_id=user, include_invalid=True)
            self.ids[user] |= {i.id for i in items}
            theirs = [m for m, u in self.owner.items() if u != user][-6:]
            query = " ".join(["I live like care", *theirs])
            hits = self.mem.search(query, user_id=user, limit=50, reinforce=False)
            context = self.mem.context(query, user_id=user, reinforce=False).text
            for item in [*items, *hits]:
                assert not self._foreign(user, item.text + (item.scene or "")), item
                assert not any(item.id in self.ids[u] for u in USERS if u != user), item
            assert not self._foreign(user, context), context
        for user in USERS:
            for other in USERS:
                if other == user:
                    continue
                for record_id in sorted(self.ids[other])[:3]:
                    with pytest.raises(NotFoundError):
                        self.mem.get(record_id, user_id=user)

    @invariant()
    def memories_have_a_living_source(self) -> None:
        self.with_memories = [u for u in USERS if self._memories(u)]  # for the next rule
        for user in USERS:
            alive = set(self._alive(user))
            for item in self._memories(user):
                sources = {s.episode_id for s in item.sources}
                assert sources & alive, (item.id, item.text, sources)

    @invariant()
    def deleted_words_leave_the_file(self) -> None:
        """The deletion scrubs at once (secure_delete, VACUUM, WAL truncated): no
        maintain() or reopen is needed before the bytes are looked at."""
        if not self.dead:
            return
        FIGURES["checks deleted words"] += 1
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            tables = [
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            text = "\n".join(repr(conn.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables)
            conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, fts, 'row')")
            terms = {r[0] for r in conn.execute("SELECT term FROM temp.vocab")}
        finally:
            conn.close()  # a reader left open would stop the store's WAL truncation
        data = b"".join(
            Path(f"{self.db}{suffix}").read_bytes()
            for suffix in ("", "-wal")
            if Path(f"{self.db}{suffix}").exists()
        )
        # the scan can see words when they are there: every living turn's are
        assert all(any(m in text for m in t.markers) for t in self.turns.values())
        for marker in sorted(self.dead):
            assert marker not in terms, f"deleted word {marker} in the full-text index"
            assert marker not in text, f"deleted word {marker} in a table"
            assert marker.encode() not in data, f"deleted word {marker} in the file"

    @invariant()
    def as_of_reads_match_validity(self) -> None:
        if not self.times:
            return
        moments = {self.times[0], self.times[len(self.times) // 2], self.times[-1]}
        for user in USERS:
            for at in sorted(moments):
                FIGURES["checks as_of"] += 1
                hits = self.mem.search(
                    "I live like care colour", user_id=user, as_of=at, limit=50, reinforce=False
                )
                for hit in hits:
                    assert not any(m in hit.text for m in self.dead), hit
                    if hit.kind == "episode":
                        assert hit.occurred_at <= at, (hit.id, hit.occurred_at, at)
                        continue
                    assert hit.valid_from is None or hit.valid_from <= at, (hit, at)
                    assert hit.valid_to is None or hit.valid_to > at, (hit, at)


StoreMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=30,
    deadline=None,
    derandomize=True,
    database=None,
)
TestStore = StoreMachine.TestCase


@pytest.fixture(scope="module", autouse=True)
def _print_figures() -> Iterator[None]:
    FIGURES.clear()
    yield
    rules = sorted((k, n) for k, n in FIGURES.items() if k.startswith("rule "))
    print(
        f"\nstateful: {FIGURES['runs']} runs, {FIGURES['steps']} steps, "
        f"{sum(n for _, n in rules)} rules fired"
    )
    for name, n in rules:
        print(f"  {name}: {n}")
    for name, n in sorted(FIGURES.items()):
        if not name.startswith("rule ") and name not in ("runs", "steps"):
            print(f"  {name}: {n}")
