"""The store's backup in PostgreSQL: `pg_dump`'s custom-format archive of the whole database.

pg_dump reads every table under one snapshot, so the archive holds every transaction
committed before it started and none half, while others keep writing. It runs with
`--enable-row-security` and the connection option `dualtrace.all_users=on` (the store's role
cannot bypass row-level security, and a dump is deliberately every user's), and writes
data as multi-row INSERTs, which an ordinary role can restore into tables with row-level
security (COPY FROM cannot). The archive is written beside the target, checked with
`pg_restore --list`, flushed and renamed into place, as the SQLite backup is.

Restore it into a new database that has the `vector` extension, as the store's role:

    PGOPTIONS="-c dualtrace.all_users=on" pg_restore --no-owner --dbname postgresql://… FILE

pg_dump must be on PATH and of the server's major version or newer (the PostgreSQL client
tools); without it, backup is a StoreError that says so.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from psycopg.conninfo import conninfo_to_dict, make_conninfo

from dualtrace.errors import StoreError
from dualtrace.store.backup_file import checked_target, flush, publish, temp_file
from dualtrace.store.postgres.connection import PostgresConnection, redacted

# Rows per INSERT statement in the archive.
ROWS_PER_INSERT = 500


@contextmanager
def tool_conninfo(url: str) -> Iterator[str]:
    """A conninfo for PostgreSQL's command-line tools that acts for all users, with the
    password (if any) in a private passfile for as long as the block runs: a password on
    the command line would be visible to `ps`."""
    params = conninfo_to_dict(url)
    password = params.pop("password", None)
    params["options"] = f"{params.get('options') or ''} -c dualtrace.all_users=on".strip()
    if password is None:
        yield make_conninfo("", **params)
        return
    with tempfile.TemporaryDirectory(prefix="dualtrace-pg-") as folder:
        passfile = Path(folder) / "pgpass"
        escaped = str(password).replace("\\", "\\\\").replace(":", "\\:")
        passfile.write_text(f"*:*:*:*:{escaped}\n")
        passfile.chmod(0o600)
        yield make_conninfo("", **params, passfile=str(passfile))


class PostgresBackup(PostgresConnection):
    """StoreLifecycle's `backup`: a pg_dump archive of the database."""

    def backup(self, path: Path, *, overwrite: bool = False) -> Path:
        """Write a consistent pg_dump archive of the whole store to the file `path`."""
        target = checked_target(Path(path), overwrite)
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            raise StoreError(
                "backing up a PostgreSQL store runs pg_dump, which is not on PATH; install "
                "the PostgreSQL client tools (of the server's major version or newer), or "
                f"run `pg_dump --format=custom` on {redacted(self.url)} yourself"
            )
        temp = temp_file(target)
        try:
            with tool_conninfo(self.url) as conninfo:
                _run(
                    [
                        pg_dump,
                        "--format=custom",
                        "--enable-row-security",
                        "--no-owner",
                        "--no-comments",
                        f"--rows-per-insert={ROWS_PER_INSERT}",
                        f"--file={temp}",
                        f"--dbname={conninfo}",
                    ],
                    "pg_dump",
                )
            pg_restore = str(Path(pg_dump).with_name("pg_restore"))  # the same tools' version
            _run([pg_restore, "--list", str(temp)], "pg_restore --list (the check)")
            flush(temp)
            publish(temp, target, overwrite)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        return target


def _run(command: list[str], what: str) -> None:
    try:
        subprocess.run(command, check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as exc:
        raise StoreError(
            f"{what} failed ({exc.stderr.strip()[-500:]}); nothing was written to the target. "
            "Check that the client tools are of the server's major version or newer"
        ) from exc
    except OSError as exc:
        raise StoreError(
            f"cannot run {command[0]!r} ({exc}); install the PostgreSQL client tools"
        ) from exc
