"""Memory.maintain(): expire and fade into the archive (restorable), consolidate what write
time missed, normalise importance, link new memories — one user at a time, or all."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ValidationError
from dualtrace.models import MemoryRecord
from dualtrace.store.base import EntityRow, MemoryGraph

T0 = datetime(2024, 1, 10, 9, tzinfo=UTC)


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as memory:
        yield memory


def _ids(mem: Memory, user: str = "u", *, include_invalid: bool = False) -> set[str]:
    items = mem.get_all(
        user_id=user, kinds=["fact", "preference", "event"], include_invalid=include_invalid
    )
    return {i.id for i in items}


def _stored(
    mem: Memory, user: str, *texts: tuple[str, str | None, str | None], **kw: object
) -> list[str]:
    """Memories written straight to the store, as an import or an old version would have."""
    (episode,) = mem.add("turn", user_id=user, timestamp=T0, extract=False).episodes
    records = [
        MemoryRecord(
            id=f"mem_{user}_{i}",
            user_id=user,
            kind="fact",
            text=text,
            subject="Ann",
            predicate=predicate,
            object=obj,
            valid_from=T0 + timedelta(days=i),
            source_episode_ids=(episode,),
            **kw,
        )  # type: ignore[arg-type]
        for i, (text, predicate, obj) in enumerate(texts)
    ]
    keys = [k for r in records for k in mem.memory_keys(user, r)]
    mem.store.insert_memories(user, records, keys, "test")
    return [r.id for r in records]


def test_expired_memories_are_archived_and_restorable(mem: Memory) -> None:
    events = mem.add("I have a dentist appointment this week.", user_id="u", timestamp=T0).events
    (mid,) = [e[0] for e in events]
    assert mem.maintain(user_id="u", now=T0 + timedelta(days=1)).expired == 0
    report = mem.maintain(user_id="u", now=T0 + timedelta(days=30))
    assert report.expired == 1 and mid not in _ids(mem)
    assert not mem.search(
        "dentist appointment", user_id="u", kinds=["event", "fact"], now=T0 + timedelta(days=30)
    )
    archived = mem.get(mid, user_id="u")
    assert archived.archived and mid in _ids(mem, include_invalid=True)
    assert [h.event for h in mem.history(mid, user_id="u")][-1] == "ARCHIVE"
    assert not mem.restore(mid, user_id="u").archived
    assert mid in _ids(mem)
    with pytest.raises(ValidationError, match="is not archived"):
        mem.restore(mid, user_id="u")


def test_faded_memories_go_recalled_ones_stay(mem: Memory) -> None:
    old = mem.add("I once tried pottery in Kyoto.", user_id="u", timestamp="2020-03-01").events
    used = mem.add("I once tried archery in Osaka.", user_id="u", timestamp="2020-03-01").events
    hits = mem.search("archery Osaka", user_id="u", kinds=["event"], limit=1)  # recalled now
    assert [h.id for h in hits] == [used[0][0]]
    report = mem.maintain(user_id="u", now=datetime.now(UTC) + timedelta(days=10))
    assert report.archived == 1
    assert old[0][0] not in _ids(mem) and used[0][0] in _ids(mem)


def test_fading_can_be_turned_off(tmp_path: Path) -> None:
    config = MemoryConfig(archive_importance=0.0)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), config=config) as mem:
        mem.add("I once tried pottery in Kyoto.", user_id="u", timestamp="2020-03-01")
        assert mem.maintain(now=datetime.now(UTC)).archived == 0


def test_duplicates_and_stale_values_missed_at_write_time(mem: Memory) -> None:
    first, second, hz, sh = _stored(
        mem,
        "u",
        ("Ann likes tea.", "likes", "tea"),
        ("Ann likes tea.", "likes", "tea"),
        ("Ann lives in Hangzhou.", "lives_in", "Hangzhou"),
        ("Ann lives in Shanghai.", "lives_in", "Shanghai"),
    )
    report = mem.maintain(user_id="u", now=T0 + timedelta(days=5))
    assert (report.duplicates, report.superseded) == (1, 1)
    assert _ids(mem) == {first, sh}
    assert mem.get(second, user_id="u").archived
    hangzhou = mem.get(hz, user_id="u")
    assert hangzhou.superseded_by == sh and hangzhou.valid_to == mem.get(sh, user_id="u").valid_from
    again = mem.maintain(user_id="u", now=T0 + timedelta(days=5))
    assert (again.duplicates, again.superseded) == (0, 0)  # idempotent


def test_importance_is_normalised_when_it_inflates(mem: Memory) -> None:
    ids = _stored(
        mem, "u", *[(f"Ann fact number {i}.", None, None) for i in range(12)], importance=0.95
    )
    assert mem.maintain(user_id="u", now=T0).normalised == 1
    values = [mem.get(i, user_id="u").importance or 0 for i in ids]
    assert abs(sum(values) / len(values) - 0.5) < 1e-6


def test_memories_without_links_get_linked(mem: Memory) -> None:
    a, b = _stored(
        mem, "u", ("Ann met Bob in Paris.", None, None), ("Bob moved to Paris.", None, None)
    )
    paris = EntityRow("Paris", "paris", "place", "paris")
    mem.store.insert_memories("u", [], [], "test", MemoryGraph(entities=((a, paris), (b, paris))))
    assert mem.maintain(user_id="u", now=T0).linked == 2
    rows = mem.store._read("SELECT src_id, dst_id FROM links WHERE user_id = 'u'")  # type: ignore[attr-defined]
    assert {(r[0], r[1]) for r in rows} == {(a, b), (b, a)}
    assert mem.maintain(user_id="u", now=T0).linked == 0


def test_maintenance_of_one_user_leaves_others_alone(mem: Memory) -> None:
    for user in ("a", "b"):
        _stored(mem, user, ("Ann likes tea.", "likes", "tea"), ("Ann likes tea.", "likes", "tea"))
    assert mem.maintain(user_id="a", now=T0).duplicates == 1
    assert len(_ids(mem, "b")) == 2
    report = mem.maintain(now=T0)  # every user
    assert report.users == 2 and report.duplicates == 1 and len(_ids(mem, "b")) == 1


def test_maintain_ends_idle_sessions_and_extracts_them(mem: Memory) -> None:
    session = mem.session(user_id="u", now=T0)
    session.add("user", "I live in Hangzhou.", timestamp=T0)
    assert _ids(mem) == set()  # extraction waits for the session's end
    assert mem.maintain(user_id="u", now=T0 + timedelta(minutes=5)).sessions_ended == []
    report = mem.maintain(user_id="u", now=T0 + timedelta(minutes=45))
    assert report.sessions_ended == [("u", session.session_id)]
    assert [i.text for i in mem.get_all(user_id="u", kinds=["fact"])] == [
        "The user lives in Hangzhou."
    ]


def test_maintaining_one_user_leaves_other_users_sessions_open(mem: Memory) -> None:
    mine = mem.session(user_id="u", now=T0)
    mine.add("user", "I live in Hangzhou.", timestamp=T0)
    theirs = mem.session(user_id="v", now=T0)
    theirs.add("user", "I live in Paris.", timestamp=T0)
    report = mem.maintain(user_id="u", now=T0 + timedelta(hours=2))
    assert report.sessions_ended == [("u", mine.session_id)]
    assert not theirs.ended and mine.ended
