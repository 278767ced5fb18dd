"""What an echo of a value in a refusal can and cannot hold."""

from __future__ import annotations

from typing import Any

import pytest

from adecore_tools import (
    ToolRefusal,
    parse_tool_input,
    tool,
)


def refused(t: Any, data: object) -> str:
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(t, data)
    assert info.value.code == "bad-arguments"
    return info.value.message


# --- what an echo can and cannot hold ----------------------------------------------------------


@tool("round")
async def echoes(count: int, name: str) -> None:
    """Take a count and a name."""


def _problems_of(message: str) -> list[str]:
    """A message split on the `; ` outside double quotes, as the docs say a host may split it."""
    problems, current, quoted, escaped = [], "", False, False
    for index, char in enumerate(message):
        if quoted and escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif not quoted and message.startswith("; ", index):
            problems.append(current)
            current = ""
            continue
        if not (not quoted and current == "" and char == " " and problems):
            current += char
    return [*problems, current]


def test_a_semicolon_echoed_inside_quotes_does_not_split_a_problem():
    message = refused(echoes, {"count": 'a"; b', "name": 5, "other; x": 1})
    assert _problems_of(message) == [
        'count: expected an integer, got "a\\"; b"',
        "name: expected a string, got 5",
        '["other; x"]: unknown field',
    ]


@pytest.mark.parametrize("mark", ["\u202e", "\u202a", "\u2066", "\u200f", "\u061c"])
def test_bidirectional_format_characters_are_never_echoed(mark):
    """Before: U+202E came back raw, so a host showing the refusal showed reordered text."""
    message = refused(echoes, {"count": f"1{mark}0", "name": "n", f"na{mark}me": 1})
    assert mark not in message
    assert message == (
        'count: expected an integer, got "1 0"; ["na me"]: unknown field (did you mean \'name\'?)'
    )


def test_a_value_of_a_class_named_as_a_builtin_is_named_by_its_module():
    """Before: `numpy.bool_` was told `expected a boolean, got a value of type bool`."""
    fake_bool = type("bool", (), {"__module__": "numpy"})
    assert refused(echoes, {"count": fake_bool(), "name": "n"}) == (
        "count: expected an integer, got a value of type numpy.bool"
    )
    assert refused(echoes, {"count": object(), "name": "n"}) == (
        "count: expected an integer, got a value of type object"
    )
