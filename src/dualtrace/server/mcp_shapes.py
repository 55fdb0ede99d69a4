"""What the MCP tools return: lean shapes a model reads within its budget, and the text
content each result carries beside its structured content.

By default a record is its id, kind, text and date (plus its validity when it changed, and
the ids of the turns it came from); `details` adds its scene, session and source turns, in
full. A stored turn is never repeated as the source of itself.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from dualtrace.models import HistoryEntry, Hit, Item


class Result(BaseModel):
    """A tool's structured result; `as_text()` is the text content beside it."""

    def as_structured(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True, exclude_defaults=True)

    def as_text(self) -> str:
        return json.dumps(self.as_structured(), ensure_ascii=False, separators=(",", ":"))


class SourceOut(BaseModel):
    """A stored turn a record came from."""

    episode_id: str
    occurred_at: datetime
    speaker: str | None = None
    role: str | None = None
    text: str


class RecordOut(Result):
    """A stored turn (kind 'episode') or a derived memory. Fields left out are unset."""

    id: str
    kind: str = Field(description="'episode' (a stored turn) or a memory kind such as 'fact'")
    text: str
    occurred_at: datetime = Field(description="when it happened or was said")
    speaker: str | None = Field(None, description="a stored turn: who said it")
    valid_to: datetime | None = Field(None, description="set once the value stopped being true")
    superseded_by: str | None = Field(None, description="id of the memory with the newer value")
    archived: bool = Field(False, description="out of search (expired, faded or a duplicate)")
    source_ids: list[str] = Field(
        default_factory=list, description="a memory: the ids of the stored turns it came from"
    )
    # with details
    valid_from: datetime | None = None
    session_id: str | None = None
    scene: str | None = Field(None, description="the circumstances: when, where, who, why")
    sources: list[SourceOut] = Field(
        default_factory=list, description="with details: the turns it came from, in full"
    )


class HitOut(RecordOut):
    """A search result with its score (and, with explain, each channel's score)."""

    score: float
    scores: dict[str, float] = Field(default_factory=dict, description="with explain")
    refs: list[str] = Field(
        default_factory=list, description="in a context: the labels its text cites it by"
    )


class EventOut(BaseModel):
    """One change `add_memory` made to the user's memories."""

    memory_id: str
    event: str = Field(description="ADD, UPDATE, SUPERSEDE, MERGE, REINFORCE, …")
    text: str


class AddOut(Result):
    episodes: list[str] = Field(description="the stored turn's id (re-adding an id: same)")
    events: list[EventOut] = Field(description="memories derived, updated or superseded")
    warnings: list[str] = Field(default_factory=list)

    def as_structured(self) -> dict[str, Any]:  # an empty list says "none", keep it
        return self.model_dump(mode="json", exclude_none=True)


class SearchOut(Result):
    hits: list[HitOut] = Field(
        description="best first, empty when nothing matches; each: id, kind, text, "
        "occurred_at, score, and for a memory the ids of its source turns (source_ids); "
        "details adds scene and the source turns in full, explain each channel's score"
    )

    def as_structured(self) -> dict[str, Any]:
        return {"hits": [h.as_structured() for h in self.hits]}


class ContextOut(Result):
    text: str = Field(description="dated, sourced lines ready to put in a prompt")
    tokens: int = Field(description="the text's size in tokens (at most max_tokens)")
    hint: str | None = Field(None, description="why the text is empty, and what to do")
    items: list[HitOut] = Field(
        default_factory=list, description="with details: the memories and turns in the text"
    )
    references: dict[str, str] = Field(
        default_factory=dict,
        description="with details: each label the text cites ([2]) -> the stored turn's id",
    )

    def as_structured(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "tokens": self.tokens}
        if self.hint is not None:
            out["hint"] = self.hint
        if self.items or self.references:
            out["items"] = [h.as_structured() for h in self.items]
            out["references"] = dict(self.references)
        return out

    def as_text(self) -> str:
        """The block itself (or why it is empty): what the model puts in its prompt."""
        if self.hint is not None:
            return self.hint
        if not self.references:
            return self.text
        refs = "\n".join(f"[{label}] {ep}" for label, ep in self.references.items())
        return f"{self.text}\n\nreferences:\n{refs}"


class ListOut(Result):
    items: list[RecordOut] = Field(description="newest first")
    next_cursor: str | None = Field(None, description="pass it back for the next page")

    def as_structured(self) -> dict[str, Any]:
        return {"items": [i.as_structured() for i in self.items], "next_cursor": self.next_cursor}


class DoneOut(Result):
    ok: bool = True
    deleted: str | None = Field(None, description="delete_memory: the id that was deleted")

    def as_structured(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class HistoryEntryOut(BaseModel):
    id: int = Field(description="the entry's id (undo_change takes it)")
    event: str
    old_text: str | None = None
    new_text: str | None = None
    at: datetime
    actor: str


class HistoryOut(Result):
    entries: list[HistoryEntryOut] = Field(description="oldest first")

    def as_structured(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


# -- conversions -----------------------------------------------------------------------------


def _fields(item: Item, details: bool) -> dict[str, Any]:
    episode = item.kind == "episode"
    out: dict[str, Any] = {
        "id": item.id,
        "kind": item.kind,
        "text": item.text,
        "occurred_at": item.occurred_at,
        "speaker": item.sources[0].speaker if episode and item.sources else None,
        "valid_to": item.valid_to,
        "superseded_by": item.superseded_by,
        "archived": item.archived,
        "source_ids": [] if episode else [s.episode_id for s in item.sources],
    }
    if details:
        out.update(valid_from=item.valid_from, session_id=item.session_id, scene=item.scene)
        if not episode:  # a stored turn is its own source
            out["sources"] = [
                SourceOut(
                    episode_id=s.episode_id,
                    occurred_at=s.occurred_at,
                    speaker=s.speaker,
                    role=s.role,
                    text=s.text,
                )
                for s in item.sources
            ]
    return out


def record_out(item: Item, details: bool = False) -> RecordOut:
    return RecordOut(**_fields(item, details))


def hit_out(hit: Hit, details: bool = False, explain: bool = False) -> HitOut:
    return HitOut(
        **_fields(hit, details),
        score=round(hit.score, 4),
        scores={k: round(v, 4) for k, v in hit.scores.items()} if explain else {},
        refs=list(hit.refs),
    )


def history_out(entry: HistoryEntry) -> HistoryEntryOut:
    return HistoryEntryOut(
        id=entry.id,
        event=entry.event,
        old_text=entry.old_text,
        new_text=entry.new_text,
        at=entry.at,
        actor=entry.actor,
    )
