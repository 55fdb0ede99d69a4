"""Commands on one user's records: add, read (search, context, list, get, history) and change
(update, delete, undo, restore). Each parses, makes one Memory call and renders."""

from __future__ import annotations

import click

from dualtrace.cli import render
from dualtrace.cli.app import Settings, user_option
from dualtrace.models import ITEM_KINDS, Item

ROLES = ("user", "assistant", "system", "tool")

_record_id = click.argument("record_id", metavar="ID")
_kind_option = click.option(
    "--kind",
    "--kinds",
    "kinds",
    multiple=True,
    type=click.Choice(ITEM_KINDS),
    help="Only this kind; repeatable.",
)
_now_option = click.option(
    "--now", help="Reference time of the question (ISO 8601) [default: now]."
)
_as_of_option = click.option("--as-of", "as_of", help="Only what was valid then (ISO 8601).")
_session_option = click.option("--session", help="Only this session.")


def _show(settings: Settings, item: Item) -> None:
    if settings.as_json:
        render.echo_json(render.item_dict(item))
    else:
        render.item(item)


# -- write ----------------------------------------------------------------------------------


@click.command()
@click.argument("texts", metavar="TEXT...", nargs=-1, required=True)
@user_option
@click.option("--session", help="Session id the turns belong to.")
@click.option("--role", type=click.Choice(ROLES), default="user", show_default=True)
@click.option("--name", help="Speaker's name.")
@click.option("--id", "message_id", help="Your id for the message (makes re-adding a no-op).")
@click.option("--timestamp", help="When it was said (ISO 8601) [default: now].")
@click.pass_obj
def add(
    settings: Settings,
    texts: tuple[str, ...],
    user: str,
    session: str | None,
    role: str,
    name: str | None,
    message_id: str | None,
    timestamp: str | None,
) -> None:
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
        render.echo_json(
            {"episodes": result.episodes, "events": result.events, "warnings": result.warnings}
        )
        return
    click.echo("\n".join(result.episodes))
    for memory_id, event, text in result.events:  # stdout keeps only the episode ids
        render.nothing(f"{event:<9} {memory_id}  {render.shorten(text, 80)}")
    for warning in result.warnings:
        click.secho(f"warning: {warning}", fg="yellow", err=True)


@click.command()
@_record_id
@click.argument("text")
@user_option
@click.pass_obj
def update(settings: Settings, record_id: str, text: str, user: str) -> None:
    """Replace the text of record ID (the old text stays in its history)."""
    with settings.open() as mem:
        item = mem.update(record_id, text, user_id=user)
    _show(settings, item)


@click.command()
@_record_id
@user_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
def delete(settings: Settings, record_id: str, user: str, yes: bool) -> None:
    """Delete record ID for good: text, search keys and history leave the file."""
    if not yes:
        click.confirm(f"Delete {record_id} of user {user!r} for good?", abort=True, err=True)
    with settings.open() as mem:
        mem.delete(record_id, user_id=user)
    if settings.as_json:
        render.echo_json({"ok": True, "deleted": record_id})
    else:
        click.echo(f"deleted {record_id}")


@click.command()
@click.argument("event_id", metavar="ENTRY_ID", type=int)
@user_option
@click.pass_obj
def undo(settings: Settings, event_id: int, user: str) -> None:
    """Undo history entry ENTRY_ID (see `dualtrace history ID`): a REINFORCE, MERGE,
    SUPERSEDE, a derived memory's ADD, or an UPDATE."""
    with settings.open() as mem:
        mem.revert(event_id, user_id=user)
    if settings.as_json:
        render.echo_json({"ok": True, "undone": event_id})
    else:
        click.echo(f"undid event {event_id}")


@click.command()
@_record_id
@user_option
@click.pass_obj
def restore(settings: Settings, record_id: str, user: str) -> None:
    """Bring archived memory ID (expired, faded or a duplicate) back into search."""
    with settings.open() as mem:
        item = mem.restore(record_id, user_id=user)
    _show(settings, item)


# -- read -----------------------------------------------------------------------------------


@click.command()
@click.argument("query")
@user_option
@click.option("--limit", type=int, default=10, show_default=True, help="Most hits to show.")
@_now_option
@_as_of_option
@_kind_option
@_session_option
@click.option("--explain", is_flag=True, help="Show every channel's score.")
@click.pass_obj
def search(
    settings: Settings,
    query: str,
    user: str,
    limit: int,
    now: str | None,
    as_of: str | None,
    kinds: tuple[str, ...],
    session: str | None,
    explain: bool,
) -> None:
    """Hybrid search of a user's memory, best first."""
    with settings.open() as mem:
        hits = mem.search(
            query,
            user_id=user,
            limit=limit,
            now=now,
            as_of=as_of,
            kinds=list(kinds) or None,
            session_id=session,
            explain=explain,
        )
    if settings.as_json:
        render.echo_json([render.item_dict(h) for h in hits])
    elif hits:
        render.hits(hits, explain)
    else:
        render.nothing(f"no hits for user {user!r}")


@click.command()
@click.argument("query", required=False)
@user_option
@click.option("--max-tokens", type=int, default=1000, show_default=True, help="Token budget.")
@_now_option
@_as_of_option
@_session_option
@click.option(
    "--profile/--no-profile",
    default=None,
    help="Lead with the user's profile, goals, tasks and last summary (default: without QUERY).",
)
@click.pass_obj
def context(
    settings: Settings,
    query: str | None,
    user: str,
    max_tokens: int,
    now: str | None,
    as_of: str | None,
    session: str | None,
    profile: bool | None,
) -> None:
    """A prompt-ready block of dated, sourced memories within a token budget; without QUERY,
    the one a conversation starts with (who the user is now)."""
    with settings.open() as mem:
        ctx = mem.context(
            query,
            user_id=user,
            max_tokens=max_tokens,
            now=now,
            as_of=as_of,
            session_id=session,
            profile=profile,
        )
    if settings.as_json:
        render.echo_json(
            {
                "text": ctx.text,
                "tokens": ctx.tokens,
                "items": [h.id for h in ctx.items],
                "refs": [h.refs for h in ctx.items],
                "references": ctx.references,
            }
        )
        return
    if ctx.text:
        click.echo(ctx.text)
    elif query is not None and mem_has_hits(settings, query, user, now, as_of, session):
        click.secho(f"no memory fits in {max_tokens} tokens; raise --max-tokens", err=True)
    click.secho(f"({ctx.tokens} tokens, {len(ctx.items)} items)", dim=True, err=True)


def mem_has_hits(
    settings: Settings,
    query: str,
    user: str,
    now: str | None,
    as_of: str | None,
    session: str | None,
) -> bool:
    """Whether a search finds anything (an empty context then means the budget was small)."""
    with settings.open() as mem:
        found = mem.search(
            query, user_id=user, limit=1, now=now, as_of=as_of, session_id=session, reinforce=False
        )
    return bool(found)


@click.command("list")
@user_option
@_kind_option
@click.option("--include-invalid", is_flag=True, help="Also superseded and archived memories.")
@click.option("--limit", type=int, help="Most records to show.")
@click.pass_obj
def list_(
    settings: Settings,
    user: str,
    kinds: tuple[str, ...],
    include_invalid: bool,
    limit: int | None,
) -> None:
    """A user's episodes and memories, newest first."""
    with settings.open() as mem:
        items = mem.get_all(
            user_id=user, kinds=list(kinds) or None, include_invalid=include_invalid, limit=limit
        )
    if settings.as_json:
        render.echo_json([render.item_dict(i) for i in items])
    elif items:
        rows = [
            (i.id, render.date(i.occurred_at), i.kind, render.speaker(i), i.text) for i in items
        ]
        render.table(("id", "date", "kind", "speaker", "text"), rows)
    else:
        render.nothing(f"nothing stored for user {user!r}")


@click.command()
@_record_id
@user_option
@click.pass_obj
def get(settings: Settings, record_id: str, user: str) -> None:
    """One episode or memory, in full."""
    with settings.open() as mem:
        item = mem.get(record_id, user_id=user)
    _show(settings, item)


@click.command()
@_record_id
@user_option
@click.pass_obj
def history(settings: Settings, record_id: str, user: str) -> None:
    """Every change to record ID, oldest first."""
    with settings.open() as mem:
        entries = mem.history(record_id, user_id=user)
    if settings.as_json:
        render.echo_json(entries)
        return
    rows = [
        (str(e.id), e.at.isoformat(timespec="seconds"), e.event, e.actor, render.change(e))
        for e in entries
    ]
    render.table(("entry id", "at", "event", "actor", "change"), rows)


COMMANDS = (add, update, delete, undo, restore, search, context, list_, get, history)
