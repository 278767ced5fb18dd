"""Helpers the test modules share.

Imported as a plain module (`from helpers import ...`); `conftest.py` has pytest rewrite its
asserts, so a failing check here reports its values as one in a test module does.
"""

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine (a tool, `registry.run(...)`) to its end in a new event loop."""
    return asyncio.run(coro)
