"""adecore_tools.pydantic_ai, and examples/pydantic_ai_toolset.py on it, driven offline.

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
from typing import Any

import pytest
from adapter_tools import DEMO, DRY_RUN, RESULTS, REVISION, STRICT
from needs import missing

pytest.importorskip("pydantic_ai", reason=missing("pydantic_ai"))

from pydantic_ai import Agent, RunContext, UnexpectedModelBehavior
from pydantic_ai.messages import (
    BinaryContent,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.profiles.openai import openai_model_profile
from pydantic_ai.tools import ToolDefinition

from adecore_tools import ToolRefusal, create_tool_registry, parse_refusal_body, tool_input_schema
from adecore_tools.pydantic_ai import RegistryToolset

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def examples():
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLES))
        yield SimpleNamespace(
            notes=importlib.import_module("notes"),
            example=importlib.import_module("pydantic_ai_toolset"),
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

    @property
    def shown(self) -> dict[str, ToolDefinition]:
        return {definition.name: definition for definition in self.seen}


def returned(agent: Agent[Any, str], deps: Any = None) -> list[Any]:
    """Run `agent`; what each tool call returned, in order."""
    result = asyncio.run(agent.run("Keep my notes", deps=deps))
    assert result.output == "done"
    return [
        part.content
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def run(toolset: RegistryToolset[Any], script: Script, deps: Any = None, **model: Any) -> list[Any]:
    """Run an agent on `toolset`, its model played by `script`; what each tool call returned."""
    return returned(Agent(FunctionModel(script, **model), toolsets=[toolset]), deps)


def run_notes(examples, script: Script, call: Any) -> list[Any]:
    """Run an agent on the notes toolset with `call` as its deps."""
    return run(RegistryToolset(examples.notes.registry), script, call)


# --- The listing: strict mode where the strict profile can state a tool -------------------------


def test_the_toolset_lists_every_registry_tool_with_our_name_description_and_schema(examples):
    registry = examples.notes.registry
    script = Script([])
    run_notes(examples, script, examples.notes.NoteCall(examples.notes.Document(), may_write=False))
    assert list(script.shown) == [t.name for t in registry.tools]
    for t in registry.tools:
        definition = script.shown[t.name]
        assert definition.name == t.name
        assert definition.description == t.description
        assert definition.parameters_json_schema == tool_input_schema(t, "openai-strict")
        assert definition.strict is True


def test_the_model_is_shown_the_strict_schema(examples):
    script = Script([])
    run_notes(examples, script, examples.notes.NoteCall(examples.notes.Document(), may_write=False))
    shown = script.shown
    assert list(shown) == ["note_read", "note_write", "note_delete"]
    assert shown["note_delete"].description == (
        "Deletes one note from the active document. It cannot be brought back."
    )
    assert shown["note_delete"].parameters_json_schema == {
        "type": "object",
        "properties": {
            "index": {"type": "integer", "description": "The note's index, as note_read lists it"},
            "revision": {"type": ["integer", "null"], "description": REVISION},
            "dry_run": {"type": ["boolean", "null"], "description": DRY_RUN},
        },
        "required": ["index", "revision", "dry_run"],
        "additionalProperties": False,
    }


def test_strict_false_shows_the_model_our_mcp_schema(examples):
    script = Script([])
    run(RegistryToolset(examples.notes.registry, strict=False), script)
    assert {d.strict for d in script.seen} == {False}
    assert script.shown["note_delete"].parameters_json_schema == {
        "type": "object",
        "properties": {
            "index": {"type": "integer", "description": "The note's index, as note_read lists it"},
            "revision": {"type": "integer", "description": REVISION},
            "dry_run": {"type": "boolean", "description": DRY_RUN},
        },
        "required": ["index"],
    }


def test_an_openai_model_is_shown_the_strict_tools_as_they_are_and_a_record_tool_open():
    """Left to infer strictness, Pydantic AI's OpenAI profile adds `additionalProperties: false`
    to every object: a record (`dict[str, X]`, listed as `{"type": "object"}`) would tell the
    model that it takes no key at all. The toolset lists such a tool with strict mode off; every
    other tool is strict already, and the profile leaves its schema as it is.
    """
    script = Script([("label", {"labels": {"color": "red"}, "mode": "set"})])
    toolset = RegistryToolset(DEMO)
    returns = run(toolset, script, profile=openai_model_profile("gpt-5"))
    assert returns == ["color\tred\nmode\tset"]
    assert {name: d.strict for name, d in script.shown.items()} == STRICT
    shown = script.shown["label"]
    assert shown.parameters_json_schema["properties"]["labels"] == {
        "type": "object",
        "properties": {},  # added by Pydantic AI: no property is named, so any key is allowed
    }
    assert "additionalProperties" not in shown.parameters_json_schema
    for name, strict in STRICT.items():
        if strict:
            want = tool_input_schema(DEMO.get(name), "openai-strict")
            assert script.shown[name].parameters_json_schema == want


def test_a_registry_that_says_bounds_in_words_says_them_to_the_model_too(examples):
    wordy = create_tool_registry(examples.notes.registry.toolkits, bounds_in_words=True)
    script = Script([])
    run(RegistryToolset(wordy), script)
    limit = script.shown["note_read"].parameters_json_schema["properties"]["limit"]
    assert limit["description"] == (
        "How many notes to return, first ones first. At least 1. At most 100. Default 20."
    )


def test_the_toolset_id_is_the_one_given():
    assert RegistryToolset(DEMO).id is None
    assert RegistryToolset(DEMO, id="demo").id == "demo"


# --- A call: Pydantic AI parses the JSON, the registry checks the rest --------------------------


def test_calls_run_through_the_registry_with_the_run_deps_as_the_call(examples):
    doc = examples.notes.Document()
    script = Script(
        [
            ("note_write", json.dumps({"text": "Buy milk", "revision": 0})),
            ("note_write", {"text": "Buy bread", "dry_run": True}),
            ("note_read", None),
        ]
    )
    assert run_notes(examples, script, examples.notes.NoteCall(doc, may_write=True)) == [
        "note\twritten\nrevision\t1",
        "preview\tvalidated",
        "revision\t1\nnote\t0\tBuy milk",
    ]
    assert doc.read() == (1, ["Buy milk"])


def test_null_for_an_optional_field_is_left_out_so_strict_mode_loses_nothing(examples):
    doc = examples.notes.Document()
    script = Script(
        [
            ("note_write", {"text": "Buy milk", "revision": None, "dry_run": None}),
            ("note_read", '{"limit": null}'),
        ]
    )
    assert run_notes(examples, script, examples.notes.NoteCall(doc, may_write=True)) == [
        "note\twritten\nrevision\t1",
        "revision\t1\nnote\t0\tBuy milk",
    ]


def test_bad_arguments_come_back_as_the_refusal_text(examples):
    script = Script([("note_write", {"text": "", "revision": -1, "dryrun": True})])
    doc = examples.notes.Document()
    [text] = run_notes(examples, script, examples.notes.NoteCall(doc, may_write=True))
    assert parse_refusal_body(text) == ToolRefusal(
        "bad-arguments",
        "note_write needs text; revision: expected at least 0, got -1; "
        "dryrun: unknown field (did you mean 'dry_run'?)",
        ["fields\ttext\trevision\tdry_run"],
    )
    assert doc.read() == (0, [])


def test_an_argument_named_ctx_is_an_unknown_field_like_any_other(examples):
    script = Script([("note_write", {"text": "Buy milk", "ctx": 1})])
    call = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    assert run_notes(examples, script, call) == [
        "refused\tbad-arguments\tctx: unknown field\nfields\ttext\trevision\tdry_run"
    ]


def test_the_tool_own_refusals_come_back_as_text(examples):
    doc = examples.notes.Document()
    script = Script([("note_delete", {"index": 0}), ("note_write", {"text": "Buy milk"})])
    texts = run_notes(examples, script, examples.notes.NoteCall(doc, may_write=False))
    assert [parse_refusal_body(text) for text in texts] == [
        ToolRefusal("not-permitted", "This caller may read this document but not change it."),
        ToolRefusal("not-permitted", "This caller may read this document but not change it."),
    ]
    assert doc.read() == (0, [])


@pytest.mark.parametrize(
    ("arguments", "got"), [("[1, 2]", "an array"), ("5", "5"), ('"Buy milk"', '"Buy milk"')]
)
def test_json_that_is_no_object_reaches_the_registry_and_is_refused(examples, arguments, got):
    # Before `RegistryToolset`, the example built on `Tool.from_schema`, which spread the
    # arguments with `**`: an array failed the run with a `TypeError` inside Pydantic AI.
    script = Script([("note_write", arguments)])
    doc = examples.notes.Document()
    assert run_notes(examples, script, examples.notes.NoteCall(doc, may_write=True)) == [
        f"refused\tbad-arguments\texpected an object, got {got}\nfields\ttext\trevision\tdry_run"
    ]
    assert doc.read() == (0, [])


def test_null_arguments_are_no_fields(examples):
    # Validated arguments of `None` fail an assertion inside Pydantic AI 2.68: the toolset reads
    # `null` as `{}`, as the registry itself reads it.
    script = Script([("note_read", "null"), ("note_write", "null")])
    call = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    assert run_notes(examples, script, call) == [
        "revision\t0\nnotes\tnone",
        "refused\tbad-arguments\tnote_write needs text\nfields\ttext\trevision\tdry_run",
    ]


def test_arguments_that_are_not_json_are_answered_by_pydantic_ai_itself(examples):
    # A known difference, in docs/integrations.md: Pydantic AI parses the arguments before our
    # code sees them, and answers text that is no JSON with its own validation errors.
    script = Script([("note_write", "not json")])
    doc = examples.notes.Document()
    [errors] = run_notes(examples, script, examples.notes.NoteCall(doc, may_write=True))
    assert [error["type"] for error in errors] == ["json_invalid"]
    assert doc.read() == (0, [])


def test_max_retries_bounds_how_often_pydantic_ai_asks_again_for_json():
    twice = [("greet", "not json")] * 2
    with pytest.raises(UnexpectedModelBehavior, match="max retries"):
        run(RegistryToolset(DEMO, max_retries=1), Script(twice))
    assert len(run(RegistryToolset(DEMO, max_retries=2), Script(twice))) == 2


# --- What the model reads back -------------------------------------------------------------------


def test_each_kind_of_result_comes_back_as_the_text_a_client_receives():
    script = Script([(name, arguments) for name, arguments, _ in RESULTS])
    assert run(RegistryToolset(DEMO), script) == [text for _, _, text in RESULTS]


def test_an_image_and_audio_reach_the_model_as_binary_content_in_the_tool_return():
    script = Script([("screenshot", {}), ("record", {})])
    screen, sound = run(RegistryToolset(DEMO), script)
    assert screen == [
        "The screen:",
        BinaryContent(b"\x89PNG...", media_type="image/png"),
        "Nothing else.",
    ]
    assert sound == [BinaryContent(b"RIFF....WAVE", media_type="audio/wav")]


def test_a_record_tool_out_of_strict_mode_takes_any_key_and_refuses_a_misspelt_field():
    script = Script(
        [
            ("label", {"labels": {"color": "red", "size": "L"}, "mode": "set"}),
            ("label", {"labels": {}, "mdoe": "set"}),
        ]
    )
    assert run(RegistryToolset(DEMO), script) == [
        "color\tred\nsize\tL\nmode\tset",
        "refused\tbad-arguments\tmdoe: unknown field (did you mean 'mode'?)\nfields\tlabels\tmode",
    ]


# --- Failures that are no refusal: the host's bugs, which fail the run --------------------------


def test_an_exception_that_is_no_refusal_fails_the_run():
    with pytest.raises(RuntimeError, match="the disk is full"):
        run(RegistryToolset(DEMO), Script([("crash", {})]))


def test_a_result_its_annotation_refuses_is_a_type_error_not_a_refusal():
    with pytest.raises(TypeError, match="miscount"):
        run(RegistryToolset(DEMO), Script([("miscount", {})]))


def test_a_run_without_the_call_object_the_tools_need_is_the_host_bug(examples):
    with pytest.raises(TypeError, match="needs a call object of type NoteCall, got NoneType"):
        run(RegistryToolset(examples.notes.registry), Script([("note_read", {})]))


# --- The call object: the run's deps, or built by `make_call` for each call ---------------------


def test_make_call_builds_the_call_object_of_each_call_from_the_run_context(examples):
    doc = examples.notes.Document()
    seen: list[tuple[Any, str | None, str | None]] = []

    def make_call(ctx: RunContext[str]) -> Any:
        seen.append((ctx.deps, ctx.tool_name, ctx.tool_call_id))
        return examples.notes.NoteCall(doc, may_write=ctx.deps == "editor")

    toolset = RegistryToolset(examples.notes.registry, make_call=make_call)
    script = Script([("note_write", {"text": "Buy milk"}), ("note_read", {"limit": None})])
    assert run(toolset, script, "editor") == [
        "note\twritten\nrevision\t1",
        "revision\t1\nnote\t0\tBuy milk",
    ]
    # asked for each call, and (with no tool yet) for the tools each run step lists
    calls = [s for s in seen if s[1] is not None]
    assert calls == [("editor", "note_write", "call-0"), ("editor", "note_read", "call-1")]


def test_an_async_make_call_is_awaited(examples):
    """A host looks its user up with `await`, as `mcp_server`'s `make_call` may."""
    doc = examples.notes.Document()

    async def make_call(ctx: RunContext[str]) -> Any:
        await asyncio.sleep(0)
        return examples.notes.NoteCall(doc, may_write=ctx.deps == "editor")

    toolset = RegistryToolset(examples.notes.registry, make_call=make_call)
    assert run(toolset, Script([("note_write", {"text": "Buy milk"})]), "editor") == [
        "note\twritten\nrevision\t1"
    ]
    assert doc.read() == (1, ["Buy milk"])


def test_a_refusal_make_call_raises_comes_back_as_text(examples):
    def make_call(ctx: RunContext[None]) -> Any:
        raise ToolRefusal("signed-out", "Sign in again to use the notes.")

    toolset = RegistryToolset(examples.notes.registry, make_call=make_call)
    assert run(toolset, Script([("note_read", {})])) == [
        "refused\tsigned-out\tSign in again to use the notes."
    ]


def test_the_example_builds_each_call_object_from_the_run_session(examples):
    """examples/pydantic_ai_toolset.py: the same agent, two runs, two sessions: an editor
    writes, a reader is refused, each on their own document."""
    first, second = examples.notes.Document(), examples.notes.Document()
    runs = []
    for user, doc in (("ada", first), ("bob", second)):
        script = Script([("note_write", {"text": f"{user} was here"})])
        agent = examples.example.notes_agent(FunctionModel(script))
        runs.append(returned(agent, examples.notes.Session(user, doc)))
    assert runs == [
        ["note\twritten\nrevision\t1"],
        ["refused\tnot-permitted\tThis caller may read this document but not change it."],
    ]
    assert (first.read(), second.read()) == ((1, ["ada was here"]), (0, []))


def test_the_example_lists_every_notes_tool_strict(examples):
    listed = asyncio.run(examples.example.listed())
    assert [(entry["name"], entry["strict"]) for entry in listed] == [
        (t.name, True) for t in examples.notes.registry.tools
    ]


# --- Pydantic AI's TestModel ----------------------------------------------------------------------


@pytest.mark.canary
def test_test_model_calls_the_strict_tools(examples):
    # A canary: it watches Pydantic AI, not this package. Its `TestModel` makes up arguments
    # from a tool's schema; before 2.78 it knew no list of types (`["integer", "null"]`), how
    # strict mode says a field may be left out, and raised. docs/integrations.md says which
    # releases drive strict tools with it: if this turns red, update that paragraph.
    call = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    strict = Agent(TestModel(), toolsets=[RegistryToolset(examples.notes.registry)])
    assert asyncio.run(strict.run("Keep my notes", deps=call)).output.startswith('{"note_read":')


def test_test_model_calls_the_tools_as_the_mcp_schema_lists_them(examples):
    call = examples.notes.NoteCall(examples.notes.Document(), may_write=True)
    plain = Agent(TestModel(), toolsets=[RegistryToolset(examples.notes.registry, strict=False)])
    assert asyncio.run(plain.run("Keep my notes", deps=call)).output.startswith('{"note_read":')
