"""benchmarks/load.py writes its section in place, and says each target as measured.

No timing here: the figures are made up, to check what the benchmark writes of them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from needs import missing

pytest.importorskip("httpx", reason=missing("httpx"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import load  # benchmarks/ is not a package

pytestmark = pytest.mark.peers


def point(server: str, calls_s: float, cpu_ms: float, path: str = "2026") -> load.Point:
    return load.Point(server, path, 1, 50, calls_s, 10.0, 20.0, cpu_ms, 0, 0)


POINTS = [
    point(load.BASE, 100, 2.0),
    point("adecore_tools.mcp", 110, 1.5),
    point(load.CLI, 110, 1.5),
    point(load.BASE, 100, 2.0, "stateful"),
    point("adecore_tools.mcp", 90, 2.5, "stateful"),
]


def test_the_targets_are_said_as_measured():
    assert load.targets(POINTS, load.Profiled(0.031, 1900, 2000)) == [
        (
            "- `adecore_tools.mcp`, 2026, 1 worker, 50 clients: 1.10x MCPServer's calls a second "
            "(target 1.0x), 0.75x its CPU per call (target at most 1.0x): met."
        ),
        (
            "- `adecore_tools.mcp`, stateful, 1 worker, 50 clients: 0.90x MCPServer's calls a "
            "second (target 1.0x), 1.25x its CPU per call (target at most 1.0x): not met."
        ),
        (
            "- `adecore-tools serve --http`, 2026, 1 worker, 50 clients: 1.10x MCPServer's calls a "
            "second on the SDK's default stack (target 1.15x): not met."
        ),
        (
            "- `adecore_tools`' own code is 3.1% of the server's CPU under cProfile (target at "
            "most 5%): met."
        ),
        (
            "- The work of a call, which background load does not move: 1,900 function calls per "
            "MCP call in `adecore_tools.mcp`, 2,000 in MCPServer (0.95x), under cProfile, the same "
            "stateful and 2026-07-28 calls."
        ),
    ]


def test_the_table_gives_ratios_to_mcpserver_on_the_same_point():
    rows = load.table(POINTS).splitlines()
    assert len(rows) == 2 + len(POINTS)
    row = (
        "| adecore_tools.mcp | stateful | 1 | 50 | 90 | 0.90x | 10.0 | 20.0 | 1.00x | 2.50 | 1.25x"
    )
    assert f"{row} | 0 | 0 |" in rows


def test_the_section_replaces_its_last_version(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Page\n\nText.\n", encoding="utf-8")
    first = load.section(POINTS, None, "python benchmarks/load.py --write", 60)
    load.write(page, first)
    load.write(page, first.replace("Under load", "Under more load"))
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Page\n\nText.\n\n" + load.BEGIN)
    assert text.count(load.BEGIN) == 1
    assert "Under more load" in text
    assert text.endswith(load.END + "\n")


def test_the_section_says_what_the_load_clients_cost_beside_the_servers():
    costed = [point(load.BASE, 100, 2.0), point(load.CLI, 110, 1.0), point(load.CLI, 110, 9.0)]
    for p, client_ms in zip(costed, [0.3, 0.1, 0.2], strict=True):
        p.client_ms = client_ms
    text = load.section(costed, None, "python benchmarks/load.py --write", 60)
    assert "at 50 clients, a median 0.20 ms of CPU a call to the servers' 2.00 ms." in text
    assert load.clients(POINTS) == "share the cores with the servers."  # not measured


def test_rounds_give_each_point_its_median_and_every_error():
    rounds = [
        point("adecore_tools.mcp", 90, 2.0),
        point("adecore_tools.mcp", 130, 1.0),
        point("adecore_tools.mcp", 100, 3.0),
    ]
    rounds[1].errors, rounds[2].lost = 2, 1
    rounds[0].client_ms, rounds[1].client_ms, rounds[2].client_ms = 0.3, 0.1, 0.2
    (median,) = load.medians(rounds)
    figures = (median.calls_s, median.cpu_ms, median.client_ms, median.errors, median.lost)
    assert figures == (100, 2.0, 0.2, 2, 1)


def test_each_round_runs_the_servers_in_another_order():
    orders = [load.order(r) for r in range(4)]
    assert all(sorted(o) == sorted(orders[0]) for o in orders)
    assert len({o[0] for o in orders}) == 4
