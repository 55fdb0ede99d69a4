"""The MCP tools in process (the official client connected to the server object, fake
embedder): pages, time travel, and errors said as messages, never as tracebacks."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp import Client
from mcp.server.mcpserver import Context

from dualtrace import Memory
from dualtrace.server.mcp_tools import build_mcp_server


def _call(
    mem: Memory,
    session: Callable[[Client], Awaitable[Any]],
    user_of: Callable[[Context], str] = lambda _ctx: "alice",
) -> Any:
    async def main() -> Any:
        async with Client(build_mcp_server(mem, user_of)) as client:
            return await session(client)

    return anyio.run(main)


def test_list_pages_and_as_of(mem: Memory) -> None:
    mem.add("I live in Hangzhou.", user_id="alice", timestamp="2026-01-05")
    mem.add("I moved to Shanghai last week.", user_id="alice", timestamp="2026-03-02")

    async def session(client: Client) -> dict[str, Any]:
        first = await client.call_tool("list_memories", {"kinds": ["episode"], "limit": 1})
        cursor = first.structured_content["next_cursor"]
        second = await client.call_tool(
            "list_memories", {"kinds": ["episode"], "limit": 1, "cursor": cursor}
        )
        then = await client.call_tool(
            "search_memory", {"query": "Shanghai Hangzhou", "as_of": "2026-02-01"}
        )
        return {
            "first": first.structured_content,
            "second": second.structured_content,
            "then": then.structured_content,
        }

    seen = _call(mem, session)
    assert [r["text"] for r in seen["first"]["items"]] == ["I moved to Shanghai last week."]
    assert [r["text"] for r in seen["second"]["items"]] == ["I live in Hangzhou."]
    assert seen["second"]["next_cursor"] is None
    assert all("Shanghai" not in h["text"] for h in seen["then"]["hits"])


def test_errors_are_messages_not_tracebacks(mem: Memory) -> None:
    async def session(client: Client) -> list[Any]:
        return [
            await client.call_tool("get_memory", {"id": "mem_nope"}),
            await client.call_tool("list_memories", {"cursor": "not-a-cursor"}),
            await client.call_tool("get_context", {"query": "x", "max_tokens": 0}),
            await client.call_tool("add_memory", {"content": "hi", "role": "robot"}),
        ]

    results = _call(mem, session)
    for result, expected in zip(
        results, ("NotFoundError", "ValidationError", "max_tokens", "role"), strict=True
    ):
        assert result.is_error
        assert expected in result.content[0].text
        assert "Traceback" not in result.content[0].text


def test_a_bug_says_nothing_of_its_internals(mem: Memory) -> None:
    def broken(_ctx: Context) -> str:
        raise RuntimeError("internal detail /srv/secret.py line 3")

    async def session(client: Client) -> Any:
        return await client.call_tool("search_memory", {"query": "anything"})

    result = _call(mem, session, broken)
    assert result.is_error
    text = result.content[0].text
    assert "search_memory" in text and "secret" not in text and "Traceback" not in text


def test_context_carries_the_references_its_labels_stand_for(mem: Memory) -> None:
    """get_context's [n] labels map to stored turns, which get_memory then reads."""
    for text in ("My car budget is 300k yuan.", "我不喜欢白色的车，喜欢深蓝色。"):
        mem.add(text, user_id="alice")

    async def session(client: Client) -> dict[str, Any]:
        asked = {"query": "car budget", "max_tokens": 300, "details": True}
        ctx = await client.call_tool("get_context", asked)
        refs = ctx.structured_content["references"]
        got = [await client.call_tool("get_memory", {"id": i}) for i in refs.values()]
        return {"ctx": ctx.structured_content, "got": [g.structured_content for g in got]}

    seen = _call(mem, session)
    references = seen["ctx"]["references"]
    cited = {
        label.strip()
        for tag in re.findall(r"\[([^\]]+)\]\s*$", seen["ctx"]["text"], re.M)
        for label in tag.split(",")
    }
    assert references and cited == set(references)
    assert all(item["refs"] for item in seen["ctx"]["items"])
    assert [g["id"] for g in seen["got"]] == list(references.values())
    assert all(g["kind"] == "episode" for g in seen["got"])


def test_tool_errors_point_at_tools_not_at_the_library(mem: Memory) -> None:
    """A failing call names the tools the model can call instead, and bad arguments are one
    line per field, without pydantic's banner or its links."""
    calls = [
        ("get_memory", {"id": "mem_nope"}, "search_memory"),
        ("delete_memory", {"id": "ep_nope"}, "list_memories"),
        ("undo_change", {"entry_id": 4242}, "memory_history"),
        ("list_memories", {"limit": "many"}, "limit='many'"),
        ("add_memory", {"text": "hi", "role": "robot"}, "role='robot'"),
        ("update_memory", {"id": "mem_nope"}, "text: field required"),
        ("get_context", {"query": "x", "max_tokens": 0}, "max_tokens=0"),
    ]

    async def session(client: Client) -> list[Any]:
        return [await client.call_tool(name, args) for name, args, _ in calls]

    for result, (name, _, expected) in zip(_call(mem, session), calls, strict=True):
        text = result.content[0].text
        assert result.is_error and expected in text, (name, text)
        for leak in (
            "Memory.",
            "dualtrace list",
            "dualtrace history",
            "pydantic",
            "validation error for",
            "type=",
            "Traceback",
        ):
            assert leak not in text, (name, text)


def test_add_takes_text_and_still_content_and_undo_reverts_an_update(mem: Memory) -> None:
    async def session(client: Client) -> dict[str, Any]:
        new = await client.call_tool("add_memory", {"text": "I live in Hangzhou."})
        old = await client.call_tool("add_memory", {"content": "I drive a blue car."})
        episode = new.structured_content["episodes"][0]
        await client.call_tool("update_memory", {"id": episode, "text": "I live in Ningbo."})
        history = await client.call_tool("memory_history", {"id": episode})
        entry = history.structured_content["entries"][-1]["id"]
        undone = await client.call_tool("undo_change", {"entry_id": entry})
        got = await client.call_tool("get_memory", {"id": episode})
        return {"old": old, "undone": undone.structured_content, "got": got.structured_content}

    seen = _call(mem, session)
    assert not seen["old"].is_error
    assert seen["undone"] == {"ok": True}
    assert seen["got"]["text"] == "I live in Hangzhou."


def test_the_kinds_a_tool_takes_are_the_kinds_stored() -> None:
    from typing import get_args

    from dualtrace.models import ITEM_KINDS
    from dualtrace.server.mcp_tools import MemoryKind

    assert get_args(MemoryKind) == ITEM_KINDS
