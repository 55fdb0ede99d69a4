"""`dualtrace mcp`: one user's memory as MCP tools over stdio, for Claude Desktop, Cursor and
other MCP clients that start the server themselves.

stdout carries the protocol and nothing else: the store and the model are opened with
stdout pointed at stderr (a library that prints while loading cannot corrupt the stream),
and logs go to stderr.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from dualtrace.cli.app import Settings
from dualtrace.inputs import check_user_id


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send whatever is written to stdout, by Python or by C code, to stderr meanwhile."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        with _swap_stdout():
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


@contextmanager
def _swap_stdout() -> Iterator[None]:
    real, sys.stdout = sys.stdout, sys.stderr
    try:
        yield
    finally:
        sys.stdout = real


@click.command("mcp")
@click.option(
    "--user",
    envvar="DUALTRACE_USER",
    required=True,
    help="Whose memory the tools act on [env: DUALTRACE_USER].",
)
@click.pass_obj
def mcp(settings: Settings, user: str) -> None:
    """Serve one user's memory as MCP tools over stdio (add_memory, search_memory, …)."""
    from dualtrace.server.mcp_tools import build_mcp_server

    user = check_user_id(user)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    with stdout_to_stderr():
        memory = settings.open()
    with memory:
        build_mcp_server(memory, lambda _ctx: user).run("stdio")
