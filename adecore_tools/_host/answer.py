"""One answer to a client, for every adapter: the call object, then `registry.call` or a listing."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from .._model.content import ToolResult
from .._model.metadata import ToolCall
from .._model.refusals import ToolRefusal
from .registry import ToolRegistry

__all__ = ["answer", "made_call", "offered", "visible"]


async def made_call(make_call: Callable[[], object]) -> object:
    """The call object the host's `make_call` (plain or async) builds."""
    call = make_call()
    if inspect.isawaitable(call):
        call = await call
    return call


async def answer(
    registry: ToolRegistry, name: str, arguments: object, make_call: Callable[[], object]
) -> ToolResult:
    """Build the call object with the host's `make_call` (plain or async), then `registry.call`.

    A `ToolRefusal` that `make_call` raises (a caller not permitted, or over its rate limit) is
    answered like one the tool raises: the model reads it. Anything else passes through.
    """
    try:
        call = await made_call(make_call)
    except ToolRefusal as refusal:
        return ToolResult.refused(refusal)
    return await registry.call(name, arguments, call)


async def visible(
    registry: ToolRegistry, make_call: Callable[[], object]
) -> tuple[ToolRegistry, bool]:
    """What the caller `make_call` builds may see, and whether that can differ between callers.

    It can where a tool declares scopes or the call's class has a rule of its own (`may_use`);
    otherwise every caller sees every tool, and a listing may be cached for all of them. A
    caller `make_call` refuses (signed out, over its rate limit) holds no scopes: it sees the
    tools that need none, and calling one gives it the refusal to read.
    """
    try:
        call = await made_call(make_call)
    except ToolRefusal:
        call = ToolCall()
    own_rule = isinstance(call, ToolCall) and type(call).may_use is not ToolCall.may_use
    return registry.visible_to(call), own_rule or any(t.scopes for t in registry.tools)


async def offered(registry: ToolRegistry, make_call: Callable[[], object]) -> frozenset[str]:
    """The names of the tools a model may be offered for the caller `make_call` builds."""
    shown, _ = await visible(registry, make_call)
    return frozenset(t.name for t in shown.tools)
