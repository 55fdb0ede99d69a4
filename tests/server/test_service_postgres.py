"""Two `dualtrace serve` processes on one PostgreSQL database, chosen by DUALTRACE_URL: the
same user written through both at once, each turn sent to both (a client retrying on the
other worker) — every turn stored once, none lost, each session numbered without gaps or
repeats, and what one worker stored is found through the other."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pg_server
import pytest
from service_live import LAUNCH, Server, free_port

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.store.postgres.store import PostgresStore

pytestmark = pytest.mark.postgres
TURNS = 6


def _serve(url: str, log: Path) -> Server:
    """`dualtrace serve` on the database at `url`, named by DUALTRACE_URL alone."""
    port = free_port()
    env = {**os.environ, "DUALTRACE_URL": url, "DUALTRACE_RATE_LIMIT": "0"}
    process = subprocess.Popen(
        [sys.executable, str(LAUNCH), "serve", "--port", str(port)],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    server = Server(log, f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        try:
            if httpx.get(f"{server.base}/health/ready", timeout=2).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    server.stop()
    raise AssertionError(f"serve did not become ready:\n{log.read_text()}")


def test_two_workers_write_one_user_without_losing_or_repeating_a_turn(tmp_path: Path) -> None:
    url = pg_server.server().fresh_database()
    with Memory(url=url, embedder=FakeEmbedder(), resume=False) as mem:
        key = mem.api_keys.create(user_id="alice")[1]
    workers = [_serve(url, tmp_path / f"worker{i}.log") for i in range(2)]
    try:

        def send(lane: int) -> list[int]:
            codes = []
            for n in range(TURNS):
                body = {
                    "session_id": f"s{lane % 2}",
                    "messages": [
                        {"id": f"t{lane}-{n}", "content": f"Lane {lane} note {n}: the kettle"}
                    ],
                }
                for worker in (workers[lane % 2], workers[(lane + 1) % 2]):  # and the retry
                    with worker.client(key) as client:
                        codes.append(client.post("/v1/memories", json=body).status_code)
            return codes

        with ThreadPoolExecutor(4) as pool:
            codes = [c for lane in pool.map(send, range(4)) for c in lane]
        assert set(codes) <= {200, 201}, codes
        with workers[1].client(key) as client:
            turns = client.get("/v1/turns", params={"limit": 100}).json()["turns"]
            found = client.post("/v1/search", json={"query": "Lane 0 note 3 kettle"}).json()
    finally:
        for worker in workers:
            worker.stop()
    ids = sorted(t["external_id"] for t in turns)
    assert ids == sorted(f"t{lane}-{n}" for lane in range(4) for n in range(TURNS))
    assert found["hits"], found
    store = PostgresStore(url)
    try:
        stored = list(store.iter_episodes("alice"))
    finally:
        store.close()
    for session in ("s0", "s1"):
        seqs = sorted(e.seq for e in stored if e.session_id == session)
        assert seqs == list(range(2 * TURNS)), session
