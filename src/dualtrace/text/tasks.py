"""Whether a statement closes an open goal or task: says it is done ("I booked the flights",
"酒店订好了") or dropped ("no need to book the hotel", "不用订酒店了"), in words that cover
the task's own.

Closed-class cues decide done or dropped; the task's content words (the cue words of a task,
"remind me", "记得", set aside) must be mostly said again, English words compared by their
stem, Chinese words character by character ("订好" covers "订", "礼物" half of "生日礼物").
"""

from __future__ import annotations

import re
from typing import Literal

from dualtrace.cjk import has_cjk
from dualtrace.text.lexical import query_terms

Closing = Literal["done", "dropped"]

COVER = 0.5  # share of the task's content words a closing statement says again

_DROPPED = re.compile(
    r"\b(?:no\s+(?:longer\s+)?need\s+to|(?:do|does|did)\s*n[o']t\s+need\s+to|never\s*mind|"
    r"forget\s+(?:about\s+)?(?:it|that|the)|cancell?ed|call(?:ed)?\s+off|drop(?:ped)?|"
    r"skip(?:ped|ping)?|not\s+going\s+to|won['’]t\s+(?:need|bother)|gave\s+up\s+on)\b"
    r"|不用|不需要|不必|算了|取消|放弃|不.{1,4}了",
    re.I,
)
_DONE = re.compile(
    r"\b(?:done|finished|completed|sorted|already|got|bought|paid|sent|made|did|wrote|took|"
    r"gave|told|sold|met|found|taken\s+care\s+of|\w+ed)\b"
    r"|好了|完了|掉了|已经|已|搞定|完成|办妥|弄好",
    re.I,
)
_NOT_DONE = re.compile(r"\b(?:not|n['’]t|yet|never)\b|还没|没有|没", re.I)
_TASK_WORDS = frozenset(
    "remind need needs must have forget sure make todo list user remember plan plans planning "
    "decided decide going want wants "
    "记得 别忘了 别忘记 提醒 待办 需要 我得 要 得 打算 计划 决定 准备 想 用户".split()
)


def closes(task: str, statement: str) -> Closing | None:
    """ "done" or "dropped" when the statement says so of this task, else None."""
    if statement.rstrip().endswith(("?", "？")):
        return None
    wanted = [t for t in query_terms(task, max_terms=64) if t not in _TASK_WORDS]
    if not wanted:
        return None
    said = query_terms(statement, max_terms=64)
    stems = {_stem(t) for t in said if not has_cjk(t)}
    chars = {c for t in said if has_cjk(t) for c in t}
    covered = sum(_covered(t, stems, chars) for t in wanted)
    if covered < COVER * len(wanted):
        return None
    if _DROPPED.search(statement):
        return "dropped"
    if _DONE.search(statement) and not _NOT_DONE.search(statement):
        return "done"
    return None


def _covered(term: str, stems: set[str], chars: set[str]) -> float:
    if has_cjk(term):
        return sum(c in chars for c in term) / len(term)
    return 1.0 if _stem(term) in stems else 0.0


def _stem(word: str) -> str:
    """A crude English stem: plural and past endings off ("flights", "booked" → "flight",
    "book"), enough to say a word again in another form."""
    for ending in ("ing", "ed", "es", "s", "e", "d"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word
