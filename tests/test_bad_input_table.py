"""Every bad input a hostile caller tried (issue 15), as one table: each raises the
DualtraceError subclass that names the value and the fix, and the store is left unchanged
(every row of every table compared, and a damaged file byte for byte)."""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dualtrace import ConfigError, Memory, MemoryConfig, Session, StoreError, ValidationError
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import DualtraceError, SettingError


@dataclass
class World:
    """A store with turns, memories, history and a session; a closed Memory on it too."""

    mem: Memory
    closed: Memory
    session: Session
    db: Path
    tmp: Path
    ep: str


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    db = tmp_path / "memory.db"
    with Memory(db, embedder=FakeEmbedder()) as mem:
        (ep, _) = mem.add(
            [
                {"content": "I live in Hangzhou.", "id": "m1", "metadata": {"k": None}},
                {"content": "My budget is 300k yuan.", "id": "m2"},
            ],
            user_id="u",
            session_id="s1",
            timestamp="2024-05-01T10:00:00+08:00",
        ).episodes
        mem.add("I moved to Shanghai.", user_id="u", timestamp="2024-06-01")
        session = mem.session(user_id="u", session_id="live", now="2024-06-02")
        session.add("user", "Planning a trip to Kyoto.", timestamp="2024-06-02T09:00:00")
        closed = Memory(db, embedder=FakeEmbedder())
        closed.close()
        yield World(mem, closed, session, db, tmp_path, ep)


def _rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as a second connection sees the committed file."""
    conn = sqlite3.connect(db)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            t: sorted(map(tuple, conn.execute(f'SELECT * FROM "{t}"')), key=repr) for t in tables
        }
    finally:
        conn.close()


def _memory(world: World, **kwargs: Any) -> Memory:
    """A Memory on a new file beside the store (for cases about opening one)."""
    kwargs.setdefault("embedder", FakeEmbedder())
    return Memory(world.tmp / "other.db", **kwargs)


def _bad_file(world: World, content: bytes) -> Memory:
    path = world.tmp / "bad.db"
    path.write_bytes(content)
    return Memory(path, embedder=FakeEmbedder())


def _truncated(world: World) -> Memory:
    path = world.tmp / "cut.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        mem.add([f"turn {i} about Hangzhou and Shanghai" for i in range(300)], user_id="u")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with Memory(path, embedder=FakeEmbedder()) as mem:  # the header may still read
        mem.get_all(user_id="u")
        mem.search("Hangzhou", user_id="u")
        return mem


def _read_only(world: World) -> object:
    """A store SQLite refuses to write (query_only: what a read-only file does)."""
    mem = Memory(world.db, embedder=FakeEmbedder())
    try:
        mem.store._conn.execute("PRAGMA query_only = ON")  # type: ignore[attr-defined]
        return mem.add("refused", user_id="u")
    finally:
        mem.close()


def _import(world: World, *records: Any, **kwargs: Any) -> int:
    return world.mem.import_records(
        [{"content": "stored only if every record is valid"}, *records], user_id="u", **kwargs
    )


def _memory_record(**fields: Any) -> dict[str, Any]:
    return {"type": "memory", "id": "x1", "text": "Alice likes tea.", **fields}


Call = Callable[[World], object]
S = "\udcff"  # a lone surrogate: what decoding bytes with errors="surrogateescape" leaves
ZERO_WIDTH = "\u200b\u200c\u200d\ufeff"
DEEP: dict[str, Any] = {}
_cursor = DEEP
for _ in range(100):
    _cursor["a"] = {}
    _cursor = _cursor["a"]

# fmt: off
CASES: list[tuple[str, Call, type[DualtraceError]]] = [
    # -- files that are not a usable store
    ("corrupt file", lambda w: _bad_file(w, b"SQLite format 3\x00" + b"\xff" * 8000), StoreError),
    ("non-database file", lambda w: _bad_file(w, b"hello, I am a text file\n" * 50), StoreError),
    ("truncated file", _truncated, StoreError),
    ("read-only file", _read_only, StoreError),
    ("empty path", lambda w: Memory("", embedder=FakeEmbedder()), ConfigError),
    ("blank path", lambda w: Memory("  ", embedder=FakeEmbedder()), ConfigError),
    ("path is an int", lambda w: Memory(path=5, embedder=FakeEmbedder()), ConfigError),  # type: ignore[arg-type]
    ("url is an int", lambda w: Memory(url=5, embedder=FakeEmbedder()), ConfigError),  # type: ignore[arg-type]
    ("path is a folder", lambda w: Memory(w.tmp, embedder=FakeEmbedder()), StoreError),
    # -- use after close
    ("add after close", lambda w: w.closed.add("hi", user_id="u"), StoreError),
    ("search after close", lambda w: w.closed.search("Hangzhou", user_id="u"), StoreError),
    ("context after close", lambda w: w.closed.context("Hangzhou", user_id="u"), StoreError),
    ("get after close", lambda w: w.closed.get(w.ep, user_id="u"), StoreError),
    ("get_all after close", lambda w: w.closed.get_all(user_id="u"), StoreError),
    ("export after close", lambda w: list(w.closed.export(user_id="u")), StoreError),
    ("delete after close", lambda w: w.closed.delete(w.ep, user_id="u"), StoreError),
    ("maintain after close", lambda w: w.closed.maintain(), StoreError),
    ("session after close", lambda w: w.closed.session(user_id="u"), StoreError),
    # -- settings and parts of the wrong kind
    ("unknown setting", lambda w: MemoryConfig(bogus=1), SettingError),  # type: ignore[call-arg]
    ("int setting as str", lambda w: MemoryConfig(candidates="5"), SettingError),  # type: ignore[arg-type]
    ("bool setting as str", lambda w: MemoryConfig(extract="false"), SettingError),  # type: ignore[arg-type]
    ("int setting as float", lambda w: MemoryConfig(max_message_chars=1.5), SettingError),  # type: ignore[arg-type]
    ("NaN setting", lambda w: MemoryConfig(dense_weight=math.nan), ConfigError),
    ("config as a dict", lambda w: _memory(w, config={"pii": "keep"}), ConfigError),
    ("embedder as a str", lambda w: _memory(w, embedder="fake"), ConfigError),
    ("llm as a str", lambda w: _memory(w, llm="gpt"), ConfigError),
    # -- ids of the wrong shape
    ("get a list", lambda w: w.mem.get([w.ep], user_id="u"), ValidationError),  # type: ignore[arg-type]
    ("history a list", lambda w: w.mem.history([w.ep], user_id="u"), ValidationError),  # type: ignore[arg-type]
    ("update a list", lambda w: w.mem.update([w.ep], "x", user_id="u"), ValidationError),  # type: ignore[arg-type]
    ("delete a dict", lambda w: w.mem.delete({}, user_id="u"), ValidationError),  # type: ignore[arg-type]
    ("restore an int", lambda w: w.mem.restore(5, user_id="u"), ValidationError),  # type: ignore[arg-type]
    ("revert 10**30", lambda w: w.mem.revert(10**30, user_id="u"), ValidationError),
    ("revert -1", lambda w: w.mem.revert(-1, user_id="u"), ValidationError),
    ("revert a str", lambda w: w.mem.revert("5", user_id="u"), ValidationError),  # type: ignore[arg-type]
    ("message id 10**400", lambda w: w.mem.add([{"content": "x", "id": 10**400}], user_id="u"),
     ValidationError),
    # -- times outside the supported range
    ("maintain now year 1", lambda w: w.mem.maintain(now="0001-01-01"), ValidationError),
    ("timestamp year 0 in UTC",
     lambda w: w.mem.add("x", user_id="u", timestamp="0001-01-01T00:00:00+01:00"),
     ValidationError),
    ("timestamp year 10000 in UTC",
     lambda w: w.mem.add("x", user_id="u", timestamp="9999-12-31T23:59:59-01:00"),
     ValidationError),
    ("message timestamp year 1",
     lambda w: w.mem.add([{"content": "x", "timestamp": "0001-01-01"}], user_id="u"),
     ValidationError),
    ("search now year 1", lambda w: w.mem.search("x", user_id="u", now="0001-01-01"),
     ValidationError),
    ("search as_of year 9999", lambda w: w.mem.search("x", user_id="u", as_of="9999-12-31"),
     ValidationError),
    ("session now year 1", lambda w: w.mem.session(user_id="u", now="0001-01-01"),
     ValidationError),
    ("session end year 1", lambda w: w.session.end(now="0001-01-01"), ValidationError),
    ("timestamp NaN", lambda w: w.mem.add("x", user_id="u", timestamp=math.nan), ValidationError),
    # -- lone surrogates
    ("surrogate user_id", lambda w: w.mem.add("x", user_id="u" + S), ValidationError),
    ("surrogate session_id", lambda w: w.mem.add("x", user_id="u", session_id=S),
     ValidationError),
    ("surrogate name", lambda w: w.mem.add([{"content": "x", "name": S}], user_id="u"),
     ValidationError),
    ("surrogate message id", lambda w: w.mem.add([{"content": "x", "id": S}], user_id="u"),
     ValidationError),
    ("surrogate metadata value",
     lambda w: w.mem.add([{"content": "x", "metadata": {"a": S}}], user_id="u"),
     ValidationError),
    ("surrogate metadata key", lambda w: w.mem.add("x", user_id="u", metadata={S: 1}),
     ValidationError),
    ("surrogate content", lambda w: w.mem.add("x" + S, user_id="u"), ValidationError),
    ("surrogate session name", lambda w: w.session.add("user", "x", name=S), ValidationError),
    ("surrogate get id", lambda w: w.mem.get(S, user_id="u"), ValidationError),
    # -- metadata that would not come back as given
    ("metadata NaN", lambda w: w.mem.add("x", user_id="u", metadata={"a": math.nan}),
     ValidationError),
    ("metadata int key", lambda w: w.mem.add("x", user_id="u", metadata={1: "a"}),
     ValidationError),
    ("metadata 100 deep", lambda w: w.mem.add("x", user_id="u", metadata=DEEP), ValidationError),
    ("metadata too large",
     lambda w: w.mem.add("x", user_id="u", metadata={"blob": "y" * 1_000_001}),
     ValidationError),
    # -- content that shows nothing
    ("content zero-width only", lambda w: w.mem.add(ZERO_WIDTH, user_id="u"), ValidationError),
    ("content NULs only", lambda w: w.mem.add("\x00\x00\x00", user_id="u"), ValidationError),
    ("update to zero-width", lambda w: w.mem.update(w.ep, "\u200b", user_id="u"),
     ValidationError),
    ("session turn of NULs", lambda w: w.session.add("user", "\x00"), ValidationError),
    ("user_id zero-width", lambda w: w.mem.add("x", user_id="\u200b"), ValidationError),
    ("query of NULs", lambda w: w.mem.search("\x00", user_id="u"), ValidationError),
    # -- flags, counts and filters
    ("include_invalid='no'", lambda w: w.mem.get_all(user_id="u", include_invalid="no"),  # type: ignore[arg-type]
     ValidationError),
    ("explain='no'", lambda w: w.mem.search("x", user_id="u", explain="no"), ValidationError),  # type: ignore[arg-type]
    ("reinforce='no'", lambda w: w.mem.search("x", user_id="u", reinforce="no"),  # type: ignore[arg-type]
     ValidationError),
    ("extract='no'", lambda w: w.mem.add("x", user_id="u", extract="no"), ValidationError),  # type: ignore[arg-type]
    ("get_all limit 10**30", lambda w: w.mem.get_all(user_id="u", limit=10**30),
     ValidationError),
    ("context limit 0", lambda w: w.mem.context("x", user_id="u", limit=0), ValidationError),
    ("filters with a set", lambda w: w.mem.search("x", user_id="u", filters={"a": {1}}),
     ValidationError),
    ("filters with an int key", lambda w: w.mem.search("x", user_id="u", filters={1: "a"}),  # type: ignore[dict-item]
     ValidationError),
    ("filters with NaN", lambda w: w.mem.search("x", user_id="u", filters={"a": math.nan}),
     ValidationError),
    ("role a list", lambda w: w.mem.add([{"content": "x", "role": ["user"]}], user_id="u"),
     ValidationError),
    ("session role a list", lambda w: w.session.add(["user"], "x"), ValidationError),  # type: ignore[arg-type]
    # -- imports
    ("import None", lambda w: w.mem.import_records(None, user_id="u"), ValidationError),  # type: ignore[arg-type]
    ("import a str", lambda w: w.mem.import_records("abc", user_id="u"), ValidationError),  # type: ignore[arg-type]
    ("import one dict", lambda w: w.mem.import_records({"content": "x"}, user_id="u"),  # type: ignore[arg-type]
     ValidationError),
    ("import batch=0", lambda w: _import(w, batch=0), ValidationError),
    ("import batch='1'", lambda w: _import(w, batch="1"), ValidationError),
    ("import progress=5", lambda w: _import(w, progress=5), ValidationError),
    ("import session_id int", lambda w: _import(w, {"content": "x", "session_id": 5}),
     ValidationError),
    ("import agent_id list", lambda w: _import(w, {"content": "x", "agent_id": []}),
     ValidationError),
    ("import content int", lambda w: _import(w, {"content": 5}), ValidationError),
    ("import content zero-width", lambda w: _import(w, {"content": ZERO_WIDTH}),
     ValidationError),
    ("import timestamp bool", lambda w: _import(w, {"content": "x", "timestamp": True}),
     ValidationError),
    ("import type list", lambda w: _import(w, {"content": "x", "type": []}), ValidationError),
    ("import type unknown", lambda w: _import(w, {"content": "x", "type": "memroy"}),
     ValidationError),
    ("import record a list", lambda w: _import(w, ["x"]), ValidationError),
    ("import memory 1 MB", lambda w: _import(w, _memory_record(text="x" * 1_000_000)),
     ValidationError),
    ("import memory sources int", lambda w: _import(w, _memory_record(sources=5)),
     ValidationError),
    ("import memory scene int", lambda w: _import(w, _memory_record(scene=5)), ValidationError),
    ("import memory archived str", lambda w: _import(w, _memory_record(archived="no")),
     ValidationError),
    ("import memory kind list", lambda w: _import(w, _memory_record(kind=["fact"])),
     ValidationError),
    ("import memory id list", lambda w: _import(w, _memory_record(id=[1])), ValidationError),
    ("import memory superseded_by int", lambda w: _import(w, _memory_record(superseded_by=5)),
     ValidationError),
    ("import memory importance str", lambda w: _import(w, _memory_record(importance="high")),
     ValidationError),
    ("import memory text missing", lambda w: _import(w, _memory_record(text=None)),
     ValidationError),
    ("import memory unknown key", lambda w: _import(w, _memory_record(mood="happy")),
     ValidationError),
    ("import memory time year 1 in UTC",
     lambda w: _import(w, _memory_record(valid_from="0001-01-01T00:00+05:00")),
     ValidationError),
    ("import memory surrogate text", lambda w: _import(w, _memory_record(text="tea" + S)),
     ValidationError),
]
# fmt: on


@pytest.mark.parametrize(("call", "error"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_raises_its_error_and_changes_nothing(
    world: World, call: Call, error: type[DualtraceError]
) -> None:
    before = _rows(world.db)
    with pytest.raises(error) as raised:
        call(world)
    assert str(raised.value).strip(), "the message must say what failed and how to fix it"
    assert _rows(world.db) == before


def test_the_table_covers_the_issue() -> None:
    names = [c[0] for c in CASES]
    assert len(names) == len(set(names)) == 100


def test_a_damaged_file_is_left_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    content = b"SQLite format 3\x00" + bytes(range(256)) * 40
    path.write_bytes(content)
    with pytest.raises(StoreError, match="damaged or is not a dualtrace database"):
        Memory(path, embedder=FakeEmbedder())
    assert path.read_bytes() == content


# -- what must succeed, and give the right answer -------------------------------------------


def test_a_second_close_does_nothing(world: World) -> None:
    world.closed.close()
    world.mem.close()
    world.mem.close()


def test_a_home_relative_path_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    with Memory("~/x.db", embedder=FakeEmbedder()) as mem:
        mem.add("hello", user_id="u")
    assert (tmp_path / "home" / "x.db").exists()
    assert not (tmp_path / "~").exists()


def test_a_null_filter_matches_a_stored_null_only(world: World) -> None:
    hits = world.mem.search("Hangzhou", user_id="u", filters={"k": None}, kinds=["episode"])
    assert [h.text for h in hits] == ["I live in Hangzhou."]


def test_imported_memories_are_redacted_like_added_turns(world: World) -> None:
    record = _memory_record(
        text="Alice's e-mail is alice@example.com, phone 13812345678.",
        scene="Alice gave bob@example.com as her address.",
        metadata={"contact": "13912345678"},
    )
    assert world.mem.import_records([record], user_id="v") == 1
    (item,) = world.mem.get_all(user_id="v")
    stored = f"{item.text} {item.scene} {item.metadata}"
    assert "[EMAIL]" in item.text and "[PHONE]" in item.text
    rows = repr(_rows(world.db))
    for secret in ("alice@example.com", "13812345678", "bob@example.com", "13912345678"):
        assert secret not in stored and secret not in rows


def test_speaker_names_and_metadata_are_redacted_on_every_path(world: World) -> None:
    world.mem.add(
        [{"content": "hello", "name": "bob@example.com", "metadata": {"tel": ["13812345678"]}}],
        user_id="w",
        metadata={"from": "carol@example.com"},
    )
    session = world.mem.session(user_id="w")
    session.add("user", "hi again", name="dave@example.com")
    world.mem.import_records(
        [{"content": "imported", "name": "erin@example.com", "metadata": {"m": "erin@x.io"}}],
        user_id="w",
    )
    dump = repr(list(world.mem.export(user_id="w"))) + repr(_rows(world.db))
    for secret in ("bob@", "13812345678", "carol@", "dave@", "erin@"):
        assert secret not in dump


def test_keep_policy_stores_names_and_metadata_as_given(tmp_path: Path) -> None:
    with Memory(tmp_path / "k.db", embedder=FakeEmbedder(), config=MemoryConfig(pii="keep")) as m:
        m.add([{"content": "hi", "name": "bob@example.com"}], user_id="u", metadata={"a": "c@d.io"})
        (record,) = [r for r in m.export(user_id="u") if r["type"] == "episode"]
    assert record["name"] == "bob@example.com" and record["metadata"] == {"a": "c@d.io"}


# -- the CLI: one error mapping, JSON errors under --json, never a traceback ----------------


@dataclass
class CliWorld:
    db: Path
    tmp: Path


def _jsonl(world: CliWorld, name: str, *records: object) -> str:
    path = world.tmp / name
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", "utf-8")
    return str(path)


def _corrupt_db(world: CliWorld) -> str:
    path = world.tmp / "corrupt.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\x13" * 5000)
    return str(path)


# fmt: off
CLI_CASES: list[tuple[str, Callable[[CliWorld], list[str]], int, str]] = [
    ("undo a huge id", lambda w: ["undo", str(10**30), "--user", "u"], 2, "ValidationError"),
    ("maintain year 1", lambda w: ["maintain", "--now", "0001-01-01"], 2, "ValidationError"),
    ("corrupt --db", lambda w: ["--db", _corrupt_db(w), "list", "--user", "u"], 1, "StoreError"),
    ("malformed import record",
     lambda w: ["import", _jsonl(w, "a.jsonl", {"content": "x", "session_id": 5}), "--user", "u"],
     2, "ValidationError"),
    ("import memory of wrong types",
     lambda w: ["import", _jsonl(w, "b.jsonl", _memory_record(sources=5)), "--user", "u"],
     2, "ValidationError"),
    ("import 1 MB memory",
     lambda w: ["import", _jsonl(w, "c.jsonl", _memory_record(text="x" * 1_000_000)),
                "--user", "u"],
     2, "ValidationError"),
    ("add zero-width", lambda w: ["add", ZERO_WIDTH, "--user", "u"], 2, "ValidationError"),
    ("search year 10000 in UTC",
     lambda w: ["search", "q", "--user", "u", "--now", "9999-12-31T23:59:59-01:00"],
     2, "ValidationError"),
    ("list --limit 0", lambda w: ["list", "--user", "u", "--limit", "0"], 2, "ValidationError"),
    ("get an unknown id", lambda w: ["get", "ep_nope", "--user", "u"], 3, "NotFoundError"),
    ("missing --user", lambda w: ["search", "q"], 2, "MissingParameter"),
    ("unknown option", lambda w: ["--bogus", "list", "--user", "u"], 2, "NoSuchOption"),
    ("undo not a number", lambda w: ["undo", "abc", "--user", "u"], 2, "BadParameter"),
]
# fmt: on


@pytest.fixture
def cli_world(tmp_path: Path) -> CliWorld:
    """A store the CLI made (with its default embedder), holding turns and memories."""
    db = tmp_path / "cli.db"
    for text in ("I live in Hangzhou.", "My budget is 300k yuan."):
        added = CliRunner().invoke(cli, ["--db", str(db), "add", text, "--user", "u"])
        assert added.exit_code == 0, added.output
    return CliWorld(db=db, tmp=tmp_path)


def _cli(world: CliWorld, args: list[str]) -> Any:
    lead = [] if "--db" in args else ["--db", str(world.db)]
    return CliRunner().invoke(cli, [*lead, *args])


@pytest.mark.parametrize(
    ("args", "code", "kind"), [c[1:] for c in CLI_CASES], ids=[c[0] for c in CLI_CASES]
)
@pytest.mark.parametrize("json_at", ["none", "before", "after"])
def test_cli_bad_input_is_one_error_line_or_json_and_changes_nothing(
    cli_world: CliWorld,
    args: Callable[[CliWorld], list[str]],
    code: int,
    kind: str,
    json_at: str,
) -> None:
    before = _rows(cli_world.db)
    argv = args(cli_world)
    argv = {"none": argv, "before": ["--json", *argv], "after": [*argv, "--json"]}[json_at]
    result = _cli(cli_world, argv)
    assert result.exit_code == code, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit)  # not a traceback
    assert "Traceback" not in result.output and result.stdout == ""
    if json_at == "none":
        assert result.stderr.startswith(("error: ", "Usage: "))
    else:
        error = json.loads(result.stderr)["error"]
        assert error["type"] == kind and error["message"]
    assert _rows(cli_world.db) == before


def test_json_after_the_subcommand_is_accepted(cli_world: CliWorld) -> None:
    result = _cli(cli_world, ["search", "Where does the user live?", "--user", "u", "--json"])
    assert result.exit_code == 0, result.output
    assert any("Hangzhou" in hit["text"] for hit in json.loads(result.stdout))
    listed = _cli(cli_world, ["list", "--json", "--user", "u"])
    assert listed.exit_code == 0 and json.loads(listed.stdout)
