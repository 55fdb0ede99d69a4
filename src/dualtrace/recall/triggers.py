"""Recall triggers: does a message need long-term memory before the agent answers?

Searching memory on every turn costs latency and can distract the model with stale facts;
a self-contained turn ("what is 2+2?") needs none. A turn needs memory when it refers to
the past or to shared history ("as we discussed", "上次"), opens a new session ("hi again",
"我又来了"), or asks about the user themself ("what's my budget?", "我住在哪").

    >>> needs_memory("Book my usual table, please")
    True
    >>> needs_memory("what is 2+2?")
    False
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dualtrace.text.question_cues import ASKS_ABOUT_USER, EARLIER_EN, EARLIER_ZH

_NEW_SESSION = re.compile(
    r"^\W*(?:hi|hey|hello|good (?:morning|afternoon|evening))\W+(?:\w+\W+)?again\b"
    r"|\bI['’]?m back\b|\bI am back\b|\b(?:it['’]?s|it is) me again\b"
    r"|\b(?:good|nice|great) to (?:see|talk to|hear from) you again\b"
    r"|\blong time no (?:see|talk)\b|\bwe meet again\b"
    r"|我又来了|我回来了|又见面了|好久不见|又是我|我们又见面",
    re.I,
)
# Shared history: what was said or agreed, the usual, "again" — and the words of an earlier
# time that a question about the past says too (`text/question_cues.py`). "before" counts
# only where it ends a phrase ("as before"): "Before we start, …" needs no memory.
_PAST = re.compile(
    r"\blast (?:time|session|conversation|week|month|year|night|chat)\b"
    r"|\b(?:as|like) (?:I|we|you) (?:said|mentioned|discussed|agreed|told you|planned)\b"
    r"|\bremember (?:when|that|what|how|where|who|my|our|the)\b|\bdo you remember\b"
    r"|\byou (?:told|showed|gave|promised|recommended|suggested|asked)\b"
    r"|\byou (?:said|mentioned)\b"
    r"|\b(?:I|we) (?:told you|mentioned|said|discussed|talked about)\b"
    r"|\bwe (?:talked|spoke|chatted)\b"
    r"|\b(?:my|our|the) usual\b|\bagain\b|\bpreviously\b|\bearlier\b|\bthe other day\b"
    rf"|\b(?:as|like|than|ever|from) before\b|\bbefore\s*(?:[?.!,;]|$)|\b(?:{EARLIER_EN})\b"
    rf"|{EARLIER_ZH}|上回|那个|还记得|记得吗|记不记得|我说过|我跟你说过|我告诉过你|你说过"
    r"|你告诉过我|你推荐过|我们聊过|我们讨论过|老样子|照旧|跟以前一样|和以前一样",
    re.I,
)


@dataclass(frozen=True)
class Trigger:
    """Whether a message needs long-term memory, why, and the words that said so.

    `reason` is one of "new session", "refers to the past", "about the user" or "none".
    """

    needs: bool
    reason: str
    cue: str | None = None


def recall_trigger(text: str) -> Trigger:
    """Why (or why not) a message needs long-term memory.

    >>> recall_trigger("As we discussed, book the same hotel").reason
    'refers to the past'
    """
    for reason, pattern in (
        ("new session", _NEW_SESSION),
        ("refers to the past", _PAST),
        ("about the user", ASKS_ABOUT_USER),
    ):
        found = pattern.search(text)
        if found:
            return Trigger(needs=True, reason=reason, cue=found.group(0).strip())
    return Trigger(needs=False, reason="none")


def needs_memory(text: str) -> bool:
    """True when a message refers to the past, starts a new session or asks about the user.

    >>> needs_memory("还记得我上次说的那家餐厅吗？")
    True
    """
    return recall_trigger(text).needs
