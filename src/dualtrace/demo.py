"""The built-in demo: a four-session EN/ZH conversation, stored fresh, then asked about."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from dualtrace.inputs import parse_time
from dualtrace.memory import Memory
from dualtrace.models import Hit


@dataclass(frozen=True)
class DemoAnswer:
    """One demo question, the turns that hold its answer, and what search returned."""

    query: str
    expected: list[str]
    note: str
    hits: list[Hit]

    @property
    def found(self) -> bool:
        """True when every expected turn is among the hits (anywhere in them)."""
        cited = {s.external_id for h in self.hits for s in h.sources}
        return all(e in cited for e in self.expected)

    @property
    def first_hit(self) -> bool:
        """True when the first hit comes from an expected turn."""
        return bool(self.hits) and any(s.external_id in self.expected for s in self.hits[0].sources)


def load_conversation() -> dict[str, Any]:
    """The demo conversation shipped inside the package."""
    text = resources.files("dualtrace").joinpath("data/demo_conversation.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def ingest(mem: Memory, conversation: dict[str, Any], *, defer: bool = False) -> int:
    """Add every session with its date (one minute per turn); returns the number of turns.
    `defer`: store and index the turns now, derive their memories later (`Memory.add`)."""
    user_id = conversation["user_id"]
    turns = 0
    for session in conversation["sessions"]:
        start = parse_time(session["timestamp"])
        messages = [
            {**m, "timestamp": start + timedelta(minutes=i)}
            for i, m in enumerate(session["messages"])
        ]
        mem.add(messages, user_id=user_id, session_id=session["session_id"], defer=defer)
        turns += len(messages)
    return turns


def run_demo(db_path: str | Path, *, limit: int = 3) -> list[DemoAnswer]:
    """Store the demo conversation in a fresh file at db_path and answer its questions."""
    path = Path(db_path)
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    conversation = load_conversation()
    user_id = conversation["user_id"]
    with Memory(path) as mem:
        ingest(mem, conversation)
        return [_answer(mem, user_id, q, limit) for q in conversation["questions"]]


def _answer(mem: Memory, user_id: str, question: dict[str, Any], limit: int) -> DemoAnswer:
    hits = mem.search(
        question["query"], user_id=user_id, limit=limit, now=question["now"], explain=True
    )
    return DemoAnswer(
        query=question["query"],
        expected=list(question["expect_external_ids"]),
        note=question.get("note", ""),
        hits=hits,
    )
