"""What a benchmark run measured: per-question metrics per method, timings, ingest costs."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from dualtrace.bench.baselines import Method
from dualtrace.bench.dataset import Benchmark, Question
from dualtrace.bench.metrics import summarise
from dualtrace.bench.qa import QA_WORKERS, QAGrader
from dualtrace.config import MemoryConfig

Row = dict[str, float | None]
OVERALL = "overall"


@dataclass
class MethodRun:
    """One method's per-question metrics (by question id) and call latencies in ms."""

    method: Method
    rows: dict[str, Row] = field(default_factory=dict)
    search_ms: list[float] = field(default_factory=list)
    context_ms: list[float] = field(default_factory=list)
    responses: dict[str, dict[str, str | None]] = field(default_factory=dict)  # qid -> qa@B -> text


@dataclass(frozen=True)
class IngestStats:
    """What ingesting every unit into one store cost."""

    store: str
    turns: int
    seconds: float
    embedded: int
    memories: int

    @property
    def turns_per_s(self) -> float:
        """Ingest rate."""
        return self.turns / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Group:
    """A set of questions reported together; `apart` groups are not in the overall figures."""

    name: str
    qids: tuple[str, ...]
    apart: bool = False


@dataclass(frozen=True)
class QAJob:
    """A context to answer from, and where its grade goes: `row` under each of `budgets`."""

    question: Question
    text: str
    budgets: tuple[int, ...]
    row: Row
    run: MethodRun


@dataclass
class RunResult:
    """Everything the report needs about one run."""

    bench: Benchmark
    budgets: tuple[int, ...]
    ks: tuple[int, ...]
    base_config: MemoryConfig
    command: str
    started: datetime
    embedder_id: str
    cache: Path
    runs: list[MethodRun] = field(default_factory=list)
    ingests: list[IngestStats] = field(default_factory=list)
    history_tokens: dict[str, int] = field(default_factory=dict)  # by user id
    seconds: float = 0.0
    qa: QAGrader | None = None  # with an LLM: answers graded at each of qa_budgets
    qa_budgets: tuple[int, ...] = ()
    qa_workers: int = QA_WORKERS
    qa_jobs: list[QAJob] = field(default_factory=list)  # graded after retrieval, at once

    def groups(self) -> list[Group]:
        """Overall (scored questions), then each category that has questions."""
        pairs = self.bench.questions
        out = [Group(OVERALL, tuple(q.qid for _, q in pairs if q.scored))]
        for category in self.bench.categories:
            members = [q for _, q in pairs if q.category == category]
            if members:
                apart = not all(q.scored for q in members)
                out.append(Group(category, tuple(q.qid for q in members), apart))
        return out

    def summary(self, run: MethodRun, group: Group) -> dict[str, float | None]:
        """Mean of each metric over the group's questions."""
        return summarise([run.rows[q] for q in group.qids if q in run.rows])
