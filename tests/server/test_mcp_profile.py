"""The MCP tool `get_profile` in process (the official client, fake embedder): lean text
within the budget, structured values only with `details`, errors said as messages."""

from __future__ import annotations

from typing import Any

import anyio
from mcp import Client

from dualtrace import Memory
from dualtrace.server.mcp_tools import build_mcp_server


def _call(mem: Memory, *calls: dict[str, Any]) -> list[Any]:
    async def main() -> list[Any]:
        async with Client(build_mcp_server(mem, lambda _ctx: "alice")) as client:
            return [await client.call_tool("get_profile", args) for args in calls]

    return anyio.run(main)


def test_get_profile_is_lean_unless_asked(mem: Memory) -> None:
    mem.add("I live in Hangzhou.", user_id="alice", timestamp="2026-01-05")
    mem.add("I moved to Shanghai last week.", user_id="alice", timestamp="2026-03-02")
    mem.add("We have a cat named Mochi.", user_id="alice", timestamp="2026-03-02")
    mem.add("My sister works at Pfizer.", user_id="alice", timestamp="2026-03-02")
    lean, detailed, then, small = _call(
        mem, {}, {"details": True, "history": True}, {"as_of": "2026-02-01"}, {"max_tokens": 20}
    )
    assert set(lean.structured_content) == {"text", "tokens"}
    text = lean.content[0].text
    assert "Shanghai" in text and "Mochi" in text and "Hangzhou" not in text
    values = detailed.structured_content["values"]
    home = next(v for v in values if v["attribute"] == "lives_in")
    assert home["value"] == "Shanghai" and [r["value"] for r in home["replaced"]] == ["Hangzhou"]
    assert home["sources"][0] in detailed.structured_content["references"].values()
    people = detailed.structured_content["people"]
    assert [(p["subject"], p["value"]) for p in people] == [("the user's sister", "Pfizer")]
    assert "Pfizer" not in {v["value"] for v in values}
    assert "Hangzhou" in then.content[0].text and "Shanghai" not in then.content[0].text
    assert 0 < small.structured_content["tokens"] <= 20


def test_get_profile_of_a_new_user_and_bad_input(mem: Memory) -> None:
    empty, bad = _call(mem, {}, {"as_of": "whenever"})
    assert empty.content[0].text == "Nothing is known about this user yet."
    assert bad.is_error and "as_of" in bad.content[0].text
    assert "Traceback" not in bad.content[0].text
