"""What happened in a run: a refusal logged at DEBUG, or each run an OpenTelemetry span.

Neither records an input value or a result: they may be private. A refusal of bad arguments
names the paths of the fields that were wrong, found by checking the input again: a cost paid
only when the refusal is logged or traced. OpenTelemetry is imported only by a registry that
traces (`trace=True`); the logger only once a host has loaded `logging`.
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Callable
from typing import Any

from .._model.problems import Invalid, paths
from .._model.refusals import ToolRefusal
from .._model.words import show

if typing.TYPE_CHECKING:
    import logging

    from .registry import ToolRegistry
    from .tool import Tool

__all__ = ["PATHS_ATTRIBUTE", "UNREAD", "Noted", "logged", "traced", "wrong_paths"]

Noted = Callable[[object, "Tool[..., Any] | None", object, str], None]
"""Told of each refusal a run raises: the name asked, the tool, its input as read, the code."""

UNREAD: Any = object()
"""The input of a run refused before it was read (an unknown tool, text that is no JSON)."""

PATHS_ATTRIBUTE = "adecore_tools.refusal.paths"
"""The span attribute listing the paths of the fields a `bad-arguments` refusal found wrong."""

_EMPTY: dict[str, Any] = {}
_logger: logging.Logger | None = None
_tracer: Any = None
"""The package's tracer, got once: the API's proxy reaches a provider the host sets later."""


def wrong_paths(t: Tool[..., Any] | None, data: object, code: str) -> list[str]:
    """The paths of the fields a `bad-arguments` refusal found wrong, by checking `data` again."""
    if t is None or data is UNREAD or code != "bad-arguments":
        return []
    found = t.input.validate(_EMPTY if data is None else data)
    return paths(found) if isinstance(found, Invalid) else []


def _named(name: object, t: Tool[..., Any] | None) -> str:
    return t.name if t is not None else name if type(name) is str else show(name)


def logged(name: object, t: Tool[..., Any] | None, data: object, code: str) -> None:
    """Log a refusal on the `adecore_tools` logger at DEBUG: tool, code and wrong paths.

    Nothing is formatted, and `logging` is not imported, when nobody listens at DEBUG.
    """
    global _logger  # noqa: PLW0603 - found once `logging` is loaded, then kept
    if _logger is None:
        if "logging" not in sys.modules:
            return
        import logging  # noqa: PLC0415 - loaded already

        _logger = logging.getLogger("adecore_tools")
    if not _logger.isEnabledFor(10):  # logging.DEBUG
        return
    found = wrong_paths(t, data, code)
    _logger.debug(
        "tool %s refused: %s%s",
        _named(name, t),
        code,
        f" (wrong: {', '.join(found)})" if found else "",
    )


async def traced(  # noqa: PLR0913 - a run's arguments, and how its input comes
    registry: ToolRegistry,
    name: str,
    input: object,  # noqa: A002 - the contract's name
    call: object,
    call_id: str | None,
    *,
    text: bool,
    approved: bool,
) -> Any:
    """A run as an OpenTelemetry span, by the GenAI conventions for tool execution.

    A child of the current span. A refusal sets `error.type` to its code, and for bad arguments
    the wrong paths; another exception sets it to the exception's class, and is recorded.
    """
    from opentelemetry import trace  # noqa: PLC0415 - only when tracing

    global _tracer  # noqa: PLW0603 - got on the first traced run, then kept
    if _tracer is None:
        _tracer = trace.get_tracer("adecore_tools")
    named = name if type(name) is str else show(name)
    attributes: dict[str, str] = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": named,
        "gen_ai.tool.type": "function",
    }
    if call_id is not None:
        attributes["gen_ai.tool.call.id"] = str(call_id)
    with _tracer.start_as_current_span(
        f"execute_tool {named}",
        kind=trace.SpanKind.INTERNAL,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as span:

        def noted(_name: object, t: Tool[..., Any] | None, data: object, code: str) -> None:
            span.set_attribute("error.type", code)
            found = wrong_paths(t, data, code)
            if found:
                span.set_attribute(PATHS_ATTRIBUTE, found)
            span.set_status(trace.StatusCode.ERROR, code)

        try:
            return await registry._run(name, input, call, text=text, noted=noted, approved=approved)  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
        except ToolRefusal:
            raise
        except Exception as exc:
            kind = type(exc)
            error_type = kind.__qualname__
            if kind.__module__ != "builtins":
                error_type = f"{kind.__module__}.{error_type}"
            span.set_attribute("error.type", error_type)
            span.record_exception(exc)
            span.set_status(trace.StatusCode.ERROR, error_type)
            raise
