"""Checks of the values callers pass on every path (ids, times, text, metadata, flags): a
clear ValidationError that names the value and the fix, before anything is stored."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any, TypeGuard

from dualtrace.errors import ValidationError

MAX_ID_CHARS = 256
# Ids of history entries are SQLite integers.
MAX_EVENT_ID = 2**63 - 1
# Times are stored in UTC; the range leaves room for the date arithmetic of the read path
# ("a week before", idle timeouts) without running off Python's calendar (years 1 to 9999).
EARLIEST = datetime(1000, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)
# Unicode categories that show nothing: controls (NUL), format marks (zero-width space,
# joiners, BOM), separators and unassigned code points.
_INVISIBLE = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Zs", "Zl", "Zp"})


def check_user_id(user_id: object) -> str:
    """A non-empty user id of reasonable length."""
    if not isinstance(user_id, str) or not visible(user_id):
        raise ValidationError(
            f"user_id={user_id!r} is not valid: every call needs a non-empty string user_id, "
            "e.g. user_id='alice'"
        )
    if len(user_id) > MAX_ID_CHARS:
        raise ValidationError(f"user_id is {len(user_id)} characters; the limit is {MAX_ID_CHARS}")
    return check_encodable(user_id, "user_id")


def check_optional_id(name: str, value: object) -> str | None:
    """An optional string id (session_id, agent_id)."""
    if value is None:
        return None
    if not isinstance(value, str) or not visible(value) or len(value) > MAX_ID_CHARS:
        raise ValidationError(
            f"{name}={_short(value)} is not valid: pass a non-empty string of at most "
            f"{MAX_ID_CHARS} characters, or None"
        )
    return check_encodable(value, name)


def check_record_id(value: object, name: str = "id") -> str:
    """The id of a stored episode or memory (as `add`, `get_all` or `search` return it)."""
    if not isinstance(value, str) or not visible(value):
        raise ValidationError(
            f"{name}={_short(value)} is not a record id: pass one id string such as "
            "'ep_…' or 'mem_…' (list a user's ids with get_all)"
        )
    return check_encodable(value, name)


def check_event_id(value: object) -> int:
    """The id of a history entry (an int, as `history()` lists it)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(f"event_id={_short(value)} must be a history entry id (an int)")
    if not 1 <= value <= MAX_EVENT_ID:
        raise ValidationError(
            f"event_id={_short(value)} is not a history entry id: ids run from 1 to "
            f"{MAX_EVENT_ID}; take one from history(id, user_id=...)"
        )
    return value


def check_flag(name: str, value: object) -> bool:
    """A yes/no argument: True or False, never a string such as "no" that reads as true."""
    if not isinstance(value, bool):
        raise ValidationError(f"{name}={_short(value)} must be True or False")
    return value


def is_count(value: object, *, least: int = 1, most: int = MAX_EVENT_ID) -> TypeGuard[int]:
    """Whether `value` is an int from `least` to `most`; never a bool (True is an int to
    Python, and would pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def check_count(name: str, value: object, most: int = MAX_EVENT_ID, *, fix: str = "") -> int:
    """A positive int (a batch size, a limit), at most `most`; `fix` ends the message. The one
    wording of a limit on every surface: "limit=501 must be an integer from 1 to 500"."""
    if not is_count(value, most=most):
        bound = "a positive integer" if most == MAX_EVENT_ID else f"an integer from 1 to {most}"
        advice = f"; {fix}" if fix else ""
        raise ValidationError(f"{name}={_short(value)} must be {bound}{advice}")
    return value


def check_encodable(value: str, field: str) -> str:
    """`value` as given, if every backend can store it: valid UTF-8 (no lone surrogates)
    and no NUL character (PostgreSQL's text and jsonb cannot hold one; SQLite could, so
    both refuse it alike)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValidationError(
            f"{field} is not valid UTF-8 (at position {exc.start}: "
            f"{_short(value[exc.start : exc.end])}); decode the source with the right encoding"
        ) from exc
    if "\x00" in value:
        raise ValidationError(
            f"{field}={_short(value)} contains a NUL character (at position "
            f"{value.index(chr(0))}), which the store cannot hold; remove it"
        )
    return value


def parse_time(value: object, *, field: str = "timestamp") -> datetime:
    """A timezone-aware datetime from a datetime, date, ISO-8601 string or Unix seconds.

    Naive values are taken as UTC. A time outside years 1000 to 9000 (in UTC) is refused.
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
                f"{field}={_short(value)} is not a valid timestamp; use ISO 8601 such as "
                "'2026-03-02T19:10:00+08:00', a datetime, or Unix seconds"
            ) from exc
    else:
        raise ValidationError(
            f"{field}={_short(value)} has type {type(value).__name__}; use an ISO-8601 "
            "string, a datetime, or Unix seconds"
        )
    parsed = parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return _in_range(parsed, value, field)


def _in_range(parsed: datetime, value: object, field: str) -> datetime:
    message = (
        f"{field}={_short(value)} is outside the supported range: times from "
        f"{EARLIEST.date()} to {LATEST.date()} (UTC) are stored; check the year"
    )
    try:
        in_utc = parsed.astimezone(UTC)
    except (OverflowError, ValueError) as exc:  # 0001-01-01T00:00+01:00 is year 0 in UTC
        raise ValidationError(message) from exc
    if not EARLIEST <= in_utc < LATEST:
        raise ValidationError(message)
    return parsed


def check_text(value: object, *, field: str, max_chars: int) -> str:
    """Non-empty, valid UTF-8 text within the size limit (invisible characters alone, such
    as zero-width spaces or NULs, are empty)."""
    if not isinstance(value, str):
        raise ValidationError(
            f"{field} must be a string, got {type(value).__name__} ({_short(value)})"
        )
    if not visible(value):
        raise ValidationError(
            f"{field} is empty (it holds only spaces or invisible characters such as "
            "zero-width spaces or NULs); pass the text of the message"
        )
    check_encodable(value, field)
    if len(value) > max_chars:
        raise ValidationError(
            f"{field} is {len(value)} characters; the limit is {max_chars}: split it into "
            "several messages or raise MemoryConfig.max_message_chars"
        )
    return value


# A memory (a fact or a scene) is a sentence or a paragraph, at most this long.
MAX_MEMORY_CHARS = 32_000
# A question is a sentence or a paragraph: one longer than this is a mistake (a document
# pasted as the query), and every channel's cost grows with it. Messages may be far longer.
MAX_QUERY_CHARS = 32_000


def check_query(value: object, max_chars: int) -> str:
    """A search or context query: text, at most `MAX_QUERY_CHARS` (or `max_chars`, if less)."""
    limit = min(max_chars, MAX_QUERY_CHARS)
    query = check_text(value, field="query", max_chars=max(max_chars, MAX_QUERY_CHARS))
    if len(query) > limit:
        raise ValidationError(
            f"query is {len(query)} characters; the limit is {limit}: ask with the question "
            "itself, not the document it is about"
        )
    return query


def visible(value: str) -> bool:
    """Whether the string shows anything (a character that is not space or invisible)."""
    return any(unicodedata.category(ch) not in _INVISIBLE for ch in value)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_external_id(value: object, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() < 64:
        return str(value)  # a number as a message id is common; a huge one is no id
    if not isinstance(value, str) or not visible(value) or len(value) > MAX_ID_CHARS:
        raise ValidationError(
            f"{where}.id={_short(value)} must be a non-empty string (at most {MAX_ID_CHARS} "
            "characters)"
        )
    return check_encodable(value, f"{where}.id")


def check_metadata(value: object, field: str, max_chars: int | None = None) -> dict[str, Any]:
    """A JSON object of string keys (None gives an empty one) that round-trips unchanged:
    no NaN or infinity, no lone surrogates, at most `max_chars` characters as JSON."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValidationError(f"{field} must be a dict, got {type(value).__name__}")
    _check_keys(value, field, field, depth=0)
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValidationError(
            f"{field} is not JSON-serialisable: {exc}; use strings, numbers, booleans, None, "
            "lists and dicts"
        ) from exc
    check_encodable(text, field)
    if max_chars is not None and len(text) > max_chars:
        raise ValidationError(
            f"{field} is {len(text)} characters as JSON; the limit is {max_chars}: store "
            "large data elsewhere and keep a reference in metadata"
        )
    return dict(value)


def _check_keys(value: object, root: str, field: str, depth: int) -> None:
    """Keys of every nested dict are strings (JSON would turn 1 into "1" silently); no
    key or string holds a NUL or a lone surrogate."""
    if depth > 64:
        raise ValidationError(f"{root} is nested more than 64 levels deep; flatten it")
    if isinstance(value, str):
        check_encodable(value, field)
    elif isinstance(value, Mapping):
        for key, inner in value.items():
            if not isinstance(key, str):
                raise ValidationError(
                    f"{_short(field)} has the key {_short(key)} of type "
                    f"{type(key).__name__}; metadata keys must be strings"
                )
            check_encodable(key, f"{field} key")
            _check_keys(inner, root, f"{field}[{key!r}]", depth + 1)
    elif isinstance(value, list | tuple):
        for n, inner in enumerate(value):
            _check_keys(inner, root, f"{field}[{n}]", depth + 1)


def check_filters(value: object) -> dict[str, Any]:
    """Metadata filters of a read: string keys, JSON values (None matches a stored null)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValidationError(f"filters must be a dict of metadata key → value, got {value!r}")
    return check_metadata(value, "filters")
