"""Write a benchmark run as Markdown tables, JSON figures and PNG plots in one folder.

report.md              headline tables, per-category tables, costs, how it was run
results.json           every aggregate figure
questions.jsonl        every question's metrics, per method (and the LLM's answers, if any)
recall_vs_budget.png   evidence recall against the token budget, one line per method
recall_by_category.png the same, one panel per question category
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from dualtrace.bench.baselines import FULL_HISTORY
from dualtrace.bench.metrics import mean, percentile
from dualtrace.bench.results import Group, MethodRun, RunResult

TITLES = {"locomo": "LoCoMo", "longmemeval": "LongMemEval"}
NO_LLM = "No LLM configured; QA accuracy not measured (retrieval metrics only)."


def fmt(value: float | None, digits: int = 3) -> str:
    """A figure for a table cell; "—" when not measured."""
    return "—" if value is None else f"{value:.{digits}f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def metric_table(
    result: RunResult, group: Group, keys: Sequence[str], labels: Sequence[str]
) -> list[str]:
    """One row per method: the group's mean of each metric key."""
    rows = []
    for run in result.runs:
        summary = result.summary(run, group)
        rows.append([run.method.name, *(fmt(summary.get(k)) for k in keys)])
    return table(["method", *labels], rows)


def _has(result: RunResult, key: str) -> bool:
    return any(key in row for run in result.runs for row in run.rows.values())


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def _header(result: RunResult) -> list[str]:
    bench = result.bench
    scored = sum(q.scored for _, q in bench.questions)
    apart = len(bench.questions) - scored
    return [
        f"# {TITLES.get(bench.name, bench.name)} retrieval benchmark — dualtrace",
        "",
        f"- date: {result.started:%Y-%m-%d %H:%M:%S} (run took {_duration(result.seconds)})",
        f"- command: `{result.command}`",
        f"- machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"{platform.platform()}",
        f"- embedder: `{result.embedder_id}`; embedding cache: `{result.cache}`",
        f"- questions: {scored} scored, {apart} reported apart; "
        f"{len(bench.units)} users, {sum(u.turn_count for u in bench.units)} turns",
        f"- {_qa_line(result)}",
        *(f"- {note}" for note in bench.notes),
        "- every read passes `reinforce=False`; ingestion never sees the questions.",
        "",
    ]


def _qa_line(result: RunResult) -> str:
    qa = result.qa
    if qa is None:
        return NO_LLM
    judge = "Mem0's LLM-as-a-judge prompt" if qa.benchmark == "locomo" else "its judge prompts"
    failed = qa.calls["answer failed"] + qa.calls["judge failed"]
    return (
        f"QA: `{qa.answerer.id}` answers from each method's context at "
        f"{', '.join(map(str, result.qa_budgets))} tokens (the full history: from all of it); "
        f"`{qa.judge.id}` grades with {judge}. {qa.calls['answer']} answer and "
        f"{qa.calls['judge']} judge calls; {failed} failed (those questions unscored)."
    )


def _qa(result: RunResult, group: Group) -> list[str]:
    if result.qa is None:
        return []
    budgets = result.qa_budgets
    keys = [*(f"qa@{b}" for b in budgets), *(f"f1@{b}" for b in budgets)]
    return [
        "",
        "### QA accuracy (LLM judge) and token F1 of the answers",
        "",
        *metric_table(result, group, keys, keys),
    ]


def _methods(result: RunResult) -> list[str]:
    rows = [
        [
            r.method.name,
            r.method.store or "—",
            r.method.description,
            ", ".join(f"{k}={v!r}" for k, v in r.method.overrides.items()) or "defaults",
        ]
        for r in result.runs
    ]
    return ["## Methods", "", *table(["method", "store", "what", "config changes"], rows), ""]


def _overall(result: RunResult) -> list[str]:
    group = result.groups()[0]
    budgets, ks = result.budgets, result.ks
    out = [f"## Overall ({len(group.qids)} scored questions)", ""]
    out += ["### Evidence recall at token budget", ""]
    out += metric_table(
        result, group, [f"recall@{b}" for b in budgets], [f"recall@{b}" for b in budgets]
    )
    out += ["", "### Answer in context (a normalised gold answer form found in the context)", ""]
    out += metric_table(
        result, group, [f"answer@{b}" for b in budgets], [f"answer@{b}" for b in budgets]
    )
    full = next(r for r in result.runs if r.method.name == FULL_HISTORY)
    stated = sum(full.rows[q].get(f"answer_stated@{budgets[0]}") is not None for q in group.qids)
    out += [
        "",
        f"### Answer in context, over the {stated} questions whose gold answer an "
        "evidence turn states (the others match only by chance)",
        "",
    ]
    out += metric_table(
        result, group, [f"answer_stated@{b}" for b in budgets], [f"answer@{b}" for b in budgets]
    )
    out += _qa(result, group)
    if _has(result, f"session_any@{budgets[0]}"):
        keys = [f"session_{w}@{b}" for b in budgets for w in ("any", "all")]
        out += ["", "### Session recall (answer sessions cited by the context: any / all)", ""]
        out += metric_table(result, group, keys, [k.replace("session_", "") for k in keys])
    out += ["", "### Search: recall@k over `search()` hits, NDCG@10 over cited turns", ""]
    keys = [*(f"R@{k}" for k in ks), "NDCG@10"]
    out += metric_table(result, group, keys, keys)
    return [*out, ""]


def _tokens(result: RunResult) -> list[str]:
    group = result.groups()[0]
    full = next(r for r in result.runs if r.method.name == FULL_HISTORY)
    history = mean(full.rows[q].get(f"tokens@{result.budgets[0]}") for q in group.qids)
    top_budget = result.budgets[-1]
    rows = []
    for run in result.runs:
        summary = result.summary(run, group)
        cells = [fmt(summary.get(f"tokens@{b}"), 0) for b in result.budgets]
        top = summary.get(f"tokens@{top_budget}")
        share = None if top is None or not history else top / history
        rows.append([run.method.name, *cells, fmt(share)])
    headers = ["method", *(f"tokens@{b}" for b in result.budgets)]
    density = []
    for run in result.runs:
        summary = result.summary(run, group)
        if summary.get(f"items@{top_budget}") is None:
            continue  # no items: the full history is not a list of retrieved items
        cells = []
        for b in result.budgets:
            items, tokens = summary.get(f"items@{b}"), summary.get(f"tokens@{b}")
            cells.append(fmt(None if not tokens or items is None else 1000 * items / tokens, 1))
        density.append([run.method.name, *cells])
    return [
        "## Cost",
        "",
        "### Context tokens (mean per question) vs full history",
        "",
        f"Full history: {fmt(history, 0)} tokens per question on average.",
        "",
        *table([*headers, f"share of full history @{top_budget}"], rows),
        "",
        "### Items per 1,000 context tokens (mean items / mean tokens)",
        "",
        *table(["method", *(f"@{b}" for b in result.budgets)], density),
        "",
    ]


def _latency(result: RunResult) -> list[str]:
    rows = [
        [
            r.method.name,
            str(len(r.search_ms)),
            *(fmt(percentile(r.search_ms, p), 1) for p in (50, 95)),
            *(fmt(percentile(r.context_ms, p), 1) for p in (50, 95)),
        ]
        for r in result.runs
        if r.search_ms
    ]
    headers = ["method", "searches", "search p50", "search p95", "context p50", "context p95"]
    return [
        "### Latency (ms per call; context = search + packing)",
        "",
        *table(headers, rows),
        "",
        "Wall-clock on a shared machine: other processes running at the same time show up in "
        "the p95.",
        "",
    ]


def _ingest(result: RunResult) -> list[str]:
    rows = [
        [
            i.store,
            str(i.turns),
            fmt(i.seconds, 1),
            fmt(i.turns_per_s, 1),
            str(i.embedded),
            str(i.memories),
        ]
        for i in result.ingests
    ]
    headers = [
        "store",
        "turns",
        "seconds",
        "turns/s",
        "texts embedded (cache misses)",
        "memories derived",
    ]
    return [
        "### Ingest",
        "",
        *table(headers, rows),
        "",
        "Turns/s counts cached embeddings as free: a rerun is faster than a cold start.",
        "",
    ]


def _categories(result: RunResult) -> list[str]:
    budgets = result.budgets
    mid = budgets[len(budgets) // 2]
    keys = [
        *(f"recall@{b}" for b in budgets),
        f"answer@{mid}",
        *(f"R@{k}" for k in result.ks),
        "NDCG@10",
    ]
    if _has(result, f"session_any@{mid}"):
        keys[len(budgets) + 1 : len(budgets) + 1] = [f"session_any@{mid}", f"session_all@{mid}"]
    if result.qa is not None:
        keys[len(budgets) + 1 : len(budgets) + 1] = [f"qa@{b}" for b in result.qa_budgets]
    out = ["## By category", ""]
    for group in result.groups()[1:]:
        apart = " — reported apart, not in the overall figures" if group.apart else ""
        out += [f"### {group.name} ({len(group.qids)} questions){apart}", ""]
        out += metric_table(result, group, keys, keys)
        out.append("")
    return out


def _style(run: MethodRun) -> dict[str, Any]:
    """Ablations thin and dotted, so the methods they vary stay visible beneath them."""
    if run.method.ablation:
        return {"linestyle": ":", "linewidth": 1.2, "marker": "x", "markersize": 5}
    dashed = run.method.name == FULL_HISTORY
    return {"linestyle": "--" if dashed else "-", "linewidth": 2.0, "marker": "o"}


def _line_plot(ax: Any, result: RunResult, group: Group, prefix: str) -> None:
    budgets = list(result.budgets)
    for index, run in enumerate(result.runs):
        summary = result.summary(run, group)
        values = [summary.get(f"{prefix}@{b}") for b in budgets]
        if all(v is None for v in values):
            continue
        ys = [float("nan") if v is None else v for v in values]
        ax.plot(budgets, ys, label=run.method.name, color=f"C{index % 10}", **_style(run))
    ax.set_xscale("log")
    ax.set_xticks(budgets, [str(b) for b in budgets])
    ax.minorticks_off()
    ax.set_ylim(0.0, 1.05)
    ax.grid(alpha=0.3)


def plot_recall(result: RunResult, folder: Path) -> list[str]:
    """Recall-vs-budget PNGs (overall, and one panel per category); returns file names."""
    groups = result.groups()
    fig = Figure(figsize=(8, 5))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    _line_plot(ax, result, groups[0], "recall")
    ax.set(
        xlabel="context budget (tokens)",
        ylabel="evidence recall",
        title=f"{TITLES.get(result.bench.name, result.bench.name)}: recall vs budget",
    )
    ax.legend(fontsize="small", loc="lower right")
    fig.savefig(folder / "recall_vs_budget.png", dpi=120, bbox_inches="tight")
    cats = groups[1:]
    cols = min(3, max(1, len(cats)))
    rows = max(1, -(-len(cats) // cols))
    fig = Figure(figsize=(5 * cols, 3.6 * rows + 0.8))
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax, group in zip(axes, cats, strict=False):
        _line_plot(ax, result, group, "recall")
        ax.set_title(f"{group.name} (n={len(group.qids)})", fontsize="medium")
    for ax in axes[len(cats) :]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=min(4, len(labels)), fontsize="small")
    fig.supxlabel("context budget (tokens)", y=0.08)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(folder / "recall_by_category.png", dpi=110)
    return ["recall_vs_budget.png", "recall_by_category.png"]


def _json(result: RunResult) -> dict[str, Any]:
    def latency(run: MethodRun) -> dict[str, float | None]:
        return {
            f"{name}_p{p}": percentile(ms, p)
            for name, ms in (("search", run.search_ms), ("context", run.context_ms))
            for p in (50, 95)
        }

    return {
        "benchmark": result.bench.name,
        "command": result.command,
        "started": result.started.isoformat(),
        "seconds": result.seconds,
        "budgets": list(result.budgets),
        "ks": list(result.ks),
        "embedder": result.embedder_id,
        "config": result.base_config.settings(),
        "notes": list(result.bench.notes),
        "methods": {
            run.method.name: {
                "groups": {g.name: result.summary(run, g) for g in result.groups()},
                "latency_ms": latency(run),
            }
            for run in result.runs
        },
        "ingest": [{**dataclasses.asdict(i), "turns_per_s": i.turns_per_s} for i in result.ingests],
        "qa": _qa_json(result),
    }


def _qa_json(result: RunResult) -> dict[str, Any] | None:
    qa = result.qa
    if qa is None:
        return None
    budgets = list(result.qa_budgets)
    return {
        "answerer": qa.answerer.id,
        "judge": qa.judge.id,
        "budgets": budgets,
        "calls": dict(qa.calls),
    }


def write_report(result: RunResult, folder: Path) -> Path:
    """Write report.md, results.json, questions.jsonl and the plots; returns report.md."""
    folder.mkdir(parents=True, exist_ok=True)
    pngs = plot_recall(result, folder)
    lines = [*_header(result), *_methods(result), *_overall(result)]
    lines += [*_tokens(result), *_latency(result), *_ingest(result)]
    lines += [*_categories(result), "## Plots", ""]
    lines += [f"![{name}]({name})" for name in pngs]
    config = ", ".join(f"{k}={v!r}" for k, v in result.base_config.settings().items())
    lines += [
        "",
        "## Base configuration",
        "",
        f"`MemoryConfig({config})`",
        "",
        f"Python {sys.version.split()[0]} on {platform.machine()}.",
        "",
    ]
    report = folder / "report.md"
    report.write_text("\n".join(lines), encoding="utf-8")
    (folder / "results.json").write_text(json.dumps(_json(result), indent=2, default=str))
    with (folder / "questions.jsonl").open("w", encoding="utf-8") as handle:
        for run in result.runs:
            for qid, row in run.rows.items():
                record: dict[str, Any] = {"method": run.method.name, "qid": qid, **row}
                if qid in run.responses:
                    record["responses"] = run.responses[qid]
                handle.write(json.dumps(record) + "\n")
    return report
