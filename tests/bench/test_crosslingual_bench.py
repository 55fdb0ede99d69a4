"""The cross-lingual benchmark: its packaged case files are sound, and a tiny run with the fake
embedder scores a question that must hit and one that must miss as the measures say."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dualtrace import Memory
from dualtrace.bench import crosslingual
from dualtrace.bench.crosslingual import (
    CASES,
    HELDOUT,
    UNSEEN,
    CaseSet,
    load_cases,
    run_crosslingual,
)
from dualtrace.cjk import has_cjk
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ValidationError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("path", "per_direction", "distractors"),
    [(CASES, 42, 120), (HELDOUT, 16, 40), (UNSEEN, 20, 60)],
)
def test_case_files_hold_both_directions_among_distractors(
    path: Path, per_direction: int, distractors: int
) -> None:
    cases = load_cases(path)
    directions = Counter(p.direction for p in cases.pairs)
    assert directions["en→zh"] >= per_direction and directions["zh→en"] >= per_direction
    facts = {p.id for p in cases.pairs}
    others = [t for t in cases.turns if t.id not in facts]
    assert len(others) >= distractors
    assert sum(has_cjk(t.text) for t in others) >= len(others) // 4  # both languages
    assert sum(not has_cjk(t.text) for t in others) >= len(others) // 4
    assert any(t.role == "assistant" for t in others)
    assert len({p.domain for p in cases.pairs}) >= 10


@pytest.mark.parametrize("path", [CASES, HELDOUT, UNSEEN])
def test_every_pair_is_asked_in_both_languages_and_stored_once(path: Path) -> None:
    cases = load_cases(path)
    stored = Counter(t.text for t in cases.turns)
    for pair in cases.pairs:
        fact_zh = pair.direction == "zh→en"
        assert has_cjk(pair.fact) == fact_zh, pair.id
        assert has_cjk(pair.question) != fact_zh, pair.id  # the other language
        assert has_cjk(pair.question_same) == fact_zh, pair.id
        assert pair.question != pair.question_same
        assert stored[pair.fact] == 1, pair.id  # the evidence is in the store, once
        turn = next(t for t in cases.turns if t.id == pair.id)
        assert turn.role == "user" and turn.text == pair.fact
        for value in pair.value:  # the answer is said, not asked
            assert value.casefold() not in pair.question.casefold(), (pair.id, value)
            assert value.casefold() not in pair.question_same.casefold(), (pair.id, value)


def test_sessions_are_dated_in_order_and_messages_follow_the_file() -> None:
    cases = load_cases(CASES)
    dates = list(cases.sessions.values())
    assert dates == sorted(dates) and len(dates) >= 10
    first = next(iter(cases.sessions))
    messages = cases.messages(first)
    assert [m["id"] for m in messages] == [t.id for t in cases.turns if t.session == first]
    stamps = [m["timestamp"] for m in messages]
    assert stamps == sorted(stamps) and stamps[0] == dates[0].isoformat()
    assert cases.now > dates[-1]
    assert load_cases(CASES) == cases  # the same store every run


@pytest.mark.parametrize(("earlier", "later"), [((CASES,), HELDOUT), ((CASES, HELDOUT), UNSEEN)])
def test_held_out_cases_share_no_fact_or_question_with_the_earlier_files(
    earlier: tuple[Path, ...], later: Path
) -> None:
    held = load_cases(later)
    for path in earlier:
        main = load_cases(path)
        said = {t.text for t in main.turns} | {p.question for p in main.pairs}
        assert not [p.id for p in held.pairs if p.fact in said or p.question in said]
        assert {p.id for p in main.pairs}.isdisjoint(p.id for p in held.pairs)


def test_case_files_ship_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["dualtrace"]
    for path in (CASES, HELDOUT, UNSEEN):
        relative = path.relative_to(ROOT / "src" / "dualtrace").as_posix()
        assert any(fnmatch(relative, p) for p in patterns), patterns


SESSION = {"type": "session", "session": "s1", "date": "2026-01-05T20:00:00+08:00"}
HIT = {
    "type": "pair",
    "id": "hit",
    "session": "s1",
    "direction": "en→zh",
    "domain": "pets",
    "fact": "Our beagle Biscuit is scared of thunderstorms.",
    "question": "Biscuit 害怕什么？",
    "question_same": "What is Biscuit scared of?",
    "value": ["thunderstorms"],
}
# the fake embedder hashes words, so nothing links the Chinese fact to the English question,
# while twelve other turns share its words: the fact must rank past 10, out of a small context
MISS = {
    "type": "pair",
    "id": "miss",
    "session": "s2",
    "direction": "zh→en",
    "domain": "pets",
    "fact": "楼下那只猫叫咪咪，今年三岁。",
    "question": "What is the cat downstairs called?",
    "question_same": "楼下那只猫叫什么？",
    "value": ["咪咪"],
}
OWNERS = (
    "neighbour",
    "sister",
    "boss",
    "dentist",
    "cousin",
    "landlord",
    "teacher",
    "barber",
    "uncle",
    "colleague",
    "trainer",
    "friend",
)
NAMES = (
    "Rex",
    "Bella",
    "Max",
    "Luna",
    "Rocky",
    "Daisy",
    "Bruno",
    "Coco",
    "Milo",
    "Rosie",
    "Toby",
    "Nala",
)
TINY = [
    SESSION,
    *[
        {
            "type": "turn",
            "id": f"s1-d{i:02d}",
            "session": "s1",
            "role": "user",
            "text": f"My {owner}'s dog is called {name}.",
        }
        for i, (owner, name) in enumerate(zip(OWNERS, NAMES, strict=True))
    ],
    HIT,
    {"type": "session", "session": "s2", "date": "2026-01-12T20:00:00+08:00"},
    MISS,
    {"type": "turn", "id": "s2-a", "session": "s2", "role": "assistant", "text": "Noted!"},
]


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n")
    return path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("crosslingual")
    path = _write(folder / "tiny.jsonl", TINY)
    return run_crosslingual(
        path, folder / "out", budget=60, embedder=FakeEmbedder(), progress=False
    )


def test_tiny_run_finds_the_fact_that_shares_words_and_misses_the_one_that_cannot(
    tiny: dict[str, Any],
) -> None:
    rows = {(r["id"], r["asked"]): r for r in tiny["rows"]}
    assert len(rows) == 4
    for asked in ("cross", "same"):  # the name carries across languages as it is
        assert rows["hit", asked]["rank"] == 1
        assert rows["hit", asked]["recall@3"] and rows["hit", asked]["context"]
    miss = rows["miss", "cross"]
    # past the first 3 (the fake embedder's vectors place it at random below them)
    assert (miss["rank"] is None or miss["rank"] > 3) and not miss["recall@3"]
    # what leads is an English turn (the user's own beagle, a pet the slot knows), not the fact
    assert not miss["context"] and "咪咪" not in miss["first_hit_text"]
    assert miss["first_hit_text"].isascii()
    assert rows["miss", "same"]["recall@3"]  # asked in its own language, it is found
    summary = tiny["summary"]
    assert summary["en→zh"]["cross"]["recall@3"] == 1.0
    assert summary["zh→en"]["cross"]["recall@3"] == 0.0
    assert summary["zh→en"]["same"]["recall@3"] == 1.0
    assert summary["zh→en"]["gap"]["recall@3"] == 1.0
    assert summary["all"]["cross"]["n"] == 2 and summary["all"]["cross"]["recall@3"] == 0.5


def test_tiny_run_writes_the_table_the_misses_and_the_costs(tiny: dict[str, Any]) -> None:
    report = Path(tiny["report"])
    text = report.read_text(encoding="utf-8")
    assert "| direction | question | n | recall@3 | recall@10 | context@60 |" in text
    assert "| zh→en | cross-lingual | 1 | 0.000 (0/1) |" in text
    assert (
        "## Misses (1 questions)" in text
        and "| miss | cross | What is the cat downstairs called? |" in text
    )
    assert "search latency: p50" in text and "turns/s" in text
    saved = json.loads((report.parent / "results.json").read_text(encoding="utf-8"))
    assert saved["cases"] == {
        "pairs": 2,
        "by_direction": {"en→zh": 1, "zh→en": 1},
        "turns": 15,
        "distractors": 13,
        "assistant_turns": 1,
        "sessions": 2,
    }
    assert saved["ingest"]["turns"] == 15 and saved["search_ms"]["p95"] > 0
    assert saved["budget"] == 60 and saved["settings"]["extract"] is True


def test_the_store_holds_every_turn_as_one_user(tiny: dict[str, Any]) -> None:
    db = Path(tiny["report"]).parent / "store.db"
    with Memory(db, embedder=FakeEmbedder()) as mem:
        episodes = [i for i in mem.get_all(user_id=crosslingual.USER) if i.kind == "episode"]
    stored = {s.external_id for e in episodes for s in e.sources}
    assert stored == {r.get("id") for r in TINY if r["type"] != "session"}
    assert len(episodes) == 15


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"direction": "en→fr"}, "direction"),
        ({"value": ["fog"]}, "not in the fact"),
        ({"question": ""}, "question"),
        ({"session": "s9"}, "opened last"),
    ],
)
def test_malformed_pairs_are_refused_saying_where(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    path = _write(tmp_path / "bad.jsonl", [SESSION, {**HIT, **change}])
    with pytest.raises(ValidationError, match=message):
        load_cases(path)


def test_sessions_out_of_order_and_repeated_ids_are_refused(tmp_path: Path) -> None:
    earlier = {**SESSION, "session": "s0", "date": "2025-12-01T20:00:00+08:00"}
    with pytest.raises(ValidationError, match="not after the last"):
        load_cases(_write(tmp_path / "a.jsonl", [SESSION, earlier]))
    twice = {"type": "turn", "id": "hit", "session": "s1", "role": "user", "text": "hello"}
    with pytest.raises(ValidationError, match="repeat"):
        load_cases(_write(tmp_path / "b.jsonl", [SESSION, HIT, twice]))


def test_cli_bench_crosslingual_prints_the_table_and_writes_its_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(crosslingual, "_default_embedder", FakeEmbedder)
    path = _write(tmp_path / "tiny.jsonl", [SESSION, HIT])
    out = tmp_path / "out"
    args = ["bench", "crosslingual", "--cases", str(path), "--out", str(out), "--budget", "80"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "| en→zh | cross-lingual | 1 | 1.000 (1/1) |" in result.output
    assert "| direction | question | n | recall@3 | recall@10 | context@80 |" in result.output
    assert "search latency: p50" in result.output and "## Misses (0 questions)" in result.output
    assert f"report written to {out / 'report.md'}" in result.output
    saved = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert saved["cases"]["pairs"] == 1 and saved["budget"] == 80
    assert isinstance(load_cases(path), CaseSet)


@pytest.mark.parametrize(
    "path", sorted(CASES.parent.glob("crosslingual*.jsonl")), ids=lambda p: p.stem
)
def test_every_shipped_pair_set_loads_with_both_directions(path: Path) -> None:
    loaded = load_cases(path)
    assert {p.direction for p in loaded.pairs} == {"en→zh", "zh→en"}
