"""`dualtrace demo`: store a built-in EN/ZH conversation in a fresh file and ask it questions."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

import click

from dualtrace.cli import render
from dualtrace.cli.app import Settings

if TYPE_CHECKING:
    from dualtrace.demo import DemoAnswer


def _mark(answer: DemoAnswer, limit: int) -> str:
    if answer.first_hit and answer.found:
        return click.style("✓ first hit", fg="green")
    if answer.found:
        return click.style(f"~ in the top {limit}, first hit wrong", fg="yellow")
    if answer.first_hit:
        return click.style(f"~ first hit, not every expected turn in the top {limit}", fg="yellow")
    return click.style("✗ missed", fg="red")


def _render_answer(number: int, answer: DemoAnswer, limit: int) -> None:
    mark = _mark(answer, limit)
    click.echo(click.style(f"\n[{number}] {answer.query}", bold=True))
    click.echo(f"    {mark} {', '.join(answer.expected)} — {answer.note}")
    for rank, hit in enumerate(answer.hits, start=1):
        refs = {s.external_id for s in hit.sources}
        star = click.style("*", fg="green") if refs & set(answer.expected) else " "
        where = ", ".join(f"{s.external_id or s.episode_id} @ {s.session_id}" for s in hit.sources)
        click.echo(
            f"  {star} {rank}. {render.date(hit.occurred_at)}  {render.speaker(hit)}  ({where})  "
            f"score {hit.score:.3f}"
        )
        click.secho(f"       {render.breakdown(hit.scores)}", dim=True)
        click.echo(f"       {render.shorten(hit.text, 88)}")


@click.command()
@click.option(
    "--db",
    "db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File to recreate [default: $DUALTRACE_HOME/demo.db].",
)
@click.option("--limit", type=click.IntRange(1, 50), default=3, show_default=True)
@click.pass_obj
def demo(settings: Settings, db: Path | None, limit: int) -> None:
    """Store a four-session EN/ZH conversation in a fresh file and ask it questions."""
    from dualtrace.config import home_dir
    from dualtrace.demo import run_demo  # loads the Memory facade

    if settings.db is not None or settings.url is not None:
        raise click.UsageError(
            "the demo deletes and recreates its file, so it ignores your store; "
            "pass `dualtrace demo --db PATH` instead of the global --db/--url"
        )
    path = db if db is not None else home_dir() / "demo.db"
    render.nothing(f"storing the demo conversation in {path} (recreated) …")
    answers = run_demo(path, limit=limit)
    found, first = sum(a.found for a in answers), sum(a.first_hit for a in answers)
    if settings.as_json:
        answers_json = [
            {**dataclasses.asdict(a), "found": a.found, "first_hit": a.first_hit} for a in answers
        ]
        render.echo_json(
            {
                "answers": answers_json,
                "found": found,
                "first_hit": first,
                "questions": len(answers),
                "limit": limit,
            }
        )
        return
    for number, answer in enumerate(answers, start=1):
        _render_answer(number, answer, limit)
    total = len(answers)
    click.secho(f"\nfirst hit from an expected turn: {first}/{total}", bold=True)
    click.secho(f"every expected turn in the top {limit}: {found}/{total}", bold=True, nl=False)
    click.secho("  (* marks a hit from an expected turn)", dim=True)
