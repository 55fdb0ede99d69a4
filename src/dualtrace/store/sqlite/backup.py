"""The store's backup in SQLite: a consistent copy of the file while others keep writing.

SQLite's online backup API copies the pages under one read snapshot of the store's own
connection (a plain file copy of a WAL database can catch a half-written transaction, or
miss the commits still in the `-wal` file). The copy is written to a temporary file beside
the target, checked with `PRAGMA integrity_check`, switched to a rollback journal (one
self-contained file), flushed to disk, and only then renamed: a crash leaves at most a
stray `.…backup-tmp` file, never a half backup under the final name.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dualtrace.errors import StoreError
from dualtrace.store.backup_file import checked_target, flush, publish, temp_file
from dualtrace.store.sqlite.connection import SQLiteConnection
from dualtrace.store.sqlite.translate import store_error


class SQLiteBackup(SQLiteConnection):
    """StoreLifecycle's `backup`: the online backup API under the store's connection."""

    def backup(self, path: Path, *, overwrite: bool = False) -> Path:
        """Write a consistent copy of the whole store to the file `path`; returns it.

        Refuses an existing file unless `overwrite`, a folder that does not exist, and the
        store's own file. Writers wait only while the pages are copied, not while the copy
        is checked and flushed.
        """
        own = None if str(self.path) == ":memory:" else self.path
        target = checked_target(Path(path), overwrite, own)
        temp = temp_file(target)
        try:
            self._copy_to(temp)
            publish(temp, target, overwrite)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
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
        flush(temp)
