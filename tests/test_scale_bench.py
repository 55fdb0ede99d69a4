"""Smoke test for bench/scale.py: a tiny SQLite run writes sane figures (not a timing test)."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "scale.py"


def load_bench() -> ModuleType:
    """Import the benchmark script by path (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_scale", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


def test_a_tiny_run_reports_every_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_bench()
    argv = [
        "--sizes",
        "300",
        "--users",
        "5",
        "--url",
        str(tmp_path / "s.db"),
        "--out",
        str(tmp_path),
        "--queries",
        "10",
        "--recall-queries",
        "3",
    ]
    assert bench.main(argv) == 0
    (result,) = json.loads((tmp_path / "scale.json").read_text())["results"]
    assert result["size"] == 300 and result["users"] == 5 and result["big_user_memories"] == 150
    assert result["ingest_per_s"] > 0 and result["disk_bytes"] > 0 and result["peak_rss_mb"] > 0
    assert result["bytes_per_memory"] == result["disk_bytes"] / 300
    for group in ("search_big", "search_small"):
        assert result[group]["n"] == 10 and result[group]["p95_ms"] >= result[group]["p50_ms"] > 0
    assert result["recall_at_50"]["store"] == 1.0  # SQLite's dense search is exact
    assert (tmp_path / "s-300.db").exists()
    assert "| sqlite | 300 | 5 | 150 |" in capsys.readouterr().out


def test_the_layout_and_facts_are_deterministic_and_bilingual() -> None:
    bench = load_bench()
    plan = bench.layout(100_000, 10_000)
    assert plan[0] == (bench.BIG_USER, 10_000) and len(plan) == 10_000
    assert sum(n for _, n in plan) == 100_000
    one, two = random.Random(1), random.Random(1)
    first = [bench.fact_text(one) for _ in range(200)]
    assert first == [bench.fact_text(two) for _ in range(200)]
    assert any(bench.index_text(t) != t for t in first)  # Chinese facts are segmented
