"""The LLM port: chat messages in, one completion (text and token counts) out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = ["LLM", "ChatMessage", "Completion"]


@dataclass(frozen=True)
class ChatMessage:
    """One chat message: `role` is "system", "user" or "assistant"."""

    role: str
    content: str


@dataclass(frozen=True)
class Completion:
    """What the model answered, what it cost in tokens, and which model answered."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    model: str


@runtime_checkable
class LLM(Protocol):
    """Completes a chat; raises `LLMError` (or a subclass) when the provider fails.

    ``id`` names the model, independent of the host serving it (e.g. ``openai:qwen3:8b``).
    ``json_schema`` asks for JSON output matching the schema where the provider supports it;
    callers must still validate what comes back.

    Example::

        completion = llm.complete([ChatMessage("user", "Say hi")], max_tokens=16)
        print(completion.text, completion.prompt_tokens)
    """

    @property
    def id(self) -> str: ...

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int = 1024,
        temperature: float = 0.0,
    ) -> Completion:
        """Send the messages and return the model's answer."""
        ...
