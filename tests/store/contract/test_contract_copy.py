"""CopyStore: a user's rows read page by page exactly as stored, and loaded into another
store of the same backend as they were (what `dualtrace migrate` relies on)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from contract.conftest import StoreFactory
from contract.rows import ACTOR, DIM, EMBEDDER, at, episode, fact_key, key, memory, vec
from dualtrace.errors import ConflictError, ValidationError
from dualtrace.models import ApiKey
from dualtrace.store.base import (
    COPY_PARTS,
    EntityRow,
    IndexEntry,
    MemoryChange,
    MemoryGraph,
    SearchScope,
    Store,
)

PARIS = EntityRow("Paris", "paris", "place", "paris")


@pytest.fixture
def target(backend: str, tmp_path: Path) -> Iterator[Store]:
    """A second, empty store of the backend under test."""
    factory = StoreFactory(backend, tmp_path / "target")
    (tmp_path / "target").mkdir()
    yield factory.open(bind=False)
    factory.close_all()


def _fill(store: Store) -> None:
    """A turn in +08:00 with an external id, a pending turn, a superseded memory, keys with
    vectors and a gloss, entities, a link, history and audit rows, a session, an API key."""
    local = replace(
        episode("u", "e1", "I live in Paris", external_id="x1", metadata={"k": 1}),
        occurred_at=at(1).astimezone(timezone(timedelta(hours=8))),
    )
    gloss = IndexEntry(
        "e1",
        "episode",
        "episode",
        "s1",
        "I live in Paris",
        "h-e1",
        vec(1),
        gloss="我 住 巴黎",
        xvector=np.array([0.6, 0.8, 0.0], dtype=np.float32),  # the cross-lingual embedder's
        language="en",
    )
    store.insert_episodes("u", [local], [gloss], ACTOR)
    store.insert_episodes(
        "u",
        [episode("u", "e2", "Now Berlin", seq=1, minutes=5)],
        [key("e2", "Now Berlin")],
        ACTOR,
        pending=True,
    )
    old = memory("u", "m1", "lives in Paris", source_episode_ids=("e1",), valid_from=at(1))
    new = memory("u", "m2", "lives in Berlin", source_episode_ids=("e2",), valid_from=at(5))
    store.insert_memories(
        "u", [old], [fact_key(old, vec(0, 1))], ACTOR, MemoryGraph(entities=(("m1", PARIS),))
    )
    store.insert_memories(
        "u",
        [new],
        [fact_key(new, vec(0, 0, 1))],
        ACTOR,
        MemoryGraph(links=(("m2", "m1", "updates", 0.5),)),
        changes=[MemoryChange("SUPERSEDE", "m1", "lives in Berlin", by_id="m2", valid_to=at(5))],
    )
    store.touch_session("u", "s1", at(0))
    store.insert_operation("u", "op1", ["e2"], at(6))
    store.insert_api_key(ApiKey("k1", "u", False, at(0), label="app"), "hash-k1")


def _dump(store: Store, limit: int) -> dict[str, list[Any]]:
    parts: dict[str, list[Any]] = {}
    for part in COPY_PARTS:
        rows: list[Any] = []
        after: str | None = None
        while True:
            page, after = store.copy_page("u", part, after, limit)
            assert len(getattr(page, part)) <= limit
            rows += getattr(page, part)
            if after is None:
                break
        parts[part] = rows
    parts["keys"] = [
        (
            k.record_id,
            k.trace,
            k.body,
            k.gloss,
            k.content_hash,
            None if k.vector is None else k.vector.tobytes(),
            None if k.xvector is None else k.xvector.round(3).tolist(),
            k.language,
        )
        for k in parts["keys"]
    ]
    parts["history"] = [
        (h.record_id, h.event, h.old_text, h.new_text, h.at, h.actor, h.detail)
        for h in parts["history"]
    ]
    return {part: sorted(rows, key=repr) for part, rows in parts.items()}


def test_pages_hold_every_row_once_whatever_their_size(store: Store) -> None:
    _fill(store)
    whole = _dump(store, 1000)
    assert _dump(store, 1) == whole
    assert {part: len(rows) for part, rows in whole.items()} == {
        "episodes": 2,
        "pending": 1,
        "memories": 2,
        "keys": 4,
        "entities": 1,
        "links": 2,
        "history": 5,
        "sessions": 1,
        "operations": 1,
        "audit": 5,
    }
    (m1,) = [m for m in whole["memories"] if m.id == "m1"]
    assert (m1.superseded_by, m1.valid_to, m1.source_episode_ids) == ("m2", at(5), ("e1",))
    (e1,) = [e for e in whole["episodes"] if e.id == "e1"]
    assert e1.occurred_at.utcoffset() == timedelta(hours=8) and e1.external_id == "x1"
    assert store.copy_page("nobody", "episodes", None, 10)[1] is None


def test_loaded_rows_read_back_as_they_were(store: Store, target: Store) -> None:
    _fill(store)
    target.bind_embedder(EMBEDDER, DIM)
    for part in COPY_PARTS:
        page, _ = store.copy_page("u", part, None, 1000)
        new_ids = target.load_rows("u", page)
        assert len(new_ids) == len(page.history)
    assert _dump(target, 1000) == _dump(store, 1000)
    assert target.count_records("u") == store.count_records("u")
    closed_too = SearchScope(include_invalid=True)
    assert target.search_dense("u", vec(0, 1), 5, closed_too)[0].record_id == "m1"
    found = target.search_lexical("u", ["巴黎"], 5, closed_too, glosses=True)
    assert [c.record_id for c in found] == ["e1"]
    assert target.pending_users() == ["u"]


def test_loading_a_stored_row_again_is_a_conflict(store: Store) -> None:
    _fill(store)
    page, _ = store.copy_page("u", "episodes", None, 1000)
    with pytest.raises(ConflictError):
        store.load_rows("u", page)
    assert len(store.copy_page("u", "episodes", None, 1000)[0].episodes) == 2


def test_binding_api_keys_and_unknown_parts(store: Store, target: Store) -> None:
    _fill(store)
    assert store.embedder_binding() == (EMBEDDER, DIM) and target.embedder_binding() is None
    ((found, key_hash),) = store.api_key_rows()
    assert (found.key_id, found.label, key_hash) == ("k1", "app", "hash-k1")
    with pytest.raises(ValidationError, match="'vectors'"):
        store.copy_page("u", "vectors", None, 10)
