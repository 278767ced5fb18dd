"""Helpers the test modules share: running a coroutine, a refusal, two enums, a command.

Imported as a plain module (`from helpers import ...`); `conftest.py` has pytest rewrite its
asserts, so a failing check here reports its values as one in a test module does.
"""

import asyncio
import enum
import os
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

import adecore_tools
from adecore_tools import ToolRefusal, parse_tool_input

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine (a tool, `registry.run(...)`) to its end in a new event loop."""
    return asyncio.run(coro)


def command_env(*folders: Path) -> dict[str, str]:
    """The environment of a command a test starts: this test's package first on the path.

    The package is the one this process imported (the work tree's, or the wheel CI installed),
    so the command runs the code under test; `folders` follow (tests/, examples/, ...).
    """
    path = [str(Path(adecore_tools.__file__).resolve().parent.parent), *map(str, folders)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def fields_line(t: Any) -> str:
    """The advice row every `bad-arguments` refusal of tool `t` carries: its field names."""
    return "\t".join(("fields", *(f.name for f in t.input.fields)))


def refusal(t: Any, data: object) -> ToolRefusal:
    """The refusal `parse_tool_input(t, data)` raises, checked to be `bad-arguments` for `t`."""
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(t, data)
    assert info.value.code == "bad-arguments"
    assert info.value.lines == (fields_line(t),)
    return info.value


def refused(t: Any, data: object) -> str:
    """The message of `refusal(t, data)`."""
    return refusal(t, data).message


class Color(enum.Enum):
    """An enum of strings."""

    RED = "red"
    GREEN = "green"


class Level(enum.Enum):
    """An enum of integers."""

    LOW = 1
    HIGH = 2
