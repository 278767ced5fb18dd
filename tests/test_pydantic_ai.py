"""examples/pydantic_ai_toolset.py: the notes tools as a Pydantic AI toolset, driven offline.

Every call goes through a whole `agent.run` whose model is Pydantic AI's own `FunctionModel`: a
script that asks for tool calls and reads what came back (no network, no model). The script
also records the tool definitions the framework showed it, which is what a real model would see.
"""

from __future__ import annotations

import asyncio
import importlib
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

import pytest
from needs import missing

pytest.importorskip("pydantic_ai", reason=missing("pydantic_ai"))

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.profiles.openai import openai_model_profile
from pydantic_ai.tools import ToolDefinition

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_refusal_body,
    tool,
    tool_input_schema,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def examples():
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLES))
        yield SimpleNamespace(
            notes=importlib.import_module("notes"),
            adapter=importlib.import_module("pydantic_ai_toolset"),
        )


class Script:
    """A `FunctionModel` function: the given tool calls, one per turn, then "done"."""

    def __init__(self, calls: list[tuple[str, str | dict[str, Any] | None]]) -> None:
        self.calls = calls
        self.seen: list[ToolDefinition] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen = list(info.function_tools)
        turn = sum(isinstance(message, ModelResponse) for message in messages)
        if turn < len(self.calls):
            name, args = self.calls[turn]
            return ModelResponse(
                parts=[ToolCallPart(tool_name=name, args=args, tool_call_id=f"call-{turn}")]
            )
        return ModelResponse(parts=[TextPart("done")])


def run(examples, script: Script, call: Any) -> list[Any]:
    """Run an agent on the notes toolset; what each tool call returned, in order."""
    agent = Agent(
        FunctionModel(script),
        deps_type=examples.notes.NoteCall,
        toolsets=[examples.adapter.toolset(examples.notes.registry)],
    )
    result = asyncio.run(agent.run("Keep my notes", deps=call))
    assert result.output == "done"
    return [
        part.content
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def test_the_toolset_has_every_registry_tool_with_our_name_description_and_schema(examples):
    registry = examples.notes.registry
    tools = examples.adapter.toolset(registry).tools
    assert list(tools) == [t.name for t in registry.tools]
    for t in registry.tools:
        definition = tools[t.name].tool_def
        assert definition.name == t.name
        assert definition.description == t.description
        assert definition.parameters_json_schema == tool_input_schema(t)


def test_the_model_is_shown_our_schema(examples):
    script = Script([])
    run(examples, script, examples.notes.NoteCall(examples.notes.Document(), may_write=False))
    shown = {d.name: d for d in script.seen}
    assert list(shown) == ["note_read", "note_write", "note_delete"]
    assert shown["note_delete"].description == (
        "Deletes one note from the active document. It cannot be brought back."
    )
    assert shown["note_delete"].parameters_json_schema == {
        "type": "object",
        "properties": {
            "index": {"type": "integer", "description": "The note's index, as note_read lists it"},
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
        "required": ["index"],
    }


def test_an_openai_model_is_shown_our_schema_too_so_a_record_takes_any_key(examples):
    """Left to infer strictness, Pydantic AI's OpenAI profile adds `additionalProperties: false`
    to every object: a record (`dict[str, X]`, listed as `{"type": "object"}`) would tell the
    model that it takes no key at all. The adapter sets strict mode off, as the OpenAI Agents one.
    """

    @tool("demo")
    async def label(labels: dict[str, str], mode: Literal["add", "set"]) -> list[str]:
        """Labels the active document."""
        return [f"{key}\t{value}" for key, value in labels.items()] + [mode]

    registry = create_tool_registry([define_toolkit("demo", [label])])
    seen: list[ToolDefinition] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.extend(info.function_tools)
        if len(messages) == 1:
            args = {"labels": {"color": "red"}, "mode": "set"}
            return ModelResponse(parts=[ToolCallPart("label", args, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(
        FunctionModel(model, profile=openai_model_profile("gpt-5")),
        toolsets=[examples.adapter.toolset(registry)],
    )
    result = asyncio.run(agent.run("Label it"))
    assert result.output == "done"
    shown = seen[0]
    assert shown.strict is False
    assert shown.parameters_json_schema["properties"]["labels"] == {
        "type": "object",
        "properties": {},  # added by Pydantic AI: no property is named, so any key is allowed
    }
    assert "additionalProperties" not in shown.parameters_json_schema


def test_calls_run_through_the_registry_with_the_run_deps_as_the_call(examples):
    doc = examples.notes.Document()
    script = Script(
        [
            ("note_write", json.dumps({"text": "Buy milk", "revision": 0})),
            ("note_write", {"text": "Buy bread", "dry_run": True}),
            ("note_read", None),
        ]
    )
    returned = run(examples, script, examples.notes.NoteCall(doc, may_write=True))
    assert returned == [
        "note\twritten\nrevision\t1",
        "preview\tvalidated",
        "revision\t1\nnote\t0\tBuy milk",
    ]
    assert doc.read() == (1, ["Buy milk"])


def test_bad_arguments_come_back_as_the_refusal_text(examples):
    script = Script([("note_write", {"text": "", "revision": -1, "dryrun": True})])
    doc = examples.notes.Document()
    [returned] = run(examples, script, examples.notes.NoteCall(doc, may_write=True))
    assert parse_refusal_body(returned) == ToolRefusal(
        "bad-arguments",
        "note_write needs text; revision: expected at least 0, got -1; "
        "dryrun: unknown field (did you mean 'dry_run'?)",
        ["fields\ttext\trevision\tdry_run"],
    )
    assert doc.read() == (0, [])


def test_an_argument_named_ctx_is_an_unknown_field_like_any_other(examples):
    script = Script([("note_write", {"text": "Buy milk", "ctx": 1})])
    call = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    assert run(examples, script, call) == [
        "refused\tbad-arguments\tctx: unknown field\nfields\ttext\trevision\tdry_run"
    ]


def test_the_tool_own_refusals_come_back_as_text(examples):
    doc = examples.notes.Document()
    script = Script([("note_delete", {"index": 0}), ("note_write", {"text": "Buy milk"})])
    returned = run(examples, script, examples.notes.NoteCall(doc, may_write=False))
    assert [parse_refusal_body(text) for text in returned] == [
        ToolRefusal("not-permitted", "This caller may read this document but not change it."),
        ToolRefusal("not-permitted", "This caller may read this document but not change it."),
    ]
    assert doc.read() == (0, [])


def test_arguments_that_are_an_array_fail_the_run_inside_pydantic_ai(examples):
    # A known difference, written in docs/integrations.md: `Tool.from_schema` accepts any JSON as
    # the arguments and spreads them with `**`, so an array never reaches the registry (which would
    # refuse it). If this starts failing, Pydantic AI fixed it: update docs/integrations.md.
    script = Script([("note_write", "[1, 2]")])
    call = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    with pytest.raises(TypeError, match="must be a mapping"):
        run(examples, script, call)


def test_arguments_that_are_not_json_are_answered_by_pydantic_ai_itself(examples):
    # The second known difference, in docs/integrations.md: Pydantic AI parses the arguments before
    # our code sees them, and answers text that is no JSON with its own validation errors.
    script = Script([("note_write", "not json")])
    doc = examples.notes.Document()
    [returned] = run(examples, script, examples.notes.NoteCall(doc, may_write=True))
    assert [error["type"] for error in returned] == ["json_invalid"]
    assert doc.read() == (0, [])
