"""Memory.backup: a consistent copy while others write, and the paths it refuses."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import StoreError, ValidationError


def _episode_ids(path: Path, user_id: str) -> set[str]:
    with Memory(path, embedder=FakeEmbedder()) as copy:
        return {item.id for item in copy.get_all(user_id=user_id, kinds=["episode"])}


def test_backup_while_another_thread_adds_keeps_every_acknowledged_turn(tmp_path: Path) -> None:
    store = tmp_path / "memory.db"
    acknowledged: list[str] = []
    enough = threading.Event()
    stop = threading.Event()
    failures: list[BaseException] = []

    def keep_adding() -> None:
        try:
            with Memory(store, embedder=FakeEmbedder()) as writer:
                n = 0
                while not stop.is_set():
                    added = writer.add(f"I visited city number {n} on my trip", user_id="u")
                    acknowledged.extend(added.episodes)
                    n += 1
                    if n == 20:
                        enough.set()
        except BaseException as exc:  # the main thread reports it
            failures.append(exc)
            enough.set()

    with Memory(store, embedder=FakeEmbedder()) as mem:
        thread = threading.Thread(target=keep_adding)
        thread.start()
        try:
            assert enough.wait(60)
            before = set(acknowledged)
            copy = mem.backup(tmp_path / "copy.db")
            # the writer holds its own connection and goes on past the copy (waited for,
            # not timed: how many turns land during the copy depends on the machine)
            going = threading.Event()
            for _ in range(600):
                if len(acknowledged) > len(before) + 2 or failures:
                    going.set()
                    break
                stop.wait(0.1)
        finally:
            stop.set()
            thread.join(60)
    assert not failures, failures
    assert going.is_set()  # the store took writes around the copy
    assert copy == tmp_path / "copy.db"
    with sqlite3.connect(copy) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    copied = _episode_ids(copy, "u")
    assert before <= copied
    assert copied <= set(acknowledged)  # nothing half-written, nothing invented
    assert not list(tmp_path.glob("*.backup-tmp"))


def test_backup_refuses_to_overwrite_unless_asked(tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    target.write_bytes(b"keep me")
    with Memory(tmp_path / "memory.db", embedder=FakeEmbedder()) as mem:
        mem.add("I moved to Shanghai last week", user_id="u")
        with pytest.raises(ValidationError, match=r"exists.*overwrite=True"):
            mem.backup(target)
        assert target.read_bytes() == b"keep me"
        assert mem.backup(str(target), overwrite=True) == target
    assert len(_episode_ids(target, "u")) == 1
    assert sorted(p.name for p in tmp_path.iterdir() if "copy" in p.name) == ["copy.db"]


def test_backup_into_a_missing_folder_names_it_and_the_fix(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with (
        Memory(tmp_path / "memory.db", embedder=FakeEmbedder()) as mem,
        pytest.raises(ValidationError, match=r"'.*nowhere' does not exist.*mkdir -p"),
    ):
        mem.backup(missing / "copy.db")
    assert not missing.exists()


@pytest.mark.parametrize("path", ["", "   ", ":memory:", 5, None])
def test_backup_path_must_name_a_file(tmp_path: Path, path: object) -> None:
    with (
        Memory(tmp_path / "memory.db", embedder=FakeEmbedder()) as mem,
        pytest.raises(ValidationError, match="names no file"),
    ):
        mem.backup(path)  # type: ignore[arg-type]


def test_backup_refuses_the_store_itself_and_a_folder(tmp_path: Path) -> None:
    store = tmp_path / "memory.db"
    with Memory(store, embedder=FakeEmbedder()) as mem:
        with pytest.raises(ValidationError, match="store's own file"):
            mem.backup(store, overwrite=True)
        with pytest.raises(ValidationError, match="is a folder"):
            mem.backup(tmp_path)
        with pytest.raises(ValidationError, match="overwrite="):
            mem.backup(tmp_path / "copy.db", overwrite="yes")  # type: ignore[arg-type]


def test_backup_of_a_closed_store_is_a_store_error(tmp_path: Path) -> None:
    mem = Memory(tmp_path / "memory.db", embedder=FakeEmbedder())
    mem.close()
    with pytest.raises(StoreError, match="closed"):
        mem.backup(tmp_path / "copy.db")
    assert not list(tmp_path.glob("*copy*"))
