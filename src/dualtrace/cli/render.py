"""How the commands print: JSON for `--json`, otherwise tables and fields sized to the terminal."""

from __future__ import annotations

import dataclasses
import json
import shutil
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from dualtrace.models import HistoryEntry, Hit, Item


def _json_default(value: object) -> object:
    if isinstance(value, datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def dumps(value: object, *, indent: int | None = None) -> str:
    """JSON text that keeps non-ASCII text readable and writes datetimes as ISO 8601."""
    return json.dumps(value, ensure_ascii=False, indent=indent, default=_json_default)


def echo_json(value: object) -> None:
    click.echo(dumps(value, indent=2))


def item_dict(item: Item) -> dict[str, Any]:
    return {**dataclasses.asdict(item), "occurred_at": item.occurred_at}


def _char_width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _width(text: str) -> int:
    """Columns a string takes in a terminal (CJK characters take two)."""
    return sum(_char_width(ch) for ch in text)


def shorten(text: str, width: int) -> str:
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


def table(
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
        line = "  ".join([*cells, shorten(row[-1], room)])
        click.echo(click.style(line, bold=True) if n == 0 else line)
        if notes is not None and n > 0:
            click.secho(f"    {notes[n - 1]}", dim=True)


def date(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %a")


def speaker(item: Item) -> str:
    return (item.sources[0].speaker if item.sources else None) or "-"


def refs(item: Item) -> str:
    found = [s.external_id or s.episode_id for s in item.sources][:3]
    return ", ".join(found) or item.id


def breakdown(scores: dict[str, float]) -> str:
    return "  ".join(f"{name}={value:.3f}" for name, value in scores.items())


def change(entry: HistoryEntry) -> str:
    if entry.old_text is None:
        return entry.new_text or ""
    return f"{entry.old_text} → {'(deleted)' if entry.new_text is None else entry.new_text}"


def hits(found: Sequence[Hit], explain: bool) -> None:
    # `id` is the record's own id (what `update`, `delete` and `get` take); `source`, the turns
    headers = ("#", "score", "id", "date", "kind", "speaker", "source", "text")
    rows = [
        (str(i), f"{h.score:.3f}", h.id, date(h.occurred_at), h.kind, speaker(h), refs(h), h.text)
        for i, h in enumerate(found, start=1)
    ]
    table(headers, rows, [breakdown(h.scores) for h in found] if explain else None)


def item(record: Item) -> None:
    """Every field of one record, one per line."""
    fields = [
        ("id", record.id),
        ("kind", record.kind),
        ("date", f"{date(record.occurred_at)} ({record.occurred_at.isoformat()})"),
        ("session", record.session_id or "-"),
        ("speaker", speaker(record)),
        ("source", refs(record)),
        ("text", record.text),
    ]
    if record.valid_to is not None or record.superseded_by or record.archived:
        state = "archived" if record.archived else "no longer valid"
        until = f" since {record.valid_to.isoformat()}" if record.valid_to else ""
        by = f", superseded by {record.superseded_by}" if record.superseded_by else ""
        fields.append(("status", f"{state}{until}{by}"))
    if record.scene:
        fields.append(("scene", record.scene))
    if record.metadata:
        fields.append(("metadata", dumps(record.metadata)))
    for name, value in fields:
        click.echo(f"{click.style(name.ljust(9), bold=True)}{value}")


def nothing(what: str) -> None:
    """A dim note on stderr, so that stdout stays empty (or machine-readable)."""
    click.secho(what, dim=True, err=True)
