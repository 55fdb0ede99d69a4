"""`dualtrace profile --user U`, run through click's CliRunner on a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dualtrace.cli import cli


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUALTRACE_HOME", str(tmp_path / "home"))


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args])


def test_profile_prints_current_values_and_json(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    for text, when in (
        ("I live in Hangzhou.", "2026-01-05"),
        ("I moved to Shanghai last week.", "2026-03-02"),
    ):
        assert run(db, "add", text, "--user", "lin", "--timestamp", when).exit_code == 0
    shown = run(db, "profile", "--user", "lin")
    assert shown.exit_code == 0, shown.output
    assert "lives in: Shanghai" in shown.stdout and "Hangzhou" not in shown.stdout
    then = run(db, "profile", "--user", "lin", "--as-of", "2026-02-01", "--history")
    assert "lives in: Hangzhou" in then.stdout
    body = json.loads(run(db, "profile", "--user", "lin", "--json", "--history").stdout)
    home = body["values"][0]
    assert home["value"] == "Shanghai" and home["replaced"][0]["value"] == "Hangzhou"
    assert set(body) >= {"text", "tokens", "values", "goals", "tasks", "summary", "references"}
    small = json.loads(run(db, "--json", "profile", "--user", "lin", "--max-tokens", "25").stdout)
    assert 0 < small["tokens"] <= 25


def test_profile_of_nobody_and_bad_input(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    empty = run(db, "profile", "--user", "nobody")
    assert empty.exit_code == 0 and empty.stdout == ""
    assert "nothing is known about user 'nobody'" in empty.stderr
    bad = run(db, "profile", "--user", "lin", "--max-tokens", "0")
    assert bad.exit_code != 0 and "max_tokens" in bad.output
