"""LongMemEval loader: each question is its own user with its own haystack of dated sessions.

Items (`.json` or `.json.gz`, a list): question_id, question_type, question, question_date
("2023/05/20 (Sat) 02:21"), answer, answer_session_ids, haystack_session_ids,
haystack_dates, haystack_sessions (lists of {role, content, has_answer?}). Evidence turns are
those with has_answer; abstention questions (`_abs` in the id) are reported apart.
"""

from __future__ import annotations

import gzip
import json
from collections import deque
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from dualtrace.bench.dataset import Benchmark, Question, Session, Turn, Unit
from dualtrace.errors import ValidationError
from dualtrace.inputs import visible

DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"
ABSTENTION = "abstention"
T = TypeVar("T")


def parse_date(text: str) -> datetime:
    """A LongMemEval date such as "2023/05/20 (Sat) 02:21" (naive, read as UTC)."""
    try:
        return datetime.strptime(text.strip(), DATE_FORMAT)
    except ValueError as exc:
        raise ValidationError(f"LongMemEval date {text!r} does not match {DATE_FORMAT!r}") from exc


def read_items(path: Path) -> list[dict[str, Any]]:
    """The list of question items in a `.json` or `.json.gz` file."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        items = json.load(handle)
    if not isinstance(items, list):
        raise ValidationError(f"{path}: expected a JSON list of LongMemEval items")
    return items


def stratified_sample(items: Sequence[T], key: Callable[[T], str], limit: int) -> list[T]:
    """`limit` items taken round-robin over the groups named by `key` (groups in order of
    first appearance, items in file order), returned in file order. Deterministic.

    >>> stratified_sample(["a1", "a2", "a3", "b1", "c1", "c2"], lambda s: s[0], 4)
    ['a1', 'a2', 'b1', 'c1']
    """
    groups: dict[str, deque[int]] = {}
    for index, item in enumerate(items):
        groups.setdefault(key(item), deque()).append(index)
    chosen: list[int] = []
    while len(chosen) < limit and any(groups.values()):
        for queue in groups.values():
            if queue and len(chosen) < limit:
                chosen.append(queue.popleft())
    return [items[i] for i in sorted(chosen)]


def haystack(item: dict[str, Any]) -> tuple[tuple[Session, ...], frozenset[str]]:
    """The item's sessions (a repeated session id is kept once) and its evidence turn ids."""
    out: list[Session] = []
    evidence: set[str] = set()
    seen: set[str] = set()
    triples = zip(
        item["haystack_session_ids"],
        item["haystack_dates"],
        item["haystack_sessions"],
        strict=True,
    )
    for sid, date, turns in triples:
        if sid in seen:
            continue
        seen.add(sid)
        kept = []
        for index, turn in enumerate(turns):
            if not visible(str(turn.get("content", ""))):
                continue  # an empty message (spaces, zero-width characters) holds no answer
            tid = f"{sid}:{index}"
            kept.append(Turn(tid, str(turn["role"]), None, str(turn["content"])))
            if turn.get("has_answer"):
                evidence.add(tid)
        if kept:
            out.append(Session(str(sid), parse_date(date), tuple(kept)))
    return tuple(out), frozenset(evidence)


def unit_for(item: dict[str, Any]) -> Unit:
    """One question as its own user: its haystack and the question itself."""
    qid = str(item["question_id"])
    sessions, evidence = haystack(item)
    abstention = "_abs" in qid
    answer = item.get("answer")
    question = Question(
        qid=qid,
        text=str(item["question"]),
        answer=None if answer is None else str(answer),
        category=ABSTENTION if abstention else str(item["question_type"]),
        evidence=evidence,
        now=parse_date(item["question_date"]),
        scored=not abstention,
        answer_sessions=frozenset(str(s) for s in item.get("answer_session_ids", [])),
    )
    return Unit(f"lme-{qid}", sessions, (question,))


def load_longmemeval(
    path: Path, *, limit: int | None = None, types: Sequence[str] | None = None
) -> Benchmark:
    """Load a LongMemEval file; `types` keeps only those question types, `limit` takes a
    stratified sample by question type."""
    items = read_items(Path(path))
    total = len(items)
    if types is not None:
        known = sorted({str(i["question_type"]) for i in items})
        unknown = sorted(set(types) - set(known))
        if unknown or not types:
            raise ValidationError(
                f"question types {unknown or list(types)} are not in {path}; choose from {known}"
            )
        items = [i for i in items if str(i["question_type"]) in types]
    if limit is not None:
        items = stratified_sample(items, lambda i: str(i["question_type"]), limit)
    units = tuple(unit_for(i) for i in items)
    types = list(dict.fromkeys(str(i["question_type"]) for i in items))
    sample = "all" if limit is None else f"a stratified sample (round-robin by type) of {limit}"
    if types is not None:
        sample += f" of the types {', '.join(types)}"
    notes = (
        f"{len(units)} of {total} questions ({sample}) from {path}; each question is its own "
        "user; `now` is the question date; abstention questions reported apart.",
    )
    return Benchmark("longmemeval", units, (*types, ABSTENTION), notes)
