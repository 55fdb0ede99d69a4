"""Adding the same message id twice stores it once."""

from __future__ import annotations

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder


def test_same_ids_twice_is_one_copy(mem: Memory, conversation: list[dict[str, str]]) -> None:
    first = mem.add(conversation, user_id="alice", session_id="s1")
    second = mem.add(conversation, user_id="alice", session_id="s1")
    assert first.episodes == second.episodes
    assert len(mem.get_all(user_id="alice", kinds=["episode"])) == 4
    assert len(mem.get_all(user_id="alice")) == 4 + len(first.events)
    assert second.events == []  # nothing new was said, so nothing new was derived
    west_lake = [h for h in mem.search("West Lake", user_id="alice") if "West Lake" in h.text]
    assert sorted(h.kind for h in west_lake) == ["episode", "fact"]


def test_a_repeated_statement_reinforces_its_memory(mem: Memory) -> None:
    first = mem.add("I live in Hangzhou.", user_id="u")
    second = mem.add("I live in Hangzhou.", user_id="u")
    assert [e[1] for e in first.events] == ["ADD"]
    assert second.events == [(first.events[0][0], "REINFORCE", "The user lives in Hangzhou.")]
    assert len(mem.get_all(user_id="u", kinds=["fact"])) == 1
    item = mem.get(first.events[0][0], user_id="u")
    assert len(item.sources) == 2  # said twice: both turns are its sources


def test_repeated_id_inside_one_call(mem: Memory) -> None:
    res = mem.add([{"id": "m1", "content": "one"}, {"id": "m1", "content": "one"}], user_id="u")
    assert res.episodes[0] == res.episodes[1]
    assert len(mem.get_all(user_id="u", kinds=["episode"])) == 1


def test_messages_without_ids_are_kept_even_if_repeated(mem: Memory) -> None:
    mem.add(["ok", "ok"], user_id="u")
    assert len(mem.get_all(user_id="u", kinds=["episode"])) == 2


def test_identical_text_is_embedded_once(db_path: object) -> None:
    # each in its own session: a turn's dense key also holds the turn before it in the session
    fake = FakeEmbedder()
    with Memory(db_path, embedder=fake) as mem:  # type: ignore[arg-type]
        mem.add("Same words here.", user_id="u", session_id="s1", timestamp="2026-01-01T00:00:00Z")
        calls = list(fake.calls)
        mem.add("Same words here.", user_id="u", session_id="s2", timestamp="2026-01-01T00:00:00Z")
        assert fake.calls == calls
    fake2 = FakeEmbedder()
    with Memory(db_path, embedder=fake2) as mem:  # type: ignore[arg-type]
        mem.add("Same words here.", user_id="u", session_id="s3", timestamp="2026-01-01T00:00:00Z")
        assert fake2.calls == []  # reused from the store's vectors, not re-embedded


def test_a_long_repeated_statement_reinforces_too(mem: Memory) -> None:
    long = "I live in Hangzhou near the lake, " + "and the garden is lovely, " * 60 + "truly."
    first = mem.add(long, user_id="u")
    second = mem.add(long, user_id="u")
    assert [e[1] for e in second.events] == ["REINFORCE"] * len(first.events)
