"""A registry's tools as one Google ADK toolset: `RegistryToolset(registry)` for an `LlmAgent`.

    pip install 'adecore_tools[google-adk]'

The toolset gives ADK one tool per registry tool, declared from the tool's `gemini` entry, and
runs each call through the registry:

    agent = LlmAgent(name="notes", model="gemini-2.5-flash", tools=[RegistryToolset(registry)])

- **Declarations.** Each tool's `FunctionDeclaration` is its `gemini_tools()` entry: Gemini's
  own schema (`parameters`) where it can state the tool, else the JSON Schema
  (`parametersJsonSchema`), which ADK passes on as it is.
- **Who sees what.** ADK lists the tools once for each turn of the user's, with its
  `ReadonlyContext`: the model is declared only the tools the caller `make_call` builds from it
  may use (`ToolCall.may_use`). ADK answers a call of another as a call of a name it does not
  know.
- **A call.** ADK hands over the arguments as a dict; they go to the registry, which checks them.
  The call object is what `make_call` (plain or `async`) builds from ADK's tool context
  (`ctx.state`, `ctx.function_call_id`, `ctx.user_id`, ...), for each call; without it there is
  none.
- **Approval.** A call whose call object needs approval (`ToolCall.needs_approval`) is not run:
  it asks for ADK's tool confirmation, and the turn ends with an `adk_request_confirmation`
  call for the host. The host answers with a `FunctionResponse` holding `{"confirmed": ...}`:
  confirmed, the call runs, once; rejected, it never runs, and the model reads the
  `not-approved` refusal.
- **What the model gets back.** ADK's function response: `{"result": text}`, or
  `{"result": value}` for a structured value; an image or audio goes as the response's own
  media part, the text blocks around it in `result`. A `ToolRefusal`, from the arguments, the
  tool or `make_call`, is ADK's error result, `{"error": refusal_body}`, which says what to fix;
  a tool past its time limit is one (`timed-out`), and the run goes on. Any other exception is
  raised to ADK, which ends the run with it.
- **Annotations.** `tool.custom_metadata["annotations"]` holds the MCP annotations.

This module imports ADK; `import adecore_tools` does not import this module.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any, TypeAlias

try:
    from google.adk.agents.readonly_context import ReadonlyContext
    from google.adk.tools.base_tool import BaseTool
    from google.adk.tools.base_toolset import BaseToolset
    from google.adk.tools.tool_context import ToolContext
    from google.genai import types
except ModuleNotFoundError as _missing:
    # `google`, `google.adk` or a module of it where it is no package; any other name: ADK is
    # there, but not all it needs
    if not re.fullmatch(r"google(\.adk(\..*)?)?", _missing.name or ""):
        raise
    raise ModuleNotFoundError(
        "adecore_tools.google_adk needs Google ADK: pip install 'adecore_tools[google-adk]'",
        name=_missing.name,
    ) from _missing

from ._host.seam import (
    NOT_APPROVED,
    Audio,
    GeminiFunction,
    Image,
    Text,
    ToolRegistry,
    ToolResult,
    answer,
    not_approved,
    offered,
    shown,
    waits_for_approval,
)

__all__ = ["NOT_APPROVED", "MakeCall", "RegistryToolset"]

MakeCall: TypeAlias = Callable[[ReadonlyContext], object]
"""Builds the call object from ADK's context (`ctx.user_id`, `ctx.state`); it may be `async`.

Asked which tools to offer for a model request, it gets ADK's `ReadonlyContext`; for a call, the
call's `ToolContext`, a `ReadonlyContext` that also says which call it is
(`ctx.function_call_id`). A `ToolRefusal` it raises goes back to the model as the tool's error
result.
"""


def _part(block: Image | Audio) -> types.Part:
    return types.Part.from_bytes(data=block.data, mime_type=block.mime_type)


_BLOCKS: dict[type[Any], Callable[[Any], object]] = {
    Text: lambda b: b.text,
    Image: _part,
    Audio: _part,
}
"""What ADK takes for each kind of content: text as itself, media as a part it sends as such."""


class RegistryToolset(BaseToolset):
    """The tools of a registry, as one ADK toolset.

    Args:
        registry: The tools to declare and run, in the registry's order.
        make_call: Builds the call object, plain or `async`: from ADK's `ReadonlyContext` to
            list the tools for a turn, from the call's `ToolContext` to run a call; without it,
            a call has no call object and every tool is listed.
    """

    def __init__(self, registry: ToolRegistry, *, make_call: MakeCall | None = None) -> None:
        """Keep the registry; its tools are made once, when first listed."""
        super().__init__()
        self.registry = registry
        self.make_call = make_call
        self._tools: list[BaseTool] | None = None

    async def get_tools(self, readonly_context: ReadonlyContext | None = None) -> list[BaseTool]:
        """An ADK tool for each tool the caller may use, in the registry's order.

        The caller is the call object `make_call` builds from `readonly_context`; without
        either, every tool. The tools are made once, when first listed.
        """
        if self._tools is None:
            listed = zip(self.registry.gemini_tools(), self.registry.mcp_tools(), strict=True)
            self._tools = [_RegistryTool(self, entry, mcp) for entry, mcp in listed]
        if readonly_context is None or self.make_call is None:
            return list(self._tools)
        shown = await offered(self.registry, partial(self.make_call, readonly_context))
        return [t for t in self._tools if t.name in shown]


class _RegistryTool(BaseTool):
    """One tool of a registry: declared from its `gemini` entry, run by the registry."""

    def __init__(
        self, toolset: RegistryToolset, entry: GeminiFunction, mcp: dict[str, Any]
    ) -> None:
        super().__init__(
            name=mcp["name"],
            description=mcp["description"],
            custom_metadata={"annotations": mcp.get("annotations")},
        )
        self._toolset = toolset
        self._declaration = types.FunctionDeclaration.model_validate(entry)

    def _get_declaration(self) -> types.FunctionDeclaration:
        return self._declaration.model_copy(deep=True)

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        """Run the call through the registry: `{"result": ...}`, or `{"error": refusal_body}`.

        A call that needs approval asks ADK for the person's confirmation, and is not run;
        ADK runs it again with the answer: confirmed, it runs approved, else it never runs.
        """
        confirmation = tool_context.tool_confirmation
        if confirmation is not None and not confirmation.confirmed:
            result = ToolResult.refused(not_approved(self.name))
        else:
            make_call = self._toolset.make_call
            made = (lambda: None) if make_call is None else partial(make_call, tool_context)
            # ADK hands back a confirmation only for a call this tool asked about
            approved = confirmation is not None
            result = await answer(self._toolset.registry, self.name, args, made, approved=approved)
            if waits_for_approval(result):
                hint = f"Approve or reject this call of {self.name!r}: it runs only if approved."
                tool_context.request_confirmation(hint=hint)
                # the model waits for the person: ADK asks them, not the model
                tool_context.actions.skip_summarization = True
        if result.is_error:
            return {"error": result.text}
        if result.structured is not None:
            return {"result": result.structured}
        return {"result": shown(result, _BLOCKS)}
