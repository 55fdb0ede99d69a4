"""A session and the long-term store decide alike which value of a fact is current: on every
case of the knowledge-update case files, a later turn closes the earlier value in a session's
rolling summary exactly when the writer closes the memory it derived (`session/summary.py`
asks `lifecycle/consolidate.decide`, on the slots of `text/slots`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dualtrace import Memory
from dualtrace.bench.updates import CASES
from dualtrace.embed.fake import FakeEmbedder

FILES = (CASES, CASES.with_name("knowledge_updates_heldout.jsonl"))
BEFORE, AFTER = "2026-03-01T10:00:00Z", "2026-03-08T10:00:00Z"


def _cases() -> list[dict[str, Any]]:
    return [json.loads(line) for f in FILES for line in f.read_text("utf-8").splitlines() if line]


def _writer_closes(mem: Memory, case: dict[str, Any]) -> bool:
    """Whether adding the later turn closes a memory the earlier turn gave."""
    user = f"w-{case['id']}"
    old = mem.add([{"role": "user", "content": case["old"]}], user_id=user, timestamp=BEFORE)
    mem.add([{"role": "user", "content": case["new"]}], user_id=user, timestamp=AFTER)
    valid = {item.id for item in mem.get_all(user_id=user)}
    derived = [
        item
        for item in mem.get_all(user_id=user, include_invalid=True)
        if item.kind != "episode" and old.episodes[0] in {s.episode_id for s in item.sources}
    ]
    return any(item.id not in valid for item in derived)


def _session_closes(mem: Memory, case: dict[str, Any]) -> bool:
    """Whether the later turn changes or removes a value the session held after the first."""
    session = mem.session(user_id=f"s-{case['id']}", now=BEFORE)
    session.add("user", case["old"], timestamp=BEFORE)
    held = session.profile
    session.add("user", case["new"], timestamp=AFTER)
    now = session.profile
    return any(now.get(key) != value for key, value in held.items())


def test_sessions_and_the_writer_agree_on_every_case(tmp_path: Path) -> None:
    cases = _cases()
    assert len(cases) >= 100  # both files, updates and controls
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        apart = [
            (case["id"], writer, session)
            for case in cases
            if (writer := _writer_closes(mem, case)) != (session := _session_closes(mem, case))
        ]
    assert apart == [], f"(case, writer closes, session closes): {apart}"


@pytest.mark.parametrize(
    ("earlier", "later", "current"),
    [
        # a change said in words the old pattern table did not know
        ("I work at Siemens.", "I started at Stripe this week.", "Stripe"),
        # a hedge leaves the held value
        ("I live in Porto.", "I might move to Lisbon next year.", "Porto"),
        # someone else's change is theirs
        ("I live in Porto.", "My sister just moved to Madrid.", "Porto"),
    ],
)
def test_a_session_holds_what_the_writer_would(
    tmp_path: Path, earlier: str, later: str, current: str
) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        session = mem.session(user_id="u", now=BEFORE)
        session.add("user", earlier, timestamp=BEFORE)
        session.add("user", later, timestamp=AFTER)
        values = {key: value for key, value in session.profile.items() if key[0] == "the user"}
        assert current in values.values(), values


def test_a_session_keeps_each_pet_and_drops_one_given_away(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        session = mem.session(user_id="u", now=BEFORE)
        session.add(
            "user",
            "we have a cat called Mochi. We also adopted a dog called Rex.",
            timestamp=BEFORE,
        )
        held = set(session.profile.values())
        session.add("user", "we had to rehome Rex, the landlord found out", timestamp=AFTER)
        assert {"cat called Mochi", "dog called Rex"} <= held
        assert "dog called Rex" not in session.profile.values()
        assert "cat called Mochi" in session.profile.values()
