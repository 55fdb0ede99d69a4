"""Smoke test for bench/load_service.py: a tiny run with the fake embedder, no errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "load_service.py"


def test_a_tiny_load_run_reports_figures_and_no_errors(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--embedder",
            "fake",
            "--ingest",
            "10",
            "--batch",
            "5",
            "--seconds",
            "1",
            "--clients",
            "2",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert figures["ingest"]["sync_ack_turns_per_s"] > 0
    assert figures["ingest"]["async_drain_s"] > 0
    (run,) = figures["load"]
    assert (
        run["errors"] == 0
        and run["requests"] > 0
        and set(run["routes"]) <= {"add", "search", "context"}
    )
    assert "| clients | req/s |" in done.stdout
