"""Why a test skips when a package it needs is missing: which package, and where it installs.

`pip install -e '.[test]'` installs every package below wherever it has a release for the running
Python, so a test skips for a missing one only where pip cannot give it. The Node.js clients
(tests/ts_client, tests/inspector, tests/conformance) are installed by `npm ci` in their folder.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

TESTS = Path(__file__).resolve().parent

PYTHONPATH = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
"""What a server the MCP SDK starts over stdio needs to import the package these tests import.

The SDK starts a server with a few safe variables only; a `PYTHONPATH` that puts a checkout first
is passed on (an empty dict without one).
"""

PACKAGES = {
    "mcp": "mcp",
    "agents": "openai-agents",
    "pydantic_ai": "pydantic-ai-slim (Python 3.11 or newer)",
    "fastmcp": "fastmcp (Python 3.11 or newer)",
    "pydantic": "pydantic",
    "msgspec": "msgspec",
    "openai": "openai",
    "anthropic": "anthropic",
    "google": "google-genai (Python 3.11 or newer)",
    "langchain": "langchain (Python 3.14 or older: on 3.15 orjson has no wheel yet)",
    "langchain_core": "langchain-core (Python 3.14 or older: on 3.15 orjson has no wheel yet)",
    "langgraph": "langgraph (Python 3.14 or older: on 3.15 orjson has no wheel yet)",
}


APART = {
    "google.adk": (
        "needs google-adk, which pins google-genai below 3 where the provider tests need 3.6: the "
        "test extra installs it on Python 3.10 alone, and .ci/run tests it in a venv of its own"
    ),
}
"""Packages the test extra cannot hold beside the others, and why a test of one skips."""


def missing(module: str) -> str:
    """The skip reason for a test that needs `module` where it is not installed."""
    if module in APART:
        return APART[module]
    package = PACKAGES.get(module.partition(".")[0], module)
    return f"needs {package}, which the test extra installs where pip has it for this Python"


def missing_node(folder: str, package: str) -> str | None:
    """Why a test of a Node.js client in `tests/<folder>` skips, or None when it can run."""
    for program in ("node", "npm"):
        if shutil.which(program) is None:
            return f"{program} is not installed"
    if not (TESTS / folder / "node_modules" / package).is_dir():
        return f"{package} is not installed: npm ci --prefix tests/{folder}"
    return None
