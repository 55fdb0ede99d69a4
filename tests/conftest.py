"""Shared fixtures: a Memory on a real SQLite file, with the deterministic fake embedder;
real HTTP servers on loopback for the OpenAI-compatible clients."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from socketserver import BaseServer

import pg_server
import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder


@pytest.fixture(scope="session", autouse=True)
def _postgres_server() -> Iterator[None]:
    """Stop the test run's PostgreSQL server (started on first use, see pg_server.py)."""
    yield
    pg_server.stop()


@pytest.fixture
def postgres_url() -> str:
    """The URL of a new, empty PostgreSQL database with the store's schema (a real server)."""
    return pg_server.server().fresh_database()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make sure loopback requests never go through a proxy from the environment."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def loopback() -> Iterator[Callable[[BaseServer], None]]:
    """`loopback(httpd)` serves httpd on a thread for this test; it is shut down after."""
    started: list[tuple[BaseServer, threading.Thread]] = []

    def start(httpd: BaseServer) -> None:
        thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
        thread.start()
        started.append((httpd, thread))

    yield start
    for httpd, thread in started:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def mem(db_path: Path) -> Iterator[Memory]:
    with Memory(db_path, embedder=FakeEmbedder()) as memory:
        yield memory


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_mem(request: pytest.FixtureRequest, db_path: Path) -> Iterator[Memory]:
    """A Memory on each backend in turn: a SQLite file, then a PostgreSQL database of the
    test run's server (a module runs its tests on both by taking this as its `mem`)."""
    if request.param == "sqlite":
        memory = Memory(db_path, embedder=FakeEmbedder())
    else:
        memory = Memory(url=pg_server.server().fresh_database(), embedder=FakeEmbedder())
    with memory:
        yield memory


_CONVERSATION = [
    {
        "id": "a1",
        "role": "user",
        "name": "Alice",
        "content": "I live in Hangzhou near the West Lake.",
    },
    {"id": "a2", "role": "assistant", "content": "Hangzhou is lovely in spring."},
    {"id": "a3", "role": "user", "name": "Alice", "content": "My budget for the car is 300k yuan."},
    {"id": "a4", "role": "user", "name": "Alice", "content": "我不喜欢白色的车，喜欢深蓝色。"},
]


@pytest.fixture
def conversation() -> list[dict[str, str]]:
    """Four turns by Alice and the assistant, one in Chinese, with external ids a1–a4."""
    return [dict(m) for m in _CONVERSATION]
