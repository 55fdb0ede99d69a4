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
changes (a slot: where one lives, a budget) gets one section, newest first, facts and turns
alike: no value is shown above a newer statement of it, whether or not it was extracted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache

from dualtrace.config import MemoryConfig
from dualtrace.inputs import parse_time
from dualtrace.models import Context, Hit
from dualtrace.recall.current import asks_own_now
from dualtrace.recall.requests import messages_to_assistant
from dualtrace.recall.snippets import focus_words, longer_than, snippet
from dualtrace.store.base import Store
from dualtrace.text.lexical import content_words
from dualtrace.text.tokens import count_tokens, truncate_to_tokens

HEADER = "## Memories (dualtrace) — grouped by date, newest first; [ids] = source turns"
PROFILE = "### Known facts and preferences"
MOMENTS = "### What was said or happened"
TIMELINE = "### What was said about it, newest first"
PROFILE_KINDS = frozenset({"fact", "preference"})
MIN_TRUNCATED_TOKENS = 24
MIN_LINE_TOKENS = 3  # "- x" and its line break: with less room left, nothing fits
NEAR_COPY = 0.8  # Jaccard overlap of word sets above which a hit adds nothing new
# A hit whose turns are all cited already (a turn after the fact drawn from it) cites nothing
# new: it is shown only when at least NOVEL_SHARE of its content words are not yet shown for
# those turns, and it then competes at REPEAT_WEIGHT times its score, after the hits that
# bring new turns in at the same relevance.
NOVEL_SHARE = 0.3
REPEAT_WEIGHT = 0.4
RECENT_DAYS = 60  # date lines this recent also say how many days before `now` they were
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


def date_label(hit: Hit, now: datetime | None = None) -> str:
    """The date line that heads a hit's group, e.g. "Thu 1 January 2026" (as scenes write
    dates), with its distance from `now` when given: "Thu 1 January 2026 (17 days ago)"."""
    when = hit.occurred_at
    label = f"{when:%a} {when.day} {when:%B %Y}"
    age = None if now is None else age_phrase(when, now)
    return f"{label} ({age})" if age else label


def age_phrase(when: datetime, now: datetime) -> str | None:
    """How long before `now` a recent moment was, as an agent would say it: "today",
    "yesterday", "17 days ago"; None for a moment after `now` or RECENT_DAYS or more before
    it (a date that old is read as easily as its age, which would cost tokens on every date
    line; counting days is where readers slip).

    >>> age_phrase(datetime(2023, 2, 12), datetime(2023, 3, 1, 19))
    '17 days ago'
    """
    days = (now.date() - when.date()).days
    if days < 0 or days >= RECENT_DAYS:
        return None
    if days < 2:
        return ("today", "yesterday")[days]
    return f"{days} days ago"


def hit_line(hit: Hit, *, max_body_tokens: int | None = None, text: str | None = None) -> str:
    """One provenance-tagged context line for a hit (its `text`, or a snippet of it, cut to
    max_body_tokens); its date is the group's (`date_label`)."""
    text = hit.text if text is None else text
    if hit.kind == "episode" and hit.sources:
        body = f"{hit.sources[0].speaker or 'unknown'}: {text}"
    else:
        body = text
    body = " ".join(body.split())
    if max_body_tokens is not None:
        body = truncate_to_tokens(body, max_body_tokens)
    refs = [s.external_id or s.episode_id for s in hit.sources][:3]
    tag = f" [{', '.join(refs)}]" if refs else ""
    return f"- {body}{tag}"


def _words(text: str) -> frozenset[str]:
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


def _fit(hit: Hit, text: str, room: int) -> tuple[str, int] | None:
    """The hit's line showing `text` and its cost if it fits in `room` tokens (cut if long),
    else None."""
    line = hit_line(hit, text=text)
    cost = _cost(line)
    if cost <= room:
        return line, cost
    if room < MIN_TRUNCATED_TOKENS:
        return None
    fixed = _cost(hit_line(hit, max_body_tokens=0, text=text))
    line = hit_line(hit, max_body_tokens=room - fixed - 2, text=text)
    cost = _cost(line)
    return (line, cost) if cost <= room else None


def _cost(line: str) -> int:
    """Tokens a line adds to the text; counted with its line break, which BPE often merges
    with the line's last characters (`]\n` is one token), so the sum matches the text."""
    return count_tokens(line + "\n")


def _group(hit: Hit, now: datetime | None) -> tuple[bool, str]:
    """The section and date group a hit is shown in."""
    return hit.kind in PROFILE_KINDS, date_label(hit, now)


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
    diversity: float,
    focus: frozenset[str],
    snippet_tokens: int,
    now: datetime | None,
    messages: frozenset[str],
) -> list[tuple[Hit, str]]:
    """Greedy choice under the budget: best first, or with `diversity` > 0 maximal marginal
    relevance — relevance (over the best) minus `diversity` × the word overlap with the
    items already chosen, so that the context covers more than one corner of the question."""
    chosen: list[tuple[Hit, str]] = []
    shown: dict[str, set[str]] = {}  # content words shown so far for each cited turn
    seen: list[frozenset[str]] = []
    groups: set[tuple[bool, str]] = set()
    weight: dict[str, float] = {}  # hits put back at a lower weight (they repeat turns)
    used = 0
    pool = [(h, _words(h.text)) for h in order_for_context(hits)]
    best = max((h.score for h, _ in pool), default=0.0) or 1.0
    while pool and budget - used >= MIN_LINE_TOKENS:
        pick = 0
        if diversity > 0 and seen:
            value = [
                weight.get(h.id, 1.0) * h.score / best
                - diversity * max(_overlap(w, c) for c in seen)
                for h, w in pool
            ]
            pick = max(range(len(pool)), key=lambda i: (value[i], -i))
        hit, words = pool.pop(pick)
        text = _shown_text(hit, focus, snippet_tokens, messages)
        sources = {src.episode_id for src in hit.sources}
        if sources and sources <= shown.keys():
            if _adds_little(text, sources, shown):
                continue  # its turns are in already and it adds little to what is shown
            if hit.id not in weight:  # compete again at a lower weight
                weight[hit.id] = REPEAT_WEIGHT
                _put_back(pool, hit, words, REPEAT_WEIGHT * hit.score, weight)
                continue
        group = _group(hit, now)
        heading = 0 if group in groups else _cost(group[1])
        fitted = _fit(hit, text, budget - used - heading)
        if fitted is None or _near_copy(words, seen):
            continue  # it does not fit, or it says what an item in says
        chosen.append((hit, fitted[0]))
        for source in sources:
            shown.setdefault(source, set()).update(_content(text))
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
    at = next((i for i, (h, _) in enumerate(pool) if weight.get(h.id, 1.0) * h.score < score),
              len(pool))  # fmt: skip
    pool.insert(at, (hit, words))


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / max(1, len(a | b))


def _render(chosen: list[tuple[Hit, str]], now: datetime | None, timeline: bool = False) -> str:
    """The chosen lines in their sections; with `timeline` (a question about a value that
    changes: where one lives, a budget), in one section newest first, facts and turns alike,
    so that no value is shown above a newer statement of it, extracted or not."""
    if timeline:
        every = sorted(chosen, key=lambda pair: -pair[0].occurred_at.timestamp())
        sections = [(TIMELINE, every)]
    else:
        profile = [pair for pair in chosen if _profile(pair[0])]
        profile.sort(key=lambda pair: -pair[0].occurred_at.timestamp())  # current value first
        moments = [pair for pair in chosen if not _profile(pair[0])]
        moments.sort(key=lambda pair: -pair[0].occurred_at.date().toordinal())  # by rank within
        sections = [(PROFILE, profile), (MOMENTS, moments)]
    lines = [HEADER]
    for title, section in sections:
        if section:
            lines.append(title)
            last = None
            for hit, line in section:
                label = date_label(hit, now)
                if label != last:
                    last = label
                    lines.append(label)
                lines.append(line)
    return "\n".join(lines)


def _profile(hit: Hit) -> bool:
    return hit.kind in PROFILE_KINDS


def pack(
    hits: Sequence[Hit],
    max_tokens: int,
    *,
    diversity: float = 0.0,
    query: str | None = None,
    snippet_tokens: int = 0,
    now: datetime | None = None,
    messages: frozenset[str] = frozenset(),
) -> Context:
    """The best hits that fit in `max_tokens`, rendered in sections; never over budget.

    `diversity` > 0 trades relevance for coverage (maximal marginal relevance). With a
    `query` and `snippet_tokens` > 0, a turn longer than that shows its sentences nearest
    the query. With `now`, each date line also says how long before `now` it was. A memory
    drawn from one of the turns in `messages` is shown as that turn (`requests.py`). For a
    question about a slot (`text/slots.ask`), all lines go newest first in one section."""
    frame = sum(_cost(line) for line in (HEADER, PROFILE, MOMENTS))
    if frame + MIN_TRUNCATED_TOKENS > max_tokens:
        return Context(text="", items=[], tokens=0)
    focus = focus_words(query) if query and snippet_tokens > 0 else frozenset()
    chosen = _select(hits, max_tokens - frame, diversity, focus, snippet_tokens, now, messages)
    timeline = bool(query and asks_own_now(query))  # about a value of the user's that changes
    text = _render(chosen, now, timeline) if chosen else ""
    while chosen and count_tokens(text) > max_tokens:  # BPE merges across lines, rarely
        chosen.pop()
        text = _render(chosen, now, timeline) if chosen else ""
    items = [h for h, _ in chosen]
    return Context(text=text, items=items, tokens=count_tokens(text))


def pack_for(
    config: MemoryConfig,
    hits: Sequence[Hit],
    max_tokens: int,
    *,
    query: str | None,
    now: datetime | str | None,
    messages: frozenset[str] = frozenset(),
) -> Context:
    """`pack` with the context settings of `config` (diversity, snippets, relative dates,
    counted back from `now` or the wall clock, memories shown as the user's `messages` to an
    assistant they were drawn from): what `Memory.context` and `Session.context` show."""
    clock = None
    if config.context_relative_dates:
        clock = datetime.now(UTC) if now is None else parse_time(now, field="now")
    return pack(
        hits, max_tokens, diversity=config.context_diversity, query=query,
        snippet_tokens=config.context_snippet_tokens, now=clock,
        messages=messages if config.context_user_messages else frozenset(),
    )  # fmt: skip


def pack_context(
    store: Store, config: MemoryConfig, user_id: str, hits: Sequence[Hit], max_tokens: int,
    *, query: str | None, now: datetime | str | None,
) -> Context:  # fmt: skip
    """Hits packed as `Memory.context` and `Session.context` show them: with this store's
    settings, a memory drawn from the user's message to an assistant shown as the message."""
    messages = frozenset[str]()
    if config.context_user_messages:  # else no lookup (`pack_for` would ignore it)
        messages = messages_to_assistant(store, user_id, hits)
    return pack_for(config, hits, max_tokens, query=query, now=now, messages=messages)
