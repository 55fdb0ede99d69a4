"""Long turns: is a statement buried in a pasted document found, and which index finds it?

Real histories hold pasted documents (one LongMemEval-S conversation has a 76,560-character
message). Built from LongMemEval-S dev: for each question with one evidence turn, the
evidence turn's words are placed deep inside a long "pasted" turn, after a random sentence
past the first 4,000 characters, among assistant answers taken from other questions'
haystacks (12k-40k characters in all). The store holds the evidence session and the next
sessions of the haystack (turns only, no extraction: this measures the index). The question
is asked as is; a hit is the long turn among the first k results.

Variants, each on a fresh store (embeddings shared through a cache file):
  whole turn         chunk_chars=0: one full-text key, dense over the opening
  chunks, opening    chunk_chars=4000: a full-text key per chunk, dense over the opening
  chunks, all dense  chunk_chars=4000, embed_chunks: a vector per chunk as well

    .venv/bin/python bench/long_turns.py --data path/to/longmemeval_s_dev.json.gz
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dualtrace import Memory, MemoryConfig
from dualtrace.bench.longmemeval import parse_date, read_items
from dualtrace.bench.runner import DEFAULT_CACHE

VARIANTS: dict[str, dict[str, Any]] = {
    "whole turn": {"chunk_chars": 0},
    "chunks, opening": {"chunk_chars": 4000},
    "chunks, all dense": {"chunk_chars": 4000, "embed_chunks": True},
}
KS = (1, 3, 10)


def _filler(items: list[dict[str, Any]]) -> list[str]:
    """Long assistant answers from every haystack: the body of the pasted documents."""
    out = []
    for item in items:
        for session in item["haystack_sessions"]:
            out.extend(
                t["content"]
                for t in session
                if t["role"] == "assistant" and len(t["content"]) > 1500
            )
    return out


def _paste(evidence: str, filler: list[str], rng: random.Random) -> str:
    size = rng.randint(12_000, 40_000)
    parts: list[str] = []
    while sum(map(len, parts)) < size:
        parts.append(rng.choice(filler))
    body = "\n\n".join(parts)
    ends = [i + 2 for i in range(4000, len(body) - 200) if body[i : i + 2] == ". "]
    cut = rng.choice(ends)
    return f"{body[:cut]}{evidence} {body[cut:]}"


def _cases(items: list[dict[str, Any]], limit: int, sessions: int) -> list[dict[str, Any]]:
    filler = _filler(items)
    rng = random.Random(17)
    cases = []
    for item in items:
        if "_abs" in item["question_id"]:
            continue
        found = [
            (s, t)
            for s, turns in enumerate(item["haystack_sessions"])
            for t, turn in enumerate(turns)
            if turn.get("has_answer")
        ]
        if len(found) != 1:
            continue
        (s, t) = found[0]
        turns = [dict(turn) for turn in item["haystack_sessions"][s]]
        turns[t]["content"] = _paste(turns[t]["content"], filler, rng)
        picked = [(item["haystack_dates"][s], turns)]
        for other in range(s + 1, min(s + sessions, len(item["haystack_sessions"]))):
            picked.append((item["haystack_dates"][other], item["haystack_sessions"][other]))
        cases.append(
            {
                "qid": item["question_id"],
                "question": item["question"],
                "sessions": picked,
                "evidence": (0, t),
                "now": item["question_date"],
            }
        )
        if len(cases) == limit:
            break
    return cases


def _run(
    case: dict[str, Any], config: MemoryConfig, embedder: Any, path: Path
) -> tuple[int, float]:
    """The rank (1-based, 0: not in the first 10) of the long turn, and the ingest seconds."""
    with Memory(path, embedder=embedder, config=config) as mem:
        start = time.perf_counter()
        target = ""
        for n, (date, turns) in enumerate(case["sessions"]):
            messages = [
                {"role": turn["role"], "content": turn["content"], "id": f"{n}:{i}"}
                for i, turn in enumerate(turns)
                if turn["content"].strip()
            ]
            res = mem.add(
                messages,
                user_id="u",
                session_id=f"s{n}",
                timestamp=parse_date(date),
                extract=False,
            )
            if n == case["evidence"][0]:
                target = res.episodes[[m["id"] for m in messages].index(f"0:{case['evidence'][1]}")]
        seconds = time.perf_counter() - start
        hits = mem.search(
            case["question"], user_id="u", limit=10, now=parse_date(case["now"]), reinforce=False
        )
        ranks = [h.id for h in hits]
    return (ranks.index(target) + 1 if target in ranks else 0), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=8, help="sessions per store")
    args = parser.parse_args()
    cases = _cases(read_items(args.data), args.limit, args.sessions)
    from dualtrace.memory import _default_embedder

    with tempfile.TemporaryDirectory() as tmp:
        cache = DEFAULT_CACHE.expanduser()  # the benchmarks' shared embedding cache
        embedder = _default_embedder()
        sizes = [len(c["sessions"][0][1][c["evidence"][1]]["content"]) for c in cases]
        print(f"{len(cases)} cases; long turns {min(sizes)}-{max(sizes)} chars")
        print("| index | recall@1 | recall@3 | recall@10 | ingest s / store |")
        print("|---|---|---|---|---|")
        for name, settings in VARIANTS.items():
            config = MemoryConfig(embed_cache_path=str(cache), **settings)
            ranks, seconds = [], []
            for i, case in enumerate(cases):
                rank, took = _run(case, config, embedder, Path(tmp) / f"{name}{i}.db")
                ranks.append(rank)
                seconds.append(took)
            recall = [sum(0 < r <= k for r in ranks) / len(ranks) for k in KS]
            print(
                f"| {name} | "
                + " | ".join(f"{r:.3f}" for r in recall)
                + f" | {sum(seconds) / len(seconds):.2f} |",
                flush=True,
            )
    sys.exit(0)


if __name__ == "__main__":
    main()
