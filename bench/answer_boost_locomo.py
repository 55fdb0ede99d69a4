"""The answer boost (`answer_weight`) on and off over LoCoMo turns: evidence recall@k of search,
over every question of categories 1-4 and over those that ask a quantity (`text/quantities.py`).

Turns only (`extract=False`), the real embedder through the embedding cache, so a second run
costs the questions alone:

    .venv/bin/python bench/answer_boost_locomo.py --data path/to/locomo
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from locomo_data import ingest, last_session_date, questions

from dualtrace import Memory, MemoryConfig
from dualtrace.text.quantities import asked_kinds

KS = (5, 10, 20)


def recall(mem: Memory, convs: dict[str, dict]) -> tuple[dict[int, float], dict[int, float], int]:
    """Mean recall@k over all questions and over those asking a quantity; how many asked one."""
    every: dict[int, list[float]] = {k: [] for k in KS}
    asking: dict[int, list[float]] = {k: [] for k in KS}
    for user, conv in convs.items():
        now = last_session_date(conv)
        for question, evidence, _, _ in questions(conv):
            hits = mem.search(question, user_id=user, limit=max(KS), now=now)
            ids = [s.external_id for h in hits for s in h.sources]
            for k in KS:
                found = len(evidence & set(ids[:k])) / len(evidence)
                every[k].append(found)
                if asked_kinds(question):
                    asking[k].append(found)
    mean = {k: sum(v) / max(len(v), 1) for k, v in every.items()}
    mean_asking = {k: sum(v) / max(len(v), 1) for k, v in asking.items()}
    return mean, mean_asking, len(asking[KS[0]])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="folder of LoCoMo *.json")
    parser.add_argument("--weights", default="0,0.5", help="answer_weight values to compare")
    parser.add_argument("--cache", default=str(Path.home() / ".cache/dualtrace/embeddings.sqlite"))
    args = parser.parse_args(argv)
    convs = {f.stem: json.loads(f.read_text()) for f in sorted(args.data.glob("*.json"))}
    db = Path(tempfile.mkdtemp()) / "locomo.db"
    start = time.perf_counter()
    with Memory(db, config=MemoryConfig(embed_cache_path=args.cache, extract=False)) as mem:
        for user, conv in convs.items():
            ingest(mem, user, conv)
    print(f"ingested in {time.perf_counter() - start:.0f} s\n")
    print(
        "| answer_weight | " + " | ".join(f"recall@{k}" for k in KS) + " | questions asking a "
        "quantity | " + " | ".join(f"their recall@{k}" for k in KS) + " |"
    )
    print("|---:|" + "---:|" * (2 * len(KS) + 1))
    for weight in (float(w) for w in args.weights.split(",")):
        config = MemoryConfig(embed_cache_path=args.cache, extract=False, answer_weight=weight)
        with Memory(db, config=config) as mem:
            every, asking, n = recall(mem, convs)
        print(
            f"| {weight} | "
            + " | ".join(f"{every[k]:.3f}" for k in KS)
            + f" | {n} | "
            + " | ".join(f"{asking[k]:.3f}" for k in KS)
            + " |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
