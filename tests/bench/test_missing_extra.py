"""`pip install dualtrace` has no plotting library: `dualtrace bench` then says how to get it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dualtrace.cli import cli
from dualtrace.cli.bench import bench_extra

DATA = Path(__file__).parent / "data"


def _without(monkeypatch: pytest.MonkeyPatch, package: str) -> None:
    """Make `import package` fail as if it were not installed (None in sys.modules)."""
    for name in [m for m in sys.modules if m.startswith(f"{package}.")] + [package]:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize("benchmark", ["locomo", "longmemeval"])
def test_bench_without_matplotlib_exits_4_and_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, benchmark: str
) -> None:
    import dualtrace.bench  # noqa: F401  loaded now, so that the harness is put back after

    for name in [m for m in sys.modules if m.startswith("dualtrace.bench")]:
        monkeypatch.delitem(sys.modules, name)  # the command imports the harness afresh
    _without(monkeypatch, "matplotlib")
    data = DATA / "locomo" if benchmark == "locomo" else DATA / "longmemeval_tiny.json"
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["bench", benchmark, "--data", str(data), "--out", str(out)])
    assert result.exit_code == 4, result.output
    assert result.stderr.startswith("error: ")
    assert "needs matplotlib" in result.stderr
    assert "pip install 'dualtrace[bench]'" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()


def test_other_missing_modules_are_not_blamed_on_the_extra() -> None:
    with pytest.raises(ModuleNotFoundError), bench_extra():
        import dualtrace_no_such_module  # type: ignore[import-not-found]  # noqa: F401
