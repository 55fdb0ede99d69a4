"""The `dualtrace` click group: its global options, and the one place errors become exit codes
and messages (`error: …` on stderr, or `{"error": {"type", "message"}}` under `--json`).

Nothing heavy is imported here: `dualtrace --help` must start fast, so the Memory facade is
imported only when a command opens the store.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from dualtrace.errors import ConfigError, DualtraceError, NotFoundError, ValidationError

if TYPE_CHECKING:
    from dualtrace.memory import Memory

# Most specific first: NotFoundError is a StoreError, ValidationError a DualtraceError.
EXIT_CODES: tuple[tuple[type[BaseException], int], ...] = (
    (ValidationError, 2),
    (NotFoundError, 3),
    (ConfigError, 4),
    (DualtraceError, 1),
    (OSError, 1),
)


# An error that is none of the above is a bug: said in one line, never as a traceback.
INTERNAL_ERROR = 70  # EX_SOFTWARE
_JSON_KEY = "dualtrace.json"


def exit_code(exc: BaseException) -> int:
    """The process exit code for an error raised by a command.

    Validation 2 (like click's usage errors), not found 3, config 4, other dualtrace or OS 1,
    a bug 70.
    """
    if isinstance(exc, click.ClickException):
        return exc.exit_code
    return next((code for cls, code in EXIT_CODES if isinstance(exc, cls)), INTERNAL_ERROR)


def wants_json(args: Sequence[str]) -> bool:
    """Whether `--json` is among the arguments (before or after the command; not after a
    `--`): known before parsing, so that even a usage error is answered in JSON."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


def report_error(exc: BaseException, *, as_json: bool) -> None:
    """Say what failed on stderr: one `error: …` line, or one JSON object under --json."""
    if isinstance(exc, click.ClickException):
        kind, message = type(exc).__name__, exc.format_message()
    elif isinstance(exc, DualtraceError | OSError):
        kind, message = type(exc).__name__, str(exc)
    else:
        kind = "InternalError"
        message = (
            f"{type(exc).__name__}: {exc} (a bug in dualtrace; please report it with the "
            "command that caused it)"
        )
    if as_json:
        click.echo(
            json.dumps({"error": {"type": kind, "message": message}}, ensure_ascii=False), err=True
        )
    elif isinstance(exc, click.ClickException):
        exc.show()
    else:
        click.echo(f"{click.style('error:', fg='red', bold=True)} {message}", err=True)


class _Group(click.Group):
    """The root group: every error a command raises (bad input, a dualtrace error, an OS
    error, a bug) is reported by `report_error` and becomes its exit code; no traceback."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        as_json = wants_json(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except click.exceptions.Exit:
            raise
        except click.ClickException as exc:  # a bad global option
            if not as_json:
                raise
            report_error(exc, as_json=True)
            raise click.exceptions.Exit(exc.exit_code) from exc
        ctx.meta[_JSON_KEY] = as_json
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.Abort):
            raise
        except click.ClickException as exc:
            if not ctx.meta.get(_JSON_KEY):
                raise  # click prints the usage with it
            report_error(exc, as_json=True)
            ctx.exit(exc.exit_code)
        except Exception as exc:  # the one place errors become messages; none is lost
            report_error(exc, as_json=bool(ctx.meta.get(_JSON_KEY)))
            ctx.exit(exit_code(exc))


@dataclass(frozen=True)
class Settings:
    """The group's options, shared by every command."""

    db: Path | None
    url: str | None
    as_json: bool

    def open(self, *, resume: bool = True) -> Memory:
        """A Memory on the chosen store; callers close it with `with`. `resume=False`
        leaves turns pending from a deferred add to the service's worker (`keys`, `serve`)."""
        from dualtrace.config import store_url
        from dualtrace.memory import Memory  # numpy, the tokenizer and the store load here

        url = self.url if self.url is not None or self.db is not None else store_url()
        return Memory(self.db, url=url, resume=resume)


user_option = click.option("--user", "user", required=True, help="Whose memory (user id).")


def _json_after(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and isinstance(ctx.obj, Settings):
        ctx.obj = dataclasses.replace(ctx.obj, as_json=True)


def accept_json_option(command: click.Command) -> None:
    """Let `--json` also follow the command (`dualtrace search q --user u --json`), as well
    as lead it; in a group, every subcommand takes it."""
    command.params.append(
        click.Option(
            ["--json"],
            is_flag=True,
            expose_value=False,
            callback=_json_after,
            help="Machine-readable JSON output (may also precede the command).",
        )
    )
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            accept_json_option(sub)


@click.group(cls=_Group)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="SQLite file [default: $DUALTRACE_HOME/memory.db].",
)
@click.option(
    "--url",
    help="Store URL instead of --db, e.g. sqlite:///memory.db or postgresql://user@host/db "
    "[default: $DUALTRACE_URL].",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
@click.version_option(package_name="dualtrace")
@click.pass_context
def cli(ctx: click.Context, db: Path | None, url: str | None, as_json: bool) -> None:
    """Long-term memory for LLM agents: store every turn, recall what matters."""
    ctx.obj = Settings(db=db, url=url, as_json=as_json)
