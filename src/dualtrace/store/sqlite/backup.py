"""The store's backup in SQLite: a consistent copy of the file while others keep writing.

SQLite's online backup API copies the pages under one read snapshot of the store's own
connection (a plain file copy of a WAL database can catch a half-written transaction, or
miss the commits still in the `-wal` file). The copy is written to a temporary file beside
the target, checked with `PRAGMA integrity_check`, switched to a rollback journal (one
self-contained file), flushed to disk, and only then renamed: a crash leaves at most a
stray `.…backup-tmp` file, never a half backup under the final name.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

from dualtrace.errors import StoreError, ValidationError
from dualtrace.store.sqlite.connection import SQLiteConnection
from dualtrace.store.sqlite.translate import store_error

TEMP_SUFFIX = ".backup-tmp"


class SQLiteBackup(SQLiteConnection):
    """StoreLifecycle's `backup`: the online backup API under the store's connection."""

    def backup(self, path: Path, *, overwrite: bool = False) -> Path:
        """Write a consistent copy of the whole store to the file `path`; returns it.

        Refuses an existing file unless `overwrite`, a folder that does not exist, and the
        store's own file. Writers wait only while the pages are copied, not while the copy
        is checked and flushed.
        """
        target = self._checked_target(Path(path), overwrite)
        temp = _temp_file(target)
        try:
            self._copy_to(temp)
            _publish(temp, target, overwrite)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        return target

    def _checked_target(self, target: Path, overwrite: bool) -> Path:
        folder = target.parent
        if not folder.is_dir():
            raise ValidationError(
                f"cannot back up to {str(target)!r}: the folder {str(folder)!r} does not "
                f"exist; create it first (mkdir -p {folder}) or choose a path in an existing folder"
            )
        if target.is_dir():
            raise ValidationError(
                f"cannot back up to {str(target)!r}: it is a folder; name a file in it, e.g. "
                f"{str(target / 'memory-backup.db')!r}"
            )
        if str(self.path) != ":memory:" and target.resolve() == self.path.resolve():
            raise ValidationError(
                f"cannot back up to {str(target)!r}: it is the store's own file; choose "
                "another path"
            )
        if target.exists() and not overwrite:
            raise _exists_error(target)
        return target

    def _copy_to(self, temp: Path) -> None:
        """Copy the store into `temp` in one step (one read snapshot), then check the copy
        and make it one self-contained file in rollback-journal mode."""
        try:
            copy = sqlite3.connect(temp, isolation_level=None)
        except sqlite3.Error as exc:
            raise store_error(exc, str(temp)) from exc
        try:
            with self._lock:
                try:
                    self._conn.backup(copy)  # pages=-1: every page under one snapshot
                except sqlite3.Error as exc:
                    raise store_error(exc, str(self.path)) from exc
            try:
                copy.execute("PRAGMA journal_mode = DELETE")
                verdict = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            except sqlite3.Error as exc:
                raise store_error(exc, str(temp)) from exc
        finally:
            copy.close()
        if verdict != ["ok"]:
            raise StoreError(
                f"the backup copy of {str(self.path)!r} failed its integrity check "
                f"({'; '.join(map(str, verdict[:3]))}); nothing was written to the target. "
                "Run `PRAGMA integrity_check` on the store itself, and restore it from an "
                "earlier backup if it is damaged"
            )
        _flush(temp)


def _exists_error(target: Path) -> ValidationError:
    return ValidationError(
        f"cannot back up to {str(target)!r}: the file exists; pass overwrite=True "
        "(`dualtrace backup --force`) to replace it, or choose a new path"
    )


def _temp_file(target: Path) -> Path:
    """An empty file beside `target` (same folder, so the final rename is atomic)."""
    try:
        handle, name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent
        )
    except OSError as exc:
        raise StoreError(
            f"cannot write a backup in {str(target.parent)!r} ({exc}); make the folder "
            "writable by this user, or choose another path"
        ) from exc
    os.close(handle)
    return Path(name)


def _flush(file: Path) -> None:
    """Force the copy's bytes to disk before it is renamed into place."""
    handle = os.open(file, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _publish(temp: Path, target: Path, overwrite: bool) -> None:
    """Rename the finished copy to `target`. Without `overwrite`, a hard link makes the
    existence check and the rename one step (a file that appeared since is kept)."""
    if overwrite:
        os.replace(temp, target)
        return
    try:
        os.link(temp, target)
    except FileExistsError:
        raise _exists_error(target) from None
    except OSError:  # a file system without hard links: check, then rename
        if target.exists():
            raise _exists_error(target) from None
        os.replace(temp, target)
        return
    temp.unlink()
