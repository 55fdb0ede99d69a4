"""The aggregation bench's dev case set loads, and a case whose evidence names no turn of
its own is refused with the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dualtrace.bench.aggregation import CASES, KINDS, LANGS, load_cases
from dualtrace.errors import ValidationError


def test_the_dev_set_has_enough_users_questions_and_both_languages() -> None:
    cases = load_cases(CASES)
    questions = [q for c in cases for q in c.questions]
    assert len(cases) >= 8 and len(questions) >= 30
    assert {c.lang for c in cases} == set(LANGS)
    assert {q.kind for q in questions} == set(KINDS)
    assert all(4 <= len(c.sessions) <= 10 for c in cases)


def test_evidence_outside_the_case_is_refused(tmp_path: Path) -> None:
    record = {
        "id": "x1",
        "lang": "en",
        "now": "2026-11-20T09:00:00+00:00",
        "sessions": [
            {
                "date": "2026-03-02T20:00:00+00:00",
                "turns": [{"id": "x1-t1", "role": "user", "text": "I adopted a hamster."}],
            }
        ],
        "questions": [
            {
                "question": "What pets have I had?",
                "kind": "list",
                "evidence": ["y9"],
                "answer": "a hamster",
            }
        ],
    }
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(ValidationError, match="y9"):
        load_cases(path)


@pytest.mark.parametrize("name", ["aggregation_fresh.jsonl", "aggregation_fresh2.jsonl"])
def test_the_long_sets_load_with_evidence_across_sessions(name: str) -> None:
    cases = load_cases(CASES.with_name(name))
    assert len(cases) >= 10 and {c.lang for c in cases} == set(LANGS)
    for case in cases:
        session_of = {t["id"]: n for n, (_, turns) in enumerate(case.sessions) for t in turns}
        assert len(case.sessions) >= 8 and len(session_of) >= 120
        for q in case.questions:
            assert len({session_of[e] for e in q.evidence}) >= 2
