"""What a model reads from the MCP tools fits their budgets (cl100k tokens, the project's
counter): get_context's text content and its structured content are each within 1.2 ×
max_tokens unless details are asked for; search_memory and list_memories repeat no source
turn; a budget too small for any memory says so."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_types import CallToolResult

from dualtrace import Memory, demo
from dualtrace.server.mcp_tools import build_mcp_server
from dualtrace.text.tokens import count_tokens

QUESTIONS = ("what colour car should I avoid?", "我们要搬去哪里？", "what is the budget now?")


@pytest.fixture
def demo_mem(mem: Memory) -> Memory:
    demo.ingest(mem, demo.load_conversation())
    return mem


def _calls(mem: Memory, calls: list[tuple[str, dict[str, Any]]]) -> list[CallToolResult]:
    user = str(demo.load_conversation()["user_id"])

    async def main() -> list[CallToolResult]:
        async with Client(build_mcp_server(mem, lambda _ctx: user)) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(main)


def _text(result: CallToolResult) -> str:
    assert not result.is_error, result.content
    return "".join(getattr(block, "text", "") for block in result.content)


def _structured(result: CallToolResult) -> str:
    """The structured content as it travels (JSON, UTF-8, compact)."""
    return json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("max_tokens", [1000, 300, 120])
def test_get_context_fits_its_budget(demo_mem: Memory, max_tokens: int) -> None:
    calls = [("get_context", {"query": q, "max_tokens": max_tokens}) for q in QUESTIONS]
    for result in _calls(demo_mem, calls):
        text, structured = _text(result), _structured(result)
        assert result.structured_content is not None
        assert result.structured_content["text"], "the demo answers every question"
        assert count_tokens(text) <= 1.2 * max_tokens, (count_tokens(text), text)
        assert count_tokens(structured) <= 1.2 * max_tokens, count_tokens(structured)
        assert "items" not in result.structured_content  # details only when asked


def test_get_context_details_on_request(demo_mem: Memory) -> None:
    asked = {"query": QUESTIONS[0], "max_tokens": 300, "details": True}
    (result,) = _calls(demo_mem, [("get_context", asked)])
    seen = result.structured_content
    assert seen is not None and seen["items"] and seen["references"]
    assert all("score" in item for item in seen["items"])
    # the text content names the stored turn behind each label it cites
    assert all(f"[{label}] {ep}" in _text(result) for label, ep in seen["references"].items())


def test_a_budget_too_small_for_any_memory_says_so(demo_mem: Memory) -> None:
    small, unknown = _calls(
        demo_mem,
        [
            ("get_context", {"query": QUESTIONS[0], "max_tokens": 5}),
            ("get_context", {"query": "zzqx vfrb", "max_tokens": 1000}),
        ],
    )
    assert small.structured_content is not None and small.structured_content["text"] == ""
    assert "max_tokens" in _text(small) and "larger" in _text(small)
    assert small.structured_content["hint"] == _text(small)
    assert _text(unknown) and "max_tokens" not in _text(unknown)


def test_search_and_list_repeat_no_source_turn(demo_mem: Memory) -> None:
    found, listed, detailed = _calls(
        demo_mem,
        [
            ("search_memory", {"query": QUESTIONS[0], "limit": 5}),
            ("list_memories", {"limit": 10}),
            ("search_memory", {"query": QUESTIONS[0], "limit": 5, "details": True}),
        ],
    )
    for result, key in ((found, "hits"), (listed, "items")):
        records = (result.structured_content or {})[key]
        assert records
        for record in records:
            assert "sources" not in record and "scene" not in record
            if record["kind"] == "episode":
                assert "source_ids" not in record  # a stored turn is its own source
            else:
                assert record["source_ids"]
        # a lean record costs its text plus its id, date and source ids, in either content
        budget = sum(count_tokens(r["text"]) + 100 for r in records)
        assert count_tokens(_text(result)) <= budget
        assert count_tokens(_structured(result)) <= budget
    hits = (detailed.structured_content or {})["hits"]
    assert any(h["sources"] for h in hits if h["kind"] != "episode")
    assert all("sources" not in h for h in hits if h["kind"] == "episode")


def test_search_schema_says_what_it_returns(mem: Memory) -> None:
    async def main() -> Any:
        async with Client(build_mcp_server(mem, lambda _ctx: "a")) as client:
            return {t.name: t for t in (await client.list_tools()).tools}

    tools = anyio.run(main)
    search = tools["search_memory"]
    hits = search.output_schema["properties"]["hits"]
    assert "source_ids" in hits["description"] and "details" in hits["description"]
    assert "details" in search.input_schema["properties"]
    assert "details" in tools["get_context"].input_schema["properties"]
