"""`required_field` is listed with every other problem of its field; found by a hostile round."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from annotated_types import MaxLen, MinLen, Predicate

from adecore_tools import (
    ToolRefusal,
    parse_tool_input,
    required_field,
    tool,
)


def refused(t: Any, data: object) -> str:
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(t, data)
    assert info.value.code == "bad-arguments"
    return info.value.message


# --- every bound is tested and listed ----------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        (
            Annotated[str, MaxLen(1), required_field("a is needed")],
            "a: expected at most 1 character, got 3; a is needed",
        ),
        (
            Annotated[str, required_field("a is needed"), MaxLen(1)],
            "a is needed; a: expected at most 1 character, got 3",
        ),
        (
            Annotated[str, required_field("a is needed"), Predicate(str.isdigit)],
            'a is needed; a: expected digits only, got "   "',
        ),
    ],
)
def test_required_field_is_listed_with_every_other_problem_of_the_field(annotation, message):
    """Before: only `a is needed` was told; written first, it stopped the bounds after it."""

    async def fn(a: str) -> None:
        """Take a."""

    fn.__annotations__ = {"a": annotation, "return": None}
    t = tool("round", name="blank")(fn)
    assert refused(t, {"a": "   "}) == message


def test_required_field_still_says_only_its_message_for_a_field_left_out():
    @tool("round")
    async def needed(a: Annotated[str, MinLen(2), required_field("a is needed")]) -> None:
        """Take a."""

    assert refused(needed, {}) == "a is needed"
    assert refused(needed, {"a": None}) == "a is needed"
