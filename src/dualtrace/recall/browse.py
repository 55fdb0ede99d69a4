"""Browsing a user's memory page by page: turns in conversation order with the memories
derived from each, records newest first, and everything stored about one memory.

Cursors are opaque to callers: a URL-safe base64 of the last row's sort key, so a page
never skips or repeats a row while others write.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime
from typing import Any

from dualtrace.config import MemoryConfig
from dualtrace.errors import ValidationError
from dualtrace.inputs import check_count, check_flag, check_optional_id, check_user_id
from dualtrace.models import Item, MemoryDetail, Page, Turn
from dualtrace.recall.items import load_item, load_items
from dualtrace.recall.search import search_scope
from dualtrace.store.ports.reads import BrowseReads

MAX_PAGE = 500


def encode_cursor(*key: Any) -> str:
    """An opaque cursor for a row's sort key (datetimes as ISO 8601)."""
    parts = [k.isoformat() if isinstance(k, datetime) else k for k in key]
    return base64.urlsafe_b64encode(json.dumps(parts).encode()).decode().rstrip("=")


def decode_cursor(cursor: str, types: tuple[type, ...]) -> tuple[Any, ...]:
    """The sort key in a cursor made by `encode_cursor`; ValidationError if it is not one."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        parts = json.loads(raw)
        if not isinstance(parts, list) or len(parts) != len(types):
            raise ValueError("wrong length")
        key = tuple(
            datetime.fromisoformat(p) if t is datetime else p
            for p, t in zip(parts, types, strict=True)
        )
        if not all(isinstance(k, t) for k, t in zip(key, types, strict=True)):
            raise ValueError("wrong types")
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError) as exc:
        raise ValidationError(
            f"cursor={cursor[:60]!r} is not a cursor this listing gave; pass the "
            "`next_cursor` of the previous page, or none for the first page"
        ) from exc
    return key


def _limit(limit: int) -> int:
    return check_count("limit", limit, MAX_PAGE)


def turns_page(
    store: BrowseReads, user_id: str, *, session_id: str | None, limit: int, cursor: str | None
) -> Page:
    """A page of the user's turns, oldest first, each with its valid derived memories."""
    user_id, limit = check_user_id(user_id), _limit(limit)
    session_id = check_optional_id("session_id", session_id)
    after = None if cursor is None else decode_cursor(cursor, (datetime, str, int, str))
    episodes = store.episode_page(user_id, session_id, after, limit + 1)
    more = len(episodes) > limit
    episodes = episodes[:limit]
    derived = store.derived_memory_ids(user_id, [e.id for e in episodes])
    turns = [Turn(e, tuple(derived.get(e.id, ()))) for e in episodes]
    last = episodes[-1] if more else None
    next_cursor = (
        None
        if last is None
        else encode_cursor(last.occurred_at, last.session_id or "", last.seq, last.id)
    )
    return Page(items=turns, next_cursor=next_cursor)


def records_page(
    store: BrowseReads,
    user_id: str,
    *,
    kinds: tuple[str, ...] | None,
    include_invalid: bool,
    limit: int,
    cursor: str | None,
) -> Page:
    """A page of the user's episodes and memories, newest first (as `Memory.get_all`)."""
    user_id, limit = check_user_id(user_id), _limit(limit)
    after = None if cursor is None else decode_cursor(cursor, (datetime, str))
    rows = store.record_page(user_id, kinds, include_invalid, limit + 1, after)
    more = len(rows) > limit
    rows = rows[:limit]
    items = load_items(store, user_id, [r[0] for r in rows])
    next_cursor = encode_cursor(rows[-1][1], rows[-1][0]) if more else None
    return Page(items=[items[i] for i, _ in rows if i in items], next_cursor=next_cursor)


def memory_detail(store: BrowseReads, user_id: str, record_id: str) -> MemoryDetail:
    """Everything stored about one record (NotFoundError if this user has none)."""
    item = load_item(store, user_id, record_id)
    if item.kind == "episode":
        return MemoryDetail(item=item)
    record = store.get_memories(user_id, [record_id])[record_id]
    entities, links = store.memory_graph(user_id, record_id)
    return MemoryDetail(
        item=item,
        subject=record.subject,
        predicate=record.predicate,
        object=record.object,
        topic=record.topic,
        entities=[{"name": e.name, "type": e.type} for e in entities],
        links=[{"id": other, "kind": kind, "weight": weight} for other, kind, weight in links],
        supersedes=[e.record_id for e in store.superseded_by(user_id, record_id)],
    )


def all_records(
    store: BrowseReads,
    config: MemoryConfig,
    user_id: str,
    kinds: object,
    *,
    include_invalid: object,
    limit: object,
) -> list[Item]:
    """The user's episodes and memories, newest first (`Memory.get_all`; arguments checked)."""
    user_id = check_user_id(user_id)
    include_invalid = check_flag("include_invalid", include_invalid)
    scope = search_scope(config, None, None, kinds, None, None)
    if limit is not None:
        limit = check_count("limit", limit)
    ids = store.list_records(user_id, scope.kinds, include_invalid, limit)
    items = load_items(store, user_id, ids)
    return [items[i] for i in ids if i in items]
