"""The current truth of a slot leads for questions about the present.

A question that asks about a slot ("Which city do I live in?", "我的买车预算是多少？") finds
the slot's memories directly, not only through the channels. For a question about the
present (no `as_of`, no "before"), the newest valid memory of each asked slot that the
channels found (it, or its turn, among the candidates: `_found`) joins the pool at the
level of the best hit, lifted by the slot boost (as is the turn it was drawn from),
and what that value replaced loses ground: a closed memory of the slot, and a turn that
stated only a replaced value, are pushed down by the same factor — they stay findable,
after the current value, and fully for questions about the past.

Whatever extraction caught, for a question about the user's own slot (or one that names no
one else) the hits that state a value of it then lead, newest first (`newest_first`): the
latest statement of a value is the current one, and a turn that only shares the question's
words, or sits beside a statement, is no answer (`context()` shows such a question's lines
newest first, `packing.py`). Where no rule caught a change, a later statement of one by the
user (a change cue, no hedge or plan, near the question in meaning) still takes the lead for
a question about the present (`later_word_first`).

A plan or a maybe is not yet the value: a hit that only says what will or may be ("Lease
starts April 1", "if I say yes I move in January", "8月5号一起搬过去") never leads the newest
statements, and for a question about the present it scores PLAN_SHARE of itself
(`plans_lowered`) until the days it names have come.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache

from dualtrace.models import Hit, Item, MemoryRecord
from dualtrace.recall.ahead import only_ahead, stated, wants_plans
from dualtrace.recall.question import Question, analyse
from dualtrace.recall.retriever import Scored
from dualtrace.recall.state import assistant_turn, memory_slot
from dualtrace.store.ports.reads import RecordReads
from dualtrace.text.entities import normalise_name
from dualtrace.text.lexical import query_terms
from dualtrace.text.owners import about_other
from dualtrace.text.question_cues import in_past_tense, whose_slot
from dualtrace.text.script import simplified
from dualtrace.text.slots import (
    BY_NAME,
    SlotQuestion,
    ask,
    cues,
    find_statements,
    qualifier_of,
    same_subject,
    whose,
)
from dualtrace.text.slots.family import names_relation
from dualtrace.text.slots.finder import ALLERGY, allergic
from dualtrace.text.slots.names import NAME
from dualtrace.text.slots.pets import bare_kind, names_kind
from dualtrace.text.slots.stored import holds_value
from dualtrace.text.tense import looks_ahead

# A statement of the asked slot's value is put in order by date when it scores at least
# this share of the best hit: a passing mention far down does not jump ahead.
ANSWER_FLOOR = 0.1
# ... and, unless it is a memory that holds the slot's value (as extraction read it), when it
# is near the question in meaning: its dense score, normalised over the pool, at least this.
# A question that says a slot's word may ask something else ("医生让我每天吃几片钙片？" says
# 吃, the diet's word), and a turn that only shares that word ("狗狗吃的是冻干") is no
# statement of its answer; a value read from the newest turn leads however it is worded
# ("finally packed the van and relocated to Braga" for "Where do I live now?").
ANSWER_DENSE = 0.3
# How deep the ranked hits are searched for statements of the asked slot's value.
ANSWER_DEPTH = 10
# What a hit that only says what will or may be scores, for a question about the present.
PLAN_SHARE = 0.8
# What a user's turn that only asks scores, for a question about the user's own matter.
ASKING_SHARE = 0.7
# What a memory of the user's own name scores, for a question that asks no name.
NAME_SHARE = 0.5


@dataclass(frozen=True)
class SlotView:
    """The asked slots' current memories and what they replaced."""

    current: tuple[str, ...]  # ids of the newest value-holding memories of each asked slot
    said: frozenset[str]  # the turns they were drawn from
    stale: frozenset[str]  # closed memories of the asked slots and turns that said only them
    # each current memory's attribute and source turns (`rerank` picks among attributes)
    attributes: dict[str, str] = field(default_factory=dict)
    sources: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the question names the member it asks for ("my son's name", "what is my rabbit
    # called?"): its values lead even where the channels missed them (`_found`)
    named: bool = False


def asks_now(question: str) -> tuple[SlotQuestion, ...]:
    """The slots a question asks the current value of: none for a question in the past
    tense, whose answer is an event at its own date rather than the newest statement (the
    read path reads `Question.slots`)."""
    return () if in_past_tense(question) else ask(question)


def asks_own_now(question: str) -> tuple[SlotQuestion, ...]:
    """`asks_now` for a question about the user's own slots ("Which city do I live in?",
    "我现在在哪家公司工作？", or "When is the wedding?", which names no one else): there the
    newest statement is the answer, whatever its words. About others (a name, "Caroline's
    job", "her job"), the words that put a turn in a slot's domain are too loose a sign that
    it states the slot (the read path reads `Question.own_slots`)."""
    return analyse(question, datetime.now(UTC)).own_slots


# Slots whose value is a place or an organisation.
_PLACED_SLOTS = frozenset({"lives_in", "works_at", "studies_at", "from"})


def slot_view(
    store: RecordReads, user_id: str, question: Question, at: datetime | None = None
) -> SlotView | None:
    """What the question's slots hold now (or at `at`, a search's `as_of`), or None when
    it asks about no slot's value."""
    asked = question.slots
    if not asked:
        return None
    memories = store.memories_by_predicate(
        user_id, sorted({q.attribute for q in asked}), include_invalid=True
    )
    where = {q.attribute for q in asked} <= _PLACED_SLOTS
    people = whose_slot(question.text, question.entities, asks_where=where)
    mine = [m for m in memories if _asked(m, asked, people)]
    if at is not None:  # what was known then: drawn from turns said by that moment
        mine = _known_by(store, user_id, mine, at)
    if not mine:
        return None
    # a value dated after the moment asked about (a planned change) is not current yet
    valid = [m for m in mine if valid_at(m, at) and begun(m, at or question.now)]
    newest: dict[tuple[str, ...], MemoryRecord] = {}
    for m in valid:  # oldest first: the last one of a slot is its newest value
        if holds_value(m):  # a many-valued slot keeps every value: each is its own key
            newest[(*_key(m), m.id) if _slot(m).get("many") else _key(m)] = m
    current = tuple(m.id for m in newest.values())
    closed = [m for m in mine if not valid_at(m, at) and begun(m, at)]
    still = {s for m in valid for s in m.source_episode_ids}
    stale = {m.id for m in closed} | {
        s for m in closed for s in m.source_episode_ids if s not in still
    }
    said = {s for m in newest.values() for s in m.source_episode_ids}
    return SlotView(
        current,
        frozenset(said),
        frozenset(stale - said),
        attributes={m.id: m.predicate or "" for m in newest.values()},
        sources={m.id: m.source_episode_ids for m in newest.values()},
        named=any(q.qualifier and not BY_NAME[q.attribute].qualified for q in asked),
    )


def _found(pool: list[Scored], view: SlotView) -> SlotView:
    """The view without the current values no channel found, neither them nor a turn they
    were drawn from, unless the question names the member it asks for ("my son's name",
    "what is my rabbit called?": precise, its values lead as they are).

    A question that says a slot's words but asks something else ("When does my passport run
    out?" says the exercise slot's "run") put the slot's values first; those values were not
    among the candidates at all, where a slot question's answer said implicitly often is, at
    a tenth to a third of the best score. Over the ten dev sets of `bench crosslingual` this
    gained 7 cross-lingual and 2 same-language pairs at recall@3 and lost none; a floor of
    0.3 of the best score cost scenario questions (docs/benchmarks.md, cross-lingual
    recall)."""
    if view.named:
        return view
    found = {s.record_id for s in pool}
    kept = [i for i in view.current if found & {i, *view.sources.get(i, ())}]
    if len(kept) == len(view.current):
        return view
    return replace(
        view,
        current=tuple(kept),
        said=frozenset(s for i in kept for s in view.sources.get(i, ())),
        attributes={i: a for i, a in view.attributes.items() if i in kept},
    )


def _supported(pool: list[Scored], view: SlotView) -> SlotView:
    """The view narrowed to the asked attribute the channels found best, when a question
    asks several ("When does my driving licence run out?" says words of the vehicle and the
    exercise slots): the one whose current value, or the turn that said it, scores highest
    in the pool. A question of one attribute, or whose attributes the channels found none
    of, keeps them all."""
    if len(set(view.attributes.values())) < 2:
        return view
    score = {s.record_id: s.score for s in pool}
    best: dict[str, float] = {}
    for i, attribute in view.attributes.items():
        found = [score[r] for r in (i, *view.sources.get(i, ())) if r in score]
        if found:
            best[attribute] = max(best.get(attribute, 0.0), *found)
    if not best:
        return view
    top = max(best.values())
    kept = [i for i, a in view.attributes.items() if best.get(a) == top]
    said = frozenset(s for i in kept for s in view.sources.get(i, ()))
    return replace(view, current=tuple(kept), said=said)


def rerank(pool: list[Scored], view: SlotView, weight: float, *, join: bool) -> list[Scored]:
    """The pool with the current values lifted (and joined to it, with `join`: when the
    search's scope admits every memory), and the replaced ones pushed down."""
    if weight <= 0 or (not pool and not view.current):
        return pool
    view = _supported(pool, _found(pool, view))
    top = max((s.score for s in pool), default=1.0)
    present = {s.record_id for s in pool}
    joined = [Scored(i, top, {"slot": 1.0}) for i in view.current if join and i not in present]
    ranked = []
    for s in [*pool, *joined]:
        if s.record_id in view.current:  # at least level with the best, then lifted
            score = max(s.score, top) * (1 + weight)
            s = replace(s, score=score, scores={**s.scores, "slot": 1.0})
        elif s.record_id in view.said:
            s = replace(s, score=s.score * (1 + weight), scores={**s.scores, "slot": 0.5})
        elif s.record_id in view.stale:
            s = replace(s, score=s.score / (1 + weight), scores={**s.scores, "slot": -1.0})
        ranked.append(s)
    ranked.sort(key=lambda s: -s.score)
    return ranked


def _known_by(
    store: RecordReads, user_id: str, memories: list[MemoryRecord], at: datetime
) -> list[MemoryRecord]:
    """The memories known by `at`: drawn from at least one turn said by then."""
    ids = sorted({s for m in memories for s in m.source_episode_ids})
    said = {i for i, e in store.get_episodes(user_id, ids).items() if e.occurred_at <= at}
    return [m for m in memories if not m.source_episode_ids or said & set(m.source_episode_ids)]


def valid_at(m: MemoryRecord, at: datetime | None) -> bool:
    """Valid now (not closed), or at `at`: begun by then and not yet closed."""
    if at is None:
        return m.valid_to is None and m.invalidated_at is None
    return begun(m, at) and (m.valid_to is None or m.valid_to > at)


def begun(m: MemoryRecord, at: datetime | None) -> bool:
    """Begun by `at` (valid time; any time when `at` is None)."""
    return at is None or m.valid_from is None or m.valid_from <= at


def _slot(m: MemoryRecord) -> dict[str, object]:
    slot = m.metadata.get("slot")
    return slot if isinstance(slot, dict) else {}


def _key(m: MemoryRecord) -> tuple[str, str, str]:
    slot = _slot(m)
    return (m.subject or "").casefold(), m.predicate or "", str(slot.get("qualifier") or "")


def _asked(m: MemoryRecord, asked: Sequence[SlotQuestion], people: frozenset[str]) -> bool:
    """Whether a memory fills a slot the question asks about (its subject and qualifier)."""
    slot = _slot(m)
    subject = normalise_name(m.subject or "")
    for q in asked:
        if m.predicate != q.attribute:
            continue
        if not same_subject(q.subject, str(slot.get("subject") or "") or None):
            continue  # the user's slot is not the sister's
        if people and q.subject is None and subject not in people:
            continue  # the question names whose slot it is
        others = BY_NAME[q.attribute].of_others  # the family: other people by nature
        if q.subject is None and not people and not others and about_other(m.text):
            continue  # "The user's coworker learned Korean": not the user's language
        if q.qualifier and slot.get("qualifier") not in (q.qualifier, None):
            continue
        if not _narrowed(m.text, q, str(slot.get("value") or "")):
            continue
        return True
    return False


def _narrowed(text: str, q: SlotQuestion, value: str) -> bool:
    """Whether a memory (its text and slot value) fits the word that narrows an unqualified
    slot's question: the family asked by relation ("my son's name") holds that relation, a
    pet asked by kind ("my rabbit's name") names that kind, and by a name ("we rescued a
    whippet" names none)."""
    if not q.qualifier or BY_NAME[q.attribute].qualified:
        return True
    if q.attribute == "pet":  # asked by its kind: "my rabbit's name"
        return names_kind(text, q.qualifier) and not bare_kind(value)
    if q.qualifier == ALLERGY:  # a health question about allergies: an allergy
        return allergic(text)
    return names_relation(text, q.qualifier)


def answering(hits: Sequence[Item], question: Question) -> frozenset[str]:
    """Ids of the hits that state a value of a slot the question asks about — by their slot
    when they are memories that fill one, else by the attribute's words in their text —
    leaving out other people's values, hedges and other qualifiers ("bike budget" for a
    question about the laptop budget)."""
    asked = question.own_slots
    if not asked:
        return frozenset()
    return frozenset(h.id for h in hits if any(_answers(h, q) for q in asked))


def stating(hits: Sequence[Item], question: Question) -> frozenset[str]:
    """Ids of the hits whose statements, as extraction reads them, give a value of a slot the
    question asks about: `answering` without the turns that only use the attribute's words
    ("工作日一般" is no employer), for marking what a later statement replaced."""
    asked = question.own_slots
    if not asked:
        return frozenset()
    # among the hits that use the attribute's words (`answering`, cached by text), those
    # that state it: reading every hit's statements cost a context ~200 ms
    chosen = answering(hits, question)
    return frozenset(
        h.id
        for h in hits
        if h.id in chosen
        and any(_answers(h, q) if h.kind != "episode" else _text_states(h.text, q) for q in asked)
    )


@lru_cache(maxsize=4096)
def _text_states(said_text: str, q: SlotQuestion) -> bool:
    """Whether a turn's statements, as extraction reads them, give a value of the slot."""
    if q.subject is None and about_other(said_text):
        return False
    return any(
        s.attribute == q.attribute
        and same_subject(q.subject, s.subject)
        and not s.hedged
        and (not q.qualifier or s.qualifier in (None, q.qualifier))
        for sentence in stated(said_text)
        for s in find_statements(sentence)
    )


def newest_first(hits: list[Hit], question: Question) -> list[Hit]:
    """For a question about the user's own present value, the hits that state the slot lead,
    newest first, taking the best scores in turn: whatever the words, the latest statement
    of a value is the current one, and a turn that only shares the question's words (or
    sits beside a statement) is no answer to it."""
    chosen = answering(hits, question)
    floor = ANSWER_FLOOR * max((h.score for h in hits), default=0.0)
    plans = wants_plans(question)
    # a store of fewer records than the window ranks them all: min-max over a handful puts
    # the farthest at 0 whatever it says, so nearness is read only over a full window
    near = ANSWER_DENSE if len(hits) >= ANSWER_DEPTH else 0.0
    lead = [
        h
        for h in hits
        if h.id in chosen
        and h.score >= floor
        and (_holds_slot(h, question) or h.scores.get("dense", 0.0) >= near)
        and (plans or not only_ahead(h, question.now))
    ]
    if not lead:
        return hits
    # the turn a leading memory was drawn from adds nothing beside it: it follows the lead
    # (a later turn that only restated or ended the value is a statement of its own)
    told = {
        min(h.sources, key=lambda s: s.occurred_at).episode_id
        for h in lead
        if h.kind != "episode" and h.sources
    }
    lead = [h for h in lead if h.id not in told]
    # the latest word on it (not the date it names), by day: said the same day, the better
    # match first
    lead.sort(key=lambda h: (-h.said_at.date().toordinal(), -h.score))
    led = {h.id for h in lead}
    rest = [h for h in hits if h.id not in led]
    scores = sorted((h.score for h in hits), reverse=True)
    return [replace(h, score=s) for h, s in zip([*lead, *rest], scores, strict=True)]


def _holds_slot(hit: Hit, question: Question) -> bool:
    """Whether a hit is a memory that holds a value of a slot the question asks."""
    slot = memory_slot(hit)
    asked = {q.attribute for q in question.own_slots}
    return slot is not None and slot.get("attribute") in asked and bool(slot.get("value"))


def plans_lowered(hits: list[Hit], question: Question, depth: int) -> list[Hit]:
    """For a question about the present, each of the first `depth` hits that only says what
    will or may be (`only_ahead`) is placed as if it scored PLAN_SHARE of itself, unless the
    question wants plans (`wants_plans`)."""
    if wants_plans(question):
        return hits
    return _lowered(hits, depth, lambda h: only_ahead(h, question.now), PLAN_SHARE)


def asking_lowered(hits: list[Hit], question: Question, depth: int) -> list[Hit]:
    """For a question about what holds now (a slot of the user's, or "these days" about no
    one else), each of the first `depth` hits that states nothing, a turn of the user's that
    only asks ("what's a good monospace font", "副业收入要报税吗"), is placed as if it scored
    ASKING_SHARE of itself: it shares the question's topic, not its answer. Not for a
    question about what was asked or said before, nor for what the assistant said."""
    if question.refers_to_past or question.aggregate is not None or question.asks_assistant:
        return hits
    if not (question.own_slots or (question.present and not question.names_someone_else)):
        return hits
    return _lowered(hits, depth, _states_nothing, ASKING_SHARE)


def name_lowered(hits: list[Hit], question: Question, depth: int) -> list[Hit]:
    """For a question that asks no one's name, each of the first `depth` hits that is a
    memory of the user's own name ("用户叫周以宁") is placed as if it scored NAME_SHARE of
    itself: short and about the user, it sits near in meaning to any question about the
    user ("周以宁的女儿叫什么？" is read as "我的女儿叫什么？"), and answers none but its own."""
    if any(q.attribute == NAME.name for q in question.slots):
        return hits
    return _lowered(hits, depth, _own_name, NAME_SHARE)


def _own_name(hit: Hit) -> bool:
    slot = memory_slot(hit)
    return slot is not None and slot.get("attribute") == NAME.name and not slot.get("subject")


def _states_nothing(hit: Hit) -> bool:
    return not assistant_turn(hit) and not stated(hit.text)


def _lowered(hits: list[Hit], depth: int, low: Callable[[Hit], bool], share: float) -> list[Hit]:
    """The hits with each of the first `depth` that is `low` placed as if it scored `share`
    of itself, put in order within the window, which keeps its scores: the first hits are
    the same whatever `limit` made the list longer."""
    window = hits[:depth]
    lowered = {h.id for h in window if low(h)}
    if not lowered:
        return hits
    order = sorted(window, key=lambda h: -h.score * (share if h.id in lowered else 1.0))
    scores = [h.score for h in window]
    return [replace(h, score=s) for h, s in zip(order, scores, strict=True)] + hits[depth:]


def _answers(item: Item, q: SlotQuestion) -> bool:
    if assistant_turn(item):
        return False  # what an assistant says back ("Glad the new job is working out!")
    if q.subject is None and not BY_NAME[q.attribute].of_others and about_other(item.text):
        return False  # opens on another person's matter: not the user's value
    slot = memory_slot(item)
    if not _narrowed(item.text, q, str((slot or {}).get("value") or "")):
        return False
    if slot is not None:
        return (
            slot.get("attribute") == q.attribute
            and slot.get("subject") == q.subject
            and not slot.get("hedged")
            and not slot.get("ended")
            and (not q.qualifier or slot.get("qualifier") in (None, q.qualifier))
        )
    return _text_answers(item.text, q)


@lru_cache(maxsize=4096)
def _text_answers(said_text: str, q: SlotQuestion) -> bool:
    """Whether a text states a value of the asked slot by the attribute's words (cached: a
    pure function of the text, which the same turns among the hits ask again and again)."""
    attribute = BY_NAME[q.attribute]
    sentences = stated(said_text)
    # sentence by sentence, those with the attribute's words: a statement is a clause's, and
    # reading a long turn whole for every attribute took ~9 ms (a person named sentences
    # before the value is not whose value it is)
    holding = [sentence for sentence in sentences if attribute.about.search(sentence)]
    if not holding:
        return False
    text = " ".join(sentences)
    said = [
        s for sentence in holding for s in find_statements(sentence) if s.attribute == q.attribute
    ]
    if said and not any(same_subject(q.subject, s.subject) and not s.hedged for s in said):
        return False  # someone else's value, or only a maybe
    if not said and not same_subject(q.subject, whose(q.attribute, text)):
        return False  # last about someone else ("bought my dad a Galaxy for his birthday")
    mentioned = qualifier_of(attribute, text)
    return not (q.qualifier and mentioned and mentioned != q.qualifier)


CHANGE_DEPTH = 10  # how deep a later statement of a change is looked for
# ... and how near in meaning to the question it must be: its dense score, normalised over
# the pool (1.0 the nearest candidate). A change cue alone is no topic: "现在不吃素了" is no
# answer to where one lives.
CHANGE_DENSE = 0.8


def later_word_first(hits: list[Hit], question: Question) -> list[Hit]:
    """For a question about the user's present, the user's own statement of a change, said
    after the leading hit, leads instead ("switched ISPs finally, on Verizon Fios now" over
    "Our internet is Comcast" that the slot lead lifted): the rules that fill a slot miss
    many phrasings of a change, and a statement of one, said later, is the newer word. A
    change is a statement by the user, about the user (not another person's, not a question
    nor a request), with a change cue ("now", "switched", "换成", "不再") and no hedge,
    condition or plan; the best scoring such hit among the first CHANGE_DEPTH, near the
    question in meaning (CHANGE_DENSE) and on the lead's matter where the lead states the
    asked slot's value (`_on_topic`: "subway only now" is no change of employer), takes the
    lead's place."""
    if not hits or question.refers_to_past or question.names_someone_else:
        return hits  # about another person, the user's statements are no answer
    if not question.present:  # "now", "these days", "现在": not a name, not a hometown
        return hits
    lead = hits[0]
    window = hits[1:CHANGE_DEPTH]
    later = [
        h
        for h in window
        if h.said_at.date() > lead.said_at.date()
        and h.occurred_at <= question.now  # not a change dated ahead ("辞职, end of December")
        and not only_ahead(h, question.now)  # nor one that names only days to come
        and h.scores.get("dense", 0.0) >= CHANGE_DENSE
        and _a_change(h)
        and _on_topic(h, question, lead)
    ]
    if not later:
        return hits
    best = later[0]  # the hits are best first
    scores = [h.score for h in hits]
    order = [best, *(h for h in hits if h.id != best.id)]
    return [replace(h, score=s) for h, s in zip(order, scores, strict=True)]


def _on_topic(hit: Hit, question: Question, lead: Hit) -> bool:
    """Whether a change may displace the leading hit: any may, unless the lead states a value
    of an asked slot; then the change must be in the words of an asked attribute or share a
    word with the lead ("subway only now" is no change of employer; "Cancelled Iron Works,
    I'm at the climbing hall now" is one of gym)."""
    if not _states_value(lead, question):
        return True
    if any(BY_NAME[q.attribute].about.search(simplified(hit.text)) for q in question.own_slots):
        return True
    return bool(_words(hit.text) & _words(lead.text))


def _states_value(hit: Hit, question: Question) -> bool:
    """Whether a hit states a value of a slot the question asks: its memory holds one, or its
    text gives one as extraction reads it (not only the attribute's words)."""
    if _holds_slot(hit, question):
        return True
    said = hit.sources[0].text if hit.kind != "episode" and hit.sources else hit.text
    return any(_text_states(said, q) for q in question.own_slots)


_THE_USER = frozenset({"user", "用户"})


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    """A text's search terms, less the words that name the user."""
    return frozenset(query_terms(text)) - _THE_USER


def _a_change(hit: Hit) -> bool:
    source = hit.sources[0] if hit.sources else None
    if source is None or source.role != "user":
        return False
    text = hit.text if hit.kind == "episode" else source.text
    said = " ".join(stated(text))
    if not said or about_other(hit.text) or not cues.CHANGE.search(said):
        return False
    # a change said ahead ("I'll move in May", "下个月开始…") is not yet the value
    return not (cues.HEDGE.search(said) or cues.CONDITION.search(said) or looks_ahead(said))
