"""Tool errors as a model reads them: the library's message, pointing at the tools the model
has (not at `Memory.…` calls or `dualtrace` commands it cannot run), and bad arguments said
in one line per field, without pydantic's banner or links."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pydantic
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult

from dualtrace.errors import DualtraceError

log = logging.getLogger(__name__)

# What the library's messages point at, and the tool a model calls instead.
POINTERS: tuple[tuple[str, str], ...] = (
    (
        "list the user's ids with Memory.get_all(user_id=...) or `dualtrace list --user ...`",
        "find ids with search_memory or list_memories",
    ),
    (
        "see a record's entries with Memory.history(id, user_id=...) or "
        "`dualtrace history ID --user ...`",
        "see a record's entries with memory_history",
    ),
    ("delete turns with Memory.delete(id, user_id=...)", "delete turns with delete_memory"),
    ("take one from history(id, user_id=...)", "take one from memory_history"),
)
_ELSEWHERE = ("Memory.", "`dualtrace ", "get_all(")


def for_the_model(message: str) -> str:
    """`message` with its pointers to library calls and CLI commands turned into tools; a
    hint no tool stands for is dropped rather than shown."""
    for library, tool in POINTERS:
        message = message.replace(library, tool)
    while any(word in message for word in _ELSEWHERE) and "; " in message:
        message = message.rsplit("; ", 1)[0]
    return message


@contextmanager
def tool_errors(tool: str) -> Iterator[None]:
    """A dualtrace error becomes a tool error with its message; nothing else is caught (the
    SDK answers a bug with 'Error executing tool …' and logs its traceback on stderr)."""
    try:
        yield
    except DualtraceError as exc:
        log.info("tool %s failed: %s", tool, type(exc).__name__)
        raise ToolError(f"{type(exc).__name__}: {for_the_model(str(exc))}") from exc


def _value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def argument_errors(exc: pydantic.ValidationError) -> str:
    """One line per bad argument: `limit='x': input should be a valid integer`."""
    lines = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(part) for part in error["loc"]) or "arguments"
        if error["type"] == "missing":
            lines.append(f"{field}: field required")
            continue
        message = error["msg"]
        message = message[:1].lower() + message[1:]
        lines.append(f"{field}={_value(error.get('input'))}: {message}")
    return "invalid arguments: " + "; ".join(lines)


class ToolServer(MCPServer):
    """The SDK's server, with a tool's rejected arguments said plainly."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, pydantic.ValidationError):
                raise
            message = f"Error executing tool {name}: ValidationError: {argument_errors(cause)}"
            raise ToolError(message) from cause
