"""Approval through Pydantic AI: an approval-required deferred call, answered by the host.

A whole `agent.run` whose model is Pydantic AI's `FunctionModel`: no network, no model.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from needs import missing

pytest.importorskip("pydantic_ai", reason=missing("pydantic_ai"))

from approval_tools import Careful, registry
from approval_tools import ran as deleted
from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults, ToolDenied
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from adecore_tools.pydantic_ai import RegistryToolset

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer


@pytest.fixture(autouse=True)
def _clear() -> None:
    deleted.clear()


def script(name: str, args: Any) -> FunctionModel:
    """One call of `name`, then "done" once a tool's answer came back."""

    def model(messages: list[ModelMessage], _info: AgentInfo) -> ModelResponse:
        if not any(isinstance(m, ModelResponse) for m in messages):
            return ModelResponse(parts=[ToolCallPart(tool_name=name, args=args, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    return FunctionModel(model)


def returned(messages: list[ModelMessage]) -> list[Any]:
    return [
        part.content
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def agent_for(name: str, args: Any) -> Agent[Any, str | DeferredToolRequests]:
    return Agent(
        script(name, args),
        toolsets=[RegistryToolset(registry)],
        output_type=[str, DeferredToolRequests],
    )


def paused_then(answer: bool | ToolDenied) -> tuple[Any, list[Any]]:
    agent = agent_for("note_delete", {"title": "draft"})

    async def go() -> Any:
        first = await agent.run("Delete the draft", deps=Careful())
        assert isinstance(first.output, DeferredToolRequests)
        assert [c.tool_name for c in first.output.approvals] == ["note_delete"]
        assert deleted == []
        answers = {c.tool_call_id: answer for c in first.output.approvals}
        return await agent.run(
            message_history=first.all_messages(),
            deps=Careful(),
            deferred_tool_results=DeferredToolResults(approvals=answers),
        )

    result = asyncio.run(go())
    return result.output, returned(result.all_messages())


def test_approved_the_tool_runs_exactly_once() -> None:
    output, told = paused_then(answer=True)
    assert deleted == ["draft"]
    assert told == ["deleted draft"]
    assert output == "done"


def test_rejected_it_never_runs_and_the_model_is_told() -> None:
    output, told = paused_then(answer=ToolDenied("The user said no."))
    assert deleted == []
    assert told == ["The user said no."]
    assert output == "done"


def test_a_call_that_needs_no_approval_runs_without_a_pause() -> None:
    result = asyncio.run(agent_for("note_read", {"title": "a"}).run("Read", deps=Careful()))
    assert result.output == "done"
    assert returned(result.all_messages()) == ["read a"]


def test_bad_arguments_are_refused_without_asking() -> None:
    result = asyncio.run(agent_for("note_delete", {"title": 3}).run("Delete", deps=Careful()))
    assert result.output == "done"
    assert returned(result.all_messages())[0].startswith("refused\tbad-arguments")
    assert deleted == []
