"""Packing hits into a prompt-ready context under a cl100k_base token budget.

Items are chosen best first (relevance after boosts; newest first among equals), skipping
near-copies and turns already cited. They are then shown in two stable sections: what is
known about the user (facts and preferences) and what was said or happened. Within each
section items are grouped under their date, newest first, so the current value of a changing
fact comes first; a date is written once per group rather than on every line, and each line
ends with its source turns in brackets — the budget goes to what was said, not to labels.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dualtrace.models import Context, Hit
from dualtrace.tokens import count_tokens, truncate_to_tokens

HEADER = "## Memories (dualtrace) — grouped by date, newest first; [ids] = source turns"
PROFILE = "### Known facts and preferences"
MOMENTS = "### What was said or happened"
PROFILE_KINDS = frozenset({"fact", "preference"})
MIN_TRUNCATED_TOKENS = 24
NEAR_COPY = 0.8  # Jaccard overlap of word sets above which a hit adds nothing new
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


def date_label(hit: Hit) -> str:
    """The date line that heads a hit's group, e.g. "[2026-01-01 Thu]"."""
    return hit.occurred_at.strftime("[%Y-%m-%d %a]")


def hit_line(hit: Hit, *, max_body_tokens: int | None = None) -> str:
    """One provenance-tagged context line for a hit (body cut to max_body_tokens); its date
    is the group's (`date_label`)."""
    if hit.kind == "episode" and hit.sources:
        body = f"{hit.sources[0].speaker or 'unknown'}: {hit.text}"
    else:
        body = hit.text
    body = " ".join(body.split())
    if max_body_tokens is not None:
        body = truncate_to_tokens(body, max_body_tokens)
    refs = [s.external_id or s.episode_id for s in hit.sources][:3]
    tag = f" [{', '.join(refs)}]" if refs else ""
    return f"- {body}{tag}"


def _words(text: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in _WORDS.findall(text))


def _near_copy(words: frozenset[str], chosen: list[frozenset[str]]) -> bool:
    return any(_overlap(words, w) >= NEAR_COPY for w in chosen)


def _fit(hit: Hit, room: int) -> tuple[str, int] | None:
    """The hit's line and its cost if it fits in `room` tokens (cut if long), else None."""
    line = hit_line(hit)
    cost = _cost(line)
    if cost <= room:
        return line, cost
    if room < MIN_TRUNCATED_TOKENS:
        return None
    fixed = _cost(hit_line(hit, max_body_tokens=0))
    line = hit_line(hit, max_body_tokens=room - fixed - 2)
    cost = _cost(line)
    return (line, cost) if cost <= room else None


def _cost(line: str) -> int:
    """Tokens a line adds to the text; counted with its line break, which BPE often merges
    with the line's last characters (`]\n` is one token), so the sum matches the text."""
    return count_tokens(line + "\n")


def _group(hit: Hit) -> tuple[bool, str]:
    """The section and date group a hit is shown in."""
    return hit.kind in PROFILE_KINDS, date_label(hit)


def _select(hits: Sequence[Hit], budget: int, diversity: float) -> list[tuple[Hit, str]]:
    """Greedy choice under the budget: best first, or with `diversity` > 0 maximal marginal
    relevance — relevance (over the best) minus `diversity` × the word overlap with the
    items already chosen, so that the context covers more than one corner of the question."""
    chosen: list[tuple[Hit, str]] = []
    cited: set[str] = set()
    seen: list[frozenset[str]] = []
    groups: set[tuple[bool, str]] = set()
    used = 0
    pool = [(h, _words(h.text)) for h in order_for_context(hits)]
    best = max((h.score for h, _ in pool), default=0.0) or 1.0
    while pool:
        pick = 0
        if diversity > 0 and seen:
            value = [
                h.score / best - diversity * max(_overlap(w, c) for c in seen) for h, w in pool
            ]
            pick = max(range(len(pool)), key=lambda i: (value[i], -i))
        hit, words = pool.pop(pick)
        sources = {src.episode_id for src in hit.sources}
        if (sources and sources <= cited) or _near_copy(words, seen):
            continue  # its turns are in already, or it says what an item in says
        group = _group(hit)
        heading = 0 if group in groups else _cost(group[1])
        fitted = _fit(hit, budget - used - heading)
        if fitted is None:
            continue
        chosen.append((hit, fitted[0]))
        cited |= sources
        seen.append(words)
        groups.add(group)
        used += heading + fitted[1]
    return chosen


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / max(1, len(a | b))


def _render(chosen: list[tuple[Hit, str]]) -> str:
    profile = [pair for pair in chosen if pair[0].kind in PROFILE_KINDS]
    profile.sort(key=lambda pair: -pair[0].occurred_at.timestamp())  # the current value first
    moments = [pair for pair in chosen if pair[0].kind not in PROFILE_KINDS]
    moments.sort(key=lambda pair: -pair[0].occurred_at.date().toordinal())  # stable: by rank
    lines = [HEADER]
    for title, section in ((PROFILE, profile), (MOMENTS, moments)):
        if section:
            lines.append(title)
            last = None
            for hit, line in section:
                if date_label(hit) != last:
                    last = date_label(hit)
                    lines.append(last)
                lines.append(line)
    return "\n".join(lines)


def pack(hits: Sequence[Hit], max_tokens: int, *, diversity: float = 0.0) -> Context:
    """The best hits that fit in `max_tokens`, rendered in sections; never over budget.

    `diversity` > 0 trades relevance for coverage (maximal marginal relevance)."""
    frame = sum(_cost(line) for line in (HEADER, PROFILE, MOMENTS))
    if frame + MIN_TRUNCATED_TOKENS > max_tokens:
        return Context(text="", items=[], tokens=0)
    chosen = _select(hits, max_tokens - frame, diversity)
    text = _render(chosen) if chosen else ""
    while chosen and count_tokens(text) > max_tokens:  # BPE merges across lines, rarely
        chosen.pop()
        text = _render(chosen) if chosen else ""
    items = [h for h, _ in chosen]
    return Context(text=text, items=items, tokens=count_tokens(text))
