"""The README's promises: its two set-up commands, and every Python sample in it runs.

The guide's samples build on each other, so they run in order in one module, as a reader would
type them. Each integration sample stands alone, with examples/ importable, and is skipped when
the framework it shows is not installed.
"""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import re
import sys
import types
from pathlib import Path

import annotated_types
import pytest

from adecore_tools import ToolRefusal, parse_tool_input, tool

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SAMPLE = re.compile(r"```python\n(.*?)```", re.DOTALL)
GUIDE, _, REST = README.partition("\n## Integrations\n")
INTEGRATIONS = REST.partition("\n## Compared with\n")[0]


def _run(sample: str, name: str, module: types.ModuleType) -> None:
    code = compile(
        sample,
        name,
        "exec",
        flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
        dont_inherit=True,  # not this file's `from __future__ import annotations`
    )
    result = eval(code, module.__dict__)  # noqa: S307 - our own README
    if asyncio.iscoroutine(result):
        asyncio.run(result)


def _imported(sample: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(sample)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_the_first_screen_gives_the_two_set_up_commands():
    first_screen = "\n".join(README.splitlines()[:25])
    assert "python -m pip install -e . && python examples/notes.py" in first_screen
    assert "python -m pip install -e '.[test]' && python -m pytest" in first_screen


def test_every_guide_sample_runs_in_order(monkeypatch):
    module = types.ModuleType("readme")
    monkeypatch.setitem(sys.modules, "readme", module)
    samples = SAMPLE.findall(GUIDE)
    assert len(samples) >= 6
    for number, sample in enumerate(samples, 1):
        _run(sample, f"README.md guide sample {number}", module)


def _printed(sample: str) -> list[str]:
    """The output a sample says it prints: a `print(...)  # text` line's comment, or the `# `
    comment lines right under a `print(...)` line that has none."""
    lines = sample.splitlines()
    expected: list[str] = []
    for number, line in enumerate(lines):
        if "print(" not in line:
            continue
        if "  # " in line:
            expected.append(line.split("  # ", 1)[1])
            continue
        for below in lines[number + 1 :]:
            if not below.lstrip().startswith("# "):
                break
            expected.append(below.lstrip()[2:])
    return expected


@pytest.mark.parametrize("number", range(len(SAMPLE.findall(INTEGRATIONS))))
def test_every_integration_sample_runs_and_prints_what_it_says(number, monkeypatch, capsys):
    sample = SAMPLE.findall(INTEGRATIONS)[number]
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    missing = sorted(name for name in _imported(sample) if importlib.util.find_spec(name) is None)
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    module = types.ModuleType("readme_integration")
    monkeypatch.setitem(sys.modules, "readme_integration", module)
    _run(sample, f"README.md integration sample {number + 1}", module)
    expected = _printed(sample)
    assert expected
    assert capsys.readouterr().out.splitlines() == expected


def test_the_integration_samples_exist():
    assert len(SAMPLE.findall(INTEGRATIONS)) == 3


def test_the_item_bound_advised_for_a_set_of_ints_refuses_every_crafted_hash():
    """Guarantees: the integers k * (2**61 - 1) share one hash, and so do their negatives, so a
    set of them is quadratic to build. The item bound the README advises must refuse both: with
    `Lt(2**61)` alone, 16,000 negatives took six seconds."""
    advised = re.search(r"`(set\[Annotated\[int, [^`]*\]\])`", README)
    assert advised is not None
    namespace: dict[str, object] = {**vars(annotated_types)}
    exec("from typing import Annotated\nA = " + advised.group(1), namespace)  # noqa: S102 - README
    source = 'async def takes_ids(*, ids: A) -> None:\n    """Takes ids."""\n'
    exec(source, namespace)  # noqa: S102 - our own source text
    takes_ids = tool("readme")(namespace["takes_ids"])
    step = 2**61 - 1
    for sign in (1, -1):
        crafted = [sign * k * step for k in range(2, 12)]
        assert {hash(n) for n in crafted} == {0}
        with pytest.raises(ToolRefusal):
            parse_tool_input(takes_ids, {"ids": crafted})
