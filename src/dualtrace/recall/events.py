"""A question that compares events searches each event on its own; one that lists a kind of
thing leads with one hit for each instance of it.

"Which did I do first, fix the fence or trim the goats' hooves?" is answered by one turn
about the fence and one about the hooves, often sessions apart and in other words; one
search for the whole question finds the event its words favour and may leave the other
below the budget. So each event the question names (`text/events.py`) is searched alone,
and the context's hits lead with the best EVENT_HITS of each search and of the whole
question's, in turns, before the rest of the whole question's hits.

"What activities does Melanie do?" is answered by every pastime she names, and the turns
about her favourite one outrank, many times over, the one turn that says she went swimming.
So the hits of a question that asks every instance of a kind (`each_instance`) lead with the
best hit naming each instance, in their order, before the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from dualtrace.models import Hit

#: How many of each event's best hits lead the context.
EVENT_HITS = 5


def each_event(found: Sequence[Sequence[Hit]], hits: Sequence[Hit]) -> list[Hit]:
    """`hits` (the whole question's, best first) led by the best EVENT_HITS of each list in
    `found` (one per event) and of `hits`, in turns; scores are given anew in that order,
    the whole question's best first, so that packing keeps it."""
    lead: dict[str, Hit] = {}
    lists = [*found, hits]
    for rank in range(EVENT_HITS):
        for each in lists:
            if rank < len(each) and each[rank].id not in lead:
                lead[each[rank].id] = each[rank]
    return _in_order(list(lead.values()), hits)


def each_instance(hits: Sequence[Hit], named: Callable[[str], frozenset[str]]) -> list[Hit]:
    """`hits` (best first) led by the first hit naming each instance (`named` gives the
    instances a text names) that no hit before it named."""
    lead: list[Hit] = []
    seen: set[str] = set()
    for hit in hits:
        instances = named(hit.text)
        if instances - seen:
            lead.append(hit)
            seen |= instances
    return _in_order(lead, hits)


def _in_order(lead: list[Hit], hits: Sequence[Hit]) -> list[Hit]:
    """`lead`, then the rest of `hits`, with the scores of `hits` given anew in that order
    (lower ones made up below the last), so that packing keeps the order."""
    ids = {h.id for h in lead}
    ordered = [*lead, *(h for h in hits if h.id not in ids)]
    scores = sorted((h.score for h in hits), reverse=True)
    low = scores[-1] if scores else 1.0
    scores += [low * 0.99 ** (n + 1) for n in range(len(ordered) - len(scores))]
    return [replace(h, score=s) for h, s in zip(ordered, scores, strict=False)]
