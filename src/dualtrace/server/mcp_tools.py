"""The MCP tools: one user's memory as tools a model can call, over stdio or streamable HTTP.

Each tool makes one `Memory` call for the user the transport names (`--user` on stdio, the
API key over HTTP) and returns a lean structured result (`mcp_shapes`), with its text
content beside it. A `DualtraceError` becomes a tool error that carries its message (never
a traceback), pointing at the tools the model has (`mcp_errors`).

    server = build_mcp_server(memory, lambda ctx: "alice")
    server.run("stdio")
"""

import functools
import inspect
import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import AliasChoices, Field

from dualtrace.memory import Memory
from dualtrace.recall.browse import MAX_PAGE
from dualtrace.recall.search import MAX_LIMIT
from dualtrace.server.mcp_errors import ToolServer, tool_errors
from dualtrace.server.mcp_profile import get_profile
from dualtrace.server.mcp_shapes import (
    AddOut,
    ContextOut,
    DoneOut,
    EventOut,
    HistoryOut,
    ListOut,
    RecordOut,
    Result,
    SearchOut,
    history_out,
    hit_out,
    record_out,
)

log = logging.getLogger(__name__)

# The user a call acts for, found from the request's context (raises ToolError if none).
UserOf = Callable[[Context], str]
#: Who history and the audit log name for a call's changes (an API key: "key:<id>"); None:
#: the store's configured actor.
ActorOf = Callable[[Context], str | None]
_ACTOR: ContextVar[str | None] = ContextVar("dualtrace_mcp_actor", default=None)

# models.ITEM_KINDS, written out for the schema (tests/server/test_mcp_tools.py keeps them equal)
MemoryKind = Literal[
    "episode", "fact", "preference", "event", "episode_chunk", "summary", "goal", "task"
]

INSTRUCTIONS = """\
Long-term memory of one user, kept by dualtrace. Every turn you store is kept word for word
(an "episode"); facts, preferences and events are derived from it ("memories"), dated, and
superseded when they change. At the start of a conversation, call get_context without a query
for who the user is now; call it with the question before answering anything that may depend
on what the user said before; call add_memory with what the user tells you worth keeping.
Ids look like 'ep_…' (a stored turn) or 'mem_…' (a derived memory)."""


# -- the server ------------------------------------------------------------------------------

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
# add_memory repeats a turn unless it carries a message_id: not idempotent in general
_ADD = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
_CHANGE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)
_DELETE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False
)

Id = Annotated[str, Field(description="a record id: 'ep_…' or 'mem_…'", min_length=1)]
Time = Annotated[
    str | None,
    Field(description="ISO 8601 date or time, e.g. '2026-03-02' or '2026-03-02T19:10:00+08:00'"),
]


def build_mcp_server(
    memory: Memory, user_of: UserOf, *, name: str = "dualtrace", actor_of: ActorOf | None = None
) -> MCPServer:
    """An MCP server whose tools act on `memory` for the user `user_of(ctx)` names; their
    changes are recorded as made by `actor_of(ctx)`."""
    # The SDK's constructor calls logging.basicConfig (a Rich handler on the root logger);
    # logging belongs to the application that embeds us, so the root logger is put back.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    server = ToolServer(
        name, title="dualtrace memory", instructions=INSTRUCTIONS, log_level="WARNING"
    )
    root.handlers[:] = handlers
    root.setLevel(level)
    for tool, annotations, title in TOOLS:
        server.add_tool(
            _bind(tool, memory, user_of, actor_of),
            name=tool.__name__,
            title=title,
            description=tool.__doc__,
            annotations=annotations,
            structured_output=True,
        )
    return server


def _bind(
    tool: Callable[..., Result], memory: Memory, user_of: UserOf, actor_of: ActorOf | None
) -> Callable[..., Any]:
    """The tool with `memory` and the caller's user filled in: its signature, minus those
    two, plus the SDK's `ctx`, is what the input schema is built from. It answers a
    `CallToolResult` whose text content is the result's own (`Result.as_text`), not the
    whole JSON the SDK would write; the output schema is still the result's model."""

    @functools.wraps(tool)
    def call(*args: Any, ctx: Context, **kwargs: Any) -> CallToolResult:
        user = user_of(ctx)
        token = _ACTOR.set(None if actor_of is None else actor_of(ctx))
        try:
            with tool_errors(tool.__name__):
                result = tool(memory, user, *args, **kwargs)
        finally:
            _ACTOR.reset(token)
        return CallToolResult(
            content=[TextContent(type="text", text=result.as_text())],
            structured_content=result.as_structured(),
        )

    signature = inspect.signature(tool)
    params = list(signature.parameters.values())[2:]
    ctx_param = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)
    returns = Annotated[CallToolResult, signature.return_annotation]
    call.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*params, ctx_param], return_annotation=returns
    )
    call.__annotations__ = {**tool.__annotations__, "ctx": Context, "return": returns}
    return call


Details = Annotated[
    bool,
    Field(description="also each record's scene, session and source turns in full"),
]
Kinds = Annotated[
    list[MemoryKind] | None,
    Field(description="only these kinds ('episode': the stored turns); default: every kind"),
]


def add_memory(
    memory: Memory,
    user: str,
    text: Annotated[
        str,
        Field(
            description="what was said, word for word ('content' is accepted too)",
            min_length=1,
            validation_alias=AliasChoices("text", "content"),
        ),
    ],
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
    message: dict[str, Any] = {"role": role, "content": text}
    if speaker is not None:
        message["name"] = speaker
    if message_id is not None:
        message["id"] = message_id
    res = memory.add(
        [message], user_id=user, session_id=session_id, timestamp=timestamp, actor=_ACTOR.get()
    )
    events = [EventOut(memory_id=i, event=e, text=t) for i, e, t in res.events]
    return AddOut(episodes=res.episodes, events=events, warnings=res.warnings)


def search_memory(
    memory: Memory,
    user: str,
    query: Annotated[str, Field(description="what to look for, in words", min_length=1)],
    limit: Annotated[
        int, Field(description=f"most hits to return, 1 to {MAX_LIMIT}", examples=[10])
    ] = 10,
    kinds: Kinds = None,
    as_of: Annotated[
        str | None, Field(description="only what was true and known then (ISO 8601)")
    ] = None,
    details: Details = False,
    explain: Annotated[bool, Field(description="add each channel's score to every hit")] = False,
) -> SearchOut:
    """Search the user's stored turns and memories; returns ranked hits, best first: each
    hit's id, kind, text, date and score, and for a derived memory the ids of the turns it
    came from (source_ids). `details` adds scene and source turns in full.

    Use it to find specific records (to cite, correct or delete them). To answer a question
    from memory, prefer get_context, which returns a prompt-ready block.
    """
    hits = memory.search(
        query,
        user_id=user,
        limit=limit,
        as_of=as_of,
        kinds=list(kinds) if kinds else None,
        explain=explain,
    )
    return SearchOut(hits=[hit_out(h, details, explain) for h in hits])


StartQuery = Annotated[
    str | None,
    Field(
        description="the question or topic to recall for; omit it at the start of a "
        "conversation for who the user is (profile, open goals and tasks, last summary)",
        min_length=1,
    ),
]
LeadWithProfile = Annotated[
    bool | None,
    Field(
        description="lead with the user's profile, open goals and tasks and last summary "
        "(default: only without a query); false: never"
    ),
]


def get_context(
    memory: Memory,
    user: str,
    query: StartQuery = None,
    max_tokens: Annotated[int, Field(ge=1, le=32_000, description="token budget")] = 1000,
    session_id: Annotated[str | None, Field(description="only this conversation")] = None,
    as_of: Annotated[
        str | None, Field(description="only what was true and known then (ISO 8601)")
    ] = None,
    details: Annotated[
        bool,
        Field(
            description="also the items behind the text (ids, scores, source turns) and the "
            "stored turn id of each label it cites; off, the result fits max_tokens"
        ),
    ] = False,
    profile: LeadWithProfile = None,
) -> ContextOut:
    """What the user's memory says about a question, as dated and sourced lines that fit a
    token budget, ready to put in your prompt.

    Call it before answering anything that may depend on earlier conversations (where the
    user lives, what they prefer, what happened when). Current values lead; values that
    were superseded are left out or marked. Returns the text and its size; with `details`,
    the items behind it and what each [label] cites (ids get_memory reads). Without a
    query (a conversation starting) it is who the user is now: their profile, open goals
    and tasks and the last session's summary.
    """
    ctx = memory.context(
        query,
        user_id=user,
        max_tokens=max_tokens,
        session_id=session_id,
        as_of=as_of,
        profile=profile,
    )
    hint = None
    if not ctx.text and query is None:
        hint = "nothing is known about this user yet (no profile values, goals or tasks)"
    elif not ctx.text and query is not None:
        hint = _empty_context_hint(memory, user, query, max_tokens, session_id, as_of)
    if not details:
        return ContextOut(text=ctx.text, tokens=ctx.tokens, hint=hint)
    return ContextOut(
        text=ctx.text,
        tokens=ctx.tokens,
        hint=hint,
        items=[hit_out(h, details=True) for h in ctx.items],
        references=dict(ctx.references),
    )


def _empty_context_hint(
    memory: Memory,
    user: str,
    query: str,
    max_tokens: int,
    session_id: str | None,
    as_of: str | None,
) -> str:
    """Why a context is empty: nothing matches, or the budget is too small for any item."""
    found = memory.search(
        query, user_id=user, limit=1, session_id=session_id, as_of=as_of, reinforce=False
    )
    if found:
        return (
            f"no memory fits in max_tokens={max_tokens}; call get_context again with a larger "
            "max_tokens (e.g. 1000)"
        )
    return "nothing in this user's memory matches the query"


def list_memories(
    memory: Memory,
    user: str,
    limit: Annotated[
        int, Field(description=f"most records to return, 1 to {MAX_PAGE}", examples=[50])
    ] = 50,
    kinds: Kinds = None,
    include_invalid: Annotated[
        bool, Field(description="also memories that were superseded or archived")
    ] = False,
    cursor: Annotated[
        str | None, Field(description="the next_cursor of the previous page, for the next one")
    ] = None,
    details: Details = False,
) -> ListOut:
    """List the user's stored turns and memories, newest first, a page at a time: each
    record's id, kind, text and date (`kinds` narrows it, e.g. ['fact', 'preference']).

    Use it to review what is remembered about the user; to find something specific, use
    search_memory.
    """
    page = memory.get_page(
        user_id=user,
        kinds=list(kinds) if kinds else None,
        include_invalid=include_invalid,
        limit=limit,
        cursor=cursor,
    )
    return ListOut(items=[record_out(i, details) for i in page.items], next_cursor=page.next_cursor)


def get_memory(memory: Memory, user: str, id: Id) -> RecordOut:
    """One stored turn or memory by id, with its validity, what superseded it and the turns
    it came from."""
    return record_out(memory.get(id, user_id=user), details=True)


def update_memory(
    memory: Memory,
    user: str,
    id: Id,
    text: Annotated[str, Field(description="the corrected text, in full", min_length=1)],
) -> RecordOut:
    """Replace the text of a memory or stored turn, e.g. when the user corrects a fact you
    remembered wrongly. The old text stays in its history: memory_history lists the
    change, and undo_change with that entry's id puts the old text back. For a value that
    changed in the world ("I moved"), prefer add_memory: the new value then supersedes the
    old one and both stay dated."""
    return record_out(memory.update(id, text, user_id=user, actor=_ACTOR.get()), details=True)


def delete_memory(memory: Memory, user: str, id: Id) -> DoneOut:
    """Delete a memory or stored turn for good: its text, search keys and history leave the
    store, and it cannot be undone. Use it when the user asks you to forget something."""
    memory.delete(id, user_id=user, actor=_ACTOR.get())
    return DoneOut(deleted=id)


def memory_history(memory: Memory, user: str, id: Id) -> HistoryOut:
    """Every change to a memory or stored turn, oldest first: when it was added, updated,
    merged or superseded, with the old and new text. Each entry's id is what undo_change
    takes."""
    return HistoryOut(entries=[history_out(e) for e in memory.history(id, user_id=user)])


def undo_change(
    memory: Memory,
    user: str,
    entry_id: Annotated[int, Field(description="a history entry's id (from memory_history)")],
) -> DoneOut:
    """Undo one change from a record's history: an UPDATE puts the old text back; a
    SUPERSEDE makes the old value valid again; an ADD of a derived memory deletes it; a
    MERGE splits the merged value out again; a REINFORCE drops the repeat. Use it when a
    correction or a derived memory was wrong."""
    memory.revert(entry_id, user_id=user, actor=_ACTOR.get())
    return DoneOut(deleted=None)


TOOLS: tuple[tuple[Callable[..., Result], ToolAnnotations, str], ...] = (
    (add_memory, _ADD, "Remember"),
    (search_memory, _READ, "Search memory"),
    (get_context, _READ, "Get memory context"),
    (list_memories, _READ, "List memories"),
    (get_memory, _READ, "Get a memory"),
    (update_memory, _CHANGE, "Correct a memory"),
    (delete_memory, _DELETE, "Delete a memory"),
    (memory_history, _READ, "Memory history"),
    (undo_change, _DELETE, "Undo a change"),
    (get_profile, _READ, "Get the user's profile"),
)
