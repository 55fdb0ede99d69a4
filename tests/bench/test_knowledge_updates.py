"""The knowledge-update benchmark: its packaged cases are sound, and a tiny run with the fake
embedder scores both engines as the measures say."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dualtrace import Memory, MemoryConfig
from dualtrace.bench import updates
from dualtrace.bench.updates import (
    CASES,
    DISTRACTORS,
    Case,
    load_cases,
    new_before_old,
    run_updates,
    session_messages,
)
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ValidationError

ROOT = Path(__file__).resolve().parents[2]
CONTROL_KINDS = ("multi", "other_person", "qualifier", "hedge", "restate", "request")


def _in(value: str, text: str) -> bool:
    return value.casefold() in text.casefold()


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases(CASES)


def test_cases_cover_both_languages_many_attributes_and_every_control(cases: list[Case]) -> None:
    langs = Counter(c.lang for c in cases)
    kinds = Counter(c.kind for c in cases)
    assert len(cases) >= 128 and langs["en"] >= 64 and langs["zh"] >= 64
    assert len({c.attribute for c in cases}) >= 30
    assert kinds["update"] >= 88 and len(cases) - kinds["update"] >= 40
    assert all(kinds[k] >= 6 for k in CONTROL_KINDS), kinds
    for lang in ("en", "zh"):  # each language has every kind
        assert {c.kind for c in cases if c.lang == lang} == {"update", *CONTROL_KINDS}


def test_update_values_identify_the_old_and_the_new_turn(cases: list[Case]) -> None:
    for c in cases:
        if c.control:
            continue
        assert c.new_value and c.old_value and not c.keep, c.id
        for new in c.new_value:
            assert _in(new, c.new) and not _in(new, c.old), (c.id, new)
        for old in c.old_value:
            assert _in(old, c.old) and not _in(old, c.new), (c.id, old)
            # neither value hides inside the other, so a context names one or the other
            assert not any(_in(old, new) or _in(new, old) for new in c.new_value), (c.id, old)
        assert not any(_in(v, c.question) for v in (*c.new_value, *c.old_value)), c.id


def test_control_values_are_said_and_not_asked(cases: list[Case]) -> None:
    for c in cases:
        if not c.control:
            continue
        assert c.keep and not c.new_value and not c.old_value, c.id
        for keep in c.keep:
            assert _in(keep, c.old) or _in(keep, c.new), (c.id, keep)
            assert not _in(keep, c.question), (c.id, keep)
        if c.kind in ("other_person", "qualifier", "hedge", "request", "restate"):
            assert any(_in(k, c.old) for k in c.keep), c.id  # the value said first is kept
        for tempt in c.tempt:
            assert _in(tempt, c.new) and not any(_in(tempt, k) for k in c.keep), (c.id, tempt)


def test_distractors_name_no_value_of_any_case(cases: list[Case]) -> None:
    values = {v for c in cases for v in (*c.new_value, *c.old_value, *c.keep, *c.tempt)}
    for line in (*DISTRACTORS["en"], *DISTRACTORS["zh"]):
        assert not [v for v in values if _in(v, line)], line


def test_sessions_hold_the_statement_among_distractors_in_order(cases: list[Case]) -> None:
    case = cases[0]
    first, second = session_messages(case, 1), session_messages(case, 2)
    assert first == session_messages(case, 1)  # the same every run
    assert [m["content"] for m in first].count(case.old) == 1 and len(first) == 4
    assert case.new in [m["content"] for m in second] and case.old not in str(second)
    times = [m["timestamp"] for m in (*first, *second)]
    assert times == sorted(times) and times[0] < updates.AS_OF.isoformat() < times[4]
    assert times[-1] < updates.NOW.isoformat()


def test_cases_ship_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["dualtrace"]
    relative = CASES.relative_to(ROOT / "src" / "dualtrace").as_posix()
    assert any(fnmatch(relative, p) for p in patterns), patterns


def test_a_sample_keeps_the_mix_and_bad_cases_are_refused(tmp_path: Path) -> None:
    sample = load_cases(CASES, limit=24)
    langs = Counter(c.lang for c in sample)
    assert len(sample) == 24 and abs(langs["en"] - langs["zh"]) <= 1
    assert sum(c.control for c in sample) in range(6, 12)
    bad = tmp_path / "bad.jsonl"
    record = {
        "id": "x",
        "lang": "en",
        "attribute": "a",
        "kind": "update",
        "old": "o",
        "new": "n",
        "question": "q",
        "new_value": ["n"],
        "old_value": [],
    }
    bad.write_text(json.dumps(record) + "\n")
    with pytest.raises(ValidationError, match="old_value"):
        load_cases(bad)
    bad.write_text(json.dumps({**record, "old_value": ["o"], "lang": "fr"}) + "\n")
    with pytest.raises(ValidationError, match="'fr'"):
        load_cases(bad)


def test_context_must_name_the_new_value_before_the_old() -> None:
    case = Case(
        "c",
        "en",
        "residence",
        "update",
        "I live in Lyon.",
        "Moved to Bordeaux.",
        "Where do I live?",
        ("Bordeaux",),
        ("Lyon",),
    )
    assert new_before_old("- moved to BORDEAUX\n- I live in Lyon", case)
    assert not new_before_old("- I live in Lyon\n- moved to Bordeaux", case)
    assert not new_before_old("- I live in Lyon", case)
    assert new_before_old("- Bordeaux", case)
    # the statement of the change names both, and presents the new value
    assert new_before_old("- left Lyon for Bordeaux\n- I live in Lyon", case)
    assert not new_before_old("- I live in Lyon\n- left Lyon for Bordeaux", case)


# Ids chosen so that each statement is the last turn of its session (a test checks): a turn
# after it would quote it in its scene trace and tie with it.
TINY = [
    # the new turn shares the question's words, the old one only "phone": new value first
    {
        "id": "new-first-13",
        "lang": "en",
        "attribute": "phone",
        "kind": "update",
        "old": "My phone is an iPhone 12.",
        "new": "The phone I use now is a Pixel 9.",
        "question": "Which phone do I use now?",
        "new_value": ["Pixel 9"],
        "old_value": ["iPhone 12"],
    },
    # the new turn shares no word with the question: turns only ranks the old one first
    {
        "id": "old-first-10",
        "lang": "en",
        "attribute": "residence",
        "kind": "update",
        "old": "I live in the city of Lyon.",
        "new": "Moved to Bordeaux.",
        "question": "Which city do I live in?",
        "new_value": ["Bordeaux"],
        "old_value": ["Lyon"],
    },
    {
        "id": "restate",
        "lang": "en",
        "attribute": "residence",
        "kind": "restate",
        "old": "I live in the city of Toronto.",
        "new": "I still live in Toronto, a city I love.",
        "question": "Which city do I live in?",
        "keep": ["Toronto"],
    },
    {
        "id": "zh-request",
        "lang": "zh",
        "attribute": "current_book",
        "kind": "request",
        "old": "我最近在读《百年孤独》这本书。",
        "new": "帮我推荐几本类似《围城》的小说吧。",
        "question": "我最近在读什么书？",
        "keep": ["百年孤独"],
        "tempt": ["围城"],
    },
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("updates")
    path = folder / "tiny.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in TINY) + "\n")
    return run_updates(path, folder / "out", embedder=FakeEmbedder(), progress=False)


def test_tiny_statements_end_their_sessions() -> None:
    for record in TINY[:2]:
        case = updates._case(record, "TINY")
        assert session_messages(case, 1)[-1]["content"] == case.old
        assert session_messages(case, 2)[-1]["content"] == case.new


def test_tiny_run_reports_the_four_rates_for_both_engines(tiny: dict[str, Any]) -> None:
    report = Path(tiny["report"])
    text = report.read_text(encoding="utf-8")
    assert "| measure | dualtrace | turns only |" in text
    for label in ("first-hit", "context", "as-of", "controls"):
        assert f"| {label} |" in text
    assert "## Failures" in text and "| en | first-hit |" in text and "| zh | controls |" in text
    saved = json.loads((report.parent / "results.json").read_text(encoding="utf-8"))
    assert saved["engines"].keys() == {"dualtrace", "turns only"}
    for engine in saved["engines"].values():
        overall = engine["overall"]
        assert [overall[m]["n"] for m in ("first_hit", "context", "as_of", "controls")] == [2] * 4
        assert engine["ingest"]["turns"] == 4 * 8 and engine["ingest"]["turns_per_s"] > 0
        assert len(engine["rows"]) == 4
    assert saved["engines"]["dualtrace"]["settings"]["extract"] is True
    assert saved["engines"]["turns only"]["settings"]["extract"] is False


def test_turns_only_scores_as_its_hits_say(tiny: dict[str, Any]) -> None:
    rows = {r["id"]: r for r in tiny["engines"]["turns only"]["rows"]}
    assert rows["new-first-13"]["first_hit"] is True
    assert rows["new-first-13"]["first_hit_text"] == "The phone I use now is a Pixel 9."
    assert rows["old-first-10"]["first_hit"] is False
    assert rows["old-first-10"]["first_hit_text"] == "I live in the city of Lyon."
    # as of April only the March turns exist, and the old statement matches best
    assert rows["new-first-13"]["as_of"] is True and rows["old-first-10"]["as_of"] is True
    assert rows["restate"]["controls"] is True and rows["zh-request"]["controls"] is True
    assert "as_of" not in rows["restate"] and "first_hit" not in rows["zh-request"]
    overall = tiny["engines"]["turns only"]["overall"]
    assert overall["first_hit"] == {"rate": 0.5, "passed": 1, "n": 2}
    assert overall["controls"] == {"rate": 1.0, "passed": 2, "n": 2}
    by_lang = tiny["engines"]["turns only"]["by_lang"]
    assert by_lang["zh"]["first_hit"]["n"] == 0 and by_lang["zh"]["controls"]["n"] == 1


def test_the_stores_hold_each_case_as_its_own_user(tiny: dict[str, Any]) -> None:
    db = Path(tiny["report"]).parent / "turns_only.db"
    with Memory(db, embedder=FakeEmbedder(), config=MemoryConfig(extract=False)) as mem:
        said = [i.text for i in mem.get_all(user_id="ku-old-first-10")]
        hits = mem.search(
            "Which city do I live in?",
            user_id="ku-old-first-10",
            limit=1,
            now=updates.NOW,
            reinforce=False,
        )
    assert len(said) == 8 and "Moved to Bordeaux." in said and "Toronto" not in str(said)
    row = next(r for r in tiny["engines"]["turns only"]["rows"] if r["id"] == "old-first-10")
    assert hits[0].text == row["first_hit_text"]


def test_cli_bench_updates_prints_the_rates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(updates, "_default_embedder", FakeEmbedder)
    path = tmp_path / "tiny.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in TINY[:2]) + "\n")
    out = tmp_path / "out"
    args = ["bench", "updates", "--cases", str(path), "--out", str(out), "--limit", "1"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "| first-hit |" in result.output and "| as-of |" in result.output
    assert "turns/s" in result.output
    assert f"report written to {out / 'report.md'}" in result.output
    saved = json.loads((out / "results.json").read_text())
    assert saved["cases"]["total"] == 1


def test_a_case_s_own_context_turns_join_its_session_and_leave_others_as_they_were():
    base = {
        "id": "ctx-1",
        "lang": "en",
        "attribute": "residence",
        "kind": "plan",
        "old": "I live in Porto.",
        "new": "We're moving to Lisbon in October.",
        "question": "Where do I live?",
        "keep": ["Porto"],
        "tempt": ["Lisbon"],
    }
    plain = updates._case(base, "T")
    rich = updates._case(
        {**base, "old_context": ["My brother lives in Faro."], "new_context": []}, "T"
    )
    assert plain.control and plain.kind == "plan"
    first = [m["content"] for m in updates.session_messages(rich, 1)]
    assert "My brother lives in Faro." in first and "I live in Porto." in first
    assert len(first) == len(updates.session_messages(plain, 1)) + 1
    second = updates.session_messages(rich, 2)
    assert second == updates.session_messages(plain, 2)
    with pytest.raises(ValidationError, match="old_context"):
        updates._case({**base, "old_context": "not a list"}, "T")


@pytest.mark.parametrize(
    "path", sorted(CASES.parent.glob("knowledge_updates_*.jsonl")), ids=lambda p: p.stem
)
def test_every_shipped_update_set_loads_with_updates_and_controls(path: Path) -> None:
    loaded = load_cases(path)
    assert {c.lang for c in loaded} == {"en", "zh"}
    assert any(c.control for c in loaded) and any(not c.control for c in loaded)
