"""The `dualtrace` command line: parse the arguments, make one Memory call, render the answer.

    dualtrace add "I moved to Shanghai last week" --user alice
    dualtrace search "where does she live?" --user alice --explain
    dualtrace --json context "where does she live?" --user alice
    dualtrace demo

Errors become `error: <message>` on stderr and an exit code (see `exit_code`).
"""

from __future__ import annotations

import codecs
import dataclasses
import json
import os
import re
import shutil
import sys
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from dualtrace.config import home_dir
from dualtrace.demo import DemoAnswer, run_demo
from dualtrace.errors import ConfigError, DualtraceError, NotFoundError, ValidationError
from dualtrace.memory import Memory
from dualtrace.models import ITEM_KINDS, HistoryEntry, Hit, Item

ROLES = ("user", "assistant", "system", "tool")
IMPORT_BATCH = 64  # records per write, so the progress bar advances

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
class _Settings:
    """The group's options, shared by every command."""

    db: Path | None
    url: str | None
    as_json: bool

    def open(self) -> Memory:
        """A Memory on the chosen store; callers close it with `with`."""
        return Memory(self.db, url=self.url)


# -- rendering ------------------------------------------------------------------------------


def _json_default(value: object) -> object:
    if isinstance(value, datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _dumps(value: object, *, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent, default=_json_default)


def _echo_json(value: object) -> None:
    click.echo(_dumps(value, indent=2))


def _item_dict(item: Item) -> dict[str, Any]:
    return {**dataclasses.asdict(item), "occurred_at": item.occurred_at}


def _char_width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _width(text: str) -> int:
    """Columns a string takes in a terminal (CJK characters take two)."""
    return sum(_char_width(ch) for ch in text)


def _shorten(text: str, width: int) -> str:
    """Text on one line, cut with '…' to at most `width` terminal columns."""
    text = " ".join(text.split())
    if _width(text) <= width:
        return text
    kept: list[str] = []
    used = 0
    for ch in text:
        if used + _char_width(ch) > width - 1:
            break
        kept.append(ch)
        used += _char_width(ch)
    return "".join(kept) + "…"


def _table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], notes: Sequence[str] | None = None
) -> None:
    """Rows under bold headers; the last column is cut to the terminal width.

    `notes`, if given, holds one dim line to print under each row.
    """
    widths = [max(_width(r[i]) for r in [headers, *rows]) for i in range(len(headers) - 1)]
    columns = shutil.get_terminal_size((120, 24)).columns
    room = max(30, columns - sum(widths) - 2 * len(widths) - 1)
    for n, row in enumerate([headers, *rows]):
        cells = [c + " " * (w - _width(c)) for c, w in zip(row, widths, strict=False)]
        line = "  ".join([*cells, _shorten(row[-1], room)])
        click.echo(click.style(line, bold=True) if n == 0 else line)
        if notes is not None and n > 0:
            click.secho(f"    {notes[n - 1]}", dim=True)


def _date(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %a")


def _speaker(item: Item) -> str:
    return (item.sources[0].speaker if item.sources else None) or "-"


def _refs(item: Item) -> str:
    refs = [s.external_id or s.episode_id for s in item.sources][:3]
    return ", ".join(refs) or item.id


def _breakdown(scores: dict[str, float]) -> str:
    return "  ".join(f"{name}={value:.3f}" for name, value in scores.items())


def _change(entry: HistoryEntry) -> str:
    if entry.old_text is None:
        return entry.new_text or ""
    return f"{entry.old_text} → {'(deleted)' if entry.new_text is None else entry.new_text}"


def _render_hits(hits: Sequence[Hit], explain: bool) -> None:
    headers = ("#", "score", "date", "kind", "speaker", "source", "text")
    rows = [
        (str(i), f"{h.score:.3f}", _date(h.occurred_at), h.kind, _speaker(h), _refs(h), h.text)
        for i, h in enumerate(hits, start=1)
    ]
    _table(headers, rows, [_breakdown(h.scores) for h in hits] if explain else None)


def _render_item(item: Item) -> None:
    fields = [
        ("id", item.id),
        ("kind", item.kind),
        ("date", f"{_date(item.occurred_at)} ({item.occurred_at.isoformat()})"),
        ("session", item.session_id or "-"),
        ("speaker", _speaker(item)),
        ("source", _refs(item)),
        ("text", item.text),
    ]
    if item.valid_to is not None or item.superseded_by or item.archived:
        state = "archived" if item.archived else "no longer valid"
        until = f" since {item.valid_to.isoformat()}" if item.valid_to else ""
        by = f", superseded by {item.superseded_by}" if item.superseded_by else ""
        fields.append(("status", f"{state}{until}{by}"))
    if item.scene:
        fields.append(("scene", item.scene))
    if item.metadata:
        fields.append(("metadata", _dumps(item.metadata)))
    for name, value in fields:
        click.echo(f"{click.style(name.ljust(9), bold=True)}{value}")


def _nothing(what: str) -> None:
    click.secho(what, dim=True, err=True)


# -- the group ------------------------------------------------------------------------------

_user_option = click.option("--user", "user", required=True, help="Whose memory (user id).")


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
    ctx.obj = _Settings(db=db, url=url, as_json=as_json)


def main() -> None:
    """Entry point of the `dualtrace` script."""
    cli(prog_name="dualtrace")


# -- write ----------------------------------------------------------------------------------


@cli.command()
@click.argument("texts", metavar="TEXT...", nargs=-1, required=True)
@_user_option
@click.option("--session", help="Session id the turns belong to.")
@click.option("--role", type=click.Choice(ROLES), default="user", show_default=True)
@click.option("--name", help="Speaker's name.")
@click.option("--id", "message_id", help="Your id for the message (makes re-adding a no-op).")
@click.option("--timestamp", help="When it was said (ISO 8601) [default: now].")
@click.pass_obj
def add(
    settings: _Settings, texts: tuple[str, ...], user: str, session: str | None, role: str,
    name: str | None, message_id: str | None, timestamp: str | None,
) -> None:  # fmt: skip
    """Store each TEXT as one message (quote a sentence); prints the episode ids."""
    if message_id is not None and len(texts) > 1:
        raise click.BadParameter("names one message; pass a single TEXT", param_hint="--id")
    fields = {"role": role, "name": name, "id": message_id}
    messages = [
        {"content": text, **{k: v for k, v in fields.items() if v is not None}} for text in texts
    ]
    with settings.open() as mem:
        result = mem.add(messages, user_id=user, session_id=session, timestamp=timestamp)
    if settings.as_json:
        _echo_json({"episodes": result.episodes, "events": result.events,
                    "warnings": result.warnings})  # fmt: skip
        return
    click.echo("\n".join(result.episodes))
    for memory_id, event, text in result.events:  # stdout keeps only the episode ids
        _nothing(f"{event:<9} {memory_id}  {_shorten(text, 80)}")
    for warning in result.warnings:
        click.secho(f"warning: {warning}", fg="yellow", err=True)


@cli.command()
@click.argument("record_id", metavar="ID")
@click.argument("text")
@_user_option
@click.pass_obj
def update(settings: _Settings, record_id: str, text: str, user: str) -> None:
    """Replace the text of record ID (the old text stays in its history)."""
    with settings.open() as mem:
        item = mem.update(record_id, text, user_id=user)
    if settings.as_json:
        _echo_json(_item_dict(item))
    else:
        _render_item(item)


@cli.command()
@click.argument("record_id", metavar="ID")
@_user_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
def delete(settings: _Settings, record_id: str, user: str, yes: bool) -> None:
    """Delete record ID for good: text, search keys and history leave the file."""
    if not yes:
        click.confirm(f"Delete {record_id} of user {user!r} for good?", abort=True, err=True)
    with settings.open() as mem:
        mem.delete(record_id, user_id=user)
    if settings.as_json:
        _echo_json({"deleted": record_id})
    else:
        click.echo(f"deleted {record_id}")


@cli.command("forget-user")
@_user_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
def forget_user(settings: _Settings, user: str, yes: bool) -> None:
    """Delete everything stored for a user; prints rows deleted per table."""
    if not yes:
        click.confirm(f"Forget everything about user {user!r}?", abort=True, err=True)
    with settings.open() as mem:
        counts = mem.delete_all(user_id=user)
    if settings.as_json:
        _echo_json(counts)
    else:
        _table(("table", "rows deleted"), [(t, str(n)) for t, n in counts.items()])


# -- read -----------------------------------------------------------------------------------


@cli.command()
@click.argument("query")
@_user_option
@click.option("--limit", type=int, default=10, show_default=True, help="Most hits to show.")
@click.option("--now", help="Reference time of the question (ISO 8601) [default: now].")
@click.option("--as-of", "as_of", help="Only what was valid then (ISO 8601).")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(ITEM_KINDS), help="Repeatable.")
@click.option("--session", help="Only this session.")
@click.option("--explain", is_flag=True, help="Show every channel's score.")
@click.pass_obj
def search(
    settings: _Settings, query: str, user: str, limit: int, now: str | None, as_of: str | None,
    kinds: tuple[str, ...], session: str | None, explain: bool,
) -> None:  # fmt: skip
    """Hybrid search of a user's memory, best first."""
    with settings.open() as mem:
        hits = mem.search(
            query, user_id=user, limit=limit, now=now, as_of=as_of, kinds=list(kinds) or None,
            session_id=session, explain=explain,
        )  # fmt: skip
    if settings.as_json:
        _echo_json([_item_dict(h) for h in hits])
    elif hits:
        _render_hits(hits, explain)
    else:
        _nothing(f"no hits for user {user!r}")


@cli.command()
@click.argument("query")
@_user_option
@click.option("--max-tokens", type=int, default=1000, show_default=True, help="Token budget.")
@click.option("--now", help="Reference time of the question (ISO 8601) [default: now].")
@click.option("--as-of", "as_of", help="Only what was valid then (ISO 8601).")
@click.option("--session", help="Only this session.")
@click.pass_obj
def context(
    settings: _Settings, query: str, user: str, max_tokens: int, now: str | None,
    as_of: str | None, session: str | None,
) -> None:  # fmt: skip
    """A prompt-ready block of dated, sourced memories within a token budget."""
    with settings.open() as mem:
        ctx = mem.context(
            query, user_id=user, max_tokens=max_tokens, now=now, as_of=as_of, session_id=session
        )
    if settings.as_json:
        _echo_json({"text": ctx.text, "tokens": ctx.tokens, "items": [h.id for h in ctx.items]})
        return
    if ctx.text:
        click.echo(ctx.text)
    click.secho(f"({ctx.tokens} tokens, {len(ctx.items)} items)", dim=True, err=True)


@cli.command("list")
@_user_option
@click.option("--kind", "kinds", multiple=True, type=click.Choice(ITEM_KINDS), help="Repeatable.")
@click.option("--include-invalid", is_flag=True, help="Also superseded and archived memories.")
@click.option("--limit", type=int, help="Most records to show.")
@click.pass_obj
def list_(
    settings: _Settings, user: str, kinds: tuple[str, ...], include_invalid: bool,
    limit: int | None,
) -> None:  # fmt: skip
    """A user's episodes and memories, newest first."""
    with settings.open() as mem:
        items = mem.get_all(
            user_id=user, kinds=list(kinds) or None, include_invalid=include_invalid, limit=limit
        )
    if settings.as_json:
        _echo_json([_item_dict(i) for i in items])
    elif items:
        rows = [(i.id, _date(i.occurred_at), i.kind, _speaker(i), i.text) for i in items]
        _table(("id", "date", "kind", "speaker", "text"), rows)
    else:
        _nothing(f"nothing stored for user {user!r}")


@cli.command()
@click.argument("record_id", metavar="ID")
@_user_option
@click.pass_obj
def get(settings: _Settings, record_id: str, user: str) -> None:
    """One episode or memory, in full."""
    with settings.open() as mem:
        item = mem.get(record_id, user_id=user)
    if settings.as_json:
        _echo_json(_item_dict(item))
    else:
        _render_item(item)


@cli.command()
@click.argument("record_id", metavar="ID")
@_user_option
@click.pass_obj
def history(settings: _Settings, record_id: str, user: str) -> None:
    """Every change to record ID, oldest first."""
    with settings.open() as mem:
        entries = mem.history(record_id, user_id=user)
    if settings.as_json:
        _echo_json(entries)
        return
    rows = [
        (str(e.id), e.at.isoformat(timespec="seconds"), e.event, e.actor, _change(e))
        for e in entries
    ]
    _table(("event id", "at", "event", "actor", "change"), rows)


@cli.command()
@click.argument("event_id", metavar="EVENT_ID", type=int)
@_user_option
@click.pass_obj
def undo(settings: _Settings, event_id: int, user: str) -> None:
    """Undo history entry EVENT_ID (see `dualtrace history ID`): a REINFORCE, MERGE,
    SUPERSEDE, a derived memory's ADD, or an UPDATE."""
    with settings.open() as mem:
        mem.revert(event_id, user_id=user)
    if settings.as_json:
        _echo_json({"undone": event_id})
    else:
        click.echo(f"undid event {event_id}")


@cli.command()
@click.argument("record_id", metavar="ID")
@_user_option
@click.pass_obj
def restore(settings: _Settings, record_id: str, user: str) -> None:
    """Bring archived memory ID (expired, faded or a duplicate) back into search."""
    with settings.open() as mem:
        item = mem.restore(record_id, user_id=user)
    if settings.as_json:
        _echo_json(_item_dict(item))
    else:
        _render_item(item)


@cli.command()
@click.option("--user", "user", default=None, help="Only this user (default: every user).")
@click.option("--now", default=None, help="Reference time, ISO 8601 (default: the clock).")
@click.pass_obj
def maintain(settings: _Settings, user: str | None, now: str | None) -> None:
    """Archive expired and faded memories, merge duplicates, normalise importance, link new
    memories and end idle sessions (run it e.g. nightly)."""
    with settings.open() as mem:
        report = mem.maintain(user_id=user, now=now)
    if settings.as_json:
        _echo_json(report)
        return
    counts = {k: v for k, v in dataclasses.asdict(report).items() if k != "sessions_ended"}
    rows = [(k, str(v)) for k, v in counts.items()]
    rows.append(("sessions_ended", str(len(report.sessions_ended))))
    _table(("step", "count"), rows)


# -- transfer -------------------------------------------------------------------------------


def _decode_line(raw: bytes, path: Path, n: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(
            f"{path}: line {n} is not valid UTF-8 (byte {exc.start + 1} of the line is "
            f"0x{raw[exc.start]:02x}); nothing was imported. Convert the file to UTF-8, e.g. "
            f"`iconv -f GBK -t UTF-8 {path} > fixed.jsonl`, then import that file"
        ) from exc


def _parse_line(line: str, path: Path, n: int) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValidationError(
            f"{path}: line {n} is not valid JSON ({exc.msg} at column {exc.colno}); nothing "
            "was imported. Fix that line: each line must hold one JSON object"
        ) from exc
    if not isinstance(record, dict):
        raise ValidationError(
            f"{path}: line {n} holds a JSON {type(record).__name__}, not an object; nothing "
            'was imported. Each line must be an object such as {"content": "hi", "role": "user"}'
        )
    return record


def read_jsonl(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; any bad line fails the whole file."""
    data = path.read_bytes().removeprefix(codecs.BOM_UTF8)
    records = []
    for n, raw in enumerate(data.split(b"\n"), start=1):
        line = _decode_line(raw, path, n)
        if line.strip():
            records.append((n, _parse_line(line, path, n)))
    return records


def _with_line_numbers(message: str, records: list[tuple[int, dict[str, Any]]]) -> str:
    """Rewrite a leading 'record N' (1-based) as the file line it came from."""
    match = re.match(r"(?:memory )?record (\d+)", message)
    if match and 0 < int(match.group(1)) <= len(records):
        line = records[int(match.group(1)) - 1][0]
        return f"line {line}" + message[match.end() :]
    return message


@cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_user_option
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar [default: if stderr is a TTY]."
)
@click.pass_obj
def import_(settings: _Settings, file: Path, user: str, progress: bool | None) -> None:
    """Import a JSONL FILE of messages or of `dualtrace export` records (idempotent)."""
    records = read_jsonl(file)  # all lines are checked before anything is stored
    disable = None if progress is None else not progress
    with (
        settings.open() as mem,
        tqdm(total=len(records), unit="rec", file=sys.stderr, disable=disable) as bar,
    ):
        try:
            created = mem.import_records(
                [r for _, r in records], user_id=user, batch=IMPORT_BATCH, progress=bar.update
            )
        except ValidationError as exc:  # name the file line, not the record number
            raise ValidationError(f"{file}: {_with_line_numbers(str(exc), records)}") from exc
    if settings.as_json:
        _echo_json({"imported": created, "records": len(records)})
    else:
        click.echo(f"imported {created} new of {len(records)} records from {file}")


@cli.command()
@_user_option
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="[default: stdout]"
)
@click.pass_obj
def export(settings: _Settings, user: str, output: Path | None) -> None:
    """Everything stored for a user as JSONL (re-importable with `dualtrace import`)."""
    count = 0
    target = "-" if output is None else output
    with (
        settings.open() as mem,
        click.open_file(target, "w", encoding="utf-8", atomic=output is not None) as out,
    ):
        for record in mem.export(user_id=user):
            out.write(_dumps(record) + "\n")
            count += 1
    if output is not None:
        _nothing(f"exported {count} records to {output}")


# -- demo -----------------------------------------------------------------------------------


def _render_answer(number: int, answer: DemoAnswer) -> None:
    mark = "✓ found" if answer.found else "✗ missed"
    mark = click.style(mark, fg="green" if answer.found else "red")
    click.echo(click.style(f"\n[{number}] {answer.query}", bold=True))
    click.echo(f"    {mark} {', '.join(answer.expected)} — {answer.note}")
    for rank, hit in enumerate(answer.hits, start=1):
        refs = {s.external_id for s in hit.sources}
        star = click.style("*", fg="green") if refs & set(answer.expected) else " "
        where = ", ".join(f"{s.external_id or s.episode_id} @ {s.session_id}" for s in hit.sources)
        click.echo(
            f"  {star} {rank}. {_date(hit.occurred_at)}  {_speaker(hit)}  ({where})  "
            f"score {hit.score:.3f}"
        )
        click.secho(f"       {_breakdown(hit.scores)}", dim=True)
        click.echo(f"       {_shorten(hit.text, 88)}")


@cli.command()
@click.option(
    "--db",
    "db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File to recreate [default: $DUALTRACE_HOME/demo.db].",
)
@click.option("--limit", type=click.IntRange(1, 50), default=3, show_default=True)
@click.pass_obj
def demo(settings: _Settings, db: Path | None, limit: int) -> None:
    """Store a four-session EN/ZH conversation in a fresh file and ask it questions."""
    if settings.db is not None or settings.url is not None:
        raise click.UsageError(
            "the demo deletes and recreates its file, so it ignores your store; "
            "pass `dualtrace demo --db PATH` instead of the global --db/--url"
        )
    path = db if db is not None else home_dir() / "demo.db"
    _nothing(f"storing the demo conversation in {path} (recreated) …")
    answers = run_demo(path, limit=limit)
    found = sum(a.found for a in answers)
    if settings.as_json:
        answers_json = [{**dataclasses.asdict(a), "found": a.found} for a in answers]
        _echo_json({"answers": answers_json, "found": found, "questions": len(answers)})
        return
    for number, answer in enumerate(answers, start=1):
        _render_answer(number, answer)
    click.secho(f"\nfound {found}/{len(answers)}", bold=True, nl=False)
    click.secho("  (* marks a hit from an expected turn)", dim=True)


# -- bench ----------------------------------------------------------------------------------

BenchCommand = Callable[..., None]


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
    from dualtrace.llm.openai import OpenAIChatConfig, OpenAIChatLLM

    def client(name: str) -> OpenAIChatLLM:
        key = os.environ.get("DUALTRACE_LLM_API_KEY") or None
        # a full LongMemEval history is ~111k tokens: give the model time to read it
        return OpenAIChatLLM(OpenAIChatConfig(url, name, api_key=key, timeout_s=600.0))

    options["llm"] = client(model)
    options["judge_llm"] = options["llm"] if judge in (None, model) else client(judge)
    return options


def _bench_options(data: click.Path, budgets: str) -> Callable[[BenchCommand], BenchCommand]:
    """The options every benchmark command shares."""
    options: list[Callable[[BenchCommand], BenchCommand]] = [
        click.option("--data", required=True, type=data, help="Benchmark data."),
        click.option("--limit", type=click.IntRange(min=1), help="Run on a sample of N."),
        click.option("--budgets", default=budgets, show_default=True, callback=_int_list,
                     help="Context token budgets."),
        click.option("--k", "ks", default="5,10,20", show_default=True, callback=_int_list,
                     help="Cut-offs for recall@k over search hits."),
        click.option("--out", type=click.Path(file_okay=False, path_type=Path),
                     help="Results folder [default: results/<benchmark>-<time>/]."),
        click.option("--cache", type=click.Path(dir_okay=False, path_type=Path),
                     default=Path("~/.cache/dualtrace/embeddings.sqlite"), show_default=True,
                     help="Embedding cache file, kept across runs."),
        click.option("--ablate", is_flag=True, help="Also run dualtrace ablation variants."),
        click.option("--llm", "llm_url", metavar="URL",
                     help="OpenAI-compatible endpoint (e.g. http://localhost:11434/v1): also "
                          "answer each question from each context and grade it with the "
                          "benchmark's judge. API key: $DUALTRACE_LLM_API_KEY, if needed."),
        click.option("--llm-model", help="Model that answers (required with --llm)."),
        click.option("--judge-model", help="Model that grades [default: --llm-model]."),
        click.option("--qa-budgets", default=None, callback=_int_list_or_none,
                     help="Budgets the LLM answers at [default: every budget]."),
        click.option("--llm-workers", "qa_workers", type=click.IntRange(min=1),
                     help="LLM calls at a time, after all retrieval [default: 4]."),
    ]  # fmt: skip

    def wrap(command: BenchCommand) -> BenchCommand:
        command = click.pass_obj(command)
        for option in reversed(options):
            command = option(command)
        return command

    return wrap


def _report_written(settings: _Settings, report: Path) -> None:
    if settings.as_json:
        _echo_json({"report": str(report), "folder": str(report.parent)})
    else:
        click.echo(f"report written to {report}")


@cli.group()
def bench() -> None:
    """Retrieval benchmarks with baselines in the same run; writes a report folder.

    With --llm, also QA accuracy: an LLM answers from every method's context (the full
    history too) and the benchmark's judge prompt grades the answers."""


@bench.command("locomo")
@_bench_options(click.Path(exists=True, file_okay=False, path_type=Path), "500,1000,2000")
def bench_locomo(settings: _Settings, data: Path, **options: Any) -> None:
    """LoCoMo: --data is a folder of conversation *.json files (--limit: first N of them)."""
    from dualtrace.bench import run_locomo  # matplotlib loads only when benchmarking

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
def bench_longmemeval(settings: _Settings, data: Path, types: str | None, **options: Any) -> None:
    """LongMemEval: --data is a .json or .json.gz file (--limit: stratified sample by type)."""
    from dualtrace.bench import run_longmemeval

    chosen = None if types is None else tuple(t.strip() for t in types.split(",") if t.strip())
    with _qa_clients(options) as run_options:
        _report_written(settings, run_longmemeval(data, types=chosen, **run_options))
