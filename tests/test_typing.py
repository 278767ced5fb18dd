"""A decorated tool keeps its signature for the type checker.

CI type-checks this file with `mypy --strict` and pyright (strict): each `assert_type` fails the
build if `@tool` loses the parameters or the return type. At run time it calls the tool too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from typing import Annotated, Any

from annotated_types import Ge
from typing_extensions import assert_type

from adecore_tools import (
    DryRun,
    Tool,
    ToolCall,
    Toolkit,
    ToolRegistry,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    tool,
    tool_input_schema,
)


class Call(ToolCall):
    def __init__(self, user: str) -> None:
        self.user = user


@tool("typed")
async def typed_write(
    call: Call, text: str, count: Annotated[int, Ge(0)] = 1, dry_run: DryRun = None
) -> list[str]:
    """Writes text for a user."""
    return [f"{call.user}\t{text}\t{count}\t{dry_run}"]


def test_a_tool_keeps_the_signature_of_its_function() -> None:
    assert isinstance(typed_write, Tool)
    started = assert_type(typed_write(Call("ann"), "hi", count=2), Coroutine[Any, Any, list[str]])
    lines = assert_type(asyncio.run(started), list[str])
    assert lines == ["ann\thi\t2\tNone"]


async def wrong_calls_are_flagged() -> None:
    """Never run: each line must be an error for the checkers, or the ignore itself is one."""
    await typed_write(Call("ann"), 3)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    await typed_write(Call("ann"), "hi", cnt=1)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    await typed_write("ann", "hi")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def a_tool_of_a_narrower_result_is_a_tool_of_a_wider_one() -> None:
    """Never run: a tool only gives its result, so its result type may widen (covariance)."""
    general: Tool[..., Sequence[str]] = typed_write
    anything: list[Tool[..., object]] = [typed_write, general]
    assert anything


def writes_to_immutable_objects_are_flagged(registry: ToolRegistry) -> None:
    """Never run: each write raises `AttributeError` at run time, and the checkers know it."""
    typed_write.name = "other"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    typed_write.annotations.read_only = True  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    typed_write.input.fields[0].required = False  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    registry.toolkits[0].name = "other"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    registry.tools = ()  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    typed_write.__wrapped__ = typed_write.fn  # type: ignore[misc, assignment]  # pyright: ignore[reportAttributeAccessIssue]


def test_a_tool_is_named_as_its_function_for_the_checkers_too() -> None:
    assert_type(typed_write.__name__, str)
    assert_type(typed_write.__qualname__, str)
    assert (typed_write.__name__, typed_write.__qualname__) == ("typed_write", "typed_write")


def test_the_public_functions_are_typed() -> None:
    registry = create_tool_registry([define_toolkit("typed", [typed_write])])
    assert_type(registry, ToolRegistry)
    arguments = parse_tool_input(typed_write, {"text": "hi"})
    assert_type(arguments, dict[str, Any])
    assert arguments == {"text": "hi", "count": 1, "dry_run": None}
    assert_type(tool_input_schema(typed_write), dict[str, Any])


@tool("typed", timeout=2.5)
def typed_read(call: Call, limit: int = 10) -> list[str]:
    """Reads lines for a user, in a worker thread."""
    return [call.user] * limit


def test_a_sync_tool_stays_a_sync_callable_of_its_signature() -> None:
    assert isinstance(typed_read, Tool)
    lines = assert_type(typed_read(Call("ann"), limit=2), list[str])
    assert lines == ["ann", "ann"]
    registry = create_tool_registry([define_toolkit("typed", [typed_read])], timeout=1)
    assert asyncio.run(registry.run("typed_read", {"limit": 1}, Call("bo"))) == ["bo"]
    tools: list[Tool[..., object]] = [typed_read, typed_write]
    assert_type(typed_read.scopes, frozenset[str])
    assert_type(typed_read.timeout, float | None)
    assert tools


def wrong_sync_calls_are_flagged() -> None:
    """Never run: each line must be an error for the checkers, or the ignore itself is one."""
    typed_read(Call("ann"), "ten")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    count: int = typed_read(Call("ann"))  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
    assert count


class Service:
    @staticmethod
    @tool("typed")
    async def ping(n: int) -> int:
        """Pings back."""
        return n

    @tool("typed")
    @staticmethod
    async def pong(n: int) -> int:
        """Pongs back."""
        return n


def test_a_tool_and_a_staticmethod_stack_either_way() -> None:
    tools: list[Tool[[int], int]] = [Service.ping, Service.pong, Service().ping, Service().pong]
    assert_type(asyncio.run(Service().pong(2)), int)
    assert [asyncio.run(t(1)) for t in tools] == [1, 1, 1, 1]
    define_toolkit("typed", tools[:2])


@tool("typed")
async def typed_count() -> int:
    """Counts what was written."""
    return 0


TOOLS = [typed_write, typed_count, Service.ping]
"""Tools of different signatures in a list with no annotation, as a host writes them."""


def test_tools_of_different_signatures_listed_unannotated_make_a_toolkit() -> None:
    for kit in (define_toolkit("typed", TOOLS), Toolkit("typed", TOOLS)):
        assert [t.name for t in kit.tools] == ["typed_write", "typed_count", "ping"]
    assert_type(define_toolkit("typed", TOOLS[1:]).tools, tuple[Tool[..., Any], ...])
    assert_type(asyncio.run(typed_count()), int)  # each keeps its own signature
    define_toolkit("typed", [typed_write, typed_count])
    define_toolkit("typed", (typed_write, typed_count))
    define_toolkit("typed", {typed_write, typed_count})


def test_the_function_and_the_results_keep_their_types() -> None:
    assert_type(typed_write.fn(Call("ann"), "hi"), Coroutine[Any, Any, list[str]]).close()
    registry = create_tool_registry([define_toolkit("typed", (typed_write,))])
    assert_type(asyncio.run(registry.run("typed_write", {"text": "hi"}, Call("ann"))), Any)
    assert_type(registry.get("typed_write"), Tool[..., Any] | None)
    assert_type(registry.toolkits, tuple[Toolkit, ...])
    assert_type(registry.select("typed"), ToolRegistry)


async def wrong_declarations_are_flagged(registry: ToolRegistry) -> None:
    """Never run: each is an error at run time too, so the checkers must flag it."""

    def sync(n: int) -> int:
        return n

    tool(sync)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    tool("typed", timeout="1")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # mypy still flags a list of functions; pyright takes any list, as a list of tools of
    # different signatures is `list[object]` to mypy (the toolkit refuses it at run time)
    define_toolkit("typed", [typed_write.fn])  # type: ignore[arg-type]
    create_tool_registry([typed_write])  # type: ignore[list-item]  # pyright: ignore[reportArgumentType]
    define_toolkit("typed", typed_write)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    create_tool_registry(registry.toolkits[0])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    define_toolkit("typed", "typed_write")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    parse_tool_input(typed_write.fn, {})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    await registry.run(typed_write, {})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    await typed_write.fn(Call("ann"), 3)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    count: int = await typed_write(Call("ann"), "hi")  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
    assert count
