"""Benchmarks: adecore_tools beside pydantic, msgspec, the official MCP SDK and fastmcp.

    python benchmarks/run.py            # every workload, many repeats (a few minutes)
    python benchmarks/run.py --quick    # the same workloads, fewer repeats (under a minute)
    python benchmarks/run.py --write    # also write benchmarks/RESULTS.md
    python benchmarks/run.py --only validate,call

Every system runs in the same process (or, for imports, from the same parent), interleaved round
by round, so they all see the same machine. Each figure is the median of the rounds; each ratio is
the median of the ratios of samples taken in the same round. No single absolute time means much on
a shared machine: read the ratios. Peers are optional (`pip install adecore_tools[bench]`); a
missing one says so.

The workloads are defined in `workloads.py`; the hand-written floor is in `floor.py`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import operator
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import typing
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

import floor
import workloads

from adecore_tools import create_tool_registry, parse_tool_input
from adecore_tools._check import codegen as _codegen

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
WORKLOADS = ("import", "define", "list", "validate", "call", "scale")
OURS = "adecore_tools"
TIMED = "adecore_tools-timeout"
"""adecore_tools, its registry with a time limit."""
NAMES = {
    OURS: "adecore_tools",
    TIMED: "adecore_tools, timeout set",
    "floor": "hand-written floor",
    "pydantic": "pydantic TypeAdapter",
    "msgspec": "msgspec.convert",
    "mcp": "MCP SDK MCPServer",
    "fastmcp": "fastmcp FastMCP",
    "sdk-floor": "MCP SDK Server, prebuilt answer",
}
"""How each system is named in the table."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard to measure."""

    rounds: int
    """Interleaved rounds per case; every figure is the median of this many samples."""
    sample_seconds: float
    """The least time one sample of a fast operation runs (it is repeated until then)."""
    import_runs: int
    """Fresh interpreters started per import statement."""
    define_rounds: int
    """Times the 200 tools are declared, per system."""


FULL = Settings(rounds=31, sample_seconds=0.03, import_runs=30, define_rounds=11)
QUICK = Settings(rounds=5, sample_seconds=0.01, import_runs=5, define_rounds=3)


# --- results -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Row:
    """One system in one case: its samples, one per round (none when it could not run)."""

    workload: str
    case: str
    system: str
    samples: list[float] | None
    per: str
    missing: str = "not installed"
    note: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        """Workload, case and system."""
        return self.workload, self.case, self.system

    @property
    def seconds(self) -> float | None:
        """The median sample, or None."""
        return _median(self.samples) if self.samples else None


@dataclass(frozen=True, slots=True)
class Target:
    """A target: what was measured, what is wanted, and whether it holds."""

    what: str
    measured: str
    wanted: str
    verdict: str


@dataclass(slots=True)
class Report:
    """Everything one run measured."""

    rows: list[Row] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)

    def row(self, workload: str, case: str, system: str) -> Row | None:
        """One system's row in one case, or None."""
        for row in self.rows:
            if row.key == (workload, case, system):
                return row
        return None

    def median(self, workload: str, case: str, system: str) -> float | None:
        """The median of one system in one case, or None."""
        row = self.row(workload, case, system)
        return None if row is None else row.seconds

    def ratio(self, workload: str, case: str, system: str, base: str) -> float | None:
        """How many times `base`'s time `system` takes in one case, or None."""
        mine, theirs = self.row(workload, case, system), self.row(workload, case, base)
        return None if mine is None or theirs is None else paired(mine, theirs, operator.truediv)


def paired(mine: Row, theirs: Row, compare: Callable[[float, float], float]) -> float | None:
    """`compare` of two rows' times: the median over rounds of `compare(mine, theirs)`.

    Samples taken in the same round are compared with each other, so a burst of load from
    elsewhere, which slows both sides of a pair alike, does not move the result. Rows whose
    samples were not taken round by round together are compared by their medians.
    """
    if not mine.samples or not theirs.samples:
        return None
    if len(mine.samples) != len(theirs.samples):
        return compare(_median(mine.samples), _median(theirs.samples))
    return _median([compare(a, b) for a, b in zip(mine.samples, theirs.samples, strict=True)])


def _median(samples: Sequence[float]) -> float:
    return statistics.median(samples)


_STARTED_VARIABLE = "ADECORE_BENCH_STARTED"
_STARTED = float(os.environ.get(_STARTED_VARIABLE, time.monotonic()))
"""When the run started (a worker is told its parent's), for the progress lines."""


def _progress(text: str) -> None:
    print(f"[{time.monotonic() - _STARTED:5.1f} s] {text}", file=sys.stderr, flush=True)


# --- timing ------------------------------------------------------------------------------------

Batch = Callable[[int], float]
"""Runs an operation `n` times and returns the seconds it took."""


def sync_batch(fn: Callable[[], object]) -> Batch:
    """A batch of calls to `fn`."""

    def batch(n: int) -> float:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        return time.perf_counter() - start

    return batch


def async_batch(loop: asyncio.AbstractEventLoop, fn: Callable[[], Awaitable[object]]) -> Batch:
    """A batch of awaits of `fn()`, inside one running event loop."""

    async def run(n: int) -> float:
        start = time.perf_counter()
        for _ in range(n):
            await fn()
        return time.perf_counter() - start

    return lambda n: loop.run_until_complete(run(n))


def calibrate(batch: Batch, seconds: float) -> int:
    """How many operations make one sample last at least `seconds`.

    Counted twice, keeping the second count: the first pass warms up, and a first call that is
    slow once (a peer importing a module lazily took 0.1 s) would otherwise leave samples of a
    single operation, timed cold right after a collection.
    """

    def count() -> int:
        n = 1
        while batch(n) < seconds and n < 1 << 24:
            n *= 2
        return n

    count()
    return count()


def interleaved(
    batches: dict[str, Batch], settings: Settings, *, collector: bool = True
) -> dict[str, list[float]]:
    """Seconds per operation of each batch, one sample per round, the systems taking turns.

    The order of the systems rotates every round, so none always runs first or last. The cyclic
    garbage collector stays on (as in a real process) unless `collector` is false, and starts each
    sample empty. What exists before the case starts (modules, peers' servers, the input) is frozen
    out of its sight, so a collection walks only what the measured operation allocated, not the
    hundred thousand objects the peers' imports left behind.
    """
    numbers = {name: calibrate(batch, settings.sample_seconds) for name, batch in batches.items()}
    samples: dict[str, list[float]] = {name: [] for name in batches}
    names = list(batches)
    gc.collect()
    gc.freeze()
    try:
        for r in range(settings.rounds):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                gc.collect()
                if not collector:
                    gc.disable()
                try:
                    samples[name].append(batches[name](numbers[name]) / numbers[name])
                finally:
                    gc.enable()
    finally:
        gc.unfreeze()
    return samples


# --- import ------------------------------------------------------------------------------------

IMPORTS = (
    ("bare python", None, "pass"),
    ("typing_extensions + annotated_types", None, "import typing_extensions, annotated_types"),
    (OURS, None, "import adecore_tools"),
    ("pydantic", "pydantic", "from pydantic import TypeAdapter"),
    ("mcp", "mcp", "from mcp.server.mcpserver import MCPServer"),
    ("fastmcp", "fastmcp", "from fastmcp import FastMCP"),
)
"""(system, peer package or None, statement): what a user writes to get the thing they use."""


def _time_imports(statements: dict[str, str], runs: int) -> dict[str, list[float] | None]:
    """Seconds per fresh interpreter for each statement; None for one that failed to import."""
    samples: dict[str, list[float] | None] = {system: [] for system in statements}
    order = list(statements)
    with tempfile.TemporaryDirectory(prefix="adecore-bench-pycache-") as cache:
        # Every interpreter reads bytecode from one fresh cache, written by round 0 (which is not
        # counted), as after an install: stale or missing __pycache__ files, or a
        # PYTHONDONTWRITEBYTECODE in the environment, would otherwise favour one system.
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for r in range(runs + 1):
            for system in order[r % len(order) :] + order[: r % len(order)]:
                command = [sys.executable, "-c", statements[system]]
                start = time.perf_counter()
                done = subprocess.run(command, check=False, capture_output=True, env=env)
                elapsed = time.perf_counter() - start
                values = samples[system]
                if done.returncode != 0:
                    samples[system] = None
                elif r and values is not None:
                    values.append(elapsed)
    return samples


def measure_import(report: Report, settings: Settings) -> None:
    """Wall time of fresh interpreters running each import statement, median of many."""
    _progress("import: fresh interpreters")
    statements = {
        system: statement
        for system, peer, statement in IMPORTS
        if peer is None or workloads.installed(peer)
    }
    samples = _time_imports(statements, settings.import_runs)
    rows = {}
    for system, _, statement in IMPORTS:
        if system not in samples:
            rows[system] = Row("import", statement, system, None, "run")
        else:
            rows[system] = Row("import", statement, system, samples[system], "run", "import failed")
        report.rows.append(rows[system])
    bare, deps, ours = rows["bare python"], rows[IMPORTS[1][0]], rows[OURS]
    for row in rows.values():
        if (above := paired(row, bare, operator.sub)) is not None:
            row.note = f"+{above * 1e3:.1f} ms over bare python"
    above = paired(ours, deps, operator.sub)
    what = f"import: adecore_tools above {deps.system}"
    if above is None:
        report.targets.append(Target(what, "not measured", "<= 5 ms", "n/a"))
    else:
        report.targets.append(_at_most(what, above, 0.005))
    loaded = _optional_modules_loaded()
    report.targets.append(
        Target(
            "import: the optional modules (adapters, SDKs) not imported",
            ", ".join(loaded) if loaded else "none imported",
            "none imported",
            _verdict(ok=not loaded),
        )
    )


OPTIONAL = (
    "adecore_tools.mcp",
    "adecore_tools.openai_agents",
    "adecore_tools.pydantic_ai",
    "mcp",
    "agents",
    "pydantic_ai",
    "openai",
    "anthropic",
    "google.genai",
    "pydantic",
)
"""What `import adecore_tools` must not import: the adapters and every SDK they use."""


def _optional_modules_loaded() -> list[str]:
    """Which of `OPTIONAL` a fresh interpreter holds after `import adecore_tools`."""
    probe = f"import sys, adecore_tools; print(*[m for m in {OPTIONAL!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return done.stdout.split()


# --- define and list ---------------------------------------------------------------------------


def _definers() -> dict[str, tuple[Callable[[], Any], Callable[[Any, list[Any]], Any]] | None]:
    """Per system: make an empty host (untimed), then declare the tools on it (timed)."""

    def ours(_: object, functions: list[Any]) -> Any:
        return workloads.ours_define(functions)

    def by_hand(_: object, functions: list[Any]) -> Any:
        return [floor.declare(fn) for fn in functions]

    return {
        OURS: (lambda: None, ours),
        "floor": (lambda: None, by_hand),
        "mcp": (workloads.mcp_server, workloads.mcp_define) if workloads.installed("mcp") else None,
        "fastmcp": (workloads.fastmcp_server, workloads.fastmcp_define)
        if workloads.installed("fastmcp")
        else None,
    }


def measure_define(report: Report, settings: Settings, *, record: bool = True) -> dict[str, Any]:
    """Seconds per tool to declare 200 fresh tools; returns each system's host of the last round.

    With `record` false, the tools are declared once, for `list` and `call`, and nothing is timed.
    A second case declares 120 tools, each with its fields in its own order: every tool a shape
    of input this library has not compiled a validator for, as at a host's start-up.
    """
    if record:
        _progress(f"define: {workloads.TOOL_COUNT} tools of five fields")
    else:
        _progress(f"declaring {workloads.TOOL_COUNT} tools on every system (not timed)")
    rounds = settings.define_rounds if record else 0
    samples, hosts = _declare(workloads.note_functions, rounds, forget_shapes=False)
    if not record:
        return hosts
    case = "200 tools, five fields"
    for name in _definers():
        note = _BARE if name == "floor" else ""
        report.rows.append(Row("define", case, name, samples.get(name), "tool", note=note))
    _faster_by("define", case, "mcp", 8, report, compared=("floor",))
    _progress(f"define: {len(workloads.NOTE_ORDERS)} tools, each in its own order")
    samples, _ = _declare(workloads.ordered_note_functions, rounds, forget_shapes=True)
    case = f"{len(workloads.NOTE_ORDERS)} tools, fields in {len(workloads.NOTE_ORDERS)} orders"
    for name in _definers():
        note = {"floor": _BARE, OURS: _NEW_SHAPES}.get(name, "")
        report.rows.append(Row("define", case, name, samples.get(name), "tool", note=note))
    _faster_by("define", case, "mcp", 8, report, compared=("floor",))
    _progress(f"define: the first call of {len(workloads.NOTE_ORDERS)} new shapes")
    firsts = _first_calls(rounds)
    report.rows.append(
        Row("define", "first call of a new shape", OURS, firsts, "call", note=_FIRST_CALL)
    )
    return hosts


def _first_calls(rounds: int) -> list[float]:
    """Seconds per tool of the first check of each of 120 tools of a new shape each.

    The validator of a new shape is compiled on its first call, not when it is declared: this
    is where that cost lands. A steady call is the `validate` workload.
    """
    samples: list[float] = []
    for r in range(rounds + 1):
        registry = workloads.ours_define(workloads.ordered_note_functions(1000 + r))
        _codegen._FACTORIES.clear()  # noqa: SLF001 - what a new process starts with
        gc.collect()
        start = time.perf_counter()
        for t in registry.tools:
            parse_tool_input(t, workloads.VALID)
        if r:
            samples.append((time.perf_counter() - start) / len(registry.tools))
    return samples


def _declare(
    functions_of: Callable[[int], list[workloads.ToolFunction]], rounds: int, *, forget_shapes: bool
) -> tuple[dict[str, list[float]], dict[str, Any]]:
    """Seconds per tool of each system, one sample per round; and its host of the last round.

    Every round declares a new batch, whose types no one has seen yet. With `forget_shapes`, this
    library also forgets the validator code it compiled, as a new process would have none.
    """
    definers = _definers()
    ready = {name: d for name, d in definers.items() if d is not None}
    samples: dict[str, list[float]] = {name: [] for name in ready}
    hosts: dict[str, Any] = {}
    names = list(ready)
    batches = itertools.count(1)
    try:
        for r in range(rounds + 1):  # round 0 warms up (first compiles, lazy imports)
            for name in names[r % len(names) :] + names[: r % len(names)]:
                make_host, define = ready[name]
                functions = functions_of(next(batches))
                host = make_host()
                if forget_shapes and name == OURS:
                    _codegen._FACTORIES.clear()  # noqa: SLF001 - what a new process starts with
                gc.collect()
                gc.freeze()  # as in `interleaved`: the collector sees only what is made here
                start = time.perf_counter()
                hosts[name] = define(host, functions)
                elapsed = time.perf_counter() - start
                if r:
                    samples[name].append(elapsed / len(functions))
    finally:
        gc.unfreeze()
    return samples, hosts


_NEW_SHAPES = "each tool a new shape of input, compiled on its first call (below)"
_FIRST_CALL = "parse_tool_input on each tool's first call: its validator compiled, then run"
_BARE = "signature and hints read, checks chosen, listing written; no declaration checks"


def measure_list(
    report: Report, settings: Settings, loop: asyncio.AbstractEventLoop, hosts: dict[str, Any]
) -> None:
    """Producing the MCP tool listing of the 200 tools."""
    _progress("list: the MCP listing of 200 tools")
    batches: dict[str, Batch] = {OURS: sync_batch(lambda: workloads.ours_list(hosts[OURS]))}
    if "mcp" in hosts:
        batches["mcp"] = async_batch(loop, lambda: workloads.mcp_list(hosts["mcp"]))
    if "fastmcp" in hosts:
        batches["fastmcp"] = async_batch(loop, lambda: workloads.fastmcp_list(hosts["fastmcp"]))
    samples = interleaved(batches, settings)
    for name in (OURS, "mcp", "fastmcp"):
        report.rows.append(Row("list", "200 tools", name, samples.get(name), "listing"))
    _faster_by("list", "200 tools", "mcp", 100, report)


# --- validate ----------------------------------------------------------------------------------


def _refused_batch(validator: workloads.Validator, data: object) -> Batch:
    check, refusal, message = validator.check, validator.refusal, validator.message

    def refuse() -> str:
        try:
            check(data)
        except refusal as exc:
            return message(exc)
        msg = f"{validator.system} accepted the invalid input"
        raise AssertionError(msg)

    return sync_batch(refuse)


def measure_validate(report: Report, settings: Settings) -> None:
    """One tool's input checked: a typical valid input, and one with two wrong fields."""
    validators = workloads.note_validators()
    for case, data in (
        ("valid input", workloads.VALID),
        ("two wrong fields, message built", workloads.INVALID),
    ):
        _progress(f"validate: {case}")
        batches: dict[str, Batch] = {}
        for name, validator in validators.items():
            if validator is None:
                continue
            if data is workloads.VALID:
                batches[name] = sync_batch(partial(validator.check, data))
            else:
                batches[name] = _refused_batch(validator, data)
        samples = interleaved(batches, settings)
        for name in validators:
            report.rows.append(Row("validate", case, name, samples.get(name), "call"))
    for case, peer, limit in (
        ("valid input", "pydantic", 0.9),
        ("valid input", "floor", 1.1),
        ("two wrong fields, message built", "pydantic", 1.05),
    ):
        what = f"validate, {case}: adecore_tools / {NAMES[peer]}"
        ratio = report.ratio("validate", case, OURS, peer)
        if ratio is None:
            report.targets.append(Target(what, "peer not installed", f"<= {limit:.2f}x", "n/a"))
        else:
            report.targets.append(_at_most_ratio(what, ratio, limit))


# --- call --------------------------------------------------------------------------------------


def measure_call(
    report: Report, settings: Settings, loop: asyncio.AbstractEventLoop, hosts: dict[str, Any]
) -> None:
    """A call of one of the 200 tools (valid input, a body that returns at once), in process."""
    _progress("call: one tool, in process")
    timed = create_tool_registry(hosts[OURS].toolkits, timeout=30)
    batches: dict[str, Batch] = {
        OURS: async_batch(loop, lambda: workloads.ours_call(hosts[OURS])),
        TIMED: async_batch(loop, lambda: workloads.ours_call(timed)),
    }
    if "mcp" in hosts:
        batches["mcp"] = async_batch(loop, lambda: workloads.mcp_call(hosts["mcp"]))
    if "fastmcp" in hosts:
        batches["fastmcp"] = async_batch(loop, lambda: workloads.fastmcp_call(hosts["fastmcp"]))
    samples = interleaved(batches, settings)
    notes = {
        OURS: "await registry.run(name, input)",
        TIMED: "the same, with the registry's timeout=30 (a timer once the tool waits)",
        "mcp": "await server.call_tool(name, arguments)",
        "fastmcp": "await server.call_tool(name, arguments, run_middleware=False)",
    }
    for name in (OURS, TIMED, "mcp", "fastmcp"):
        report.rows.append(
            Row("call", "trivial body", name, samples.get(name), "call", note=notes[name])
        )
    _faster_by("call", "trivial body", "mcp", 15, report)
    ratio = report.ratio("call", "trivial body", "mcp", TIMED)
    report.targets.append(
        Target(
            "call, timeout set: MCP SDK MCPServer / adecore_tools (times faster)",
            "peer not installed" if ratio is None else f"{ratio:.1f}x",
            ">= 10x",
            "n/a" if ratio is None else _verdict(ok=ratio >= 10),
        )
    )
    if workloads.installed("mcp"):
        for mode, case in ROUND_TRIPS.items():
            measure_round_trip(report, settings, loop, hosts, mode=mode, case=case)


ROUND_TRIPS = {
    "legacy": "tools/call round trip, SDK in-memory transport",
    "auto": "tools/call round trip, SDK direct dispatch (2026-07-28)",
}
"""The SDK `Client`'s modes the round trip is measured in, and each one's case."""


class Connected:
    """MCP clients connected in process, held open by one task of `loop` until `close`.

    The SDK's client runs task groups, which must be left by the task that entered them, while
    each timed batch runs in a task of its own.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, hosts: dict[str, Any], mode: str) -> None:
        """Connect a client to each system's server (the SDK's, fastmcp's, ours)."""
        self._stop = asyncio.Event()
        ready: asyncio.Future[dict[str, workloads.RoundTrip]] = loop.create_future()
        self._task = loop.create_task(self._hold(hosts, mode, ready))
        self.calls = loop.run_until_complete(ready)

    async def _hold(
        self,
        hosts: dict[str, Any],
        mode: str,
        ready: asyncio.Future[dict[str, workloads.RoundTrip]],
    ) -> None:
        try:
            async with AsyncExitStack() as stack:
                targets = {
                    OURS: workloads.ours_mcp_server(hosts[OURS]),
                    "sdk-floor": workloads.sdk_floor_server(hosts[OURS]),
                }
                if "mcp" in hosts:
                    targets["mcp"] = hosts["mcp"]
                if "fastmcp" in hosts:
                    targets["fastmcp"] = await workloads.fastmcp_lowlevel(hosts["fastmcp"], stack)
                calls = {
                    name: await workloads.round_trip(target, mode, stack)
                    for name, target in targets.items()
                }
                ready.set_result(calls)
                await self._stop.wait()
        except BaseException as error:
            if not ready.done():
                ready.set_exception(error)
            raise

    def close(self, loop: asyncio.AbstractEventLoop) -> None:
        """Disconnect every client."""
        self._stop.set()
        loop.run_until_complete(self._task)


def measure_round_trip(
    report: Report,
    settings: Settings,
    loop: asyncio.AbstractEventLoop,
    hosts: dict[str, Any],
    *,
    mode: str,
    case: str,
) -> None:
    """One `tools/call` of the same tool and input, from the MCP SDK's `Client` to each server."""
    _progress(f"call: {case}")
    connected = Connected(loop, hosts, mode)
    try:
        batches = {name: async_batch(loop, call) for name, call in connected.calls.items()}
        samples = interleaved(batches, settings)
    finally:
        connected.close(loop)
    notes = {
        OURS: "adecore_tools.mcp.mcp_server(registry, ...)",
        "mcp": "MCPServer with @server.tool()",
        "fastmcp": "FastMCP with @server.tool, its low-level server",
        "sdk-floor": "the least a server on the SDK does: the SDK's own share",
    }
    for name in (OURS, "sdk-floor", "mcp", "fastmcp"):
        report.rows.append(Row("call", case, name, samples.get(name), "call", note=notes[name]))
    _faster_by("call", case, "mcp", 2, report, compared=("sdk-floor",), named=f", {case}")


# --- scale -------------------------------------------------------------------------------------


def _memory_ratio(check: Callable[[Any], Any], size: int) -> float:
    """Peak memory while checking a `size`-item input, over that input's own size.

    Both are measured with tracemalloc: the input's size is what building it allocated.
    """
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        data = workloads.scale_input(size)
        built = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = check(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return (peak - built) / (built - before)


def _faults_per_item(check: Callable[[Any], Any], size: int) -> float | None:
    """Minor page faults per item while checking a `size`-item input again and again.

    A fault is the kernel handing the process a fresh page: memory the allocator gave back to the
    system and asks for again. None where `resource` is missing (Windows).
    """
    try:
        import resource  # noqa: PLC0415 - Unix only
    except ImportError:
        return None
    data = workloads.scale_input(size)
    runs = max(3, 300_000 // size)
    check(data)
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(runs):
        check(data)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / (runs * size)


SMALL, BIG = workloads.SCALE_COMPARED


def measure_scale(report: Report, settings: Settings) -> None:
    """A list of 10 to 100,000 small objects: time per item, and peak memory against the input."""
    validators = {n: v for n, v in workloads.scale_validators().items() if v is not None}
    for size in workloads.SCALE_SIZES:
        _progress(f"scale: {size:,} items")
        data = workloads.scale_input(size)
        batches = {name: sync_batch(partial(v.check, data)) for name, v in validators.items()}
        samples = interleaved(batches, settings)
        for name in workloads.scale_validators():
            note = ""
            if name in validators:
                check = validators[name].check
                note = f"peak memory {_memory_ratio(check, size):.2f}x the input"
                if (faults := _faults_per_item(check, size)) is not None:
                    note += f", {faults:.3f} page faults per item"
            per_item = [t / size for t in samples[name]] if name in samples else None
            report.rows.append(Row("scale", f"{size:,} items", name, per_item, "item", note=note))
    _progress(f"scale: growth from {SMALL:,} to {BIG:,} items")
    growth = _growth(validators, settings, collector=True)
    plain = {name: validators[name] for name in (OURS, "floor")}
    growth_plain = _growth(plain, settings, collector=False)
    for peer, limit in (("pydantic", 1.0), ("floor", 1.1)):
        within = [
            report.ratio("scale", f"{size:,} items", OURS, peer)
            for size in workloads.SCALE_SIZES
            if size <= 10_000
        ]
        worst = None if None in within else max(typing.cast("list[float]", within))
        report.targets.append(
            _at_most_ratio(
                f"list of objects, 10 to 10,000 items, per item: adecore_tools / {NAMES[peer]}",
                worst,
                limit,
            )
        )
    relative = growth[OURS] / growth["floor"] if "floor" in growth else None
    target = _at_most_ratio(
        f"scale: time growth from {SMALL:,} to {BIG:,} items, over the floor's growth",
        relative,
        1.1,
    )
    context = [f"{NAMES[name]} {value:.2f}x" for name, value in growth.items()]
    context.extend(
        f"{NAMES[name]} with the collector off {value:.2f}x" for name, value in growth_plain.items()
    )
    measured = f"{target.measured} (growth: {'; '.join(context)})"
    report.targets.append(Target(target.what, measured, target.wanted, target.verdict))


def _growth(
    validators: dict[str, workloads.Validator], settings: Settings, *, collector: bool
) -> dict[str, float]:
    """Per system, per-item time at `BIG` items over per-item time at `SMALL` items.

    Both sizes of every system take turns in the same rounds, and each round's two samples of a
    system are compared with each other, so load that comes and goes on the machine cancels out.
    """
    inputs = {size: workloads.scale_input(size) for size in (SMALL, BIG)}
    batches = {
        f"{name} {size}": sync_batch(partial(v.check, data))
        for name, v in validators.items()
        for size, data in inputs.items()
    }
    samples = interleaved(batches, settings, collector=collector)
    return {
        name: _median(
            [
                (big / BIG) / (small / SMALL)
                for big, small in zip(
                    samples[f"{name} {BIG}"], samples[f"{name} {SMALL}"], strict=True
                )
            ]
        )
        for name in validators
    }


# --- targets -----------------------------------------------------------------------------------


def _verdict(*, ok: bool) -> str:
    return "PASS" if ok else "MISS"


def _at_most(what: str, seconds: float, limit: float) -> Target:
    return Target(
        what, f"{seconds * 1e3:+.1f} ms", f"<= {limit * 1e3:.0f} ms", _verdict(ok=seconds <= limit)
    )


def _at_most_ratio(what: str, ratio: float | None, limit: float) -> Target:
    if ratio is None:
        return Target(what, "not measured", f"<= {limit:.2f}x", "n/a")
    return Target(what, f"{ratio:.2f}x", f"<= {limit:.2f}x", _verdict(ok=ratio <= limit))


def _faster_by(
    workload: str,
    case: str,
    peer: str,
    factor: float,
    report: Report,
    *,
    compared: Sequence[str] = (),
    named: str = "",
) -> None:
    """The target `peer` / adecore_tools >= `factor`, and `peer` / each `compared` beside it.

    `named` follows the workload's name in the target's, where a workload has two targets.
    """
    what = f"{workload}{named}: {NAMES[peer]} / adecore_tools (times faster)"
    ratio = report.ratio(workload, case, peer, OURS)
    if ratio is None:
        report.targets.append(Target(what, "peer not installed", f">= {factor:.0f}x", "n/a"))
        return
    measured = f"{ratio:.1f}x"
    context = [
        f"{NAMES[peer]} / {NAMES[name]} {other:.1f}x"
        for name in compared
        if (other := report.ratio(workload, case, peer, name)) is not None
    ]
    if context:
        measured += f" (for comparison: {'; '.join(context)})"
    report.targets.append(Target(what, measured, f">= {factor:.0f}x", _verdict(ok=ratio >= factor)))


# --- output ------------------------------------------------------------------------------------


def duration(seconds: float) -> str:
    """A time with a unit that keeps three or four significant digits."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return (
                f"{seconds / scale:.3g} {unit}"
                if seconds < 100 * scale
                else f"{seconds / scale:.0f} {unit}"
            )
    return f"{seconds / 1e-9:.0f} ns"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table with padded columns, readable as plain text too."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def results_table(report: Report) -> str:
    """Every median, with its ratio to adecore_tools in the same case."""
    rows = []
    for row in report.rows:
        ratio = None if row.workload == "import" else report.ratio(*row.key, OURS)
        median = row.missing if row.seconds is None else f"{duration(row.seconds)} / {row.per}"
        name = row.system if row.workload == "import" else NAMES[row.system]
        shown = "" if ratio is None else f"{ratio:.2f}x"
        rows.append([row.workload, row.case, name, median, shown, row.note])
    return table(["workload", "case", "system", "median", "time / adecore_tools", "note"], rows)


def targets_table(report: Report) -> str:
    """The targets, each with what this run measured."""
    rows = [[t.what, t.measured, t.wanted, t.verdict] for t in report.targets]
    return table(["target", "measured", "wanted", "result"], rows)


def machine() -> list[tuple[str, str]]:
    """What the numbers were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = [
        (dist, workloads.version_of(dist) or "not installed")
        for dist in (
            "adecore_tools",
            "typing_extensions",
            "annotated-types",
            "pydantic",
            "pydantic-core",
            "msgspec",
            "mcp",
            "fastmcp",
        )
    ]
    return [
        ("CPU", cpu),
        ("source", _source_state()),
        ("cores", str(os.cpu_count())),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("OS", platform.platform()),
        *versions,
    ]


def _source_state() -> str:
    """The commit the package was measured at, and whether the work tree had changes."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(HERE.parent), *args], check=False, capture_output=True, text=True
        )
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD")
    if not commit:
        return "not a git checkout"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", "adecore_tools")
    return f"commit {commit}" + (" with uncommitted changes to adecore_tools" if changed else "")


NOTES = """\
- The import workload runs from this process; define, list and call run in one fresh
  interpreter, validate in another, scale in a third, so no workload measures what another left
  in the heap.
- Each figure is the median of interleaved rounds; the systems take turns in a rotating order.
  Each ratio (and each "ms over bare python") is the median, over the rounds, of the ratio (the
  difference) of the two samples taken in the same round, so load from elsewhere that slows a
  whole round cancels out (the growth of `scale` is paired the same way, see below).
- The cyclic garbage collector is on (as in a real process) and empty at the start of each
  sample; what existed before a case started (modules, the peers' servers, the input) is frozen
  out of its sight (`gc.freeze()`), so a collection walks only what the measured operation
  allocated.
- import: wall time of a fresh `python -c "<statement>"`, median of many runs; the statement is
  what a user writes to get what they use (pydantic and fastmcp load lazily on plain `import`).
  All interpreters read bytecode from one fresh cache (`PYTHONPYCACHEPREFIX`) written by an
  uncounted first round, as after an install.
- define: 200 new functions (distinct names, docstrings and text length bounds; a text hint no
  system has seen before in every round, since typing and libraries cache equal hints; the other
  four field types are shared, as between real tools), declared with `@tool` then
  `define_toolkit` and `create_tool_registry` (which also builds the listing), against
  `MCPServer().tool()(fn)` and `FastMCP().tool(fn)`. The empty peer servers are built before the
  clock starts. One warm-up round is not counted. The floor (`floor.declare`) does the least any
  library must: it reads each function's signature and hints, chooses a check per field and
  writes the listing entry, with no check of the declaration; like the library, it makes each
  hint's check and schema once. The second define case declares 120 such functions, each with
  the five fields in its own order: the same tool to every system, but to this library a new
  shape of input each (it forgets the shapes it saw before each round, as a new process would
  have none), as at the start of a host whose tools all take different fields. The validator of
  a new shape is compiled on the tool's first call, which "first call of a new shape" times:
  `parse_tool_input` once on each of those tools.
- list: `registry.mcp_tools()` against the SDK's `await server.list_tools()` and fastmcp's
  `[t.to_mcp_tool() for t in await server.list_tools(run_middleware=False)]`.
- validate: the message is built in every refusal case (`ToolRefusal.message`, pydantic
  `str(exc)`, msgspec `str(exc)`, which reports only the first problem). pydantic runs in its
  default lax mode on a `TypedDict` with `extra='forbid'`; msgspec on a `Struct` with
  `forbid_unknown_fields`. The floor is `benchmarks/floor.py`.
- call: fastmcp is called with `server.call_tool(..., run_middleware=False)`, its cheapest public
  in-process path (no middleware is installed, so it skips nothing that would run); the SDK with
  `MCPServer.call_tool(name, arguments)`. fastmcp's in-memory `Client(server)` is several times
  slower still and is not used.
- call, round trip: one `tools/call` of the same tool with the same input, from the MCP SDK's own
  `Client` to each system's server in the same process: `adecore_tools.mcp.mcp_server` over the
  registry of 200 tools, the SDK's `MCPServer` and fastmcp's `FastMCP` (through the SDK `Server`
  fastmcp builds, its lifespan entered; fastmcp's own client adds its own layers). Each client
  is connected, and has listed the tools, before timing. "In-memory transport" is
  `Client(server, mode="legacy")`: the `initialize` handshake (2025-11-25), then JSON-RPC
  messages over the SDK's memory streams; "direct dispatch" is `Client(server)`, which lands on
  2026-07-28, where the SDK hands each request to the server with no JSON-RPC framing. Each
  system answers as it does for any client: ours one text block (a tool returning `str` has no
  output model); the SDK and fastmcp also structured content `{"result": "ok"}` with an output
  schema, which the client then checks. Every server keeps the SDK's default OpenTelemetry
  middleware (a no-op without an exporter). The floor is a low-level SDK `Server` with the same
  listing whose `tools/call` handler returns a result built once: what is left is the SDK's
  client, transport and server machinery, which no server built on the SDK can avoid.
- scale: per-item time of a `list[Item]` field (Item: a string and an int in [0, 1000)); peak
  memory is tracemalloc's peak while checking, over what building the input allocated; page
  faults are the minor faults (`getrusage`) per item over repeated checks: fresh pages the kernel
  hands back after the allocator returned them, the main cost that grows with size. The growth
  target is measured apart: 1,000 and 100,000 items take turns in the same rounds and each round's
  pair is compared (also with the collector off, for adecore_tools and the floor), so it does not
  depend on the load the machine had when each size's rows above were measured.
- `tests/test_benchmark_agreement.py` checks that every validator here decides every benchmark
  input as `parse_tool_input` does."""


def render(report: Report, facts: list[tuple[str, str]], command: str, elapsed: float) -> str:
    """RESULTS.md."""
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    facts_table = table(["", ""], [[k, v] for k, v in facts])
    return (
        "# Benchmark results\n\n"
        f"Written by `{command}` on {when}, in {elapsed:.0f} s. Rerun it to refresh this file.\n\n"
        f"## Machine\n\n{facts_table}\n\n"
        f"## Targets\n\n{targets_table(report)}\n\n"
        f"## Results\n\n{results_table(report)}\n\n"
        f"## How it is measured\n\n{NOTES}\n"
    )


# --- main --------------------------------------------------------------------------------------


GROUPS = (("define", "list", "call"), ("validate",), ("scale",))
"""Workloads measured together, each group in a fresh interpreter of its own.

A process's history changes what it measures: after the `define` rounds have left their tens of
thousands of objects behind, checking 100,000 items took twice as long per item for every system
(msgspec too). A fresh process per group keeps each measurement independent of the others.
"""


def measure(chosen: Sequence[str], settings: Settings) -> Report:
    """Measure the chosen workloads of one group in this process."""
    report = Report()
    loop = asyncio.new_event_loop()
    try:
        hosts: dict[str, Any] = {}
        if {"define", "list", "call"} & set(chosen):
            hosts = measure_define(report, settings, record="define" in chosen)
        if "list" in chosen:
            measure_list(report, settings, loop, hosts)
        if "validate" in chosen:
            measure_validate(report, settings)
        if "call" in chosen:
            measure_call(report, settings, loop, hosts)
        if "scale" in chosen:
            measure_scale(report, settings)
    finally:
        loop.close()
    return report


def in_fresh_process(chosen: Sequence[str], *, quick: bool) -> Report:
    """`measure` in a new interpreter running this script; its report comes back as JSON."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--only",
        ",".join(chosen),
    ]
    env = {**os.environ, _STARTED_VARIABLE: repr(_STARTED)}
    done = subprocess.run(
        [*command, *(["--quick"] if quick else [])],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    found = json.loads(done.stdout)
    return Report(
        rows=[Row(**row) for row in found["rows"]],
        targets=[Target(**target) for target in found["targets"]],
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite and print the tables; `--write` also writes RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats: under a minute")
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS.name}")
    parser.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workloads")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    chosen = [w.strip() for w in args.only.split(",") if w.strip()]
    unknown = sorted(set(chosen) - set(WORKLOADS))
    if unknown:
        parser.error(f"unknown workloads {unknown}; choose from {', '.join(WORKLOADS)}")
    settings = QUICK if args.quick else FULL
    if args.worker:
        report = measure(chosen, settings)
        rows, targets = [asdict(r) for r in report.rows], [asdict(t) for t in report.targets]
        print(json.dumps({"rows": rows, "targets": targets}))
        return 0
    facts = machine()  # before measuring: the source as it was imported
    started = time.perf_counter()
    report = Report()
    if "import" in chosen:
        measure_import(report, settings)
    for group in GROUPS:
        if wanted := [w for w in group if w in chosen]:
            found = in_fresh_process(wanted, quick=args.quick)
            report.rows += found.rows
            report.targets += found.targets
    elapsed = time.perf_counter() - started
    print(targets_table(report))
    print()
    print(results_table(report))
    print(f"\n{'quick' if args.quick else 'full'} run, {elapsed:.0f} s")
    if args.write:
        command = "python benchmarks/run.py --write" + (" --quick" if args.quick else "")
        if args.only != ",".join(WORKLOADS):
            command += f" --only {args.only}"
        RESULTS.write_text(
            render(report, facts, command, elapsed) + _load_section(), encoding="utf-8"
        )
        _progress(f"wrote {RESULTS}")
    return 0


def _load_section() -> str:
    """The section benchmarks/load.py wrote in RESULTS.md, kept as it is: this run is not load."""
    from load import BEGIN, END  # noqa: PLC0415 - only when writing

    old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    if BEGIN not in old or END not in old:
        return ""
    return "\n" + old[old.index(BEGIN) : old.index(END) + len(END)] + "\n"


if __name__ == "__main__":
    sys.exit(main())
