"""The MCP tool `get_profile`: the user's current picture (`Memory.profile`), lean — the text
within the budget — and the structured values only when asked."""

from typing import Annotated, Any

from pydantic import Field

from dualtrace.memory import Memory
from dualtrace.server.api_profile import render_profile
from dualtrace.server.mcp_shapes import Result


class ProfileOut(Result):
    text: str = Field(description="what we know about the user now: dated, sourced lines")
    tokens: int = Field(description="the text's size in tokens (at most max_tokens)")
    values: list[dict[str, Any]] = Field(
        default_factory=list, description="with details: each current value, its date and turns"
    )
    people: list[dict[str, Any]] = Field(
        default_factory=list, description="with details: other people's values, with whose"
    )
    goals: list[dict[str, Any]] = Field(default_factory=list, description="with details")
    tasks: list[dict[str, Any]] = Field(default_factory=list, description="with details")
    references: dict[str, str] = Field(
        default_factory=dict, description="with details: each label ([2]) -> the turn's id"
    )

    def as_text(self) -> str:
        """The block itself, what the model puts in its prompt (or that nothing is known)."""
        if not self.values and not self.people and not self.references:
            return self.text or "Nothing is known about this user yet."
        return super().as_text()


def get_profile(
    memory: Memory,
    user: str,
    max_tokens: Annotated[int, Field(ge=1, le=32_000, description="token budget")] = 500,
    as_of: Annotated[str | None, Field(description="what held then (ISO 8601)")] = None,
    history: Annotated[bool, Field(description="also what each value replaced")] = False,
    details: Annotated[
        bool, Field(description="also the structured values and what each [label] cites")
    ] = False,
) -> ProfileOut:
    """Who the user is now: where they live, work, their pets, diet, languages… each current
    value dated and sourced, with their open goals and tasks and the last session's summary,
    ready to put at the top of your prompt.

    Call it at the start of a conversation. Replaced values are left out (`history` lists
    them); `as_of` reads the past. With `details`, the structured values too.
    """
    found = memory.profile(user, as_of=as_of, max_tokens=max_tokens, history=history)
    if not details:
        return ProfileOut(text=found.text, tokens=found.tokens)
    body = render_profile(found)
    return ProfileOut(
        text=found.text,
        tokens=found.tokens,
        values=body["values"],
        people=body["people"],
        goals=body["goals"],
        tasks=body["tasks"],
        references=dict(found.references),
    )
