"""adecore_tools.openai_agents, and examples/openai_agents.py on it, driven offline.

The tools are invoked the way the SDK invokes them: `FunctionTool.on_invoke_tool(ctx, json_text)`
directly, and inside a whole `Runner.run` whose model is the SDK's own `ScriptedModel` (no
network, no model). Tracing is off, so nothing is sent anywhere.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import importlib
import json
import sys
from collections.abc import Awaitable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from adapter_tools import DEMO, DRY_RUN, RESULTS, REVISION, STRICT, UNSHOWN_AUDIO
from needs import missing

pytest.importorskip("agents", reason=missing("agents"))

from agents import Agent, FunctionTool, RunConfig, Runner
from agents.exceptions import UserError
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tool_context import ToolContext

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    parse_refusal_body,
    tool_input_schema,
)
from adecore_tools.openai_agents import agent_tools, function_tool

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def examples():
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLES))
        yield SimpleNamespace(
            notes=importlib.import_module("notes"),
            example=importlib.import_module("openai_agents"),
        )


def by_name(tools: list[Any]) -> dict[str, FunctionTool]:
    assert all(isinstance(t, FunctionTool) for t in tools)
    return {t.name: t for t in tools}


@pytest.fixture
def tools(examples) -> dict[str, FunctionTool]:
    return by_name(agent_tools(examples.notes.registry))


def invoke(tool: FunctionTool, call: Any, arguments: str) -> str:
    """Invoke `tool` as the SDK does: a tool context around the run context, and the JSON text."""
    ctx = ToolContext(
        context=call, tool_name=tool.name, tool_call_id="call-1", tool_arguments=arguments
    )
    result = asyncio_run(tool.on_invoke_tool(ctx, arguments))
    assert isinstance(result, str)
    return result


def asyncio_run(awaitable: Awaitable[Any]) -> Any:
    async def wrap() -> Any:
        return await awaitable

    return asyncio.run(wrap())


def run_agent(agent: Agent[Any], context: Any) -> Any:
    return asyncio_run(
        Runner.run(
            agent,
            "Keep my notes",
            context=context,
            run_config=RunConfig(tracing_disabled=True),
        )
    )


def outputs(result: Any) -> list[Any]:
    return [item.output for item in result.new_items if item.type == "tool_call_output_item"]


# --- The listing: strict mode where the strict profile can state a tool -------------------------


def test_one_function_tool_per_registry_tool_in_order(examples, tools):
    assert list(tools) == [t.name for t in examples.notes.registry.tools]
    for t in examples.notes.registry.tools:
        ft = tools[t.name]
        assert isinstance(ft, FunctionTool)
        assert ft.description == t.description
        assert ft.params_json_schema == tool_input_schema(t, "openai-strict")
        assert ft.strict_json_schema is True


def test_the_parameters_schema_is_the_strict_profile_which_the_sdk_keeps(tools):
    # Every field required, a field that may be left out nullable, every object closed: the SDK's
    # own `ensure_strict_json_schema`, run on it by `FunctionTool`, leaves it as it is.
    assert tools["note_write"].params_json_schema == {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "The note text"},
            "revision": {"type": ["integer", "null"], "description": REVISION},
            "dry_run": {"type": ["boolean", "null"], "description": DRY_RUN},
        },
        "required": ["text", "revision", "dry_run"],
        "additionalProperties": False,
    }


def test_strict_false_sends_our_mcp_schema_unchanged(examples):
    # The schema as the library wrote it: only the required fields in `required`, and no
    # `additionalProperties` (the library refuses unknown fields itself, naming the closest).
    tools = by_name(agent_tools(examples.notes.registry, strict=False))
    assert {ft.strict_json_schema for ft in tools.values()} == {False}
    assert tools["note_write"].params_json_schema == {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "The note text"},
            "revision": {"type": "integer", "description": REVISION},
            "dry_run": {"type": "boolean", "description": DRY_RUN},
        },
        "required": ["text"],
    }


def test_a_tool_strict_mode_cannot_state_goes_with_its_mcp_schema_and_strict_mode_off():
    tools = by_name(agent_tools(DEMO))
    assert {name: ft.strict_json_schema for name, ft in tools.items()} == STRICT
    label = DEMO.get("label")
    assert tools["label"].params_json_schema == tool_input_schema(label)
    assert tools["label"].params_json_schema["properties"]["labels"] == {"type": "object"}
    with pytest.raises(ValueError, match="labels"):
        tool_input_schema(label, "openai-strict")
    assert tools["greet"].params_json_schema == tool_input_schema(
        DEMO.get("greet"), "openai-strict"
    )


def test_a_registry_that_says_bounds_in_words_says_them_to_the_agent_too(examples):
    wordy = create_tool_registry(examples.notes.registry.toolkits, bounds_in_words=True)
    limit = by_name(agent_tools(wordy))["note_read"].params_json_schema["properties"]["limit"]
    assert limit["description"] == (
        "How many notes to return, first ones first. At least 1. At most 100. Default 20."
    )


def test_the_schema_handed_over_is_a_plain_copy(examples, tools):
    schema = tools["note_write"].params_json_schema
    schema["properties"]["text"]["description"] = "changed"
    assert type(schema) is dict
    write = examples.notes.registry.get("note_write")
    assert tool_input_schema(write)["properties"]["text"]["description"] == "The note text"
    again = by_name(agent_tools(examples.notes.registry))["note_write"]
    assert again.params_json_schema["properties"]["text"]["description"] == "The note text"


def test_function_tool_gives_one_tool_of_the_registry_as_agent_tools_does(examples, tools):
    registry = examples.notes.registry
    one = function_tool(registry, registry.get("note_delete"))
    assert isinstance(one, FunctionTool)
    assert (one.name, one.params_json_schema, one.strict_json_schema) == (
        "note_delete",
        tools["note_delete"].params_json_schema,
        True,
    )
    assert function_tool(DEMO, DEMO.get("label")).strict_json_schema is False


def test_function_tool_refuses_what_is_no_tool_of_the_registry(examples):
    with pytest.raises(ValueError, match="'greet' is not in the registry"):
        function_tool(examples.notes.registry, DEMO.get("greet"))
    with pytest.raises(TypeError, match="takes a Tool, got a NoneType"):
        function_tool(examples.notes.registry, None)


# --- A call: the arguments as JSON text, through `run_json` -------------------------------------


def test_a_call_runs_with_the_run_context_as_the_call_object(examples, tools):
    doc = examples.notes.Document()
    writer = examples.notes.NoteCall(doc, may_write=True)
    text = invoke(tools["note_write"], writer, json.dumps({"text": "Buy milk", "revision": 0}))
    assert text == "note\twritten\nrevision\t1"
    assert doc.read() == (1, ["Buy milk"])
    assert invoke(tools["note_read"], writer, "{}") == "revision\t1\nnote\t0\tBuy milk"


def test_null_for_an_optional_field_is_left_out_so_strict_mode_loses_nothing(examples, tools):
    doc = examples.notes.Document()
    writer = examples.notes.NoteCall(doc, may_write=True)
    strict = json.dumps({"text": "Buy milk", "revision": None, "dry_run": None})
    assert invoke(tools["note_write"], writer, strict) == "note\twritten\nrevision\t1"
    assert invoke(tools["note_read"], writer, '{"limit": null}') == (
        "revision\t1\nnote\t0\tBuy milk"
    )
    assert doc.read() == (1, ["Buy milk"])


def test_empty_arguments_are_no_fields(examples, tools):
    reader = examples.notes.NoteCall(examples.notes.Document(), may_write=False)
    assert invoke(tools["note_read"], reader, "") == "revision\t0\nnotes\tnone"


def test_bad_arguments_come_back_as_the_refusal_text(examples, tools):
    writer = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    arguments = json.dumps({"text": "", "revision": -1, "dryrun": True})
    assert parse_refusal_body(invoke(tools["note_write"], writer, arguments)) == ToolRefusal(
        "bad-arguments",
        "note_write needs text; revision: expected at least 0, got -1; "
        "dryrun: unknown field (did you mean 'dry_run'?)",
        ["fields\ttext\trevision\tdry_run"],
    )


def test_arguments_that_are_not_json_are_refused_saying_where_they_break(examples, tools):
    writer = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    refusal = parse_refusal_body(invoke(tools["note_write"], writer, '{"text": "Buy milk"'))
    assert refusal == ToolRefusal(
        "bad-arguments",
        "the arguments are not JSON: the text ends before the JSON does at line 1, column 20",
        ["fields\ttext\trevision\tdry_run"],
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            '{"revision": ' + "1" * 5000 + "}",
            (
                f"the arguments hold an integer of more than {sys.get_int_max_str_digits()}"
                " digits, more than this host reads, at line 1, column 14"
            ),
        ),
        ("[" * 100_000 + "]" * 100_000, "the arguments are not JSON: nested too deep to read"),
    ],
    ids=["an int Python will not read", "nesting deeper than the recursion limit"],
)
def test_json_python_will_not_read_is_refused_like_any_bad_input(
    examples, tools, arguments, message
):
    """`json.loads` raises `ValueError` or `RecursionError` here; `run_json` refuses them."""
    writer = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    refusal = parse_refusal_body(invoke(tools["note_write"], writer, arguments))
    assert refusal == ToolRefusal("bad-arguments", message, ["fields\ttext\trevision\tdry_run"])


def test_arguments_nested_past_the_recursion_limit_never_reach_the_document(examples, tools):
    # A known difference, written in docs/integrations.md: before it invokes a tool, Agents 0.24
    # reads the arguments itself (to tell repeated calls apart) and lets `RecursionError` out, so
    # the run fails before `invoke` can refuse them. A later SDK may hand them on, and `invoke`
    # refuses them: either way nothing is written, and nothing else comes out.
    nested = '{"text": ' + "[" * 100_000 + "]" * 100_000 + "}"
    model = ScriptedModel([[function_call("note_write", nested, call_id="c1")]])
    agent = Agent(name="notes", model=model, tools=list(tools.values()))
    doc = examples.notes.Document()
    with contextlib.suppress(RecursionError):
        run_agent(agent, examples.notes.NoteCall(doc, may_write=True))
    assert doc.read() == (0, [])


def test_the_tool_own_refusals_come_back_as_text(examples, tools):
    doc = examples.notes.Document()
    reader = examples.notes.NoteCall(doc, may_write=False)
    writer = examples.notes.NoteCall(doc, may_write=True)
    denied = invoke(tools["note_write"], reader, json.dumps({"text": "x"}))
    assert denied == (
        "refused\tnot-permitted\tThis caller may read this document but not change it."
    )
    stale = invoke(tools["note_write"], writer, json.dumps({"text": "x", "revision": 3}))
    assert parse_refusal_body(stale) == ToolRefusal(
        "stale-revision",
        "The document is at revision 0; read it again before writing.",
        ["revision\t0"],
    )
    assert doc.read() == (0, [])


# --- What the model reads back -------------------------------------------------------------------


@pytest.mark.parametrize(("name", "arguments", "text"), RESULTS)
def test_a_result_comes_back_as_the_text_a_client_receives(name, arguments, text):
    assert invoke(by_name(agent_tools(DEMO))[name], None, json.dumps(arguments)) == text


def test_an_image_reaches_the_model_as_an_input_image_and_audio_as_a_line_saying_so():
    calls = [
        function_call("screenshot", {}, call_id="c0"),
        function_call("record", {}, call_id="c1"),
    ]
    model = ScriptedModel([calls, [assistant_message("Done.")]])
    run_agent(Agent(name="demo", model=model, tools=agent_tools(DEMO)), None)
    assert model.last_call is not None
    screen, sound = [i["output"] for i in model.last_call.input if "output" in i]
    image = "data:image/png;base64," + base64.b64encode(b"\x89PNG...").decode()
    assert [(p["type"], p.get("text") or p.get("image_url")) for p in screen] == [
        ("input_text", "The screen:"),
        ("input_image", image),
        ("input_text", "Nothing else."),
    ]
    assert [(p["type"], p["text"]) for p in sound] == [("input_text", UNSHOWN_AUDIO)]


def test_a_record_tool_out_of_strict_mode_takes_any_key_and_refuses_a_misspelt_field():
    label = by_name(agent_tools(DEMO))["label"]
    sent = {"labels": {"color": "red", "size": "L"}, "mode": "set"}
    assert invoke(label, None, json.dumps(sent)) == "color\tred\nsize\tL\nmode\tset"
    assert parse_refusal_body(invoke(label, None, '{"labels": {}, "mdoe": "set"}')) == ToolRefusal(
        "bad-arguments", "mdoe: unknown field (did you mean 'mode'?)", ["fields\tlabels\tmode"]
    )


def test_a_whole_run_sends_the_model_each_result_as_text():
    script = [
        [function_call(name, arguments, call_id=f"c{n}")]
        for n, (name, arguments, _) in enumerate(RESULTS)
    ]
    model = ScriptedModel([*script, [assistant_message("Done.")]])
    result = run_agent(Agent(name="demo", model=model, tools=agent_tools(DEMO)), None)
    assert outputs(result) == [text for _, _, text in RESULTS]


# --- Failures that are no refusal: the host's bugs, which the SDK handles -----------------------


def test_an_exception_that_is_no_refusal_goes_to_the_sdk():
    crash = by_name(agent_tools(DEMO))["crash"]
    with pytest.raises(RuntimeError, match="the disk is full"):
        invoke(crash, None, "{}")
    model = ScriptedModel([[function_call("crash", {}, call_id="c1")]])
    with pytest.raises(UserError) as failed:
        run_agent(Agent(name="demo", model=model, tools=[crash]), None)
    assert isinstance(failed.value.__cause__, RuntimeError)


def test_a_result_its_annotation_refuses_is_a_type_error_not_a_refusal():
    miscount = by_name(agent_tools(DEMO))["miscount"]
    with pytest.raises(TypeError, match="miscount"):
        invoke(miscount, None, "{}")


def test_a_run_without_the_call_object_the_tools_need_is_the_host_bug(tools):
    with pytest.raises(TypeError, match="needs a call object of type NoteCall, got NoneType"):
        invoke(tools["note_read"], None, "{}")


# --- The call object: the run's context, or built by `make_call` for each call ------------------


def test_make_call_builds_the_call_object_of_each_call_from_the_sdk_tool_context(examples):
    doc = examples.notes.Document()
    seen: list[tuple[Any, str, str]] = []

    def make_call(ctx: ToolContext[Any]) -> Any:
        seen.append((ctx.context, ctx.tool_name, ctx.tool_call_id))
        return examples.notes.NoteCall(doc, may_write=ctx.context == "editor")

    tools = by_name(agent_tools(examples.notes.registry, make_call=make_call))
    model = ScriptedModel(
        [
            [function_call("note_write", {"text": "Buy milk"}, call_id="c1")],
            [function_call("note_read", {"limit": None}, call_id="c2")],
            [assistant_message("Done.")],
        ]
    )
    result = run_agent(Agent(name="notes", model=model, tools=list(tools.values())), "editor")
    assert outputs(result) == ["note\twritten\nrevision\t1", "revision\t1\nnote\t0\tBuy milk"]
    # asked for each call, first whether it needs approval, then to run it, and (with no call
    # id yet) whether each tool is enabled for the run
    assert [s for s in seen if s[2]] == [
        ("editor", "note_write", "c1"),
        ("editor", "note_write", "c1"),
        ("editor", "note_read", "c2"),
        ("editor", "note_read", "c2"),
    ]
    assert {s[1] for s in seen if not s[2]} == {t.name for t in examples.notes.registry}


def test_an_async_make_call_is_awaited(examples):
    """A host looks its user up with `await`, as `mcp_server`'s `make_call` may."""
    doc = examples.notes.Document()

    async def make_call(ctx: ToolContext[Any]) -> Any:
        await asyncio.sleep(0)
        return examples.notes.NoteCall(doc, may_write=ctx.context == "editor")

    tools = by_name(agent_tools(examples.notes.registry, make_call=make_call))
    assert invoke(tools["note_write"], "editor", '{"text": "Buy milk"}') == (
        "note\twritten\nrevision\t1"
    )
    assert invoke(tools["note_write"], "reader", '{"text": "Sell milk"}').startswith("refused\t")
    assert doc.read() == (1, ["Buy milk"])


def test_a_refusal_make_call_raises_comes_back_as_text(examples):
    def make_call(ctx: ToolContext[Any]) -> Any:
        raise ToolRefusal("signed-out", "Sign in again to use the notes.")

    tools = by_name(agent_tools(examples.notes.registry, make_call=make_call))
    assert invoke(tools["note_read"], None, "{}") == (
        "refused\tsigned-out\tSign in again to use the notes."
    )


def test_the_example_builds_each_call_object_from_the_run_session(examples):
    """examples/openai_agents.py: the same agent, two runs, two sessions: an editor writes, a
    reader is refused, each on their own document."""
    first, second = examples.notes.Document(), examples.notes.Document()
    runs = []
    for user, doc in (("ada", first), ("bob", second)):
        model = ScriptedModel(
            [
                [function_call("note_write", {"text": f"{user} was here"}, call_id="c1")],
                [assistant_message("Done.")],
            ]
        )
        session = examples.notes.Session(user, doc)
        runs.append(outputs(run_agent(examples.example.notes_agent(model), session)))
    assert runs == [
        ["note\twritten\nrevision\t1"],
        ["refused\tnot-permitted\tThis caller may read this document but not change it."],
    ]
    assert (first.read(), second.read()) == ((1, ["ada was here"]), (0, []))


def test_the_example_agent_lists_every_notes_tool_strict(examples):
    agent = examples.example.notes_agent()
    assert [(t.name, t.strict_json_schema) for t in agent.tools] == [
        (t.name, True) for t in examples.notes.registry.tools
    ]


def test_a_whole_agent_run_with_a_scripted_model(examples, tools):
    doc = examples.notes.Document()
    model = ScriptedModel(
        [
            [function_call("note_write", {"text": "", "dryrun": True}, call_id="c1")],
            [function_call("note_write", {"text": "Buy milk", "dry_run": None}, call_id="c2")],
            [assistant_message("Written.")],
        ]
    )
    agent = Agent(name="notes", model=model, tools=list(tools.values()))
    result = run_agent(agent, examples.notes.NoteCall(doc, may_write=True))
    assert result.final_output == "Written."
    refused = (
        "refused\tbad-arguments\tnote_write needs text; dryrun: unknown field "
        "(did you mean 'dry_run'?)\nfields\ttext\trevision\tdry_run"
    )
    assert outputs(result) == [refused, "note\twritten\nrevision\t1"]
    assert doc.read() == (1, ["Buy milk"])
    # The model's second turn was given the refusal text as the call's output.
    second_input = model.calls[1].input
    assert {
        "type": "function_call_output",
        "call_id": "c1",
        "output": refused,
    }.items() <= next(
        item
        for item in second_input
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ).items()
    # And it was shown the strict tools.
    shown = {t.name: t for t in model.calls[0].tools}
    assert shown["note_write"].strict_json_schema is True
