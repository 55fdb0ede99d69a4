"""Packing hits into a prompt-ready context under a cl100k_base token budget."""

from __future__ import annotations

from collections.abc import Sequence

from dualtrace.models import Context, Hit
from dualtrace.tokens import count_tokens, truncate_to_tokens

HEADER = "## Memories (dualtrace) — most relevant first; [date] speaker: text (source)"
MIN_TRUNCATED_TOKENS = 24


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


def pack(hits: Sequence[Hit], max_tokens: int) -> Context:
    """Add lines best-first while they fit; a long line may be cut to the room left."""
    if count_tokens(HEADER) > max_tokens:
        return Context(text="", items=[], tokens=0)
    lines = [HEADER]
    used = count_tokens(HEADER)
    items: list[Hit] = []
    cited: set[str] = set()
    for hit in order_for_context(hits):
        sources = {src.episode_id for src in hit.sources}
        if sources and sources <= cited:
            continue  # its turns are already in: a fact and its own turn rarely both add
        line = hit_line(hit)
        cost = count_tokens("\n" + line)
        room = max_tokens - used
        if cost > room:
            if room < MIN_TRUNCATED_TOKENS:
                continue
            fixed = count_tokens("\n" + hit_line(hit, max_body_tokens=0))
            line = hit_line(hit, max_body_tokens=room - fixed - 2)
            cost = count_tokens("\n" + line)
            if cost > room:
                continue
        lines.append(line)
        items.append(hit)
        cited |= sources
        used += cost
    text = "\n".join(lines) if items else ""
    while items and count_tokens(text) > max_tokens:  # BPE merges across lines, rarely
        items.pop()
        lines.pop()
        text = "\n".join(lines) if items else ""
    return Context(text=text, items=items, tokens=count_tokens(text))
