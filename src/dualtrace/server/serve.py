"""Starting the service: the checks that refuse an unsafe start, the demo seed of `make run`,
and uvicorn. The CLI (`dualtrace serve`) renders what these return; nothing prints here."""

from __future__ import annotations

import errno
import ipaddress
import json
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import uvicorn
from fastapi import FastAPI

from dualtrace import demo
from dualtrace.config import ServiceConfig
from dualtrace.errors import ConfigError
from dualtrace.memory import Memory
from dualtrace.server.app import create_app
from dualtrace.server.timeouts import read_deadline_protocol


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        try:
            return all(
                ipaddress.ip_address(info[4][0]).is_loopback
                for info in socket.getaddrinfo(host, None)
            )
        except (OSError, ValueError):
            return False


def check_start(memory: Memory, config: ServiceConfig) -> None:
    """Refuse to start without API keys (unless dev), or in dev mode off loopback."""
    if config.dev and not is_loopback(config.host):
        raise ConfigError(
            f"--dev serves every user without an API key, so it is allowed on a loopback "
            f"address only, not {config.host!r}; drop --dev and create keys with "
            "`dualtrace keys create --user ID`, or bind to 127.0.0.1"
        )
    if not config.dev and not memory.api_keys.active():
        raise ConfigError(
            "no API key in this store, so no client could call the service; create one with "
            "`dualtrace keys create --user ID` (or `--admin`), or run `dualtrace serve --dev` "
            "to try it on this machine without keys"
        )


def demo_user() -> str:
    """The user id the demo conversation is stored under."""
    return str(demo.load_conversation()["user_id"])


def seed_demo(memory: Memory) -> int:
    """Store the demo conversation unless its user has turns already; returns turns added.
    Deferred: the service starts at once, and its worker derives the memories."""
    conversation = demo.load_conversation()
    if memory.users([conversation["user_id"]])[0].turns:
        return 0
    return demo.ingest(memory, conversation, defer=True)


@dataclass(frozen=True)
class Urls:
    """Where the running service answers, and an MCP client config to paste."""

    base: str
    docs: str
    mcp: str
    mcp_config: str


# Whose memory the printed dev-mode MCP config uses when no user is given: a real id that
# works as pasted (any other id names another user's memory).
DEV_USER = "me"


def urls(config: ServiceConfig, user: str | None = None) -> Urls:
    """Where the service answers, and an MCP client config for it: with a key, or in dev
    mode (no key) for `user` (DEV_USER when none is given), named in the URL."""
    host = f"[{config.host}]" if ":" in config.host else config.host
    base = f"http://{host}:{config.port}"
    endpoint = f"{base}/mcp"
    if config.dev:  # no key to say whose memory: the URL names the user
        endpoint += f"?user_id={quote(user or DEV_USER, safe='')}"
    server: dict[str, object] = {"type": "http", "url": endpoint}
    if not config.dev:
        server["headers"] = {"Authorization": "Bearer <your dualtrace key>"}
    mcp_config = json.dumps({"mcpServers": {"dualtrace": server}}, indent=2)
    return Urls(base=f"{base}/", docs=f"{base}/docs", mcp=f"{base}/mcp", mcp_config=mcp_config)


def build(memory: Memory, config: ServiceConfig) -> FastAPI:
    """The app, after the start-up checks; it closes the memory when it stops."""
    check_start(memory, config)
    return create_app(memory, config, close_memory=True)


def listen(config: ServiceConfig) -> list[socket.socket]:
    """The service's listening sockets, bound now: a busy port is refused before anything is
    seeded or printed, and nothing can take the port between this check and serving."""
    try:
        found = socket.getaddrinfo(
            config.host, config.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        raise ConfigError(
            f"cannot resolve --host {config.host!r} ({exc.strerror}); pass an address of this "
            "machine, e.g. --host 127.0.0.1"
        ) from exc
    sockets: list[socket.socket] = []
    try:  # every address the host names (localhost: 127.0.0.1 and ::1), as uvicorn would
        for family, kind, proto, address in dict.fromkeys((f, k, p, a) for f, k, p, _, a in found):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            _bind(sock, address, config)
    except BaseException:
        close(sockets)
        raise
    return sockets


def close(sockets: list[socket.socket]) -> None:
    """Close sockets from `listen` (a start that failed after binding)."""
    for sock in sockets:
        sock.close()


def _bind(sock: socket.socket, address: tuple[Any, ...], config: ServiceConfig) -> None:
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(
                f"port {config.port} on {config.host} is already in use (another program, or "
                "another dualtrace serve, is listening there); stop it, or choose a free "
                "port: `dualtrace serve --port 8877`, or `make run PORT=8877`"
            ) from exc
        raise ConfigError(
            f"cannot listen on {config.host} port {config.port}: {exc.strerror}; choose "
            "another with --host / --port (`make run PORT=8877`)"
        ) from exc


def run(app: FastAPI, config: ServiceConfig, sockets: list[socket.socket] | None = None) -> None:
    """Serve until Ctrl-C (or SIGTERM), then stop the worker and close the store. `sockets`:
    from `listen` (otherwise uvicorn binds `config.host`/`config.port` itself)."""
    settings = uvicorn.Config(
        app,
        host=config.host,
        port=config.port,
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        server_header=False,
        http=read_deadline_protocol(config.read_timeout),
        timeout_keep_alive=max(1, min(5, round(config.read_timeout))),
        limit_concurrency=config.max_connections,
    )
    uvicorn.Server(settings).run(sockets=sockets)
