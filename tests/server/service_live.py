"""A real `dualtrace serve` process on a free loopback port (fake embedder), and keys.

Imported by the tests as `service_live` (tests/server is on sys.path).

`live_server(db, *args, env=...)` starts one and waits until /health/ready answers; it is
stopped (SIGTERM, then SIGKILL) when the test, module or session that started it ends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

LAUNCH = Path(__file__).with_name("serve_fake.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`dualtrace --db DB ARGS…` in a process of its own (fake embedder)."""
    return subprocess.run(
        [sys.executable, str(LAUNCH), "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def new_key(db: Path, *args: str) -> str:
    """A new API key, as `dualtrace keys create ARGS…` makes it (in this process: the CLI
    itself is tested in test_service_auth.py)."""
    from dualtrace import Memory
    from dualtrace.embed.fake import FakeEmbedder

    admin = "--admin" in args
    user = args[args.index("--user") + 1] if "--user" in args else None
    label = args[args.index("--label") + 1] if "--label" in args else None
    with Memory(db, embedder=FakeEmbedder(), resume=False) as mem:
        return mem.api_keys.create(user_id=user, admin=admin, label=label)[1]


def cli_key(db: Path, *args: str) -> str:
    """A new API key made by the real `dualtrace keys create ARGS…`."""
    done = cli(db, "keys", "create", *args)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@dataclass
class Server:
    """A running `dualtrace serve`."""

    db: Path
    base: str
    process: subprocess.Popen[str]
    log: Path
    keys: dict[str, str] = field(default_factory=dict)

    def client(self, key: str | None = None, **kwargs: object) -> httpx.Client:
        headers = {} if key is None else {"Authorization": f"Bearer {key}"}
        return httpx.Client(base_url=self.base, headers=headers, timeout=30, **kwargs)  # type: ignore[arg-type]

    def as_(self, who: str) -> httpx.Client:
        return self.client(self.keys[who])

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode


def start_server(db: Path, *args: str, env: dict[str, str] | None = None) -> Server:
    """Start `dualtrace --db DB serve --port P ARGS…` and wait until it is ready."""
    port = free_port()
    log = db.with_suffix(f".{port}.log")
    out = log.open("w")
    process = subprocess.Popen(
        [sys.executable, str(LAUNCH), "--db", str(db), "serve", "--port", str(port), *args],
        stdout=out,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **(env or {})},
    )
    server = Server(db, f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"serve exited {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{server.base}/health/ready", timeout=2).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    server.stop(signal.SIGKILL)
    raise AssertionError(f"serve did not become ready:\n{log.read_text()}")
