"""Atomic clauses: a sentence that states several slots becomes one clause per slot.

"My budget is 300k yuan and I live in Hangzhou." holds two facts; a later move must close
the residence and leave the budget. The sentence is cut at its conjunctions and commas,
and pieces that state no slot rejoin the piece before them, so a sentence is split only
where each side states something of its own ("我已经从阿里离职了，现在在字节跳动上班").
"""

from __future__ import annotations

import re

from dualtrace.cjk import has_cjk
from dualtrace.text.slots import cues
from dualtrace.text.slots.finder import find_statements
from dualtrace.text.slots.names import INTRODUCES

_CUT_EN = re.compile(
    r"\s*[,;]\s+(?:(?:and|but|plus|also|so)\s+)?|\s+(?:and|but|plus|while|whereas|although|"
    r"though)\s+(?:(?:also|now|then)\s+)?(?=(?:I|I['’]m|I['’]ve|my|we|we['’]re|our|also|now|"
    r"then|these\s+days|let['’]s)\b)",
    re.I,
)
# "I are" after a cut was the end of a subject of two ("my sister and I are moving"): "we are"
_I_ARE = re.compile(r"^I\s+(are|were)\b", re.I)
_CUT_ZH = re.compile(
    r"\s*(?:[，,；;]\s*(?:而且|还有|另外|同时|但是|不过|并且|所以|然后)?|而且|还有|另外|并且|但是)\s*"
)
# A piece that opens on a participle ("turning 8 in Feb") says more of the person the piece
# before it ends on ("my son Ethan"): it is theirs, not a clause of the speaker's own
_PARTICIPLE_EN = re.compile(r"\s*[a-z]+ing\b")
_ENDS_ON_KIN_EN = re.compile(rf"(?:{cues.KIN_EN.pattern})(?:\s+(?-i:[A-Z])[\w'’-]*)?\s*$", re.I)
_LEADING_EN = re.compile(r"^(?:and|but|plus|also|so|then)\s+", re.I)
_SUBJECT_ZH = re.compile(r"^(?:我|咱|他|她|它|用户)")
_OPENS_ON_KIN_ZH = re.compile(rf"^(?:我|我们)(?:家)?的?(?:{cues.KIN_ZH.pattern})")


def atomic_clauses(sentence: str) -> list[str]:
    """The sentence, or one clause per slot it states (see the module docstring)."""
    cut = _CUT_ZH if has_cjk(sentence) else _CUT_EN
    pieces = [p for p in cut.split(sentence) if p and p.strip()]
    if len(pieces) < 2:
        return [sentence]
    clauses: list[str] = []
    stating: list[bool] = []
    for piece in pieces:
        says = bool(find_statements(piece)) and not (
            clauses and _PARTICIPLE_EN.match(piece) and _ENDS_ON_KIN_EN.search(clauses[-1])
        )
        if clauses and not (says and stating[-1]):
            joiner = "，" if has_cjk(piece) else ", "
            if says and not stating[-1] and len(clauses) == 1 and not find_statements(clauses[0]):
                clauses[0] = clauses[0] + joiner + piece  # a lead-in ("Good news,") joins
                stating[0] = True
                continue
            clauses[-1] = clauses[-1] + joiner + piece
            stating[-1] = stating[-1] or says
            continue
        clauses.append(piece)
        stating.append(says)
    if len(clauses) < 2:
        return [sentence]
    return [clauses[0], *(_own_subject(c, clauses[0]) for c in clauses[1:])]


def _own_subject(clause: str, first: str) -> str:
    """A later clause written to stand alone: its conjunction dropped, and the first
    clause's speaker as subject when it has none ("现在在字节跳动上班" → "我现在在…")."""
    clause = _I_ARE.sub(r"we \1", _LEADING_EN.sub("", clause.strip()))
    if INTRODUCES.match(f"{first}, {clause}"):
        return clause  # what the speaker just introduced is: "hi, I'm Dana" + "nurse at …"
    if has_cjk(clause):
        if not _SUBJECT_ZH.search(clause) and not cues.KIN_ZH.match(clause) and "我" in first:
            # ... the one the first clause is about where it opens on kin ("我女儿叫朵朵，今年
            # 五岁": the daughter is five)
            kin = _OPENS_ON_KIN_ZH.match(first)
            return ("我" + kin.group("kin") if kin else "我") + clause
        return clause
    if (
        not cues.FIRST_PERSON_EN.search(clause)
        and not cues.KIN_EN.search(clause)
        and cues.FIRST_PERSON_EN.search(first)
    ):
        return "I " + clause
    return clause[0].upper() + clause[1:]
