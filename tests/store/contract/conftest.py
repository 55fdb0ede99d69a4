"""The backends the contract runs against, and a `store` fixture opening a fresh one.

A backend is a function making a new, empty store in the test's own place (`tmp_path` for a
file; a server backend would create a fresh schema or database there instead). To add one
add its opener to BACKENDS: every contract test then runs against it
too. Stores are bound to the contract's embedder (`DIM`-dimensional vectors) before a test
sees them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pg_server
import pytest

from contract.rows import DIM, EMBEDDER
from dualtrace.store.base import Store
from dualtrace.store.sqlite.store import SQLiteStore


def _sqlite(place: Path) -> Store:
    return SQLiteStore(place / "contract.db")  # a real file: WAL, read connections, scrubbing


def _postgres(place: Path) -> Store:
    from dualtrace.store.postgres.store import PostgresStore

    # a database of the test run's server per place (a backup archive there is restored)
    return PostgresStore(pg_server.server().database_for(place))


BACKENDS: dict[str, Callable[[Path], Store]] = {"sqlite": _sqlite, "postgres": _postgres}
# Marks of each backend's tests: `pytest -m postgres` runs exactly those on a real server.
MARKS = {"postgres": [pytest.mark.postgres]}


class StoreFactory:
    """Opens handles on one test's store (each a new handle on the same data, bound to the
    contract embedder) and closes whichever are still open when the test ends."""

    def __init__(self, backend: str, place: Path) -> None:
        self.backend = backend
        self._place = place
        self._open: list[Store] = []

    def open(self, *, bind: bool = True) -> Store:
        """A new handle on the test's store."""
        store = BACKENDS[self.backend](self._place)
        self._open.append(store)
        if bind:
            store.bind_embedder(EMBEDDER, DIM)
        return store

    def close(self, store: Store) -> None:
        """Close one handle (a later `open` sees what it wrote)."""
        self._open.remove(store)
        store.close()

    def close_all(self) -> None:
        while self._open:
            self.close(self._open[-1])


@pytest.fixture(params=[pytest.param(name, marks=MARKS.get(name, [])) for name in sorted(BACKENDS)])
def backend(request: pytest.FixtureRequest) -> str:
    """The backend's name: each contract test runs once per backend."""
    name: str = request.param
    return name


@pytest.fixture
def store_factory(backend: str, tmp_path: Path) -> Iterator[StoreFactory]:
    """Handles on a fresh store of the backend under test."""
    factory = StoreFactory(backend, tmp_path)
    yield factory
    factory.close_all()


@pytest.fixture
def store(store_factory: StoreFactory) -> Store:
    """A fresh, empty store of the backend under test."""
    return store_factory.open()
