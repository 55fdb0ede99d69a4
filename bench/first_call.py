"""A user's first `context()` against the later ones: LongMemEval users ingested once (the
embedding cache makes a rerun cheap), the store reopened, each user's question read at
1,000 / 2,000 / 4,000 tokens; prints each call's time and the first-call costs inside it
(term counts by `highlight()`, the user's full-text lengths, the vector matrix load,
packing; the first three run on channel threads, so they overlap).

    python bench/first_call.py --data path/to/longmemeval_s_dev.json.gz --users 3 \
        --cache ~/.cache/dualtrace/embeddings.sqlite --db first.db [--new-questions 3]
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dualtrace import Memory, MemoryConfig
from dualtrace.bench.longmemeval import load_longmemeval
from dualtrace.recall import read
from dualtrace.store.sqlite import bm25, search

SPANS: defaultdict[str, float] = defaultdict(float)


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`function`, adding its time in ms to SPANS[label]."""

    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            SPANS[label] += 1000 * (time.perf_counter() - start)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a LongMemEval file")
    parser.add_argument("--users", type=int, default=3, help="questions (users) to read")
    parser.add_argument("--cache", type=Path, required=True, help="embedding cache file")
    parser.add_argument("--db", type=Path, required=True, help="the store (ingested if new)")
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="embed each question before its first call (its vector is cached for the later "
        "calls of the same question, so the first call would pay it alone)",
    )
    parser.add_argument(
        "--budgets",
        default="1000,2000,4000",
        help="each question's calls, in order: their token budgets (e.g. 1000,1000 for a "
        "first and a second call alike)",
    )
    parser.add_argument(
        "--new-questions",
        type=int,
        default=0,
        help="after a user's calls, this many other users' questions asked of the user (a "
        "warm user's new question: no answer cached for its words), embedded beforehand",
    )
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    bench = load_longmemeval(args.data, limit=10, types=["knowledge-update", "temporal-reasoning"])
    units = bench.units[: args.users]
    others = [u.questions[0].text for u in bench.units[args.users :]][: args.new_questions]
    config = MemoryConfig(embed_cache_path=str(args.cache))
    if not args.db.exists():
        with Memory(args.db, config=config) as mem:
            for unit in units:
                for s in unit.sessions:
                    messages = [t.message() for t in s.turns]
                    mem.add(
                        messages, user_id=unit.user_id, session_id=s.session_id, timestamp=s.when
                    )
    bm25.TermCounts.of = timed("term counts", bm25.TermCounts.of)  # type: ignore[method-assign]
    bm25.UserLengths.of = timed("lengths", bm25.UserLengths.of)  # type: ignore[method-assign]
    search.DenseIndex._load = timed("vectors", search.DenseIndex._load)  # type: ignore[method-assign]
    read.pack_context = timed("pack", read.pack_context)
    with Memory(args.db, config=config) as mem:
        mem.context("warm up", user_id=units[0].user_id, reinforce=False)
        gc.collect()
        gc.freeze()  # as the harness does: the dataset's objects are not the engine's
        for unit in units:
            question = unit.questions[0]
            if args.embedded:  # the question's vector is not the user's: cached beforehand
                mem.embedder.embed_queries([question.text])
            mem.embedder.embed_queries(others)
            asked = [(question.text, b, "") for b in budgets]
            asked += [(text, budgets[0], "  new question") for text in others]
            for text, budget, label in asked:
                SPANS.clear()
                start = time.perf_counter()
                mem.context(
                    text, user_id=unit.user_id, max_tokens=budget, now=question.now, reinforce=False
                )
                total = 1000 * (time.perf_counter() - start)
                spans = "  ".join(f"{k} {v:.1f}" for k, v in sorted(SPANS.items()))
                print(f"{unit.user_id}  {budget}  {total:.1f} ms  ({spans}){label}")


if __name__ == "__main__":
    main()
