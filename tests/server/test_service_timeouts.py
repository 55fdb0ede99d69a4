"""Slow and idle connections are dropped, against a real `dualtrace serve` over real
sockets: one that sends nothing, one that sends its headers a byte at a time, one that stops
half-way through a body, and one left idle after its response; a prompt request on a
kept-alive connection is still answered."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from service_live import Server

READ_TIMEOUT = 1.5


@pytest.fixture
def server(servers: Callable[..., Server]) -> Server:
    return servers("--dev", env={"DUALTRACE_READ_TIMEOUT": str(READ_TIMEOUT)})


def _connect(server: Server) -> socket.socket:
    url = urlsplit(server.base)
    sock = socket.create_connection((url.hostname, url.port), timeout=10)
    return sock


def _read_until_closed(sock: socket.socket, seconds: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it closed."""
    start, data = time.monotonic(), b""
    sock.settimeout(seconds)
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            raise AssertionError(f"still open after {seconds} s; got {data!r}") from None
        if not chunk:
            return data, time.monotonic() - start
        data += chunk


def _request(
    host: str,
    body: bytes = b"",
    method: str = "GET",
    path: str = "/health/live",
    length: int | None = None,
) -> bytes:
    size = len(body) if length is None else length
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n"
    if method != "GET":
        head += f"Content-Type: application/json\r\nContent-Length: {size}\r\n"
    return (head + "\r\n").encode() + body


def _response(sock: socket.socket) -> bytes:
    """One whole response (head and Content-Length body) from a kept-alive connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_connection_that_sends_nothing_is_dropped(server: Server) -> None:
    with _connect(server) as sock:
        data, took = _read_until_closed(sock, READ_TIMEOUT + 5)
    assert data.startswith(b"HTTP/1.1 408 ") and b"RequestTimeout" in data
    assert took < READ_TIMEOUT + 2


def test_headers_sent_a_byte_at_a_time_are_dropped(server: Server) -> None:
    host = urlsplit(server.base).netloc
    raw = _request(host)
    with _connect(server) as sock:
        start = time.monotonic()
        try:
            for byte in raw[:-2]:  # never the final CRLF: slowloris keeps the request open
                sock.sendall(bytes([byte]))
                time.sleep(0.2)
                if time.monotonic() - start > READ_TIMEOUT + 5:
                    raise AssertionError("still open")
        except (BrokenPipeError, ConnectionResetError):
            pass
        data, _ = _read_until_closed(sock, READ_TIMEOUT + 5)
        assert time.monotonic() - start < READ_TIMEOUT + 2
    assert data.startswith(b"HTTP/1.1 408 ")


def test_a_body_that_stops_half_way_is_dropped(server: Server) -> None:
    host = urlsplit(server.base).netloc
    with _connect(server) as sock:
        sock.sendall(_request(host, b'{"query": "wh', "POST", "/v1/search", length=200))
        data, took = _read_until_closed(sock, READ_TIMEOUT + 5)
    assert took < READ_TIMEOUT + 2
    assert data == b"" or data.startswith(b"HTTP/1.1 408 "), data


def test_an_idle_kept_alive_connection_is_closed_and_a_prompt_one_is_served(
    server: Server,
) -> None:
    host = urlsplit(server.base).netloc
    with _connect(server) as sock:
        for _ in range(2):  # two requests on one connection, each answered
            sock.sendall(_request(host))
            reply = _response(sock)
            assert reply.startswith(b"HTTP/1.1 200 "), reply
        time.sleep(READ_TIMEOUT * 0.5)  # a pause under the limit: still served
        sock.sendall(_request(host))
        assert _response(sock).startswith(b"HTTP/1.1 200 ")
        data, took = _read_until_closed(sock, READ_TIMEOUT + 5)
    assert data == b"" and took < READ_TIMEOUT + 2


def test_many_slow_connections_are_all_released(server: Server) -> None:
    socks = [_connect(server) for _ in range(100)]
    try:
        for sock in socks:
            sock.sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(READ_TIMEOUT + 1)
        for sock in socks:
            _read_until_closed(sock, 3)
    finally:
        for sock in socks:
            sock.close()
    url = urlsplit(server.base)
    with socket.create_connection((url.hostname, url.port), timeout=5) as sock:
        sock.sendall(_request(url.netloc))
        assert _response(sock).startswith(b"HTTP/1.1 200 ")
