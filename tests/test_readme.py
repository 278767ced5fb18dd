"""The README's promises: its two set-up commands, and every Python sample in it runs."""

from __future__ import annotations

import ast
import asyncio
import re
import sys
import types
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
SAMPLE = re.compile(r"```python\n(.*?)```", re.DOTALL)


def test_the_first_screen_gives_the_two_set_up_commands():
    first_screen = "\n".join(README.read_text(encoding="utf-8").splitlines()[:25])
    assert "python -m pip install -e . && python examples/notes.py" in first_screen
    assert "python -m pip install -e '.[test]' && python -m pytest" in first_screen


def test_every_python_sample_runs_in_order(monkeypatch):
    """Samples share one module, as a reader would type them; top-level await is allowed."""
    module = types.ModuleType("readme")
    monkeypatch.setitem(sys.modules, "readme", module)
    samples = SAMPLE.findall(README.read_text(encoding="utf-8"))
    assert len(samples) >= 6
    for number, sample in enumerate(samples, 1):
        code = compile(
            sample,
            f"README.md sample {number}",
            "exec",
            flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
            dont_inherit=True,  # not this file's `from __future__ import annotations`
        )
        result = eval(code, module.__dict__)  # noqa: S307 - our own README
        if asyncio.iscoroutine(result):
            asyncio.run(result)
