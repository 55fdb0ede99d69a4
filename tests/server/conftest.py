"""Fixtures of the service tests: a session-wide `dualtrace serve`, and more on demand."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from service_live import Server, new_key, start_server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One service for the session, with keys for alice, bob and an admin."""
    db = tmp_path_factory.mktemp("service") / "memory.db"
    keys = {
        "alice": new_key(db, "--user", "alice"),
        "bob": new_key(db, "--user", "bob"),
        "admin": new_key(db, "--admin"),
    }
    running = start_server(db, env={"DUALTRACE_RATE_LIMIT": "0"})
    running.keys = keys
    yield running
    running.stop()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """`servers(*args, env=…)`: more services for one test, on one file, all stopped after."""
    started: list[Server] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Server:
        running = start_server(tmp_path / "memory.db", *args, env=env)
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop(signal.SIGKILL)
