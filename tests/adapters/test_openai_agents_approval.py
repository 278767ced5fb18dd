"""Approval through the OpenAI Agents SDK: the run pauses, then the host approves or rejects.

A whole `Runner.run` with the SDK's `ScriptedModel`; tracing off, nothing sent anywhere.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from needs import missing

pytest.importorskip("agents", reason=missing("agents"))

from agents import Agent, RunConfig, Runner
from agents.testing import ScriptedModel, assistant_message, function_call
from approval_tools import Careful, registry
from approval_tools import ran as deleted

from adecore_tools.openai_agents import agent_tools

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

CONFIG = RunConfig(tracing_disabled=True)


@pytest.fixture(autouse=True)
def _clear() -> None:
    deleted.clear()


def model_for(name: str) -> ScriptedModel:
    return ScriptedModel(
        [[function_call(name, {"title": "draft"}, call_id="c1")], [assistant_message("Done.")]]
    )


def outputs(result: Any) -> list[Any]:
    return [item.output for item in result.new_items if item.type == "tool_call_output_item"]


def paused_then(decide: str) -> tuple[Any, ScriptedModel]:
    model = model_for("note_delete")
    agent = Agent(name="notes", model=model, tools=agent_tools(registry))

    async def go() -> Any:
        first = await Runner.run(agent, "Delete draft", context=Careful(), run_config=CONFIG)
        assert [i.tool_name for i in first.interruptions] == ["note_delete"]
        assert deleted == []
        state = first.to_state()
        for item in first.interruptions:
            getattr(state, decide)(item)
        return await Runner.run(agent, state, run_config=CONFIG)

    return asyncio.run(go()), model


def test_approved_the_tool_runs_exactly_once() -> None:
    result, _ = paused_then("approve")
    assert deleted == ["draft"]
    assert outputs(result) == ["deleted draft"]
    assert result.final_output == "Done."


def test_rejected_it_never_runs_and_the_model_is_told() -> None:
    result, model = paused_then("reject")
    assert deleted == []
    told = [
        item["output"]
        for item in model.calls[-1].input
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]
    assert told == ["Tool execution was not approved."]  # the SDK's own words
    assert outputs(result) == told
    assert result.final_output == "Done."


def test_make_call_builds_the_call_that_is_asked() -> None:
    made: list[str] = []

    def make_call(ctx: Any) -> Careful:
        made.append(ctx.tool_call_id)
        return Careful(user=ctx.context)

    model = model_for("note_delete")
    agent = Agent(name="notes", model=model, tools=agent_tools(registry, make_call=make_call))

    async def go() -> Any:
        first = await Runner.run(agent, "Delete", context="bob", run_config=CONFIG)
        assert len(first.interruptions) == 1
        state = first.to_state()
        state.approve(first.interruptions[0])
        return await Runner.run(agent, state, run_config=CONFIG)

    result = asyncio.run(go())
    assert outputs(result) == ["deleted draft"]
    assert deleted == ["draft"]
    assert "c1" in made


def test_a_call_that_needs_no_approval_runs_without_a_pause() -> None:
    model = model_for("note_read")
    agent = Agent(name="notes", model=model, tools=agent_tools(registry))
    result = asyncio.run(Runner.run(agent, "Read", context=Careful(), run_config=CONFIG))
    assert result.interruptions == []
    assert outputs(result) == ["read draft"]


def test_bad_arguments_are_refused_without_asking() -> None:
    model = ScriptedModel(
        [[function_call("note_delete", {"title": 3}, call_id="c1")], [assistant_message("Ok.")]]
    )
    agent = Agent(name="notes", model=model, tools=agent_tools(registry))
    result = asyncio.run(Runner.run(agent, "Delete", context=Careful(), run_config=CONFIG))
    assert result.interruptions == []
    assert outputs(result)[0].startswith("refused\tbad-arguments")
    assert deleted == []
    assert json.dumps(outputs(result))
