"""A memory drawn from the user's message to an assistant is shown as that message."""

from __future__ import annotations

from dataclasses import replace

from dualtrace import Memory
from dualtrace.models import Hit
from dualtrace.recall.packing import pack_for
from dualtrace.recall.requests import messages_to_assistant

MESSAGE = (
    "I'm looking for some new BBQ sauce recipes to try out. I've been experimenting with "
    "making my own from scratch. By the way, I just got a smoker today and I'm excited to "
    "try different types of wood."
)
WHEN = "2026-05-04T10:00:00Z"


def _add(mem: Memory, user: str, text: str = MESSAGE, *, assistant: bool = True) -> str:
    turns = [{"role": "user", "content": text}]
    if assistant:
        turns.append({"role": "assistant", "content": "Here are three sauces to try."})
    return mem.add(turns, user_id=user, session_id="s1", timestamp=WHEN).episodes[0]


def _memory(mem: Memory, user: str, query: str, words: str) -> list[Hit]:
    hits = mem.search(query, user_id=user, kinds=["fact", "preference", "event"], reinforce=False)
    return [next(h for h in hits if words in h.text)]


def test_a_memory_from_a_message_to_an_assistant_shows_the_whole_message(mem: Memory) -> None:
    turn = _add(mem, "u")
    hits = _memory(mem, "u", "BBQ sauce recipes", "BBQ")
    messages = messages_to_assistant(mem.store, "u", hits)
    assert messages == {turn}
    shown = pack_for(mem.config, hits, 200, query="BBQ sauce recipes", messages=messages)
    assert "user: I'm looking for some new BBQ sauce" in shown.text and "smoker" in shown.text
    assert [h.id for h in shown.items] == [h.id for h in hits]  # only its line shows the message
    off = replace(mem.config, context_user_messages=False)
    alone = pack_for(off, hits, 200, query="BBQ sauce recipes", messages=messages)
    assert "The user is looking for some new BBQ sauce" in alone.text
    assert "smoker" not in alone.text


def test_between_people_the_memory_stands_alone(mem: Memory) -> None:
    _add(mem, "u", assistant=False)
    hits = _memory(mem, "u", "BBQ sauce recipes", "BBQ")
    assert messages_to_assistant(mem.store, "u", hits) == frozenset()
    ctx = mem.context("BBQ sauce recipes", user_id="u", max_tokens=400, reinforce=False)
    assert "The user is looking for some new BBQ sauce" in ctx.text


def test_another_users_assistant_does_not_count(mem: Memory) -> None:
    _add(mem, "u", assistant=False)
    _add(mem, "v")  # the same session id, another user, with an assistant
    hits = _memory(mem, "u", "BBQ sauce recipes", "BBQ")
    assert messages_to_assistant(mem.store, "u", hits) == frozenset()
    assert mem.store.sessions_with_role("v", ["s1"], "assistant") == {"s1"}
    assert mem.store.sessions_with_role("u", ["s1"], "assistant") == set()


def test_a_long_message_shows_the_memorys_sentence_and_what_follows(mem: Memory) -> None:
    before = " ".join(f"Note {n}: the garden hose number {n} is green." for n in range(40))
    after = " ".join(f"Later {n}: the garden rake number {n} is red." for n in range(40))
    said = (
        f"{before} I visited Fushimi Inari Shrine when I was in Japan. I spent two weeks "
        f"traveling solo around the country. {after}"
    )
    _add(mem, "u", said)
    query = "How long was I in Japan?"
    hits = _memory(mem, "u", query, "Fushimi")
    messages = messages_to_assistant(mem.store, "u", hits)
    shown = pack_for(mem.config, hits, 300, query=query, messages=messages).text
    assert "Fushimi Inari Shrine when I was in Japan. I spent two weeks" in shown
    assert "Note 0:" not in shown and "…" in shown
