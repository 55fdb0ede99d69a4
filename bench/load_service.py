"""Load benchmark of the HTTP service (`dualtrace serve`) on loopback: ingest acknowledged
sync versus async (and how long the async backlog takes to drain), then N concurrent
clients mixing add / search / context.

Run (from the repository root)::

    .venv/bin/python bench/load_service.py                       # bundled embedder
    .venv/bin/python bench/load_service.py --embedder fake --seconds 5 --ingest 40

What it does, on a fresh SQLite file in a temporary directory:

1. Starts `dualtrace serve` (a process of its own, rate limit off) with one admin key.
2. Ingest, one client, batches of `--batch` turns (the synthetic two-speaker corpus of
   bench/ingest_search.py): `--ingest` turns with `POST /v1/memories` (sync: the answer
   comes after embedding and extraction), then as many other turns with `"async": true`
   (the answer comes once they are stored and full-text indexed). Reported: acknowledged
   turns/s of each, and the seconds from the first async request until every operation is
   done (the backlog drained by the server's worker).
3. Load: for each count in `--clients`, that many threads for `--seconds` each, each
   looping over a weighted mix (add 20 %: one turn; search 60 %; context 20 %, 500 tokens)
   on four users holding the ingested turns. Reported: requests/s, per-route p50/p95/p99
   latency (ms), and errors (anything but 2xx, or no answer): must be 0.

Prints Markdown tables to stdout (progress to stderr); `--json PATH` writes the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from ingest_search import make_corpus, make_queries  # bench/ is on sys.path when run

FAKE = (
    "import sys, dualtrace.memory as m; from dualtrace.embed.fake import FakeEmbedder; "
    "m._default_embedder = FakeEmbedder; from dualtrace.cli import main; "
    "sys.argv = ['dualtrace', *sys.argv[1:]]; main()"
)
USERS = ("load-0", "load-1", "load-2", "load-3")
MIX = (("add", 0.2), ("search", 0.6), ("context", 0.2))


def dualtrace(embedder: str) -> list[str]:
    """The command that runs the CLI with this embedder."""
    if embedder == "fake":
        return [sys.executable, "-c", FAKE]
    return [str(Path(sys.executable).with_name("dualtrace"))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(embedder: str, db: Path) -> tuple[subprocess.Popen[bytes], str, str]:
    """`dualtrace serve` on a free port, and an admin key; waits until it is ready."""
    made = subprocess.run(
        [*dualtrace(embedder), "--db", str(db), "keys", "create", "--admin"],
        capture_output=True,
        text=True,
        check=True,
    )
    port = free_port()
    process = subprocess.Popen(
        [*dualtrace(embedder), "--db", str(db), "serve", "--port", str(port)],
        env={**os.environ, "DUALTRACE_RATE_LIMIT": "0"},
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(f"{base}/health/ready", timeout=2).status_code == 200:
                return process, base, made.stdout.strip()
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the service did not become ready")


def batches(turns: int, seed: int, batch: int) -> list[dict[str, Any]]:
    """Request bodies (without user id) of `turns` corpus turns, `batch` a request."""
    bodies = []
    for session in make_corpus(turns, seed):
        messages = [
            {
                "role": "user",
                "name": speaker,
                "content": text,
                "timestamp": when.isoformat(),
                "id": f"{seed}:{session.id}:{i}",
            }
            for i, (speaker, text, when) in enumerate(session.turns)
        ]
        for at in range(0, len(messages), batch):
            bodies.append({"session_id": session.id, "messages": messages[at : at + batch]})
    return bodies


def ingest(client: httpx.Client, turns: int, batch: int) -> dict[str, float]:
    """Acknowledged turns/s sync and async, and the async backlog's drain time."""
    figures: dict[str, float] = {"turns": turns}
    for mode, seed in (("sync", 1), ("async", 2)):
        bodies = batches(turns, seed, batch)
        operations: list[str] = []
        began = time.perf_counter()
        for n, body in enumerate(bodies):
            user = USERS[n % len(USERS)]
            r = client.post(
                "/v1/memories", json={**body, "user_id": user, "async": mode == "async"}
            )
            r.raise_for_status()
            if mode == "async":
                operations.append((user, r.json()["id"]))  # type: ignore[arg-type]
        acked = time.perf_counter() - began
        figures[f"{mode}_ack_turns_per_s"] = turns / acked
        print(f"{mode}: {turns} turns acknowledged in {acked:.1f} s", file=sys.stderr)
        if mode == "async":
            for user, op in operations:  # type: ignore[misc]
                while (
                    client.get(f"/v1/operations/{op}", params={"user_id": user}).json()["state"]
                    != "done"
                ):
                    time.sleep(0.2)
            drained = time.perf_counter() - began
            figures["async_drain_s"] = drained
            figures["async_end_to_end_turns_per_s"] = turns / drained
            print(
                f"async: backlog drained {drained:.1f} s after the first request", file=sys.stderr
            )
    return figures


def load(base: str, key: str, clients: int, seconds: float, seed: int) -> dict[str, Any]:
    """`clients` threads on the mix for `seconds`; latencies per route, errors."""
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    queries = make_queries(200, seed)
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker(n: int) -> None:
        rng = random.Random(seed * 100 + n)
        with httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60
        ) as c:
            i = 0
            while time.perf_counter() < stop:
                route = rng.choices([r for r, _ in MIX], [w for _, w in MIX])[0]
                user = rng.choice(USERS)
                query = rng.choice(queries)
                if route == "add":
                    body: dict[str, Any] = {
                        "user_id": user,
                        "messages": [{"content": f"{query.rstrip('?')} — client {n}, turn {i}."}],
                    }
                    path = "/v1/memories"
                elif route == "search":
                    body, path = {"user_id": user, "query": query, "limit": 10}, "/v1/search"
                else:
                    body = {"user_id": user, "query": query, "max_tokens": 500}
                    path = "/v1/context"
                began = time.perf_counter()
                try:
                    r = c.post(path, json=body)
                    ok = r.is_success
                    what = f"{r.status_code} {r.text[:200]}"
                except httpx.HTTPError as exc:
                    ok, what = False, type(exc).__name__
                spent = time.perf_counter() - began
                with lock:
                    latencies[route].append(spent)
                    if not ok:
                        errors.append(f"{route}: {what}")
                i += 1

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    total = sum(len(v) for v in latencies.values())
    routes = {
        route: {
            "requests": len(v),
            **{f"p{q}": float(np.percentile(np.array(v) * 1000, q)) for q in (50, 95, 99)},
        }
        for route, v in sorted(latencies.items())
    }
    return {
        "clients": clients,
        "seconds": elapsed,
        "requests": total,
        "throughput": total / elapsed,
        "errors": len(errors),
        "error_samples": errors[:5],
        "routes": routes,
    }


def render(result: dict[str, Any]) -> str:
    ing = result["ingest"]
    lines = [
        f"Ingest ({ing['turns']} turns each, batches of {result['batch']}, one client):",
        "",
        "| mode | acknowledged turns/s | backlog drained after | end-to-end turns/s |",
        "|---|---|---|---|",
        f"| sync | {ing['sync_ack_turns_per_s']:.1f} | – | {ing['sync_ack_turns_per_s']:.1f} |",
        f"| async | {ing['async_ack_turns_per_s']:.1f} | {ing['async_drain_s']:.1f} s | "
        f"{ing['async_end_to_end_turns_per_s']:.1f} |",
        "",
        "| clients | req/s | errors | add p50/p95/p99 ms | search p50/p95/p99 ms | "
        "context p50/p95/p99 ms |",
        "|---|---|---|---|---|---|",
    ]
    for run in result["load"]:
        cells = []
        for route in ("add", "search", "context"):
            r = run["routes"].get(route)
            cells.append("–" if r is None else f"{r['p50']:.0f} / {r['p95']:.0f} / {r['p99']:.0f}")
        lines.append(
            f"| {run['clients']} | {run['throughput']:.1f} | {run['errors']} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=("default", "fake"), default="default")
    parser.add_argument("--ingest", type=int, default=120, help="Turns ingested each way.")
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--clients", default="1,4,16")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        process, base, key = start(args.embedder, Path(tmp) / "memory.db")
        try:
            with httpx.Client(
                base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=300
            ) as client:
                figures = ingest(client, args.ingest, args.batch)
            runs = []
            for clients in (int(c) for c in args.clients.split(",")):
                print(f"load: {clients} clients for {args.seconds:.0f} s", file=sys.stderr)
                runs.append(load(base, key, clients, args.seconds, args.seed))
        finally:
            process.terminate()
            process.wait(30)
    result = {"embedder": args.embedder, "batch": args.batch, "ingest": figures, "load": runs}
    print(render(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 1 if any(r["errors"] for r in runs) else 0


if __name__ == "__main__":
    raise SystemExit(main())
