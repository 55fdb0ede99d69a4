"""Values every backend must treat alike, over HTTP and MCP on a real `dualtrace serve`:
a NUL in an id or a text is a 422 (a tool error over MCP) naming the field, and a metadata
filter key holding `"` matches the turns that carry it."""

from __future__ import annotations

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from service_live import Server


def test_a_nul_is_refused_over_http_naming_the_field(server: Server) -> None:
    with server.as_("admin") as c:
        for body, field in [
            ({"user_id": "a\u0000b", "messages": [{"content": "hi there"}]}, "user_id"),
            (
                {"user_id": "carl", "session_id": "s\u0000", "messages": [{"content": "hi"}]},
                "session_id",
            ),
            ({"user_id": "carl", "messages": [{"content": "hi", "name": "A\u0000"}]}, "name"),
            (
                {"user_id": "carl", "messages": [{"content": "hi"}], "metadata": {"k\u0000": 1}},
                "metadata",
            ),
        ]:
            r = c.post("/v1/memories", json=body)
            assert r.status_code == 422, r.text
            message = r.json()["error"]["message"]
            assert "NUL character" in message and field in message, message
        assert c.get("/v1/memories", params={"user_id": "carl"}).json()["items"] == []


def test_a_filter_key_with_a_quote_matches_over_http(server: Server) -> None:
    with server.as_("alice") as c:
        r = c.post(
            "/v1/memories",
            json={
                "messages": [{"content": "The quarterly report is due Friday."}],
                "metadata": {'tag "q"': "work"},
            },
        )
        assert r.status_code == 201, r.text
        hits = c.post(
            "/v1/search",
            json={
                "query": "quarterly report",
                "filters": {'tag "q"': "work"},
                "kinds": ["episode"],
            },
        ).json()["hits"]
        assert [h["id"] for h in hits] == r.json()["episodes"]


def test_a_nul_is_a_tool_error_over_mcp(server: Server) -> None:
    async def main() -> tuple[bool, str]:
        headers = {"Authorization": f"Bearer {server.keys['alice']}"}
        http = httpx2.AsyncClient(headers=headers, timeout=60)
        async with Client(streamable_http_client(f"{server.base}/mcp", http_client=http)) as c:
            result = await c.call_tool("add_memory", {"content": "hi", "session_id": "s\u0000"})
            return result.is_error, str(result.content)

    is_error, text = anyio.run(main)
    assert is_error and "NUL character" in text, text
