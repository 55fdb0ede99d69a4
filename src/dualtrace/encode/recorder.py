"""The first step of the write path: messages become episodes at once (checked and PII
redacted by the intake, idempotent by the caller's message id) and are indexed. No
extraction here."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from dualtrace.config import MemoryConfig
from dualtrace.encode.episodes import content_hash, new_id
from dualtrace.encode.intake import Intake
from dualtrace.encode.keys import KeyBuilder
from dualtrace.inputs import check_optional_id, check_user_id, parse_time
from dualtrace.models import Episode, Message
from dualtrace.store.base import EpisodeStore


class EpisodeRecorder:
    """Stores each message as an episode with its search keys, in one transaction."""

    def __init__(self, store: EpisodeStore, keys: KeyBuilder, config: MemoryConfig) -> None:
        self.store = store
        self.keys = keys
        self.config = config
        self.intake = Intake(config)

    def record(
        self,
        messages: str | dict[str, Any] | list[Any],
        *,
        user_id: str,
        session_id: str | None = None,
        timestamp: datetime | str | float | None = None,
        agent_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        pending: bool = False,
        embed: bool = True,
        actor: str | None = None,
        episode_ids: Mapping[str, str] | None = None,
    ) -> tuple[list[str], list[Episode]]:
        """The episode id of every message in order (an id already stored maps to its
        existing episode), and the episodes stored now (`pending`: marked for extraction,
        in the same transaction; `embed=False`: full-text keys only, vectors later).
        `episode_ids`: the id a new turn takes, by its message id (an import keeps the
        exported ones; the caller checks that they are free)."""
        user_id = check_user_id(user_id)
        session_id = check_optional_id("session_id", session_id)
        agent_id = check_optional_id("agent_id", agent_id)
        default_time = datetime.now(UTC) if timestamp is None else parse_time(timestamp)
        shared_metadata = self.intake.metadata(metadata, field="metadata")
        msgs = self.intake.messages(messages, default_time=default_time)
        existing = self.store.episode_ids_by_external(
            user_id, [m.external_id for m in msgs if m.external_id]
        )
        episodes, ids = self._new_episodes(
            user_id, msgs, existing, session_id, agent_id, shared_metadata, episode_ids or {}
        )
        if not episodes:
            return ids, []
        keys = self.keys.episode_keys(user_id, episodes, embed=embed)
        stored = self.store.insert_episodes(
            user_id, episodes, keys, actor or self.config.actor, pending=pending
        )
        # an id another writer stored first (a retry racing its original) is that writer's
        # turn: answered with its episode, extracted by that writer, not here
        theirs = {s.id: g.id for s, g in zip(episodes, stored, strict=True) if s.id != g.id}
        if not theirs:
            return ids, stored
        mine = [g for s, g in zip(episodes, stored, strict=True) if s.id == g.id]
        return [theirs.get(i, i) for i in ids], mine

    def _new_episodes(
        self,
        user_id: str,
        msgs: list[Message],
        existing: dict[str, str],
        session_id: str | None,
        agent_id: str | None,
        metadata: dict[str, Any] | None,
        wanted: Mapping[str, str],
    ) -> tuple[list[Episode], list[str]]:
        seq = self.store.next_seq(user_id, session_id)
        now = datetime.now(UTC)
        episodes: list[Episode] = []
        ids: list[str] = []
        for m in msgs:
            if m.external_id is not None and m.external_id in existing:
                ids.append(existing[m.external_id])
                continue
            text = m.content  # redacted by the intake
            episode = Episode(
                id=wanted.get(m.external_id or "") or new_id("ep"),
                user_id=user_id,
                session_id=session_id,
                agent_id=agent_id,
                seq=seq,
                role=m.role,
                speaker=m.name or m.role,
                text=text,
                occurred_at=m.occurred_at,
                recorded_at=now,
                external_id=m.external_id,
                metadata={**(metadata or {}), **m.metadata},
                content_hash=content_hash(m.role, m.name, text),
            )
            if m.external_id is not None:
                existing[m.external_id] = episode.id
            episodes.append(episode)
            ids.append(episode.id)
            seq += 1
        return episodes, ids
