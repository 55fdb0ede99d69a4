"""One read: the question read once, then search → replies → pack → reinforce what was packed.

`Memory.context` and `Session.context` both call `read` (and through them the service's
context routes and the MCP tool), so a context is chosen one way wherever it is asked for:

1. the question is checked and read once (`Searcher.ask`, a `Question`);
2. its best hits are searched (`Searcher.find`), as many as `candidates` gives for the budget;
   a question that compares events ("before or after") also searches each event alone,
   and their best hits lead (`events.py`);
3. the answer to a question turn among them joins it (`replies.py`);
4. the caller may drop some (`keep`: a session leaves out its own turns and what it has
   since contradicted);
5. the rest is packed into the budget (`packing.py`);
6. what reached the context counts as recalled (`reinforce`): the caller passes the writer
   of that count in, since the read path itself writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from dualtrace.inputs import check_count
from dualtrace.models import Context, Hit
from dualtrace.recall.events import EVENT_HITS, each_event, each_instance
from dualtrace.recall.packing import pack_context
from dualtrace.recall.replies import with_replies
from dualtrace.recall.search import MAX_LIMIT, POOL_MOST, Searcher, read_depth
from dualtrace.text import pastimes

#: Counts a recall of the memories among the hits packed for a user (turns are not counted).
Reinforce = Callable[[str, Sequence[Hit]], None]
#: The hits a caller keeps, after replies and before packing.
Keep = Callable[[list[Hit]], list[Hit]]


def candidates(max_tokens: int) -> int:
    """How many hits a context of `max_tokens` is chosen from: enough to fill the budget
    after near-copies are skipped (~30 tokens a line), and at least 50."""
    return min(MAX_LIMIT, max(50, max_tokens // 10))


def read(
    searcher: Searcher,
    query: str,
    *,
    user_id: str,
    max_tokens: int,
    now: datetime | str | None = None,
    as_of: datetime | str | None = None,
    session_id: str | None = None,
    limit: int | None = None,
    keep: Keep | None = None,
    reinforce: Reinforce | None = None,
) -> Context:
    """The context for `query` in `max_tokens` (see the module docstring): search within
    `session_id` when given, memories valid `as_of`, `limit` hits (default `candidates`);
    `reinforce` is called with the packed items."""
    max_tokens = check_count(
        "max_tokens", max_tokens, fix="pass the context's size in tokens, e.g. 2000"
    )
    if limit is None:
        limit = candidates(max_tokens)
    user_id, _ = searcher.check(user_id, limit)
    question, scope = searcher.ask(
        query, as_of=as_of, now=now, session_id=session_id, user_id=user_id
    )
    depth = read_depth(limit)
    if question.aggregate is not None:  # every instance, not the best few: read deeper
        limit, depth = min(MAX_LIMIT, 2 * limit), max(depth, POOL_MOST)
    hits = searcher.find(question, user_id=user_id, limit=limit, scope=scope, depth=depth)
    if question.instance_type == "pastime":  # one hit for each pastime named leads
        hits = each_instance(hits, pastimes.named)
    if question.events:  # "the fence or the goats' hooves": each event searched on its own
        found = [
            searcher.find(
                searcher.read_at(event, question.now),
                user_id=user_id,
                limit=EVENT_HITS,
                scope=scope,
                depth=read_depth(EVENT_HITS),  # only each event's best few lead
            )
            for event in question.events
        ]
        hits = each_event(found, hits)
    # a reply said after `as_of` was not known then
    hits = with_replies(searcher.store, user_id, hits, before=scope.occurred_before)
    if keep is not None:
        hits = keep(hits)
    packed = pack_context(
        searcher.store, searcher.config, user_id, hits, max_tokens, query=question
    )
    if reinforce is not None:  # only what reached the context counts as recalled
        reinforce(user_id, packed.items)
    return packed
