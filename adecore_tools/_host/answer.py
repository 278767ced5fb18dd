"""One answer to a client, for every adapter: the call object, then `registry.call` or a listing."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from .._model.content import ToolResult
from .._model.metadata import NEEDS_APPROVAL, ToolCall, asks_approval
from .._model.refusals import ToolRefusal
from .registry import ToolRegistry
from .tool import parse_tool_input

__all__ = ["answer", "asks", "made_call", "offered", "visible", "waits_for_approval"]


async def made_call(make_call: Callable[[], object]) -> object:
    """The call object the host's `make_call` (plain or async) builds."""
    call = make_call()
    if inspect.isawaitable(call):
        call = await call
    return call


async def answer(
    registry: ToolRegistry,
    name: str,
    arguments: object,
    make_call: Callable[[], object],
    *,
    approved: bool = False,
) -> ToolResult:
    """Build the call object with the host's `make_call` (plain or async), then `registry.call`.

    A `ToolRefusal` that `make_call` raises (a caller not permitted, or over its rate limit) is
    answered like one the tool raises: the model reads it. Anything else passes through.
    `approved`: a person approved this call, through the framework's own way of asking.
    """
    try:
        call = await made_call(make_call)
    except ToolRefusal as refusal:
        return ToolResult.refused(refusal)
    return await registry.call(name, arguments, call, approved=approved)


async def asks(
    registry: ToolRegistry, name: str, arguments: object, make_call: Callable[[], object]
) -> bool:
    """Whether a person must approve this call before it runs: the call object's answer.

    Asked before the call, for a framework to pause the turn. A call that would be refused
    anyway (a tool unknown or hidden to the caller, bad arguments, a caller `make_call` refuses)
    needs no approval: the refusal is the answer. `arguments` is a mapping, `None` or JSON text.
    """
    try:
        call = await made_call(make_call)
    except ToolRefusal:
        return False
    if not isinstance(call, ToolCall) or not asks_approval(type(call)):
        return False
    t = registry.get(name)
    if t is None or not call.may_use(t):
        return False
    try:
        if isinstance(arguments, (str, bytes)):
            from .._check.json_text import arguments_of  # noqa: PLC0415 - on first use

            arguments = arguments_of(arguments, t.input.advice)
        checked = parse_tool_input(t, arguments, repair=registry.repair)
    except ToolRefusal:
        return False
    return call.needs_approval(t, checked)


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


def waits_for_approval(result: ToolResult) -> bool:
    """Whether `result` is the `needs-approval` refusal: the call waits for a person's yes."""
    return result.refusal is not None and result.refusal.code == NEEDS_APPROVAL
