"""The MCP tools: one user's memory as tools a model can call, over stdio or streamable HTTP.

Each tool makes one `Memory` call for the user the transport names (`--user` on stdio, the
API key over HTTP) and returns structured output. A `DualtraceError` becomes a tool error
that carries its message (never a traceback), so the model can read what to fix.

    server = build_mcp_server(memory, lambda ctx: "alice")
    server.run("stdio")
"""

import functools
import inspect
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from dualtrace.errors import DualtraceError
from dualtrace.memory import Memory
from dualtrace.models import MEMORY_KINDS, HistoryEntry, Hit, Item

log = logging.getLogger(__name__)

# The user a call acts for, found from the request's context (raises ToolError if none).
UserOf = Callable[[Context], str]

MemoryKind = Literal["episode", "fact", "preference", "event", "episode_chunk", "summary"]

INSTRUCTIONS = """\
Long-term memory of one user, kept by dualtrace. Every turn you store is kept word for word
(an "episode"); facts, preferences and events are derived from it ("memories"), dated, and
superseded when they change. Call get_context before answering a question that may depend on
what the user said before; call add_memory with what the user tells you that is worth keeping.
Ids look like 'ep_…' (a stored turn) or 'mem_…' (a derived memory)."""


# -- output shapes ---------------------------------------------------------------------------


class SourceOut(BaseModel):
    """A stored turn a record came from."""

    episode_id: str
    occurred_at: datetime
    speaker: str | None = None
    role: str | None = None
    text: str


class RecordOut(BaseModel):
    """A stored turn (kind 'episode') or a derived memory."""

    id: str
    kind: str = Field(description="'episode' (a stored turn) or a memory kind such as 'fact'")
    text: str
    occurred_at: datetime = Field(description="when it happened or was said")
    valid_from: datetime | None = None
    valid_to: datetime | None = Field(None, description="set once the value stopped being true")
    superseded_by: str | None = Field(None, description="id of the memory with the newer value")
    archived: bool = False
    session_id: str | None = None
    scene: str | None = Field(None, description="the circumstances: when, where, who, why")
    sources: list[SourceOut] = Field(default_factory=list)


class HitOut(RecordOut):
    """A search result with its score (and, with explain, each channel's score)."""

    score: float
    scores: dict[str, float] = Field(default_factory=dict)
    refs: list[str] = Field(
        default_factory=list, description="in a context: the labels its text cites it by"
    )


class ChangeOut(BaseModel):
    """One change `add_memory` made to the user's memories."""

    memory_id: str
    event: str = Field(description="ADD, UPDATE, SUPERSEDE, MERGE, REINFORCE, …")
    text: str


class AddOut(BaseModel):
    episode_ids: list[str] = Field(description="the stored turn's id (re-adding an id: same)")
    changes: list[ChangeOut] = Field(description="memories derived, updated or superseded")
    warnings: list[str] = Field(default_factory=list)


class SearchOut(BaseModel):
    hits: list[HitOut] = Field(description="best first; empty when nothing matches")


class ContextOut(BaseModel):
    text: str = Field(description="dated, sourced lines ready to put in a prompt")
    tokens: int
    items: list[HitOut]
    references: dict[str, str] = Field(
        default_factory=dict,
        description="each label the text cites ([2]) -> the stored turn's id (get_memory)",
    )


class ListOut(BaseModel):
    records: list[RecordOut] = Field(description="newest first")
    next_cursor: str | None = Field(None, description="pass it back for the next page")


class DeleteOut(BaseModel):
    deleted: str = Field(description="the id that was deleted")


class HistoryEntryOut(BaseModel):
    id: int = Field(description="the entry's id")
    event: str
    old_text: str | None = None
    new_text: str | None = None
    at: datetime
    actor: str


class HistoryOut(BaseModel):
    entries: list[HistoryEntryOut] = Field(description="oldest first")


# -- conversions -----------------------------------------------------------------------------


def _record(item: Item) -> dict[str, Any]:
    return {
        "id": item.id, "kind": item.kind, "text": item.text, "occurred_at": item.occurred_at,
        "valid_from": item.valid_from, "valid_to": item.valid_to,
        "superseded_by": item.superseded_by, "archived": item.archived,
        "session_id": item.session_id, "scene": item.scene,
        "sources": [
            SourceOut(episode_id=s.episode_id, occurred_at=s.occurred_at, speaker=s.speaker,
                      role=s.role, text=s.text)
            for s in item.sources
        ],
    }  # fmt: skip


def record_out(item: Item) -> RecordOut:
    return RecordOut(**_record(item))


def hit_out(hit: Hit) -> HitOut:
    return HitOut(**_record(hit), score=hit.score, scores=dict(hit.scores), refs=list(hit.refs))


def history_out(entry: HistoryEntry) -> HistoryEntryOut:
    return HistoryEntryOut(id=entry.id, event=entry.event, old_text=entry.old_text,
                           new_text=entry.new_text, at=entry.at, actor=entry.actor)  # fmt: skip


@contextmanager
def _tool_errors(tool: str) -> Iterator[None]:
    """A dualtrace error becomes a tool error with its message; nothing else is caught (the
    SDK answers a bug with 'Error executing tool …' and logs its traceback on stderr)."""
    try:
        yield
    except DualtraceError as exc:
        log.info("tool %s failed: %s", tool, type(exc).__name__)
        raise ToolError(f"{type(exc).__name__}: {exc}") from exc


# -- the server ------------------------------------------------------------------------------

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
# add_memory repeats a turn unless it carries a message_id: not idempotent in general
_ADD = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                       open_world_hint=False)  # fmt: skip
_CHANGE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True,
                          open_world_hint=False)  # fmt: skip
_DELETE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                          open_world_hint=False)  # fmt: skip

Id = Annotated[str, Field(description="a record id: 'ep_…' or 'mem_…'", min_length=1)]
Time = Annotated[
    str | None,
    Field(description="ISO 8601 date or time, e.g. '2026-03-02' or '2026-03-02T19:10:00+08:00'"),
]


def build_mcp_server(memory: Memory, user_of: UserOf, *, name: str = "dualtrace") -> MCPServer:
    """An MCP server whose eight tools act on `memory` for the user `user_of(ctx)` names."""
    # The SDK's constructor calls logging.basicConfig (a Rich handler on the root logger);
    # logging belongs to the application that embeds us, so the root logger is put back.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    server: MCPServer = MCPServer(
        name, title="dualtrace memory", instructions=INSTRUCTIONS, log_level="WARNING"
    )
    root.handlers[:] = handlers
    root.setLevel(level)
    for tool, annotations, title in (
        (add_memory, _ADD, "Remember"),
        (search_memory, _READ, "Search memory"),
        (get_context, _READ, "Get memory context"),
        (list_memories, _READ, "List memories"),
        (get_memory, _READ, "Get a memory"),
        (update_memory, _CHANGE, "Correct a memory"),
        (delete_memory, _DELETE, "Delete a memory"),
        (memory_history, _READ, "Memory history"),
    ):
        server.add_tool(
            _bind(tool, memory, user_of), name=tool.__name__, title=title,
            description=tool.__doc__, annotations=annotations, structured_output=True,
        )  # fmt: skip
    return server


def _bind(tool: Callable[..., Any], memory: Memory, user_of: UserOf) -> Callable[..., Any]:
    """The tool with `memory` and the caller's user filled in: its signature, minus those
    two, plus the SDK's `ctx`, is what the input schema is built from."""

    @functools.wraps(tool)
    def call(*args: Any, ctx: Context, **kwargs: Any) -> Any:
        user = user_of(ctx)
        with _tool_errors(tool.__name__):
            return tool(memory, user, *args, **kwargs)

    params = list(inspect.signature(tool).parameters.values())[2:]
    ctx_param = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)
    call.__signature__ = inspect.signature(tool).replace(  # type: ignore[attr-defined]
        parameters=[*params, ctx_param]
    )
    call.__annotations__ = {**tool.__annotations__, "ctx": Context}
    return call


def add_memory(
    memory: Memory,
    user: str,
    content: Annotated[str, Field(description="what was said, word for word", min_length=1)],
    role: Annotated[Literal["user", "assistant"], Field(description="who said it")] = "user",
    speaker: Annotated[str | None, Field(description="the speaker's name, if known")] = None,
    session_id: Annotated[
        str | None, Field(description="the conversation it belongs to, if any")
    ] = None,
    timestamp: Time = None,
    message_id: Annotated[
        str | None, Field(description="your id for this message; storing it again is a no-op")
    ] = None,
) -> AddOut:
    """Store one message of the conversation in the user's long-term memory.

    Use it for what the user tells you that may matter later: facts about them, their
    preferences, plans, events, changes ("I moved to Berlin"). The text is kept word for
    word; facts are derived from it, dated, and an older value of the same fact is
    superseded. Pass `timestamp` when the message is not from now. Returns the stored
    turn's id and the memory changes it caused.
    """
    message: dict[str, Any] = {"role": role, "content": content}
    if speaker is not None:
        message["name"] = speaker
    if message_id is not None:
        message["id"] = message_id
    res = memory.add([message], user_id=user, session_id=session_id, timestamp=timestamp)
    changes = [ChangeOut(memory_id=i, event=e, text=t) for i, e, t in res.events]
    return AddOut(episode_ids=res.episodes, changes=changes, warnings=res.warnings)


def search_memory(
    memory: Memory,
    user: str,
    query: Annotated[str, Field(description="what to look for, in words", min_length=1)],
    limit: Annotated[int, Field(ge=1, le=100, description="most hits to return")] = 10,
    as_of: Annotated[
        str | None, Field(description="only what was true and known then (ISO 8601)")
    ] = None,
    explain: Annotated[bool, Field(description="add each channel's score to every hit")] = False,
) -> SearchOut:
    """Search the user's stored turns and memories; returns ranked hits with ids, dates,
    validity and the turns they came from.

    Use it to find specific records (to cite, correct or delete them). To answer a question
    from memory, prefer get_context, which returns a prompt-ready block.
    """
    hits = memory.search(query, user_id=user, limit=limit, as_of=as_of, explain=explain)
    return SearchOut(hits=[hit_out(h) for h in hits])


def get_context(
    memory: Memory,
    user: str,
    query: Annotated[str, Field(description="the question or topic to recall for", min_length=1)],
    max_tokens: Annotated[int, Field(ge=1, le=32_000, description="token budget")] = 1000,
    session_id: Annotated[str | None, Field(description="only this conversation")] = None,
    as_of: Annotated[
        str | None, Field(description="only what was true and known then (ISO 8601)")
    ] = None,
) -> ContextOut:
    """What the user's memory says about a question, as dated and sourced lines that fit a
    token budget, ready to put in your prompt.

    Call it before answering anything that may depend on earlier conversations (where the
    user lives, what they prefer, what happened when). Current values lead; values that
    were superseded are left out or marked.
    """
    ctx = memory.context(query, user_id=user, max_tokens=max_tokens, session_id=session_id,
                         as_of=as_of)  # fmt: skip
    return ContextOut(text=ctx.text, tokens=ctx.tokens, items=[hit_out(h) for h in ctx.items],
                      references=dict(ctx.references))  # fmt: skip


def list_memories(
    memory: Memory,
    user: str,
    limit: Annotated[int, Field(ge=1, le=500, description="most records to return")] = 50,
    kinds: Annotated[
        list[MemoryKind] | None,
        Field(description="which kinds; default: the derived memories, not the turns"),
    ] = None,
    include_invalid: Annotated[
        bool, Field(description="also memories that were superseded or archived")
    ] = False,
    cursor: Annotated[
        str | None, Field(description="the next_cursor of the previous page, for the next one")
    ] = None,
) -> ListOut:
    """List the user's memories, newest first (the derived facts, preferences and events;
    add 'episode' to `kinds` for the stored turns), a page at a time.

    Use it to review what is remembered about the user; to find something specific, use
    search_memory.
    """
    page = memory.get_page(
        user_id=user, kinds=list(kinds or MEMORY_KINDS), include_invalid=include_invalid,
        limit=limit, cursor=cursor,
    )  # fmt: skip
    return ListOut(records=[record_out(i) for i in page.items], next_cursor=page.next_cursor)


def get_memory(memory: Memory, user: str, id: Id) -> RecordOut:
    """One stored turn or memory by id, with its validity, what superseded it and the turns
    it came from."""
    return record_out(memory.get(id, user_id=user))


def update_memory(
    memory: Memory,
    user: str,
    id: Id,
    text: Annotated[str, Field(description="the corrected text, in full", min_length=1)],
) -> RecordOut:
    """Replace the text of a memory or stored turn, e.g. when the user corrects a fact you
    remembered wrongly. The old text stays in its history (memory_history) and can be
    restored there. For a value that changed in the world ("I moved"), prefer add_memory:
    the new value then supersedes the old one and both stay dated."""
    return record_out(memory.update(id, text, user_id=user))


def delete_memory(memory: Memory, user: str, id: Id) -> DeleteOut:
    """Delete a memory or stored turn for good: its text, search keys and history leave the
    store, and it cannot be undone. Use it when the user asks you to forget something."""
    memory.delete(id, user_id=user)
    return DeleteOut(deleted=id)


def memory_history(memory: Memory, user: str, id: Id) -> HistoryOut:
    """Every change to a memory or stored turn, oldest first: when it was added, updated,
    merged or superseded, with the old and new text."""
    return HistoryOut(entries=[history_out(e) for e in memory.history(id, user_id=user)])
