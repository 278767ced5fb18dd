"""Instructions per item of the `scale` workload, as callgrind counts them: the work, not the wait.

    python benchmarks/instructions.py    # needs valgrind; about two minutes

Time per item grows from 10,000 to 100,000 items for every system `run.py` measures, msgspec's C
and the hand-written floor alike (RESULTS.md, `scale`): the input and the output no longer fit the
caches, and the kernel hands the output fresh pages. Whether the work per item grows too, a clock
cannot tell; an instruction count can, since an instruction counts once however long it waits on
memory. With the hash seed fixed, two runs of the same interpreter agree to a millionth.

Each count is two fresh interpreters under `valgrind --tool=callgrind`: both build the input and
check a small one (so what a system makes on first use is made), and one of them then checks the
input; the difference, over the items checked, is the count per item. Both sizes check 100,000
items in all (the smaller input 100 times).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

import workloads

SMALL, BIG = workloads.SCALE_COMPARED
SIZES = ((SMALL, BIG // SMALL), (BIG, 1))
"""(items in the input, times it is checked): each size checks `BIG` items in all."""


def _child(system: str, size: int, checks: int) -> None:
    """What one counted interpreter does: build the input, then check it `checks` times."""
    validator = workloads.scale_validators()[system]
    assert validator is not None, system
    data = workloads.scale_input(size)
    validator.check(workloads.scale_input(10))
    for _ in range(checks):
        validator.check(data)


def _instructions(system: str, size: int, checks: int) -> int:
    """The instructions a fresh interpreter executes for `_child(system, size, checks)`."""
    command = [
        *("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"),
        *(sys.executable, __file__, "--child", system, str(size), str(checks)),
    ]
    seeded = {**os.environ, "PYTHONHASHSEED": "0"}  # a string's hash, and so a set's order, fixed
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=seeded)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        msg = f"callgrind printed no count for {system}:\n{done.stderr}"
        raise RuntimeError(msg)
    return int(found.group(1))


def per_item(system: str, size: int, checks: int) -> float:
    """Instructions per item checked, for an input of `size` items checked `checks` times."""
    work = _instructions(system, size, checks) - _instructions(system, size, 0)
    return work / (size * checks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=3, metavar=("SYSTEM", "SIZE", "CHECKS"), help="internal")
    args = parser.parse_args()
    if args.child:
        system, size, checks = args.child
        _child(system, int(size), int(checks))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: it counts the instructions")
    print(f"| system | per item at {SMALL:,} | per item at {BIG:,} | {BIG:,} / {SMALL:,} |")
    print("| --- | --- | --- | --- |")
    for system, validator in workloads.scale_validators().items():
        if validator is None:
            print(f"| {system} | not installed | | |")
            continue
        low, high = (per_item(system, size, checks) for size, checks in SIZES)
        print(f"| {system} | {low:,.0f} | {high:,.0f} | {high / low:.2f}x |")


if __name__ == "__main__":
    main()
