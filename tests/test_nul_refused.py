"""A NUL character in an id, a speaker's name, a text or metadata is refused alike on SQLite
and PostgreSQL (which cannot store one), with a ValidationError naming the field; nothing is
stored. Also through the CLI's import."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dualtrace import Memory, ValidationError
from dualtrace.cli import cli

NUL = "a\x00b"

CASES: list[tuple[str, str, Callable[[Memory], Any]]] = [
    ("user id", "user_id", lambda m: m.add("I live in Hangzhou", user_id=NUL)),
    ("user id of a read", "user_id", lambda m: m.get_all(user_id=NUL)),
    ("session id", "session_id", lambda m: m.add("hi there", user_id="u", session_id=NUL)),
    ("agent id", "agent_id", lambda m: m.add("hi there", user_id="u", agent_id=NUL)),
    ("speaker", "name", lambda m: m.add({"content": "hi there", "name": NUL}, user_id="u")),
    ("message id", "id", lambda m: m.add({"content": "hi there", "id": NUL}, user_id="u")),
    ("content", "content", lambda m: m.add(f"I live in {NUL}", user_id="u")),
    ("metadata key", "metadata key", lambda m: m.add("hi", user_id="u", metadata={NUL: 1})),
    ("metadata value", "metadata['k']", lambda m: m.add("hi", user_id="u", metadata={"k": [NUL]})),
    ("filter key", "filters key", lambda m: m.search("hi", user_id="u", filters={NUL: 1})),
    ("query", "query", lambda m: m.search(f"where {NUL}", user_id="u")),
    ("session turn", "content", lambda m: m.session(user_id="u").add("user", f"hi {NUL}")),
    ("record id", "id", lambda m: m.get(NUL, user_id="u")),
    ("key label", "label", lambda m: m.api_keys.create(user_id="u", label=NUL)),
]


@pytest.mark.parametrize(("name", "field", "call"), CASES, ids=[c[0] for c in CASES])
def test_a_nul_is_refused_alike_on_both_backends(
    any_mem: Memory, name: str, field: str, call: Callable[[Memory], Any]
) -> None:
    any_mem.add("I live in Hangzhou", user_id="u")
    before = any_mem.users()
    with pytest.raises(ValidationError, match="NUL character") as caught:
        call(any_mem)
    assert field in str(caught.value) and "remove it" in str(caught.value)
    assert any_mem.users() == before


def test_cli_import_refuses_a_nul_and_stores_nothing(tmp_path: Path) -> None:
    db, lines = tmp_path / "memory.db", tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"role": "user", "content": "hi", "session_id": NUL}) + "\n")
    result = CliRunner().invoke(cli, ["--db", str(db), "import", str(lines), "--user", "u"])
    assert result.exit_code == 2, result.output
    assert "NUL character" in result.output
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM episodes").fetchone() == (0,)
