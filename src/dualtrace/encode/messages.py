"""Validation of what callers hand to `Memory.add`: clear errors, nothing half-stored."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from dualtrace.errors import ValidationError
from dualtrace.inputs import (
    check_encodable,
    check_external_id,
    check_metadata,
    check_text,
    parse_time,
)
from dualtrace.models import Message

MESSAGE_KEYS = frozenset({"content", "role", "name", "timestamp", "id", "metadata"})
ROLES = frozenset({"user", "assistant", "system", "tool"})


def normalise_messages(
    messages: object, *, default_time: datetime, max_chars: int
) -> list[Message]:
    """Turn a string, a message dict, or a list of them into validated Messages."""
    if isinstance(messages, str):
        items: list[Any] = [{"content": messages}]
    elif isinstance(messages, Mapping):
        items = [messages]
    elif isinstance(messages, list | tuple):
        items = list(messages)
    else:
        raise ValidationError(
            f"messages has type {type(messages).__name__}; pass a string or a list of "
            "{'content': ..., 'role': ...} dicts"
        )
    if not items:
        raise ValidationError("messages is empty; pass at least one message")
    return [_message(item, i, default_time, max_chars) for i, item in enumerate(items)]


def _message(item: object, index: int, default_time: datetime, max_chars: int) -> Message:
    where = f"messages[{index}]"
    if isinstance(item, str):
        item = {"content": item}
    if not isinstance(item, Mapping):
        raise ValidationError(f"{where} is a {type(item).__name__}; use a dict with 'content'")
    unknown = sorted(set(item) - MESSAGE_KEYS)
    if unknown:
        raise ValidationError(
            f"{where} has unknown keys {unknown}; allowed keys are {sorted(MESSAGE_KEYS)} "
            "(put anything else under 'metadata')"
        )
    content = check_text(item.get("content"), field=f"{where}.content", max_chars=max_chars)
    role = item.get("role", "user")
    if not isinstance(role, str) or role not in ROLES:
        raise ValidationError(f"{where}.role={role!r} is unknown; use one of {sorted(ROLES)}")
    name = item.get("name")
    if name is not None:
        if not isinstance(name, str) or not name.strip() or len(name) > max_chars:
            raise ValidationError(f"{where}.name={name!r} must be a non-empty string or absent")
        check_encodable(name, f"{where}.name")
    when = item.get("timestamp")
    occurred = default_time if when is None else parse_time(when, field=f"{where}.timestamp")
    return Message(
        content=content,
        role=role,
        name=name,
        occurred_at=occurred,
        external_id=check_external_id(item.get("id"), where),
        metadata=check_metadata(item.get("metadata"), f"{where}.metadata", max_chars),
    )
