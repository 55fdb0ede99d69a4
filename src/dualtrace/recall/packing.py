"""Packing hits into a prompt-ready context under a cl100k_base token budget.

Items are chosen best first (relevance after boosts; newest first among equals), skipping
near-copies and turns already cited. They are then shown in two stable sections: what is
known about the user (facts and preferences, newest first, so the current value of a
changing fact comes first) and what was said or happened (most relevant first).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dualtrace.models import Context, Hit
from dualtrace.tokens import count_tokens, truncate_to_tokens

HEADER = "## Memories (dualtrace) — [date] text (source); newest first among facts"
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


def hit_line(hit: Hit, *, max_body_tokens: int | None = None) -> str:
    """One dated, provenance-tagged context line for a hit (body cut to max_body_tokens)."""
    when = hit.occurred_at.strftime("%Y-%m-%d %a")
    if hit.kind == "episode" and hit.sources:
        speaker = hit.sources[0].speaker or "unknown"
        body = f"{speaker}: {hit.text}"
    else:
        body = f"({hit.kind}) {hit.text}"
    body = " ".join(body.split())
    if max_body_tokens is not None:
        body = truncate_to_tokens(body, max_body_tokens)
    refs = [s.external_id or s.episode_id for s in hit.sources][:3]
    tag = f" (source: {', '.join(refs)})" if refs else ""
    return f"- [{when}] {body}{tag}"


def _words(text: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in _WORDS.findall(text))


def _near_copy(words: frozenset[str], chosen: list[frozenset[str]]) -> bool:
    return any(_overlap(words, w) >= NEAR_COPY for w in chosen)


def _fit(hit: Hit, room: int) -> tuple[str, int] | None:
    """The hit's line and its cost if it fits in `room` tokens (cut if long), else None."""
    line = hit_line(hit)
    cost = count_tokens("\n" + line)
    if cost <= room:
        return line, cost
    if room < MIN_TRUNCATED_TOKENS:
        return None
    fixed = count_tokens("\n" + hit_line(hit, max_body_tokens=0))
    line = hit_line(hit, max_body_tokens=room - fixed - 2)
    cost = count_tokens("\n" + line)
    return (line, cost) if cost <= room else None


def _select(hits: Sequence[Hit], budget: int, diversity: float) -> list[tuple[Hit, str]]:
    """Greedy choice under the budget: best first, or with `diversity` > 0 maximal marginal
    relevance — relevance (over the best) minus `diversity` × the word overlap with the
    items already chosen, so that the context covers more than one corner of the question."""
    chosen: list[tuple[Hit, str]] = []
    cited: set[str] = set()
    seen: list[frozenset[str]] = []
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
        fitted = _fit(hit, budget - used)
        if fitted is None:
            continue
        chosen.append((hit, fitted[0]))
        cited |= sources
        seen.append(words)
        used += fitted[1]
    return chosen


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / max(1, len(a | b))


def _render(chosen: list[tuple[Hit, str]]) -> str:
    profile = [(h, line) for h, line in chosen if h.kind in PROFILE_KINDS]
    profile.sort(key=lambda pair: -pair[0].occurred_at.timestamp())
    moments = [(h, line) for h, line in chosen if h.kind not in PROFILE_KINDS]
    lines = [HEADER]
    if profile:
        lines += [PROFILE, *(line for _, line in profile)]
    if moments:
        lines += [MOMENTS, *(line for _, line in moments)]
    return "\n".join(lines)


def pack(hits: Sequence[Hit], max_tokens: int, *, diversity: float = 0.0) -> Context:
    """The best hits that fit in `max_tokens`, rendered in sections; never over budget.

    `diversity` > 0 trades relevance for coverage (maximal marginal relevance)."""
    frame = count_tokens("\n".join([HEADER, PROFILE, MOMENTS]))
    if frame + MIN_TRUNCATED_TOKENS > max_tokens:
        return Context(text="", items=[], tokens=0)
    chosen = _select(hits, max_tokens - frame, diversity)
    text = _render(chosen) if chosen else ""
    while chosen and count_tokens(text) > max_tokens:  # BPE merges across lines, rarely
        chosen.pop()
        text = _render(chosen) if chosen else ""
    items = [h for h, _ in chosen]
    return Context(text=text, items=items, tokens=count_tokens(text))
