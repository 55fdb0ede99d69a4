"""DNS rebinding refused: every route answers only the hosts the service serves (loopback
names and its own address on its port, plus DUALTRACE_ALLOWED_HOSTS), /mcp included and on
any loopback address; a real Chromium whose page has a foreign origin is refused too."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from service_live import LAUNCH, Server, free_port

from dualtrace.config import ServiceConfig
from dualtrace.errors import ConfigError
from dualtrace.server.edge import Guard

MCP_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
MCP_ACCEPT = "application/json, text/event-stream"


def _users(base: str, host: str) -> httpx.Response:
    return httpx.get(f"{base}/v1/users", headers={"Host": host}, timeout=30)


def test_every_route_answers_only_the_hosts_it_serves(servers: Callable[..., Server]) -> None:
    dev = servers("--dev", env={"DUALTRACE_ALLOWED_HOSTS": "memory.example, other.example:9"})
    port = int(dev.base.rsplit(":", 1)[1])
    for host in (
        f"127.0.0.1:{port}",
        f"localhost:{port}",
        f"[::1]:{port}",
        f"LOCALHOST:{port}",
        "memory.example",
        f"memory.example:{port}",
        "other.example:9",
    ):
        assert _users(dev.base, host).status_code == 200, host
    for host in (
        f"evil.example:{port}",
        "evil.example",
        f"127.0.0.1:{port + 1}",
        "127.0.0.1",
        "other.example",
        f"127.0.0.2:{port}",
        "a:b:c",
    ):
        refused = _users(dev.base, host)
        assert refused.status_code == 421, (host, refused.text)
        message = refused.json()["error"]["message"]
        assert repr(host) in message and "DUALTRACE_ALLOWED_HOSTS" in message
    for path in ("/", "/docs", "/openapi.json", "/health/ready"):
        bad = httpx.get(f"{dev.base}{path}", headers={"Host": "evil.example"}, timeout=30)
        assert bad.status_code == 421, path
    added = httpx.post(
        f"{dev.base}/v1/memories",
        headers={"Host": "evil.example"},
        timeout=30,
        json={"user_id": "x", "messages": [{"content": "I like tea."}]},
    )
    assert added.status_code == 421
    assert httpx.get(f"{dev.base}/v1/users", timeout=30).json()["users"] == []


def test_an_allowed_hosts_entry_that_is_no_host_is_refused() -> None:
    with pytest.raises(ConfigError, match="DUALTRACE_ALLOWED_HOSTS"):
        Guard(ServiceConfig(allowed_hosts=("a:b:c",)))
    assert ServiceConfig.from_env({"DUALTRACE_ALLOWED_HOSTS": "a, b:1"}).allowed_hosts == (
        "a",
        "b:1",
    )


def _serve_on(db: Path, host: str) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            str(LAUNCH),
            "--db",
            str(db),
            "serve",
            "--dev",
            "--host",
            host,
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(os.environ),
    )
    base = f"http://{host}:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/health/ready", timeout=2).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("serve did not become ready")


def test_mcp_guards_its_host_on_any_loopback_address(tmp_path: Path) -> None:
    process, base = _serve_on(tmp_path / "memory.db", "127.0.0.2")
    try:
        port = base.rsplit(":", 1)[1]
        for host, status in (
            (f"evil.example:{port}", 421),
            (f"127.0.0.2:{port}", 200),
            (f"localhost:{port}", 200),
        ):
            answer = httpx.post(
                f"{base}/mcp?user_id=devi",
                json=MCP_LIST,
                timeout=30,
                headers={"Host": host, "Accept": MCP_ACCEPT},
            )
            assert answer.status_code == status, (host, answer.text)
        assert _users(base, f"evil.example:{port}").status_code == 421
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(20)


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.mark.usefixtures("chromium")  # skipped without it, failed in CI
def test_a_rebound_page_cannot_read_the_users(servers: Callable[..., Server]) -> None:
    """The page's origin is http://evil.example:PORT and the name resolves to 127.0.0.1:
    what a DNS-rebinding attack gets after its page is loaded."""
    from playwright.sync_api import sync_playwright

    dev = servers("--dev")
    with dev.client() as c:
        assert (
            c.post(
                "/v1/memories",
                json={"user_id": "secret-sam", "messages": [{"content": "I live in Hangzhou."}]},
            ).status_code
            == 201
        )
    port = dev.base.rsplit(":", 1)[1]
    evil = f"http://evil.example:{port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--host-resolver-rules=MAP evil.example 127.0.0.1"],
        )
        page = browser.new_page()
        direct = page.goto(f"{evil}/")  # the page itself is refused, but has that origin
        got = page.evaluate("""async () => {
            const r = await fetch("/v1/users");
            return {status: r.status, text: await r.text()};
        }""")
        browser.close()
    assert got["status"] == 421, got
    assert "secret-sam" not in got["text"] and "evil.example" in got["text"]
    assert direct is not None and direct.status == 421
