"""Commands on whole stores and users: forget-user, import, export, maintain, backup and
migrate."""

from __future__ import annotations

import codecs
import dataclasses
import json
import re
import sys
from pathlib import Path
from typing import Any

import click

from dualtrace.cli import render
from dualtrace.cli.app import Settings, user_option
from dualtrace.errors import ConfigError, ValidationError
from dualtrace.store.backup_file import refuse_store_file

IMPORT_BATCH = 64  # records per write, so the progress bar advances


@click.command("forget-user")
@user_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
def forget_user(settings: Settings, user: str, yes: bool) -> None:
    """Delete everything stored for a user; prints rows deleted per table."""
    if not yes:
        click.confirm(f"Forget everything about user {user!r}?", abort=True, err=True)
    with settings.open() as mem:
        counts = mem.delete_all(user_id=user)
    if settings.as_json:
        render.echo_json(counts)
    else:
        render.table(("table", "rows deleted"), [(t, str(n)) for t, n in counts.items()])


@click.command()
@click.option("--user", "user", default=None, help="Only this user (default: every user).")
@click.option("--now", default=None, help="Reference time, ISO 8601 (default: the clock).")
@click.pass_obj
def maintain(settings: Settings, user: str | None, now: str | None) -> None:
    """Archive expired and faded memories, merge duplicates, normalise importance, link new
    memories and end idle sessions (run it e.g. nightly)."""
    with settings.open() as mem:
        report = mem.maintain(user_id=user, now=now)
    if settings.as_json:
        render.echo_json(report)
        return
    counts = {k: v for k, v in dataclasses.asdict(report).items() if k != "sessions_ended"}
    rows = [(k, str(v)) for k, v in counts.items()]
    rows.append(("sessions_ended", str(len(report.sessions_ended))))
    render.table(("step", "count"), rows)


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
@click.pass_obj
def backup(settings: Settings, path: Path, force: bool) -> None:
    """Copy the whole store to PATH, consistent while others write (restore: stop the
    writers, then copy PATH over the store file, or open PATH directly)."""
    with settings.open() as mem:
        written = mem.backup(path, overwrite=force)
    if settings.as_json:
        render.echo_json({"backup": str(written)})
    else:
        click.echo(f"backed up to {written}")


def store_file(store: object) -> Path | None:
    """The SQLite file a store keeps its data in; None for PostgreSQL or ":memory:"."""
    path = getattr(store, "path", None)
    return None if path is None or str(path) == ":memory:" else Path(path)


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
    except RecursionError as exc:  # Python's JSON reader stops near 1,000 levels
        raise ValidationError(
            f"{path}: line {n} nests its JSON too deep to read; nothing was imported. Flatten "
            "that line: a record's metadata may nest at most 64 levels"
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


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@user_option
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar [default: if stderr is a TTY]."
)
@click.pass_obj
def import_(settings: Settings, file: Path, user: str, progress: bool | None) -> None:
    """Import a JSONL FILE of messages or of `dualtrace export` records (idempotent)."""
    from tqdm import tqdm  # 40 ms: only this command draws a progress bar

    records = read_jsonl(file)  # all lines are checked before anything is stored
    disable = None if progress is None else not progress
    with (
        settings.open() as mem,
        tqdm(total=len(records), unit="rec", file=sys.stderr, disable=disable) as bar,
    ):
        renamed: dict[str, str] = {}
        try:
            created = mem.import_records(
                [r for _, r in records],
                user_id=user,
                batch=IMPORT_BATCH,
                progress=bar.update,
                renamed=renamed.__setitem__,
            )
        except ValidationError as exc:  # name the file line, not the record number
            raise ValidationError(f"{file}: {_with_line_numbers(str(exc), records)}") from exc
    if settings.as_json:
        render.echo_json({"imported": created, "records": len(records), "renamed": renamed})
        return
    click.echo(f"imported {created} new of {len(records)} records from {file}")
    if renamed:
        exported = sum(r.get("type") == "memory" or "episode_id" in r for _, r in records)
        render.nothing(
            f"{len(renamed)} of {exported} exported records got new ids: their ids are taken in "
            "this store (by another user's records); the others kept theirs. Exported id → new "
            "id:"
        )
        for old, new in renamed.items():
            click.echo(f"  {old} → {new}", err=True)


@click.command()
@user_option
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="[default: stdout]"
)
@click.pass_obj
def export(settings: Settings, user: str, output: Path | None) -> None:
    """Everything stored for a user as JSONL (re-importable with `dualtrace import`)."""
    count = 0
    with settings.open() as mem:
        if output is not None:  # the file replaces OUTPUT once written: never the store's
            refuse_store_file(output, store_file(mem.store), "export")
        target = "-" if output is None else output
        with click.open_file(target, "w", encoding="utf-8", atomic=output is not None) as out:
            for record in mem.export(user_id=user):
                out.write(render.dumps(record) + "\n")
                count += 1
    if output is not None:
        render.nothing(f"exported {count} records to {output}")


@click.command()
@click.option("--from", "source", required=True, help="Store to copy, e.g. sqlite:///a.db.")
@click.option("--to", "target", required=True, help="Store to copy into, e.g. postgresql://…")
@click.option("--force", is_flag=True, help="Add to a target holding other users.")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar [default: if stderr is a TTY]."
)
@click.pass_obj
def migrate(
    settings: Settings, source: str, target: str, force: bool, progress: bool | None
) -> None:
    """Copy every user's rows, vectors included, from one store to another (e.g. SQLite to
    PostgreSQL), then check counts and a sample of searches. The target must not hold the
    source's users; one holding others needs --force. --db/--url are not used."""
    from tqdm import tqdm

    from dualtrace.migrate import migrate_store
    from dualtrace.store.urls import open_store_url, store_identity

    if store_identity(source) == store_identity(target):
        raise ConfigError(f"--from and --to name the same store ({source!r}); name another --to")
    stores = [open_store_url(source, must_exist=True)]
    try:
        stores.append(open_store_url(target))
        with tqdm(
            total=len(stores[0].user_ids()),
            unit="user",
            file=sys.stderr,
            disable=None if progress is None else not progress,
        ) as bar:
            report = migrate_store(stores[0], stores[1], force=force, progress=bar.update)
    finally:
        for store in stores:
            store.close()
    if settings.as_json:
        render.echo_json(report)
        return
    render.table(("rows", "copied"), [(part, str(n)) for part, n in report.rows.items()])
    left, indexed = report.audit_left, report.search_indexes
    click.echo(
        f"migrated {report.users} users and {report.api_keys} API keys; checked the row "
        f"counts of {report.counts_checked} users and {report.searches_checked} searches"
        + (f"; {left} audit rows of forgotten users stayed behind" if left else "")
        + (f"; built {indexed} big users' own search indexes" if indexed else "")
    )


COMMANDS = (forget_user, maintain, backup, import_, export, migrate)
