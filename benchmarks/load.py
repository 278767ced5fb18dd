"""Load: the same tool over streamable HTTP on 127.0.0.1, served by each system side by side.

    python benchmarks/load.py            # the full run, 3 rounds: about 6 minutes on 2 cores
    python benchmarks/load.py --quick    # a smoke run: 50 clients, 1 worker, few calls
    python benchmarks/load.py --write    # also write the table into RESULTS.md and docs/

Servers: `adecore_tools.mcp`, the SDK's `MCPServer` and fastmcp's `FastMCP`, each under uvicorn
on the SDK's default stack (asyncio, h11); and `adecore-tools serve --http`, on its own default
stack (uvloop and httptools where the `serve` extra installed them). Paths: a 2025-era client on a
stateful server (`stateful`), on a stateless one (`stateless`), and 2026-07-28 (`2026`). With 2
workers, sessions cannot cross processes: only `stateless` and `2026` run there. For 1, 10, 50
and 200 concurrent clients: calls a second, p50 and p99 latency, the server's CPU per call (its
whole process tree, from /proc), errors and lost calls, and ratios to `MCPServer` on the same
point. Every answer is checked against the text that was sent (benchmarks/load_clients.py).

The load clients run on the same machine as the servers, in this process: HTTP/1.1 written and
read by hand on asyncio's streams, so that they cost a fraction of a server's CPU a call (their
own CPU per call is measured too) and the server, not the client, sets the pace. The figures are
still of the pair, and on a shared machine they are noisy: every point runs in several rounds,
the servers taking turns to go first, and its figures are their medians. cProfile runs of
`adecore_app` and `mcpserver_app` give what load cannot move: the share of the server's CPU
spent in `adecore_tools` itself, and the function calls each server makes per call.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import pstats
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx
import load_clients

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"
SPEED = ROOT / "docs" / "speed.md"
FIGURE = ROOT / "docs" / "load.svg"
BEGIN = "<!-- benchmarks/load.py writes from here -->"
END = "<!-- benchmarks/load.py writes up to here -->"

BASE = "MCPServer"
ROUNDS = 3
"""Runs of every point by default: each figure is the median of its rounds."""
CLI = "adecore-tools serve"
FACTORIES = {
    "adecore_tools.mcp": "load_servers:adecore_app",
    BASE: "load_servers:mcpserver_app",
    "fastmcp": "load_servers:fastmcp_app",
}
# (stateless, workers): the paths each kind of server answers
CONFIGS = {
    (False, 1): ("stateful", "2026"),
    (True, 1): ("stateless",),
    (True, 2): ("stateless", "2026"),
}


@dataclass
class Point:
    server: str
    path: str
    workers: int
    clients: int
    calls_s: float
    p50_ms: float
    p99_ms: float
    cpu_ms: float
    errors: int
    lost: int
    client_ms: float = float("nan")
    """The load clients' CPU per call: what the benchmark itself costs, beside the server."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _command(server: str, port: int, workers: int) -> list[str]:
    if server == CLI:
        target = str(HERE / "load_servers.py") + ":adecore_server"
        command = [sys.executable, "-m", "adecore_tools", "serve", target, "--http"]
        return [*command, "--port", str(port), "--workers", str(workers)]
    return [
        sys.executable, "-m", "uvicorn", FACTORIES[server], "--factory", "--port", str(port),
        "--workers", str(workers), "--loop", "asyncio", "--http", "h11", "--log-level", "warning",
    ]  # fmt: skip


def _tree_cpu(root: int) -> float:
    """CPU seconds used so far by a process and every process under it."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        used[pid] = (int(fields[11]) + int(fields[12])) / tick
    tree, grown = {root}, True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grown = True
    return sum(used.get(pid, 0.0) for pid in tree)


def _start(command: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """Start a server and wait until it answers; its stderr goes to ours."""
    process = subprocess.Popen(command, cwd=HERE, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while process.poll() is None and time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
        except httpx.TransportError:
            time.sleep(0.2)
        else:
            return process
    process.kill()
    msg = f"{' '.join(command)} did not answer in 90 s"
    raise RuntimeError(msg)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _environment(*, stateless: bool) -> dict[str, str]:
    path = os.pathsep.join([str(ROOT), str(HERE)])
    return {**os.environ, "PYTHONPATH": path, "LOAD_STATELESS": "1" if stateless else "0"}


def measure(
    server: str, *, stateless: bool, workers: int, clients: list[int], total: int
) -> list[Point]:
    """Start one server, run every path it answers at every number of clients, stop it."""
    port = _free_port()
    process = _start(_command(server, port, workers), _environment(stateless=stateless), port)
    url = f"http://127.0.0.1:{port}/mcp"
    points = []
    try:
        for path in CONFIGS[stateless, workers]:
            asyncio.run(load_clients.load(url, path, 4, 5))  # warm up
            for count in clients:
                before, ours = _tree_cpu(process.pid), time.process_time()
                outcome = asyncio.run(load_clients.load(url, path, count, max(1, total // count)))
                cpu, ours = _tree_cpu(process.pid) - before, time.process_time() - ours
                latencies = sorted(outcome.latencies) or [float("nan")]
                answered = max(outcome.answered, 1)
                p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
                point = Point(
                    server,
                    path,
                    workers,
                    count,
                    calls_s=outcome.answered / outcome.seconds,
                    p50_ms=1000 * statistics.median(latencies),
                    p99_ms=1000 * p99,
                    cpu_ms=1000 * cpu / answered,
                    errors=len(outcome.errors),
                    lost=outcome.lost,
                    client_ms=1000 * ours / answered,
                )
                points.append(point)
                _progress(points[-1])
    finally:
        _stop(process)
    return points


@dataclass
class Profiled:
    """What cProfile counts of the servers answering the same calls: figures load cannot move."""

    share: float
    """adecore_tools' own share of `adecore_app`'s CPU time."""
    work: float
    """Function calls per MCP call in `adecore_app`."""
    base_work: float
    """Function calls per MCP call in `mcpserver_app`."""


def _profile(app: str, calls: int) -> dict[Any, Any]:
    """The cProfile stats of the server `app` (of load_servers.py) answering `calls` calls, half
    of them 2025-era on a session and half 2026-07-28."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "server.prof"
        script = str(HERE / "load_servers.py")
        command = [sys.executable, script, "profile", app, str(port), str(out)]
        process = _start(command, _environment(stateless=False), port)
        url = f"http://127.0.0.1:{port}/mcp"
        try:
            for path in ("stateful", "2026"):
                asyncio.run(load_clients.load(url, path, 10, max(1, calls // 20)))
        finally:
            _stop(process)
        stats: dict[Any, Any] = pstats.Stats(str(out)).stats  # type: ignore[attr-defined]
    return stats


def profiled(calls: int) -> Profiled:
    """adecore_tools' share of its server's CPU, and each server's function calls per call."""
    ours, base = _profile("adecore", calls), _profile("mcpserver", calls)
    total = sum(entry[2] for entry in ours.values())
    own = sum(entry[2] for key, entry in ours.items() if f"{os.sep}adecore_tools{os.sep}" in key[0])
    return Profiled(
        share=own / total,
        work=sum(entry[1] for entry in ours.values()) / calls,
        base_work=sum(entry[1] for entry in base.values()) / calls,
    )


def _progress(point: Point) -> None:
    print(
        f"  {point.server:20} {point.path:9} w{point.workers} c{point.clients:<3} "
        f"{point.calls_s:7.0f}/s p99 {point.p99_ms:7.1f} ms cpu {point.cpu_ms:5.2f} ms "
        f"client {point.client_ms:4.2f} ms errors {point.errors} lost {point.lost}",
        file=sys.stderr,
        flush=True,
    )


def _base(points: list[Point], p: Point) -> Point | None:
    return next(
        (
            b
            for b in points
            if (b.server, b.path, b.workers, b.clients) == (BASE, p.path, p.workers, p.clients)
        ),
        None,
    )


def _ratio(value: float, base: float | None) -> str:
    return f"{value / base:.2f}x" if base else "-"


def table(points: list[Point]) -> str:
    lines = [
        (
            "| server | path | workers | clients | calls/s | vs MCPServer | p50 ms | p99 ms "
            "| p99 vs MCPServer | CPU ms/call | CPU vs MCPServer | errors | lost |"
        ),
        "| --- " * 13 + "|",
    ]
    for p in sorted(points, key=lambda p: (p.workers, p.path, p.clients, p.server)):
        b = _base(points, p)
        lines.append(
            f"| {p.server} | {p.path} | {p.workers} | {p.clients} | {p.calls_s:.0f} "
            f"| {_ratio(p.calls_s, b.calls_s if b else None)} | {p.p50_ms:.1f} | {p.p99_ms:.1f} "
            f"| {_ratio(p.p99_ms, b.p99_ms if b else None)} | {p.cpu_ms:.2f} "
            f"| {_ratio(p.cpu_ms, b.cpu_ms if b else None)} | {p.errors} | {p.lost} |"
        )
    return "\n".join(lines)


def _workers(p: Point) -> str:
    return "1 worker" if p.workers == 1 else f"{p.workers} workers"


def targets(points: list[Point], profile: Profiled | None) -> list[str]:
    """The issue's targets, each as measured: met or not, with the figures."""
    said = []
    at_50 = [p for p in points if p.clients == 50 and p.server == "adecore_tools.mcp"]
    for p in at_50:
        b = _base(points, p)
        if b is None:
            continue
        speed, cpu = p.calls_s / b.calls_s, p.cpu_ms / b.cpu_ms
        met = "met" if speed >= 1.0 and cpu <= 1.0 else "not met"
        said.append(
            f"- `adecore_tools.mcp`, {p.path}, {_workers(p)}, 50 clients: {speed:.2f}x "
            f"MCPServer's calls a second (target 1.0x), {cpu:.2f}x its CPU per call "
            f"(target at most 1.0x): {met}."
        )
    for p in (p for p in points if p.clients == 50 and p.server == CLI):
        b = _base(points, p)
        if b is None:
            continue
        speed = p.calls_s / b.calls_s
        said.append(
            f"- `adecore-tools serve --http`, {p.path}, {_workers(p)}, 50 clients: {speed:.2f}x "
            "MCPServer's calls a second on the SDK's default stack "
            f"(target 1.15x): {'met' if speed >= 1.15 else 'not met'}."
        )
    if profile is not None:
        share = profile.share
        said.append(
            f"- `adecore_tools`' own code is {100 * share:.1f}% of the server's CPU under cProfile "
            f"(target at most 5%): {'met' if share <= 0.05 else 'not met'}."
        )
        said.append(
            f"- The work of a call, which background load does not move: {profile.work:,.0f} "
            f"function calls per MCP call in `adecore_tools.mcp`, {profile.base_work:,.0f} in "
            f"MCPServer ({profile.work / profile.base_work:.2f}x), under cProfile, the same "
            "stateful and 2026-07-28 calls."
        )
    return said


def draw(points: list[Point]) -> None:
    """Calls a second and p99 latency against clients: one line per server, path and workers."""
    import matplotlib as mpl  # noqa: PLC0415 - only when drawing

    mpl.use("svg")
    mpl.rcParams["svg.hashsalt"] = "load"  # the same figures draw the same file
    import matplotlib.pyplot as plt  # noqa: PLC0415

    figure, (speed, latency) = plt.subplots(1, 2, figsize=(12, 5))
    colours = {"adecore_tools.mcp": "C0", BASE: "C1", "fastmcp": "C2", CLI: "C3"}
    styles = {"stateful": "-", "stateless": "--", "2026": ":"}
    lines = sorted({(p.server, p.path, p.workers) for p in points})
    for server, path, workers in lines:
        mine = sorted(
            (p for p in points if (p.server, p.path, p.workers) == (server, path, workers)),
            key=lambda p: p.clients,
        )
        clients = [p.clients for p in mine]
        label = f"{server}, {path}, {workers}w"
        marker = "o" if workers == 1 else "s"
        options = {
            "color": colours[server],
            "linestyle": styles[path],
            "marker": marker,
            "label": label,
        }
        speed.plot(clients, [p.calls_s for p in mine], **options)
        latency.plot(clients, [p.p99_ms for p in mine], **options)
    for axes, title in (
        (speed, "calls a second (higher is better)"),
        (latency, "p99 latency, ms (lower is better)"),
    ):
        axes.set_xscale("log")
        axes.set_xticks([1, 10, 50, 200], labels=["1", "10", "50", "200"])
        axes.set_xlabel("concurrent clients")
        axes.set_title(title)
        axes.grid(visible=True, alpha=0.3)
    latency.set_yscale("log")
    figure.legend(*speed.get_legend_handles_labels(), loc="lower center", ncol=4, fontsize="small")
    figure.tight_layout(rect=(0, 0.2, 1, 1))
    figure.savefig(FIGURE, metadata={"Date": None})
    plt.close(figure)


def clients(points: list[Point]) -> str:
    """What the load clients cost beside the servers they measure, at 50 clients."""
    at_50 = [p for p in points if p.clients == 50 and not math.isnan(p.client_ms)]
    if not at_50:
        return "share the cores with the servers."
    ours = statistics.median(p.client_ms for p in at_50)
    theirs = statistics.median(p.cpu_ms for p in at_50)
    return (
        f"share the cores with the servers: at 50 clients, a median {ours:.2f} ms of CPU a call "
        f"to the servers' {theirs:.2f} ms."
    )


def section(points: list[Point], profile: Profiled | None, command: str, elapsed: float) -> str:
    return "\n".join(
        [
            BEGIN,
            "",
            "## Under load, over streamable HTTP",
            "",
            f"`{command}` ({elapsed:.0f} s), on a 2-core machine shared with other work",
            "while it ran: the figures are noisy, and the load clients (HTTP/1.1 written by hand",
            f"on asyncio's streams, in one process) {clients(points)}",
            "The same `echo` tool, every answer checked against what was sent.",
            "`adecore_tools.mcp`, `MCPServer` and fastmcp run under uvicorn on asyncio and h11;",
            "`adecore-tools serve --http` on its default stack (uvloop and httptools, from the",
            "`serve` extra). Ratios are to `MCPServer` on the same path, workers and clients.",
            "Each point ran once a round, the servers taking turns to go first, and each figure",
            "is the median of its rounds (errors and lost calls are every round's): background",
            "load then falls on each server alike, though single points still swing. `MCPServer`",
            "logs each new session at INFO, its default.",
            "",
            *targets(points, profile),
            "",
            "![calls a second and p99 latency against concurrent clients](load.svg)",
            "",
            table(points),
            "",
            END,
        ]
    )


def write(path: Path, text: str) -> None:
    """Put the section in `path`, in place of its last version (or at the end)."""
    old = path.read_text(encoding="utf-8")
    if BEGIN in old:
        old = re.sub(
            re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: text, old, flags=re.DOTALL
        )
    else:
        old = old.rstrip("\n") + "\n\n" + text
    path.write_text(old.rstrip("\n") + "\n", encoding="utf-8")


def order(round_: int) -> list[str]:
    """The servers in the order round `round_` runs them: each round starts one later."""
    servers = [*FACTORIES, CLI]
    shift = round_ % len(servers)
    return servers[shift:] + servers[:shift]


def medians(points: list[Point]) -> list[Point]:
    """One point per server, path, workers and clients: the median of its rounds' figures, and
    every round's errors and lost calls."""
    rounds: dict[tuple[str, str, int, int], list[Point]] = {}
    for p in points:
        rounds.setdefault((p.server, p.path, p.workers, p.clients), []).append(p)
    return [
        Point(
            *key,
            calls_s=statistics.median(p.calls_s for p in same),
            p50_ms=statistics.median(p.p50_ms for p in same),
            p99_ms=statistics.median(p.p99_ms for p in same),
            cpu_ms=statistics.median(p.cpu_ms for p in same),
            errors=sum(p.errors for p in same),
            lost=sum(p.lost for p in same),
            client_ms=statistics.median(p.client_ms for p in same),
        )
        for key, same in rounds.items()
    ]


def run(*, quick: bool, rounds: int) -> tuple[list[Point], Profiled | None, float]:
    """Every server, path, number of workers and of clients, `rounds` times with the servers in
    turn first (background load then falls on each alike); then the profile (not when quick)."""
    clients, total = ([50], 50) if quick else ([1, 10, 50, 200], 400)
    started = time.perf_counter()
    points: list[Point] = []
    for round_ in range(rounds):
        for stateless, workers in [c for c in CONFIGS if not quick or c[1] == 1]:
            for server in order(round_):
                if server == CLI and (stateless, workers) == (True, 1):
                    continue  # one process serves statefully; more serve statelessly
                points += measure(
                    server, stateless=stateless, workers=workers, clients=clients, total=total
                )
    elapsed = time.perf_counter() - started
    try:
        profile = None if quick else profiled(2000)
    except (RuntimeError, OSError) as error:  # the figures above stand without it
        print(f"no profile: {error}", file=sys.stderr)
        profile = None
    return medians(points), profile, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls, clients and workers")
    parser.add_argument(
        "--write", action="store_true", help="write RESULTS.md, docs/speed.md, docs/load.svg"
    )
    parser.add_argument(
        "--rounds", type=int, default=ROUNDS, help="runs of each point; a figure is their median"
    )
    parser.add_argument("--save", type=Path, help="keep the figures in this JSON file")
    parser.add_argument("--again", type=Path, help="write from a file --save wrote; run nothing")
    args = parser.parse_args(argv)
    # Stopped, stop the server running too (its `finally`), not only this process.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.again:
        kept = json.loads(args.again.read_text(encoding="utf-8"))
        points = [Point(**point) for point in kept["points"]]
        profile = Profiled(**kept["profile"]) if kept["profile"] else None
        elapsed, args.quick = kept["elapsed"], kept["quick"]
    else:
        points, profile, elapsed = run(quick=args.quick, rounds=args.rounds)
    if args.save:
        kept = {
            "points": [asdict(p) for p in points],
            "profile": profile and asdict(profile),
            "elapsed": elapsed,
            "quick": args.quick,
        }
        args.save.write_text(json.dumps(kept), encoding="utf-8")
    print(table(points))
    print("\n".join(targets(points, profile)))
    if args.write:
        command = "python benchmarks/load.py --write" + (" --quick" if args.quick else "")
        if args.rounds != ROUNDS:
            command += f" --rounds {args.rounds}"
        text = section(points, profile, command, elapsed)
        draw(points)
        write(RESULTS, text)
        write(SPEED, text)
        print(f"wrote {RESULTS}, {SPEED} and {FIGURE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
