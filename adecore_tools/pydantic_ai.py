"""A registry's tools as one Pydantic AI toolset: `RegistryToolset(registry)` for an `Agent`.

    pip install 'adecore_tools[pydantic-ai]'    # Python 3.11 or newer, as Pydantic AI

The toolset lists each tool with its name, description and input schema, and runs a call through
the registry, as Pydantic AI's own MCP toolset does for a server's tools:

    agent = Agent(model, deps_type=NoteCall, toolsets=[RegistryToolset(registry)])
    await agent.run("Write down: buy milk", deps=NoteCall(doc, may_write=True))

- **Strict mode.** A tool is listed with `strict=True` and its `openai-strict` schema (every field
  required, a field that may be left out nullable) wherever that profile can state it; Pydantic
  AI asks each provider for strict mode where it has one. A tool the profile cannot state (one
  with a record, `dict[str, X]`) is listed with its MCP schema and `strict=False`, so that no
  provider closes the record to every key. What a strict model sends for a field it leaves out,
  `null`, is what the registry reads as "left out", so strict mode loses nothing.
  `strict=False` lists every tool that way.
- **Who sees what.** Each run step lists only the tools the caller may use
  (`ToolCall.may_use`), the call object built as for a call; a caller `make_call` refuses is
  offered nothing. A call of another tool is refused as an unknown tool.
- **A call.** Pydantic AI parses the arguments as JSON and checks nothing else: whatever JSON
  value they are goes to `registry.run` (`null` as no fields), with the call object: the run's
  `deps`, or what `make_call` (plain or `async`) builds from the run context, for each call.
  Text that is no JSON at all is answered by Pydantic AI itself, with its own validation error.
- **What the model gets back.** The tool's result as `tool_result(tool, value).text`: its text or
  lines, or a structured value's compact JSON. A result with an image or audio goes block by
  block, each as `BinaryContent` in the tool's return, which Pydantic AI sends the model as such;
  a resource as a line of text saying what the tool returned and that it cannot be shown. A
  `ToolRefusal`, from the arguments, the tool or `make_call`, comes
  back as its `refusal_body` text, which says what to fix, and costs no retry. Any other
  exception fails the run.

- **Approval.** A call whose call object needs approval (`ToolCall.needs_approval`) and was
  not approved yet raises `ApprovalRequired`: the run ends with it among a
  `DeferredToolRequests`' `approvals` (give the agent that output type). The host asks its user
  and runs again with `DeferredToolResults(approvals={call_id: True or ToolDenied(...)})`:
  approved, the tool runs once; denied, it never runs, and the model reads the denial.

This module imports Pydantic AI; `import adecore_tools` does not import this module.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from typing_extensions import TypeVar

if sys.version_info < (3, 11):
    raise ImportError(
        "adecore_tools.pydantic_ai needs Python 3.11 or newer, as Pydantic AI does",
        name="pydantic_ai",
    )

try:
    from pydantic_ai import ApprovalRequired, BinaryContent, RunContext
    from pydantic_ai.tools import ToolDefinition
    from pydantic_ai.toolsets import AbstractToolset, ToolsetTool
    from pydantic_core import SchemaValidator, core_schema
except ModuleNotFoundError as _missing:
    if _missing.name != "pydantic_ai":  # Pydantic AI is there, but something it needs is not
        raise
    raise ModuleNotFoundError(
        "adecore_tools.pydantic_ai needs Pydantic AI: pip install 'adecore_tools[pydantic-ai]'",
        name=_missing.name,
    ) from _missing

from ._host.seam import (
    Audio,
    Image,
    Text,
    ToolRegistry,
    answer,
    offered,
    shown,
    waits_for_approval,
)

__all__ = ["RegistryToolset"]

DepsT = TypeVar("DepsT", default=Any)
"""The type of the run's `deps`, which `make_call` reads."""


def _as_arguments(arguments: object) -> object:
    if arguments is None:
        return {}
    return json.dumps(arguments) if isinstance(arguments, str) else arguments


# Any JSON value is let through, for the registry to check and refuse: an array or a number is a
# `bad-arguments` refusal, not a `TypeError` in the run. `null` becomes `{}`: Pydantic AI takes
# validated arguments of `None` for a bug, the registry reads them as no fields either way. A
# string goes back to its JSON text, which is how `registry.call` reads a `str`.
_ANY_JSON = SchemaValidator(
    core_schema.no_info_after_validator_function(_as_arguments, core_schema.any_schema())
)


_BLOCKS: dict[type[Any], Callable[[Any], str | BinaryContent]] = {
    Text: lambda b: b.text,
    Image: lambda b: BinaryContent(b.data, media_type=b.mime_type),
    Audio: lambda b: BinaryContent(b.data, media_type=b.mime_type),
}
"""What Pydantic AI takes for each kind of content: text as itself, media as `BinaryContent`."""


class RegistryToolset(AbstractToolset[DepsT]):
    """The tools of a registry, as one Pydantic AI toolset.

    Args:
        registry: The tools to list and run, in the registry's order.
        make_call: Builds each call's call object from the run context, plain or `async`
            (`ctx.deps` is what the host passed to `agent.run(..., deps=...)`, `ctx.tool_name`
            the tool called); without it, the call object is the run's `deps`. A `ToolRefusal`
            it raises goes back to the model as text.
        strict: Strict mode for every tool the `openai-strict` profile can state; `False` lists
            every tool with its MCP schema and `strict=False`.
        id: The toolset's id, unique among an agent's toolsets; durable execution needs one.
        max_retries: How often a tool may ask the model to retry (when Pydantic AI refuses text
            that is no JSON); the agent's own setting if `None`.
    """

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        make_call: Callable[[RunContext[DepsT]], object] | None = None,
        strict: bool = True,
        id: str | None = None,  # noqa: A002 - the name every Pydantic AI toolset takes
        max_retries: int | None = None,
    ) -> None:
        """Keep the registry and the options; the tools are listed for each run step."""
        self.registry = registry
        self.make_call = make_call
        self.strict = strict
        self.max_retries = max_retries
        self._id = id

    @property
    def id(self) -> str | None:
        """The id given, or `None`."""
        return self._id

    async def get_tools(self, ctx: RunContext[DepsT]) -> dict[str, ToolsetTool[DepsT]]:
        """A definition of each tool the caller may use, from the registry's OpenAI listing."""
        retries = ctx.max_retries if self.max_retries is None else self.max_retries
        make_call = self.make_call
        shown = await offered(
            self.registry, (lambda: ctx.deps) if make_call is None else partial(make_call, ctx)
        )
        tools: dict[str, ToolsetTool[DepsT]] = {}
        for entry in self.registry.openai_tools(strict=self.strict):  # plain copies, ours
            if entry["name"] not in shown:
                continue
            definition = ToolDefinition(
                name=entry["name"],
                description=entry.get("description"),
                parameters_json_schema=entry["parameters"],
                strict=entry["strict"],
            )
            tools[definition.name] = ToolsetTool(
                toolset=self, tool_def=definition, max_retries=retries, args_validator=_ANY_JSON
            )
        return tools

    async def call_tool(
        self,
        name: str,
        tool_args: dict[str, Any],
        ctx: RunContext[DepsT],
        tool: ToolsetTool[DepsT],  # noqa: ARG002 - the registry knows the tool by its name
    ) -> str | list[str | BinaryContent]:
        """Run the tool through the registry: its result, or the refusal, as Pydantic AI's own.

        A call that needs approval, and was not approved yet, is deferred for the host to ask.
        """
        make_call = self.make_call
        made = (lambda: ctx.deps) if make_call is None else partial(make_call, ctx)
        approved = ctx.tool_call_approved
        result = await answer(self.registry, name, tool_args, made, approved=approved)
        if not approved and waits_for_approval(result):
            raise ApprovalRequired
        return shown(result, _BLOCKS)
