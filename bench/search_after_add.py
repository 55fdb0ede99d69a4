"""Search right after an add, on a big user: what an agent's every turn costs once the
history is long. Each round adds one turn and then searches (the fake embedder, so the
figure is the store's and the read path's); a copy of the store is used, the given file
is left as it is.

    python bench/ingest_search.py --turns 6000 --queries 5 --embedder fake --db big.db
    python bench/search_after_add.py --db big.db --rounds 40
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from timing import p50_p95_ms

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder

QUESTIONS = (
    "what did Maria say about the hiking trip to the lake",
    "when is the concert with Tom",
    "budget for the new kitchen",
    "who recommended the book about rivers",
    "周末去哪里爬山",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a store from ingest_search.py")
    parser.add_argument("--user", default="bench-user", help="the user to add to and search")
    parser.add_argument("--rounds", type=int, default=40, help="add + search rounds")
    args = parser.parse_args()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.db"
        shutil.copy(args.db, copy)
        with Memory(copy, embedder=FakeEmbedder(dimensions=384)) as mem:
            mem.search("warm up", user_id=args.user)
            for i in range(args.rounds):
                mem.add(
                    f"Turn {i}: I talked with Maria about the lake and the concert budget.",
                    user_id=args.user,
                    session_id="loop",
                )
                start = time.perf_counter()
                mem.search(QUESTIONS[i % len(QUESTIONS)], user_id=args.user, limit=10)
                times.append(time.perf_counter() - start)
    p50, p95 = p50_p95_ms(times)
    print(f"search after each add: {len(times)} rounds  p50 {p50:.1f} ms  p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
