"""`dualtrace mcp` over stdio, driven by the official MCP client: every tool, errors as tool
errors, two users kept apart, and nothing but protocol messages on stdout.

The client tests spawn the real command with the fake embedder (`serve_fake.py`); the
stdout test spawns `dualtrace mcp` itself, with the bundled model, as Claude Desktop would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult

from dualtrace.cli import cli

DUALTRACE = str(Path(sys.executable).with_name("dualtrace"))
FAKE = str(Path(__file__).with_name("serve_fake.py"))  # `dualtrace` with the fake embedder
TOOLS = {
    "add_memory",
    "search_memory",
    "get_context",
    "list_memories",
    "get_memory",
    "update_memory",
    "delete_memory",
    "memory_history",
    "undo_change",
    "get_profile",
}
READ_ONLY = {
    "search_memory",
    "get_context",
    "list_memories",
    "get_memory",
    "memory_history",
    "get_profile",
}


def _params(db: Path, home: Path, user: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=[FAKE, "--db", str(db), "mcp", "--user", user],
        env=_env(home),
    )


def _env(home: Path) -> dict[str, str]:
    """A bare environment, keeping PYTHONPATH so the spawned server runs this source tree."""
    env = {"DUALTRACE_HOME": str(home), "PATH": os.environ.get("PATH", "")}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def _ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def _alice_session(db: Path, home: Path) -> dict[str, Any]:
    """Alice's client: list the tools and call each one; returns what later checks need."""
    seen: dict[str, Any] = {}
    async with Client(_params(db, home, "alice")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        seen["tools"] = tools
        added = _ok(
            await client.call_tool(
                "add_memory",
                {
                    "content": "我不喜欢白色的车，喜欢深蓝色。",
                    "speaker": "Alice",
                    "timestamp": "2026-03-01T10:00:00+08:00",
                    "session_id": "s1",
                },
            )
        )
        _ok(
            await client.call_tool(
                "add_memory",
                {
                    "text": "I moved to Hangzhou near the West Lake last week.",
                    "timestamp": "2026-03-02",
                    "message_id": "m2",
                },
            )
        )
        episode = added["episodes"][0]
        hits = _ok(await client.call_tool("search_memory", {"query": "Hangzhou", "explain": True}))
        assert any("Hangzhou" in h["text"] for h in hits["hits"])
        assert all(h["scores"] for h in hits["hits"])
        asked = {"query": "深蓝色的车", "max_tokens": 300}
        context = _ok(await client.call_tool("get_context", asked))
        assert "深蓝色" in context["text"] and 0 < context["tokens"] <= 300
        listed = _ok(await client.call_tool("list_memories", {"kinds": ["episode"]}))
        assert {r["kind"] for r in listed["items"]} == {"episode"}
        assert len(listed["items"]) == 2
        got = _ok(await client.call_tool("get_memory", {"id": episode}))
        assert got["text"] == "我不喜欢白色的车，喜欢深蓝色。"
        fixed = {"id": episode, "text": "我喜欢深蓝色的车。"}
        updated = _ok(await client.call_tool("update_memory", fixed))
        assert updated["text"] == "我喜欢深蓝色的车。"
        history = _ok(await client.call_tool("memory_history", {"id": episode}))
        assert history["entries"][-1]["old_text"] == "我不喜欢白色的车，喜欢深蓝色。"
        deleted = _ok(await client.call_tool("delete_memory", {"id": episode}))
        assert deleted == {"ok": True, "deleted": episode}
        gone = await client.call_tool("get_memory", {"id": episode})
        seen["gone"] = gone
        bad = await client.call_tool("get_context", {"query": "car", "as_of": "not a date"})
        seen["bad"] = bad
        seen["kept"] = _ok(await client.call_tool("search_memory", {"query": "Hangzhou"}))
    return seen


async def _bob_session(db: Path, home: Path, alice_ids: list[str]) -> dict[str, Any]:
    async with Client(_params(db, home, "bob")) as client:
        found = _ok(await client.call_tool("search_memory", {"query": "Hangzhou West Lake"}))
        listed = _ok(await client.call_tool("list_memories", {"kinds": ["episode", "fact"]}))
        foreign = [await client.call_tool("get_memory", {"id": i}) for i in alice_ids]
        deleted = [await client.call_tool("delete_memory", {"id": i}) for i in alice_ids]
    return {"found": found, "listed": listed, "foreign": foreign, "deleted": deleted}


def test_stdio_client_lists_and_calls_every_tool(tmp_path: Path) -> None:
    db, home = tmp_path / "memory.db", tmp_path / "home"
    seen = anyio.run(_alice_session, db, home)

    tools = seen["tools"]
    assert set(tools) == TOOLS
    for name, tool in tools.items():
        assert tool.description and len(tool.description) > 60, name
        assert tool.output_schema is not None and tool.input_schema["type"] == "object", name
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (name in READ_ONLY), name
    assert tools["delete_memory"].annotations.destructive_hint is True
    assert tools["update_memory"].annotations.destructive_hint is True
    assert tools["add_memory"].annotations.destructive_hint is False
    assert tools["get_memory"].input_schema["required"] == ["id"]

    for result, kind in ((seen["gone"], "NotFoundError"), (seen["bad"], "ValidationError")):
        assert result.is_error
        text = result.content[0].text
        assert kind in text and "Traceback" not in text

    # bob, on the same store, sees none of alice's records and cannot touch them
    alice_ids = [h["id"] for h in seen["kept"]["hits"]]
    assert alice_ids
    bob = anyio.run(_bob_session, db, home, alice_ids)
    assert bob["found"]["hits"] == [] and bob["listed"]["items"] == []
    for result in [*bob["foreign"], *bob["deleted"]]:
        assert result.is_error and "NotFoundError" in result.content[0].text
    still = anyio.run(_alice_search, db, home)
    assert [h["id"] for h in still["hits"]] == alice_ids


async def _alice_search(db: Path, home: Path) -> dict[str, Any]:
    async with Client(_params(db, home, "alice")) as client:
        return _ok(await client.call_tool("search_memory", {"query": "Hangzhou"}))


def test_stdout_carries_only_protocol_messages(tmp_path: Path) -> None:
    """Raw stdio: the model loads, jieba segments Chinese, and stdout has JSON-RPC only."""
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "add_memory", "arguments": {"content": "我们上个月搬去南京了。"}},
        },
    ]
    proc = subprocess.Popen(
        [DUALTRACE, "--db", str(tmp_path / "m.db"), "mcp"],
        env={**os.environ, "DUALTRACE_HOME": str(tmp_path / "home"), "DUALTRACE_USER": "zoe"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in lines).encode())
    proc.stdin.flush()
    answers = [json.loads(proc.stdout.readline()) for _ in range(2)]
    rest, errors = proc.communicate(timeout=60)  # closes stdin: the server exits
    assert [a["id"] for a in answers] == [1, 2], (answers, errors)
    assert answers[1]["result"]["structuredContent"]["episodes"]
    assert rest.strip() == b"", rest


def test_mcp_needs_a_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DUALTRACE_USER", raising=False)
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "m.db"), "mcp"])
    assert result.exit_code == 2 and "--user" in result.output
    blank = CliRunner().invoke(cli, ["--db", str(tmp_path / "m.db"), "mcp", "--user", " "])
    assert blank.exit_code == 2 and "user_id" in blank.output
