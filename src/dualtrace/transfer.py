"""Export a user's data as JSON-ready records, and import messages or exported records."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

from dualtrace.encode.intake import Intake
from dualtrace.encode.messages import MESSAGE_KEYS
from dualtrace.errors import ValidationError
from dualtrace.inputs import check_external_id, check_optional_id, parse_time
from dualtrace.models import MEMORY_KINDS, AddResult, MemoryRecord
from dualtrace.store.ports.memory_writes import MemoryWrites
from dualtrace.store.ports.reads import RecordReads
from dualtrace.store.ports.records import IndexEntry

# Memory.add: stores messages (and derives memories unless extract is False); with
# `episode_ids`, the id each new turn takes, by message id
AddMessages = Callable[..., AddResult]
MemoryKeys = Callable[[str, MemoryRecord], list[IndexEntry]]


class ImportStore(RecordReads, MemoryWrites, Protocol):
    """What an import reads and writes: turns by external id, records, new memories."""


ROUTING_KEYS = frozenset({"type", "session_id", "agent_id", "episode_id"})
MEMORY_FIELDS = (
    "kind",
    "text",
    "scene",
    "subject",
    "predicate",
    "object",
    "topic",
    "importance",
    "confidence",
    "session_id",
    "metadata",
)
MEMORY_TIMES = ("valid_from", "valid_to", "invalidated_at", "expire_at")
MEMORY_KEYS = frozenset(
    {"type", "id", *MEMORY_FIELDS, *MEMORY_TIMES, "sources", "superseded_by", "archived"}
)
RECORD_TYPES = (None, "episode", "message", "memory")


def export_user(store: RecordReads, user_id: str) -> Iterator[dict[str, Any]]:
    """Episodes (oldest first) as message records, then memories citing them by id."""
    for e in store.iter_episodes(user_id):
        yield {
            "type": "episode",
            "id": e.external_id or e.id,
            "episode_id": e.id,
            "session_id": e.session_id,
            "agent_id": e.agent_id,
            "role": e.role,
            "name": e.speaker,
            "content": e.text,
            "timestamp": e.occurred_at.isoformat(),
            "metadata": e.metadata,
        }
    episodes = {e.id: e.external_id or e.id for e in store.iter_episodes(user_id)}
    memory_ids = store.list_records(user_id, MEMORY_KINDS, True, None)
    for m in store.get_memories(user_id, memory_ids).values():
        record: dict[str, Any] = {"type": "memory", "id": m.id}
        record.update({f: getattr(m, f) for f in MEMORY_FIELDS})
        for f in MEMORY_TIMES:
            value = getattr(m, f)
            record[f] = None if value is None else value.isoformat()
        record["sources"] = [episodes[s] for s in m.source_episode_ids if s in episodes]
        record["superseded_by"] = m.superseded_by  # an exported id, like "id"
        record["archived"] = m.archived
        yield record


def import_records(
    records: Iterable[dict[str, Any]],
    user_id: str,
    *,
    store: ImportStore,
    add: AddMessages,
    memory_keys: MemoryKeys,
    intake: Intake,
    actor: str,
    batch: int = 256,
    progress: Callable[[int], None] | None = None,
    renamed: Callable[[str, str], None] | None = None,
) -> int:
    """Check every record, then add messages in batches per session, then memories.

    Nothing is stored unless every record is valid. Returns how many rows are new;
    `progress` is called with the number of records handled after each batch. A turn or a
    memory keeps its exported id unless another user's record holds it; then it is stored
    under a new id and `renamed(exported_id, new_id)` is called.
    """
    for name, value in (("progress", progress), ("renamed", renamed)):
        if value is not None and not callable(value):
            raise ValidationError(f"{name}={value!r} must be a function, or None")
    listed = _listed(records)
    messages, memories = _check_all(listed, intake)
    episode_ids = {
        str(r["id"]): str(r["episode_id"])
        for r in listed
        if r.get("type") != "memory" and "id" in r and r.get("episode_id")
    }
    # An export carries its memories: restore them instead of deriving them a second time.
    extract = None if not memories else False
    flush = partial(
        _flush,
        store,
        add,
        user_id=user_id,
        progress=progress,
        extract=extract,
        episode_ids=episode_ids,
        renamed=renamed,
    )
    created = 0
    pending: list[dict[str, Any]] = []
    route: tuple[Any, Any] | None = None
    for key, message in messages:
        if pending and (key != route or len(pending) >= batch):
            created += flush(pending, route)
            pending = []
        route = key
        pending.append(message)
    if pending:
        created += flush(pending, route)
    created += _import_memories(store, memory_keys, actor, memories, user_id, renamed)
    if progress is not None and memories:
        progress(len(memories))
    return created


def _listed(records: object) -> list[Any]:
    if isinstance(records, str | bytes | dict) or not isinstance(records, Iterable):
        raise ValidationError(
            f"records has type {type(records).__name__}; pass a list (or other iterable) "
            'of record dicts such as [{"content": "hi", "role": "user"}]'
        )
    return list(records)


def _check_all(
    records: list[Any], intake: Intake
) -> tuple[list[tuple[tuple[Any, Any], dict[str, Any]]], list[dict[str, Any]]]:
    """Every record checked (and its texts redacted) before anything is written."""
    messages = []
    memories = []
    for n, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise ValidationError(f"record {n} is a {type(record).__name__}; expected an object")
        if record.get("type") not in RECORD_TYPES:
            raise ValidationError(
                f"record {n}: type={record.get('type')!r} is unknown; use 'episode' (or "
                "leave it out) for a message, 'memory' for an exported memory"
            )
        if record.get("type") == "memory":
            try:
                memories.append(_check_memory(record, n, intake))
            except ValidationError as exc:  # it names "memory record N" itself
                raise ValidationError(f"{exc}; nothing was imported") from exc
            continue
        message = _message(record, n)
        try:
            route = (
                check_optional_id("session_id", record.get("session_id")),
                check_optional_id("agent_id", record.get("agent_id")),
            )
            check_optional_id("episode_id", record.get("episode_id"))
            intake.messages([message], default_time=datetime.now(UTC))
        except ValidationError as exc:
            raise ValidationError(f"record {n}: {exc}; nothing was imported") from exc
        messages.append((route, message))
    return messages, memories


def _check_memory(record: dict[str, Any], n: int, intake: Intake) -> dict[str, Any]:
    """A memory record whose fields are all usable, its texts redacted (checked before
    anything is written)."""
    where = f"memory record {n}"
    unknown = sorted(set(record) - MEMORY_KEYS)
    if unknown:
        raise ValidationError(f"{where} has unknown keys {unknown}; allowed: {sorted(MEMORY_KEYS)}")
    if not isinstance(record.get("id"), str | int) or isinstance(record.get("id"), bool):
        raise ValidationError(f"{where} lacks an id; re-export it")
    if not isinstance(record.get("metadata") or {}, dict):
        raise ValidationError(f"{where}: metadata must be an object")
    checked = {**record, "id": check_external_id(record["id"], where)}
    checked.update(intake.memory_fields(record, where))
    kind = record.get("kind", "fact")
    if not isinstance(kind, str) or kind not in MEMORY_KINDS:
        raise ValidationError(f"{where}: kind={kind!r} is not one of {list(MEMORY_KINDS)}")
    for f in ("importance", "confidence"):
        value = record.get(f)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1
        ):
            raise ValidationError(f"{where}: {f}={value!r} must be a number from 0 to 1")
    for f in ("predicate", "session_id", "superseded_by"):
        if record.get(f) is not None:
            checked[f] = check_optional_id(f"{where}.{f}", record[f])
    sources = record.get("sources") or []
    if not isinstance(sources, list):
        raise ValidationError(f"{where}: sources={sources!r} must be a list of message ids")
    checked["sources"] = [check_external_id(s, f"{where}.sources") for s in sources]
    if not isinstance(record.get("archived", False), bool):
        raise ValidationError(f"{where}: archived={record['archived']!r} must be true or false")
    for f in MEMORY_TIMES:
        if record.get(f) is not None:
            checked[f] = parse_time(record[f], field=f"{where}.{f}")
    return checked


def _message(record: dict[str, Any], n: int) -> dict[str, Any]:
    unknown = sorted(set(record) - MESSAGE_KEYS - ROUTING_KEYS)
    if unknown:
        raise ValidationError(
            f"record {n} has unknown keys {unknown}; allowed: "
            f"{sorted(MESSAGE_KEYS | ROUTING_KEYS)}; nothing was imported"
        )
    return {k: v for k, v in record.items() if k in MESSAGE_KEYS and v is not None}


def _flush(
    store: ImportStore,
    add: AddMessages,
    msgs: list[dict[str, Any]],
    route: Any,
    *,
    user_id: str,
    progress: Callable[[int], None] | None,
    extract: bool | None,
    episode_ids: dict[str, str],
    renamed: Callable[[str, str], None] | None,
) -> int:
    """Add one batch of one session's messages; each new turn keeps its exported episode
    id where no record of the store holds it (else it gets a new one, reported)."""
    session_id, agent_id = route
    ids = [str(m["id"]) for m in msgs if "id" in m]
    known = store.episode_ids_by_external(user_id, ids)
    wanted: dict[str, str] = {}
    for i in ids:
        if i in episode_ids and i not in known and episode_ids[i] not in wanted.values():
            wanted[i] = episode_ids[i]
    taken = store.taken_ids(sorted(wanted.values())) if wanted else set()
    free = {i: e for i, e in wanted.items() if e not in taken}
    result = add(
        msgs,
        user_id=user_id,
        session_id=session_id,
        agent_id=agent_id,
        extract=extract,
        episode_ids=free,
    )
    if renamed is not None:
        stored = dict(zip([str(m.get("id")) for m in msgs], result.episodes, strict=True))
        for i, exported in wanted.items():
            if exported in taken:
                renamed(exported, stored[i])
    if progress is not None:
        progress(len(msgs))
    return len(msgs) - sum(1 for i in ids if i in known)


def _imported_id(user_id: str, exported_id: str) -> str:
    """The id an exported memory gets here when its own is taken by another user's record
    (stable, so a re-import is recognised)."""
    return "mem_" + hashlib.sha256(f"{user_id}\x1f{exported_id}".encode()).hexdigest()[:32]


def _memory_ids(
    store: ImportStore, user_id: str, records: list[dict[str, Any]]
) -> tuple[dict[str, str], set[str]]:
    """The id each exported memory is stored under, and those stored already (skipped).

    Its exported id where that is free, or already this user's (imported before, or
    exported from this very user); otherwise, when another user's record holds it, a new
    id derived from the user and the exported id."""
    exported = list(dict.fromkeys(str(r["id"]) for r in records))
    derived = {e: _imported_id(user_id, e) for e in exported}
    mine = store.record_kinds(user_id, [*exported, *derived.values()])
    taken = store.taken_ids(exported)
    ids: dict[str, str] = {}
    stored: set[str] = set()
    for e in exported:
        if e in mine or derived[e] in mine:
            ids[e] = e if e in mine else derived[e]
            stored.add(e)
        else:
            ids[e] = derived[e] if e in taken else e
    return ids, stored


def _import_memories(
    store: ImportStore,
    memory_keys: MemoryKeys,
    actor: str,
    records: list[dict[str, Any]],
    user_id: str,
    renamed: Callable[[str, str], None] | None = None,
) -> int:
    ids, stored = _memory_ids(store, user_id, records)
    created = 0
    for record in records:
        exported = str(record["id"])
        if exported in stored:
            continue  # imported before, exported from this very user, or twice in the file
        stored.add(exported)
        memory_id = ids[exported]
        sources = store.episode_ids_by_external(user_id, record["sources"])
        fields = {f: record[f] for f in MEMORY_FIELDS if record.get(f) is not None}
        times: dict[str, Any] = {f: record[f] for f in MEMORY_TIMES if record.get(f)}
        later = str(record["superseded_by"]) if record.get("superseded_by") else None
        m = replace(
            MemoryRecord(id=memory_id, user_id=user_id, kind="fact", text=""),
            **fields,
            **times,
            source_episode_ids=tuple(sources.values()),
            superseded_by=None if later is None else ids.get(later, later),
            archived=bool(record.get("archived", False)),
        )
        store.insert_memories(user_id, [m], memory_keys(user_id, m), actor)
        created += 1
        if memory_id != exported and renamed is not None:
            renamed(exported, memory_id)
    return created
