"""What a context line says of its state: current, earlier (superseded) or planned.

A memory closed by a later one (`valid_to` set) is "earlier, until 20 Nov"; one whose
validity starts after `now` (a planned change) is "planned from 1 Dec"; a turn the read path
found to state only a replaced value (`current.rerank` scores it "slot" -1) is "earlier".
Among the shown memories that fill the same one-valued slot of the same subject (subject,
attribute, qualifier), the one said last leads and the older ones are earlier too, whatever the
write side closed: read-time rivals; so are the turns that stated a value of the slot a
question asks about before the latest one did. Such lines are put after the current ones
(`packing._render`), so a superseded value never stands above its successor. Lines in
Chinese get the note in Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from dualtrace.cjk import has_cjk
from dualtrace.models import Hit, Item
from dualtrace.text.dates import find_times
from dualtrace.text.script import simplified
from dualtrace.text.slots import find_statements
from dualtrace.text.smalltalk import is_small_talk
from dualtrace.text.tense import looks_ahead

EARLIER = "earlier"
PLANNED = "planned"


def states(
    hits: Sequence[Hit], now: datetime, answers: frozenset[str] = frozenset()
) -> dict[str, tuple[str, datetime | None]]:
    """Hit id -> (EARLIER or PLANNED, the date it ended or starts, if known), for the hits
    that are not current; a current hit is absent. `answers`: the hits that state a value
    of the one-valued slot a question asks about (`current.stating`), extracted or not:
    all but the latest said are earlier (`_restated`)."""
    found: dict[str, tuple[str, datetime | None]] = {}
    for hit in hits:
        if hit.kind != "episode" and hit.valid_from is not None and hit.valid_from > now:
            found[hit.id] = (PLANNED, hit.valid_from)
        elif hit.kind != "episode" and (
            (hit.valid_to is not None and hit.valid_to <= now)
            or hit.invalidated_at
            or (hit.superseded_by and hit.valid_to is None)
        ):  # closed by now (a close dated ahead, "until 5 Jan", leaves it current till then)
            found[hit.id] = (EARLIER, hit.valid_to)
        elif hit.scores.get("slot", 0.0) < 0:
            found[hit.id] = (EARLIER, None)
    newest: dict[tuple[str, str, str], Hit] = {}
    for hit in hits:
        key = _rival_key(hit)
        if key is None or hit.id in found:
            continue
        lead = newest.get(key)
        if lead is None or hit.said_at > lead.said_at:  # the latest word on the slot
            if lead is not None:
                found[lead.id] = (EARLIER, hit.said_at)
            newest[key] = hit
        else:
            found[hit.id] = (EARLIER, lead.said_at)
    # a plan (and the turn it was drawn from) replaces nothing yet
    planned = {h.id for h in hits if found.get(h.id, ("", None))[0] == PLANNED}
    planned |= {s.episode_id for h in hits if h.id in planned for s in h.sources}
    for i, state in _restated(hits, answers - planned, now).items():
        found.setdefault(i, state)
    return _turns_too(hits, found)


def _restated(
    hits: Sequence[Hit], answers: frozenset[str], now: datetime
) -> dict[str, tuple[str, datetime | None]]:
    """The statements of the asked slot said before the day of the latest one: earlier. A
    statement still ahead at `now` (`_ahead`: "I start at the Vancouver office January 5")
    replaces nothing yet: a plan."""
    said = sorted(
        (h for h in hits if h.id in answers and not _ahead(h, now)), key=lambda h: h.said_at
    )
    if len({h.said_at.date() for h in said}) < 2:
        return {}
    last = said[-1].said_at.date()
    # no date: when a later statement was said is not when the value ended
    return {h.id: (EARLIER, None) for h in said if h.said_at.date() < last}


def _ahead(hit: Hit, now: datetime) -> bool:
    """Whether a statement is still a plan at `now`: it names a day after `now`, or it
    looks ahead and names no day ("we're moving, move date Aug 1" said in July is done by
    November)."""
    times = find_times(hit.text, hit.said_at)
    if times:
        return any(t.last_day > now.date() for t in times)
    return looks_ahead(hit.text)


def _turns_too(
    hits: Sequence[Hit], found: dict[str, tuple[str, datetime | None]]
) -> dict[str, tuple[str, datetime | None]]:
    """`found` with the turns an earlier memory was drawn from marked earlier as well,
    unless a memory still current was drawn from them too."""
    memories = [h for h in hits if h.kind != "episode"]
    current = {s.episode_id for h in memories if h.id not in found for s in h.sources}
    earlier = {
        s.episode_id: found[h.id]
        for h in memories
        if found.get(h.id, ("", None))[0] == EARLIER
        for s in h.sources
    }
    for hit in hits:
        if hit.kind == "episode" and hit.id in earlier and hit.id not in current:
            _, until = earlier[hit.id]
            # a memory that had ended by the time its turn was said was the turn's news
            # ("quit the firm end of March", said in May): the turn is not earlier
            if until is None or until > hit.occurred_at:
                found.setdefault(hit.id, earlier[hit.id])
    return found


def _rival_key(hit: Hit) -> tuple[str, str, str] | None:
    """The one-valued slot a memory fills (subject, attribute, qualifier), or None for a
    turn, a memory of no slot, a many-valued slot or a hedge."""
    slot = memory_slot(hit)
    if slot is None or not slot.get("attribute"):
        return None
    if slot.get("many") or slot.get("hedged"):  # an ended value is a successor too
        return None
    subject = str(slot.get("subject") or "").casefold()
    return subject, str(slot["attribute"]), str(slot.get("qualifier") or "")


def note(state: tuple[str, datetime | None], text: str) -> str:
    """The words a line ends with for its state, in the line's language."""
    kind, when = state
    zh = has_cjk(text)
    if kind == PLANNED:
        if when is None:
            return "（计划中）" if zh else " (planned)"
        return f"（计划自{when.month}月{when.day}日起）" if zh else f" (planned from {_day(when)})"
    if when is None:
        return "（此前）" if zh else " (earlier)"
    return f"（此前，至{when.month}月{when.day}日）" if zh else f" (earlier, until {_day(when)})"


def _day(when: datetime) -> str:
    return f"{when.day} {when:%b %Y}"


def small_talk(hit: Item) -> bool:
    """A turn that is only greetings, acknowledgements or pleasantries (`text.smalltalk`): an
    assistant's, or the user's thanks or acknowledgement that answers nothing and states
    nothing ("Thank you, very practical.", "好的 谢谢"; not "Yes!", "I'm vegan.", "我吃素"): it
    never takes a place a statement could have."""
    if hit.kind != "episode" or not hit.sources or not is_small_talk(hit.text):
        return False
    if hit.sources[0].role == "assistant":
        return True
    said = simplified(hit.text)
    return (
        _THANKS.search(said) is not None
        and not _ANSWER_WORD.search(said)
        and not find_statements(said)
    )


# What a user's thanks or acknowledgement says ("thank you", "cheers", "got it", "谢谢", "好的")
_THANKS = re.compile(
    r"\b(?:thanks|thank|thx|ty|cheers|ta|ok|okay|great|lovely|perfect|awesome|cool|brilliant|"
    r"got\s+it|sounds\s+good|will\s+do|noted|haha|lol)\b|谢谢|感谢|多谢|好的|收到|明白|知道了|哈哈",
    re.I,
)
# What answers a question asked ("Yes!", "nope", "对"): no pleasantry, whatever its words
_ANSWER_WORD = re.compile(
    r"\b(?:yes|yeah|yep|yup|no|nope|nah|sure|of\s+course|definitely|absolutely|correct|right)\b"
    r"|是的|对的?|没有|不是|嗯嗯|当然",
    re.I,
)


def memory_slot(item: Item) -> dict[str, Any] | None:
    """The slot a memory fills, as the writer stored it (`metadata["slot"]`), or None for a
    turn or a memory of no slot."""
    slot = item.metadata.get("slot") if item.kind != "episode" else None
    return slot if isinstance(slot, dict) else None


def assistant_turn(item: Item) -> bool:
    """A turn an assistant said: it replies to the user's words, and states no value of the
    user's (their own turn does)."""
    return item.kind == "episode" and bool(item.sources) and item.sources[0].role == "assistant"
