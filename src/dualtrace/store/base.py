"""The store ports: everything dualtrace persists, always scoped to one user.

`Store` is the whole of it; it is made of role ports, one per concern, so a backend can be
read (and tested, see tests/store/contract/) role by role:

    StoreLifecycle    bind the embedder, back up, close
    EpisodeStore      turns as said (the lossless trace)
    MemoryStore       derived memories, any record's text and history, undoable changes
    GraphStore        entities and links between memories (the structural trace)
    SearchIndex       search keys and the dense, lexical, time and entity channels
    SessionStore      short-term session bookkeeping and a session's turns
    MaintenanceStore  what the forgetting and normalising passes read and adjust
    DeletionStore     real deletion, row counts and the audit log
    AccessStore       the HTTP service's API keys (hashed) and deferred-add operations
    BrowseStore       pages of turns and records, per-user counts, a memory's graph
    CopyStore         every row as stored, page by page, and loading it back (migrate)

Every method but `idle_sessions`, `user_ids`, `pending_users`, `taken_ids`, `finish_deletions`,
`backup`, `embedder_binding`, the API-key methods and `user_summaries(None)` is scoped to one user.
Backends live under `store/<backend>/`; only they contain SQL. Code above these ports never
asks which backend it has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from dualtrace.models import (
    ApiKey,
    AuditRow,
    Candidate,
    Episode,
    HistoryEntry,
    MemoryRecord,
    Operation,
    SessionRow,
    UserSummary,
)

Vector = npt.NDArray[np.float32]

@dataclass(frozen=True)
class IndexEntry:
    """One searchable key of a record: its full-text body and, optionally, its vector."""

    record_id: str
    trace: str  # "episode" | "fact" | "scene"
    kind: str
    session_id: str | None
    body: str
    content_hash: str
    vector: Vector | None = None
    chunk: int = 0  # a long turn has a key per chunk of its text, numbered from 0
    gloss: str = ""  # its words in the other language (full-text, cross-lingual search only)


@dataclass(frozen=True)
class EntityRow:
    """An entity as stored for a user: surface name, its normalised and canonical keys."""

    name: str
    norm: str
    type: str
    canonical: str


@dataclass(frozen=True)
class MemoryGraph:
    """The structural trace written with new memories: their entities and links."""

    entities: tuple[tuple[str, EntityRow], ...] = ()  # (memory id, entity)
    links: tuple[tuple[str, str, str, float], ...] = ()  # (src id, dst id, kind, weight)


@dataclass(frozen=True)
class MemoryChange:
    """A consolidation decision applied to a stored memory, in the same transaction as the
    new memories it was decided with (see `lifecycle/consolidate.py`)."""

    action: str  # REINFORCE | MERGE | SUPERSEDE
    memory_id: str  # the memory changed
    new_text: str  # what the decision was about (the new statement), kept in history
    by_id: str | None = None  # SUPERSEDE: the memory holding the newer value
    valid_to: datetime | None = None  # SUPERSEDE: when the old value stopped holding
    sources: tuple[str, ...] = ()  # REINFORCE / MERGE: episodes that said it again
    importance: float | None = None  # REINFORCE: the memory's new importance
    text: str | None = None  # MERGE: the memory's new text
    object: str | None = None  # MERGE: the values joined
    values: tuple[str, ...] = ()  # MERGE: each value
    keys: tuple[IndexEntry, ...] = ()  # MERGE: search keys of the merged text
    why: dict[str, Any] | None = None  # SUPERSEDE: what decided it (slot, cue, score), kept


@dataclass(frozen=True)
class SearchScope:
    """Which records a search may return."""

    kinds: tuple[str, ...] | None = None
    session_id: str | None = None
    valid_at: datetime | None = None  # memories valid at this time; None: currently valid
    include_invalid: bool = False
    include_archived: bool = False
    occurred_before: datetime | None = None  # episodes said after this time are left out
    traces: tuple[str, ...] | None = None  # search only these keys (episode, fact, scene)
    metadata: dict[str, Any] = field(default_factory=dict)


class StoreLifecycle(Protocol):
    """Whole-store concerns: which embedder the store's vectors come from, backup, close."""

    def bind_embedder(self, embedder_id: str, dimensions: int) -> None:
        """Record the store's embedder, or raise EmbedderMismatchError if it has another."""
        ...

    def backup(self, path: Path, *, overwrite: bool = False) -> Path:
        """Write a consistent copy of the whole store (every user) to the file `path` while
        others keep writing; returns `path`. The copy holds every write committed before
        the call and no half transaction, and can be opened as a store of its own.

        A ValidationError, with nothing written, if `path` exists (unless `overwrite`), is
        in a folder that does not exist, or is the store itself. A crash part-way leaves
        no file under `path`; a copy that fails its integrity check is a StoreError.
        """
        ...

    def close(self) -> None:
        """Flush and release the store (no call may follow)."""
        ...


class EpisodeStore(Protocol):
    """The lossless trace: turns as they were said, numbered within their session."""

    def episode_ids_by_external(self, user_id: str, external_ids: Sequence[str]) -> dict[str, str]:
        """Map ids already stored (as external ids, or as episode ids) to episode ids."""
        ...

    def next_seq(self, user_id: str, session_id: str | None) -> int:
        """The next turn number in a session (0 for a new one)."""
        ...

    def insert_episodes(
        self, user_id: str, episodes: Sequence[Episode], keys: Sequence[IndexEntry], actor: str,
        pending: bool = False,
    ) -> list[Episode]:  # fmt: skip
        """Store episodes and keys; returns them as stored (moved past turns added meanwhile).
        An external id already stored (by another writer since the caller looked) is not
        stored again: its place holds the stored episode (`INSERT … ON CONFLICT` semantics).

        `pending`: mark the new turns extraction-pending in the same transaction (cleared
        by `insert_memories(extracted=...)`), so a crash before their memories are stored
        leaves them marked for `pending_episodes` to find.
        """
        ...

    def pending_users(self) -> list[str]:
        """Every user with extraction-pending turns."""
        ...

    def pending_episodes(self, user_id: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """The user's extraction-pending turns (all, or those among `ids`), in time order."""
        ...

    def get_episodes(self, user_id: str, ids: Sequence[str]) -> dict[str, Episode]:
        """Episodes by id (ids this user lacks are simply absent)."""
        ...

    def iter_episodes(self, user_id: str) -> Iterator[Episode]:
        """All of the user's episodes in time order."""
        ...

    def recent_episodes(
        self, user_id: str, session_id: str | None, before_seq: int, limit: int
    ) -> list[Episode]:
        """The session's turns just before `before_seq`, oldest first."""
        ...

    def next_episode(self, user_id: str, episode_id: str) -> Episode | None:
        """The turn right after this one in its session, if any."""
        ...


class MemoryStore(Protocol):
    """Derived memories, any record's text and history, and changes that history can undo.

    Methods taking record ids accept episode ids as well as memory ids.
    """

    def insert_memories(
        self, user_id: str, memories: Sequence[MemoryRecord], keys: Sequence[IndexEntry],
        actor: str, graph: MemoryGraph | None = None, changes: Sequence[MemoryChange] = (),
        extracted: Sequence[str] = (),
    ) -> bool:  # fmt: skip
        """Insert memories with their keys and graph, then apply `changes` to stored ones;
        in the same transaction, clear the extraction-pending mark of the `extracted` turns.

        Returns False, having written nothing, if one of `extracted` is no longer marked
        (another process stored its memories first: extraction stays idempotent).
        What cites a record deleted since extraction began is left out: memories all of
        whose source turns are gone, their keys, entities and links, and changes to gone
        memories; another user's record named here is a ConflictError.
        """
        ...

    def get_memories(self, user_id: str, ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """Memories by id, with their source episode ids (missing ids are absent)."""
        ...

    def memory_ids_by_fact_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, str]:
        """Existing memories whose fact trace has one of these content hashes."""
        ...

    def memories_by_subject(
        self, user_id: str, subjects: Sequence[str], predicates: Sequence[str]
    ) -> list[MemoryRecord]:
        """Valid memories with one of these predicates and subjects (case-insensitive)."""
        ...

    def memories_by_predicate(
        self, user_id: str, predicates: Sequence[str], *, include_invalid: bool = False
    ) -> list[MemoryRecord]:
        """Memories with one of these predicates, any subject, oldest first; valid ones only
        unless `include_invalid` (then closed ones too; archived ones never)."""
        ...

    def record_kinds(self, user_id: str, ids: Sequence[str]) -> dict[str, str]:
        """The kind of each id this user has ('episode' or a memory kind)."""
        ...

    def taken_ids(self, ids: Sequence[str]) -> set[str]:
        """Which of these ids any user's stored episode or memory holds (ids are unique)."""

    def list_records(
        self, user_id: str, kinds: tuple[str, ...] | None, include_invalid: bool, limit: int | None
    ) -> list[str]:
        """Ids of the user's records, newest first."""
        ...

    def update_text(
        self, user_id: str, record_id: str, text: str, keys: Sequence[IndexEntry], actor: str
    ) -> str:
        """Replace a record's text and search keys; returns the old text."""
        ...

    def history(self, user_id: str, record_id: str) -> list[HistoryEntry]:
        """Every change to a record, oldest first (NotFoundError if there is no record)."""
        ...

    def history_entry(self, user_id: str, history_id: int) -> HistoryEntry:
        """One history entry of this user's (NotFoundError if there is none)."""
        ...

    def revert_change(
        self, user_id: str, entry: HistoryEntry, keys: Sequence[IndexEntry], actor: str
    ) -> None:
        """Undo a REINFORCE, MERGE or SUPERSEDE entry (MERGE: `keys` index the old text)."""
        ...

    def superseded_by(self, user_id: str, memory_id: str) -> list[HistoryEntry]:
        """The SUPERSEDE entries (not undone) that closed memories in favour of this one."""
        ...

    def reinforce(
        self, user_id: str, memory_ids: Sequence[str], at: datetime,
        update: Callable[[float, int], float],
    ) -> None:  # fmt: skip
        """Set importance to update(importance, access_count), count the access; no inflation."""
        ...

    def archive_memories(self, user_id: str, ids: Sequence[str], reason: str, actor: str) -> int:
        """Take memories out of default search (restorable); returns how many changed."""
        ...

    def restore_memory(self, user_id: str, memory_id: str, actor: str) -> bool:
        """Bring an archived memory back; False if it was not archived."""
        ...


class GraphStore(Protocol):
    """The structural trace: the entities memories mention and the links between memories."""

    def entity_rows(self, user_id: str) -> list[EntityRow]:
        """Every entity the user's memories mention."""
        ...

    def set_canonical(self, user_id: str, canonical: dict[str, str]) -> None:
        """Re-point entities (norm → canonical norm) after an alias was learned."""
        ...

    def related_memories(
        self, user_id: str, canonicals: Sequence[str], exclude: Sequence[str], limit: int
    ) -> list[tuple[str, int]]:
        """Memories sharing these canonical entities: (memory id, shared count), best first."""
        ...

    def related_memories_many(
        self, user_id: str, groups: Sequence[Sequence[str]], exclude: Sequence[str], limit: int
    ) -> list[list[tuple[str, int]]]:
        """`related_memories` for several groups of entities at once."""
        ...

    def unlinked_memories(self, user_id: str, limit: int) -> list[tuple[str, list[str]]]:
        """Memories with entities but no links: (id, canonical entities), newest first."""
        ...

    def add_links(self, user_id: str, links: Sequence[tuple[str, str, str, float]]) -> None:
        """Insert links (src id, dst id, kind, weight); existing ones are kept."""
        ...


class SearchIndex(Protocol):
    """Records' search keys (full text and vectors) and the channels that search them.

    Each channel returns up to `limit` records the scope admits: it reads past the records
    the scope refuses (closed, archived, other kinds), however many rank above them.
    """

    def vectors_by_hash(self, user_id: str, hashes: Sequence[str]) -> dict[str, Vector]:
        """This user's vectors for these content hashes, to reuse (PostgreSQL's are float16)."""
        ...

    def replace_keys(self, user_id: str, record_id: str, keys: Sequence[IndexEntry]) -> None:
        """Rebuild a record's search keys (its text unchanged) and scrub the old ones."""
        ...

    def add_vectors(self, user_id: str, keys: Sequence[IndexEntry]) -> int:
        """Give stored keys that have no vector yet the vectors of these keys (matched by
        record id, trace and content hash; a key changed or gone since is left alone);
        returns how many keys got one. Text and full-text rows are untouched."""
        ...

    def search_dense(self, user_id: str, vector: Vector, limit: int, scope: SearchScope, *,
                     language_offset: Mapping[str, float] | None = None) -> list[Candidate]:
        """Nearest keys by cosine similarity, best key per record, filtered by scope; with
        `language_offset`, plus the offset of each key's `store.languages.key_language`."""
        ...

    def search_dense_many(
        self, user_id: str, vectors: Sequence[Vector], limit: int, scope: SearchScope,
        *, language_offset: Mapping[str, float] | None = None,
    ) -> list[list[Candidate]]:  # fmt: skip
        """`search_dense` for several vectors at once."""
        ...

    def search_lexical(
        self, user_id: str, terms: Sequence[str], limit: int, scope: SearchScope,
        *, glosses: bool = False,
    ) -> list[Candidate]:  # fmt: skip
        """Full-text (BM25) matches for any of the terms, filtered by scope; with `glosses`,
        in the keys' glosses (their words in the other language) instead of their text."""
        ...

    def search_time(
        self, user_id: str, start: datetime, end: datetime, limit: int, scope: SearchScope,
        among: Sequence[str] = (),
    ) -> list[Candidate]:  # fmt: skip
        """Records in [start, end) by scope: those of `among` first, then `limit` more, newest."""
        ...

    def search_entities(
        self, user_id: str, canonicals: Sequence[str], limit: int, scope: SearchScope,
        max_share: float = 0.2,
    ) -> list[Candidate]:  # fmt: skip
        """Memories of these entities, scored by the entities' rarity (idf), filtered by scope."""
        ...


class SessionStore(Protocol):
    """Short-term sessions: bookkeeping rows (never text) and the turns said in them."""

    def touch_session(self, user_id: str, session_id: str, at: datetime) -> None:
        """Create a session row (started at `at`) or move its last activity forward."""
        ...

    def get_session(self, user_id: str, session_id: str) -> SessionRow | None:
        """A session's bookkeeping row, or None if this user has no such session."""
        ...

    def set_session_extracted(self, user_id: str, session_id: str, seq: int) -> None:
        """Record that the session's turns up to `seq` are in long-term memory."""
        ...

    def end_session(self, user_id: str, session_id: str, at: datetime, reason: str) -> bool:
        """Mark an open session ended; False if it was already ended or does not exist."""
        ...

    def idle_sessions(self, before: datetime) -> list[tuple[str, str]]:
        """(user id, session id) of open sessions, of every user, last active before `before`."""
        ...

    def session_episodes(self, user_id: str, session_id: str, after_seq: int) -> list[Episode]:
        """The session's turns with seq > `after_seq`, in order."""
        ...

    def sessions_with_role(self, user_id: str, session_ids: Sequence[str], role: str) -> set[str]:
        """Those of these sessions in which a turn of `role` was said (e.g. "assistant")."""
        ...


class MaintenanceStore(Protocol):
    """What the forgetting and normalising passes read and adjust, user by user."""

    def user_ids(self) -> list[str]:
        """Every user with stored turns or memories."""
        ...

    def expired_memories(self, user_id: str, now: datetime) -> list[str]:
        """Ids of memories in default search whose expire_at has passed."""
        ...

    def memory_usage(self, user_id: str) -> list[tuple[str, float, datetime]]:
        """(id, importance, last used) of the memories in default search."""
        ...

    def normalise_importance(self, user_id: str) -> bool:
        """Scale the user's importances back if their mean inflated; True if it did."""
        ...

    def refresh_search_index(self, user_id: str) -> bool:
        """Build or drop the index the user's size calls for; True if it changed one."""
        ...


class DeletionStore(Protocol):
    """Real deletion (scrubbed from the file), and the counts and audit log that prove it."""

    def delete_record(
        self, user_id: str, record_id: str, actor: str, next_keys: Sequence[IndexEntry] = (),
        rederive: bool = False,
    ) -> list[str]:  # fmt: skip
        """Delete a record with its keys, links and history, in one transaction.

        A memory's deletion re-opens what it had superseded (those history entries quote
        it, and go). An episode takes every memory citing it; `next_keys` replace the keys
        of the turn after it (they quoted it). With `rederive`, that next turn and the
        other sources of the memories that went lose their own memories and are marked
        extraction-pending, to be extracted again from what survives; returns their ids.
        """
        ...

    def delete_derived(self, user_id: str, episode_id: str, actor: str) -> list[str]:
        """Delete the memories that only this episode supports; returns their ids."""
        ...

    def delete_user(self, user_id: str, actor: str) -> dict[str, int]:
        """Delete every row of the user; returns rows deleted per table. The audit log stays,
        its rows re-keyed from the user id to a keyed hash of it (`audit_entries` and
        `count_records` still find them by the id)."""
        ...

    def deletion_hashes(self, user_id: str, record_id: str | None) -> list[str]:
        """Content hashes of the keys deleting this record (an episode: with the memories
        citing it and the next turn's keys) or the whole user (None) would remove: what an
        embedding cache should forget first (a crash then costs a re-embedding, never a
        kept vector of deleted text)."""
        ...

    def finish_deletions(self) -> bool:
        """Finish a deletion's clean-up (compaction, so deleted words leave the files) that a
        crash cut short; True if one was pending. Stores do this on open as well."""
        ...

    def count_records(self, user_id: str) -> dict[str, int]:
        """Row counts of every per-user table, audit log included."""
        ...

    def audit_entries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit log, oldest first (it never holds memory text)."""
        ...


class AccessStore(Protocol):
    """The HTTP service's API keys (only hashes are stored) and its deferred-add operations."""

    def insert_api_key(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key under the hash of its secret."""
        ...

    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash (revoked ones too: the caller checks), or None."""
        ...

    def api_keys(self) -> list[ApiKey]:
        """Every key, oldest first."""
        ...

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        """Revoke a key; False if there is no such key or it was already revoked."""
        ...

    def insert_operation(
        self, user_id: str, operation_id: str, episode_ids: Sequence[str], at: datetime
    ) -> None:
        """Record a deferred add: the turns it stored (their pending marks tell its state)."""
        ...

    def get_operation(self, user_id: str, operation_id: str) -> Operation | None:
        """The user's operation, with how many of its turns are still pending, or None."""
        ...

    def note_operation_error(self, user_id: str, error: str | None) -> None:
        """Record (or clear, with None) why finishing the user's pending operations failed."""
        ...


class BrowseStore(Protocol):
    """What a person browsing a user's memory pages through, in stable orders."""

    def user_summaries(self, user_ids: Sequence[str] | None) -> list[UserSummary]:
        """Turn and valid-memory counts of these users (None: of every user), by id."""
        ...

    def episode_page(
        self, user_id: str, session_id: str | None, after: tuple[datetime, str, int, str] | None,
        limit: int,
    ) -> list[Episode]:  # fmt: skip
        """Up to `limit` turns in conversation order (time, session, seq, id), of one session
        or all, after the turn whose (occurred_at, session id or "", seq, id) is `after`."""
        ...

    def derived_memory_ids(self, user_id: str, episode_ids: Sequence[str]) -> dict[str, list[str]]:
        """For each turn, the valid (not superseded, not archived) memories citing it."""
        ...

    def record_page(
        self, user_id: str, kinds: tuple[str, ...] | None, include_invalid: bool, limit: int,
        after: tuple[datetime, str] | None,
    ) -> list[tuple[str, datetime]]:  # fmt: skip
        """(id, sort time) of up to `limit` records, newest first (as `list_records`), after
        the record whose (sort time, id) is `after`."""
        ...

    def memory_graph(
        self, user_id: str, memory_id: str
    ) -> tuple[list[EntityRow], list[tuple[str, str, float]]]:
        """A memory's entities, and its links as (other memory id, kind, weight)."""
        ...


# A user's rows by part, in the order `load_rows` needs them (a turn before its memories).
COPY_PARTS = (
    "episodes", "pending", "memories", "keys", "entities", "links", "history", "sessions",
    "operations", "audit",
)  # fmt: skip


@dataclass(frozen=True)
class UserRows:
    """Rows of one user exactly as stored (ids, times, vectors): a page of `CopyStore`."""
    episodes: tuple[Episode, ...] = ()
    pending: tuple[tuple[str, datetime], ...] = ()  # (episode id, extraction-pending since)
    memories: tuple[MemoryRecord, ...] = ()  # with their source episode ids
    keys: tuple[IndexEntry, ...] = ()  # with their bodies, glosses and vectors
    entities: tuple[tuple[str, EntityRow], ...] = ()  # (memory id, an entity it mentions)
    links: tuple[tuple[str, str, str, float], ...] = ()  # (src id, dst id, kind, weight)
    history: tuple[HistoryEntry, ...] = ()  # oldest first
    sessions: tuple[SessionRow, ...] = ()
    operations: tuple[Operation, ...] = ()  # `pending` is read from the turns, not loaded
    audit: tuple[AuditRow, ...] = ()  # oldest first


class CopyStore(Protocol):
    """The whole store, row by row, for moving it to another backend (`dualtrace migrate`)."""

    def embedder_binding(self) -> tuple[str, int] | None:
        """The (embedder id, dimensions) the store's vectors come from; None if unbound."""
        ...

    def copy_page(self, user_id: str, part: str, after: str | None, limit: int) -> tuple[
        UserRows, str | None
    ]:  # fmt: skip
        """Up to `limit` of the user's rows of one of COPY_PARTS after the cursor `after`
        (None: the first), in a stable order, and the next page's cursor (None: no more)."""
        ...

    def load_rows(self, user_id: str, rows: UserRows) -> list[int]:
        """Write rows as `copy_page` read them (ids, times, vectors kept; no history or audit
        rows of its own) in one transaction; returns the ids its history entries got here."""
        ...

    def api_key_rows(self) -> list[tuple[ApiKey, str]]:
        """Every API key with the hash it is stored under, oldest first."""
        ...


class Store(
    StoreLifecycle, EpisodeStore, MemoryStore, GraphStore, SearchIndex, SessionStore,
    MaintenanceStore, DeletionStore, AccessStore, BrowseStore, CopyStore, Protocol,
):  # fmt: skip
    """Persistence for episodes, memories, their search keys, history and audit: every role.

    Code that needs one role may take that port; `Memory` holds the whole store.
    """
