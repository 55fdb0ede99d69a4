"""Which traces earn their place: evidence recall at a context budget on LoCoMo, by ablation.

Every conversation is ingested once through the public API (one user per conversation, real
session dates, speakers, dia_id as external id) with the default rules extractor, so each
turn becomes an episode and the memories derived from it carry a fact trace, a scene trace
and a structural trace (entities, links). The same store is then read with:

  (a) episodes only         search_traces=("episode",), no entity channel
  (b) + fact traces         ("episode", "fact")
  (c) + scene traces        ("episode", "fact", "scene")
  (d) + structural channel  (c) and the entity channel

Evidence recall at budget B: the share of a question's evidence turns cited (in `sources`)
by the items of `context(question, max_tokens=B)`; answer@B: the normalised gold answer occurs
in its text. Categories 1-4; `now` is the day after
the last session. Also prints extraction cost (memories per 100 turns, rules ms per turn).

    .venv/bin/python bench/locomo_traces.py --data path/to/locomo
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from locomo_data import ingest, last_session_date, questions

from dualtrace import Memory, MemoryConfig
from dualtrace.bench.metrics import answer_in_context
from dualtrace.encode.base import Extraction, Window
from dualtrace.encode.rules import RulesExtractor

ALL = ("episode", "fact", "scene")
VARIANTS: dict[str, dict[str, Any]] = {
    "default config": {},
    "(a) episodes only": {"search_traces": ("episode",), "entity_weight": 0.0},
    "(b) + fact traces": {"search_traces": ("episode", "fact"), "entity_weight": 0.0},
    "(c) + scene traces": {"search_traces": ALL, "entity_weight": 0.0},
    "(d) + structural channel": {"search_traces": ALL, "entity_weight": 0.2},
    "(e) no recency/importance boosts": {"recency_weight": 0.0, "importance_weight": 0.0},
    "sweep: entity weight 0.1": {"search_traces": ALL, "entity_weight": 0.1},
    "sweep: entity weight 0.4": {"search_traces": ALL, "entity_weight": 0.4},
    "sweep: entity weight 0.2, speakers count": {
        "search_traces": ALL,
        "entity_weight": 0.2,
        "entity_max_share": 0.7,
    },
    "sweep: entity weight 0.1, speakers count": {
        "search_traces": ALL,
        "entity_weight": 0.1,
        "entity_max_share": 0.7,
    },
    "sweep: dense weight 0.3": {"dense_weight": 0.3},
    "sweep: dense weight 0.5": {"dense_weight": 0.5},
    "sweep: dense weight 0.6": {"dense_weight": 0.6},
    "sweep: dense weight 0.5, boosts 0.05": {
        "dense_weight": 0.5,
        "recency_weight": 0.05,
        "importance_weight": 0.05,
    },
    "sweep: recency 0.05, importance 0.05": {"recency_weight": 0.05, "importance_weight": 0.05},
    "sweep: candidates 100": {"candidates": 100},
    "sweep: dense weight 0.4": {"dense_weight": 0.4},
    "facts + scenes, no episodes": {"search_traces": ("fact", "scene"), "entity_weight": 0.2},
}


class TimedRules(RulesExtractor):
    """The rules extractor, timed."""

    seconds = 0.0

    def extract(self, window: Window) -> Extraction:
        start = time.perf_counter()
        try:
            return super().extract(window)
        finally:
            TimedRules.seconds += time.perf_counter() - start


def recall(
    mem: Memory, convs: dict[str, Any], budgets: list[int]
) -> tuple[dict[int, float], dict[int, dict[int, float]], int, dict[int, float]]:
    """Mean evidence recall per budget, per category, the number of questions, and the
    share of questions whose normalised gold answer is in the context, per budget."""
    totals = {b: 0.0 for b in budgets}
    answers: dict[int, list[float]] = {b: [] for b in budgets}
    by_cat: dict[int, dict[int, list[float]]] = {}
    n = 0
    for user, conv in convs.items():
        now = last_session_date(conv) + timedelta(days=1)
        for question, evidence, category, answer in questions(conv):
            n += 1
            for b in budgets:
                ctx = mem.context(question, user_id=user, max_tokens=b, now=now, reinforce=False)
                cited = {s.external_id for item in ctx.items for s in item.sources}
                share = len(evidence & cited) / len(evidence)
                totals[b] += share
                by_cat.setdefault(category, {}).setdefault(b, []).append(share)
                found = answer_in_context(answer, ctx.text)
                if found is not None:
                    answers[b].append(found)
    cats = {c: {b: sum(v) / len(v) for b, v in per.items()} for c, per in by_cat.items()}
    answered = {b: sum(v) / max(1, len(v)) for b, v in answers.items()}
    return {b: totals[b] / n for b in budgets}, cats, n, answered


def ingest_all(db: Path, config: MemoryConfig, convs: dict[str, Any]) -> dict[str, Any]:
    """Ingest every conversation with the timed rules extractor; prints and returns the cost."""
    start = time.perf_counter()
    with Memory(db, config=config, extractor=TimedRules()) as mem:
        turns = sum(ingest(mem, name, conv) for name, conv in convs.items())
        stats = mem.writer.stats
    elapsed = time.perf_counter() - start
    print(
        f"ingested {turns} turns in {elapsed:.1f}s; {stats.memories} memories "
        f"({100 * stats.memories / turns:.1f} per 100 turns); rules extractor "
        f"{1000 * TimedRules.seconds / turns:.2f} ms/turn",
        file=sys.stderr,
    )
    return {"turns": turns, "memories": stats.memories, "ingest_s": elapsed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="folder of LoCoMo *.json")
    parser.add_argument("--budgets", default="1000,2000")
    parser.add_argument("--limit", type=int, default=None, help="conversations to use")
    parser.add_argument("--cache", default=str(Path.home() / ".cache/dualtrace/embeddings.sqlite"))
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--db", type=Path, help="store to reuse (ingested if it does not exist)")
    parser.add_argument(
        "--only", default="", help="run the variants whose name contains this (several: a|b)"
    )
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    convs = {f.stem: json.loads(f.read_text()) for f in sorted(args.data.glob("*.json"))}
    convs = dict(list(convs.items())[: args.limit])
    base = MemoryConfig(embed_cache_path=args.cache)
    db = args.db or Path(tempfile.mkdtemp()) / "locomo.db"
    results: dict[str, Any] = {}
    if not db.exists():
        results = ingest_all(db, base, convs)
    header = " | ".join([f"recall@{b}" for b in budgets] + [f"answer@{b}" for b in budgets])
    print(f"| variant | n | {header} |\n|---|---|" + "---|" * 2 * len(budgets))
    wanted = args.only.split("|")
    for name in [v for v in VARIANTS if any(w in v for w in wanted)]:
        overrides = VARIANTS[name]
        with Memory(db, config=replace(base, **overrides)) as mem:
            overall, cats, n, answered = recall(mem, convs, budgets)
        results[name] = {"overall": overall, "categories": cats, "answer": answered}
        cells = " | ".join(f"{overall[b]:.3f}" for b in budgets)
        cells += " | " + " | ".join(f"{answered[b]:.3f}" for b in budgets)
        print(f"| {name} | {n} | {cells} |", flush=True)
        for c in sorted(cats):
            per = " | ".join(f"{cats[c][b]:.3f}" for b in budgets)
            print(f"|   category {c} | | {per} |" + " |" * len(budgets))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
