"""A bug in a route is a 500 in the error shape, with its request id; never a traceback."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from dualtrace import Memory
from dualtrace.config import ServiceConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.server.app import create_app


def test_an_unexpected_error_is_a_500_with_a_request_id(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "memory.db", embedder=FakeEmbedder(), resume=False)
    app = create_app(memory, ServiceConfig(dev=True, worker=False), close_memory=True)

    def broken() -> None:
        raise RuntimeError("boom")

    app.add_api_route("/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/broken", headers={"X-Request-ID": "req-1"})
        ok = client.get("/health/ready")
    assert r.status_code == 500 and r.headers["x-request-id"] == "req-1"
    assert r.json()["error"]["type"] == "InternalError" and "boom" not in r.text
    assert ok.json() == {"status": "ok"}
