"""The MCP tools at /mcp on a real `dualtrace serve` process, driven by the official client
over streamable HTTP: every tool, scope from the API key, isolation between two keys, and
the service's refusals (no key, another user's id, a revoked key)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult
from service_live import Server, cli, new_key

from dualtrace.access import PREFIX
from dualtrace.config import ServiceConfig
from dualtrace.server.serve import DEV_USER, urls

Session = Callable[[Client], Awaitable[Any]]


def _connect(server: Server, key: str | None, query: str = "") -> Client:
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    http = httpx2.AsyncClient(headers=headers, timeout=60)
    return Client(streamable_http_client(f"{server.base}/mcp{query}", http_client=http))


def _run(server: Server, key: str | None, session: Session, query: str = "") -> Any:
    async def main() -> Any:
        async with _connect(server, key, query) as client:
            return await session(client)

    return anyio.run(main)


def _ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def test_http_client_calls_every_tool_for_the_keys_user(server: Server) -> None:
    marker = f"zq{uuid.uuid4().hex[:8]}"

    async def alice(client: Client) -> dict[str, Any]:
        names = {t.name for t in (await client.list_tools()).tools}
        added = _ok(
            await client.call_tool(
                "add_memory",
                {
                    "content": f"我住在杭州，车牌号是{marker}。",
                    "timestamp": "2026-03-02T10:00:00+08:00",
                },
            )
        )
        episode = added["episodes"][0]
        hits = _ok(await client.call_tool("search_memory", {"query": marker}))
        context = _ok(await client.call_tool("get_context", {"query": marker, "max_tokens": 200}))
        listed = _ok(await client.call_tool("list_memories", {"kinds": ["episode"], "limit": 500}))
        got = _ok(await client.call_tool("get_memory", {"id": episode}))
        updated = _ok(
            await client.call_tool(
                "update_memory", {"id": episode, "text": f"我住在上海，车牌号是{marker}。"}
            )
        )
        history = _ok(await client.call_tool("memory_history", {"id": episode}))
        return {
            "names": names,
            "episode": episode,
            "hits": hits,
            "context": context,
            "listed": listed,
            "got": got,
            "updated": updated,
            "history": history,
        }

    seen = _run(server, server.keys["alice"], alice)
    episode = seen["episode"]
    assert len(seen["names"]) == 10
    assert episode in [h["id"] for h in seen["hits"]["hits"]]
    assert marker in seen["context"]["text"]
    assert episode in [r["id"] for r in seen["listed"]["items"]]
    assert seen["got"]["text"] == f"我住在杭州，车牌号是{marker}。"
    assert seen["updated"]["text"] == f"我住在上海，车牌号是{marker}。"
    assert [e["event"] for e in seen["history"]["entries"]][-1] == "UPDATE"

    async def bob(client: Client) -> dict[str, Any]:
        return {
            "hits": _ok(await client.call_tool("search_memory", {"query": marker})),
            "listed": _ok(
                await client.call_tool("list_memories", {"kinds": ["episode"], "limit": 500})
            ),
            "get": await client.call_tool("get_memory", {"id": episode}),
            "delete": await client.call_tool("delete_memory", {"id": episode}),
        }

    other = _run(server, server.keys["bob"], bob)
    assert all(marker not in h["text"] for h in other["hits"]["hits"])
    assert episode not in [r["id"] for r in other["listed"]["items"]]
    for result in (other["get"], other["delete"]):
        assert result.is_error and "NotFoundError" in result.content[0].text

    async def admin_reads(client: Client) -> dict[str, Any]:
        return _ok(await client.call_tool("get_memory", {"id": episode}))

    assert _run(server, server.keys["admin"], admin_reads, "?user_id=alice")["id"] == episode

    async def alice_deletes(client: Client) -> list[CallToolResult]:
        return [
            await client.call_tool("delete_memory", {"id": episode}),
            await client.call_tool("get_memory", {"id": episode}),
        ]

    deleted, gone = _run(server, server.keys["alice"], alice_deletes)
    assert _ok(deleted) == {"ok": True, "deleted": episode}
    assert gone.is_error and "NotFoundError" in gone.content[0].text


def _post(server: Server, key: str | None, query: str = "") -> httpx.Response:
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18",
    }
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    return httpx.post(f"{server.base}/mcp{query}", json=body, headers=headers, timeout=30)


def test_mcp_endpoint_refuses_as_the_api_does(server: Server) -> None:
    assert _post(server, server.keys["alice"]).status_code == 200
    for key, query, status, kind in (
        (None, "", 401, "AuthError"),
        ("dt_nope_nope", "", 401, "AuthError"),
        (server.keys["alice"], "?user_id=bob", 403, "ForbiddenError"),
        (server.keys["admin"], "", 422, "ValidationError"),  # an admin key names the user
    ):
        answer = _post(server, key, query)
        assert answer.status_code == status, answer.text
        assert answer.json()["id"] == 1  # a JSON-RPC error to the request
        assert answer.json()["error"]["data"]["type"] == kind
    # a revoked key stops working at once
    key = new_key(server.db, "--user", "carol")
    assert _post(server, key).status_code == 200
    assert cli(server.db, "keys", "revoke", key.split("_")[1]).returncode == 0
    assert _post(server, key).status_code == 401


def test_unreachable_from_another_host_name(server: Server) -> None:
    """On loopback the SDK's DNS-rebinding guard refuses a foreign Host header."""
    answer = httpx.post(
        f"{server.base}/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={
            "Authorization": f"Bearer {server.keys['alice']}",
            "Host": "evil.example",
            "Accept": "application/json, text/event-stream",
        },
        timeout=30,
    )
    assert answer.status_code in (403, 421)


def test_dev_mode_needs_no_key_but_a_user(servers: Callable[..., Server]) -> None:
    dev = servers("--dev")

    async def remember(client: Client) -> dict[str, Any]:
        _ok(await client.call_tool("add_memory", {"content": "I keep bees in Ningbo."}))
        return _ok(await client.call_tool("search_memory", {"query": "bees"}))

    found = _run(dev, None, remember, "?user_id=devi")
    assert found["hits"] and "bees" in found["hits"][0]["text"]
    assert _post(dev, None).status_code == 422  # which user? the URL or a header says
    named = httpx.post(
        f"{dev.base}/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"X-Dualtrace-User": "devi", "Accept": "application/json, text/event-stream"},
        timeout=30,
    )
    assert named.status_code == 200 and len(named.json()["result"]["tools"]) == 10


def _initialize_error(server: Server, query: str) -> str:
    """The message the official client shows when `initialize` is refused."""

    async def main() -> str:
        try:
            async with _connect(server, None, query):
                pass
        except BaseException as exc:  # the client's task group wraps it
            while isinstance(exc, BaseExceptionGroup):
                exc = exc.exceptions[0]
            if isinstance(exc, MCPError):
                return exc.message
            raise
        raise AssertionError("initialize was not refused")

    return anyio.run(main)


def test_dev_mode_tells_a_client_how_to_name_its_user(servers: Callable[..., Server]) -> None:
    """Without ?user_id= the client gets a JSON-RPC error saying how to add one (not a bare
    'Server returned an error response', nor a word of admin keys); the placeholder of the
    example config is refused, not taken as a user; the printed URL works as pasted."""
    dev = servers("--dev")
    missing = _initialize_error(dev, "")
    assert "?user_id=" in missing and f"{dev.base}/mcp?user_id=" in missing
    assert "admin" not in missing and "Server returned an error" not in missing
    placeholder = _initialize_error(dev, "?user_id=%3Cuser%20id%3E")
    assert "placeholder" in placeholder and "'<user id>'" in placeholder

    config = ServiceConfig(dev=True, port=int(dev.base.rsplit(":", 1)[1]))
    url = json.loads(urls(config).mcp_config)["mcpServers"]["dualtrace"]["url"]
    query = url.split("/mcp", 1)[1]
    assert "%3C" not in query

    async def remember(client: Client) -> dict[str, Any]:
        return _ok(await client.call_tool("add_memory", {"text": "I keep bees in Ningbo."}))

    assert _run(dev, None, remember, query)["episodes"]
    users = httpx.get(f"{dev.base}/v1/users", timeout=30).json()["users"]
    assert [u["user_id"] for u in users] == [DEV_USER]


def test_mcp_changes_name_the_key_that_made_them(server: Server) -> None:
    actor = "key:" + server.keys["alice"].removeprefix(PREFIX).split("_")[0]

    async def alice(client: Client) -> dict[str, Any]:
        added = _ok(
            await client.call_tool(
                "add_memory", {"content": "I moved to Porto and I work at Farfetch now."}
            )
        )
        turn = added["episodes"][0]
        _ok(await client.call_tool("update_memory", {"id": turn, "text": "I moved to Porto."}))
        return _ok(await client.call_tool("memory_history", {"id": turn}))

    history = _run(server, server.keys["alice"], alice)
    assert [e["actor"] for e in history["entries"]] == [actor, actor], history
