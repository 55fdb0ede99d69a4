"""StoreLifecycle: the embedder binding holds across handles; what was written survives close."""

from __future__ import annotations

import pytest

from contract.conftest import StoreFactory
from contract.rows import DIM, EMBEDDER, episode, key, vec
from dualtrace.errors import EmbedderMismatchError
from dualtrace.store.base import SearchScope


def test_the_same_embedder_binds_again(store_factory: StoreFactory) -> None:
    store = store_factory.open()
    store.bind_embedder(EMBEDDER, DIM)  # idempotent on one handle
    store_factory.open().bind_embedder(EMBEDDER, DIM)  # and on another


@pytest.mark.parametrize(("embedder", "dim"), [("another", DIM), (EMBEDDER, DIM * 2)])
def test_another_embedder_or_dimension_is_refused(
    store_factory: StoreFactory, embedder: str, dim: int
) -> None:
    store_factory.open()
    later = store_factory.open(bind=False)
    with pytest.raises(EmbedderMismatchError, match=EMBEDDER):
        later.bind_embedder(embedder, dim)


def test_rows_written_before_close_are_there_after_reopening(
    store_factory: StoreFactory,
) -> None:
    first = store_factory.open()
    first.insert_episodes(
        "u", [episode("u", "ep1", "kept")], [key("ep1", "kept", vector=vec(1))], "t"
    )
    store_factory.close(first)
    again = store_factory.open()
    assert again.get_episodes("u", ["ep1"])["ep1"].text == "kept"
    assert [c.record_id for c in again.search_dense("u", vec(1), 5, SearchScope())] == ["ep1"]
