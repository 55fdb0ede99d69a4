"""An agent's loop: each user turn of a LongMemEval user's last session is read with
`context()` and then added with the reply, as an agent does every turn; prints the
`context()` time of each turn. The rest of the history is ingested first (the embedding
cache makes a rerun cheap). Each question's vector is embedded before its call, so the
figure is the read path's and the store's, not the query embedding's.

    python bench/agent_turns.py --data path/to/longmemeval_s_dev.json.gz --users 3 \\
        --cache ~/.cache/dualtrace/embeddings.sqlite --db agent.db
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path

from timing import p50_p95_ms

from dualtrace import Memory, MemoryConfig
from dualtrace.bench.longmemeval import load_longmemeval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a LongMemEval file")
    parser.add_argument("--users", type=int, default=3, help="users (questions) to run")
    parser.add_argument("--cache", type=Path, required=True, help="embedding cache file")
    parser.add_argument("--db", type=Path, required=True, help="a new store file")
    parser.add_argument("--budget", type=int, default=1000, help="context tokens")
    args = parser.parse_args()
    if args.db.exists():
        parser.error(f"--db {args.db} exists: give a new file (the loop adds to it)")
    bench = load_longmemeval(args.data, limit=10, types=["knowledge-update", "temporal-reasoning"])
    config = MemoryConfig(embed_cache_path=str(args.cache))
    times: list[float] = []
    with Memory(args.db, config=config) as mem:
        for unit in bench.units[: args.users]:
            *history, last = unit.sessions
            for s in history:
                messages = [t.message() for t in s.turns]
                mem.add(messages, user_id=unit.user_id, session_id=s.session_id, timestamp=s.when)
            gc.collect()
            turns = [t.message() for t in last.turns]
            for i, message in enumerate(turns):
                if message["role"] != "user":
                    continue
                mem.embedder.embed_queries([message["content"]])
                start = time.perf_counter()
                mem.context(
                    message["content"],
                    user_id=unit.user_id,
                    max_tokens=args.budget,
                    now=last.when,
                    reinforce=False,
                )
                times.append(time.perf_counter() - start)
                mem.add(
                    turns[i : i + 2],
                    user_id=unit.user_id,
                    session_id=last.session_id,
                    timestamp=last.when,
                )
            print(f"{unit.user_id}: {sum(1 for m in turns if m['role'] == 'user')} turns")
    p50, p95 = p50_p95_ms(times)
    print(
        f"context() after each add: {len(times)} calls  p50 "
        f"{p50:.1f} ms  p95 {p95:.1f} ms  "
        f"mean {statistics.mean(times) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
