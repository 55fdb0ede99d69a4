"""Smoke test for bench/crosslingual_variants.py: a tiny case file, the fake embedder, two
variants on one store; and a misspelt setting refused before anything is ingested."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from dualtrace.bench.crosslingual import CASES
from dualtrace.errors import SettingError

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_script() -> ModuleType:
    """Import the script by path (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "bench_xl_variants", BENCH / "crosslingual_variants.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def first_session(tmp_path: Path) -> Path:
    """The packaged case file cut to its first session: its turns and its pairs."""
    lines = CASES.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])["session"]
    kept = [line for line in lines if json.loads(line)["session"] == first]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


def test_two_variants_on_one_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    variants = {"default": {}, "no cross-lingual channel": {"crosslingual_weight": 0.0}}
    argv = ["--cases", str(first_session(tmp_path)), "--embedder", "fake"]
    argv += ["--db", str(tmp_path / "xl.db"), "--variants", json.dumps(variants)]
    assert script.main(argv) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| ")]
    assert [r.split(" | ")[0] for r in rows] == [
        "| variant",
        "| default",
        "| no cross-lingual channel",
    ]
    for row in rows[1:]:
        cells = row.strip("| ").split(" | ")[1:]
        assert len(cells) == 6
        assert all(0.0 <= float(c.split()[0]) <= 1.0 for c in cells)
    assert (tmp_path / "xl.db").exists()


def test_a_misspelt_setting_fails_before_the_ingest(tmp_path: Path) -> None:
    script = load_script()
    argv = ["--cases", str(first_session(tmp_path)), "--embedder", "fake"]
    argv += ["--db", str(tmp_path / "xl.db"), "--variants", '{"typo": {"crosslingual_wieght": 1}}']
    with pytest.raises(SettingError, match="crosslingual_wieght"):
        script.main(argv)
    assert not (tmp_path / "xl.db").exists()
