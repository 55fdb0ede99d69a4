"""LoCoMo and LongMemEval loaders: evidence repair, dates, sampling, what gets stored."""

from __future__ import annotations

import gzip
import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from dualtrace.bench.baselines import boost_fields, full_history_text, methods
from dualtrace.bench.locomo import load_locomo, parse_session_date, repair_evidence
from dualtrace.bench.longmemeval import load_longmemeval, parse_date, stratified_sample
from dualtrace.errors import ValidationError

DATA = Path(__file__).parent / "data"


def test_malformed_evidence_ids_are_split_repaired_or_dropped() -> None:
    assert repair_evidence(["D8:6; D9:17"]) == ["D8:6", "D9:17"]
    assert repair_evidence(["D:11:26"]) == ["D11:26"]
    assert repair_evidence(["D1:18", "D", "D1:20", "D1:18"]) == ["D1:18", "D1:20"]
    assert repair_evidence([]) == []


def test_dates_of_both_benchmarks_parse() -> None:
    assert parse_session_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert parse_date("2023/05/20 (Sat) 02:21") == datetime(2023, 5, 20, 2, 21)
    with pytest.raises(ValidationError, match="does not match"):
        parse_date("20 May 2023")


def test_stratified_sample_round_robins_over_types_in_file_order() -> None:
    items = ["a1", "a2", "a3", "b1", "b2", "c1"]
    assert stratified_sample(items, lambda s: s[0], 3) == ["a1", "b1", "c1"]
    assert stratified_sample(items, lambda s: s[0], 5) == ["a1", "a2", "b1", "b2", "c1"]
    assert stratified_sample(items, lambda s: s[0], 99) == items
    assert stratified_sample(items, lambda s: s[0], 0) == []


def test_locomo_loader_builds_one_user_per_conversation() -> None:
    bench = load_locomo(DATA / "locomo")
    (unit,) = bench.units
    assert unit.user_id == "locomo-tiny"
    assert [s.session_id for s in unit.sessions] == ["session_1", "session_2"]
    photo = unit.sessions[0].turns[3]
    assert photo.text == "Look at this. [shares a photo: a photo of a kitten on a sofa]"
    assert photo.message() == {
        "id": "D1:4",
        "role": "user",
        "content": photo.text,
        "name": "Bob",
    }
    by_text = {q.text: q for q in unit.questions}
    pottery = by_text["What did Alice make in her pottery class?"]
    assert pottery.evidence == {"D1:3", "D2:2"} and pottery.category == "1 multi-hop"
    assert by_text["Where is Alice flying for the conference?"].evidence == {"D2:4"}
    adversarial = by_text["What did Bob's dog break?"]
    assert not adversarial.scored and adversarial.answer is None
    assert all(q.now == datetime(2023, 6, 21, 10, 15) for q in unit.questions)
    assert any("3 malformed evidence entries repaired" in n for n in bench.notes)


def test_locomo_limit_and_empty_folder(tmp_path: Path) -> None:
    for name in ("a", "b"):
        shutil.copy(DATA / "locomo" / "tiny.json", tmp_path / f"{name}.json")
    assert [u.user_id for u in load_locomo(tmp_path, limit=1).units] == ["locomo-a"]
    with pytest.raises(ValidationError, match="no LoCoMo"):
        load_locomo(tmp_path / "nowhere")


def test_longmemeval_loader_reads_gzip_and_marks_abstention(tmp_path: Path) -> None:
    path = tmp_path / "lme.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write((DATA / "longmemeval_tiny.json").read_text())
    bench = load_longmemeval(path)
    first, second = bench.units
    assert first.user_id == "lme-q_user_1"
    # the repeated session is stored once; the blank and zero-width turns are skipped
    assert [s.session_id for s in first.sessions] == ["filler_1", "answer_1", "filler_2"]
    assert [t.external_id for t in first.sessions[1].turns] == ["answer_1:0", "answer_1:1"]
    (question,) = first.questions
    assert question.evidence == {"answer_1:0"} and question.answer_sessions == {"answer_1"}
    assert question.now == datetime(2023, 5, 30, 22, 36) and question.scored
    (abstention,) = second.questions
    assert abstention.category == "abstention" and not abstention.scored
    assert bench.categories == ("single-session-user", "multi-session", "abstention")


def test_longmemeval_limit_is_stratified(tmp_path: Path) -> None:
    items = json.loads((DATA / "longmemeval_tiny.json").read_text())
    path = tmp_path / "three.json"
    path.write_text(json.dumps([items[0], {**items[0], "question_id": "q_user_b"}, items[1]]))
    bench = load_longmemeval(path, limit=2)
    assert [u.user_id for u in bench.units] == ["lme-q_user_1", "lme-q_multi_2_abs"]


def test_methods_and_full_history_text() -> None:
    names = [m.name for m in methods()]
    assert names == ["full history", "bm25 turns", "dense turns", "hybrid turns", "dualtrace"]
    ablated = methods(ablate=True)
    assert {"dualtrace: episodes only", "dualtrace: no entity channel"} <= {m.name for m in ablated}
    assert set(boost_fields()) == {"recency", "importance"}
    assert len(ablated) == 8 + len(boost_fields())
    unit = load_locomo(DATA / "locomo").units[0]
    text = full_history_text(unit)
    assert text.splitlines()[0] == "[2023-05-08 Mon 13:56] Alice: Hi Bob! How was your week?"
    assert len(text.splitlines()) == unit.turn_count


def test_longmemeval_types_filter_before_sampling(tmp_path: Path) -> None:
    items = json.loads((DATA / "longmemeval_tiny.json").read_text())
    path = tmp_path / "three.json"
    path.write_text(json.dumps([items[0], {**items[0], "question_id": "q_user_b"}, items[1]]))
    bench = load_longmemeval(path, types=("single-session-user",))
    assert [u.user_id for u in bench.units] == ["lme-q_user_1", "lme-q_user_b"]
    with pytest.raises(ValidationError, match="knowledge-updates"):
        load_longmemeval(path, types=("knowledge-updates",))
