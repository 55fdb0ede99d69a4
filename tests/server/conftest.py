"""Fixtures of the service tests: a session-wide `dualtrace serve`, and more on demand; a
real Chromium, and a page in it that may ask only 127.0.0.1."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import browsers
import pytest
from service_live import Server, new_key, start_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


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


@pytest.fixture
def chromium() -> str:
    """Chromium's path: skipped where it is not installed, failed in CI (see browsers.py)."""
    return browsers.chromium()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright, one per test module."""
    from playwright.sync_api import sync_playwright

    path = browsers.chromium()
    with sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=path,
            args=["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
        )
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    """A page in a fresh context; after the test, every request it made went to 127.0.0.1."""
    context = browser.new_context()
    opened = context.new_page()
    requested: list[str] = []
    opened.on("request", lambda request: requested.append(request.url))
    yield opened
    context.close()
    hosts = {urlsplit(u).hostname for u in requested if not u.startswith("data:")}
    assert hosts <= {"127.0.0.1"}, requested  # nothing leaves the machine
