"""Lexical search on SQLite (FTS5 BM25) beside PostgreSQL (full-text search ranked in BM25's
shape), on LoCoMo: how close the two backends rank (issue 18).

Each LoCoMo conversation is ingested through the public API into each store (one user per
conversation, real session dates, speakers, dia_id as external id; the fake embedder, since
only the lexical channels are read: `dense_weight=0`). Then every question of categories
1-4 is searched on both, and the table gives evidence recall@k per backend, and how much the
two top-10 lists share (overlap: |A ∩ B| / 10; same first hit: the share of questions whose
best hit is the same record text on both).

    .venv/bin/python bench/lexical_backends.py --data path/to/locomo \\
        --sqlite /tmp/lex/locomo.db --postgres postgresql://user@host/db [--extract]

`--extract` also derives memories (fact and scene traces, rule-based extraction), as the
dualtrace method does; without it the stores hold bare turns, as the "bm25 turns" baseline.
The PostgreSQL database must be empty of these users (use a new one).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from locomo_data import ingest, last_session_date, questions

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder


def ranked_lists(
    mem: Memory, convs: dict[str, dict], depth: int
) -> list[tuple[set[str], list[str], list[str]]]:
    """(evidence, ranked dia_ids, ranked hit texts) for every scored question."""
    out = []
    for user, conv in convs.items():
        now = last_session_date(conv)
        for question, evidence, _, _ in questions(conv):
            hits = mem.search(question, user_id=user, limit=depth, now=now)
            ids = list(dict.fromkeys(s.external_id for h in hits for s in h.sources))
            out.append((evidence, [i for i in ids if i], [h.text for h in hits]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="folder of LoCoMo *.json")
    parser.add_argument("--sqlite", required=True, type=Path, help="a new SQLite file")
    parser.add_argument("--postgres", required=True, help="a new PostgreSQL database URL")
    parser.add_argument("--k", default="5,10,20")
    parser.add_argument("--extract", action="store_true", help="derive memories too")
    args = parser.parse_args(argv)
    ks = [int(k) for k in args.k.split(",")]
    convs = {f.stem: json.loads(f.read_text()) for f in sorted(args.data.glob("*.json"))}
    config = MemoryConfig(extract=args.extract, dense_weight=0.0)
    lists = {}
    for name, target in (("sqlite", {"path": args.sqlite}), ("postgres", {"url": args.postgres})):
        with Memory(**target, config=config, embedder=FakeEmbedder()) as mem:  # type: ignore[arg-type]
            start = time.perf_counter()
            turns = sum(ingest(mem, user, conv) for user, conv in convs.items())
            took = time.perf_counter() - start
            start = time.perf_counter()
            lists[name] = ranked_lists(mem, convs, max(ks))
            asked = time.perf_counter() - start
        print(
            f"{name}: {turns} turns in {took:.0f} s; {len(lists[name])} questions in {asked:.1f} s",
            file=sys.stderr,
        )
    print("| backend | questions | " + " | ".join(f"recall@{k}" for k in ks) + " |")
    print("|---|---:|" + "---:|" * len(ks))
    for name, rows in lists.items():
        recall = [
            sum(len(ev & set(ids[:k])) / len(ev) for ev, ids, _ in rows) / len(rows) for k in ks
        ]
        print(f"| {name} | {len(rows)} | " + " | ".join(f"{r:.3f}" for r in recall) + " |")
    pairs = list(zip(lists["sqlite"], lists["postgres"], strict=True))
    overlap = sum(len(set(a[2][:10]) & set(b[2][:10])) / 10 for a, b in pairs) / len(pairs)
    first = sum(bool(a[2]) and a[2][:1] == b[2][:1] for a, b in pairs) / len(pairs)
    print(f"\ntop-10 overlap {overlap:.3f}; same first hit {first:.3f} ({len(pairs)} questions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
