"""Tests for OpenAIEmbedder against a real loopback HTTP server speaking the OpenAI protocol."""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast

import numpy as np
import pytest

from dualtrace.embed.base import Embedder
from dualtrace.embed.openai import OpenAIEmbedder, OpenAIEmbedderConfig
from dualtrace.errors import ConfigError, EmbeddingError

DIMS = 8


def fake_vector(text: str, dims: int = DIMS) -> list[float]:
    """Derive a deterministic vector from the SHA-256 of text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [float(byte) - 127.5 for byte in digest[:dims]]


def expected_rows(texts: list[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Unit-length rows the embedder should return for texts."""
    raw = np.array([fake_vector(text) for text in texts], dtype=np.float32)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    return np.asarray(raw / norms, dtype=np.float32)


@dataclass
class ServerState:
    """What the fake server was asked and how it should misbehave."""

    dims: int = DIMS
    fail_first: int = 0
    fail_status: int = 503
    fail_body: str = '{"error": "busy"}'
    delay_first: int = 0
    delay_s: float = 0.0
    bodies: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def batch_sizes(self) -> list[int]:
        """Number of inputs in each request received."""
        return [len(body["input"]) for body in self.bodies]


class FakeServer(ThreadingHTTPServer):
    """ThreadingHTTPServer carrying a ServerState."""

    daemon_threads = True
    state: ServerState


class Handler(BaseHTTPRequestHandler):
    """Answers POST /v1/embeddings like an OpenAI-compatible server."""

    def do_POST(self) -> None:
        """Record the request, then fail, stall or answer as the state says."""
        state = cast(FakeServer, self.server).state
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with state.lock:
            state.bodies.append(body)
            state.headers.append(dict(self.headers.items()))
            number = len(state.bodies)
        if self.path != "/v1/embeddings":
            self._reply(404, '{"error": "not found"}')
        elif number <= state.delay_first:
            time.sleep(state.delay_s)
            self._reply(200, "{}")
        elif number <= state.fail_first:
            self._reply(state.fail_status, state.fail_body)
        else:
            data = [
                {"object": "embedding", "index": i, "embedding": fake_vector(t, state.dims)}
                for i, t in enumerate(body["input"])
            ]
            data.reverse()  # out of order on purpose: the client must sort by index
            self._reply(200, json.dumps({"object": "list", "data": data, "model": body["model"]}))

    def _reply(self, status: int, text: str) -> None:
        """Send a JSON body; ignore clients that already hung up."""
        payload = text.encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            return

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""


@pytest.fixture
def server(loopback: Callable[[FakeServer], None]) -> FakeServer:
    """Run a fake embeddings server on a free loopback port for one test."""
    httpd = FakeServer(("127.0.0.1", 0), Handler)
    httpd.state = ServerState()
    loopback(httpd)
    return httpd


def base_url(httpd: FakeServer) -> str:
    """API root of the fake server."""
    return f"http://127.0.0.1:{httpd.server_address[1]}/v1"


def make(httpd: FakeServer, **overrides: Any) -> OpenAIEmbedder:
    """Build an embedder for the fake server with fast retries."""
    settings: dict[str, Any] = {
        "base_url": base_url(httpd),
        "model": "fake-embed",
        "dimensions": DIMS,
        "backoff_s": 0.001,
        "timeout_s": 5.0,
    }
    settings.update(overrides)
    return OpenAIEmbedder(OpenAIEmbedderConfig(**settings))


def test_satisfies_embedder_protocol(server: FakeServer) -> None:
    with make(server) as embedder:
        assert isinstance(embedder, Embedder)
        assert embedder.id == "openai:fake-embed"
        assert embedder.dimensions == DIMS
        assert embedder.max_batch == 64


def test_id_ignores_host() -> None:
    one = OpenAIEmbedder(OpenAIEmbedderConfig("http://a:1/v1", "m", 4))
    two = OpenAIEmbedder(OpenAIEmbedderConfig("https://b.example/v1/", "m", 4))
    with one, two:
        assert one.id == two.id == "openai:m"


def test_batches_and_keeps_order(server: FakeServer) -> None:
    texts = [f"text number {i}" for i in range(5)]
    with make(server, max_batch=2) as embedder:
        rows = embedder.embed_passages(texts)
    assert server.state.batch_sizes == [2, 2, 1]
    assert [t for body in server.state.bodies for t in body["input"]] == texts
    assert rows.shape == (5, DIMS)
    assert rows.dtype == np.float32
    np.testing.assert_allclose(rows, expected_rows(texts), rtol=1e-6, atol=1e-6)


def test_rows_are_unit_length(server: FakeServer) -> None:
    with make(server) as embedder:
        rows = embedder.embed_queries(["a", "bb", "ccc"])
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-6)


def test_request_body_is_model_and_input_only(server: FakeServer) -> None:
    with make(server) as embedder:
        embedder.embed_passages(["x"])
    assert server.state.bodies == [{"model": "fake-embed", "input": ["x"]}]


def test_prefixes_applied(server: FakeServer) -> None:
    with make(server, query_prefix="query: ", passage_prefix="passage: ") as embedder:
        queries = embedder.embed_queries(["hello"])
        passages = embedder.embed_passages(["hello"])
    assert [body["input"] for body in server.state.bodies] == [
        ["query: hello"],
        ["passage: hello"],
    ]
    np.testing.assert_allclose(queries, expected_rows(["query: hello"]), atol=1e-6)
    np.testing.assert_allclose(passages, expected_rows(["passage: hello"]), atol=1e-6)


def test_auth_header_sent_when_api_key_set(server: FakeServer) -> None:
    with make(server, api_key="sk-test-123") as embedder:
        embedder.embed_queries(["q"])
    with make(server) as embedder:
        embedder.embed_queries(["q"])
    with_key, without_key = server.state.headers
    assert with_key.get("Authorization") == "Bearer sk-test-123"
    assert "Authorization" not in without_key


def test_api_key_not_in_repr() -> None:
    config = OpenAIEmbedderConfig("http://h/v1", "m", 4, api_key="sk-secret")
    assert "sk-secret" not in repr(config)


def test_empty_input_makes_no_request(server: FakeServer) -> None:
    with make(server) as embedder:
        rows = embedder.embed_passages([])
    assert rows.shape == (0, DIMS)
    assert rows.dtype == np.float32
    assert server.state.bodies == []


def test_dimension_mismatch_names_expected_received_and_fix(server: FakeServer) -> None:
    server.state.dims = 4
    with make(server) as embedder, pytest.raises(EmbeddingError) as info:
        embedder.embed_passages(["x"])
    message = str(info.value)
    assert "dimensions=8" in message
    assert "4-dimensional" in message
    assert "set dimensions=4 to match the model" in message


def test_retries_503_then_succeeds(server: FakeServer) -> None:
    server.state.fail_first = 2
    with make(server, max_retries=3) as embedder:
        rows = embedder.embed_queries(["retry me"])
    assert len(server.state.bodies) == 3
    np.testing.assert_allclose(rows, expected_rows(["retry me"]), atol=1e-6)


def test_retries_429_then_succeeds(server: FakeServer) -> None:
    server.state.fail_first = 1
    server.state.fail_status = 429
    with make(server, max_retries=1) as embedder:
        embedder.embed_queries(["q"])
    assert len(server.state.bodies) == 2


def test_gives_up_after_max_retries(server: FakeServer) -> None:
    server.state.fail_first = 100
    with make(server, max_retries=2) as embedder, pytest.raises(EmbeddingError) as info:
        embedder.embed_queries(["q"])
    assert len(server.state.bodies) == 3
    message = str(info.value)
    assert base_url(server) + "/embeddings" in message
    assert "503" in message


def test_400_fails_immediately_with_body_excerpt(server: FakeServer) -> None:
    server.state.fail_first = 100
    server.state.fail_status = 400
    server.state.fail_body = json.dumps({"error": "model not found: " + "z" * 500})
    with make(server, max_retries=3) as embedder, pytest.raises(EmbeddingError) as info:
        embedder.embed_queries(["q"])
    assert len(server.state.bodies) == 1
    message = str(info.value)
    assert "400" in message
    assert "model not found" in message
    assert "z" * 300 not in message


def test_timeout_is_retried(server: FakeServer) -> None:
    server.state.delay_first = 1
    server.state.delay_s = 1.0
    with make(server, timeout_s=0.2, max_retries=1) as embedder:
        rows = embedder.embed_queries(["slow"])
    assert rows.shape == (1, DIMS)
    assert len(server.state.bodies) == 2


def test_connection_refused_raises_embedding_error() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = OpenAIEmbedderConfig(
        f"http://127.0.0.1:{port}/v1", "m", DIMS, max_retries=1, backoff_s=0.001
    )
    with OpenAIEmbedder(config) as embedder, pytest.raises(EmbeddingError) as info:
        embedder.embed_queries(["q"])
    assert f"127.0.0.1:{port}" in str(info.value)
    assert "2 attempt" in str(info.value)


def test_wrong_path_is_a_client_error(server: FakeServer) -> None:
    config = OpenAIEmbedderConfig(
        f"http://127.0.0.1:{server.server_address[1]}/nope", "m", DIMS, backoff_s=0.001
    )
    with OpenAIEmbedder(config) as embedder, pytest.raises(EmbeddingError, match="404"):
        embedder.embed_queries(["q"])
    assert len(server.state.bodies) == 1


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"base_url": ""}, "base_url"),
        ({"base_url": "localhost:11434/v1"}, "base_url"),
        ({"base_url": "ftp://host/v1"}, "base_url"),
        ({"model": ""}, "model"),
        ({"model": "   "}, "model"),
        ({"dimensions": 0}, "dimensions"),
        ({"dimensions": -3}, "dimensions"),
        ({"max_batch": 0}, "max_batch"),
        ({"max_retries": -1}, "max_retries"),
        ({"timeout_s": 0}, "timeout_s"),
        ({"backoff_s": -1.0}, "backoff_s"),
    ],
)
def test_config_validation(overrides: dict[str, Any], needle: str) -> None:
    settings: dict[str, Any] = {
        "base_url": "http://localhost:11434/v1",
        "model": "nomic-embed-text",
        "dimensions": 768,
    }
    settings.update(overrides)
    with pytest.raises(ConfigError) as info:
        OpenAIEmbedderConfig(**settings)
    message = str(info.value)
    assert needle in message
    assert f"set {needle}=" in message
