"""The child process of the crash test: writes to one store until it is killed.

    python crash_worker.py DB SEED [POINT:N]

Each call's start is printed as a `begin` line and its return as an `ack` line (JSON,
flushed), so the parent knows what was acknowledged and what was in flight when it killed
the child. With POINT:N, the child kills itself (SIGKILL) the N-th time it passes POINT, a
place inside add / delete / delete_all between two of their steps (patched in here, so the
library carries no test-only code):

    stored        after `add` stored its turns, before their extraction
    extracting    as `add` (or a re-derivation) is about to store memories
    deleted       after `delete` committed, before the turns it left are re-derived
    cleanup       after a deletion committed, before its clean-up (compaction) ran
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
from collections.abc import Callable
from typing import Any

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.sqlite.connection import SQLiteConnection
from dualtrace.store.sqlite.store import SQLiteStore

USERS = ("alice@example.com", "bob", "carol")
SAYINGS = (
    "I care about fuel economy {t}.",
    "I care about boot space {t}.",
    "I moved to Lyon {t} last week.",
    "My sister Ana {t} lives in Porto.",
    "The weather {t} is nice today.",
    "I prefer tea {t} over coffee.",
)


def say(line: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def die_at(point: str, nth: int) -> None:
    """Patch the store so that the child kills itself the nth time it passes `point`."""
    seen = {"count": 0}

    def hit() -> None:
        seen["count"] += 1
        if seen["count"] == nth:
            os.kill(os.getpid(), signal.SIGKILL)

    def after(name: str) -> None:
        original: Callable[..., Any] = getattr(SQLiteStore, name)

        def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            result = original(self, *args, **kwargs)
            hit()
            return result

        setattr(SQLiteStore, name, wrapped)

    def before(cls: type, name: str) -> None:
        original: Callable[..., Any] = getattr(cls, name)

        def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            hit()
            return original(self, *args, **kwargs)

        setattr(cls, name, wrapped)

    if point == "stored":
        after("insert_episodes")
    elif point == "extracting":
        before(SQLiteStore, "insert_memories")
    elif point == "deleted":
        after("delete_record")
    elif point == "cleanup":
        before(SQLiteConnection, "_scrub")
    else:
        raise SystemExit(f"unknown crash point {point!r}")


def main() -> None:
    path, seed = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3:
        point, nth = sys.argv[3].split(":")
        die_at(point, int(nth))
    rng = random.Random(seed)
    with Memory(path, embedder=FakeEmbedder()) as mem:
        say({"op": "ready"})
        n = 0
        while True:
            n += 1
            user = rng.choice(USERS)
            roll = rng.random()
            if roll < 0.70:
                tokens = [f"zq{seed}n{n}m{i}w" for i in range(rng.randint(1, 2))]
                msgs = [
                    {"id": f"m{seed}-{n}-{i}", "content": rng.choice(SAYINGS).format(t=t)}
                    for i, t in enumerate(tokens)
                ]
                session = f"s{rng.randint(0, 1)}"
                say({"op": "begin", "kind": "add", "user": user, "tokens": tokens})
                res = mem.add(msgs, user_id=user, session_id=session)
                say(
                    {
                        "op": "ack",
                        "kind": "add",
                        "user": user,
                        "ids": res.episodes,
                        "tokens": tokens,
                    }
                )
            elif roll < 0.95:
                turns = [i for i in mem.get_all(user_id=user, kinds=["episode"])]
                if not turns:
                    continue
                victim = rng.choice(turns)
                say({"op": "begin", "kind": "delete", "user": user, "id": victim.id})
                mem.delete(victim.id, user_id=user)
                say({"op": "ack", "kind": "delete", "user": user, "id": victim.id})
            else:
                say({"op": "begin", "kind": "delete_all", "user": user})
                mem.delete_all(user_id=user)
                say({"op": "ack", "kind": "delete_all", "user": user})


if __name__ == "__main__":
    main()
