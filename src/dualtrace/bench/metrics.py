"""Retrieval metrics for memory benchmarks, as pure functions (no LLM needed; `token_f1`
scores an LLM's answer).

Evidence is a set of turn ids (external ids). A context or a hit "cites" a turn when the turn
is among its `sources`. Every function returns None when the question gives it nothing to
measure (no evidence, no answer string), so "not measured" never reads as zero.
"""

from __future__ import annotations

import math
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence, Set

ARTICLES = re.compile(r"\b(?:a|an|the)\b")
_PUNCTUATION = set(string.punctuation)
_USERS = re.compile(r"\bthe user['’]s\b")


def _is_punctuation(ch: str) -> bool:
    return ch in _PUNCTUATION or unicodedata.category(ch).startswith("P")


def normalise_answer(text: str) -> str:
    """Lowercase, drop punctuation and the articles a/an/the, collapse whitespace (SQuAD);
    "the user's" reads as "my" (memories say the user's "my" in the third person, and gold
    answers keep it: "under my bed" is "under the user's bed").

    >>> normalise_answer("The  Eiffel-Tower, in Paris!")
    'eiffeltower in paris'
    """
    text = _USERS.sub("my", text.lower())
    text = "".join(ch for ch in text if not _is_punctuation(ch))
    return " ".join(ARTICLES.sub(" ", text).split())


# LongMemEval: "18 days. 19 days (including the last day) is also acceptable."
_ALSO_ACCEPTABLE = re.compile(
    r"^(?P<main>[^.]+?)\.\s+(?P<other>[^.(]+?)\s*(?:\([^)]*\)\s*)?is also acceptable\.?$",
    re.IGNORECASE,
)


def answer_forms(answer: str) -> list[str]:
    """The acceptable forms of a gold answer: itself, or, for "X. Y (note) is also
    acceptable.", X and Y (the sentence as a whole is in no conversation).

    >>> answer_forms("17 days ago. 18 days (including the last day) is also acceptable.")
    ['17 days ago', '18 days']
    """
    found = _ALSO_ACCEPTABLE.match(answer.strip())
    return [found["main"], found["other"]] if found else [answer]


def answer_in_normalised(answer: str | None, normalised_context: str) -> float | None:
    """1.0 when a normalised form of the answer (see `answer_forms`) occurs, on word
    boundaries, in an already normalised context; None when there is no answer to look for."""
    if answer is None:
        return None
    wanted = [w for w in (normalise_answer(f) for f in answer_forms(answer)) if w]
    if not wanted:
        return None
    padded = f" {normalised_context} "
    return 1.0 if any(f" {w} " in padded for w in wanted) else 0.0


def answer_in_context(answer: str | None, context: str) -> float | None:
    """1.0 when the normalised gold answer appears in the normalised context text.

    A rough, LLM-free proxy: paraphrased answers never match, so compare methods with it,
    not absolute values. "2" does not match inside "2023" (word boundaries).
    """
    return answer_in_normalised(answer, normalise_answer(context))


def token_f1(prediction: str, gold: str) -> float:
    """SQuAD's token F1 between a predicted and a gold answer, after `normalise_answer`
    (LoCoMo's own QA metric; it also stems words, which this does not).

    >>> round(token_f1("She adopted a kitten named Pepper", "Pepper"), 3)
    0.333
    """
    predicted, wanted = normalise_answer(prediction).split(), normalise_answer(gold).split()
    common = sum((Counter(predicted) & Counter(wanted)).values())
    if not common:
        return 0.0
    precision, recall = common / len(predicted), common / len(wanted)
    return 2 * precision * recall / (precision + recall)


def distinct(ids: Iterable[str | None]) -> list[str]:
    """The ids in first-seen order, each once, without None."""
    return list(dict.fromkeys(i for i in ids if i is not None))


def evidence_recall(evidence: Set[str], cited: Iterable[str]) -> float | None:
    """Share of the evidence turns among the cited turns (None without evidence)."""
    if not evidence:
        return None
    return len(evidence & set(cited)) / len(evidence)


def recall_at_k(evidence: Set[str], ranked: Sequence[Sequence[str]], k: int) -> float | None:
    """Share of the evidence cited by the sources of the top-k hits (`ranked`: each hit's
    source turn ids, best hit first)."""
    return evidence_recall(evidence, (t for hit in ranked[:k] for t in hit))


def ndcg_at_k(evidence: Set[str], ranked_turns: Sequence[str], k: int = 10) -> float | None:
    """NDCG@k with binary relevance over a ranked list of distinct turns.

    The ideal ranking puts min(|evidence|, k) relevant turns first.
    """
    if not evidence:
        return None
    dcg = sum(1.0 / math.log2(i + 2) for i, t in enumerate(ranked_turns[:k]) if t in evidence)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(evidence), k)))
    return dcg / ideal


def session_recall(
    answer_sessions: Set[str], cited_sessions: Iterable[str]
) -> tuple[float, float] | None:
    """(any, all): whether at least one / every answer session is cited (None if none given)."""
    if not answer_sessions:
        return None
    found = answer_sessions & set(cited_sessions)
    return (1.0 if found else 0.0), (1.0 if found == answer_sessions else 0.0)


def mean(values: Iterable[float | None]) -> float | None:
    """The mean of the measured values (None when none was measured)."""
    measured = [v for v in values if v is not None]
    return sum(measured) / len(measured) if measured else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100) with linear interpolation; None for no values.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
    """
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summarise(rows: Sequence[Mapping[str, float | None]]) -> dict[str, float | None]:
    """Per metric, the mean over the rows that measured it."""
    keys = list(dict.fromkeys(k for row in rows for k in row))
    return {k: mean(row.get(k) for row in rows) for k in keys}
