"""`adecore-tools`: the subcommands, their options, and what each exit status means.

0: done (a result, for `call`). 1: `call` was answered with a refusal. 2: the command was called
wrongly (a TARGET that does not import, names nothing or the wrong kind of object, a missing
extra, an unsafe `serve`): one line on stderr, never a traceback. 3: the tool itself failed
(its traceback on stderr: the command is the developer's, not a client's).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import traceback
from collections.abc import Sequence

from .show import LISTINGS, call, inspect
from .target import Usage, one_line

__all__ = ["main"]

_TARGET = "module:attribute or path/to/file.py:attribute"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="adecore-tools", description="Inspect, call and serve a registry of tools."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    shown = commands.add_parser("inspect", help="show a registry's tools, fields and portability")
    shown.add_argument("target", metavar="TARGET", help=f"a ToolRegistry: {_TARGET}")
    shown.add_argument("--profile", choices=list(LISTINGS), default="mcp", help="for --json")
    shown.add_argument("--json", action="store_true", help="print the profile's listing")

    called = commands.add_parser("call", help="run one tool and print what a client reads")
    called.add_argument("target", metavar="TARGET", help=f"a ToolRegistry: {_TARGET}")
    called.add_argument("name", metavar="NAME", help="the tool's name")
    called.add_argument("arguments", metavar="ARGUMENTS_JSON", nargs="?", help="a JSON object")
    called.add_argument(
        "--call", metavar="MODULE:FACTORY", help="a function returning the call object"
    )

    served = commands.add_parser("serve", help="serve over MCP: stdio, or streamable HTTP")
    served.add_argument("target", metavar="TARGET", help=f"a server of mcp_server: {_TARGET}")
    served.add_argument("--http", action="store_true", help="streamable HTTP, not stdio")
    served.add_argument("--host", default="127.0.0.1", help="the address to bind (127.0.0.1)")
    served.add_argument("--port", type=int, default=8000, help="the port to bind (8000)")
    served.add_argument(
        "--workers", type=int, default=1, metavar="N", help="N processes, serving statelessly"
    )
    served.add_argument(
        "--allow-host", action="append", metavar="NAME", help="a Host name clients use"
    )
    served.add_argument(
        "--allow-origin", action="append", metavar="ORIGIN", help="an Origin browsers send"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; its exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "inspect":
            print(inspect(args.target, args.profile, as_json=args.json))  # noqa: T201
            return 0
        if args.command == "call":
            text, refused = asyncio.run(call(args.target, args.name, args.arguments, args.call))
            print(text)  # noqa: T201
            return 1 if refused else 0
        from .serve import Plan, serve  # noqa: PLC0415 - only this command needs the SDK

        plan = Plan(
            args.target,
            host=args.host,
            port=args.port,
            workers=args.workers,
            allow_hosts=args.allow_host,
            allow_origins=args.allow_origin,
        )
        serve(plan, http=args.http)
    except Usage as wrong:
        sys.stderr.write(f"adecore-tools {args.command}: {one_line(wrong)}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception:  # noqa: BLE001 - the tool's own failure, for its developer
        traceback.print_exc()
        return 3
    return 0
