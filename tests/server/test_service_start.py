"""Session start on every surface: `POST /v1/context` without a query (or with
`profile: true`), a new session's `POST /v1/sessions/{id}/context`, the MCP tool
`get_context` without a query and `dualtrace context` without QUERY all lead with the user's
profile, open goals and tasks and last summary, the same text as `Memory.context`."""

from __future__ import annotations

from typing import Any

import anyio
import httpx
from mcp import Client
from service_live import Server, cli, new_key

from dualtrace import Memory
from dualtrace.recall.profile import HEADER, PLANS_HEADER
from dualtrace.server.mcp_tools import build_mcp_server

TURNS = [
    ("I live in Ghent with my brother.", "2025-06-01T08:00:00Z"),
    ("Remind me to renew the bike insurance.", "2025-06-01T08:01:00Z"),
    ("The insurer last year was a small firm called Velocover.", "2025-06-01T08:02:00Z"),
]


def _seeded(server: Server, user: str) -> httpx.Client:
    """A user whose one ended session left a value, a task and a summary."""
    if user not in server.keys:
        server.keys[user] = new_key(server.db, "--user", user)
        with server.as_(user) as c:
            sid = c.post("/v1/sessions", json={}).json()["session_id"]
            for text, at in TURNS:
                turn = {"role": "user", "content": text, "timestamp": at}
                assert c.post(f"/v1/sessions/{sid}/turns", json=turn).status_code == 201
            ended = c.post(f"/v1/sessions/{sid}/end", json={"now": "2025-06-01T09:00:00Z"})
            assert ended.status_code == 200, ended.text
    return server.as_(user)


def test_rest_context_without_a_query_is_the_profile(server: Server) -> None:
    with _seeded(server, "ines") as c:
        start = c.post("/v1/context", json={"max_tokens": 600}).json()
        profile = c.get("/v1/profile", params={"max_tokens": 600}).json()
        assert start["text"] == profile["text"] and start["text"].startswith(HEADER)
        assert "Ghent" in start["text"] and "renew the bike insurance" in start["text"]
        assert start["items"] == [] and start["references"] == profile["references"]
        led = c.post("/v1/context", json={"query": "insurer Velocover", "profile": True}).json()
        assert led["text"].startswith(HEADER) and "## Memories" in led["text"]
        for label, turn_id in led["references"].items():
            assert f"{label}]" in led["text"]
            assert c.get(f"/v1/memories/{turn_id}").status_code == 200
        plain = c.post("/v1/context", json={"query": "bike insurance", "reinforce": False}).json()
        assert not plain["text"].startswith(HEADER)
        bad = c.post("/v1/context", json={"profile": False})
        assert bad.status_code == 422 and "profile=False" in bad.json()["error"]["message"]
        wrong = c.post("/v1/context", json={"profile": "sometimes"})
        assert wrong.status_code == 422 and "profile" in wrong.text


def test_a_new_rest_sessions_context_leads_with_the_profile(server: Server) -> None:
    with _seeded(server, "joss") as c:
        sid = c.post("/v1/sessions", json={}).json()["session_id"]
        ctx = c.post(f"/v1/sessions/{sid}/context", json={"max_tokens": 1500}).json()
        assert ctx["text"].startswith(HEADER) and next(iter(ctx["sections"])) == "profile"
        assert PLANS_HEADER in ctx["text"] and "Ghent" in ctx["text"]
        turn = {"role": "user", "content": "We moved to Antwerp last week."}
        c.post(f"/v1/sessions/{sid}/turns", json=turn)
        ctx = c.post(f"/v1/sessions/{sid}/context", json={"max_tokens": 1500}).json()
        assert "Ghent" not in ctx["text"].split("## Recent turns")[0]  # the input is newer
    with server.as_("alice") as c:  # another user's profile is never theirs
        other = c.post("/v1/context", json={"max_tokens": 3000}).json()["text"]
        assert "Ghent" not in other and "bike insurance" not in other


def _mcp(mem: Memory, user: str, *calls: dict[str, Any]) -> list[Any]:
    async def main() -> list[Any]:
        async with Client(build_mcp_server(mem, lambda _ctx: user)) as client:
            return [await client.call_tool("get_context", args) for args in calls]

    return anyio.run(main)


def test_mcp_get_context_without_a_query_is_the_profile(mem: Memory) -> None:
    chat = mem.session(user_id="alice")
    for text, at in TURNS:
        chat.add("user", text, timestamp=at)
    chat.end(now="2025-06-01T09:00:00Z")
    start, led, nobody_yet, bad = _mcp(
        mem,
        "alice",
        {"max_tokens": 600},
        {"query": "insurer Velocover", "profile": True, "details": True},
        {"query": "bike insurance", "profile": False},
        {"profile": False},
    )
    assert start.content[0].text == mem.context(user_id="alice", max_tokens=600).text
    assert start.content[0].text.startswith(HEADER) and "Ghent" in start.content[0].text
    assert led.structured_content["text"].startswith(HEADER)
    assert led.structured_content["references"]
    assert not nobody_yet.content[0].text.startswith(HEADER)
    assert bad.is_error and "profile=False" in bad.content[0].text
    (empty,) = _mcp(mem, "zoe", {})
    assert empty.structured_content["hint"].startswith("nothing is known about this user")


def test_cli_context_without_a_query_is_the_profile(server: Server) -> None:
    _seeded(server, "kofi").close()
    done = cli(server.db, "context", "--user", "kofi", "--max-tokens", "600")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(HEADER) and "Ghent" in done.stdout
    led = cli(server.db, "context", "insurance", "--user", "kofi", "--profile")
    assert led.returncode == 0 and led.stdout.startswith(HEADER), led.stderr
    plain = cli(server.db, "context", "insurance", "--user", "kofi")
    assert plain.returncode == 0 and not plain.stdout.startswith(HEADER)
