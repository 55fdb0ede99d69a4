"""Schema-driven fuzzing of the live service with schemathesis: zero 5xx responses, and
every response (status, content type, body) matches the OpenAPI schema.

Bounded: a few examples per operation and a time budget (DUALTRACE_FUZZ_SECONDS, default
30), so that `make test` stays short; raise both for a deeper run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from service_live import Server, new_key

CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance"
)


def test_fuzzing_finds_no_server_error_and_no_schema_mismatch(
    tmp_path: Path, servers: Callable[..., Server]
) -> None:
    key = new_key(tmp_path / "memory.db", "--user", "fuzz")
    running = servers(env={"DUALTRACE_RATE_LIMIT": "0"})
    seconds = os.environ.get("DUALTRACE_FUZZ_SECONDS", "30")
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "run",
        f"{running.base}/openapi.json",
        "--checks",
        CHECKS,
        "--max-examples",
        "8",
        "--max-time",
        seconds,
        "--seed",
        "17",
        "--workers",
        "1",
        "--no-shrink",
        "--header",
        f"Authorization: Bearer {key}",
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=int(seconds) + 60, cwd=tmp_path
    )
    report = done.stdout[-4000:] + done.stderr[-2000:]
    assert done.returncode == 0, report
    assert " passed" in done.stdout and " failed" not in done.stdout.split("Test cases:")[-1]
    assert "Traceback" not in running.log.read_text(), running.log.read_text()[-3000:]
