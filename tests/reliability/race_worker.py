"""One process of the multi-process race test (test_multiprocess.py).

Run as `python race_worker.py SPEC_JSON`. The worker opens `Memory(path, FakeEmbedder())` on
the shared file (several processes open a fresh file at once; they share one embedding
cache file too), says it is ready, waits for
the go signal, runs its part, and prints one JSON line: the operations it did, what it was
told (message id -> episode id), and every exception it met (type and message). The test
asserts that list is empty: a caller must never see a raw error, whoever else is writing.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import NotFoundError

USERS = ("alice", "bob", "carol")  # written by several writers; "dave" by the deleter


def token(user_id: str, i: int) -> str:
    """A word only this user's turn i contains: what the isolation checks look for."""
    return f"{user_id}tok{i}"


def message(user_id: str, i: int) -> dict[str, str]:
    """Turn i of a user's script; its id is what a retrying client would send again."""
    if i % 3 == 0:  # a fact that keeps changing: supersessions race too
        content = f"My budget is now {100 + i} dollars, {token(user_id, i)}."
    else:
        content = f"I like the colour {token(user_id, i)} and my friend {user_id.title()}."
    return {"id": f"{user_id}-{i}", "role": "user", "content": content}


def batches(user_id: str, count: int, size: int, reverse: bool) -> list[list[dict[str, str]]]:
    """The user's script in batches of `size` turns (last batch first when `reverse`)."""
    turns = [message(user_id, i) for i in range(count)]
    chunks = [turns[i : i + size] for i in range(0, count, size)]
    return chunks[::-1] if reverse else chunks


class Worker:
    """Runs one role (writer, deleter or reader) and records what happened."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.ops: Counter[str] = Counter()
        self.slowest: dict[str, float] = {}  # seconds, per operation
        self.errors: list[str] = []
        self.told: dict[str, str] = {}  # message id -> episode id, as add() answered
        self.deleted: list[str] = []
        self.kept: list[str] = []

    def call(self, op: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run one operation; an exception is recorded (never raised on), then None."""
        self.ops[op] += 1
        started = time.monotonic()
        try:
            return fn(*args, **kwargs)
        except Exception as exc:  # the point of the test: record whatever escaped
            self.errors.append(f"{op}: {type(exc).__module__}.{type(exc).__name__}: {exc}")
            return None
        finally:
            took = time.monotonic() - started
            self.slowest[op] = max(self.slowest.get(op, 0.0), round(took, 3))

    def write(self, mem: Memory) -> None:
        for user_id, reverse in self.spec["users"]:
            for batch in batches(user_id, self.spec["turns"], 3, reverse):
                res = self.call("add", mem.add, batch, user_id=user_id, session_id="s")
                if res is not None:
                    self.told.update({m["id"]: e for m, e in zip(batch, res.episodes, strict=True)})

    def delete(self, mem: Memory) -> None:
        """Add turns for one user and delete every other one while others write."""
        user_id = self.spec["users"][0][0]
        for i, batch in enumerate(batches(user_id, self.spec["turns"], 2, False)):
            res = self.call("add", mem.add, batch, user_id=user_id, session_id="d")
            if res is None:
                continue
            doomed, kept = res.episodes
            if self.call("delete", mem.delete, doomed, user_id=user_id) is None:
                self.deleted.append(doomed)
            self.kept.append(kept)
            if i % 4 == 3:  # a whole user forgotten under contention (VACUUM included)
                self.call("add", mem.add, f"scratch turn {i}", user_id="scratch")
                self.call("delete_all", mem.delete_all, user_id="scratch")

    def read(self, mem: Memory) -> None:
        """Search, pack, list and look up; every hit must be the asking user's own."""
        for round_ in range(self.spec["rounds"]):
            for user_id in (*USERS, "dave"):
                others = [f"{u}tok" for u in (*USERS, "dave") if u != user_id]
                hits = (
                    self.call("search", mem.search, "budget colour", user_id=user_id, limit=10)
                    or []
                )
                ctx = self.call(
                    "context", mem.context, "what is my budget?", user_id=user_id, max_tokens=300
                )
                items = self.call("get_all", mem.get_all, user_id=user_id) or []
                texts = [h.text for h in hits] + [i.text for i in items]
                texts += [] if ctx is None else [ctx.text]
                leaked = [t for t in texts for o in others if o in t]
                if leaked:
                    self.errors.append(f"isolation: {user_id} saw {leaked[:2]}")
                if items and round_ % 5 == 0 and user_id in USERS:  # nothing of theirs is deleted
                    self.call("history", mem.history, items[0].id, user_id=user_id)
                    other = next(u for u in USERS if u != user_id)
                    self.ops["get_other_user"] += 1
                    try:
                        mem.get(items[0].id, user_id=other)
                        self.errors.append(f"isolation: {other} got {user_id}'s record")
                    except NotFoundError:
                        pass
                    except Exception as exc:
                        self.errors.append(f"get: {type(exc).__name__}: {exc}")

    def report(self) -> dict[str, Any]:
        return {
            "name": self.spec["name"],
            "role": self.spec["role"],
            "ops": dict(self.ops),
            "slowest": self.slowest,
            "errors": self.errors,
            "told": self.told,
            "deleted": self.deleted,
            "kept": self.kept,
        }


def main(spec: dict[str, Any]) -> None:
    worker = Worker(spec)
    place = Path(spec["dir"])
    config = MemoryConfig(embed_cache_path=str(place / "embeddings.db"))  # one cache for all
    mem = worker.call("open", Memory, spec["db"], embedder=FakeEmbedder(), config=config)
    (place / f"ready-{spec['name']}").touch()
    deadline = time.monotonic() + 60
    while not (place / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    if mem is not None:
        getattr(worker, spec["role"])(mem)
        worker.call("close", mem.close)
    print(json.dumps(worker.report()))


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
