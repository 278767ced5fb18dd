"""The fuzz target `tests/fuzz/fuzz_parse.py`, run for a fixed number of inputs.

`FUZZ_ITERATIONS` (default 10000) sets how many seeded inputs run; longer runs go by hand (see the
target's docstring, with atheris when it is installed).
"""

import importlib.util
import os
import pathlib
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adecore_tools import ToolRefusal

_PATH = pathlib.Path(__file__).parents[1] / "fuzz" / "fuzz_parse.py"
_SPEC = importlib.util.spec_from_file_location("fuzz_parse", _PATH)
assert _SPEC is not None
assert _SPEC.loader is not None
fuzz_parse = importlib.util.module_from_spec(_SPEC)
sys.modules["fuzz_parse"] = fuzz_parse
_SPEC.loader.exec_module(fuzz_parse)

ITERATIONS = int(os.environ.get("FUZZ_ITERATIONS", "10000"))


@pytest.mark.slow
def test_fixed_number_of_fuzz_inputs_run_clean():
    ran, accepted = fuzz_parse.run(ITERATIONS, seed=0)
    assert ran == ITERATIONS
    assert accepted > 0  # the recipes reach valid input too, not only refusals


@pytest.mark.parametrize("seed", fuzz_parse.SEEDS, ids=range(len(fuzz_parse.SEEDS)))
def test_each_seed_runs_clean(seed):
    fuzz_parse.one_input(seed)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_hypothesis_bytes_run_clean(data):
    fuzz_parse.one_input(data)


def test_the_target_tells_a_broken_refusal():
    fields_line = fuzz_parse.FIELDS_LINE
    for broken in (
        ToolRefusal("not-permitted", "x", [fields_line]),
        ToolRefusal("bad-arguments", "x", ["fields\tother"]),
        ToolRefusal("bad-arguments", "x" * 5000, [fields_line]),
        ToolRefusal("bad-arguments", "a \ud800 b", [fields_line]),
    ):
        with pytest.raises(AssertionError, match="breaks its promises"):
            fuzz_parse._check_refusal(broken)
    fuzz_parse._check_refusal(ToolRefusal("bad-arguments", "fine", [fields_line]))


def test_the_target_reads_every_recipe():
    """Across the first inputs, every kind of value the reader makes turns up."""
    seen: set[str] = set()
    for count in range(2000):
        data = random.Random(count).randbytes(80)  # noqa: S311 - fuzz input, not a secret
        value = fuzz_parse.value(fuzz_parse.Reader(data))
        seen.add(type(value).__name__)
    assert {"NoneType", "bool", "int", "float", "str", "list", "dict", "tuple"} <= seen
    assert {"LyingDict", "LyingList", "_ItemsMapping"} <= seen
