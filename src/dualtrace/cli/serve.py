"""`dualtrace serve` (the HTTP service) and `dualtrace keys create|list|revoke`."""

from __future__ import annotations

import click

from dualtrace.cli import render
from dualtrace.cli.app import Settings


@click.command()
@click.option("--host", default=None, help="Address to bind [default: 127.0.0.1].")
@click.option("--port", type=int, default=None, help="TCP port [default: 8765].")
@click.option("--dev", is_flag=True, default=None, help="No API keys needed (loopback only).")
@click.option(
    "--worker/--no-worker",
    default=None,
    help="Derive what `async` adds stored in the background [default: on].",
)
@click.option("--seed-demo", is_flag=True, help="Store the demo conversation on first start.")
@click.pass_obj
def serve(
    settings: Settings,
    host: str | None,
    port: int | None,
    dev: bool | None,
    worker: bool | None,
    seed_demo: bool,
) -> None:
    """Run the HTTP service (REST under /v1, docs at /docs) until Ctrl-C."""
    from dualtrace.config import ServiceConfig
    from dualtrace.server import serve as service

    config = ServiceConfig.from_env(host=host, port=port, dev=dev, worker=worker)
    sockets = service.listen(config)  # a busy port is refused before anything is seeded
    try:
        memory = settings.open(resume=False)
    except BaseException:
        service.close(sockets)
        raise
    try:
        app = service.build(memory, config)
        seeded = service.seed_demo(memory) if seed_demo else 0
    except BaseException:
        memory.close()
        service.close(sockets)
        raise
    urls = service.urls(config, service.demo_user() if seed_demo else None)
    if seeded:
        render.nothing(
            f"stored the demo conversation ({seeded} turns, user {service.demo_user()!r})"
        )
    if config.dev:
        click.secho(
            f"dev mode: no API key needed; listening on {config.host} (loopback) only",
            fg="yellow",
            err=True,
        )
    click.echo(f"dualtrace is serving on {urls.base}  (Ctrl-C stops it)", err=True)
    click.echo(f"  inspector     {urls.base}", err=True)
    click.echo(f"  API docs      {urls.docs}", err=True)
    click.echo(f"  MCP endpoint  {urls.mcp}", err=True)
    click.echo("  MCP client config (paste into Claude Desktop / Cursor):", err=True)
    click.echo("\n".join("    " + line for line in urls.mcp_config.splitlines()), err=True)
    if config.dev:
        click.echo("  (user_id in the URL says whose memory the tools use; any id)", err=True)
    service.run(app, config, sockets)


@click.group()
def keys() -> None:
    """API keys of the HTTP service (stored hashed; a key is shown once)."""


@keys.command("create")
@click.option("--user", "user", default=None, help="The user the key acts for.")
@click.option("--admin", is_flag=True, help="A key that may name any user and reach admin routes.")
@click.option("--label", default=None, help="A note to recognise the key by.")
@click.pass_obj
def create(settings: Settings, user: str | None, admin: bool, label: str | None) -> None:
    """Create a key and print it once (keep it: only its hash is stored)."""
    if user is None and not admin:
        raise click.UsageError("pass --user ID, or --admin for an admin key")
    with settings.open(resume=False) as mem:
        key, token = mem.api_keys.create(user_id=user, admin=admin, label=label)
    if settings.as_json:
        render.echo_json(
            {"key_id": key.key_id, "user_id": key.user_id, "admin": key.admin, "key": token}
        )
        return
    click.echo(token)
    who = "admin (any user)" if key.admin else f"user {key.user_id!r}"
    render.nothing(f"key {key.key_id} for {who}; it is not shown again")


@keys.command("list")
@click.pass_obj
def list_keys(settings: Settings) -> None:
    """Every key: id, user, admin, created, revoked (never the secret)."""
    with settings.open(resume=False) as mem:
        found = mem.api_keys.list()
    if settings.as_json:
        render.echo_json(found)
        return
    rows = [
        (
            k.key_id,
            k.user_id or "*",
            "yes" if k.admin else "no",
            k.created_at.isoformat(timespec="seconds"),
            k.revoked_at.isoformat(timespec="seconds") if k.revoked_at else "-",
        )
        for k in found
    ]
    if rows:
        render.table(("key id", "user", "admin", "created", "revoked"), rows)
    else:
        render.nothing("no API keys; create one with `dualtrace keys create --user ID`")


@keys.command("revoke")
@click.argument("key_id")
@click.pass_obj
def revoke(settings: Settings, key_id: str) -> None:
    """Revoke key KEY_ID: requests with it get 401 from now on."""
    with settings.open(resume=False) as mem:
        mem.api_keys.revoke(key_id)
    if settings.as_json:
        render.echo_json({"revoked": key_id})
    else:
        click.echo(f"revoked {key_id}")
