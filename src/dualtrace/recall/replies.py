"""The reply to a question turn: when a turn that asks something is among the best hits,
the turn that answers it (the next turn of its session, by someone else) joins the hits just
below it. The question matched the query's words; the answer holds what was asked about
("What inspired you?" → "I painted this after I visited a LGBTQ center")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from dualtrace.models import Hit
from dualtrace.recall.items import as_hit, load_items
from dualtrace.store.ports.reads import RecordReads

REPLY_WEIGHT = 0.95  # a reply ranks just below the question it answers
REPLY_TOP = 40  # only questions among this many best hits bring their reply
_QUESTION_MARKS = ("?", "？")


def with_replies(
    store: RecordReads, user_id: str, hits: Sequence[Hit], *, before: datetime | None = None
) -> list[Hit]:
    """`hits` plus the replies to the question turns among the first REPLY_TOP, best first;
    a reply already among the hits, by the asker, or said after `before` is left out."""
    have = {h.id for h in hits}
    replies: dict[str, float] = {}
    for hit in hits[:REPLY_TOP]:
        if hit.kind != "episode" or not hit.text.rstrip().endswith(_QUESTION_MARKS):
            continue
        reply = store.next_episode(user_id, hit.id)
        if reply is None or reply.id in have or reply.id in replies:
            continue
        asker = hit.sources[0].speaker if hit.sources else None
        if (reply.speaker or reply.role) == asker:
            continue  # the asker went on talking: no answer here
        if before is not None and reply.occurred_at > before:
            continue
        replies[reply.id] = REPLY_WEIGHT * hit.score
    if not replies:
        return list(hits)
    items = load_items(store, user_id, list(replies))
    added = [as_hit(items[i], s, {"reply": s}) for i, s in replies.items() if i in items]
    return sorted([*hits, *added], key=lambda h: -h.score)
