"""adecore_tools.langchain, driven offline through LangChain's own agent loop (`create_agent`).

The model is a scripted chat model: each turn it asks for the next tool call of its script, and it
records the messages it was sent, which is what a real model would read. LangGraph's `ToolNode`
runs the tools, with the error handling it is given.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from adapter_tools import DEMO, RESULTS, STRICT, UNSHOWN_AUDIO, Caller, whoami
from approval_tools import Careful
from approval_tools import ran as deleted
from approval_tools import registry as careful
from needs import missing
from scoped_tools import READER, WRITER
from scoped_tools import Caller as Scoped
from scoped_tools import registry as scoped

pytest.importorskip("langchain", reason=missing("langchain"))

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_refusal_body,
    tool,
    tool_input_schema,
)
from adecore_tools.langchain import RegistryMiddleware, langchain_tools

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer


class Scripted(BaseChatModel):
    """A chat model that asks for its script's tool calls, one a turn, then says "done"."""

    script: list[tuple[str, dict[str, Any]]]
    seen: list[list[BaseMessage]] = []  # noqa: RUF012 - pydantic copies it per model
    offered: list[list[str]] = []  # noqa: RUF012 - the names of the tools of each model call

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Scripted:  # noqa: ARG002
        self.offered.append([t.name for t in tools])
        return self

    def _generate(self, messages: list[BaseMessage], *_: Any, **__: Any) -> ChatResult:
        self.seen.append(list(messages))
        turn = sum(isinstance(m, AIMessage) for m in messages)
        if turn < len(self.script):
            name, args_ = self.script[turn]
            reply = AIMessage("", tool_calls=[{"name": name, "args": args_, "id": f"call-{turn}"}])
        else:
            reply = AIMessage("done")
        return ChatResult(generations=[ChatGeneration(message=reply)])


def run_agent(
    tools: list[BaseTool], script: list[tuple[str, dict[str, Any]]], **options: Any
) -> list[ToolMessage]:
    """Run a LangChain agent on `script`; the tool messages the model was sent, in order."""
    model = Scripted(script=script)
    agent = create_agent(model, tools)
    state = asyncio.run(agent.ainvoke({"messages": [("user", "Keep my notes")]}, **options))
    assert state["messages"][-1].content == "done"
    return [m for m in state["messages"] if isinstance(m, ToolMessage)]


def test_each_tool_gets_its_name_description_and_schema_as_a_dict():
    tools = langchain_tools(DEMO)
    entries = DEMO.openai_tools(strict=True)
    assert [t.name for t in tools] == [t.name for t in DEMO.tools]
    for made, entry in zip(tools, entries, strict=True):
        assert made.description == entry["description"]
        assert made.args_schema == entry["parameters"]
        assert made.metadata is not None
        assert made.metadata["strict"] is STRICT[made.name]
    loose = langchain_tools(DEMO, strict=False)
    assert [t.args_schema for t in loose] == [tool_input_schema(t) for t in DEMO.tools]


@pytest.mark.parametrize(("name", "arguments", "text"), RESULTS)
def test_a_good_call_comes_back_as_its_text(name, arguments, text):
    (message,) = run_agent(langchain_tools(DEMO), [(name, arguments)])
    assert message.status == "success"
    assert message.content == text


def test_a_structured_result_is_its_json_text_with_the_value_as_the_artifact():
    (message,) = run_agent(langchain_tools(DEMO), [("task_get", {"title": "Report"})])
    assert json.loads(message.content) == {"title": "Report", "status": "open"}
    assert message.artifact == {"title": "Report", "status": "open"}


def test_an_image_reaches_the_model_as_an_image_block():
    (message,) = run_agent(langchain_tools(DEMO), [("screenshot", {})])
    text, image, rest = message.content
    assert text["text"] == "The screen:"
    assert image["mime_type"] == "image/png"
    assert base64.b64decode(image["base64"]) == b"\x89PNG..."
    assert rest["text"] == "Nothing else."


def test_audio_which_a_tool_message_cannot_hold_is_a_line_saying_so():
    (message,) = run_agent(langchain_tools(DEMO), [("record", {})])
    assert [(b["type"], b["text"]) for b in message.content] == [("text", UNSHOWN_AUDIO)]


@pytest.mark.parametrize("handling", [None, True, False])
def test_a_refusal_reaches_the_model_as_an_error_message_however_tool_node_handles_errors(
    handling,
):
    tools = langchain_tools(DEMO)
    node = ToolNode(tools) if handling is None else ToolNode(tools, handle_tool_errors=handling)
    model = Scripted(script=[("greet", {"name": 5}), ("greet", {"name": "Ada"})])

    async def call_model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", call_model)
    graph.add_node("tools", node)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    state = asyncio.run(graph.compile().ainvoke({"messages": [("user", "Greet Ada")]}))
    refused, corrected = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert refused.status == "error"
    assert parse_refusal_body(refused.content).code == "bad-arguments"
    # the model read the refusal before it corrected its call
    assert any(isinstance(m, ToolMessage) and m.status == "error" for m in model.seen[1])
    assert corrected.status == "success"
    assert corrected.content == "Hello, Ada"


def test_langchain_does_not_check_the_arguments_the_registry_does():
    (message,) = run_agent(langchain_tools(DEMO), [("greet", {"name": "Ada", "extra": 1})])
    assert message.status == "error"
    assert "extra" in message.content


def test_an_exception_that_is_no_refusal_is_not_sent_to_the_model():
    with pytest.raises(RuntimeError, match="the disk is full"):
        run_agent(langchain_tools(DEMO), [("crash", {})])


WHO = create_tool_registry([define_toolkit("who", [whoami])])


def test_make_call_gets_the_tool_runtime_and_may_be_async():
    seen: list[Any] = []

    async def make_call(runtime: Any) -> Caller:
        seen.append(runtime)
        return Caller(f"{runtime.context}:{runtime.tool_call_id}")

    (message,) = run_agent(
        langchain_tools(WHO, make_call=make_call), [("whoami", {})], context="ada"
    )
    assert message.content == "ada:call-0"
    assert seen[0].config is not None


def test_without_make_call_the_call_object_is_the_runs_context():
    (message,) = run_agent(langchain_tools(WHO), [("whoami", {})], context=Caller("ada"))
    assert message.content == "ada"


def test_a_refusal_from_make_call_reaches_the_model():
    def make_call(runtime: Any) -> object:
        raise ToolRefusal("not-permitted", "Ada may not greet")

    (message,) = run_agent(langchain_tools(DEMO, make_call=make_call), [("greet", {"name": "A"})])
    assert message.status == "error"
    assert parse_refusal_body(message.content).code == "not-permitted"


def test_outside_a_graph_make_call_gets_a_runtime_with_the_runs_config():
    seen: list[Any] = []

    def make_call(config: Any) -> None:
        seen.append(config)

    (greet,) = [t for t in langchain_tools(DEMO, make_call=make_call) if t.name == "greet"]
    call = {"name": "greet", "args": {"name": "Ada"}, "id": "c1", "type": "tool_call"}
    message = asyncio.run(greet.ainvoke(call, {"tags": ["mine"]}))
    assert message.content == "Hello, Ada"
    assert "mine" in seen[0].config["tags"]
    assert seen[0].context is None


def test_annotations_reach_the_tools_metadata():
    @tool("notes", read_only=True)
    async def note_read() -> str:
        """Reads the note."""
        return ""

    registry = create_tool_registry([define_toolkit("notes", [note_read])])
    (made,) = langchain_tools(registry)
    assert made.metadata is not None
    assert made.metadata["annotations"] == registry.mcp_tools()[0]["annotations"]


@pytest.mark.parametrize("field", ["runtime", "config", "run_manager"])
def test_a_field_langchain_fills_itself_is_refused_when_the_tools_are_made(field):
    namespace: dict[str, Callable[..., Any]] = {}
    exec(  # noqa: S102 - a tool with a field of each name
        f"async def clash({field}: str) -> str:\n    '''Clashes.'''\n    return {field}",
        namespace,
    )
    registry = create_tool_registry([define_toolkit("c", [tool("c")(namespace["clash"])])])
    with pytest.raises(ValueError, match=rf"clash.*'{field}'.*rename"):
        langchain_tools(registry)


def test_the_middleware_offers_the_model_only_the_tools_its_caller_may_use():
    def offered_and_answered(call: Scoped, **options: Any) -> tuple[list[str], ToolMessage]:
        model = Scripted(script=[("note_write", {"title": "a"})])
        agent = create_agent(model, middleware=[RegistryMiddleware(scoped, **options)])
        state = asyncio.run(agent.ainvoke({"messages": [("user", "Write a")]}, context=call))
        (message,) = [m for m in state["messages"] if isinstance(m, ToolMessage)]
        return model.offered[0], message

    names, wrote = offered_and_answered(WRITER)
    assert names == ["note_read", "note_write"]
    assert (wrote.status, wrote.content) == ("success", "wrote a")
    names, refused = offered_and_answered(READER)
    assert names == ["note_read"]
    # a call of the hidden tool is refused exactly as one of a tool that does not exist
    assert refused.status == "error"
    hidden = asyncio.run(scoped.visible_to(READER).call("note_write", {"title": "a"}))
    assert refused.content == hidden.text
    assert parse_refusal_body(refused.content).code == "unknown-tool"
    runtimes: list[Any] = []

    def make_call(runtime: Any) -> Scoped:
        runtimes.append(runtime)
        return runtime.context

    assert offered_and_answered(READER, make_call=make_call)[0] == ["note_read"]
    assert runtimes[0].tool_call_id is None  # asked before the model call: no call yet
    assert runtimes[0].context is READER


def test_the_middleware_leaves_the_agents_other_tools_offered():
    @tool("other")
    async def clock() -> str:
        """Tells the time."""
        return "noon"

    (other,) = langchain_tools(create_tool_registry([define_toolkit("other", [clock])]))
    model = Scripted(script=[])
    agent = create_agent(model, [other], middleware=[RegistryMiddleware(scoped)])
    asyncio.run(agent.ainvoke({"messages": [("user", "What time is it?")]}, context=READER))
    assert sorted(model.offered[0]) == ["clock", "note_read"]


def test_a_hidden_tool_offered_anyway_is_refused_as_unknown():
    (message,) = run_agent(
        langchain_tools(scoped), [("note_write", {"title": "a"})], context=READER
    )
    assert parse_refusal_body(message.content).code == "unknown-tool"


@tool("slow", timeout=0.05, read_only=True)
async def nap() -> str:
    """Sleeps past its time limit."""
    await asyncio.sleep(10)
    return "awake"


SLOW = create_tool_registry([define_toolkit("slow", [nap]), define_toolkit("who", [whoami])])


def test_a_call_past_its_time_limit_reaches_the_model_as_timed_out_and_the_loop_goes_on():
    model = Scripted(script=[("nap", {}), ("whoami", {})])
    agent = create_agent(model, langchain_tools(SLOW))
    state = asyncio.run(agent.ainvoke({"messages": [("user", "Nap")]}, context=Caller("ada")))
    timed_out, then = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert timed_out.status == "error"
    refusal = parse_refusal_body(timed_out.content)
    assert refusal.code == "timed-out"
    assert "nap" in refusal.message
    assert any(isinstance(m, ToolMessage) and m.status == "error" for m in model.seen[1])
    assert (then.status, then.content) == ("success", "ada")
    assert state["messages"][-1].content == "done"


THREAD = {"configurable": {"thread_id": "t1"}}


def paused_then(resume: object) -> tuple[Any, dict[str, Any], Scripted]:
    """Ask to delete the draft: the interrupt the host is shown, then the run resumed."""
    deleted.clear()
    model = Scripted(script=[("note_delete", {"title": "draft"})])
    agent = create_agent(model, langchain_tools(careful), checkpointer=InMemorySaver())

    async def go() -> tuple[Any, dict[str, Any]]:
        asked = {"messages": [("user", "Delete the draft")]}
        first = await agent.ainvoke(asked, THREAD, context=Careful())
        (paused,) = first["__interrupt__"]
        assert deleted == []  # paused before the tool ran
        return paused, await agent.ainvoke(Command(resume=resume), THREAD, context=Careful())

    paused, state = asyncio.run(go())
    return paused, state, model


def test_a_call_that_needs_approval_pauses_with_langchains_human_in_the_loop_request():
    paused, _, _ = paused_then({"decisions": [{"type": "approve"}]})
    (action,) = paused.value["action_requests"]
    assert (action["name"], action["args"]) == ("note_delete", {"title": "draft"})
    assert "note_delete" in action["description"]
    (review,) = paused.value["review_configs"]
    assert review == {"action_name": "note_delete", "allowed_decisions": ["approve", "reject"]}


@pytest.mark.parametrize("approve", [{"decisions": [{"type": "approve"}]}, {"type": "approve"}])
def test_approved_the_tool_runs_once_and_the_model_reads_its_result(approve):
    _, state, model = paused_then(approve)
    assert deleted == ["draft"]
    (message,) = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert (message.status, message.content) == ("success", "deleted draft")
    assert message in model.seen[-1]
    assert state["messages"][-1].content == "done"


def test_rejected_the_tool_never_runs_and_the_model_is_told():
    _, state, model = paused_then({"decisions": [{"type": "reject", "message": "Keep it."}]})
    assert deleted == []
    (message,) = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert message.status == "error"
    refusal = parse_refusal_body(message.content)
    assert refusal.code == "not-approved"
    assert "note_delete" in refusal.message
    assert "Keep it." in refusal.message
    assert message in model.seen[-1]


def test_an_answer_that_is_no_decision_fails_loudly_and_never_runs_the_tool():
    with pytest.raises(ValueError, match=r"approval of tool 'note_delete' is 'yes'; resume with"):
        paused_then("yes")
    assert deleted == []


def test_a_call_that_needs_no_approval_does_not_pause():
    deleted.clear()
    model = Scripted(script=[("note_read", {"title": "draft"})])
    agent = create_agent(model, langchain_tools(careful), checkpointer=InMemorySaver())
    state = asyncio.run(agent.ainvoke({"messages": [("user", "Read")]}, THREAD, context=Careful()))
    assert "__interrupt__" not in state
    assert deleted == ["draft"]


def test_outside_a_graph_a_call_that_needs_approval_is_refused_needs_approval():
    deleted.clear()
    (delete, _) = langchain_tools(careful, make_call=lambda _: Careful())
    call = {"name": "note_delete", "args": {"title": "draft"}, "id": "c1", "type": "tool_call"}
    message = asyncio.run(delete.ainvoke(call))
    assert message.status == "error"
    assert parse_refusal_body(message.content).code == "needs-approval"
    assert deleted == []


def test_calls_of_one_turn_pause_each_and_are_answered_each_by_its_interrupt():
    deleted.clear()

    class Both(Scripted):
        def _generate(self, messages: list[BaseMessage], *_: Any, **__: Any) -> ChatResult:
            if any(isinstance(m, AIMessage) for m in messages):
                return super()._generate(messages)
            calls = [{"name": "note_delete", "args": {"title": t}, "id": t} for t in ("a", "b")]
            return ChatResult(generations=[ChatGeneration(message=AIMessage("", tool_calls=calls))])

    agent = create_agent(Both(script=[]), langchain_tools(careful), checkpointer=InMemorySaver())

    async def go() -> dict[str, Any]:
        first = await agent.ainvoke({"messages": [("user", "Delete")]}, THREAD, context=Careful())
        titles = {
            i.id: i.value["action_requests"][0]["args"]["title"] for i in first["__interrupt__"]
        }
        assert sorted(titles.values()) == ["a", "b"]
        answers = {i: {"type": "approve" if t == "a" else "reject"} for i, t in titles.items()}
        return await agent.ainvoke(Command(resume=answers), THREAD, context=Careful())

    state = asyncio.run(go())
    assert deleted == ["a"]
    done, refused = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert (done.status, done.content) == ("success", "deleted a")
    assert parse_refusal_body(refused.content).code == "not-approved"
