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
from approval_tools import Careful
from approval_tools import ran as deleted
from approval_tools import registry as approval_registry
from needs import missing
from scoped_tools import READER, WRITER
from scoped_tools import Caller as Holder
from scoped_tools import registry as scoped

pytest.importorskip("google.adk", reason=missing("google.adk"))

from google.adk.agents import LlmAgent
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.events import Event
from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_refusal_body,
    tool,
)
from adecore_tools.google_adk import RegistryToolset

REQUEST_CONFIRMATION = "adk_request_confirmation"
"""The name of the function call by which ADK asks the user to confirm a tool's call."""

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


class Session:
    """An ADK agent whose model follows `script`, in a session of its own, turn by turn."""

    def __init__(
        self, toolset: RegistryToolset, script: list[tuple[str, dict[str, Any]]], state: Any
    ) -> None:
        Scripted.requests.clear()
        model = Scripted(model="scripted", script=script)
        agent = LlmAgent(name="notes", model=model, tools=[toolset])
        self.sessions = InMemorySessionService()
        self.runner = Runner(app_name="notes", agent=agent, session_service=self.sessions)
        self.state = state
        self.id: str | None = None

    async def send(self, *parts: types.Part) -> list[Event]:
        """The events of one turn of the user's, which sends `parts`."""
        if self.id is None:
            made = await self.sessions.create_session(
                app_name="notes", user_id="ada", state=self.state
            )
            self.id = made.id
        message = types.Content(role="user", parts=list(parts))
        return [
            event
            async for event in self.runner.run_async(
                user_id="ada", session_id=self.id, new_message=message
            )
        ]


def told() -> list[types.FunctionResponse]:
    """The function responses the model was last sent, in order."""
    return [
        p.function_response
        for c in Scripted.requests[-1].contents
        for p in c.parts or []
        if p.function_response is not None
    ]


def said(events: list[Event]) -> list[str]:
    return [p.text for e in events for p in (e.content.parts if e.content else []) if p.text]


def run_agent(
    toolset: RegistryToolset, script: list[tuple[str, dict[str, Any]]], state: Any = None
) -> list[types.FunctionResponse]:
    """Run an ADK agent on `script`; the function responses the model was sent, in order."""
    session = Session(toolset, script, state)
    events = asyncio.run(session.send(types.Part(text="Keep my notes")))
    assert said(events)[-1] == "done"
    return told()


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


def test_make_call_gets_the_context_to_list_then_the_tool_context_and_may_be_async():
    made: list[str | None] = []

    async def make_call(ctx: ReadonlyContext) -> Caller:
        made.append(ctx.function_call_id if isinstance(ctx, ToolContext) else None)
        return Caller(f"{ctx.state['user']}:{made[-1]}")

    registry = create_tool_registry([define_toolkit("who", [whoami])])
    toolset = RegistryToolset(registry, make_call=make_call)
    (response,) = run_agent(toolset, [("whoami", {})], state={"user": "ada"})
    assert response.response == {"result": "ada:call-0"}
    assert made == [None, "call-0"]  # to list the tools for the user's turn, then for the call


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


def test_only_the_tools_the_caller_may_use_are_declared():
    def make_call(ctx: ReadonlyContext) -> Holder:
        return Holder(frozenset(ctx.state["scopes"]))

    toolset = RegistryToolset(scoped, make_call=make_call)
    (response,) = run_agent(toolset, [("note_read", {"title": "a"})], {"scopes": ["notes:read"]})
    assert list(declarations()) == ["note_read"]
    assert response.response == {"result": "read a"}
    every = {"scopes": ["notes:read", "notes:write"]}
    (response,) = run_agent(toolset, [("note_write", {"title": "a"})], every)
    assert list(declarations()) == ["note_read", "note_write"]
    assert response.response == {"result": "wrote a"}


def test_a_hidden_tool_is_answered_as_a_tool_that_does_not_exist():
    toolset = RegistryToolset(scoped, make_call=lambda _: READER)
    script = [("note_write", {"title": "a"}), ("note_erase", {"title": "a"})]
    hidden, absent = run_agent(toolset, script)
    assert "note_write" not in declarations()
    assert hidden.response == {"error": absent.response["error"].replace("erase", "write")}
    assert hidden.response["error"].count("note_write") == 1  # the name called, no more


def test_a_tool_hidden_since_it_was_listed_is_refused_as_unknown():
    def make_call(ctx: ReadonlyContext) -> Holder:
        return READER if isinstance(ctx, ToolContext) else WRITER

    toolset = RegistryToolset(scoped, make_call=make_call)
    (response,) = run_agent(toolset, [("note_write", {"title": "a"})])
    refusal = parse_refusal_body(response.response["error"])
    assert refusal.code == "unknown-tool"
    assert "note_write" not in response.response["error"].partition("\n")[2]


@tool("slow", idempotent=True, timeout=0.05)
async def nap(seconds: float) -> str:
    """Sleep a while."""
    await asyncio.sleep(seconds)
    return "awake"


def test_a_tool_past_its_time_limit_is_refused_and_the_loop_goes_on():
    toolset = RegistryToolset(create_tool_registry([define_toolkit("slow", [nap])]))
    timed_out, then = run_agent(toolset, [("nap", {"seconds": 30}), ("nap", {"seconds": 0})])
    assert parse_refusal_body(timed_out.response["error"]).code == "timed-out"
    assert then.response == {"result": "awake"}


def asked_then(confirmed: bool) -> tuple[list[types.FunctionResponse], list[str]]:
    """A call the user must approve, asked about and answered; what the model read, and said."""
    deleted.clear()
    toolset = RegistryToolset(approval_registry, make_call=lambda _: Careful())
    session = Session(toolset, [("note_delete", {"title": "draft"})], None)
    paused = asyncio.run(session.send(types.Part(text="Delete the draft")))
    asks = [c for e in paused for c in e.get_function_calls() if c.name == REQUEST_CONFIRMATION]
    (ask,) = asks
    assert ask.args["originalFunctionCall"]["name"] == "note_delete"
    assert deleted == []
    assert len(Scripted.requests) == 1  # the model waits for the user
    answer = types.FunctionResponse(id=ask.id, name=ask.name, response={"confirmed": confirmed})
    resumed = asyncio.run(session.send(types.Part(function_response=answer)))
    return told(), said(resumed)


def test_approved_the_tool_runs_exactly_once():
    (response,), words = asked_then(confirmed=True)
    assert deleted == ["draft"]
    assert response.response == {"result": "deleted draft"}
    assert words == ["done"]


def test_rejected_it_never_runs_and_the_model_is_told():
    (response,), words = asked_then(confirmed=False)
    assert deleted == []
    refusal = parse_refusal_body(response.response["error"])
    assert refusal.code == "not-approved"
    assert "not run" in refusal.message
    assert words == ["done"]


def test_a_call_that_needs_no_approval_runs_without_asking():
    deleted.clear()
    toolset = RegistryToolset(approval_registry, make_call=lambda _: Careful())
    (response,) = run_agent(toolset, [("note_read", {"title": "a"})])
    assert response.response == {"result": "read a"}


def test_bad_arguments_are_refused_without_asking():
    deleted.clear()
    toolset = RegistryToolset(approval_registry, make_call=lambda _: Careful())
    (response,) = run_agent(toolset, [("note_delete", {"title": 3})])
    assert parse_refusal_body(response.response["error"]).code == "bad-arguments"
    assert deleted == []
