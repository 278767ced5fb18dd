"""Bounding a run: its time limit, a `CancelledError` that is the tool's own, a worker thread.

A run with no time limit awaits the tool in the caller's task, at no cost. One with a limit runs
it under a timer that cancels it where it awaits when time is up.
"""

from __future__ import annotations

import math
import sys
import typing
from collections.abc import Callable, Coroutine, Generator
from typing import Any

from .._model.refusals import ToolRefusal

if typing.TYPE_CHECKING:
    from .tool import Tool

__all__ = ["cancelled_error", "check_timeout", "failed", "in_thread", "limited"]


def check_timeout(value: object, what: str) -> float | None:
    """A time limit in seconds (a positive finite number) or `None`; `ValueError` otherwise."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value <= 0
    ):
        msg = f"{what} is a positive finite number of seconds, or None; got {value!r}"
        raise ValueError(msg)
    return float(value)


def cancelled_error() -> type[BaseException]:
    """`asyncio.CancelledError`, read only when an exception other than a refusal leaves a run.

    A run that is awaited has an event loop, so `asyncio` is loaded; the package never imports it.
    """
    asyncio = sys.modules.get("asyncio")
    return asyncio.CancelledError if asyncio is not None else _Never


class _Never(BaseException):
    """Matches nothing raised: the stand-in where `asyncio` is not loaded."""


def failed(t: Tool[..., Any], error: BaseException) -> BaseException:
    """What a `CancelledError` leaving the tool is: the caller's cancellation, or its own failure.

    The caller's task, when something cancelled it, says so (`cancelling()`, Python 3.11+), and
    the error passes on. Otherwise the tool raised it by itself: a `RuntimeError` naming the tool,
    so a server answers one failed call instead of ending a connection. Before 3.11 a task cannot
    tell, and every `CancelledError` is taken for a cancellation.
    """
    import asyncio  # noqa: PLC0415 - loaded: a run awaits in an event loop

    task = asyncio.current_task()
    cancelling = getattr(task, "cancelling", None)
    if cancelling is None or cancelling():
        return error
    msg = (
        f"tool {t.name!r} raised CancelledError while nothing cancelled its call (a timeout of "
        "its own, or a task it awaited was cancelled); it failed"
    )
    fault = RuntimeError(msg)
    fault.__cause__ = error
    return fault


async def limited(t: Tool[..., Any], run: Coroutine[Any, Any, Any], limit: float) -> Any:
    """Await `run` for at most `limit` seconds: the `timed-out` refusal after.

    When time is up the tool is cancelled where it awaits, and has unwound (its `finally` blocks
    run) when the refusal is raised. A `TimeoutError` of the tool's own passes through. From
    Python 3.11 the tool runs in the caller's task, and a timer (`asyncio.timeout_at`) is armed
    only once the tool first waits: a tool that answers at once costs no timer.
    """
    import asyncio  # noqa: PLC0415 - loaded: a run awaits in an event loop

    if sys.version_info < (3, 11):
        return await _limited_in_task(t, run, limit)
    deadline = asyncio.get_running_loop().time() + limit
    try:
        step = run.send(None)
    except StopIteration as done:
        return done.value
    scope = asyncio.timeout_at(deadline)
    try:
        async with scope:
            return await _Resumed(run, step)
    except TimeoutError:
        if scope.expired():
            raise ToolRefusal("timed-out", _timed_out(t, limit)) from None
        raise


class _Resumed:
    """A started coroutine, awaited from where it stopped: what it waits on is waited on."""

    __slots__ = ("run", "step")

    def __init__(self, run: Coroutine[Any, Any, Any], step: object) -> None:
        self.run, self.step = run, step

    def __await__(self) -> Generator[Any, Any, Any]:
        run, step = self.run, self.step
        while True:
            try:
                sent = yield step
            except GeneratorExit:
                run.close()
                raise
            except BaseException as thrown:  # noqa: BLE001 - a cancellation, passed to the tool
                try:
                    step = run.throw(thrown)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    step = run.send(sent)
                except StopIteration as done:
                    return done.value


async def _limited_in_task(t: Tool[..., Any], run: Coroutine[Any, Any, Any], limit: float) -> Any:
    """`limited` where a task cannot tell whose cancellation it got: `run` in a task of its own."""
    import asyncio  # noqa: PLC0415 - loaded: a run awaits in an event loop

    task = asyncio.ensure_future(run)
    try:
        done, _ = await asyncio.wait((task,), timeout=limit)
    except asyncio.CancelledError:
        task.cancel()
        await asyncio.wait((task,))
        raise
    if not done:
        task.cancel()
        await asyncio.wait((task,))
        if task.cancelled():
            raise ToolRefusal("timed-out", _timed_out(t, limit))
    return task.result()  # its value, or what it raised


def _timed_out(t: Tool[..., Any], limit: float) -> str:
    """The refusal's message: the tool, its limit, and what sending it again means."""
    seconds = f"{limit:g} second" + ("" if limit == 1 else "s")
    if t.annotations.read_only or t.annotations.idempotent:
        retry = "it changed nothing a retry would repeat, so the call may be sent again"
    else:
        retry = "it may have done part of its work, so check before sending the call again"
    return f"tool {t.name!r} did not finish within its limit of {seconds} and was stopped; {retry}"


def in_thread(fn: Callable[..., Any]) -> Callable[..., Coroutine[Any, Any, Any]]:
    """`fn` in a worker thread (`asyncio.to_thread`: the caller's context variables reach it).

    A time limit refuses the run, but cannot stop the thread: it runs on to its end.
    """

    async def threaded(*args: Any, **kwargs: Any) -> Any:
        import asyncio  # noqa: PLC0415 - loaded: a run awaits in an event loop

        return await asyncio.to_thread(fn, *args, **kwargs)

    return threaded
