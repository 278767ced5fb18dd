"""A call past its time limit reaches the model as `timed-out`, and the agent's loop goes on.

Each with the framework's own loop and a scripted model: OpenAI Agents and Pydantic AI (the
LangChain and ADK adapters' own test files hold theirs).
"""

# ruff: noqa: PLC0415 - each test imports its framework, which the other test may lack

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from adecore_tools import create_tool_registry, define_toolkit, parse_refusal_body, tool

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer


@tool("slow", timeout=0.05)
async def nap() -> str:
    """Sleep far past the limit."""
    await asyncio.sleep(30)
    return "woke"


@tool("slow")
async def echo(text: str) -> str:
    """Say the text back."""
    return text


SLOW = create_tool_registry([define_toolkit("slow", [nap, echo])])


def test_openai_agents_reads_timed_out_and_calls_on():
    pytest.importorskip("agents")
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    from adecore_tools.openai_agents import agent_tools

    model = ScriptedModel(
        [
            [function_call("nap", {}, call_id="c1")],
            [function_call("echo", {"text": "after"}, call_id="c2")],
            [assistant_message("done")],
        ]
    )
    agent = Agent(name="slow", model=model, tools=agent_tools(SLOW))
    result = asyncio.run(Runner.run(agent, "go", run_config=RunConfig(tracing_disabled=True)))
    timed_out, then = [i.output for i in result.new_items if i.type == "tool_call_output_item"]
    refusal = parse_refusal_body(timed_out)
    assert (refusal.code, "nap" in refusal.message) == ("timed-out", True)
    assert (then, result.final_output) == ("after", "done")


@pytest.mark.skipif(sys.version_info < (3, 11), reason="Pydantic AI needs Python 3.11")
def test_pydantic_ai_reads_timed_out_and_calls_on():
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from adecore_tools.pydantic_ai import RegistryToolset

    returned: list[Any] = []

    def script(messages: list[Any], _info: AgentInfo) -> ModelResponse:
        returned.extend(
            part.content for part in messages[-1].parts if isinstance(part, ToolReturnPart)
        )
        step = len(messages) // 2
        if step == 0:
            return ModelResponse(parts=[ToolCallPart("nap", {}, tool_call_id="c1")])
        if step == 1:
            return ModelResponse(parts=[ToolCallPart("echo", {"text": "after"}, tool_call_id="c2")])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(script), toolsets=[RegistryToolset(SLOW)])
    result = asyncio.run(agent.run("go"))
    timed_out, then = returned
    refusal = parse_refusal_body(timed_out)
    assert (refusal.code, "nap" in refusal.message) == ("timed-out", True)
    assert (then, result.output) == ("after", "done")
