"""The phase packages and the arrows between them: what may import what.

`_model` is the field model and imports no sibling. `_declare` (Python to the model) and `_check`
(the model to validators) never import each other. `_render` (schemas, listings, results) never
imports `_host`, which puts the phases together. The adapter modules beside them import only
`_host`, the one seam; so does the command line (`_cli`, run by `__main__`). Every relative
import of every module is read, including those inside functions and under `TYPE_CHECKING`: a
deferred import is an arrow too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import adecore_tools

PACKAGE = Path(adecore_tools.__file__).parent

MAY_IMPORT = {
    "_model": {"_model"},
    "_declare": {"_model", "_declare"},
    "_check": {"_model", "_check"},
    "_render": {"_model", "_declare", "_check", "_render"},
    "_host": {"_model", "_declare", "_check", "_render", "_host"},
    "_cli": {"_host", "_cli"},
    "__main__": {"_cli"},
    "adapter": {"_host"},
    "__init__": {"_model", "_declare", "_check", "_render", "_host"},
}
"""For each part of the package, the parts its modules may import from."""


def part_of(module: tuple[str, ...]) -> str:
    """The part a module belongs to: a phase package, an adapter module, or the root's init."""
    if module[0].startswith("_") and module[0] != "__init__":
        return module[0]
    return "__init__" if module == ("__init__",) else "adapter"


def modules() -> list[tuple[str, ...]]:
    return sorted(p.relative_to(PACKAGE).with_suffix("").parts for p in PACKAGE.rglob("*.py"))


def arrows(module: tuple[str, ...]) -> list[tuple[int, tuple[str, ...]]]:
    """Each relative import of `module`: its line, and the module or package it names."""
    path = PACKAGE.joinpath(*module).with_suffix(".py")
    package = module[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = (*base, *node.module.split(".")) if node.module else base
            if not target:  # `from . import x` in the root: x is the module
                target = (node.names[0].name,)
            found.append((node.lineno, target))
    return found


def test_every_phase_package_exists():
    assert {m[0] for m in modules() if len(m) > 1} == {
        "_model",
        "_declare",
        "_check",
        "_render",
        "_host",
        "_cli",
    }


@pytest.mark.parametrize("module", modules(), ids=".".join)
def test_imports_follow_the_arrows(module):
    allowed = MAY_IMPORT[part_of(module)]
    wrong = [
        f"line {line}: {'.'.join(target)}"
        for line, target in arrows(module)
        if part_of(target) not in allowed
    ]
    assert not wrong, f"{'.'.join(module)} may import only {sorted(allowed)}: {wrong}"


def test_the_arrows_are_read():
    # The test above would pass on a reader that finds nothing.
    found = {target[0] for module in modules() for _, target in arrows(module)}
    assert found >= {"_model", "_declare", "_check", "_render", "_host"}
    assert arrows(("mcp",))  # the adapter's import of the seam


@pytest.mark.parametrize("module", modules(), ids=".".join)
def test_no_module_is_longer_than_450_lines(module):
    lines = PACKAGE.joinpath(*module).with_suffix(".py").read_text(encoding="utf-8").count("\n")
    assert lines <= 450, f"{'.'.join(module)} has {lines} lines: split it along a seam"
