"""Crash recovery: a writer SIGKILLed anywhere loses no acknowledged write and leaks no
deleted word, and whatever it left half done is finished when the store is reopened.

A child process (crash_worker.py) adds, deletes turns and forgets users on its own store
until it is killed: at a random moment, or at an injected point inside add / delete /
delete_all. After each kill the store is reopened and checked:

- every acknowledged add is there, unless an acknowledged (or committed) deletion took it;
- `PRAGMA integrity_check` and the FTS5 integrity check pass;
- no word of a deleted turn is left in any table, in the full-text vocabulary, or in the
  bytes of the database files;
- no turn is left extraction-pending and no clean-up is left marked.

`DUALTRACE_CRASH_ROUNDS` sets the number of kills (default 16, in two lanes at once).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder

WORKER = Path(__file__).with_name("crash_worker.py")
POINTS = ("stored", "extracting", "deleted", "cleanup")
LANES = 2


@dataclass
class Ledger:
    """What one store should hold: each token's user and episode (alive) or its deletion."""

    alive: dict[str, tuple[str, str]] = field(default_factory=dict)  # token -> (user, ep)
    dead: set[str] = field(default_factory=set)
    figures: Counter[str] = field(default_factory=Counter)

    def kill(self, tokens: list[str]) -> None:
        for t in tokens:
            self.alive.pop(t, None)
            self.dead.add(t)

    def of_episode(self, episode_id: str) -> list[str]:
        return [t for t, (_, e) in self.alive.items() if e == episode_id]

    def of_user(self, user: str) -> list[str]:
        return [t for t, (u, _) in self.alive.items() if u == user]


def _run_child(db: Path, seed: int, point: str | None, rng: random.Random) -> list[dict[str, Any]]:
    """Start the worker, kill it (at its injected point or after a random delay), and
    return the lines it printed."""
    args = [sys.executable, str(WORKER), str(db), str(seed)]
    if point is not None:
        args.append(f"{point}:{rng.randint(1, 6)}")
    with tempfile.TemporaryFile(mode="w+") as errors:  # a pipe would bypass stdout's buffer
        child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=errors, text=True)
        assert child.stdout is not None
        first = child.stdout.readline()
        if first.strip() != '{"op": "ready"}':  # it died opening the store
            child.wait()
            errors.seek(0)
            assert child.returncode == -9, f"the worker failed opening the store:\n{errors.read()}"
            return []
        # an injected point kills the child itself; the cap only guards against a hang (on a
        # loaded machine the sixth delete can take longer than a few seconds to come)
        deadline = time.monotonic() + (60.0 if point else rng.uniform(0.05, 1.5))
        while child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if child.poll() is None:
            child.kill()
        out = child.stdout.read()  # what readline() buffered, then the rest
        child.wait()
        errors.seek(0)
        assert child.returncode == -9, f"the worker failed by itself:\n{errors.read()}"
    lines = [json.loads(x) for x in out.splitlines() if x.strip()]
    return [x for x in lines if x["op"] != "ready"]


def _apply_acks(ledger: Ledger, lines: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Book every acknowledged call; return the call in flight at the kill, if any."""
    pending: dict[str, Any] | None = None
    for line in lines:
        if line["op"] == "begin":
            pending = line
            continue
        pending = None
        ledger.figures["acknowledged " + line["kind"]] += 1
        if line["kind"] == "add":
            for token, episode_id in zip(line["tokens"], line["ids"], strict=True):
                ledger.alive[token] = (line["user"], episode_id)
        elif line["kind"] == "delete":
            ledger.kill(ledger.of_episode(line["id"]))
        else:
            ledger.kill(ledger.of_user(line["user"]))
    return pending


def _settle_in_flight(
    ledger: Ledger, call: dict[str, Any] | None, conn: sqlite3.Connection
) -> None:
    """What the killed call did is what the file says: all of it or none of it."""
    if call is None:
        return
    ledger.figures["in flight " + call["kind"]] += 1
    if call["kind"] == "add":
        found = {
            t: conn.execute(
                "SELECT id FROM episodes WHERE user_id = ? AND text LIKE ?",
                (call["user"], f"%{t}%"),
            ).fetchone()
            for t in call["tokens"]
        }
        stored = {t: row[0] for t, row in found.items() if row is not None}
        assert len(stored) in (0, len(found)), f"half an add was stored: {stored}"
        for t, episode_id in stored.items():
            ledger.alive[t] = (call["user"], episode_id)
    elif call["kind"] == "delete":
        row = conn.execute("SELECT 1 FROM episodes WHERE id = ?", (call["id"],)).fetchone()
        if row is None:
            ledger.kill(ledger.of_episode(call["id"]))
    else:
        left = conn.execute(
            "SELECT COUNT(*) FROM episodes WHERE user_id = ?", (call["user"],)
        ).fetchone()[0]
        if left == 0:
            ledger.kill(ledger.of_user(call["user"]))


def _table_text(conn: sqlite3.Connection) -> str:
    """Every row of every table (FTS shadow tables included), as one string."""
    tables = [
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if r[0] != "fts"  # its shadow tables (fts_content, fts_data...) are read instead
    ]
    return "\n".join(repr(conn.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables)


def _check(db: Path, ledger: Ledger) -> None:
    """Reopen the store as a user would, then check it (see the module docstring)."""
    raw = sqlite3.connect(db)
    ledger.figures["turns pending at reopen"] += raw.execute(
        "SELECT COUNT(*) FROM extraction_pending"
    ).fetchone()[0]
    marked = raw.execute("SELECT 1 FROM store_meta WHERE key = 'scrub_pending'").fetchone()
    ledger.figures["clean-ups pending at reopen"] += int(marked is not None)
    raw.close()
    with Memory(db, embedder=FakeEmbedder()) as mem:
        for token, (user, episode_id) in ledger.alive.items():
            assert token in mem.get(episode_id, user_id=user).text, token
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for fts in ("fts", "fts_gloss"):
            conn.execute(f"INSERT INTO {fts} ({fts}, rank) VALUES ('integrity-check', 1)")
        assert conn.execute("SELECT COUNT(*) FROM extraction_pending").fetchone()[0] == 0
        assert (
            conn.execute("SELECT 1 FROM store_meta WHERE key = 'scrub_pending'").fetchone() is None
        )
        conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, fts, 'row')")
        terms = {r[0] for r in conn.execute("SELECT term FROM temp.vocab")}
        text = _table_text(conn)
    finally:
        conn.close()
    data = b"".join(
        Path(f"{db}{suffix}").read_bytes()
        for suffix in ("", "-wal")
        if Path(f"{db}{suffix}").exists()
    )
    for token in ledger.dead:
        assert token not in terms, f"deleted word {token} in the full-text index"
        assert token not in text, f"deleted word {token} in a table"
        assert token.encode() not in data, f"deleted word {token} in the file"
    ledger.figures["acknowledged turns checked"] = len(ledger.alive)
    ledger.figures["deleted words checked"] = len(ledger.dead)


def _lane(db: Path, rounds: int, seed: int, ledger: Ledger, errors: list[BaseException]) -> None:
    rng = random.Random(seed)
    try:
        for r in range(rounds):
            point = POINTS[(r // 2) % len(POINTS)] if r % 2 else None  # each point per lane
            lines = _run_child(db, seed * 1000 + r, point, rng)
            call = _apply_acks(ledger, lines)
            conn = sqlite3.connect(db)
            try:
                _settle_in_flight(ledger, call, conn)
            finally:
                conn.close()
            _check(db, ledger)
            ledger.figures["kills survived"] += 1
            ledger.figures[f"killed at {point or 'random'}"] += 1
    except BaseException as exc:  # reported by the test thread
        errors.append(exc)


def test_kills_lose_no_acknowledged_write_and_leak_no_deleted_word(tmp_path: Path) -> None:
    rounds = int(os.environ.get("DUALTRACE_CRASH_ROUNDS", "16"))
    ledgers = [Ledger() for _ in range(LANES)]
    errors: list[BaseException] = []
    lanes = [
        threading.Thread(
            target=_lane,
            args=(tmp_path / f"lane{i}.db", -(-rounds // LANES), i + 1, ledgers[i], errors),
        )
        for i in range(LANES)
    ]
    for lane in lanes:
        lane.start()
    for lane in lanes:
        lane.join()
    if errors:
        raise errors[0]
    total: Counter[str] = Counter()
    for ledger in ledgers:
        total.update(ledger.figures)
    print("\ncrash test:", json.dumps(dict(sorted(total.items()))))
    assert total["kills survived"] >= rounds
    assert total["acknowledged add"] > 0 and total["deleted words checked"] > 0
