"""Smoke test for bench/ingest_search.py: a tiny run with the fake embedder writes sane JSON."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from dualtrace.cjk import has_cjk

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "ingest_search.py"


def load_bench() -> ModuleType:
    """Import the benchmark script by path (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_ingest_search", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


def test_small_fake_run_writes_positive_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_bench()
    out = tmp_path / "figures.json"
    db = tmp_path / "bench.db"
    argv = ["--turns", "200", "--queries", "20", "--embedder", "fake"]
    rc = bench.main([*argv, "--db", str(db), "--json", str(out)])
    assert rc == 0
    figures = json.loads(out.read_text())
    assert figures["ingest"]["turns"] == 200
    assert figures["ingest"]["turns_per_s"] > 0
    assert 0 < figures["ingest"]["embed_share"] < 1
    for key in ("with_query_embedding_ms", "without_query_embedding_ms"):
        latency = figures["search"][key]
        assert latency["n"] == 20
        assert latency["p95"] >= latency["p50"] > 0
    assert figures["search"]["mean_hits"] > 0
    assert figures["db_size_mb"] > 0 and db.exists()
    assert figures["machine"]["embedder_id"].startswith("fake")
    printed = capsys.readouterr().out
    assert "| ingest rate |" in printed and "search p50 / p95 / mean" in printed


def test_corpus_and_queries_are_deterministic_and_mixed() -> None:
    bench = load_bench()
    sessions = bench.make_corpus(500, seed=3)
    assert sessions == bench.make_corpus(500, seed=3)
    turns = [text for s in sessions for _, text, _ in s.turns]
    assert len(turns) == 500
    chinese = [t for t in turns if has_cjk(t)]
    assert 0.03 < len(chinese) / len(turns) < 0.2
    english = [t for t in turns if t not in chinese]
    assert all(10 <= len(t.split()) <= 40 for t in english)
    assert len({s.start.date() for s in sessions}) == len(sessions)
    queries = bench.make_queries(50, seed=4)
    assert len(set(queries)) == 50 and queries == bench.make_queries(50, seed=4)


def test_existing_db_is_refused(tmp_path: Path) -> None:
    bench = load_bench()
    db = tmp_path / "taken.db"
    db.write_bytes(b"")
    with pytest.raises(SystemExit):
        bench.main(["--turns", "10", "--embedder", "fake", "--db", str(db)])
