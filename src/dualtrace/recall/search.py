"""Search: a question's analysis, every channel, fusion and ranking, within the user's scope."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.errors import StoreError, ValidationError
from dualtrace.inputs import (
    check_count,
    check_filters,
    check_flag,
    check_optional_id,
    check_query,
    check_user_id,
    parse_time,
)
from dualtrace.models import ITEM_KINDS, MEMORY_KINDS, Episode, Hit
from dualtrace.recall.current import (
    ANSWER_DEPTH,
    asking_lowered,
    later_word_first,
    name_lowered,
    newest_first,
    plans_lowered,
    rerank,
    slot_view,
)
from dualtrace.recall.items import read_items, with_sources
from dualtrace.recall.question import Question, analyse
from dualtrace.recall.ranking import rank
from dualtrace.recall.retriever import Retriever
from dualtrace.store.ports.reads import StoreReads
from dualtrace.store.ports.records import SearchScope
from dualtrace.text.lexical import query_terms
from dualtrace.text.question_cues import speaks_as_user
from dualtrace.text.script import simplified
from dualtrace.text.slots.names import (
    NAME,
    addresses,
    as_user,
    named_as_person,
    other_forms,
    person_names,
    speaks_of,
)
from dualtrace.text.slots.stored import slot_of

MAX_LIMIT = 1000
# Which pool each hit comes from: (last position, pool size). Hits 1-20 are the best of one
# pool of 60 candidates, hits 21-100 the best of a pool of 300 that are not among them, and so
# on. No pool's size depends on `limit`, so the first k hits are the same for every limit of
# k or more (a pool that grew with the limit let its bounded boosts lift other candidates, and
# min-max fusion scored each candidate against another crowd). Small limits, the common ones,
# rank one small pool; a 4,000-token context (400 hits) ranks 60 + 300 + 600 candidates. A
# pool of 1,200 for 400 hits spent ~40% of its time loading records that never became hits,
# and the boosts seldom lift a candidate from past 600 into the first 400 (docs/notebook.md).
# A deeper tier's scores are scaled to stay below the hits before it (`below`).
TIERS = ((20, 60), (100, 300), (400, 600), (MAX_LIMIT, MAX_LIMIT))
# A context ranks one pool for all its candidates (`read_depth`): three times as many, at
# least POOL_LEAST, at most POOL_MOST unless they are more. Its candidate count is its own
# (not a caller's limit), and one pool keeps the figures the defaults were chosen on.
POOL_MOST = 600
POOL_LEAST = 60
HEARD_DEPTH = 50  # the turns naming a person read for one of the user's own


class Searcher:
    """Hybrid search over one user's episodes and memories (see `Memory.search`)."""

    def __init__(
        self,
        store: StoreReads,
        embedder: Embedder,
        config: MemoryConfig,
        crosslingual: Embedder | None = None,
    ) -> None:
        self.store = store
        self.config = config
        self._retriever = Retriever(store, embedder, config, crosslingual)
        self._closed = False

    def close(self) -> None:
        """Stop the channel threads (a second call does nothing)."""
        if not self._closed:
            self._closed = True
            self._retriever.close()

    def search(
        self,
        query: str,
        *,
        user_id: str,
        limit: int = 10,
        as_of: object = None,
        now: object = None,
        kinds: object = None,
        session_id: object = None,
        filters: object = None,
        explain: bool = False,
    ) -> list[Hit]:
        """The best `limit` hits for `query`, checked arguments first (no reinforcement)."""
        self.check(user_id, limit, explain)
        question, scope = self.ask(
            query,
            as_of=as_of,
            now=now,
            kinds=kinds,
            session_id=session_id,
            filters=filters,
            user_id=user_id,
        )
        return self.find(question, user_id=user_id, limit=limit, scope=scope, explain=explain)

    def check(self, user_id: str, limit: int, explain: bool = False) -> tuple[str, bool]:
        """The checked user id and `explain` flag, once the store is open and `limit` checked."""
        if self._closed:  # the channel threads are gone with the store
            raise StoreError("this Memory is closed; open a new Memory to search again")
        user_id = check_user_id(user_id)
        explain = check_flag("explain", explain)
        check_count("limit", limit, MAX_LIMIT)
        return user_id, explain

    def ask(
        self,
        query: str,
        *,
        as_of: object = None,
        now: object = None,
        kinds: object = None,
        session_id: object = None,
        filters: object = None,
        user_id: str | None = None,
    ) -> tuple[Question, SearchScope]:
        """The checked question, read once (`recall/question.py`), and the scope of its
        search. "yesterday" and recency are measured from when the question is asked (`now`);
        `as_of` only chooses which memories were valid. With the (checked) `user_id`, the
        user's own names in it are read as the user ("Where does Sam work?")."""
        # read in Simplified Chinese, as the names it is compared with were (`text/script.py`)
        query = simplified(check_query(query, self.config.max_message_chars))
        if user_id is not None:
            names = (
                self.own_names(user_id, query)
                or self.addressed_names(user_id, query)
                or self.unheard_names(user_id, query)
                or self.unrelated_names(user_id, query)
            )
            query = as_user(query, names)
        scope = search_scope(self.config, as_of, now, kinds, session_id, filters)
        at = parse_time(now, field="now") if now is not None else scope.valid_at
        assert at is not None
        return self.read_at(query, at), scope

    def read_at(self, text: str, now: datetime) -> Question:
        """`text` read as a question asked at `now` (with its terms in the other language when
        the cross-lingual channel is on): `ask`'s reading, and that of each event a question
        compares (`read.py`)."""
        return analyse(text, now, translate=self.config.crosslingual_weight > 0)

    def user_names(self, user_id: str) -> list[str]:
        """Every name the user has given as their own (a former one still names them)."""
        named = self.store.memories_by_predicate(user_id, [NAME.name], include_invalid=True)
        return [
            str(slot["value"])
            for m in named
            if (slot := slot_of(m))
            and slot.get("value")
            and not slot.get("ended")
            and (m.subject or "user").casefold() in ("user", "the user", "用户")
        ]

    def own_names(self, user_id: str, query: str) -> list[str]:
        """The user's names, and each longer or shorter form of one the question names that
        nothing stored speaks of as someone else ("Margaret" of a user who signs "Marg";
        not a sister "Samira" of a user "Sam")."""
        names = self.user_names(user_id)
        forms = [n for n in other_forms(query, names) if not self._someone_else(user_id, n)]
        return [*names, *forms]

    def addressed_names(self, user_id: str, query: str) -> list[str]:
        """For a user who has given no name the engine read, the people a question names
        whom the assistant has greeted or thanked by that name ("Hi Declan!", "Thanks,
        Beth.", "晓雯你好"): whom it answers is the user. Not a question in the user's own
        words ("my", "I"), which names no one for the user."""
        if speaks_as_user(query):
            return []
        return [n for n in dict.fromkeys(person_names(query)) if self._addressed(user_id, n)]

    def _addressed(self, user_id: str, name: str) -> bool:
        turns = self._turns_naming(user_id, name)
        return any(e.role == "assistant" and addresses(e.text, name) for e in turns)

    def _turns_naming(self, user_id: str, name: str) -> list[Episode]:
        """The turns the full-text index finds for a name (the first HEARD_DEPTH)."""
        terms = query_terms(name)
        if not terms:
            return []
        found = self.store.search_lexical(
            user_id, terms, HEARD_DEPTH, SearchScope(kinds=("episode",))
        )
        return list(self.store.get_episodes(user_id, [c.record_id for c in found]).values())

    def unheard_names(self, user_id: str, query: str) -> list[str]:
        """For a user who has given no name, the one person a question names whom nothing
        stored names (no memory, no turn of the user's): whom else would it ask about than
        the one whose memory it reads? "Where does Ilse live?" of a store that never heard
        of Ilse asks where the user lives. Two such names, or none, or a question in the
        user's own words ("my", "I"), which names no one for the user: nothing is read so."""
        if speaks_as_user(query):
            return []
        unheard = [n for n in dict.fromkeys(person_names(query)) if not self._heard(user_id, n)]
        return unheard if len(unheard) == 1 else []

    def unrelated_names(self, user_id: str, query: str) -> list[str]:
        """For a user who has given no name the engine read, the one person a question names
        whom nothing stored speaks of as someone else: no slot's value or subject names them
        ("my sister Ines", a partner "Dev", "Javier works at …"), and no turn of the user's
        speaks of them ("Marco's spot", "Jonas has a dog", `speaks_of`). A name the user says
        only so signs a letter ("sign it off from Tomás Ferrer") or is their own ("ok calm
        down priya", "Me llamo Ingrid"). Two names, or a question in the user's own words:
        nothing is read so."""
        if speaks_as_user(query):
            return []
        named = list(dict.fromkeys(person_names(query)))
        if len(named) != 1 or not named_as_person(query, named[0]):
            return []  # (a capitalised word that names a place: "the Tahoe place")
        return [] if self._someone_else(user_id, named[0]) else named

    def _someone_else(self, user_id: str, name: str) -> bool:
        """Whether what is stored holds `name`, or a longer or shorter name of the same
        person ("Melanie" of "Mel"), as another person (`_held_as_other`)."""
        names = dict.fromkeys([name.casefold(), *self._retriever.aliases(user_id, name)])
        return any(self._held_as_other(user_id, n) for n in names)

    def _held_as_other(self, user_id: str, name: str) -> bool:
        """Whether a memory naming `name` (among the first HEARD_DEPTH the full-text index
        finds, ended ones too) holds them as another person (a slot's value or subject, or its
        text speaks of them), or a turn of the user's naming them speaks of them."""
        terms = query_terms(name)
        if not terms:
            return True
        scope = SearchScope(kinds=MEMORY_KINDS, include_invalid=True)
        found = self.store.search_lexical(user_id, terms, HEARD_DEPTH, scope)
        records = self.store.get_memories(user_id, [c.record_id for c in found]).values()
        folded = name.casefold()
        for m in records:
            slot = slot_of(m) or {}
            if slot.get("attribute") == NAME.name and not slot.get("subject"):
                continue  # the user's own name ("sign it off from Lucía Romero")
            said = (str(slot.get("value") or ""), str(slot.get("subject") or ""), m.subject or "")
            if any(folded in s.casefold() for s in said) or speaks_of(m.text, name):
                return True  # ("Ann painted the lake": a speaker of a group chat, by name)
        turns = self._turns_naming(user_id, name)
        return any(e.role == "user" and speaks_of(e.text, name) for e in turns)

    def _heard(self, user_id: str, name: str) -> bool:
        terms = query_terms(name)
        if not terms or self._retriever.knows(user_id, name):
            return True
        memories = SearchScope(kinds=MEMORY_KINDS, include_invalid=True)
        if self.store.search_lexical(user_id, terms, 1, memories):
            return True
        folded = name.casefold()
        turns = self._turns_naming(user_id, name)
        return any(e.role == "user" and folded in e.text.casefold() for e in turns)

    def find(
        self,
        question: Question,
        *,
        user_id: str,
        limit: int,
        scope: SearchScope,
        explain: bool = False,
        depth: int | None = None,
    ) -> list[Hit]:
        """The best `limit` hits for a question in `scope` (from `ask`): each from the pool of
        its position (TIERS), or, with `depth`, all from one pool of that many candidates."""
        user_id, explain = self.check(user_id, limit, explain)
        as_of = scope.occurred_before  # None unless the call gave `as_of`
        if question.refers_to_past and as_of is None:  # "where did I live before?"
            scope = replace(scope, include_invalid=True)
        if depth is not None:  # one pool, as the read path asks (see `depth`)
            return self._ranked(
                user_id, question, scope, depth=depth, limit=limit, as_of=as_of, explain=explain
            )[:limit]
        hits: list[Hit] = []
        for end, size in TIERS:  # each tier's hits from its own pool (see TIERS)
            ranked = self._ranked(
                user_id,
                question,
                scope,
                depth=size,
                limit=min(limit, end),
                as_of=as_of,
                explain=explain,
            )
            shown = {h.id for h in hits}
            hits += below(hits, [h for h in ranked if h.id not in shown][: end - len(hits)])
            if limit <= end:
                break
        return hits[:limit]

    def _ranked(
        self,
        user_id: str,
        question: Question,
        scope: SearchScope,
        *,
        depth: int,
        limit: int,
        as_of: datetime | None,
        explain: bool,
    ) -> list[Hit]:
        """The first `limit` (at least) ranked hits of one pool of `depth` candidates."""
        pool = self._retriever.retrieve(user_id, question, depth, scope)
        # a question about the present, or about a moment (`as_of`): what a slot held then
        # leads; a question about the past ("before") keeps relevance and time as they are
        moment = not question.refers_to_past and self.config.slot_weight > 0
        if moment:
            view = slot_view(self.store, user_id, question, as_of)
            if view is not None:  # the slot's value at that moment leads (`current.py`)
                join = scope.kinds is None and scope.session_id is None and not scope.metadata
                pool = rerank(pool, view, self.config.slot_weight, join=join)
        # what is read past the first `limit` (ANSWER_DEPTH) unless `as_of` drops some
        keep = None if as_of is not None else max(limit, ANSWER_DEPTH)
        # ranked without their memories' sources where ranking does not read them (a speaker
        # boost does), which are read for the kept hits only
        sources = keep is None or bool(question.entities and self.config.speaker_weight > 0)
        loaded = read_items(self.store, user_id, [s.record_id for s in pool], sources=sources)
        hits = rank(pool, loaded.items, question, self.config, explain=explain, keep=keep)
        hits = with_sources(self.store, user_id, hits, loaded)
        if as_of is not None:  # what was known then: a memory drawn from later turns was not
            hits = [h for h in hits if said_by(h, as_of)]
        if moment:  # over the first ANSWER_DEPTH, whatever `limit`: the newest statement
            # may rank low, and a deeper window let more turns that merely mention the slot
            # lead (the first hits changed with `limit`)
            hits = newest_first(hits[:ANSWER_DEPTH], question) + hits[ANSWER_DEPTH:]
            hits = plans_lowered(hits, question, ANSWER_DEPTH)
            hits = asking_lowered(hits, question, ANSWER_DEPTH)
            hits = name_lowered(hits, question, ANSWER_DEPTH)
            hits = later_word_first(hits, question)
        return hits


def below(shown: list[Hit], tier: list[Hit]) -> list[Hit]:
    """A deeper tier's hits, scaled (`tier_scale` in their scores) so that none scores above
    the hits shown before it: each pool's min-max fusion scores on its own scale, and a
    deeper, weaker crowd puts the same candidates higher on theirs."""
    if not shown or not tier or tier[0].score <= shown[-1].score or tier[0].score <= 0:
        return tier
    top = max(shown[-1].score, 0.0)
    scale = top / tier[0].score
    return [
        replace(h, score=min(h.score * scale, top), scores={**h.scores, "tier_scale": scale})
        for h in tier
    ]


def read_depth(limit: int) -> int:
    """The pool a context of `limit` candidates ranks (see POOL_MOST)."""
    return max(min(3 * limit, POOL_MOST), limit, POOL_LEAST)


def said_by(hit: Hit, moment: datetime | None) -> bool:
    """Whether a hit had been said by `moment`: a memory whose turns all came later was not
    known then, even when its valid time starts earlier ("this year", said in May, is not
    what was known in April)."""
    if moment is None or hit.kind == "episode" or not hit.sources:
        return True
    return min(s.occurred_at for s in hit.sources) <= moment


def search_scope(
    config: MemoryConfig,
    as_of: object,
    now: object,
    kinds: object,
    session_id: object,
    filters: object,
) -> SearchScope:
    """The checked scope of a read: valid time, kinds, session and metadata filters."""
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
    metadata: dict[str, Any] = check_filters(filters)
    return SearchScope(
        kinds=None if kinds is None else tuple(kinds),
        session_id=check_optional_id("session_id", session_id),
        valid_at=as_of_t or now_t,
        metadata=metadata,
        occurred_before=as_of_t,
        traces=config.search_traces,
    )
