"""The `dualtrace` command line: parse the arguments, make one Memory call, render the answer.

    dualtrace add "I moved to Shanghai last week" --user alice
    dualtrace search "where does she live?" --user alice --explain
    dualtrace --json context "where does she live?" --user alice
    dualtrace demo

One module per command group: `records` (add, search, context, list, get, update, delete,
history, undo, restore), `admin` (forget-user, import, export, maintain, backup,
migrate), `demo`,
`bench`, `serve` (serve, keys), `mcp` (the MCP server over stdio).
`app` holds the group, its options and the one error-to-exit-code mapping (`exit_code`);
`render` the output. Nothing heavy is imported until a command needs it.
"""

from __future__ import annotations

from dualtrace.cli import admin, bench, demo, mcp, profile, records, serve
from dualtrace.cli.app import accept_json_option, cli, exit_code

for _command in (
    *records.COMMANDS,
    *admin.COMMANDS,
    profile.profile,
    demo.demo,
    bench.bench,
    mcp.mcp,
    serve.serve,
    serve.keys,
):
    accept_json_option(_command)
    cli.add_command(_command)


def main() -> None:
    """Entry point of the `dualtrace` script."""
    cli(prog_name="dualtrace")


__all__ = ["cli", "exit_code", "main"]
