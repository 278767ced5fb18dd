"""adecore_tools.google_adk, driven offline through Google ADK's own `Runner`.

The model is a scripted `BaseLlm`: each turn it asks for the next function call of its script and
records the request ADK built, which is what Gemini would be sent (the declarations, and the
function responses of earlier turns). Sessions live in ADK's `InMemorySessionService`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any, ClassVar

import pytest
from adapter_tools import DEMO, Caller, whoami
from needs import missing

pytest.importorskip("google.adk", reason=missing("google.adk"))

from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_refusal_body,
)
from adecore_tools.google_adk import RegistryToolset

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer


class Scripted(BaseLlm):
    """A model that asks for its script's function calls, one a turn, then says "done"."""

    script: list[tuple[str, dict[str, Any]]]
    requests: ClassVar[list[LlmRequest]] = []

    async def generate_content_async(
        self,
        llm_request: LlmRequest,
        stream: bool = False,  # noqa: ARG002
    ) -> AsyncGenerator[LlmResponse, None]:
        Scripted.requests.append(llm_request)
        turn = sum(c.role == "model" for c in llm_request.contents)
        if turn < len(self.script):
            name, args = self.script[turn]
            call = types.FunctionCall(name=name, args=args, id=f"call-{turn}")
            part = types.Part(function_call=call)
        else:
            part = types.Part(text="done")
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def run_agent(
    toolset: RegistryToolset, script: list[tuple[str, dict[str, Any]]], state: Any = None
) -> list[types.FunctionResponse]:
    """Run an ADK agent on `script`; the function responses the model was sent, in order."""
    Scripted.requests.clear()
    agent = LlmAgent(name="notes", model=Scripted(model="scripted", script=script), tools=[toolset])

    async def run() -> list[types.FunctionResponse]:
        sessions = InMemorySessionService()
        runner = Runner(app_name="notes", agent=agent, session_service=sessions)
        session = await sessions.create_session(app_name="notes", user_id="ada", state=state)
        message = types.Content(role="user", parts=[types.Part(text="Keep my notes")])
        texts = []
        async for event in runner.run_async(
            user_id="ada", session_id=session.id, new_message=message
        ):
            texts += [p.text for p in (event.content.parts if event.content else []) if p.text]
        assert texts[-1] == "done"
        return [
            p.function_response
            for c in Scripted.requests[-1].contents
            for p in c.parts or []
            if p.function_response is not None
        ]

    return asyncio.run(run())


def declarations() -> dict[str, types.FunctionDeclaration]:
    (tool,) = Scripted.requests[0].config.tools
    return {d.name: d for d in tool.function_declarations}


def test_each_tool_is_declared_from_its_gemini_entry():
    run_agent(RegistryToolset(DEMO), [])
    shown = declarations()
    for entry in DEMO.gemini_tools():
        assert shown[entry["name"]] == types.FunctionDeclaration.model_validate(entry)


def test_a_good_call_comes_back_as_its_result():
    (response,) = run_agent(RegistryToolset(DEMO), [("greet", {"name": "Ada"})])
    assert response.response == {"result": "Hello, Ada"}
    assert response.id == "call-0"


def test_a_structured_result_comes_back_as_its_value():
    (response,) = run_agent(RegistryToolset(DEMO), [("task_get", {"title": "Report"})])
    assert response.response == {"result": {"title": "Report", "status": "open"}}


def test_a_bad_call_is_refused_and_the_model_corrects_it():
    script = [("greet", {"name": 5}), ("greet", {"name": "Ada"})]
    refused, corrected = run_agent(RegistryToolset(DEMO), script)
    assert set(refused.response) == {"error"}
    assert parse_refusal_body(refused.response["error"]).code == "bad-arguments"
    assert corrected.response == {"result": "Hello, Ada"}


def test_an_image_reaches_the_model_as_a_function_response_part():
    (response,) = run_agent(RegistryToolset(DEMO), [("screenshot", {})])
    assert response.response == {"result": ["The screen:", "Nothing else."]}
    (part,) = response.parts
    assert part.inline_data.data == b"\x89PNG..."
    assert part.inline_data.mime_type == "image/png"


def test_audio_reaches_the_model_as_a_function_response_part():
    (response,) = run_agent(RegistryToolset(DEMO), [("record", {})])
    (part,) = response.parts
    assert part.inline_data.data == b"RIFF....WAVE"
    assert part.inline_data.mime_type == "audio/wav"


def test_an_exception_that_is_no_refusal_is_not_sent_to_the_model():
    with pytest.raises(RuntimeError, match="the disk is full"):
        run_agent(RegistryToolset(DEMO), [("crash", {})])


def test_make_call_gets_the_tool_context_and_may_be_async():
    async def make_call(ctx: Any) -> Caller:
        return Caller(f"{ctx.state['user']}:{ctx.function_call_id}")

    registry = create_tool_registry([define_toolkit("who", [whoami])])
    toolset = RegistryToolset(registry, make_call=make_call)
    (response,) = run_agent(toolset, [("whoami", {})], state={"user": "ada"})
    assert response.response == {"result": "ada:call-0"}


def test_a_refusal_from_make_call_reaches_the_model():
    def make_call(ctx: Any) -> object:
        raise ToolRefusal("not-permitted", "Ada may not greet")

    toolset = RegistryToolset(DEMO, make_call=make_call)
    (response,) = run_agent(toolset, [("greet", {"name": "Ada"})])
    assert parse_refusal_body(response.response["error"]).code == "not-permitted"


def test_annotations_reach_the_tools_custom_metadata():
    toolset = RegistryToolset(DEMO)
    tools = asyncio.run(toolset.get_tools())
    assert [t.name for t in tools] == [t.name for t in DEMO.tools]
    for made, entry in zip(tools, DEMO.mcp_tools(), strict=True):
        assert made.custom_metadata == {"annotations": entry.get("annotations")}
