"""Packing hits into a prompt-ready context under a cl100k_base token budget.

Items are chosen best first (relevance after boosts; newest first among equals), skipping
near-copies; a hit whose turns are cited already (the turn behind a fact) comes back later
only if it adds words; a long turn shows its sentences nearest the query (`snippets.py`); a
memory drawn from the user's message to an assistant shows the message (`requests.py`).
They are then shown in two stable sections: what is known about the user (facts and
preferences) and what was said or happened. Within each section items are grouped under
their date, newest first, so the current value of a changing fact comes first; a date is
written once per group rather than on every line, and each line ends with its source turns
in brackets — the budget goes to what was said, not to labels. A question about a value that
changes (a slot: where one lives, a budget) or about the present ("these days", "现在") gets
one section, facts and turns alike, grouped by the day each was said (`Item.said_at`), the
latest first: no value is shown above a newer statement of it, whether or not it was
extracted, and "stopped drinking back in March", said in May, is the newest word on drinking.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache

from dualtrace.config import MemoryConfig
from dualtrace.models import Context, Hit, Source
from dualtrace.recall.current import stating
from dualtrace.recall.question import Question, analyse
from dualtrace.recall.requests import messages_to_assistant
from dualtrace.recall.snippets import clause_snippet, focus_words, longer_than, snippet
from dualtrace.recall.state import PLANNED, note, small_talk, states
from dualtrace.store.ports.session_reads import SessionReads
from dualtrace.text.lexical import content_words
from dualtrace.text.slots import BY_NAME
from dualtrace.text.tokens import count_tokens, truncate_to_tokens

HEADER = "## Memories, newest first; [n] = source turn"  # 12 tokens; `context_header`
PROFILE = "### Facts and preferences"
MOMENTS = "### Events and conversation"
TIMELINE = "### About it, newest first"
PROFILE_KINDS = frozenset({"fact", "preference"})
SMALL_ROOM = 64  # below this, a hit's frame is measured before its text (`_no_room`)
MIN_LINE_TOKENS = 3  # "- x" and its line break: with less room left, nothing fits
# A source is cited by the caller's own message id when that id is this short ("D1:3");
# otherwise by a number per context ("[2]"); `Context.references` maps labels to turn ids.
MAX_REF_TOKENS = 4
# A memory cut to fit keeps whole clauses only, and only a clause of at least this many
# words (or CJK characters / 2) — never a stub such as "The user's…".
MIN_CLAUSE_WORDS = 3
MIN_EXCERPT_TOKENS = 16  # a run-on turn is cut to its opening words only with this much room
NEAR_COPY = 0.8  # Jaccard overlap of word sets above which a hit adds nothing new
# A hit whose turns are all cited already (a turn after the fact drawn from it) cites nothing
# new: it is shown only when at least NOVEL_SHARE of its content words are not yet shown for
# those turns, and it then competes at REPEAT_WEIGHT times its score, after the hits that
# bring new turns in at the same relevance.
NOVEL_SHARE = 0.3
REPEAT_WEIGHT = 0.4
_WORDS = re.compile(r"[^\W_]+")


def order_for_context(hits: Sequence[Hit], *, tie: float = 0.02) -> list[Hit]:
    """Best score first; within equal relevance, newest first.

    Scores are bucketed in steps of `tie` times the best score, so hits whose scores differ
    by less than that count as equally relevant.
    """
    if not hits:
        return []
    step = tie * max(max(h.score for h in hits), 1e-9)
    return sorted(hits, key=lambda h: (-round(h.score / step), -h.occurred_at.timestamp()))


def date_label(hit: Hit, *, said: bool = False) -> str:
    """The date line that heads a hit's group, e.g. "Thu 1 January 2026" (as scenes write
    dates): when it happened, or with `said`, when it was said (`Item.said_at`)."""
    when = hit.said_at if said else hit.occurred_at
    return f"{when:%a} {when.day} {when:%B %Y}"


def hit_line(hit: Hit, *, text: str | None = None, refs: Sequence[str] | None = None) -> str:
    """One provenance-tagged context line for a hit (its `text`, or what `_fit` shows of
    it), ending with its source labels (`refs`; by default the caller's message ids, else
    the stored ids); its date is the group's (`date_label`)."""
    text = hit.text if text is None else text
    if hit.kind == "episode" and hit.sources:
        body = f"{hit.sources[0].speaker or 'unknown'}: {text}"
    else:
        body = text
    body = " ".join(body.split())
    if refs is None:
        refs = [s.external_id or s.episode_id for s in hit.sources[:MAX_SOURCES]]
    tag = f" [{', '.join(refs)}]" if refs else ""
    return f"- {body}{tag}"


MAX_SOURCES = 3  # source turns cited on one line


class _Labels:
    """How a context cites source turns: by the caller's message id when it is short, else
    by a number given in order of first citation (skipping numbers that are message ids)."""

    def __init__(self, reserved: frozenset[str]) -> None:
        self.reserved = reserved
        self.numbers: dict[str, str] = {}

    @staticmethod
    def own_ids(hits: Sequence[Hit]) -> frozenset[str]:
        """The short message ids these hits' sources may be cited by."""
        return frozenset(
            s.external_id
            for h in hits
            for s in h.sources[:MAX_SOURCES]
            if s.external_id is not None and _short_ref(s.external_id)
        )

    def _label(self, source: Source, numbers: dict[str, str]) -> str:
        if source.external_id is not None and source.external_id in self.reserved:
            return source.external_id
        if source.episode_id not in numbers:
            n = len(numbers) + 1
            while str(n) in self.reserved or str(n) in numbers.values():
                n += 1
            numbers[source.episode_id] = str(n)
        return numbers[source.episode_id]

    def of(self, hit: Hit) -> list[str]:
        """The labels of a hit's sources (numbers not yet given are counted as the next)."""
        numbers = dict(self.numbers)
        return [self._label(s, numbers) for s in hit.sources[:MAX_SOURCES]]

    def cite(self, hit: Hit) -> list[str]:
        """The labels of a hit's sources, giving numbers to those not cited yet."""
        return [self._label(s, self.numbers) for s in hit.sources[:MAX_SOURCES]]


@lru_cache(maxsize=4096)
def _short_ref(external_id: str) -> bool:
    return "," not in external_id and count_tokens(external_id) <= MAX_REF_TOKENS


@lru_cache(maxsize=8192)
def _words(text: str) -> frozenset[str]:
    if text.isascii():  # casefold is lower there, and keeps every word whole
        return frozenset(_WORDS.findall(text.lower()))
    return frozenset(w.casefold() for w in _WORDS.findall(text))


@lru_cache(maxsize=8192)
def _content(text: str) -> frozenset[str]:
    return content_words(text)


def _adds_little(text: str, sources: set[str], shown: dict[str, set[str]]) -> bool:
    """Whether a hit whose turns are all cited already says little beyond what is shown
    for them (a fact drawn from one sentence leaves the rest of a long turn unsaid)."""
    words = _content(text)
    known = set().union(*(shown[s] for s in sources))
    return len(words - known) < NOVEL_SHARE * len(words)


def _near_copy(words: frozenset[str], chosen: list[frozenset[str]]) -> bool:
    # Jaccard >= NEAR_COPY needs the smaller set to hold at least NEAR_COPY of the larger
    n = len(words)
    return any(
        NEAR_COPY * max(n, len(w)) <= min(n, len(w)) and _overlap(words, w) >= NEAR_COPY
        for w in chosen
    )


def _fit(
    hit: Hit, text: str, room: int, labels: _Labels, focus: frozenset[str]
) -> tuple[str, int] | None:
    """What a hit shows in `room` tokens — `text` whole, or its complete clauses nearest the
    query — and its line's cost; None when not even one clause fits."""
    refs = labels.of(hit)
    cost = _cost(hit_line(hit, text=text, refs=refs))
    if cost <= room:
        return text, cost
    fixed = _cost(hit_line(hit, text="", refs=refs))
    for slack in (0, 2, 4):  # BPE merges at the joins: a cut may cost a little more
        shorter = clause_snippet(text, focus, room - fixed - slack, min_words=MIN_CLAUSE_WORDS)
        if shorter is None and hit.kind == "episode" and room - fixed >= MIN_EXCERPT_TOKENS:
            # a turn with no clause that fits (a run-on): its opening words, marked as cut
            shorter = truncate_to_tokens(text, room - fixed - slack)
        if shorter is None:
            return None
        cost = _cost(hit_line(hit, text=shorter, refs=refs))
        if cost <= room:
            return shorter, cost
    return None


def _no_room(hit: Hit, room: int, labels: _Labels) -> bool:
    """Whether `room` tokens cannot hold the hit's line with even one word: its frame ("- ",
    the speaker, the labels) takes them all, with a token to spare for how BPE joins the
    pieces. It stays so: the room left only shrinks, and a label not given yet only gets a
    higher number. The packer then skips the hit without working out its snippet; once the
    budget is nearly spent, that was most of its time (a 1,000-token context walked ~90
    hits that could not fit)."""
    if room >= SMALL_ROOM:
        return False
    return room < _cost(hit_line(hit, text="", refs=labels.of(hit))) - 1


def _cost(line: str) -> int:
    """Tokens a line adds to the text; counted with its line break, which BPE often merges
    with the line's last characters (`]\n` is one token), so the sum matches the text."""
    return count_tokens(line + "\n")


def _shown_text(
    hit: Hit, focus: frozenset[str], snippet_tokens: int, messages: frozenset[str]
) -> str:
    """What the context shows of a hit: a long turn by its sentences nearest the query; a
    memory drawn from one of `messages` (the user's messages to an assistant) as the message,
    a long one by its sentences nearest the query and the memory."""
    if hit.kind == "episode":
        return snippet(hit.text, focus, snippet_tokens) or hit.text
    if len(hit.sources) != 1 or hit.sources[0].episode_id not in messages:
        return hit.text
    source = hit.sources[0]
    said: str | None = source.text
    if snippet_tokens and longer_than(source.text, snippet_tokens):
        said = snippet(source.text, focus | focus_words(hit.text), snippet_tokens)
        if said is None:  # no sentence shares a word with the question or the memory
            return hit.text
    return f"{source.speaker or source.role or 'unknown'}: {said}"


def _select(
    hits: Sequence[Hit],
    budget: int,
    focus: frozenset[str],
    snippet_tokens: int,
    messages: frozenset[str],
    frame: _Frame,
) -> list[tuple[Hit, str]]:
    """Greedy choice under the budget, best first. Each chosen hit comes with the text it
    shows; a section title and a date line cost their tokens when their first item is
    chosen."""
    chosen: list[tuple[Hit, str]] = []
    shown: dict[str, set[str]] = {}  # content words shown so far for each cited turn
    seen: list[frozenset[str]] = []
    groups: set[tuple[str, str]] = set()
    weight: dict[str, float] = {}  # hits put back at a lower weight (they repeat turns)
    labels = frame.labels()
    used = 0
    pool = [(h, _words(h.text)) for h in order_for_context(hits)]
    while pool and budget - used >= MIN_LINE_TOKENS:
        hit, words = pool.pop(0)
        if _no_room(hit, budget - used, labels):
            continue  # it cannot fit, now or later
        text = _shown_text(hit, focus, snippet_tokens, messages)
        sources = {src.episode_id for src in hit.sources}
        if sources and sources <= shown.keys():
            if _adds_little(text, sources, shown):
                continue  # its turns are in already and it adds little to what is shown
            if hit.id not in weight:  # compete again at a lower weight
                weight[hit.id] = REPEAT_WEIGHT
                _put_back(pool, hit, words, REPEAT_WEIGHT * hit.score, weight)
                continue
        group = (frame.section(hit), date_label(hit, said=frame.timeline))
        heading = 0 if group in groups else _cost(group[1])
        if frame.titled and group[0] not in {g[0] for g in groups}:
            heading += _cost(group[0])
        fitted = _fit(hit, text, budget - used - heading, labels, frame.focus)
        if fitted is None or _near_copy(words, seen):
            continue  # it does not fit, or it says what an item in says
        labels.cite(hit)
        chosen.append((hit, fitted[0]))
        for source in sources:
            shown.setdefault(source, set()).update(_content(fitted[0]))
        seen.append(words)
        groups.add(group)
        used += heading + fitted[1]
    return chosen


def _put_back(
    pool: list[tuple[Hit, frozenset[str]]],
    hit: Hit,
    words: frozenset[str],
    score: float,
    weight: dict[str, float],
) -> None:
    """Insert a hit into the best-first pool at the place its lowered score earns."""
    at = next(
        (i for i, (h, _) in enumerate(pool) if weight.get(h.id, 1.0) * h.score < score), len(pool)
    )
    pool.insert(at, (hit, words))


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / max(1, len(a | b))


@dataclass(frozen=True)
class _Frame:
    """How a context is laid out: its header, its section titles (or bare date groups, when
    the budget is too tight for them), one timeline section for a question about a value
    that changes, the citation style, and the query words that pick a clause to keep."""

    hits: Sequence[Hit]
    header: bool
    titled: bool
    timeline: bool
    focus: frozenset[str]
    own_ids: frozenset[str]
    now: datetime
    answers: frozenset[str] = frozenset()  # statements of the asked one-valued slot

    def section(self, hit: Hit) -> str:
        if self.timeline:
            return TIMELINE
        return PROFILE if _profile(hit) else MOMENTS

    def labels(self) -> _Labels:
        return _Labels(self.own_ids)


def _render(chosen: list[tuple[Hit, str]], frame: _Frame) -> Context:
    """The chosen lines in their sections; with `frame.timeline` (a question about a value
    that changes: where one lives, a budget), in one section newest first, facts and turns
    alike, so that no value is shown above a newer statement of it, extracted or not.
    Sources are numbered in the order the text cites them."""
    found = states(frame.hits, frame.now, frame.answers)  # among all the hits, shown or not

    def later(pair: tuple[Hit, str]) -> int:  # current, then planned, then earlier
        state = found.get(pair[0].id)
        return 0 if state is None else 1 if state[0] == PLANNED else 2

    if frame.timeline:
        every = sorted(chosen, key=lambda pair: (later(pair), -pair[0].said_at.timestamp()))
        sections = [(TIMELINE, every)]
    else:
        profile = [pair for pair in chosen if _profile(pair[0])]
        profile.sort(key=lambda pair: (later(pair), -pair[0].occurred_at.timestamp()))
        moments = [pair for pair in chosen if not _profile(pair[0])]
        moments.sort(key=lambda pair: (later(pair), -pair[0].occurred_at.date().toordinal()))
        sections = [(PROFILE, profile), (MOMENTS, moments)]
    labels = frame.labels()
    lines = [HEADER] if frame.header and chosen else []
    refs: dict[str, list[str]] = {}
    references: dict[str, str] = {}
    for title, section in sections:
        if section:
            if frame.titled:
                lines.append(title)
            last = None
            for hit, body in section:
                label = date_label(hit, said=frame.timeline)
                if label != last:
                    last = label
                    lines.append(label)
                refs[hit.id] = labels.cite(hit)
                cited = (s.episode_id for s in hit.sources[:MAX_SOURCES])
                references.update(zip(refs[hit.id], cited, strict=True))
                if hit.id in found:  # earlier or planned: the line says so
                    body = body.rstrip() + note(found[hit.id], body)
                lines.append(hit_line(hit, text=body, refs=refs[hit.id]))
    text = "\n".join(lines)
    items = [replace(hit, refs=refs[hit.id]) for hit, _ in chosen]
    return Context(text=text, items=items, tokens=count_tokens(text), references=references)


def _profile(hit: Hit) -> bool:
    return hit.kind in PROFILE_KINDS


def pack(
    hits: Sequence[Hit],
    max_tokens: int,
    *,
    query: Question | str | None = None,
    snippet_tokens: int = 0,
    messages: frozenset[str] = frozenset(),
    header: bool = True,
) -> Context:
    """The best hits that fit in `max_tokens`, rendered in sections; never over budget.

    With a `query` (a `Question`; a string is read as one) and `snippet_tokens` > 0, a turn
    longer than that shows its sentences nearest the query. A memory drawn from one of the
    turns in `messages` is shown as that turn (`requests.py`). For a question about a slot of
    the user's (`Question.own_slots`) or about the present (`Question.present`), all lines go
    in one section by when they were said, the latest first.
    `header`: the first line says how to read the context. An assistant's small talk
    (`state.small_talk`) is left out; a superseded or planned line says so and follows the
    current ones (`state.py`).

    An item too long for the room left shows its complete clauses nearest the query, or is
    skipped. When the budget cannot hold the header and a section title with the best item
    (about 40 tokens), the item goes without them; a budget too small for any clause of the
    best item with its date gives an empty context."""
    hits = [h for h in hits if not small_talk(h)]  # greetings take no statement's place
    question = analyse(query, datetime.now(UTC)) if isinstance(query, str) else query
    now = question.now if question is not None else datetime.now(UTC)
    focus = question.focus if question is not None else frozenset[str]()
    own_ids = _Labels.own_ids(hits)
    # about a value of the user's that changes, or what holds now: newest said first
    timeline = question is not None and (bool(question.own_slots) or question.present)
    answers = _answers(hits, question)
    top = order_for_context(hits)[:1]
    snippets = focus if snippet_tokens > 0 else frozenset()
    best = ("", "")
    if top:
        best = (top[0].id, _shown_text(top[0], snippets, snippet_tokens, messages))
    context = Context(text="", items=[], tokens=0)
    chosen_before: list[tuple[Hit, str]] = []
    # the bare layout (no header, no titles) when the frame leaves no room for the best item
    for with_header, titled in ((header, True), (False, False)):
        frame = _Frame(hits, with_header, titled, timeline, focus, own_ids, now, answers)
        room = max_tokens - (_cost(HEADER) if with_header else 0)
        chosen = _select(hits, room, snippets, snippet_tokens, messages, frame)
        shown = _render(chosen, frame)
        while chosen and shown.tokens > max_tokens:  # BPE merges across lines, rarely
            chosen.pop()
            shown = _render(chosen, frame)
        if _shows_best(shown, chosen, best) > _shows_best(context, chosen_before, best):
            context, chosen_before = shown, chosen
        if context.items and _shows_best(context, chosen_before, best) == 2:
            break  # the best item uncut: no need to drop the frame
    return context


def _answers(hits: Sequence[Hit], question: Question | None) -> frozenset[str]:
    """The hits that state a value of the one-valued slot of the user's that the question
    asks about (a many-valued one, pets or languages, keeps every value current)."""
    if question is None or not question.own_slots:
        return frozenset()
    if any(BY_NAME[q.attribute].many for q in question.own_slots):
        return frozenset()
    return stating(hits, question)


def _shows_best(context: Context, chosen: list[tuple[Hit, str]], best: tuple[str, str]) -> int:
    """How well a context shows the best hit (`best`: its id and the text it would show
    with room enough): 2 uncut, 1 cut to clauses, 0 not at all, -1 for an empty context."""
    if not context.items:
        return -1
    shown = next((text for hit, text in chosen if hit.id == best[0]), None)
    if shown is None:
        return 0
    return 2 if shown == best[1] else 1


def pack_for(
    config: MemoryConfig,
    hits: Sequence[Hit],
    max_tokens: int,
    *,
    query: Question | str | None,
    messages: frozenset[str] = frozenset(),
) -> Context:
    """`pack` with the context settings of `config` (snippets, the header, memories shown as
    the user's `messages` to an assistant they were drawn from): what `Memory.context` and
    `Session.context` show."""
    return pack(
        hits,
        max_tokens,
        query=query,
        snippet_tokens=config.context_snippet_tokens,
        messages=messages if config.context_user_messages else frozenset(),
        header=config.context_header,
    )


def pack_context(
    store: SessionReads,
    config: MemoryConfig,
    user_id: str,
    hits: Sequence[Hit],
    max_tokens: int,
    *,
    query: Question | str | None,
) -> Context:
    """Hits packed as `Memory.context` and `Session.context` show them: with this store's
    settings, a memory drawn from the user's message to an assistant shown as the message."""
    messages = frozenset[str]()
    if config.context_user_messages:  # else no lookup (`pack_for` would ignore it)
        messages = messages_to_assistant(store, user_id, hits)
    return pack_for(config, hits, max_tokens, query=query, messages=messages)
