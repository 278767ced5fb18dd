"""With `from __future__ import annotations` every hint is a string, resolved normally.

The tools below mix nested `TypedDict`s, dataclasses, `Annotated` bounds and descriptions,
`Literal`s, `Enum`s and unions, and one names a class defined further down the module (read again
when the toolkit is assembled at the bottom).
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import json
import sys
import textwrap
import types
import typing
from typing import Annotated, Any, Literal, TypedDict

import annotated_types as at
import pytest
from helpers import refused
from typing_extensions import Doc, NotRequired, Required

from adecore_tools import (
    DRY_RUN_PREVIEW,
    DryRun,
    Revision,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    required_field,
    tool,
    tool_input_schema,
    transform,
)


class Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


class Weight(enum.Enum):
    LIGHT = 1
    HEAVY = 2.5


class Address(TypedDict):
    """A postal address."""

    street: Annotated[str, Doc("Street and number")]
    city: str
    postcode: NotRequired[Annotated[str, at.MaxLen(10)]]
    country: str | None


@dataclasses.dataclass
class Contact:
    """Someone to reach."""

    name: Annotated[str, required_field("a contact needs a name")]
    emails: list[Annotated[str, at.MinLen(3)]] = dataclasses.field(default_factory=list)
    address: Address | None = None
    priority: Priority = Priority.LOW


@tool("future")
async def add_contact(
    contact: Contact,
    places: frozenset[Literal["work", "home"]] = frozenset(),
    note: Annotated[str, Doc("A note to keep"), transform(str.strip)] | None = None,
    score: Annotated[float, at.Ge(0), at.Le(1)] = 0.5,
    dry_run: DryRun = None,
) -> Any:
    """Adds a contact.

    Args:
        places: Where the contact belongs.
    """
    return {"contact": contact, "places": places, "note": note, "score": score, "dry": dry_run}


class Window(TypedDict, total=False):
    start: Required[Annotated[int, at.Ge(0)]]
    end: Annotated[int, at.Ge(0)]
    weight: Weight


@tool("future")
async def schedule(
    when: Slot | Literal["now"],
    windows: list[Window] | None = None,
    repeat: int | str | None = None,
    labels: dict[str, Annotated[int, at.Ge(0)]] | None = None,
    revision: Revision = None,
) -> None:
    """Schedules something."""


@tool("future")
async def no_fields() -> str:
    """Takes nothing."""
    return "done"


@tool("future")
async def with_none_default(count: int = None, label: Annotated[str, at.MinLen(1)] = None) -> None:  # type: ignore[assignment]  # noqa: RUF013 - a None default is what is tested
    """Takes fields whose default is None."""


@dataclasses.dataclass(frozen=True)
class Slot:
    """A time slot."""

    day: Literal["mon", "tue"]
    hour: Annotated[int, at.Ge(0), at.Lt(24)]


toolkit = define_toolkit("future", [add_contact, schedule, no_fields, with_none_default])
registry = create_tool_registry([toolkit])


# --- schemas ------------------------------------------------------------------------------------

ADD_CONTACT_SCHEMA = {
    "type": "object",
    "properties": {
        "contact": {
            "type": "object",
            "description": "Someone to reach.",
            "properties": {
                "name": {"type": "string"},
                "emails": {"type": "array", "items": {"type": "string"}},
                "address": {
                    "type": "object",
                    "description": "A postal address.",
                    "properties": {
                        "street": {"type": "string", "description": "Street and number"},
                        "city": {"type": "string"},
                        "postcode": {"type": "string"},
                        "country": {"type": "string"},
                    },
                    "required": ["street", "city"],
                },
                "priority": {"type": "string", "enum": ["low", "high"]},
            },
            "required": ["name"],
        },
        "places": {
            "type": "array",
            "description": "Where the contact belongs.",
            "items": {"type": "string", "enum": ["work", "home"]},
        },
        "note": {"type": "string", "description": "A note to keep"},
        "score": {"type": "number"},
        "dry_run": {"type": "boolean", "description": DRY_RUN_PREVIEW},
    },
    "required": ["contact"],
}


def test_add_contact_schema():
    schema = tool_input_schema(add_contact)
    assert schema == ADD_CONTACT_SCHEMA
    # key order is the documented one, at every depth
    assert json.dumps(schema) == json.dumps(ADD_CONTACT_SCHEMA)


def test_schedule_schema_resolved_when_the_toolkit_was_assembled():
    schema = tool_input_schema(schedule)
    revision = schema["properties"]["revision"]
    assert revision["type"] == "integer"
    assert isinstance(revision.get("description"), str)
    assert revision["description"]
    assert schema == {
        "type": "object",
        "properties": {
            "when": {
                "type": "object",
                "description": "A time slot.",
                "properties": {
                    "day": {"type": "string", "enum": ["mon", "tue"]},
                    "hour": {"type": "integer"},
                },
                "required": ["day", "hour"],
            },
            "windows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "start": {"type": "integer"},
                        "end": {"type": "integer"},
                        "weight": {"type": "number", "enum": [1, 2.5]},
                    },
                    "required": ["start"],
                },
            },
            "repeat": {"type": "integer"},
            "labels": {"type": "object"},
            "revision": {"type": "integer", "description": revision["description"]},
        },
        "required": ["when"],
    }
    assert json.dumps(schema) == json.dumps(schema, sort_keys=False)


def test_no_fields_and_none_defaults_schemas():
    assert tool_input_schema(no_fields) == {"type": "object", "properties": {}}
    assert tool_input_schema(with_none_default) == {
        "type": "object",
        "properties": {"count": {"type": "integer"}, "label": {"type": "string"}},
    }


def test_mcp_entries_carry_the_same_schemas():
    entries = {entry["name"]: entry for entry in registry.mcp_tools()}
    assert entries["add_contact"]["inputSchema"] == ADD_CONTACT_SCHEMA
    assert entries["add_contact"]["description"] == "Adds a contact."
    assert entries["schedule"]["inputSchema"] == tool_input_schema(schedule)


def test_field_model_is_the_same_as_without_future_annotations():
    fields = {f.name: f for f in add_contact.input.fields}
    assert [f.name for f in add_contact.input.fields] == [
        "contact",
        "places",
        "note",
        "score",
        "dry_run",
    ]
    assert fields["contact"].required is True
    assert fields["places"].required is False
    assert fields["places"].default == frozenset()
    assert fields["note"].default is None
    assert fields["note"].description == "A note to keep"
    assert fields["places"].description == "Where the contact belongs."
    assert fields["dry_run"].description == DRY_RUN_PREVIEW
    none_fields = with_none_default.input.fields
    assert [(f.name, f.required, f.default) for f in none_fields] == [
        ("count", False, None),
        ("label", False, None),
    ]
    assert type(none_fields[0].type).__name__ == "Nullable"
    assert type(none_fields[1].type).__name__ == "Nullable"


# --- validation ---------------------------------------------------------------------------------


def test_add_contact_accepts_and_converts():
    out = parse_tool_input(
        add_contact,
        {
            "contact": {
                "name": "Ann",
                "emails": ["a@b"],
                "address": {"street": "1 Road", "city": "Town", "country": None},
                "priority": "high",
            },
            "places": ["work", "work", "home"],
            "note": "  hi  ",
            "score": 1,
            "dry_run": True,
        },
    )
    assert out == {
        "contact": Contact(
            name="Ann",
            emails=["a@b"],
            address={"street": "1 Road", "city": "Town"},
            priority=Priority.HIGH,
        ),
        "places": frozenset({"work", "home"}),
        "note": "hi",
        "score": 1.0,
        "dry_run": True,
    }
    assert type(out["score"]) is float
    assert out["contact"].priority is Priority.HIGH


def test_add_contact_defaults():
    out = parse_tool_input(add_contact, {"contact": {"name": "Ann"}})
    assert out == {
        "contact": Contact(name="Ann", emails=[], address=None, priority=Priority.LOW),
        "places": frozenset(),
        "note": None,
        "score": 0.5,
        "dry_run": None,
    }


def test_add_contact_refusals():
    assert refused(
        add_contact,
        {
            "contact": {
                "name": " ",
                "emails": ["ab", "abc"],
                "address": {"street": "s", "postcode": "x" * 11},
                "priority": "urgent",
            },
            "places": ["office"],
            "score": 1.5,
            "dry_run": "yes",
            "dryrun": True,
        },
    ) == (
        "a contact needs a name; "
        "contact.emails[0]: expected at least 3 characters, got 2; "
        "contact.address.city: missing, expected a string; "
        "contact.address.postcode: expected at most 10 characters, got 11; "
        'contact.priority: expected one of "low", "high", got "urgent"; '
        'places[0]: expected one of "work", "home", got "office"; '
        "score: expected at most 1, got 1.5; "
        'dry_run: expected a boolean, got "yes"; '
        "dryrun: unknown field (did you mean 'dry_run'?)"
    )


def test_schedule_union_of_object_and_literal():
    out = parse_tool_input(schedule, {"when": {"day": "mon", "hour": 9.0}})
    assert out["when"] == Slot(day="mon", hour=9)
    assert type(out["when"].hour) is int
    assert parse_tool_input(schedule, {"when": "now"})["when"] == "now"
    assert refused(schedule, {"when": "later"}) == (
        'when: expected an object or "now", got "later"'
    )
    assert refused(schedule, {"when": {"day": "wed", "hour": 24}}) == (
        'when.day: expected one of "mon", "tue", got "wed"; '
        "when.hour: expected less than 24, got 24"
    )


def test_schedule_nested_typeddict_and_records():
    out = parse_tool_input(
        schedule,
        {
            "when": "now",
            "windows": [{"start": 0, "end": None, "weight": 1.0}, {"start": 1, "weight": 2.5}],
            "repeat": "daily",
            "labels": {"a": 1},
            "revision": 3,
        },
    )
    assert out == {
        "when": "now",
        "windows": [{"start": 0, "weight": Weight.LIGHT}, {"start": 1, "weight": Weight.HEAVY}],
        "repeat": "daily",
        "labels": {"a": 1},
        "revision": 3,
    }
    assert refused(
        schedule,
        {
            "when": "now",
            "windows": [{"end": 1}, {"start": None}, {"start": -1, "weight": True}],
            "repeat": 1.5,
            "labels": {"b": -1},
            "revision": -1,
        },
    ) == (
        "windows[0].start: missing, expected an integer; "
        "windows[1].start: missing, expected an integer; "
        "windows[2].start: expected at least 0, got -1; "
        "windows[2].weight: expected one of 1, 2.5, got true; "
        "repeat: expected an integer or a string, got 1.5; "
        'labels["b"]: expected at least 0, got -1; '
        "revision: expected at least 0, got -1"
    )


def test_none_defaults_are_nullable():
    assert parse_tool_input(with_none_default, {}) == {"count": None, "label": None}
    assert parse_tool_input(with_none_default, {"count": None, "label": None}) == {
        "count": None,
        "label": None,
    }
    assert refused(with_none_default, {"label": ""}) == (
        "label: expected at least 1 character, got 0"
    )


def test_registry_runs_the_resolved_tools():
    result = asyncio.run(registry.run("add_contact", {"contact": {"name": "N"}, "note": " x "}))
    assert result == {
        "contact": Contact(name="N"),
        "places": frozenset(),
        "note": "x",
        "score": 0.5,
        "dry": None,
    }
    assert asyncio.run(registry.run("no_fields", None)) == "done"
    with pytest.raises(ToolRefusal) as info:
        asyncio.run(registry.run("no_fields", {"x": None}))
    assert info.value.message == "x: unknown field"
    assert info.value.lines == ("fields",)


def test_a_name_never_defined_raises_type_error_naming_it_at_assembly():
    @tool("late")
    async def never(x: NeverDefined) -> None:  # type: ignore[name-defined]  # noqa: F821 - the point
        """Names a class that is never defined."""

    with pytest.raises(TypeError, match="NeverDefined"):
        define_toolkit("late", [never])


def _module(name: str, source: str) -> types.ModuleType:
    """A module made from source, as if imported (its tools read their own names)."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(textwrap.dedent(source), module.__dict__)  # noqa: S102 - our own test source
    return module


def test_a_quoted_name_inside_a_type_is_read_in_each_tool_s_own_module():
    """`Optional["Item"]` is one object typing shares between modules; each reads its own Item."""
    shop = """
        from typing import Optional
        from typing_extensions import TypedDict
        from adecore_tools import tool

        class Item(TypedDict):
            {field}: {kind}

        @tool("{name}")
        async def take(item: Optional["Item"] = None) -> None:
            '''Takes an item.'''
    """
    first = _module("shop_first", shop.format(name="shop_first", field="name", kind="str"))
    second = _module("shop_second", shop.format(name="shop_second", field="count", kind="int"))
    assert first.take.input.fields[0].type.inner.cls is first.Item
    assert second.take.input.fields[0].type.inner.cls is second.Item
    assert parse_tool_input(second.take, {"item": {"count": 1}}) == {"item": {"count": 1}}


@pytest.mark.parametrize("typeddict", ["typing", "typing_extensions"])
def test_an_inherited_key_is_read_in_the_module_that_wrote_it(typeddict):
    """A TypedDict holds its bases' keys as its own: each is still read where it was written."""
    base = _module(
        f"shelf_base_{typeddict}",
        f"""
        from __future__ import annotations
        from dataclasses import dataclass
        from {typeddict} import TypedDict

        @dataclass
        class Item:
            count: int

        class Base(TypedDict):
            item: Item
        """,
    )
    child = _module(
        f"shelf_child_{typeddict}",
        f"""
        from dataclasses import dataclass
        from adecore_tools import tool
        from shelf_base_{typeddict} import Base

        @dataclass
        class Item:  # another class of the same name
            label: str

        class Child(Base):
            more: int

        @tool("shelf")
        async def put(shelf: Child) -> None:
            '''Puts an item on a shelf.'''
        """,
    )
    (item, more) = child.put.input.fields[0].type.fields
    assert item.type.cls is base.Item
    assert more.name == "more"
    assert parse_tool_input(child.put, {"shelf": {"item": {"count": 2}, "more": 1}}) == {
        "shelf": {"item": base.Item(count=2), "more": 1}
    }


@pytest.mark.parametrize("typeddict", ["typing", "typing_extensions"])
def test_a_typeddict_key_failing_is_named_though_an_inherited_key_names_a_name_of_its_module(
    typeddict,
):
    """An inherited key is read in its base's module when the field that fails is looked for
    too: `Item` is a value in the child's module, and reading the base's key there would name
    it in place of the key that failed."""
    _module(
        f"bin_base_{typeddict}",
        f"""
        from {typeddict} import TypedDict

        class Item(TypedDict):
            count: int

        class Base(TypedDict):
            item: "Item"
        """,
    )
    child = _module(
        f"bin_child_{typeddict}",
        f"""
        from bin_base_{typeddict} import Base

        Item = 3  # a value, no type: read here, the base's key would fail too

        class Child(Base):
            more: "int | 3"

        async def t(shelf: Child) -> None: ...
        """,
    )
    with pytest.raises(TypeError, match=r"^field 'shelf\.more' of tool 't': an annotation"):
        tool("bin", description="Puts.")(child.t)


def test_a_dataclass_field_naming_a_class_nested_in_it_is_read_in_the_class_body():
    """A dataclass's text annotation is read with its class body's names first, as Python reads
    one written there: only a TypedDict's keys skip that namespace (its bases' keys are its own,
    each read in the module that wrote it). Read as a TypedDict's, `Inner` was not defined."""
    module = _module(
        "nested_inner",
        """
        from dataclasses import dataclass
        from typing_extensions import TypedDict
        from adecore_tools import define_toolkit, tool

        @dataclass
        class Outer:
            class Inner(TypedDict):
                name: str

            inner: Inner

        @tool("nested")
        async def put(outer: Outer) -> None:
            '''Puts.'''

        kit = define_toolkit("nested", [put])
        """,
    )
    (inner,) = module.put.input.fields[0].type.fields
    assert inner.type.cls is module.Outer.Inner
    assert parse_tool_input(module.put, {"outer": {"inner": {"name": "a"}}}) == {
        "outer": module.Outer(inner={"name": "a"})
    }


def test_an_inherited_key_quoting_a_name_inside_a_type_reads_it_in_the_subclass_module():
    """docs/types.md: such a nested quote carries no module; quoting the whole annotation does.

    The base module is compiled without this file's `from __future__ import annotations`.
    """
    base = types.ModuleType("rack_base")
    sys.modules["rack_base"] = base
    source = textwrap.dedent(
        """
        from typing import List
        from dataclasses import dataclass
        from typing_extensions import TypedDict

        @dataclass
        class Item:
            count: int

        class Base(TypedDict):
            whole: "List[Item]"
            inside: List["Item"]
        """
    )
    exec(compile(source, "rack_base", "exec", dont_inherit=True), base.__dict__)  # noqa: S102
    child = _module(
        "rack_child",
        """
        from dataclasses import dataclass
        from adecore_tools import tool
        from rack_base import Base

        @dataclass
        class Item:
            label: str

        class Child(Base):
            pass

        @tool("rack")
        async def put(rack: Child) -> None:
            '''Puts items on a rack.'''
        """,
    )
    whole, inside = child.put.input.fields[0].type.fields
    assert whole.type.items.cls is base.Item
    assert inside.type.items.cls is child.Item


def test_a_kw_only_marker_under_future_annotations_reads_from_python_3_11():
    """Python 3.10's typing refuses the `KW_ONLY` sentinel quoted; the guide says what to write."""
    source = """
        from __future__ import annotations
        from dataclasses import KW_ONLY, dataclass
        from adecore_tools import tool

        @dataclass
        class Options:
            _: KW_ONLY
            limit: int = 10

        async def search(options: Options) -> None:
            '''Searches.'''
        """
    module = _module("kw_only_marker", source)
    if sys.version_info < (3, 11):
        with pytest.raises(TypeError, match=r"field 'options\._' .*KW_ONLY"):
            tool("kw")(module.search)
    else:
        found = tool("kw")(module.search)
        assert parse_tool_input(found, {"options": {}}) == {"options": module.Options(limit=10)}


def test_a_class_variable_a_dataclass_took_for_a_field_is_named_as_one():
    """`dataclasses` spots a quoted `ClassVar` only by name or through `typing.`: `te.ClassVar`
    made a field, refused as "type ClassVar[int] has no one JSON type", which it has."""
    source = """
        from __future__ import annotations
        from dataclasses import dataclass
        import typing_extensions as te
        from adecore_tools import tool

        @dataclass
        class Options:
            limit: int = 10
            made: te.ClassVar[int] = 0

        async def search(options: Options) -> None:
            '''Searches.'''
        """
    module = _module("class_variable", source)
    if sys.version_info >= (3, 15):  # dataclasses spots it itself: no field, nothing to name
        options = tool("kw")(module.search).input.fields[0].type
        assert [f.name for f in options.fields] == ["limit"]
        return
    with pytest.raises(TypeError) as caught:
        tool("kw")(module.search)
    assert str(caught.value) == (
        "field 'options.made' of tool 'search': ClassVar[int] is a class variable, never "
        "input; write the field's type alone (a dataclass takes te.ClassVar[...] for a field "
        "when quoted, as under from __future__ import annotations: import ClassVar by name "
        "there)"
    )


@pytest.mark.parametrize(
    ("params", "error"),
    [
        (
            "x: typing.Final[int]",
            (
                "field 'x' of tool 'take': Final[int] is read only as a dataclass field's "
                "annotation with its type, Final[X]; write the type alone here"
            ),
        ),
        (
            "x: 'typing.ClassVar[int]'",
            (
                "field 'x' of tool 'take': ClassVar[int] is a class variable, never input; "
                "write the field's type alone (a dataclass takes te.ClassVar[...] for a field "
                "when quoted, as under from __future__ import annotations: import ClassVar by "
                "name there)"
            ),
        ),
        (
            "x: typing.Final[int], y: int | 'str'",
            (
                "field 'y' of tool 'take': an annotation cannot be read (TypeError: unsupported "
                "operand type(s) for |: 'type' and 'str'); write a valid type"
            ),
        ),
        (
            "x: typing.Final[int], y: Nope",
            (
                "tool 'take': field 'y' names 'Nope', which is not defined; define or import it at "
                "module level, in the module that wrote the annotation, before the toolkit is "
                "assembled"
            ),
        ),
    ],
    ids=[
        "final",
        "class variable quoted",
        "beside one that cannot be read",
        "beside one undefined",
    ],
)
def test_a_parameter_s_final_or_class_variable_is_named_as_when_unquoted(params, error):
    """Before Python 3.14, typing refuses `Final[X]` and `ClassVar[X]` written as text in a
    function's annotation with its own TypeError: the tool was refused with "tool 'take': an
    annotation cannot be read (TypeError: typing.Final[int] is not valid as type argument)",
    naming no field, where the same tool unquoted, or on 3.14, names the field and says what
    `Final` means; beside another annotation's failure, that one was hidden or wrongly named."""
    module = _module(
        "final_parameter",
        f"""
        from __future__ import annotations
        import typing
        from adecore_tools import tool

        async def take({params}) -> None:
            '''Takes.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        define_toolkit("kit", [tool("kit")(module.take)])
    assert str(caught.value) == error


def test_an_annotation_failing_only_in_its_own_module_names_its_field():
    """The field whose annotation fails is found by reading each alone in the module that wrote
    it: `Box[int]` fails there (`Box` is 3), where read in no module it names nothing defined,
    another failure, and no field was named."""
    module = _module(
        "failing_in_module",
        """
        from adecore_tools import tool

        Box = 3

        async def take(n: int, box: Box[int]) -> None:
            '''Takes.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        tool("kit")(module.take)
    assert str(caught.value) == (
        "field 'box' of tool 'take': an annotation cannot be read (TypeError: 'int' object is "
        "not subscriptable); write a valid type"
    )


@pytest.mark.parametrize(
    ("params", "namespace"),
    [
        pytest.param("x: typing.Final[int]", {"typing": typing}, id="in its own namespace"),
        pytest.param(
            "[T](x: typing.Final[int], y: list[T])",
            {"typing": typing},
            id="beside a type parameter",
            marks=pytest.mark.skipif(
                sys.version_info < (3, 12), reason="type parameter syntax is new in 3.12"
            ),
        ),
    ],
)
def test_a_final_parameter_is_named_where_its_function_looks_names_up(params, namespace):
    """Before Python 3.14 a `Final` parameter's text sends every parameter's hint through a class
    body: read there in the function's own namespace (`exec` in a dict of its own) and with its
    type parameters, as the function's are, or `typing` and `T` were names not defined."""
    signature = params if params.startswith("[") else f"({params})"
    source = f"async def take{signature} -> None:\n    '''Takes.'''\n"
    exec(source, namespace)  # noqa: S102 - our own test source
    with pytest.raises(TypeError) as caught:
        define_toolkit("kit", [tool("kit")(namespace["take"])])
    assert str(caught.value) == (
        "field 'x' of tool 'take': Final[int] is read only as a dataclass field's annotation with "
        "its type, Final[X]; write the type alone here"
    )


def test_a_parameter_s_metadata_is_kept_beside_a_final_one():
    """Before Python 3.14 a `Final` parameter's text sends every parameter's hint through a class
    body (see the test above): each keeps its metadata there, so the first field refused is
    still the one whose bounds no value meets, not the `Final` one after it."""
    module = _module(
        "final_beside_metadata",
        """
        from __future__ import annotations
        import typing
        import annotated_types as at
        from adecore_tools import tool

        async def take(y: typing.Annotated[int, at.Ge(5), at.Le(1)], x: typing.Final[int]) -> None:
            '''Takes.'''
        """,
    )
    with pytest.raises(ValueError, match="no value meets") as caught:
        define_toolkit("kit", [tool("kit")(module.take)])
    assert str(caught.value) == (
        "field 'y' of tool 'take': no value meets both Ge(ge=5) and Le(le=1); loosen one of them"
    )


def test_the_field_that_cannot_be_read_is_named_past_one_only_its_class_can_read():
    """Each annotation is tried alone, as typing read the class, to find the one that failed: one
    naming a class nested in the dataclass reads there (`Inner` is its body's, not the module's),
    and the next field is named."""
    module = _module(
        "unreadable_past_nested",
        """
        from dataclasses import dataclass
        from typing_extensions import TypedDict
        from adecore_tools import tool

        @dataclass
        class Outer:
            class Inner(TypedDict):
                name: str

            inner: Inner
            bad: int | "str"

        async def put(outer: Outer) -> None:
            '''Puts.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        tool("kit")(module.put)
    assert str(caught.value) == (
        "field 'outer.bad' of tool 'put': an annotation cannot be read (TypeError: unsupported "
        "operand type(s) for |: 'type' and 'str'); write a valid type"
    )


@pytest.mark.parametrize(
    ("module_line", "body_line", "error"),
    [
        pytest.param("", "class Inner: ...", "type 'Inner' is not subscriptable", id="nested"),
        pytest.param(
            "Inner = 3", "Inner = list", "'int' object is not subscriptable", id="module first"
        ),
    ],
)
def test_an_annotation_failing_through_a_name_of_its_class_body_names_its_field(
    module_line, body_line, error
):
    """`Inner[int]` is tried alone where typing read it: the module's names, then the class
    body's (a nested class). Tried in the module only, it failed otherwise (`Inner` not defined),
    and the tool was refused naming no field; tried in the body first, `list[int]` read fine."""
    module = _module(
        f"unreadable_in_body_{len(module_line)}",
        f"""
        from __future__ import annotations
        from dataclasses import dataclass
        from adecore_tools import tool

        {module_line}

        @dataclass
        class Outer:
            {body_line}
            a: int
            b: Inner[int]

        async def put(outer: Outer) -> None:
            '''Puts.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        tool("kit")(module.put)
    assert str(caught.value).replace("'type' object", "type 'Inner'") == (
        f"field 'outer.b' of tool 'put': an annotation cannot be read (TypeError: {error}); "
        "write a valid type"
    )


def test_an_annotation_failing_only_in_its_function_s_own_namespace_names_its_field():
    """A function made by `exec` in a dict of its own looks names up there, not in a module:
    `Box[int]` fails as the whole did only there (`Box` is 3), and the tool was refused naming
    no field."""
    namespace: dict[str, object] = {"Box": 3}
    source = """
        async def take(n: int, box: Box[int]) -> None:
            '''Takes.'''
    """
    exec(textwrap.dedent(source), namespace)  # noqa: S102 - our own test source
    with pytest.raises(TypeError) as caught:
        tool("kit")(namespace["take"])
    assert str(caught.value) == (
        "field 'box' of tool 'take': an annotation cannot be read (TypeError: 'int' object is "
        "not subscriptable); write a valid type"
    )


@pytest.mark.skipif(sys.version_info < (3, 12), reason="type parameter syntax is new in 3.12")
def test_an_annotation_failing_through_its_function_s_type_parameter_names_its_field():
    """`T[int]` fails as the whole did only where `T` is defined: tried alone without the
    function's type parameters it failed otherwise (`T` not defined), and the tool was refused
    naming no field."""
    module = _module(
        "unreadable_type_parameter",
        """
        from __future__ import annotations
        from adecore_tools import tool

        async def take[T](n: int, a: T[int]) -> None:
            '''Takes.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        tool("kit")(module.take)
    assert str(caught.value) == (
        "field 'a' of tool 'take': an annotation cannot be read (TypeError: 'typing.TypeVar' "
        "object is not subscriptable); write a valid type"
    )


def test_a_return_annotation_only_a_type_checker_can_read_is_not_a_field():
    module = _module(
        "checked_only",
        """
        from typing import TYPE_CHECKING
        from adecore_tools import tool

        if TYPE_CHECKING:
            from decimal import Decimal

        @tool("checked_only")
        async def total(n: int) -> Decimal:
            '''Adds up.'''
        """,
    )
    (total,) = define_toolkit("checked_only", [module.total]).tools
    assert [f.name for f in total.input.fields] == ["n"]


def test_a_reloaded_module_s_tool_reads_the_names_standing_when_it_is_declared():
    """docs/decisions.md: `importlib.reload` runs a module's new source in its old namespace. A
    tool reads its hints when declared, so a class defined above it is the new one, but one
    further down is still the previous version's there, and the tool keeps that one."""
    source = """
        from __future__ import annotations
        from typing_extensions import TypedDict
        from adecore_tools import define_toolkit, tool

        class Above(TypedDict):
            {key}: int

        @tool("plugin")
        async def put(above: Above, below: Below) -> None:
            '''Puts.'''

        class Below(TypedDict):
            {key}: int

        kit = define_toolkit("plugin", [put])
    """
    module = _module("plugin_reloaded", source.format(key="old"))
    first = module.put
    assert [f.type.cls for f in first.input.fields] == [module.Above, module.Below]
    old_below = module.Below
    exec(textwrap.dedent(source.format(key="new")), module.__dict__)  # noqa: S102 - as reload does
    assert module.put is not first
    assert [f.type.cls for f in module.put.input.fields] == [module.Above, old_below]
    assert parse_tool_input(module.put, {"above": {"new": 1}, "below": {"old": 2}}) == {
        "above": {"new": 1},
        "below": {"old": 2},
    }
