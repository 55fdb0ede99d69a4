"""Whole benchmark runs on tiny fixtures with the fake embedder: report, plots, sane figures."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dualtrace import MemoryConfig
from dualtrace.bench import run_locomo, run_longmemeval
from dualtrace.bench import runner as bench_runner
from dualtrace.bench.baselines import methods
from dualtrace.bench.dataset import Benchmark, Question, Turn, Unit
from dualtrace.bench.dataset import Session as BenchSession
from dualtrace.bench.results import MethodRun, RunResult
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder

DATA = Path(__file__).parent / "data"
BASELINES = ["full history", "bm25 turns", "dense turns", "hybrid turns", "dualtrace"]


def figures(report: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((report.parent / "results.json").read_text())
    return data


def rows(report: Path) -> dict[tuple[str, str], dict[str, Any]]:
    lines = (report.parent / "questions.jsonl").read_text().splitlines()
    return {(r["method"], r["qid"]): r for r in map(json.loads, lines)}


def check_bounded(data: dict[str, Any]) -> None:
    """Every recall/answer/NDCG figure lies in [0, 1]."""
    for method in data["methods"].values():
        for summary in method["groups"].values():
            for key, value in summary.items():
                if value is not None and not key.startswith(("tokens@", "items@")):
                    assert 0.0 <= value <= 1.0, key


@pytest.fixture(scope="module")
def locomo_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("locomo")
    return run_locomo(
        DATA / "locomo",
        budgets=(300, 4000),
        ks=(1, 5),
        out=tmp / "out",
        cache=tmp / "cache.sqlite",
        ablate=True,
        embedder=FakeEmbedder,
        progress=False,
    )


def test_locomo_run_writes_report_and_plots(locomo_report: Path) -> None:
    text = locomo_report.read_text()
    for name in [*BASELINES, "dualtrace: episodes only", "dualtrace: no entity channel"]:
        assert f"| {name} |" in text
    assert "QA accuracy not measured" in text and "5 adversarial" in text
    for png in ("recall_vs_budget.png", "recall_by_category.png"):
        assert (locomo_report.parent / png).read_bytes()[:4] == b"\x89PNG"


def test_locomo_figures_are_sane(locomo_report: Path) -> None:
    data = figures(locomo_report)
    check_bounded(data)
    full = data["methods"]["full history"]["groups"]["overall"]
    assert full["recall@300"] == full["recall@4000"] == 1.0
    hybrid = data["methods"]["hybrid turns"]["groups"]["overall"]
    assert hybrid["tokens@300"] <= 300 and hybrid["recall@4000"] == 1.0
    per_question = rows(locomo_report)
    for method in ("bm25 turns", "hybrid turns", "dualtrace"):
        assert per_question[(method, "tiny:0")]["recall@4000"] == 1.0  # Bob's kitten, D1:2
    assert data["ingest"][0]["turns"] == 10
    assert data["methods"]["dualtrace"]["latency_ms"]["search_p50"] > 0


def test_longmemeval_run_reports_session_recall_and_abstention(tmp_path: Path) -> None:
    path = tmp_path / "lme.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write((DATA / "longmemeval_tiny.json").read_text())
    report = run_longmemeval(
        path,
        budgets=(200, 3000),
        ks=(5,),
        out=tmp_path / "out",
        cache=tmp_path / "cache.sqlite",
        embedder=FakeEmbedder,
        progress=False,
    )
    text = report.read_text()
    assert "Session recall" in text and "abstention (1 questions) — reported apart" in text
    data = figures(report)
    check_bounded(data)
    overall = data["methods"]["full history"]["groups"]["overall"]
    assert overall["recall@3000"] == 1.0 and overall["session_all@3000"] == 1.0
    bm25 = rows(report)[("bm25 turns", "q_user_1")]
    assert bm25["recall@3000"] == 1.0 and bm25["session_any@3000"] == 1.0
    assert bm25["answer@3000"] == 1.0
    assert bm25["answer_stated@3000"] == 1.0  # "Rotterdam" is said in the evidence turn
    assert rows(report)[("bm25 turns", "q_multi_2_abs")]["answer_stated@3000"] is None
    assert "over the 1 questions whose gold answer an evidence turn states" in text


def test_cli_bench_prints_where_the_report_went(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_runner, "_default_embedder", FakeEmbedder)
    out = tmp_path / "out"
    args = [
        "bench",
        "locomo",
        "--data",
        str(DATA / "locomo"),
        "--budgets",
        "500",
        "--k",
        "5",
        "--out",
        str(out),
        "--cache",
        str(tmp_path / "c.sqlite"),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert f"report written to {out / 'report.md'}" in result.output
    bad = CliRunner().invoke(cli, [*args[:5], "--budgets", "0,x"])
    assert bad.exit_code == 2 and "--budgets" in bad.output


def test_stated_answers_count_only_answers_an_evidence_turn_says(tmp_path: Path) -> None:
    when = datetime(2024, 5, 1, tzinfo=UTC)
    turns = (
        Turn("t1", "user", "Ann", "I paid $100 for each of the two gifts."),
        Turn("t2", "user", "Ann", "The handbag was $200."),
    )
    evidence = frozenset({"t1"})
    summed = Question("sum", "How much did the gifts cost?", "$200", "multi", evidence, when)
    said = Question("said", "What did each gift cost?", "$100", "multi", evidence, when)
    unit = Unit("ann", (BenchSession("s", when, turns),), (summed, said))
    result = RunResult(
        Benchmark("tiny", (unit,), ("multi",)),
        (500,),
        (5,),
        MemoryConfig(),
        "test",
        datetime.now(),
        "fake",
        tmp_path / "cache",
    )
    run = MethodRun(methods()[1])
    run.rows = {"sum": {"answer@500": 1.0}, "said": {"answer@500": 0.0}}
    result.runs.append(run)
    bench_runner.mark_stated_answers(result)
    assert run.rows["sum"]["answer_stated@500"] is None  # "$200" matched the handbag by chance
    assert run.rows["said"]["answer_stated@500"] == 0.0
