"""`serve`: a server made by `mcp_server`, over stdio or streamable HTTP, in one or more processes.

Over HTTP the SDK's DNS-rebinding protection stays on wherever it binds: the `Host` (and any
`Origin`) of a request must be a loopback name or one the host allowed. The SDK alone turns it off
for any address but loopback's; here, binding beyond loopback without `--allow-host` is refused.

Several workers share one port, and a request may reach any of them: they serve statelessly
(a 2025-era session lives in one process), each building its own server from the TARGET through
`app`, the factory uvicorn imports by name in every worker.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import typing
from typing import TYPE_CHECKING, Any

from .target import Usage, load, one_line

if TYPE_CHECKING:
    from mcp.server import Server

__all__ = ["LOOPBACK", "Plan", "app", "serve"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""The addresses the SDK protects by default, and that need no `--allow-host`."""

_PLAN = "ADECORE_TOOLS_SERVE"
"""Where the parent process leaves the plan for its workers: they start by importing `app`."""


class Plan:
    """What `serve` was asked for, as plain data a worker process reads back."""

    def __init__(  # noqa: PLR0913 - one argument per option of the command
        self,
        target: str,
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
        workers: int = 1,
        allow_hosts: list[str] | None = None,
        allow_origins: list[str] | None = None,
    ) -> None:
        """Keep the options as given."""
        self.target = target
        self.host = host
        self.port = port
        self.workers = workers
        self.allow_hosts = allow_hosts or []
        self.allow_origins = allow_origins or []

    def refusal(self) -> str | None:
        """Why this plan must not start, or None."""
        if self.host not in LOOPBACK and not self.allow_hosts:
            return (
                f"serving on {self.host} needs --allow-host NAME for each name clients reach it "
                "by (and --allow-origin ORIGIN for browsers): DNS-rebinding protection stays on"
            )
        if self.workers < 1:
            return f"--workers is a number of processes, at least 1; got {self.workers}"
        return None


def serve(plan: Plan, *, http: bool) -> None:
    """Serve until stopped: stdio, or HTTP in one process or several."""
    _need("mcp", "mcp")
    if not http:
        server = _server(plan.target)
        _say(f"serving {server.name} over stdio")
        _stdio(server)
        return
    _need("uvicorn", "mcp")
    why = plan.refusal()
    if why is not None:
        raise Usage(why)
    import uvicorn  # noqa: PLC0415 - only when serving HTTP

    loop, parser = _stack()
    shown = f"[{plan.host}]" if ":" in plan.host else plan.host
    where = f"http://{shown}:{plan.port}/mcp"
    options: dict[str, Any] = {"host": plan.host, "port": plan.port, "loop": loop, "http": parser}
    if plan.workers == 1:
        server = _server(plan.target)
        _say(f"serving {server.name} on {where} ({loop}, {parser})")
        uvicorn.run(_app(server, plan, stateless=False), log_level="warning", **options)
        return
    _server(plan.target)  # a wrong TARGET is said once, here, not by every worker
    os.environ[_PLAN] = json.dumps(vars(plan))
    _say(f"serving {plan.target} on {where} ({loop}, {parser}; {plan.workers} workers, stateless)")
    uvicorn.run(
        f"{__name__}:app", factory=True, workers=plan.workers, log_level="warning", **options
    )


def app() -> Any:
    """The ASGI app of one worker: its own server from the TARGET, served statelessly."""
    plan = Plan(**json.loads(os.environ[_PLAN]))
    return _app(_server(plan.target), plan, stateless=True)


def _app(server: Server[Any], plan: Plan, *, stateless: bool) -> Any:
    from mcp.server.transport_security import TransportSecuritySettings  # noqa: PLC0415

    hosts = [*LOOPBACK, *plan.allow_hosts]
    names = [f"[{name}]" if ":" in name else name for name in hosts]
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*names, *(f"{name}:*" for name in names)],
        allowed_origins=[
            *(f"http://{name}:*" for name in names[: len(LOOPBACK)]),
            *plan.allow_origins,
        ],
    )
    return server.streamable_http_app(
        stateless_http=stateless, transport_security=security, host=plan.host
    )


def _server(target: str) -> Server[Any]:
    """The low-level `Server` TARGET names, or the one the function it names returns."""
    from mcp.server import Server  # noqa: PLC0415 - the SDK is the `mcp` extra's

    found: object = load(target)
    if not isinstance(found, Server) and callable(found):
        try:
            found = found()
        except Exception as error:  # noqa: BLE001 - whatever the host's function raises, one line
            msg = f"{target}() failed: {type(error).__name__}: {one_line(error)}"
            raise Usage(msg) from None
    if not isinstance(found, Server):
        msg = f"{target} is no server made by mcp_server, nor a function returning one"
        raise Usage(msg)
    # pyright reads the narrowed type as `Server[Unknown]`, mypy as `Server[Any]` already
    return typing.cast("Server[Any]", found)  # type: ignore[redundant-cast]


def _stdio(server: Server[Any]) -> None:
    import anyio  # noqa: PLC0415 - the SDK's own dependency
    from mcp.server.stdio import stdio_server  # noqa: PLC0415

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)


def _stack() -> tuple[str, str]:
    """Uvicorn's faster event loop and HTTP parser when installed, else its plain ones."""
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    return loop, "httptools" if importlib.util.find_spec("httptools") else "h11"


def _need(module: str, extra: str) -> None:
    if importlib.util.find_spec(module) is None:
        msg = f"serve needs {module}: pip install 'adecore_tools[{extra}]'"
        raise Usage(msg)


def _say(text: str) -> None:
    sys.stderr.write(f"adecore-tools: {text}\n")
    sys.stderr.flush()
