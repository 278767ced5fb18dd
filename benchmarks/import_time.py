"""`import adecore_tools`, timed in-process after its two dependencies, in fresh processes.

    python benchmarks/import_time.py                      # this tree
    python benchmarks/import_time.py --against OTHER_TREE # A/B: alternating fresh processes

Each sample is one new interpreter that imports `typing_extensions` and `annotated_types`, then
times `import adecore_tools` alone. With `--against`, samples alternate between the two trees, so
a machine getting busier slows both alike; the ratio is of the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = """
import sys, time
import typing_extensions, annotated_types
before = set(sys.modules)
start = time.perf_counter()
import adecore_tools
took = time.perf_counter() - start
loaded = set(sys.modules) - before
print(took, len(loaded), len([m for m in loaded if m.startswith("adecore_tools")]))
"""


def sample(tree: Path) -> tuple[float, int, int]:
    """One fresh process's import time (seconds), modules loaded, and the package's own."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": ""},
        cwd=tree,
    ).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another tree, for an A/B")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    trees = {"this": Path(__file__).resolve().parent.parent}
    if args.against:
        trees["against"] = args.against.resolve()
    samples: dict[str, list[tuple[float, int, int]]] = {name: [] for name in trees}
    for tree in trees.values():
        sample(tree)  # compile the bytecode once, untimed
    for _ in range(args.rounds):
        for name, tree in trees.items():
            samples[name].append(sample(tree))
    report = {}
    for name, runs in samples.items():
        report[name] = {
            "median_ms": round(statistics.median(r[0] for r in runs) * 1000, 2),
            "modules": runs[0][1],
            "package_modules": runs[0][2],
        }
    if args.against:
        report["ratio"] = round(report["this"]["median_ms"] / report["against"]["median_ms"], 3)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
