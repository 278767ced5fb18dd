"""One answer to a client's call, for every adapter: the call object, then `registry.call`."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from .._model.content import ToolResult
from .._model.refusals import ToolRefusal
from .registry import ToolRegistry

__all__ = ["answer"]


async def answer(
    registry: ToolRegistry, name: str, arguments: object, make_call: Callable[[], object]
) -> ToolResult:
    """Build the call object with the host's `make_call` (plain or async), then `registry.call`.

    A `ToolRefusal` that `make_call` raises (a caller not permitted, or over its rate limit) is
    answered like one the tool raises: the model reads it. Anything else passes through.
    """
    try:
        call = make_call()
        if inspect.isawaitable(call):
            call = await call
    except ToolRefusal as refusal:
        return ToolResult.refused(refusal)
    return await registry.call(name, arguments, call)
