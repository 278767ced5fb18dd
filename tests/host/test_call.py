"""`registry.call`: one path from a model's arguments to what a client reads."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from helpers import run

from adecore_tools import (
    Text,
    ToolCall,
    ToolRefusal,
    ToolResult,
    create_tool_registry,
    define_toolkit,
    refusal_body,
    tool,
    tool_result,
)


class Who(ToolCall):
    def __init__(self, name: str) -> None:
        self.name = name


@dataclass
class Point:
    x: int
    y: int


@tool("demo")
async def greet(call: Who, times: int = 1) -> list[str]:
    """Greet the caller."""
    return [f"hello {call.name}"] * times


@tool("demo")
async def where() -> Point:
    """Say where."""
    return Point(1, 2)


@tool("demo")
async def deny() -> str:
    """Refuse, always."""
    raise ToolRefusal("not-permitted", "No.", ["ask\tthe owner"])


@tool("demo")
async def crash() -> str:
    """Fail with a bug of the host's."""
    raise KeyError("bug")


registry = create_tool_registry([define_toolkit("demo", [greet, where, deny, crash])])


def test_a_result_is_what_tool_result_gives():
    result = run(registry.call("greet", {"times": 2}, Who("ada")))
    assert result == tool_result(greet, ["hello ada", "hello ada"])
    assert result.text == "hello ada\nhello ada"
    assert result.is_error is False
    assert result.refusal is None


def test_a_structured_result_keeps_its_structured_content():
    result = run(registry.call("where"))
    assert result.structured == {"x": 1, "y": 2}
    assert result.text == '{"x":1,"y":2}'
    assert not result.is_error


@pytest.mark.parametrize("arguments", ['{"times": 3}', b'{"times": 3}'])
def test_json_text_is_read_as_run_json_reads_it(arguments):
    result = run(registry.call("greet", arguments, Who("bo")))
    assert result.text == "hello bo\nhello bo\nhello bo"


@pytest.mark.parametrize(
    ("name", "arguments", "call", "expected"),
    [
        (
            "greet",
            {"times": "x"},
            Who("a"),
            ToolRefusal("bad-arguments", 'times: expected an integer, got "x"', ["fields\ttimes"]),
        ),
        ("greet", "{", Who("a"), None),  # not JSON: a refusal too
        ("great", None, None, None),  # unknown tool
        ("deny", None, None, ToolRefusal("not-permitted", "No.", ["ask\tthe owner"])),
    ],
)
def test_a_refusal_is_answered_not_raised(name, arguments, call, expected):
    result = run(registry.call(name, arguments, call))
    refusal = result.refusal
    assert isinstance(refusal, ToolRefusal)
    if expected is not None:
        assert refusal == expected
    assert result.is_error is True
    assert result.text == refusal_body(refusal)
    assert result.content == (Text(refusal_body(refusal)),)
    assert result.structured is None
    assert result == ToolResult.refused(refusal)


def test_the_unknown_tool_refusal_is_the_one_run_raises():
    with pytest.raises(ToolRefusal) as raised:
        run(registry.run("great"))
    assert run(registry.call("great")).refusal == raised.value


@pytest.mark.parametrize(
    ("name", "call", "error"), [("crash", None, KeyError), ("greet", None, TypeError)]
)
def test_anything_else_passes_through(name, call, error):
    # The tool's own bug, and the host's (no call object for a tool that takes one).
    with pytest.raises(error):
        run(registry.call(name, None, call))
