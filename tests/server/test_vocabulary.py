"""One vocabulary on every surface: the README's table of operations is read against the
live service's OpenAPI document, the MCP tool schemas and the CLI's options; and the words
a user meets (unknown query parameters, limits, a missing field) are the same on each."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from service_live import Server, cli

from dualtrace import Memory
from dualtrace.cli import cli as dualtrace_cli
from dualtrace.server.mcp_tools import build_mcp_server

README = Path(__file__).parents[2] / "README.md"
COLUMNS = (
    "Operation",
    "REST",
    "REST arguments",
    "MCP tool",
    "MCP arguments",
    "CLI",
    "CLI options",
    "Result",
)


def _table() -> list[dict[str, str]]:
    """The rows of the README's vocabulary table, by column."""
    text = README.read_text("utf-8")
    section = text.split("## One vocabulary", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert tuple(header) == COLUMNS
    rows = []
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = spec
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _properties(schema: dict[str, Any], spec: dict[str, Any]) -> set[str]:
    """Every property name of a schema, nested objects and arrays included."""
    schema = _resolve(schema, spec)
    found: set[str] = set()
    for sub in schema.get("anyOf", []) + schema.get("allOf", []):
        found |= _properties(sub, spec)
    if "items" in schema:
        found |= _properties(schema["items"], spec)
    for name, sub in schema.get("properties", {}).items():
        found.add(name)
        found |= _properties(sub, spec)
    return found


def _rest(spec: dict[str, Any], route: str) -> tuple[set[str], set[str]]:
    """A route's argument names (parameters, body fields) and result names."""
    method, path = route.split(" ", 1)
    operation = spec["paths"][path][method.lower()]
    arguments = {p["name"] for p in operation.get("parameters", [])}
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None:
        arguments |= _properties(body["schema"], spec)
    ok = next(v for k, v in operation["responses"].items() if k.startswith("2"))
    results = _properties(ok["content"]["application/json"]["schema"], spec)
    return arguments, results


def _mcp_tools(mem: Memory) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        async with Client(build_mcp_server(mem, lambda _ctx: "alice")) as client:
            return {t.name: t for t in (await client.list_tools()).tools}

    return anyio.run(main)


def test_readme_table_matches_rest_mcp_and_cli(server: Server, mem: Memory) -> None:
    with server.as_("alice") as c:
        spec = c.get("/openapi.json").json()
    tools = _mcp_tools(mem)
    rows = _table()
    assert {r["MCP tool"].strip("`") for r in rows} == set(tools), "every tool has a row"
    for row in rows:
        operation = row["Operation"]
        arguments, results = _rest(spec, row["REST"].strip("`"))
        assert set(_names(row["REST arguments"])) <= arguments, (operation, arguments)
        tool = tools[row["MCP tool"].strip("`")]
        taken = set(tool.input_schema["properties"])
        assert set(_names(row["MCP arguments"])) <= taken, (operation, taken)
        for name in _names(row["Result"]):
            assert name in results, (operation, "REST", name)
            assert name in _properties(tool.output_schema, tool.output_schema), (operation, name)
        command = dualtrace_cli.commands[row["CLI"].strip("`")]
        options = {opt for p in command.params for opt in p.opts}
        assert set(_names(row["CLI options"])) <= options, (operation, options)
        assert "--user" in options


@pytest.mark.parametrize("query", ["foo=1", "kinds=fact&foo=1&bar=2", "kinds_=fact"])
def test_unknown_query_parameters_are_refused_by_name(server: Server, query: str) -> None:
    unknown = sorted(part.split("=")[0] for part in query.split("&") if part != "kinds=fact")
    with server.as_("alice") as c:
        for path in ("/v1/memories", "/v1/turns", "/v1/users"):
            answer = c.get(f"{path}?{query}")
            assert answer.status_code == 422, (path, answer.text)
            message = answer.json()["error"]["message"]
            assert all(repr(name) in message for name in unknown), message


def test_list_takes_kinds_and_still_kind(server: Server) -> None:
    with server.as_("alice") as c:
        c.post("/v1/memories", json={"messages": [{"content": "I live in Hangzhou."}]})
        by_kinds = c.get("/v1/memories", params={"kinds": "episode"}).json()["items"]
        by_kind = c.get("/v1/memories", params={"kind": "episode"}).json()["items"]
    assert by_kinds and by_kinds == by_kind
    assert {i["kind"] for i in by_kinds} == {"episode"}


def test_limits_and_missing_fields_read_the_same_everywhere(server: Server, mem: Memory) -> None:
    with server.as_("alice") as c:
        listed = c.get("/v1/memories", params={"limit": 501}).json()["error"]["message"]
        turns = c.get("/v1/turns", params={"limit": 501}).json()["error"]["message"]
        found = c.post("/v1/search", json={"limit": 1001, "query": "x"}).json()["error"]
        missing = c.post("/v1/search", json={"limit": 3}).json()["error"]["message"]
    assert listed == turns == "limit=501 must be an integer from 1 to 500"
    assert found["message"] == "limit=1001 must be an integer from 1 to 1000"
    assert missing == "query: field required"

    async def session(client: Client) -> list[str]:
        results = [
            await client.call_tool("list_memories", {"limit": 501}),
            await client.call_tool("search_memory", {"query": "x", "limit": 1001}),
        ]
        return [r.content[0].text for r in results]

    async def main() -> list[str]:
        async with Client(build_mcp_server(mem, lambda _ctx: "alice")) as client:
            return await session(client)

    tool_list, tool_search = anyio.run(main)
    assert tool_list.endswith(listed) and tool_search.endswith(found["message"])
    done = cli(server.db, "search", "x", "--user", "alice", "--limit", "1001")
    assert done.returncode == 2 and found["message"] in done.stderr
