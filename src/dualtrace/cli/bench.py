"""`dualtrace bench locomo|longmemeval|updates|crosslingual`: the retrieval (and optional QA)
benchmark harness, and the knowledge-update and cross-lingual benchmarks on their packaged
cases.

The harness is the `bench` extra (`pip install 'dualtrace[bench]'`): its plotting library is
not installed with the engine, so it is imported only when a benchmark runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from dualtrace.cli import render
from dualtrace.cli.app import Settings
from dualtrace.errors import ConfigError

if TYPE_CHECKING:
    from dualtrace.llm.openai import OpenAIChatLLM

BenchCommand = Callable[..., None]

# Top-level packages the harness needs that `pip install dualtrace` does not bring.
BENCH_ONLY = frozenset({"matplotlib"})


@contextmanager
def bench_extra() -> Iterator[None]:
    """Turn a missing `bench`-extra package, met while importing the harness, into a
    ConfigError that says how to install it."""
    try:
        yield
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing not in BENCH_ONLY:
            raise
        raise ConfigError(
            f"`dualtrace bench` needs {missing}, which is not installed: the benchmark "
            "harness is an optional extra. Install it with `pip install 'dualtrace[bench]'`"
        ) from exc


def _int_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    """Parse "500,1000,2000" into positive integers."""
    try:
        numbers = tuple(int(part) for part in value.split(",") if part.strip())
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is not a comma-separated list of integers") from exc
    if not numbers or min(numbers) < 1:
        raise click.BadParameter(f"{value!r}: give positive integers such as 500,1000,2000")
    return numbers


def _int_list_or_none(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[int, ...] | None:
    return None if value is None else _int_list(ctx, param, value)


@contextmanager
def _qa_clients(options: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The run options with the --llm options replaced by the clients `run_*` takes; the
    clients are closed after the run."""
    options = _qa_models(options)
    try:
        yield options
    finally:
        for name in ("llm", "judge_llm"):
            if name in options:
                options[name].close()


def _llm_client(url: str, model: str) -> OpenAIChatLLM:
    from dualtrace.config import llm_api_key
    from dualtrace.llm.openai import OpenAIChatConfig, OpenAIChatLLM

    # a full LongMemEval history is ~111k tokens: give the model time to read it
    return OpenAIChatLLM(OpenAIChatConfig(url, model, api_key=llm_api_key(), timeout_s=600.0))


def _qa_models(options: dict[str, Any]) -> dict[str, Any]:
    """Replace the --llm options by the answering and judging clients `run_*` takes."""
    url, model = options.pop("llm_url"), options.pop("llm_model")
    judge = options.pop("judge_model")
    if url is None:
        if model is not None or judge is not None or options.get("qa_budgets") is not None:
            raise click.UsageError("--llm-model, --judge-model and --qa-budgets need --llm URL")
        if options.pop("qa_workers") is not None:
            raise click.UsageError("--llm-workers needs --llm URL")
        return options
    if not model:
        raise click.UsageError(f"--llm {url} needs --llm-model NAME, the model that answers")
    if options["qa_workers"] is None:  # the runner's default
        del options["qa_workers"]
    options["llm"] = _llm_client(url, model)
    options["judge_llm"] = options["llm"] if judge in (None, model) else _llm_client(url, judge)
    return options


Option = Callable[[BenchCommand], BenchCommand]


def _run_options(data: click.Path, budgets: str) -> list[Option]:
    """What to run on and measure: the data, the budgets and cut-offs, where results go."""
    return [
        click.option("--data", required=True, type=data, help="Benchmark data."),
        click.option("--limit", type=click.IntRange(min=1), help="Run on a sample of N."),
        click.option(
            "--budgets",
            default=budgets,
            show_default=True,
            callback=_int_list,
            help="Context token budgets.",
        ),
        click.option(
            "--k",
            "ks",
            default="5,10,20",
            show_default=True,
            callback=_int_list,
            help="Cut-offs for recall@k over search hits.",
        ),
        click.option(
            "--out",
            type=click.Path(file_okay=False, path_type=Path),
            help="Results folder [default: results/<benchmark>-<time>/].",
        ),
        click.option(
            "--cache",
            type=click.Path(dir_okay=False, path_type=Path),
            default=Path("~/.cache/dualtrace/embeddings.sqlite"),
            show_default=True,
            help="Embedding cache file, kept across runs.",
        ),
        click.option("--ablate", is_flag=True, help="Also run dualtrace ablation variants."),
    ]


def _llm_options() -> list[Option]:
    """Answering each question from its contexts with an LLM, and grading the answers."""
    return [
        click.option(
            "--llm",
            "llm_url",
            metavar="URL",
            help="OpenAI-compatible endpoint (e.g. http://localhost:11434/v1): also "
            "answer each question from each context and grade it with the "
            "benchmark's judge. API key: $DUALTRACE_LLM_API_KEY, if needed.",
        ),
        click.option("--llm-model", help="Model that answers (required with --llm)."),
        click.option("--judge-model", help="Model that grades [default: --llm-model]."),
        click.option(
            "--qa-budgets",
            default=None,
            callback=_int_list_or_none,
            help="Budgets the LLM answers at [default: every budget].",
        ),
        click.option(
            "--llm-workers",
            "qa_workers",
            type=click.IntRange(min=1),
            help="LLM calls at a time, after all retrieval [default: 4].",
        ),
    ]


def _bench_options(data: click.Path, budgets: str) -> Option:
    """The options every benchmark command shares."""
    options = _run_options(data, budgets) + _llm_options()

    def wrap(command: BenchCommand) -> BenchCommand:
        command = click.pass_obj(command)
        for option in reversed(options):
            command = option(command)
        return command

    return wrap


def _report_written(settings: Settings, report: Path) -> None:
    if settings.as_json:
        render.echo_json({"report": str(report), "folder": str(report.parent)})
    else:
        click.echo(f"report written to {report}")


@click.group()
def bench() -> None:
    """Retrieval benchmarks with baselines in the same run; writes a report folder.

    With --llm, also QA accuracy: an LLM answers from every method's context (the full
    history too) and the benchmark's judge prompt grades the answers."""


@bench.command("locomo")
@_bench_options(click.Path(exists=True, file_okay=False, path_type=Path), "500,1000,2000")
def bench_locomo(settings: Settings, data: Path, **options: Any) -> None:
    """LoCoMo: --data is a folder of conversation *.json files (--limit: first N of them)."""
    with bench_extra():
        from dualtrace.bench import run_locomo

    with _qa_clients(options) as run_options:
        _report_written(settings, run_locomo(data, **run_options))


@bench.command("longmemeval")
@_bench_options(click.Path(exists=True, dir_okay=False, path_type=Path), "1000,2000,4000")
@click.option(
    "--types",
    default=None,
    help="Only these question types, comma-separated (e.g. knowledge-update,"
    "temporal-reasoning); --limit samples within them.",
)
def bench_longmemeval(settings: Settings, data: Path, types: str | None, **options: Any) -> None:
    """LongMemEval: --data is a .json or .json.gz file (--limit: stratified sample by type)."""
    with bench_extra():
        from dualtrace.bench import run_longmemeval

    chosen = None if types is None else tuple(t.strip() for t in types.split(",") if t.strip())
    with _qa_clients(options) as run_options:
        _report_written(settings, run_longmemeval(data, types=chosen, **run_options))


@bench.command("updates")
@click.option(
    "--cases",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Cases JSONL [default: the packaged knowledge_updates.jsonl].",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Results folder [default: results/updates-<time>/].",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    help="Run on N cases, drawn evenly from each language and kind.",
)
@click.pass_obj
def bench_updates(
    settings: Settings, cases: Path | None, out: Path | None, limit: int | None
) -> None:
    """Knowledge updates (EN/ZH): does a later statement replace an earlier one, and do
    look-alikes leave it alone? dualtrace against turns only."""
    with bench_extra():
        from dualtrace.bench.updates import CASES, run_updates, summary_text

    results = run_updates(cases or CASES, out, limit=limit)
    report = Path(results["report"])
    if settings.as_json:
        overall = {name: e["overall"] for name, e in results["engines"].items()}
        render.echo_json({"report": str(report), "folder": str(report.parent), "rates": overall})
    else:
        click.echo(summary_text(results))
        _report_written(settings, report)


@bench.command("crosslingual")
@click.option(
    "--cases",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Cases JSONL [default: the packaged crosslingual.jsonl].",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Results folder [default: results/crosslingual-<time>/].",
)
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=400,
    show_default=True,
    help="Token budget of the context whose sources are checked.",
)
@click.pass_obj
def bench_crosslingual(
    settings: Settings, cases: Path | None, out: Path | None, budget: int
) -> None:
    """Cross-lingual recall (EN ↔ ZH): a fact said in one language, asked in the other;
    recall@3/@10 and in context, against the same questions in the fact's language."""
    with bench_extra():
        from dualtrace.bench.crosslingual import CASES, run_crosslingual, summary_text

    results = run_crosslingual(cases or CASES, out, budget=budget)
    report = Path(results["report"])
    if settings.as_json:
        render.echo_json(
            {
                "report": str(report),
                "folder": str(report.parent),
                "summary": results["summary"],
                "search_ms": results["search_ms"],
                "ingest": results["ingest"],
            }
        )
    else:
        click.echo(summary_text(results))
        _report_written(settings, report)


@bench.command("scenarios")
@click.option(
    "--cases",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="Scenarios JSONL: one user a line, with sessions, questions and the profile.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Results folder [default: results/scenarios-<time>/].",
)
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=150,
    show_default=True,
    help="Token budget of the context read for each question.",
)
@click.option(
    "--llm",
    "llm_url",
    help="OpenAI-compatible endpoint whose model extracts the memories instead of the rules.",
)
@click.option("--llm-model", help="The model that extracts (required with --llm).")
@click.pass_obj
def bench_scenarios(
    settings: Settings,
    cases: Path,
    out: Path | None,
    budget: int,
    llm_url: str | None,
    llm_model: str | None,
) -> None:
    """Multi-session scenarios (EN/ZH): the current value first in search and context,
    earlier values marked, and the profile's precision and recall."""
    with bench_extra():
        from dualtrace.bench.scenarios import run_scenarios, summary_text

    if (llm_url is None) != (llm_model is None):
        raise click.UsageError("--llm URL and --llm-model NAME go together")
    llm = None if llm_url is None or llm_model is None else _llm_client(llm_url, llm_model)
    try:
        results = run_scenarios(cases, out, budget=budget, llm=llm)
    finally:
        if llm is not None:
            llm.close()
    report = Path(results["report"])
    if settings.as_json:
        summaries = {name: e["summary"] for name, e in results["engines"].items()}
        render.echo_json({"report": str(report), "folder": str(report.parent), **summaries})
    else:
        click.echo(summary_text(results))
        _report_written(settings, report)


@bench.command("aggregation")
@click.option(
    "--cases",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Aggregation cases JSONL [default: the packaged aggregation_dev.jsonl].",
)
@click.pass_obj
def bench_aggregation(settings: Settings, cases: Path | None) -> None:
    """List, count, total and order questions across sessions (EN/ZH): evidence recall and
    the share with all evidence in context, at 1,000 and 2,000 tokens."""
    with bench_extra():
        from dualtrace.bench.aggregation import CASES, run_aggregation, summary_text

    results = run_aggregation(cases or CASES)
    if settings.as_json:
        render.echo_json(results["summary"])
    else:
        click.echo(summary_text(results))
