"""Checks of the values callers pass on every path (ids, times, text, metadata): a clear
ValidationError that names the value and the fix, before anything is stored."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from dualtrace.errors import ValidationError

MAX_ID_CHARS = 256


def check_user_id(user_id: object) -> str:
    """A non-empty user id of reasonable length."""
    if not isinstance(user_id, str) or not user_id.strip():
        raise ValidationError(
            f"user_id={user_id!r} is not valid: every call needs a non-empty string user_id, "
            "e.g. user_id='alice'"
        )
    if len(user_id) > MAX_ID_CHARS:
        raise ValidationError(f"user_id is {len(user_id)} characters; the limit is {MAX_ID_CHARS}")
    return user_id


def check_optional_id(name: str, value: object) -> str | None:
    """An optional string id (session_id, agent_id)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID_CHARS:
        raise ValidationError(
            f"{name}={value!r} is not valid: pass a non-empty string of at most "
            f"{MAX_ID_CHARS} characters, or None"
        )
    return value


def parse_time(value: object, *, field: str = "timestamp") -> datetime:
    """A timezone-aware datetime from a datetime, date, ISO-8601 string or Unix seconds.

    Naive values are taken as UTC.
    """
    parsed: datetime
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, date):
        parsed = datetime(value.year, value.month, value.day)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        try:
            parsed = datetime.fromtimestamp(float(value), tz=UTC)
        except (OverflowError, OSError, ValueError) as exc:
            raise ValidationError(f"{field}={value!r} is out of range for Unix seconds") from exc
    elif isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError as exc:
            raise ValidationError(
                f"{field}={value!r} is not a valid timestamp; use ISO 8601 such as "
                "'2026-03-02T19:10:00+08:00', a datetime, or Unix seconds"
            ) from exc
    else:
        raise ValidationError(
            f"{field}={value!r} has type {type(value).__name__}; use an ISO-8601 string, "
            "a datetime, or Unix seconds"
        )
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def check_text(value: object, *, field: str, max_chars: int) -> str:
    """Non-empty, valid UTF-8 text within the size limit."""
    if not isinstance(value, str):
        raise ValidationError(
            f"{field} must be a string, got {type(value).__name__} ({_short(value)})"
        )
    if not value.strip():
        raise ValidationError(f"{field} is empty; pass the text of the message")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValidationError(
            f"{field} is not valid UTF-8 (at position {exc.start}: "
            f"{_short(value[exc.start : exc.end])}); decode the source with the right encoding"
        ) from exc
    if len(value) > max_chars:
        raise ValidationError(
            f"{field} is {len(value)} characters; the limit is {max_chars}: split it into "
            "several messages or raise MemoryConfig.max_message_chars"
        )
    return value


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_external_id(value: object, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID_CHARS:
        raise ValidationError(
            f"{where}.id={value!r} must be a non-empty string (at most {MAX_ID_CHARS} characters)"
        )
    return value


def check_metadata(value: object, field: str) -> dict[str, Any]:
    """A JSON-serialisable dict (None gives an empty one)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValidationError(f"{field} must be a dict, got {type(value).__name__}")
    try:
        json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"{field} is not JSON-serialisable: {exc}") from exc
    return dict(value)
