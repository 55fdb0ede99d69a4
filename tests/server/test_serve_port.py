"""`dualtrace serve` and `make run` on a busy port: refused before anything is seeded or
printed, with the way to choose another port; `make run PORT=…` serves on that port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from service_live import LAUNCH, free_port

from dualtrace.demo import load_conversation

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port another program is listening on (all addresses, as a dev server often does)."""
    with socket.socket() as other:
        other.bind(("0.0.0.0", 0))
        other.listen()
        yield int(other.getsockname()[1])


def _refused(done: subprocess.CompletedProcess[str], port: int) -> None:
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr
    assert "--port" in done.stderr and "make run PORT=" in done.stderr
    assert "serving on" not in said and "MCP" not in said and "stored the demo" not in said


def test_serve_refuses_a_busy_port_before_seeding_or_printing(
    tmp_path: Path, busy_port: int
) -> None:
    db = tmp_path / "memory.db"
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            str(LAUNCH),
            "--db",
            str(db),
            "serve",
            "--dev",
            "--seed-demo",
            "--port",
            str(busy_port),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    _refused(done, busy_port)
    assert done.returncode == 4  # a ConfigError, like any other bad setting
    assert not db.exists()  # the store was not even opened, so nothing was seeded
    assert time.monotonic() - started < 30


def _make_run(home: Path, port: int, bin_dir: Path) -> list[str]:
    """`make run PORT=…`, with `BIN` holding a `dualtrace` that runs the real CLI with the
    fake embedder, and the venv build step taken as done."""
    return [
        "make",
        "-s",
        "-C",
        str(REPO),
        "-o",
        ".venv/.installed",
        "run",
        f"PORT={port}",
        f"BIN={bin_dir}",
    ]


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "dualtrace"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{LAUNCH}" "$@"\n')
    shim.chmod(0o755)
    return bin_dir


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DUALTRACE_")}
    return {**env, "DUALTRACE_HOME": str(home), "MAKEFLAGS": ""}


def test_make_run_refuses_a_busy_port(tmp_path: Path, busy_port: int, bin_dir: Path) -> None:
    home = tmp_path / "home"
    done = subprocess.run(
        _make_run(home, busy_port, bin_dir),
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(home),
    )
    _refused(done, busy_port)
    assert not (home / "memory.db").exists()


def test_make_run_serves_on_the_port_it_is_given(tmp_path: Path, bin_dir: Path) -> None:
    home, port = tmp_path / "home", free_port()
    log = (tmp_path / "make.log").open("w")
    process = subprocess.Popen(
        _make_run(home, port, bin_dir),
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        env=_env(home),
        start_new_session=True,
    )
    try:
        users = _wait_for_users(f"http://127.0.0.1:{port}", process, tmp_path / "make.log")
        assert load_conversation()["user_id"] in users
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)
    printed = (tmp_path / "make.log").read_text()
    assert f"dualtrace is serving on http://127.0.0.1:{port}/" in printed


def _wait_for_users(base: str, process: subprocess.Popen[str], log: Path) -> list[str]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"make run exited {process.returncode}:\n{log.read_text()}")
        try:
            answer = httpx.get(f"{base}/v1/users", timeout=2)
            if answer.status_code == 200:
                return [u["user_id"] for u in answer.json()["users"]]
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"make run did not serve on {base}:\n{log.read_text()}")
