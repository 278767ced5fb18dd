"""Why a test skips when a package it needs is missing: which package, and where it installs.

`pip install -e '.[test]'` installs every package below wherever it has a release for the running
Python, so a test skips for a missing one only where pip cannot give it.
"""

from __future__ import annotations

PACKAGES = {
    "mcp": "mcp",
    "agents": "openai-agents",
    "pydantic_ai": "pydantic-ai-slim (Python 3.11 or newer)",
    "fastmcp": "fastmcp (Python 3.11 or newer)",
    "pydantic": "pydantic",
    "msgspec": "msgspec",
    "openai": "openai",
    "anthropic": "anthropic",
    "google": "google-genai",
}


def missing(module: str) -> str:
    """The skip reason for a test that needs `module` where it is not installed."""
    package = PACKAGES.get(module.partition(".")[0], module)
    return f"needs {package}, which the test extra installs where pip has it for this Python"
