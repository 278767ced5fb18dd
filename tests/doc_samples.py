"""Reading the code samples of README.md and docs/*.md, for tests/test_readme.py and test_docs.py.

A sample is a fenced block (```python, ```json, ```bash). A Python sample says what it prints in
comments: a `print(...)  # text` line's comment, or the `# ` comment lines right under a
`print(...)` line that has none.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.DOTALL | re.MULTILINE)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def samples(text: str, language: str = "python") -> list[str]:
    """The fenced blocks of `text` in `language`, in order."""
    return [body for lang, body in FENCE.findall(text) if lang == language]


def printed(sample: str) -> list[str]:
    """The lines a sample says it prints."""
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


def missing_modules(sample: str) -> list[str]:
    """The top-level modules a sample imports that are not installed (examples/ on the path)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(sample)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    return sorted(name for name in roots if importlib.util.find_spec(name) is None)


def broken_links(page: Path) -> list[str]:
    """The relative links of a Markdown page that lead to no file of the repository."""
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if "://" in target or target.startswith(("#", "mailto:")):
            continue
        path = (page.parent / target.partition("#")[0]).resolve()
        if not path.is_relative_to(ROOT) or not path.exists():
            broken.append(target)
    return broken
