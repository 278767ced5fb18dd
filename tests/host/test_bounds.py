"""Bounding a run: time limits, cancellation, and plain `def` tools in a worker thread."""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import math
import sys
import threading
import time

import pytest
from helpers import run

from adecore_tools import ToolCall, ToolRefusal, create_tool_registry, define_toolkit, tool

ended: list[str] = []


@tool("slow", timeout=0.05, read_only=True)
async def look() -> str:
    """Look, slowly."""
    try:
        await asyncio.sleep(10)
    finally:
        ended.append("look")
    return "seen"


@tool("slow")
async def write(text: str) -> str:
    """Write, slowly."""
    try:
        await asyncio.sleep(10)
    finally:
        ended.append("write")
    return text


@tool("slow", idempotent=True)
async def put() -> str:
    """Put, slowly."""
    await asyncio.sleep(10)
    return "put"


@tool("slow")
async def quick() -> str:
    """Answer at once."""
    return "quick"


registry = create_tool_registry([define_toolkit("slow", [look, write, put, quick])], timeout=0.05)


def _refused(name: str, data: object = None, reg=registry) -> ToolRefusal:
    with pytest.raises(ToolRefusal) as info:
        run(reg.run(name, data))
    return info.value


@pytest.mark.parametrize("timeout", [0, -1, math.inf, math.nan, "1", True])
def test_a_timeout_is_a_positive_finite_number(timeout):
    async def t() -> str:
        """T."""
        return ""

    with pytest.raises(ValueError, match=r"tool 't': timeout is a positive finite number"):
        tool("kit", timeout=timeout)(t)
    with pytest.raises(ValueError, match="the registry's timeout is a positive finite number"):
        create_tool_registry([], timeout=timeout)


def test_past_its_limit_a_run_is_cancelled_waited_for_and_refused_timed_out():
    ended.clear()
    refusal = _refused("write", {"text": "x"})
    assert ended == ["write"]  # it unwound before the refusal was raised
    assert refusal.code == "timed-out"
    assert "tool 'write'" in refusal.message
    assert "0.05 seconds" in refusal.message
    assert "may have done part of its work, so check before sending" in refusal.message


@pytest.mark.parametrize("name", ["look", "put"])
def test_a_read_only_or_idempotent_tool_may_be_sent_again(name):
    assert "so the call may be sent again" in _refused(name).message


def test_the_tool_own_limit_wins_and_a_registry_without_one_bounds_nothing():
    unbounded = create_tool_registry(registry.toolkits)
    ended.clear()
    assert _refused("look", reg=unbounded).code == "timed-out"
    assert ended == ["look"]
    assert run(unbounded.run("quick")) == "quick"
    assert registry.select("slow").timeout == 0.05
    assert unbounded.timeout is None


def test_checking_the_input_does_not_count_and_bad_input_is_still_bad_arguments():
    assert _refused("write", {"text": 3}).code == "bad-arguments"


def test_a_tool_that_returns_in_time_returns():
    assert run(registry.run("quick")) == "quick"


def test_cancelling_the_caller_cancels_a_bounded_tool_and_propagates():
    ended.clear()
    long_limit = create_tool_registry(registry.toolkits, timeout=30)

    async def go() -> None:
        task = asyncio.ensure_future(long_limit.run("write", {"text": "x"}))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(go())
    assert ended == ["write"]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="a task says it is cancelled from 3.11")
def test_a_cancelled_child_task_inside_a_bounded_tool_is_its_failure():
    @tool("kit", timeout=5)
    async def child() -> str:
        """Await a task that something else cancelled."""
        task = asyncio.ensure_future(asyncio.sleep(10))
        asyncio.get_running_loop().call_soon(task.cancel)
        await task
        return "never"

    reg = create_tool_registry([define_toolkit("kit", [child])])
    with pytest.raises(RuntimeError, match="tool 'child' raised CancelledError") as info:
        run(reg.run("child"))
    assert isinstance(info.value.__cause__, asyncio.CancelledError)


# --- plain `def` tools ----------------------------------------------------------------------------

user = contextvars.ContextVar("user", default="nobody")


class Who(ToolCall):
    def __init__(self, name: str) -> None:
        self.name = name


@tool("sync")
def whoami(call: Who, shout: bool = False) -> str:
    """Say who calls, from a worker thread."""
    text = f"{call.name} {user.get()} {threading.current_thread() is threading.main_thread()}"
    return text.upper() if shout else text


@tool("sync", timeout=0.05)
def blocking() -> str:
    """Block the thread past the limit."""
    time.sleep(0.3)
    ended.append("blocking")
    return "done"


sync_registry = create_tool_registry([define_toolkit("sync", [whoami, blocking])])


def test_a_plain_def_runs_in_a_worker_thread_with_the_context_variables():
    async def go() -> str:
        user.set("ada")
        return await sync_registry.run("whoami", {"shout": True}, Who("bo"))

    assert run(go()) == "BO ADA FALSE"


def test_a_plain_def_tool_is_still_its_function():
    assert whoami(Who("bo")) == "bo nobody True"
    assert not inspect.iscoroutinefunction(whoami)
    assert whoami.input.fields[0].name == "shout"


def test_a_timeout_refuses_a_sync_tool_but_cannot_stop_its_thread():
    ended.clear()

    async def go() -> ToolRefusal:
        with pytest.raises(ToolRefusal) as info:
            await sync_registry.run("blocking")
        assert ended == []
        await asyncio.sleep(0.5)  # the thread runs on to its end
        return info.value

    assert run(go()).code == "timed-out"
    assert ended == ["blocking"]


def test_a_generator_or_async_generator_is_still_a_type_error():
    def gen() -> object:
        """Yield."""
        yield 1

    async def agen() -> object:
        """Yield."""
        yield 1

    for fn in (gen, agen):
        with pytest.raises(TypeError, match="yields many"):
            tool("kit")(fn)


@tool("waits", timeout=5)
async def waits(steps: int) -> str:
    """Wait a few turns of the loop, then answer."""
    for _ in range(steps):
        await asyncio.sleep(0.001)
    return f"waited {steps}"


@tool("waits", timeout=5)
async def own_timeout() -> str:
    """Give up on something of its own."""
    async with asyncio.timeout(0.001):
        await asyncio.sleep(1)
    return "never"


def test_a_tool_that_waits_and_answers_within_its_limit_answers():
    reg = create_tool_registry([define_toolkit("waits", [waits])])
    assert run(reg.run("waits", {"steps": 3})) == "waited 3"


@pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.timeout is new in 3.11")
def test_a_timeout_error_of_the_tool_own_passes_through():
    reg = create_tool_registry([define_toolkit("waits", [own_timeout])])
    with pytest.raises(TimeoutError):
        run(reg.run("own_timeout"))
