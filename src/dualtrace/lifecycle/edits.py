"""Changes a caller asks for: edit a record's text, delete one for real, undo a history
entry, restore an archived memory. Whatever was derived from changed words is rebuilt."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from dualtrace.config import MemoryConfig
from dualtrace.encode.episodes import new_id
from dualtrace.encode.intake import Intake
from dualtrace.encode.keys import KeyBuilder
from dualtrace.errors import ValidationError
from dualtrace.inputs import check_event_id, check_record_id, check_user_id
from dualtrace.lifecycle.pending import extract_pending
from dualtrace.lifecycle.writer import MemoryWriter
from dualtrace.models import Episode, HistoryEntry, MemoryRecord
from dualtrace.recall.items import load_item
from dualtrace.store.ports.deletion import DeletionStore
from dualtrace.store.ports.index_writes import IndexWrites
from dualtrace.store.ports.memory_writes import MemoryWrites
from dualtrace.store.ports.reads import RecordReads
from dualtrace.store.ports.records import IndexEntry


class EditStore(RecordReads, MemoryWrites, IndexWrites, DeletionStore, Protocol):
    """What edits, deletions and undo read and write: records and their history, keys."""


class Editor:
    """Edits, deletions and undo on one store, keeping keys and derived memories in step.

    Each change takes the `actor` that history and the audit log name (None: the config's).
    """

    def __init__(
        self, store: EditStore, config: MemoryConfig, keys: KeyBuilder, writer: MemoryWriter
    ) -> None:
        self.store = store
        self.config = config
        self.keys = keys
        self.writer = writer

    def update(self, record_id: str, text: str, *, user_id: str, actor: str | None = None) -> None:
        """Replace a record's text (re-indexed, PII redacted); the old text stays in history."""
        user_id = check_user_id(user_id)
        record_id = check_record_id(record_id)
        item = load_item(self.store, user_id, record_id)
        intake = Intake(self.config)
        if item.kind == "episode":
            text = intake.text(text, field="text")
        else:
            text = intake.memory_text(text, field="text")
        actor = actor or self.config.actor
        if item.kind != "episode":
            memory = self.store.get_memories(user_id, [record_id])[record_id]
            keys = self.keys.memory_keys(user_id, replace(memory, text=text))
            self.store.update_text(user_id, record_id, text, keys, actor)
            return
        episode = replace(self.store.get_episodes(user_id, [record_id])[record_id], text=text)
        keys = self.keys.episode_keys(user_id, [episode])
        self.store.update_text(user_id, record_id, text, keys, actor)
        if self.config.extract:  # what was derived from the old words goes; derive anew
            self.store.delete_derived(user_id, record_id, actor)
            self.writer.write(user_id, [episode], actor=actor)  # a failed LLM: the rules
        following = self.store.next_episode(user_id, record_id)
        if following is not None:  # it quoted the old words
            self.rederive(user_id, following, actor)

    def delete(self, record_id: str, *, user_id: str, actor: str | None = None) -> None:
        """Delete one record for real; the next turn, which quoted it, and the memories
        built from it and other turns are rebuilt without it."""
        user_id = check_user_id(user_id)
        following = self.store.next_episode(user_id, record_id)
        next_keys = (
            []
            if following is None
            else self.keys.episode_keys(user_id, [following], skip=record_id)
        )
        # One transaction takes the turn, what was derived from its words, and the next
        # turn's quote of it; the turns left to re-derive are marked, so a crash before
        # they are extracted again leaves them for the next open.
        actor = actor or self.config.actor
        redo = self.store.delete_record(
            user_id, record_id, actor, next_keys, rederive=self.config.extract
        )
        if redo:
            extract_pending(
                self.store, self.writer, user_id, self.store.pending_episodes(user_id, redo), actor
            )

    def rederive(self, user_id: str, episode: Episode, actor: str | None = None) -> None:
        """Rebuild a turn's keys and memories from what is stored now."""
        self.store.replace_keys(user_id, episode.id, self.keys.episode_keys(user_id, [episode]))
        if self.config.extract:
            actor = actor or self.config.actor
            self.store.delete_derived(user_id, episode.id, actor)
            self.writer.write(user_id, [episode], actor=actor)  # a failed LLM: the rules

    def revert(self, event_id: int, *, user_id: str, actor: str | None = None) -> None:
        """Undo one history entry (see `Memory.revert`)."""
        user_id = check_user_id(user_id)
        entry = self.store.history_entry(user_id, check_event_id(event_id))
        actor = actor or self.config.actor
        if entry.event == "UPDATE":
            self.update(entry.record_id, entry.old_text or "", user_id=user_id, actor=actor)
        elif entry.event == "ADD":
            self._revert_add(user_id, entry, actor)
        else:
            self._revert_change(user_id, entry, actor)

    def _revert_add(self, user_id: str, entry: HistoryEntry, actor: str) -> None:
        """A derived memory's ADD undone: the memory goes, what it superseded holds again."""
        kind = self.store.record_kinds(user_id, [entry.record_id]).get(entry.record_id)
        if kind in (None, "episode"):
            raise ValidationError(
                f"history entry {entry.id} adds a turn; delete turns with "
                "Memory.delete(id, user_id=...)"
            )
        for superseded in self.store.superseded_by(user_id, entry.record_id):
            self.store.revert_change(user_id, superseded, [], actor)
        self.store.delete_record(user_id, entry.record_id, actor)

    def _revert_change(self, user_id: str, entry: HistoryEntry, actor: str) -> None:
        """A consolidation decision undone; a MERGE's merged-in value stands alone again."""
        keys: list[IndexEntry] = []
        memory = self.store.get_memories(user_id, [entry.record_id]).get(entry.record_id)
        if entry.event == "MERGE" and memory is not None:
            old = replace(memory, text=entry.old_text or memory.text)
            keys = self.keys.memory_keys(user_id, old)
        self.store.revert_change(user_id, entry, keys, actor)
        if entry.event == "MERGE" and memory is not None:
            value = _merged_value(user_id, memory, entry)
            keys = self.keys.memory_keys(user_id, value)
            self.store.insert_memories(user_id, [value], keys, actor)

    def restore(self, record_id: str, *, user_id: str, actor: str | None = None) -> None:
        """Bring an archived memory (expired, faded or a duplicate) back into search."""
        user_id = check_user_id(user_id)
        if not self.store.restore_memory(user_id, record_id, actor or self.config.actor):
            raise ValidationError(
                f"record {record_id!r} is not archived; `get_all(include_invalid=True)` lists "
                "archived memories"
            )


def _merged_value(user_id: str, memory: MemoryRecord, entry: HistoryEntry) -> MemoryRecord:
    """The value a MERGE had folded into `memory`, as a memory of its own."""
    detail = entry.detail
    return MemoryRecord(
        id=new_id("mem"),
        user_id=user_id,
        kind=memory.kind,
        text=str(detail.get("merged") or entry.new_text),
        scene=memory.scene,
        subject=memory.subject,
        predicate=memory.predicate,
        object=detail.get("value"),
        topic=memory.topic,
        importance=memory.importance,
        valid_from=memory.valid_from,
        session_id=memory.session_id,
        source_episode_ids=tuple(detail.get("sources_added") or ()),
        metadata={k: v for k, v in memory.metadata.items() if k != "values"},
    )
