"""The public names (`__all__`), and the DryRun / Revision helpers."""

import ast
import asyncio
import importlib
import pathlib
import re
import subprocess
import sys
from typing import Annotated, Any

import pytest
from typing_extensions import Doc

import adecore_tools
import adecore_tools._model.nodes
from adecore_tools import (
    DRY_RUN_FIELD,
    DRY_RUN_PREVIEW,
    REVISION_FIELD,
    DryRun,
    Revision,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    tool,
    tool_input_schema,
)

PUBLIC_NAMES = [
    "tool",
    "Tool",
    "ToolAnnotations",
    "ToolCall",
    "define_toolkit",
    "Toolkit",
    "create_tool_registry",
    "ToolRegistry",
    "parse_tool_input",
    "tool_input_schema",
    "required_field",
    "transform",
    "length_of",
    "or_note",
    "CodedError",
    "ToolRefusal",
    "refusal_body",
    "refusal_rows",
    "parse_refusal_body",
    "field",
    "REVISION_FIELD",
    "DRY_RUN_FIELD",
    "DRY_RUN_PREVIEW",
    "DryRun",
    "Revision",
    "tool_output_schema",
    "tool_result",
    "ToolResult",
    "Text",
    "Image",
    "Audio",
    "Resource",
    "Content",
]

ADAPTERS = ["mcp", "openai_agents", "pydantic_ai", "langchain", "google_adk"]
"""The public modules, which hand a registry to an SDK or framework; the package imports none."""


def test_all_is_exactly_the_public_list():
    assert len(adecore_tools.__all__) == len(set(adecore_tools.__all__))
    assert sorted(adecore_tools.__all__) == sorted(PUBLIC_NAMES)


@pytest.mark.parametrize("name", PUBLIC_NAMES)
def test_each_public_name_is_importable(name):
    module = importlib.import_module("adecore_tools")
    assert getattr(module, name) is not None
    namespace = {}
    exec(f"from adecore_tools import {name}", namespace)  # noqa: S102 - the import itself
    assert namespace[name] is getattr(module, name)


def test_no_other_public_names():
    # An adapter module is an attribute of the package once something imported it (its tests).
    public = {name for name in dir(adecore_tools) if not name.startswith("_")}
    assert public - set(ADAPTERS) == set(PUBLIC_NAMES)
    for name in public & set(ADAPTERS):
        assert getattr(adecore_tools, name) is importlib.import_module(f"adecore_tools.{name}")


def test_each_public_module_is_a_file_of_the_package_and_no_other_is():
    files = pathlib.Path(adecore_tools.__file__).parent.glob("*.py")
    assert {f.stem for f in files if not f.stem.startswith("_")} == set(ADAPTERS)


def test_star_import_gives_exactly_the_public_names():
    namespace = {}
    exec("from adecore_tools import *", namespace)  # noqa: S102 - the import itself
    assert set(namespace) - {"__builtins__"} == set(PUBLIC_NAMES)


def test_package_ships_py_typed():
    assert (pathlib.Path(adecore_tools.__file__).parent / "py.typed").is_file()


def test_field_name_constants():
    assert REVISION_FIELD == "revision"
    assert DRY_RUN_FIELD == "dry_run"


def test_dry_run_preview_says_it_writes_nothing_and_is_never_needed_for_safety():
    assert isinstance(DRY_RUN_PREVIEW, str)
    text = DRY_RUN_PREVIEW.lower()
    assert "write nothing" in text or "writes nothing" in text
    assert "never needed for safety" in text
    assert "\n" not in DRY_RUN_PREVIEW
    assert "\t" not in DRY_RUN_PREVIEW


def _write_tool():
    async def note_write(
        text: str,
        revision: Revision = None,
        dry_run: DryRun = None,
    ) -> Any:
        """Write a note."""
        return (text, revision, dry_run)

    return tool("note")(note_write)


def test_dry_run_and_revision_schemas():
    schema = tool_input_schema(_write_tool())
    assert list(schema["properties"]) == ["text", REVISION_FIELD, DRY_RUN_FIELD]
    assert schema["required"] == ["text"]
    assert schema["properties"]["dry_run"] == {
        "type": "boolean",
        "description": DRY_RUN_PREVIEW,
    }
    revision = schema["properties"]["revision"]
    assert list(revision) == ["type", "description"]
    assert revision["type"] == "integer"
    assert isinstance(revision["description"], str)
    assert "revision" in revision["description"].lower()


def test_dry_run_and_revision_are_optional_and_default_to_none():
    fields = {f.name: f for f in _write_tool().input.fields}
    for name in (REVISION_FIELD, DRY_RUN_FIELD):
        assert fields[name].required is False
        assert fields[name].default is None
    assert fields[DRY_RUN_FIELD].description == DRY_RUN_PREVIEW


def test_dry_run_and_revision_without_a_default_are_still_optional():
    async def note_write(text: str, revision: Revision, dry_run: DryRun) -> None:
        """Write a note."""

    t = tool("note")(note_write)
    assert parse_tool_input(t, {"text": "x"}) == {"text": "x", "revision": None, "dry_run": None}
    assert tool_input_schema(t)["required"] == ["text"]


def test_dry_run_and_revision_values_pass_through():
    registry = create_tool_registry([define_toolkit("note", [_write_tool()])])
    assert asyncio.run(registry.run("note_write", {"text": "x"})) == ("x", None, None)
    assert asyncio.run(
        registry.run("note_write", {"text": "x", "revision": 0, "dry_run": True})
    ) == ("x", 0, True)
    assert asyncio.run(
        registry.run("note_write", {"text": "x", "revision": None, "dry_run": False})
    ) == ("x", None, False)


@pytest.mark.parametrize(
    "data",
    [
        {"text": "x", "revision": -1},
        {"text": "x", "revision": "3"},
        {"text": "x", "revision": True},
        {"text": "x", "dry_run": 1},
        {"text": "x", "dry_run": "true"},
    ],
)
def test_revision_is_a_non_negative_integer_and_dry_run_a_boolean(data):
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(_write_tool(), data)
    assert info.value.code == "bad-arguments"


def test_dry_run_preview_says_a_dry_run_checks_everything():
    """A dry run checks everything, writes nothing, and is never needed for safety.

    The existing test checks only the last two; the full text is pinned only by the integration
    tests, which skip without mcp / openai-agents / pydantic-ai.
    """
    assert DRY_RUN_PREVIEW == (
        "Set to true to check everything and write nothing. A dry run is never needed for "
        "safety: a real call checks the same things before it writes."
    )


def test_revision_description_says_the_write_must_match_it():
    """`Revision` has a description saying the write must match it."""

    async def note_write(text: str, revision: Revision = None) -> None:
        """Writes a note."""

    assert tool_input_schema(tool("note")(note_write))["properties"]["revision"] == {
        "type": "integer",
        "description": (
            "The revision this write expects, as last read. The write is refused unless what it "
            "changes is still at this revision; leave it out to write whatever the revision is."
        ),
    }


def test_a_host_words_the_revision_of_its_own_resource():
    """`Annotated` with the host's own `Doc` replaces the built-in words, and keeps the bound."""

    async def ticket_close(
        ticket: str,
        revision: Annotated[Revision, Doc("The ticket's revision, from ticket_read.")] = None,
    ) -> None:
        """Closes a ticket."""

    closing = tool("desk")(ticket_close)
    assert tool_input_schema(closing)["properties"]["revision"] == {
        "type": "integer",
        "description": "The ticket's revision, from ticket_read.",
    }
    with pytest.raises(ToolRefusal) as refused:
        parse_tool_input(closing, {"ticket": "t-1", "revision": -1})
    assert refused.value.message == "revision: expected at least 0, got -1"
    assert parse_tool_input(closing, {"ticket": "t-1"}) == {"ticket": "t-1", "revision": None}


def _inspecting_section() -> str:
    docs = pathlib.Path(__file__).resolve().parents[1] / "docs"
    return (docs / "inspecting.md").read_text("utf-8")


def test_the_node_classes_a_host_walks_are_the_ones_the_docs_list_with_every_attribute():
    """The classes are not in `__all__`, so a host walks them by name: names and attributes hold."""
    rows = re.findall(r"^\| `(\w+)` \| .* \| (.*) \|$", _inspecting_section(), re.MULTILINE)
    documented = dict(rows)
    model = adecore_tools._model.nodes
    assert sorted(documented) == sorted(model.Node.split(" | "))  # every node, no other
    for name, holds in documented.items():
        cls = getattr(model, name)
        assert cls.__name__ == name
        for slot in cls.__slots__:
            assert f"`{slot}`" in holds, (name, slot)
    for attribute in (*model.Field._slot_names, "declared"):  # its values, and the copy
        assert f"`{attribute}`" in _inspecting_section(), attribute


@pytest.mark.parametrize("python", ["3.14", "3.15"])
def test_typing_extensions_is_new_enough_for_each_newer_python(python):
    """typing-extensions 4.13 gives a `TypedDict` no keys on 3.14 (the class body has no
    `__annotations__` there), so `{}` passed for one with required keys; on 3.15 it fails to import.
    """
    tomllib = pytest.importorskip("tomllib", reason="tomllib is new in Python 3.11")
    requirements = pytest.importorskip("packaging.requirements", reason="needs packaging")
    version = pytest.importorskip("packaging.version", reason="needs packaging")
    pyproject = pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml"
    floors = [
        version.Version(spec.version)
        for line in tomllib.loads(pyproject.read_text("utf-8"))["project"]["dependencies"]
        if (req := requirements.Requirement(line)).name == "typing-extensions"
        and (req.marker is None or req.marker.evaluate({"python_version": python}))
        for spec in req.specifier
        if spec.operator == ">="
    ]
    assert max(floors) >= version.Version("4.14")


ON_FIRST_USE = {
    # what `import adecore_tools` leaves unloaded, and a public name that loads it
    "adecore_tools._host.results": "tool_result",
    "adecore_tools._render.results": "tool_result",
    "adecore_tools._render.listings": None,
    "adecore_tools._render.portability": None,
    "adecore_tools._render.schema": None,
    "adecore_tools._check.json_text": None,
    "adecore_tools._check.repair": None,
    "json": None,
    "contextvars": None,  # nothing is carried through a context variable
}


def test_import_loads_only_what_declaring_and_running_need():
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import adecore_tools\n"
        "loaded = set(sys.modules) - before\n"
        "from adecore_tools import tool_result\n"
        "print([sorted(loaded), sorted(set(sys.modules) - before)])"
    )
    done = subprocess.run(  # noqa: S603 - our interpreter, our code
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded, after_first_use = map(set, ast.literal_eval(done.stdout))
    assert "adecore_tools._host.registry" in loaded  # the reader found the package's modules
    assert not loaded & set(ON_FIRST_USE)
    assert {m for m, name in ON_FIRST_USE.items() if name} <= after_first_use
