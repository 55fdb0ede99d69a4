"""`dualtrace profile --user U`: the user's current picture (`Memory.profile`), as Markdown
or, with `--json`, its structured values."""

from __future__ import annotations

import dataclasses

import click

from dualtrace.cli import render
from dualtrace.cli.app import Settings, user_option


@click.command()
@user_option
@click.option("--as-of", "as_of", help="What held then (ISO 8601) [default: now].")
@click.option("--max-tokens", type=int, default=None, help="Token budget [default: no limit].")
@click.option("--history", is_flag=True, help="Also what each value replaced.")
@click.pass_obj
def profile(
    settings: Settings, user: str, as_of: str | None, max_tokens: int | None, history: bool
) -> None:
    """What we know about the user now: each current value, dated, citing its turns."""
    with settings.open() as mem:
        found = mem.profile(user, as_of=as_of, max_tokens=max_tokens, history=history)
    if settings.as_json:
        render.echo_json(dataclasses.asdict(found))
        return
    if found.text:
        click.echo(found.text)
    else:
        render.nothing(f"nothing is known about user {user!r} yet")
    counts = f"{found.tokens} tokens, {len(found.values)} values, {len(found.people)} of others"
    click.secho(f"({counts})", dim=True, err=True)
