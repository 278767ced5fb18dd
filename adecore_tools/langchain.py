"""A registry's tools as LangChain tools: `langchain_tools(registry)` for LangChain and LangGraph.

    pip install 'adecore_tools[langchain]'

Each tool becomes a `StructuredTool` with the tool's name, description and input schema, for
LangChain's `create_agent`, LangGraph's `ToolNode` or a chat model's `bind_tools`:

    agent = create_agent(model, langchain_tools(registry))
    await agent.ainvoke({"messages": [("user", "Write down: buy milk")]}, context=call)

- **One validator.** The schema goes to LangChain as a JSON Schema dict, which LangChain passes
  through unchecked: the registry checks the arguments, and its refusal says what to fix.
- **Strict mode.** A tool's schema is its `openai-strict` one (every field required, a field that
  may be left out nullable) wherever that profile can state it, so that `bind_tools(...,
  strict=True)` sends a schema OpenAI takes; `tool.metadata["strict"]` says which. A tool it
  cannot state (one with a record, `dict[str, X]`) has its MCP schema. `strict=False` gives every
  tool its MCP schema.
- **A call.** The call object is the run's `context` (`agent.ainvoke(..., context=...)`), or what
  `make_call` (plain or `async`) builds from LangGraph's `ToolRuntime` (outside a graph, one that
  holds the run's `RunnableConfig` alone). The tools are async:
  run the agent with `ainvoke` or `astream`.
- **What the model gets back.** A `ToolMessage`: the result's text, with a structured value as the
  message's `artifact`; a result with an image as LangChain's text and image blocks (audio or a
  resource, for which a tool message has no block, as a line saying it cannot be shown). A
  `ToolRefusal`, from the arguments, the tool or `make_call`, is a `ToolMessage` with
  `status="error"` holding its `refusal_body`, which the tool itself returns: it reaches the model
  however `ToolNode`'s `handle_tool_errors` is set. Any other exception is raised, not sent.
- **Who sees what.** `RegistryMiddleware(registry, make_call=...)`, for
  `create_agent(model, middleware=[...])`, brings the tools and offers each model call only
  those the run's caller may use (`ToolCall.may_use`). In a graph of your own, list
  `langchain_tools(registry.visible_to(call))` per caller. A call of a tool the caller may not
  use is refused as an unknown tool, as if it did not exist.
- **Approval.** A call whose call object needs approval (`ToolCall.needs_approval`) pauses the
  graph with LangChain's human-in-the-loop request (`HumanInTheLoopMiddleware`'s `HITLRequest`,
  decisions `approve` and `reject`); the graph needs a checkpointer. The host resumes with
  `Command(resume={"decisions": [{"type": "approve"}]})`: the tool runs once; or with a
  `reject` (and its `message`): it never runs, and the model reads the `not-approved` refusal.
  Invoked outside a graph, nothing can pause: the model reads the `needs-approval` refusal.
- **Time limits.** A tool past its `timeout` is the `timed-out` refusal, and the run goes on.
- **Annotations.** `tool.metadata["annotations"]` holds the MCP annotations (`readOnlyHint`, ...).

This module imports LangChain and LangGraph; `import adecore_tools` does not import this module.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Annotated, Any, TypeAlias, cast

try:
    from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
    from langchain_core.messages import content as blocks
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import BaseTool, InjectedToolArg, StructuredTool, ToolException
    from langgraph.config import get_config
    from langgraph.prebuilt import ToolRuntime
    from langgraph.types import interrupt
except ModuleNotFoundError as _missing:
    # `langchain_core.messages` where `langchain_core` is no package; any other name: LangChain is
    # there, but not all it needs
    if (_missing.name or "").partition(".")[0] not in ("langchain", "langchain_core", "langgraph"):
        raise
    raise ModuleNotFoundError(
        "adecore_tools.langchain needs LangChain: pip install 'adecore_tools[langchain]'",
        name=_missing.name,
    ) from _missing

from ._host.seam import (
    Image,
    OpenAITool,
    Text,
    ToolRegistry,
    ToolResult,
    answer,
    not_approved,
    offered,
    shown,
    waits_for_approval,
)

__all__ = ["MakeCall", "RegistryMiddleware", "langchain_tools"]

MakeCall: TypeAlias = Callable[[ToolRuntime[Any, Any]], object]
"""Builds the call object of one call from LangGraph's tool runtime; it may be `async`.

`runtime.context` is what the host passed to `agent.ainvoke(..., context=...)`; `.state`,
`.config`, `.tool_call_id` and `.store` are there too. A tool invoked outside a graph gets a
runtime holding the run's `config` alone. A `ToolRefusal` it raises goes back to the model as the
tool's error message.
"""

_FILLED = ("runtime", "config", "run_manager")
"""Arguments LangChain and LangGraph fill themselves: a field of that name would be overwritten."""

_BLOCKS: dict[type[Any], Callable[[Any], Any]] = {
    Text: lambda b: blocks.create_text_block(b.text),
    Image: lambda b: blocks.create_image_block(
        base64=base64.b64encode(b.data).decode(), mime_type=b.mime_type
    ),
}
"""LangChain's own block for each kind of content a tool message takes: no audio (langchain-core
turns a tool's content with an audio block into its JSON text)."""


def _no_stream(_: object) -> None:
    """Where a tool invoked outside a graph streams: nowhere."""


class _Refused(ToolException):
    """A refusal on its way to LangChain, which returns it as the tool's error message."""


def _refusal_text(error: ToolException) -> str:
    if not isinstance(error, _Refused):  # a tool's own `ToolException` is no refusal
        raise error
    return str(error)


def langchain_tools(
    registry: ToolRegistry, *, make_call: MakeCall | None = None, strict: bool = True
) -> list[BaseTool]:
    """One `StructuredTool` per tool of `registry`, in the registry's order.

    `ValueError` for a tool with a field LangChain fills itself (`runtime`, `config`,
    `run_manager`): the model's value would never reach the tool.

    Args:
        registry: The tools to hand over.
        make_call: Builds each call's call object from LangGraph's `ToolRuntime`; without it,
            the call object is the run's `context`.
        strict: The `openai-strict` schema for every tool that profile can state; `False`
            gives every tool its MCP schema.
    """
    listed = zip(registry.openai_tools(strict=strict), registry.mcp_tools(), strict=True)
    return [_structured_tool(registry, entry, mcp, make_call) for entry, mcp in listed]


class RegistryMiddleware(AgentMiddleware[Any, Any, Any]):
    """A registry for `create_agent(model, middleware=[...])`: its tools, offered per caller.

    `.tools` are `langchain_tools(registry, make_call=..., strict=...)`, which the agent adds
    to its own. Before each model call, the tools the run's caller may not use
    (`ToolCall.may_use`) are taken out of what the model is offered; the call object is the
    run's `context`, or what `make_call` builds from a `ToolRuntime` whose `tool_call_id` is
    `None` (no call is made yet) and whose `config` is empty on Python 3.10, where LangGraph
    cannot give async code the run's config. A call of a hidden tool is still refused as an
    unknown tool. The agent runs with `ainvoke` or `astream`, as the tools need.
    """

    def __init__(
        self, registry: ToolRegistry, *, make_call: MakeCall | None = None, strict: bool = True
    ) -> None:
        """The middleware of `registry`'s tools; `make_call` and `strict` as `langchain_tools`."""
        super().__init__()
        self.registry = registry
        self.make_call = make_call
        tools = langchain_tools(registry, make_call=make_call, strict=strict)
        self.tools: Sequence[BaseTool] = tools

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        """Offer the model only this caller's tools of the registry, and the agent's others."""
        runtime = ToolRuntime[Any, Any](
            state=request.state,
            context=request.runtime.context,
            config=_config(),
            stream_writer=request.runtime.stream_writer,
            tool_call_id=None,
            store=request.runtime.store,
        )
        names = await offered(self.registry, _maker(self.make_call, runtime))
        hidden = {id(t) for t in self.tools if t.name not in names}
        tools = [t for t in request.tools if id(t) not in hidden]
        return await handler(request.override(tools=tools))


def _config() -> RunnableConfig:
    """The run's config, where LangGraph can tell it: not in async code on Python 3.10."""
    try:
        return get_config()
    except RuntimeError:  # Python 3.10's tasks do not carry LangGraph's config along
        return RunnableConfig()


def _structured_tool(
    registry: ToolRegistry,
    entry: OpenAITool,
    mcp: dict[str, Any],
    make_call: MakeCall | None,
) -> StructuredTool:
    name: str = entry["name"]
    for field in _FILLED:
        if field in entry["parameters"]["properties"]:
            msg = (
                f"tool {name!r} has a field named {field!r}, which LangChain fills itself; "
                "rename the field to offer the tool to LangChain"
            )
            raise ValueError(msg)

    async def run(
        *,
        runtime: Annotated[ToolRuntime[Any, Any] | None, InjectedToolArg()] = None,
        config: RunnableConfig,
        **arguments: Any,
    ) -> tuple[Any, Any]:
        in_graph = runtime is not None  # LangGraph injects its runtime: a graph can pause
        if runtime is None:  # invoked outside a graph: a runtime around the run's config alone
            runtime = ToolRuntime(
                state=None,
                context=None,
                config=config,
                stream_writer=_no_stream,
                tool_call_id=None,
                store=None,
            )
        made = _maker(make_call, runtime)
        result = await answer(registry, name, arguments, made)
        if in_graph and waits_for_approval(result):
            result = await _asked(registry, name, arguments, made)
        if result.is_error:
            raise _Refused(result.text)
        return shown(result, _BLOCKS), result.structured

    return StructuredTool(
        name=name,
        description=mcp["description"],
        args_schema=entry["parameters"],  # a plain copy, ours to give
        coroutine=run,
        response_format="content_and_artifact",
        handle_tool_error=_refusal_text,
        metadata={"strict": entry["strict"], "annotations": mcp.get("annotations")},
    )


def _maker(make_call: MakeCall | None, runtime: ToolRuntime[Any, Any]) -> Callable[[], object]:
    """What builds the call object: `make_call` given the runtime, or the run's `context`."""
    if make_call is not None:
        return partial(make_call, runtime)
    return lambda: runtime.context


_DECISIONS = ("approve", "reject")
"""What the person may answer: LangChain's human-in-the-loop decisions that fit a yes or no."""


async def _asked(
    registry: ToolRegistry, name: str, arguments: dict[str, Any], made: Callable[[], object]
) -> ToolResult:
    """Pause the graph for the person with LangChain's human-in-the-loop request; act on it.

    LangGraph runs the tool again from its start once resumed: the call is asked about again,
    and `interrupt` then returns the person's answer instead of pausing.
    """
    description = f"Tool execution requires approval\n\nTool: {name}\nArgs: {arguments}"
    answered = interrupt(
        {
            "action_requests": [{"name": name, "args": arguments, "description": description}],
            "review_configs": [{"action_name": name, "allowed_decisions": list(_DECISIONS)}],
        }
    )
    approved, said = _decision(name, answered)
    if approved:
        return await answer(registry, name, arguments, made, approved=True)
    return ToolResult.refused(not_approved(name, said))


def _decision(name: str, answered: object) -> tuple[bool, str | None]:
    """Whether the person approved, and what they said, from one decision or a list of one.

    LangChain's middleware is answered `{"decisions": [decision]}`; a decision alone is taken
    too. Anything else is the host's mistake, and raises: it never runs the tool.
    """
    one = answered
    if isinstance(answered, dict):
        decisions = cast("dict[str, object]", answered).get("decisions", [one])
        listed = cast("list[object]", decisions) if isinstance(decisions, list) else []
        one = listed[0] if len(listed) == 1 else None
    if isinstance(one, dict):
        decision = cast("dict[str, object]", one)
        if decision.get("type") in _DECISIONS:
            said = decision.get("message")
            return decision["type"] == "approve", None if said is None else str(said)
    msg = (
        f"the answer to the approval of tool {name!r} is {answered!r}; resume with "
        "Command(resume={'decisions': [{'type': 'approve'}]}), or a 'reject' decision"
    )
    raise ValueError(msg)
