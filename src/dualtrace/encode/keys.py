"""Search keys of episodes and memories: the full-text body and the dense vector of each trace.

Index rich keys, return the original value: a turn's full-text key also holds the turn
before it (what it answers), and so does the dense key of a turn between people. A long
turn (a pasted document) has a key per chunk, so its parts are found on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Protocol

from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.embed.cache import text_hash
from dualtrace.encode.episodes import episode_key_text, lexical_body
from dualtrace.models import Episode, MemoryRecord
from dualtrace.store.languages import key_language
from dualtrace.store.ports.episode_reads import EpisodeReads
from dualtrace.store.ports.index_reads import IndexReads
from dualtrace.store.ports.records import IndexEntry, Vector
from dualtrace.text.lexicon import gloss
from dualtrace.text.script import simplified
from dualtrace.text.sentences import split_chunks

# Characters of the turn before that a turn's dense key ends with: its last words, what the
# turn answers. The whole turn before cost a one-message add a third more tokens; its last
# 160 characters kept LoCoMo's recall@500/1000/2000 within 0.002 and cut the add's p95 from
# ~165 to ~152 ms (docs/benchmarks.md, "One message at a time").
DENSE_CONTEXT_CHARS = 160

# (record id, trace, kind, session id, text, chunk)
KeySpec = tuple[str, str, str, str | None, str, int]


class KeyReads(EpisodeReads, IndexReads, Protocol):
    """What building keys reads: the turns before a turn, and vectors stored by text hash."""


class KeyBuilder:
    """Builds the search keys of new or changed records; vectors are reused by text hash
    (from the store, then the embedder's cache) and embedded in one batch otherwise."""

    def __init__(
        self,
        store: KeyReads,
        embedder: Embedder,
        config: MemoryConfig,
        crosslingual: Embedder | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config
        self.crosslingual = crosslingual  # gives each vector a cross-lingual one beside it

    def episode_keys(
        self,
        user_id: str,
        episodes: Sequence[Episode],
        *,
        skip: str | None = None,
        embed: bool = True,
    ) -> list[IndexEntry]:
        """Keys of turns. The full-text key also holds the turn before (what it answers);
        so does the dense key of a turn between people (`dense_context_turns`). `skip`: a
        turn about to be deleted, which the keys must not quote (the one before it is).
        `embed=False`: vectors only where the store has them already (the rest later, by
        `add_vectors`: a deferred add)."""
        specs = [spec for e in episodes for spec in self._chunked(e)]
        lexical, dense = self._turns_before(user_id, episodes, skip)
        dense_chars = self._dense_chars(episodes)
        # a turn's language is its own words', not its date's, its speaker's or the turn
        # before's ("[2026-01-09 Fri] user: 今天…" after an English turn is Chinese)
        languages = {e.id: key_language(e.text) for e in episodes}
        return self._keys(user_id, specs, languages, lexical, dense_chars, dense, embed=embed)

    def _turns_before(
        self, user_id: str, episodes: Sequence[Episode], skip: str | None = None
    ) -> tuple[dict[str, str], dict[str, str]]:
        """The turn before each turn ("speaker: words"), by turn id, for its full-text key
        (`lexical_context_turns`) and for its dense key (`dense_context_turns`, between
        people only). The episodes are one session's run, in order."""
        lexical: dict[str, str] = {}
        dense: dict[str, str] = {}
        config = self.config
        if not (config.lexical_context_turns or config.dense_context_turns) or not episodes:
            return lexical, dense
        first = episodes[0]
        before = self.store.recent_episodes(user_id, first.session_id, first.seq, 2)
        before = [e for e in before if e.id != skip][-1:]
        for prev, episode in pairwise([*before, *episodes]):
            if prev.session_id != episode.session_id:
                continue
            who = prev.speaker or prev.role
            if config.lexical_context_turns:
                lexical[episode.id] = f"{who}: {_tail(prev.text, config.chunk_chars)}"
            if config.dense_context_turns and _answers(episode, prev):
                dense[episode.id] = f"{who}: {last_words(prev.text, DENSE_CONTEXT_CHARS)}"
        return lexical, dense

    def _dense_chars(self, episodes: Sequence[Episode]) -> dict[str, int]:
        """The dense prefix of assistant turns (`assistant_embed_chars`), by turn id."""
        chars = self.config.assistant_embed_chars
        return {e.id: chars for e in episodes if e.role == "assistant"}

    def _turn_dense_texts(self, user_id: str, ids: Sequence[str]) -> dict[str, str]:
        """The text of each turn's dense key, by turn id, for turns of one chunk (a longer
        turn's parts have keys of their own, and a memory comes from one of them)."""
        size = self.config.chunk_chars
        texts = {}
        for episode in self.store.get_episodes(user_id, list(dict.fromkeys(ids))).values():
            if size and len(episode.text) > size:
                continue
            _, before = self._turns_before(user_id, [episode])
            specs = self._chunked(episode)
            (texts[episode.id],) = self._dense(specs, self._dense_chars([episode]), before, {})
        return texts

    def _chunked(self, episode: Episode) -> list[KeySpec]:
        """A turn's key specs: one, or one per chunk of a turn longer than `chunk_chars`
        (each chunk keeps the turn's date and speaker)."""
        size = self.config.chunk_chars
        parts = [episode.text]
        if size and len(episode.text) > size:
            parts = split_chunks(episode.text, size)
        return [
            (
                episode.id,
                "episode",
                "episode",
                episode.session_id,
                episode_key_text(episode, part),
                chunk,
            )
            for chunk, part in enumerate(parts)
        ]

    def memory_keys(self, user_id: str, memory: MemoryRecord) -> list[IndexEntry]:
        """Search keys of a memory: its fact trace and, if it has one, its scene trace."""
        return self.memory_keys_many(user_id, [memory])[0]

    def memory_keys_many(
        self, user_id: str, memories: Sequence[MemoryRecord]
    ) -> list[list[IndexEntry]]:
        """`memory_keys` of each memory, their new vectors embedded in one batch (four
        texts: 60 ms in one call against 110 ms one by one, bundled embedder, 2 cores)."""
        specs: list[KeySpec] = []
        for m in memories:
            specs.append((m.id, "fact", m.kind, m.session_id, m.text, 0))
            if m.scene:
                specs.append((m.id, "scene", m.kind, m.session_id, m.scene, 0))
        # A scene quotes its turn and the turn before, which the turn's dense key holds
        # already: the scene is found in meaning by the turn's vector (reused by hash, not
        # embedded again) and in words by its own. Embedding scenes was half of a one-message
        # add's cost; on LoCoMo it moved recall@500/1000/2000 by -0.004/-0.002/+0.002.
        turns = self._turn_dense_texts(
            user_id, [m.source_episode_ids[0] for m in memories if m.scene and m.source_episode_ids]
        )
        dense_texts = {
            (m.id, "scene"): turns[m.source_episode_ids[0]]
            for m in memories
            if m.scene and m.source_episode_ids and m.source_episode_ids[0] in turns
        }
        by_id: dict[str, list[IndexEntry]] = {m.id: [] for m in memories}
        # both traces in the fact's language: a scene's dates and labels are not what the
        # memory is written in
        languages = {m.id: key_language(m.text) for m in memories}
        for key in self._keys(user_id, specs, languages, dense_texts=dense_texts):
            by_id[key.record_id].append(key)
        return [by_id[m.id] for m in memories]

    def _keys(
        self,
        user_id: str,
        specs: list[KeySpec],
        languages: dict[str, str],
        lexical_context: dict[str, str] | None = None,
        dense_chars: dict[str, int] | None = None,
        dense_context: dict[str, str] | None = None,
        *,
        dense_texts: dict[tuple[str, str], str] | None = None,
        embed: bool = True,
    ) -> list[IndexEntry]:
        """Search keys for (record id, trace, kind, session, text, chunk), each in its
        record's language (`languages`, by record id); vectors reused by hash.

        The full text goes to the full-text index; the dense vector is made from its first
        `embed_max_chars` characters (embedding cost grows with length, and the opening of
        a long turn carries its topic). `lexical_context` adds text (the turn before) to a
        record's full-text key only. `dense_chars` lowers the dense prefix for some records
        (0: no vector). `dense_context` adds text after a record's own in its dense key
        (cut first when long). The contexts go to a record's first chunk; later chunks have
        a vector only with `embed_chunks`. `dense_texts`: the dense text of a (record id,
        trace), instead of its own (a scene's: its turn's).
        """
        # a key's own dense text names it (its content hash) and gives its cross-lingual
        # vector; its main vector comes from `dense_texts` where given (a scene: its turn's,
        # reused by that text's hash). The cross-lingual embedder costs ~1 ms a text, and a
        # scene's own words found the other language's questions that its turn's missed
        # (held-out cross recall@3 0.750 / 0.938 with the turn's, 0.875 / 1.000 with its own).
        own = self._dense(specs, dense_chars or {}, dense_context or {}, {})
        dense = self._dense(specs, dense_chars or {}, dense_context or {}, dense_texts or {})
        hashes = [text_hash(text) for text in own]
        main = [text_hash(text) for text in dense]
        known = self._vectors(user_id, dense, main, embed=embed)
        crossed = self._crosslingual(user_id, own, hashes) if embed else {}
        extra = lexical_context or {}
        glossed = self.config.crosslingual_glosses
        return [
            IndexEntry(
                rid,
                trace,
                kind,
                sid,
                lexical_body([text, extra.get(rid, "") if chunk == 0 else ""]),
                h,
                known.get(m),
                chunk,
                lexical_body([gloss(text)]) if glossed else "",
                crossed.get(h),
                languages[rid],
            )
            for (rid, trace, kind, sid, text, chunk), h, m in zip(specs, hashes, main, strict=True)
        ]

    def _vectors(
        self, user_id: str, texts: list[str], hashes: list[str], *, embed: bool
    ) -> dict[str, Vector]:
        """The main embedder's vectors of the texts that have a dense key, by hash: the
        store's where it has them, the rest embedded in one batch (with `embed`)."""
        known = self.store.vectors_by_hash(
            user_id, [h for t, h in zip(texts, hashes, strict=True) if t]
        )
        todo = list(
            dict.fromkeys(t for t, h in zip(texts, hashes, strict=True) if t and h not in known)
        )
        if todo and embed:
            fresh = self.embedder.embed_passages(todo)
            known.update({text_hash(t): fresh[i] for i, t in enumerate(todo)})
        return known

    def _dense(
        self,
        specs: list[KeySpec],
        limits: dict[str, int],
        after: dict[str, str],
        given: dict[tuple[str, str], str],
    ) -> list[str]:
        """The text each spec's dense vector is made from ("": none; Traditional Chinese in
        Simplified, as questions are read: `text/script.py`); see `_keys`."""
        chunks = self.config.embed_chunks
        return [
            simplified(
                given.get((rid, trace))
                or (f"{text}\n{after[rid]}" if rid in after and chunk == 0 else text)[
                    : limits.get(rid, self.config.embed_max_chars) if chunk == 0 or chunks else 0
                ]
            )
            for rid, trace, _, _, text, chunk in specs
        ]

    def _crosslingual(self, user_id: str, texts: list[str], hashes: list[str]) -> dict[str, Vector]:
        """The cross-lingual embedder's vectors of the texts that have a dense key, by hash:
        the store's where it has them, the rest embedded (none without the embedder:
        `crosslingual_embedder` "none", or a main embedder that needs none)."""
        if self.crosslingual is None:
            return {}
        wanted = {h: t for t, h in zip(texts, hashes, strict=True) if t}
        if not wanted:
            return {}
        known = self.store.xvectors_by_hash(user_id, list(wanted))
        todo = [h for h in wanted if h not in known]
        if todo:
            vectors = self.crosslingual.embed_passages([wanted[h] for h in todo])
            known.update({h: vectors[i] for i, h in enumerate(todo)})
        return known


def _answers(episode: Episode, prev: Episode) -> bool:
    """Whether a turn answers the one before in a talk between people: another speaker's
    (not an assistant's, whose reply the full-text key quotes). A speaker's next message
    goes on, and given the last one's words in its vector, "It rained all day" after "my
    Civic's brakes squeal" ranked as a statement of the car."""
    if "assistant" in (prev.role, episode.role):
        return False
    return (prev.speaker or prev.role) != (episode.speaker or episode.role)


def last_words(text: str, size: int) -> str:
    """The end of `text` in at most `size` characters, from a word's start (a Chinese text,
    without spaces, from a character), after "…" where the text was cut."""
    if len(text) <= size:
        return text
    end = text[-size:]
    space = end.find(" ")
    if 0 <= space < size // 2:
        end = end[space + 1 :]
    return "…" + end


def _tail(text: str, size: int) -> str:
    """The end of a long turn (what the next turn answers), at most about `size` characters
    (0: all of it)."""
    return split_chunks(text, size)[-1] if size and len(text) > size else text
