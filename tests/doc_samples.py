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
    """The modules a sample imports that are not installed (examples/ on the path).

    The first missing part of each dotted name: `google.adk` where google-genai installed
    `google` and nothing installed ADK.
    """
    names: set[str] = set()
    for node in ast.walk(ast.parse(sample)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return sorted({absent for name in names if (absent := _absent(name)) is not None})


def _absent(name: str) -> str | None:
    example = ROOT / "examples" / f"{name}.py"
    if example.is_file():  # an example module: what it imports in turn (`mcp_server`: mcp)
        absent = missing_modules(example.read_text(encoding="utf-8"))
        return absent[0] if absent else None
    parts = name.split(".")
    for end in range(1, len(parts) + 1):
        prefix = ".".join(parts[:end])
        try:
            if importlib.util.find_spec(prefix) is None:
                return prefix
        except ModuleNotFoundError:  # a parent that is a module, not a package
            return prefix
    return None


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
