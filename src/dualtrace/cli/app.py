"""The `dualtrace` click group: its global options, and the one place errors become exit codes.

Nothing heavy is imported here: `dualtrace --help` must start fast, so the Memory facade is
imported only when a command opens the store.
"""

from __future__ import annotations

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


def exit_code(exc: BaseException) -> int:
    """The process exit code for an error raised by a command.

    Validation 2 (like click's usage errors), not found 3, config 4, other dualtrace or OS 1.
    """
    return next((code for cls, code in EXIT_CODES if isinstance(exc, cls)), 1)


class _Group(click.Group):
    """A click group that reports dualtrace errors as `error: ...` without a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (DualtraceError, OSError) as exc:
            click.echo(f"{click.style('error:', fg='red', bold=True)} {exc}", err=True)
            ctx.exit(exit_code(exc))


@dataclass(frozen=True)
class Settings:
    """The group's options, shared by every command."""

    db: Path | None
    url: str | None
    as_json: bool

    def open(self) -> Memory:
        """A Memory on the chosen store; callers close it with `with`."""
        from dualtrace.memory import Memory  # numpy, the tokenizer and the store load here

        return Memory(self.db, url=self.url)


user_option = click.option("--user", "user", required=True, help="Whose memory (user id).")


@click.group(cls=_Group)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="SQLite file [default: $DUALTRACE_HOME/memory.db].",
)
@click.option("--url", help="Store URL instead of --db, e.g. sqlite:///memory.db.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
@click.version_option(package_name="dualtrace")
@click.pass_context
def cli(ctx: click.Context, db: Path | None, url: str | None, as_json: bool) -> None:
    """Long-term memory for LLM agents: store every turn, recall what matters."""
    ctx.obj = Settings(db=db, url=url, as_json=as_json)
