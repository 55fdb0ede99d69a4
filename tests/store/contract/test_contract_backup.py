"""StoreLifecycle.backup: a copy that opens as a store of its own, and the targets refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from contract.conftest import BACKENDS
from contract.rows import ACTOR, DIM, EMBEDDER, episode, memory
from dualtrace.errors import ValidationError
from dualtrace.store.base import Store


def test_backup_holds_every_committed_row_of_every_user(
    store: Store, backend: str, tmp_path: Path
) -> None:
    store.insert_episodes("a", [episode("a", "ep1", "x")], [], ACTOR)
    store.insert_memories("b", [memory("b", "m1", "y")], [], ACTOR)
    place = tmp_path / "copy"
    place.mkdir()
    target = place / "contract.db"  # where the backend's opener looks (conftest.BACKENDS)
    assert store.backup(target) == target
    store.insert_episodes("a", [episode("a", "ep2", "later")], [], ACTOR)
    copy = BACKENDS[backend](place)
    try:
        copy.bind_embedder(EMBEDDER, DIM)  # the copy keeps the store's embedder
        assert set(copy.get_episodes("a", ["ep1", "ep2"])) == {"ep1"}
        assert set(copy.get_memories("b", ["m1"])) == {"m1"}
        assert copy.user_ids() == ["a", "b"]
    finally:
        copy.close()


def test_backup_refuses_an_existing_file_unless_asked(store: Store, tmp_path: Path) -> None:
    store.insert_episodes("a", [episode("a", "ep1", "x")], [], ACTOR)
    target = tmp_path / "copy.db"
    target.write_bytes(b"older backup")
    with pytest.raises(ValidationError, match="exists"):
        store.backup(target)
    assert target.read_bytes() == b"older backup"
    assert store.backup(target, overwrite=True) == target
    assert target.read_bytes() != b"older backup"


def test_backup_refuses_a_folder_that_does_not_exist(store: Store, tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="does not exist"):
        store.backup(tmp_path / "missing" / "copy.db")
    assert not (tmp_path / "missing").exists()
