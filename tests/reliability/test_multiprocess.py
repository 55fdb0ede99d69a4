"""Several processes on one SQLite file: writers (same and different users, the same message
ids sent by two writers at once, as a retrying client does), a deleter and readers.

No process may see a raw exception (or any exception), no turn may be lost or stored twice,
both writers of an id must be told the same episode, and no user may see another's words.
Each worker is a fresh interpreter (race_worker.py), as separate app processes would be;
they all open the fresh file at once, so the first open (migrations) races too.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from race_worker import USERS, message

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder

TURNS = 24  # per user
WORKER = Path(__file__).with_name("race_worker.py")


# alice: two writers send the same ids in the same order (a retry racing the original), a
# third in the opposite order; bob and carol: two writers each, in opposite orders.
ROLES: list[dict[str, Any]] = [
    {"name": "w0", "role": "write", "users": [["alice", False], ["carol", False]]},
    {"name": "w1", "role": "write", "users": [["alice", False], ["carol", True]]},
    {"name": "w2", "role": "write", "users": [["bob", False]]},
    {"name": "w3", "role": "write", "users": [["bob", True], ["alice", True]]},
    {"name": "d0", "role": "delete", "users": [["dave", False]]},
    {"name": "r0", "role": "read"},
    {"name": "r1", "role": "read"},
]


def _specs(place: Path) -> list[dict[str, Any]]:
    common = {"dir": str(place), "db": str(place / "race.db"), "turns": TURNS, "rounds": 8}
    return [{**common, **role} for role in ROLES]


def _run(place: Path) -> list[dict[str, Any]]:
    specs = _specs(place)
    command = [sys.executable, str(WORKER)]
    procs = [
        subprocess.Popen(
            [*command, json.dumps(s)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for s in specs
    ]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(list(place.glob("ready-*"))) < len(specs):
        time.sleep(0.02)
    (place / "go").touch()  # every worker has opened the file: now they all run at once
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err[-3000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


def test_writers_readers_and_a_deleter_on_one_file(tmp_path: Path) -> None:
    started = time.monotonic()
    reports = _run(tmp_path)
    ops = sum((Counter(r["ops"]) for r in reports), Counter())
    errors = [f"{r['name']}: {e}" for r in reports for e in r["errors"]]
    print(
        f"\n{len(reports)} processes, {sum(ops.values())} operations {dict(ops)}, "
        f"{len(errors)} errors, {time.monotonic() - started:.1f} s"
    )
    slowest = {op: max(r["slowest"].get(op, 0.0) for r in reports) for op in ops}
    print(f"slowest operation of each kind (s): {slowest}")
    assert errors == [], "\n".join(errors[:20])

    told: dict[tuple[str, str], set[str]] = {}
    for r in reports:
        for msg_id, episode_id in r["told"].items():
            told.setdefault((msg_id.split("-")[0], msg_id), set()).add(episode_id)
    assert all(len(ids) == 1 for ids in told.values()), "two writers of one id told apart"

    deleter = next(r for r in reports if r["role"] == "delete")
    with Memory(tmp_path / "race.db", embedder=FakeEmbedder()) as mem:
        for user_id in USERS:  # every id stored exactly once, as the writers were told
            turns = mem.get_all(user_id=user_id, kinds=["episode"])
            assert Counter(t.text for t in turns) == Counter(
                message(user_id, i)["content"] for i in range(TURNS)
            )
            assert {t.id for t in turns} == {
                e for (u, _), ids in told.items() if u == user_id for e in ids
            }
        dave = mem.get_all(user_id="dave", kinds=["episode"])
        assert {t.id for t in dave} == set(deleter["kept"])
        assert not set(deleter["deleted"]) & {t.id for t in dave}
        for user_id in (*USERS, "dave"):  # every valid memory cites a surviving turn of its user
            own = {t.id for t in mem.get_all(user_id=user_id, kinds=["episode"])}
            for item in mem.get_all(user_id=user_id):
                if item.kind != "episode":
                    assert {s.episode_id for s in item.sources} & own, item
        assert mem.get_all(user_id="scratch") == []
    with sqlite3.connect(tmp_path / "race.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
