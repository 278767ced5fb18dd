"""examples/openai_agents.py: the notes tools as OpenAI Agents SDK tools, driven offline.

The tools are invoked the way the SDK invokes them: `FunctionTool.on_invoke_tool(ctx, json_text)`
directly, and inside a whole `Runner.run` whose model is the SDK's own `ScriptedModel` (no
network, no model). Tracing is off, so nothing is sent anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
from collections.abc import Awaitable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from needs import missing

pytest.importorskip("agents", reason=missing("agents"))

from agents import Agent, FunctionTool, RunConfig, Runner
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tool_context import ToolContext

from adecore_tools import ToolRefusal, parse_refusal_body, tool_input_schema

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def examples():
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLES))
        yield SimpleNamespace(
            notes=importlib.import_module("notes"),
            adapter=importlib.import_module("openai_agents"),
        )


@pytest.fixture
def tools(examples) -> dict[str, FunctionTool]:
    return {t.name: t for t in examples.adapter.function_tools(examples.notes.registry)}


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


def test_one_function_tool_per_registry_tool_in_order(examples, tools):
    assert list(tools) == [t.name for t in examples.notes.registry.tools]
    for t in examples.notes.registry.tools:
        ft = tools[t.name]
        assert isinstance(ft, FunctionTool)
        assert ft.description == t.description
        assert ft.params_json_schema == tool_input_schema(t)
        assert ft.strict_json_schema is False


def test_the_parameters_schema_is_ours_unchanged(tools):
    # Strict mode would have made `revision` and `dry_run` required and added
    # additionalProperties; the adapter keeps the schema as the library wrote it.
    assert tools["note_write"].params_json_schema == {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "The note text"},
            "revision": {
                "type": "integer",
                "description": (
                    "The revision this write expects. The write is refused unless the document "
                    "is still at this revision; leave it out to write whatever the revision is."
                ),
            },
            "dry_run": {
                "type": "boolean",
                "description": (
                    "Set to true to check everything and write nothing. A dry run is never "
                    "needed for safety: a real call checks the same things before it writes."
                ),
            },
        },
        "required": ["text"],
    }


def test_the_schema_handed_over_is_a_plain_copy(examples, tools):
    schema = tools["note_write"].params_json_schema
    schema["properties"]["text"]["description"] = "changed"
    assert type(schema) is dict
    write = examples.notes.registry.get("note_write")
    assert tool_input_schema(write)["properties"]["text"]["description"] == "The note text"


def test_a_call_runs_with_the_run_context_as_the_call_object(examples, tools):
    doc = examples.notes.Document()
    writer = examples.notes.NoteCall(doc, may_write=True)
    text = invoke(tools["note_write"], writer, json.dumps({"text": "Buy milk", "revision": 0}))
    assert text == "note\twritten\nrevision\t1"
    assert doc.read() == (1, ["Buy milk"])
    assert invoke(tools["note_read"], writer, "{}") == "revision\t1\nnote\t0\tBuy milk"


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


def test_arguments_that_are_not_json_are_refused_like_any_bad_input(examples, tools):
    writer = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    refusal = parse_refusal_body(invoke(tools["note_write"], writer, '{"text": "Buy milk"'))
    assert refusal is not None
    assert refusal.code == "bad-arguments"
    assert refusal.message.startswith("expected an object, got ")
    assert refusal.lines == ("fields\ttext\trevision\tdry_run",)


@pytest.mark.parametrize(
    "arguments",
    ['{"revision": ' + "1" * 5000 + "}", "[" * 100_000 + "]" * 100_000],
    ids=["an int Python will not read", "nesting deeper than the recursion limit"],
)
def test_json_python_will_not_read_is_refused_like_any_bad_input(examples, tools, arguments):
    """`json.loads` raises `ValueError` or `RecursionError` here, not `JSONDecodeError`."""
    writer = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    refusal = parse_refusal_body(invoke(tools["note_write"], writer, arguments))
    assert refusal is not None
    assert refusal.code == "bad-arguments"
    assert refusal.message.startswith("expected an object, got ")


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
        asyncio_run(
            Runner.run(
                agent,
                "Write down: buy milk",
                context=examples.notes.NoteCall(doc, may_write=True),
                run_config=RunConfig(tracing_disabled=True),
            )
        )
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
    result = asyncio_run(
        Runner.run(
            agent,
            "Write down: buy milk",
            context=examples.notes.NoteCall(doc, may_write=True),
            run_config=RunConfig(tracing_disabled=True),
        )
    )
    assert result.final_output == "Written."
    outputs = [item.output for item in result.new_items if item.type == "tool_call_output_item"]
    refused = (
        "refused\tbad-arguments\tnote_write needs text; dryrun: unknown field "
        "(did you mean 'dry_run'?)\nfields\ttext\trevision\tdry_run"
    )
    assert outputs == [refused, "note\twritten\nrevision\t1"]
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
