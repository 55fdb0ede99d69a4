"""Recall@k of dualtrace's hybrid search against its own single channels, on LoCoMo.

Each LoCoMo conversation is ingested through the public API (one user per conversation,
real session dates, speaker names, dia_id as external id); then every question of
categories 1-4 is searched with `now` after the last session, and recall@k counts the
evidence turns among the top-k hits. Variants reopen the same store with another dense
weight, so each turn is embedded once (and cached across runs with --cache).

    .venv/bin/python bench/locomo_fusion.py --data path/to/locomo
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from locomo_data import ingest, questions

from dualtrace import Memory, MemoryConfig

VARIANTS: dict[str, dict[str, Any]] = {
    "bm25": {"dense_weight": 0.0},
    "dense": {"dense_weight": 1.0},
    **{f"hybrid w={w}": {"dense_weight": w} for w in (0.3, 0.4, 0.5, 0.6)},
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="folder of LoCoMo *.json")
    parser.add_argument("--k", default="5,10,20")
    parser.add_argument("--limit", type=int, default=None, help="conversations to use")
    parser.add_argument("--cache", default=str(Path.home() / ".cache/dualtrace/embeddings.sqlite"))
    args = parser.parse_args(argv)
    ks = [int(k) for k in args.k.split(",")]
    files = sorted(args.data.glob("*.json"))[: args.limit]
    db = Path(tempfile.mkdtemp()) / "locomo.db"
    base = MemoryConfig(embed_cache_path=args.cache, extract=False)
    convs = {f.stem: json.loads(f.read_text()) for f in files}
    start = time.perf_counter()
    with Memory(db, config=base) as mem:
        turns = sum(ingest(mem, name, conv) for name, conv in convs.items())
    print(f"ingested {turns} turns in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    now = "2030-01-01T00:00:00Z"
    print("| method | n | " + " | ".join(f"R@{k}" for k in ks) + " |")
    print("|---|---|" + "---|" * len(ks))
    for name, overrides in VARIANTS.items():
        config = MemoryConfig(**{**vars(base), **overrides})
        hits_at = {k: 0.0 for k in ks}
        n = 0
        with Memory(db, config=config) as mem:
            for user, conv in convs.items():
                for question, evidence, _, _ in questions(conv):
                    ranked = [
                        s.external_id
                        for h in mem.search(question, user_id=user, limit=max(ks), now=now)
                        for s in h.sources
                    ]
                    for k in ks:
                        hits_at[k] += len(evidence & set(ranked[:k])) / len(evidence)
                    n += 1
        print(f"| {name} | {n} | " + " | ".join(f"{hits_at[k] / n:.3f}" for k in ks) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
