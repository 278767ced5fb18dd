"""`tool_input_schema`, as literal dicts: the schema column of docs/types.md, and more."""

import contextlib
import copy
import enum
import json
import pickle
import sys
import textwrap
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NewType, Optional, TypedDict

import annotated_types as at
import pytest
import typing_extensions as te
from annotated_types import Ge, Gt, Interval, Le, Len, MaxLen, MinLen, MultipleOf, Predicate
from helpers import Level
from typing_extensions import Doc, NotRequired, ReadOnly, Required, TypeAliasType

from adecore_tools import (
    ToolCall,
    create_tool_registry,
    define_toolkit,
    tool,
    tool_input_schema,
)
from adecore_tools._render import schema as _schema

# --- helpers --------------------------------------------------------------------------------------


def make(fn, **options):
    options.setdefault("description", "A tool.")
    return tool("kit", **options)(fn)


def schema_of(fn, **options):
    return tool_input_schema(make(fn, **options))


def assert_schema(actual, expected):
    """Equal, and with the same key order at every depth (json.dumps keeps insertion order)."""
    assert actual == expected
    assert json.dumps(actual) == json.dumps(expected)


def one_field(tp):
    """The schema of a tool with one field `x` of type `tp`."""

    async def t(x: tp): ...

    return schema_of(t)


def walk(value, path="$"):
    """Every (path, dict) in a schema."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")


# --- classes used as field types ------------------------------------------------------------------


class StrColor(str, enum.Enum):
    """Not `helpers.Color`: its members are strings too (a `str` mixin)."""

    RED = "red"
    GREEN = "green"


class Amount(enum.Enum):
    ONE = 1
    HALF = 0.5


class Point(TypedDict):
    """A point on the page.

    Attributes:
        x: Across, in points.
    """

    x: int
    y: int


class Keys(TypedDict):
    a: int
    b: NotRequired[str]
    c: int | None
    d: Required[int | None]
    e: Annotated[NotRequired[str], Doc("Maybe e.")]


class Partial(TypedDict, total=False):
    a: int
    b: Required[str]


class AllOptional(TypedDict, total=False):
    a: int
    b: str


@dataclass
class Box:
    """A box to put notes in.

    Args:
        width: How wide it is.
    """

    width: int
    height: int = 3
    tags: list[str] = field(default_factory=list)
    label: str | None = None


@dataclass
class Plain:
    name: str


@dataclass(frozen=True)
class Bounded:
    n: Annotated[int, Ge(0)] = 0


class Leaf(TypedDict):
    name: str
    tags: NotRequired[list[str]]


class Branch(TypedDict):
    leaves: list[Leaf]
    note: NotRequired[str]


class Trunk(TypedDict):
    """A trunk."""

    branches: list[Branch]


class Base(TypedDict):
    a: int


class Extended(Base, total=False):
    """
    Attributes:
        b: The b.
    """

    b: str


class Frozen(TypedDict):
    r: ReadOnly[int]
    s: ReadOnly[NotRequired[str]]


class LooseLeaf(TypedDict, total=False):
    name: str


class LooseBranch(TypedDict, total=False):
    leaves: list[LooseLeaf]


UserId = NewType("UserId", int)
Tags = NewType("Tags", list[str])
TagList = TypeAliasType("TagList", list[str])
Name = TypeAliasType("Name", Annotated[str, Doc("A name.")])
PointAlias = TypeAliasType("PointAlias", Point)


class Call(ToolCall):
    pass


# --- one row of 4.2 at a time ---------------------------------------------------------------------

STRING = {"type": "string"}
INTEGER = {"type": "integer"}
POINT = {
    "type": "object",
    "description": "A point on the page.",
    "properties": {
        "x": {"type": "integer", "description": "Across, in points."},
        "y": {"type": "integer"},
    },
    "required": ["x", "y"],
}

REQUIRED_ROWS = [
    (str, STRING),
    (int, INTEGER),
    (float, {"type": "number"}),
    (bool, {"type": "boolean"}),
    (Literal["a", "b"], {"type": "string", "enum": ["a", "b"]}),
    (Literal[1, 2, 3], {"type": "integer", "enum": [1, 2, 3]}),
    (Literal[True, False], {"type": "boolean", "enum": [True, False]}),
    (Literal[False], {"type": "boolean", "enum": [False]}),
    (StrColor, {"type": "string", "enum": ["red", "green"]}),
    (Level, {"type": "integer", "enum": [1, 2]}),
    (Amount, {"type": "number", "enum": [1, 0.5]}),
    (list[int], {"type": "array", "items": INTEGER}),
    (Sequence[str], {"type": "array", "items": STRING}),
    (tuple[str, ...], {"type": "array", "items": STRING}),
    (set[int], {"type": "array", "items": INTEGER}),
    (frozenset[str], {"type": "array", "items": STRING}),
    (list[list[bool]], {"type": "array", "items": {"type": "array", "items": {"type": "boolean"}}}),
    (list[StrColor], {"type": "array", "items": {"type": "string", "enum": ["red", "green"]}}),
    (dict[str, int], {"type": "object"}),
    (Mapping[str, str], {"type": "object"}),
    (dict[str, list[Point]], {"type": "object"}),
    (Point, POINT),
    (Annotated[str, Doc("The text.")], {"type": "string", "description": "The text."}),
    (Annotated[str, at.doc("The text.")], {"type": "string", "description": "The text."}),
    (Annotated[int, Ge(0), Doc("A count.")], {"type": "integer", "description": "A count."}),
    (UserId, INTEGER),
    (Tags, {"type": "array", "items": STRING}),
    (TagList, {"type": "array", "items": STRING}),
    (Name, {"type": "string", "description": "A name."}),
    (PointAlias, POINT),
    (list[UserId], {"type": "array", "items": INTEGER}),
]


@pytest.mark.parametrize(("tp", "expected"), REQUIRED_ROWS, ids=repr)
def test_type_row(tp, expected):
    assert_schema(
        one_field(tp), {"type": "object", "properties": {"x": expected}, "required": ["x"]}
    )


# The first branch is the first `typing.get_args` returns for the resolved hint (Python's
# typing cache may reorder equal unions), so each expectation is looked up from that branch.
BRANCH_SCHEMAS = {
    int: INTEGER,
    str: STRING,
    float: {"type": "number"},
    bool: {"type": "boolean"},
    Point: POINT,
    Literal["a"]: {"type": "string", "enum": ["a"]},
    list[int]: {"type": "array", "items": INTEGER},
}
UNIONS = [
    int | str,
    str | int,
    Point | str,
    str | Point,
    float | bool,
    Literal["a"] | int,
    list[int] | str,
]


@pytest.mark.parametrize("tp", UNIONS, ids=repr)
def test_union_lists_its_first_branch_only(tp):
    async def t(x: tp): ...

    made = make(t)
    first = typing.get_args(te.get_type_hints(made.fn, include_extras=True)["x"])[0]
    assert_schema(
        tool_input_schema(made),
        {"type": "object", "properties": {"x": BRANCH_SCHEMAS[first]}, "required": ["x"]},
    )


def _fresh_pair() -> tuple[Any, Any, dict[str, Any], dict[str, Any]]:
    """Two new classes no union has held yet (so no cache can reorder them), and their schemas."""

    class Cat(TypedDict):
        meow: str

    class Dog(TypedDict):
        woof: int

    cat = {"type": "object", "properties": {"meow": STRING}, "required": ["meow"]}
    dog = {"type": "object", "properties": {"woof": INTEGER}, "required": ["woof"]}
    return Cat, Dog, cat, dog


def test_union_of_fresh_classes_lists_the_written_first_branch():
    Cat, Dog, cat, dog = _fresh_pair()
    assert_schema(one_field(Cat | Dog)["properties"]["x"], cat)
    assert_schema(one_field(Dog | Cat | None)["properties"]["x"], dog)


def test_union_order_does_not_leak_between_tools():
    Cat, Dog, cat, dog = _fresh_pair()
    # `Cat | Dog == Dog | Cat`, but `typing.get_args` keeps each one's own order.
    assert typing.get_args(Dog | Cat) == (Dog, Cat)
    assert_schema(one_field(Cat | Dog)["properties"]["x"], cat)
    assert_schema(one_field(Dog | Cat)["properties"]["x"], dog)


def test_union_order_inside_a_list_does_not_leak_between_tools():
    """On 3.10 `list[X]` is an instance of `type` too: the order inside it still counts."""
    Cat, Dog, cat, dog = _fresh_pair()
    assert_schema(one_field(list[Cat | Dog])["properties"]["x"], {"type": "array", "items": cat})
    assert_schema(one_field(list[Dog | Cat])["properties"]["x"], {"type": "array", "items": dog})


def test_literal_order_does_not_leak_between_tools():
    # `Literal["p", "q"] == Literal["q", "p"]`, but each lists its values in its own order.
    first = Literal["order_p", "order_q"]
    second = Literal["order_q", "order_p"]
    assert typing.get_args(second) == ("order_q", "order_p")
    assert_schema(
        one_field(first)["properties"]["x"], {"type": "string", "enum": ["order_p", "order_q"]}
    )
    assert_schema(
        one_field(second)["properties"]["x"], {"type": "string", "enum": ["order_q", "order_p"]}
    )


OPTIONAL_ROWS = [
    (int | None, INTEGER),
    (Optional[int], INTEGER),  # noqa: UP045 - the old spelling is the subject
    (None | str, STRING),
    (Literal["a", "b", None], {"type": "string", "enum": ["a", "b"]}),  # noqa: PYI061
    (list[int] | None, {"type": "array", "items": INTEGER}),
    (Point | None, POINT),
    (Annotated[int | None, Ge(0), Doc("n")], {"type": "integer", "description": "n"}),
    (Annotated[int, Doc("n")] | None, {"type": "integer", "description": "n"}),
]


@pytest.mark.parametrize(("tp", "expected"), OPTIONAL_ROWS, ids=repr)
def test_optional_type_row_leaves_the_null_branch_out(tp, expected):
    assert_schema(one_field(tp), {"type": "object", "properties": {"x": expected}})


def test_list_of_optional_items_leaves_the_null_branch_out():
    assert_schema(
        one_field(list[int | None]),
        {
            "type": "object",
            "properties": {"x": {"type": "array", "items": INTEGER}},
            "required": ["x"],
        },
    )


# --- objects --------------------------------------------------------------------------------------


def test_typed_dict_required_not_required_and_none():
    assert_schema(
        one_field(Keys),
        {
            "type": "object",
            "properties": {
                "x": {
                    "type": "object",
                    "properties": {
                        "a": INTEGER,
                        "b": STRING,
                        "c": INTEGER,
                        "d": INTEGER,
                        "e": {"type": "string", "description": "Maybe e."},
                    },
                    "required": ["a", "d"],
                }
            },
            "required": ["x"],
        },
    )


def test_typed_dict_totality():
    assert_schema(
        one_field(Partial),
        {
            "type": "object",
            "properties": {
                "x": {
                    "type": "object",
                    "properties": {"a": INTEGER, "b": STRING},
                    "required": ["b"],
                }
            },
            "required": ["x"],
        },
    )


def test_object_with_no_required_key_omits_required():
    assert_schema(
        one_field(AllOptional),
        {
            "type": "object",
            "properties": {"x": {"type": "object", "properties": {"a": INTEGER, "b": STRING}}},
            "required": ["x"],
        },
    )


def test_dataclass():
    assert_schema(
        one_field(Box),
        {
            "type": "object",
            "properties": {
                "x": {
                    "type": "object",
                    "description": "A box to put notes in.",
                    "properties": {
                        "width": {"type": "integer", "description": "How wide it is."},
                        "height": INTEGER,
                        "tags": {"type": "array", "items": STRING},
                        "label": STRING,
                    },
                    "required": ["width"],
                }
            },
            "required": ["x"],
        },
    )


@dataclass
class Mark:
    """Mark(x): a place on the page.

    Attributes:
        x: Points from the left edge.
    """

    x: int


def test_a_docstring_that_starts_like_the_generated_one_is_still_the_classs_own():
    assert one_field(Mark)["properties"]["x"] == {
        "type": "object",
        "description": "Mark(x): a place on the page.",
        "properties": {"x": {**INTEGER, "description": "Points from the left edge."}},
        "required": ["x"],
    }


@dataclass
class Span:
    """Span(start: the first line, end: the line after it)"""

    start: int
    end: int


def test_a_docstring_shaped_like_the_generated_one_is_still_the_classs_own():
    """Python 3.14 matched any text where the generated docstring has an annotation, so this
    description, kept on 3.10 to 3.13, was dropped there."""
    assert one_field(Span)["properties"]["x"]["description"] == (
        "Span(start: the first line, end: the line after it)"
    )


def test_the_docstring_dataclasses_wrote_for_an_own_init_under_future_annotations_is_none():
    """Its own `__init__` returns `'None'`, a string, which `dataclasses` writes (` -> 'None'`):
    Python 3.14 left the return annotation out of the docstring it compared, and listed this
    one as the object's description."""
    namespace: dict[str, Any] = {}
    source = textwrap.dedent(
        """
        from __future__ import annotations
        from dataclasses import dataclass

        @dataclass(init=False)
        class Row:
            n: int

            def __init__(self, n: int) -> None:
                self.n = n
        """
    )
    exec(compile(source, "own_init_row", "exec", dont_inherit=True), namespace)  # noqa: S102
    row = namespace["Row"]
    assert row.__doc__ == "Row(n: 'int') -> 'None'"
    assert "description" not in one_field(row)["properties"]["x"]


@dataclass(init=False)
class Cell:
    n: int

    def __init__(self, n: int):  # no return annotation: what is tested
        self.n = n


@dataclass(init=False)
class Sheet:
    """Sheet(n: int) -> ForwardRef('Sheet'), as a type checker shows it"""

    n: int

    def __init__(self, n: int):  # no return annotation: what is tested
        self.n = n


@dataclass(init=False)
class BareCell:
    n: int

    def __init__(self, n):  # a parameter with no annotation: what is tested
        self.n = n


def test_the_docstring_dataclasses_wrote_for_an_own_init_with_a_bare_parameter_is_none():
    """A parameter with no annotation shows bare in what `dataclasses` wrote (`BareCell(n)`):
    that is no description either, and telling so raises nothing."""
    assert BareCell.__doc__ == "BareCell(n)"
    assert "description" not in one_field(BareCell)["properties"]["x"]


def test_the_docstring_dataclasses_wrote_for_an_own_init_with_no_return_annotation_is_none():
    """It ends at the parameters; a docstring going on as if a return annotation followed is
    the class's own."""
    assert Cell.__doc__ == "Cell(n: int)"
    assert "description" not in one_field(Cell)["properties"]["x"]
    assert one_field(Sheet)["properties"]["x"]["description"] == Sheet.__doc__


@pytest.mark.skipif(sys.version_info < (3, 14), reason="field(doc=...) is new in Python 3.14")
def test_a_dataclass_fields_own_doc_describes_it_before_the_class_docstring():
    """It was ignored: each field's description came only from its annotation or the class."""

    @dataclass
    class Note:
        """A note.

        Attributes:
            text: From the docstring.
            tag: From the docstring too.
        """

        text: str = field(doc="What the note says.")  # type: ignore[call-arg]
        tag: Annotated[str, Doc("From Doc.")] = field(default="", doc="Loses to Doc.")  # type: ignore[call-arg]
        size: int = field(default=0, doc="How long it is.")  # type: ignore[call-arg]

    assert one_field(Note)["properties"]["x"]["properties"] == {
        "text": {**STRING, "description": "What the note says."},
        "tag": {**STRING, "description": "From Doc."},
        "size": {**INTEGER, "description": "How long it is."},
    }


@pytest.mark.skipif(sys.version_info < (3, 14), reason="field(doc=...) is new in Python 3.14")
def test_a_dataclass_fields_own_doc_holding_a_lone_surrogate_is_refused():
    @dataclass
    class Note:
        text: str = field(doc="The \ud800.")  # type: ignore[call-arg]

    with pytest.raises(ValueError, match=r"^field 'x.text' of tool 't': its description holds a"):
        one_field(Note)


@pytest.mark.skipif(sys.version_info < (3, 14), reason="field(doc=...) is new in Python 3.14")
def test_a_dataclass_fields_own_doc_that_is_no_text_leaves_the_class_docstring_s_entry():
    """`field(doc=...)` takes any object: only text describes a field, as a `Doc` holding no
    str describes none; the class docstring's entry stands."""

    @dataclass
    class Note:
        """A note.

        Attributes:
            text: From the docstring.
        """

        text: str = field(doc=Doc("Not text."))  # type: ignore[call-arg]

    assert one_field(Note)["properties"]["x"]["properties"] == {
        "text": {**STRING, "description": "From the docstring."},
    }


def test_dataclass_without_docstring_has_no_description():
    # dataclasses writes `Plain(name: str)` as the docstring: that is not a description.
    assert_schema(
        one_field(Plain),
        {
            "type": "object",
            "properties": {
                "x": {"type": "object", "properties": {"name": STRING}, "required": ["name"]}
            },
            "required": ["x"],
        },
    )


def test_dataclass_default_and_bounds_are_not_listed():
    assert_schema(
        one_field(Bounded),
        {
            "type": "object",
            "properties": {"x": {"type": "object", "properties": {"n": INTEGER}}},
            "required": ["x"],
        },
    )


def test_nested_objects_at_depth_three_inside_lists():
    async def t(trunks: list[Trunk], loose: list[LooseBranch] | None = None): ...

    leaf = {
        "type": "object",
        "properties": {"name": STRING, "tags": {"type": "array", "items": STRING}},
        "required": ["name"],
    }
    branch = {
        "type": "object",
        "properties": {"leaves": {"type": "array", "items": leaf}, "note": STRING},
        "required": ["leaves"],
    }
    trunk = {
        "type": "object",
        "description": "A trunk.",
        "properties": {"branches": {"type": "array", "items": branch}},
        "required": ["branches"],
    }
    loose_branch = {
        "type": "object",
        "properties": {
            "leaves": {
                "type": "array",
                "items": {"type": "object", "properties": {"name": STRING}},
            }
        },
    }
    assert_schema(
        schema_of(t),
        {
            "type": "object",
            "properties": {
                "trunks": {"type": "array", "items": trunk},
                "loose": {"type": "array", "items": loose_branch},
            },
            "required": ["trunks"],
        },
    )


def test_inherited_typed_dict_keeps_each_class_totality():
    # Extended's docstring is only an attribute section: no description is left for the object.
    assert_schema(
        one_field(Extended)["properties"]["x"],
        {
            "type": "object",
            "properties": {"a": INTEGER, "b": {"type": "string", "description": "The b."}},
            "required": ["a"],
        },
    )


def test_read_only_typed_dict_keys():
    assert_schema(
        one_field(Frozen)["properties"]["x"],
        {"type": "object", "properties": {"r": INTEGER, "s": STRING}, "required": ["r"]},
    )


# --- descriptions ---------------------------------------------------------------------------------


async def google_documented(text: str, count: int = 1):
    """Write a note.

    Args:
        text: The note's text.
        count (int): How many
            copies to write.
    """


async def numpy_documented(text: str, count: int = 1):
    """Write a note.

    Parameters
    ----------
    text : str
        The note's text.
    count : int
        How many copies.
    """


async def sphinx_documented(text: str, count: int = 1):
    """Write a note.

    :param text: The note's text.
    :type text: str
    :param count: How many copies.
    """


@pytest.mark.parametrize(
    ("fn", "count_description"),
    [
        (google_documented, "How many copies to write."),
        (numpy_documented, "How many copies."),
        (sphinx_documented, "How many copies."),
    ],
    ids=["google", "numpy", "sphinx"],
)
def test_param_docs_of_each_style_describe_the_fields(fn, count_description):
    assert_schema(
        tool_input_schema(tool("kit")(fn)),
        {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "The note's text."},
                "count": {"type": "integer", "description": count_description},
            },
            "required": ["text"],
        },
    )


def test_doc_wins_over_the_docstring():
    async def t(text: Annotated[str, Doc("From Doc.")], point: Annotated[Point, Doc("Where.")]):
        """Write a note.

        Args:
            text: From the docstring.
            point: From the docstring too.
        """

    schema = tool_input_schema(tool("kit")(t))
    assert schema["properties"]["text"] == {"type": "string", "description": "From Doc."}
    assert schema["properties"]["point"]["description"] == "Where."


def test_doc_wins_over_the_docstring_on_an_optional_field():
    async def t(
        note: Annotated[str, Doc("From Doc.")] | None = None,
        tag: Annotated[str | None, Doc("The tag, from Doc.")] = None,
    ):
        """Write a note.

        Args:
            note: From the docstring.
            tag: From the docstring too.
        """

    schema = tool_input_schema(tool("kit")(t))
    assert schema["properties"] == {
        "note": {"type": "string", "description": "From Doc."},
        "tag": {"type": "string", "description": "The tag, from Doc."},
    }


def test_param_docstring_wins_over_the_class_docstring():
    async def t(point: Point):
        """Write a note.

        Args:
            point: Where the note goes.
        """

    schema = tool_input_schema(tool("kit")(t))
    assert_schema(schema["properties"]["point"], {**POINT, "description": "Where the note goes."})


def test_class_docstring_describes_the_object_in_a_list():
    schema = one_field(list[Point])
    assert_schema(schema["properties"]["x"], {"type": "array", "items": POINT})


def test_typed_dict_without_docstring_has_no_description():
    schema = one_field(Leaf)
    assert "description" not in schema["properties"]["x"]


def test_item_description_inside_a_described_list():
    tp = Annotated[list[Annotated[str, Doc("One tag.")]], Doc("The tags.")]
    assert_schema(
        one_field(tp)["properties"]["x"],
        {
            "type": "array",
            "description": "The tags.",
            "items": {"type": "string", "description": "One tag."},
        },
    )


class DocumentedBase(te.TypedDict):  # typing's keeps no bases before 3.12
    """Something described.

    Attributes:
        name: The name, documented in the base.
    """

    name: str


class DocumentedChild(DocumentedBase):
    size: int


class OverridingChild(DocumentedBase):
    """Overrides one description.

    Attributes:
        name: The name, as the subclass says.
    """


@dataclass
class DocumentedData:
    """Something described.

    Attributes:
        name: The name, documented in the base.
    """

    name: str


@dataclass
class DocumentedDataChild(DocumentedData):
    size: int = 0


@pytest.mark.parametrize(
    ("annotation", "name_doc"),
    [
        (DocumentedChild, "The name, documented in the base."),
        (OverridingChild, "The name, as the subclass says."),
        (DocumentedDataChild, "The name, documented in the base."),
    ],
)
def test_a_field_documented_in_a_base_class_keeps_its_description(annotation, name_doc):
    properties = one_field(annotation)["properties"]["x"]["properties"]
    assert properties["name"].get("description") == name_doc
    assert "description" not in properties.get("size", {})


AliasedCount = TypeAliasType("AliasedCount", Annotated[int, Doc("A count from the alias.")])


@pytest.mark.parametrize(
    ("annotation", "description"),
    [
        (Annotated[AliasedCount, Ge(0)], "A count from the alias."),
        (Annotated[int, Doc("The first branch.")] | str, "The first branch."),
        (Point | None, "A point on the page."),
        (Annotated[Point, Doc("Where.")], "Where."),
        (Optional[Annotated[Annotated[int, Doc("Inner.")], Ge(1)]], "Inner."),  # noqa: UP045
        (list[Annotated[int, Doc("One item.")]], None),
    ],
)
def test_a_fields_description_is_the_one_its_schema_shows(annotation, description):
    """A host reads descriptions from the fields, without parsing schemas."""
    namespace = {"A": annotation}
    exec("async def t(x: A) -> None:\n    'Takes x.'", namespace)  # noqa: S102 - our own text
    t = tool("kit")(namespace["t"])
    assert t.input.fields[0].description == description
    assert tool_input_schema(t)["properties"]["x"].get("description") == description


def test_a_docstring_entry_wins_over_a_description_inside_the_type():
    async def t(x: Annotated[AliasedCount, Ge(0)], y: Optional[int] = None) -> None:  # noqa: UP045
        """Takes counts.

        Args:
            x: How many.
            y: How many more.
        """

    properties = tool_input_schema(tool("kit")(t))["properties"]
    assert properties["x"] == {"type": "integer", "description": "How many."}
    assert properties["y"] == {"type": "integer", "description": "How many more."}


AliasedName = NewType("AliasedName", Annotated[str, Doc("A name from the NewType.")])  # type: ignore[misc]


class AliasedKeys(TypedDict):
    """Keys whose types are aliases.

    Attributes:
        count: How many, as the class says.
    """

    count: Required[AliasedCount]


@dataclass
class AliasedFields:
    """Fields whose types are aliases.

    Attributes:
        count: How many, the dataclass says.
    """

    count: AliasedCount = 0


def test_a_docstring_entry_wins_over_an_alias_s_description_however_the_alias_is_written():
    """As it does over one inside `Annotated[Alias, Ge(0)]`: the alias's is the fallback."""

    async def t(  # noqa: PLR0917 - one field per way of writing the alias
        a: AliasedCount,
        b: Optional[AliasedCount] = None,  # noqa: UP045
        c: AliasedCount | None = None,
        d: Annotated[AliasedCount, "ignored metadata"] = 0,
        e: AliasedName = AliasedName("x"),
        f: Annotated[AliasedCount, Doc("The field's own Doc.")] = 0,
        g: AliasedKeys | None = None,
        h: AliasedFields | None = None,
    ) -> None:
        """Takes counts.

        Args:
            a: The a.
            b: The b.
            c: The c.
            d: The d.
            e: The e.
            f: Not this one: a Doc on the field wins.
        """

    t_ = tool("kit")(t)
    properties = tool_input_schema(t_)["properties"]
    said = {name: schema.get("description") for name, schema in properties.items()}
    assert said == {
        "a": "The a.",
        "b": "The b.",
        "c": "The c.",
        "d": "The d.",
        "e": "The e.",
        "f": "The field's own Doc.",
        "g": "Keys whose types are aliases.",
        "h": "Fields whose types are aliases.",
    }
    assert properties["g"]["properties"]["count"]["description"] == "How many, as the class says."
    assert properties["h"]["properties"]["count"]["description"] == "How many, the dataclass says."
    assert [f.description for f in t_.input.fields] == list(said.values())


PlainSlug = Annotated[str, Doc("A slug, as the assignment says.")]


def test_a_plain_assignment_s_doc_is_the_field_s_own_and_wins_over_the_docstring():
    """`PlainSlug = Annotated[...]` keeps no name Python could tell from the annotation written
    out (docs/descriptions.md): its `Doc` is the field's own, as `f`'s above."""

    async def t(slug: PlainSlug) -> None:
        """Takes a slug.

        Args:
            slug: Not this one: the annotation's Doc wins.
        """

    assert tool("kit")(t).input.fields[0].description == "A slug, as the assignment says."


def test_an_empty_doc_writes_no_description():
    async def t(x: Annotated[int, Doc("")], xs: list[Annotated[int, Doc("")]]) -> None: ...

    assert_schema(
        schema_of(t)["properties"],
        {"x": {"type": "integer"}, "xs": {"type": "array", "items": {"type": "integer"}}},
    )


def test_the_last_doc_wins():
    assert one_field(Annotated[str, Doc("first"), Doc("second")])["properties"]["x"] == {
        "type": "string",
        "description": "second",
    }


def test_the_tool_description_is_not_in_the_schema():
    async def t(text: str):
        """Write a note."""

    assert "description" not in tool_input_schema(tool("kit")(t))


# --- key order, required, what is left out --------------------------------------------------------


def test_key_order_at_every_kind_of_node():
    async def t(
        choice: Annotated[Literal["a", "b"], Doc("Pick one.")],
        items: Annotated[list[str], Doc("Some items.")],
        obj: Annotated[Point, Doc("An object.")],
        record: Annotated[dict[str, int], Doc("A record.")],
    ): ...

    schema = schema_of(t)
    assert list(schema) == ["type", "properties", "required"]
    props = schema["properties"]
    assert list(props["choice"]) == ["type", "description", "enum"]
    assert list(props["items"]) == ["type", "description", "items"]
    assert list(props["obj"]) == ["type", "description", "properties", "required"]
    assert list(props["record"]) == ["type", "description"]
    assert list(props) == ["choice", "items", "obj", "record"]


def test_properties_follow_signature_and_class_order():
    async def t(zeta: int, alpha: str, mid: Box): ...

    schema = schema_of(t)
    assert list(schema["properties"]) == ["zeta", "alpha", "mid"]
    assert schema["required"] == ["zeta", "alpha", "mid"]
    assert list(schema["properties"]["mid"]["properties"]) == ["width", "height", "tags", "label"]


def test_required_omitted_when_empty_at_top_level():
    async def t(a: int = 1, b: str | None = None): ...

    assert_schema(schema_of(t), {"type": "object", "properties": {"a": INTEGER, "b": STRING}})


def test_top_level_has_properties_even_when_empty():
    async def no_fields(): ...

    async def only_call(call: Call): ...

    assert_schema(schema_of(no_fields), {"type": "object", "properties": {}})
    assert_schema(schema_of(only_call), {"type": "object", "properties": {}})


def test_bounds_defaults_and_additional_properties_never_listed():
    async def t(
        *,
        n: Annotated[int, Ge(0), Le(10)] = 5,
        f: Annotated[float, Gt(0), MultipleOf(0.5)] = 1.0,
        i: Annotated[int, Interval(ge=1, lt=9)] = 2,
        name: Annotated[str, MinLen(1), MaxLen(10), Predicate(str.islower)] = "x",
        tags: Annotated[tuple[str, ...], Len(0, 3)] = (),
        color: StrColor = StrColor.RED,
        labels: Annotated[dict[str, int], MaxLen(3)] | None = None,
        box: Bounded = Bounded(1),
    ): ...

    schema = schema_of(t)
    assert_schema(
        schema,
        {
            "type": "object",
            "properties": {
                "n": INTEGER,
                "f": {"type": "number"},
                "i": INTEGER,
                "name": STRING,
                "tags": {"type": "array", "items": STRING},
                "color": {"type": "string", "enum": ["red", "green"]},
                "labels": {"type": "object"},
                "box": {"type": "object", "properties": {"n": INTEGER}},
            },
        },
    )


def test_only_the_six_keys_appear_anywhere():
    async def t(
        trunks: list[Trunk],
        box: Box,
        keys: Keys,
        n: Annotated[int, Ge(0)] = 1,
        record: dict[str, Point] | None = None,
    ): ...

    allowed = {"type", "description", "enum", "items", "properties", "required"}
    for path, node in walk(schema_of(t)):
        if path.endswith(".properties"):
            continue  # its keys are field names
        assert set(node) <= allowed, path
        assert node.get("required", ["x"]) != [], path
        assert "type" in node, path


# --- determinism, JSON, caching -------------------------------------------------------------------


def _declared_twice():
    def declare():
        async def t(
            text: Annotated[str, Doc("The text.")],
            trunks: list[Trunk],
            keys: Keys,
            color: StrColor = StrColor.GREEN,
            level: Level | None = None,
        ):
            """Write."""

        return tool("kit")(t)

    return declare(), declare()


def test_two_tools_declared_the_same_way_give_the_same_json():
    a, b = _declared_twice()
    assert a is not b
    assert json.dumps(tool_input_schema(a)) == json.dumps(tool_input_schema(b))


def test_the_same_tool_gives_the_same_json_every_time():
    a, _ = _declared_twice()
    first = json.dumps(tool_input_schema(a))
    assert json.dumps(tool_input_schema(a)) == first
    assert json.dumps(tool_input_schema(a.input)) == first


def test_schema_is_json_serialisable():
    a, _ = _declared_twice()
    schema = tool_input_schema(a)
    assert json.loads(json.dumps(schema)) == schema


def test_the_schema_is_rendered_once_per_tool_and_profile(monkeypatch):
    """Rendered when first asked for; every call after copies what was rendered, whatever
    registries list the tool."""
    a, _ = _declared_twice()
    before = tool_input_schema(a)
    strict = tool_input_schema(a, "openai-strict")

    def rendered_again(*_: object, **__: object) -> None:
        raise AssertionError("rendered again")

    monkeypatch.setattr(_schema, "render", rendered_again)
    assert tool_input_schema(a) == before
    assert tool_input_schema(a, "openai-strict") == strict
    for _ in range(2):
        listed = create_tool_registry([define_toolkit(a.toolkit, [a])]).mcp_tools()
        assert listed[0]["inputSchema"] == before


def test_each_call_hands_out_a_new_equal_copy():
    a, _ = _declared_twice()
    first, second = tool_input_schema(a), tool_input_schema(a)
    assert first == second
    assert first is not second
    assert first["properties"] is not second["properties"]


def test_tool_or_input_give_equal_results():
    a, _ = _declared_twice()
    assert tool_input_schema(a) == tool_input_schema(a.input)
    assert json.dumps(tool_input_schema(a)) == json.dumps(tool_input_schema(a.input))


def test_schema_compares_equal_to_a_plain_dict():
    async def t(x: int): ...

    schema = schema_of(t)
    assert schema == {"type": "object", "properties": {"x": INTEGER}, "required": ["x"]}
    assert isinstance(schema, dict)
    assert isinstance(schema["required"], list)


# --- the caller's own copy ------------------------------------------------------------------------


def _mutable_target_tool():
    async def t(
        choice: Literal["a", "b"],
        trunks: list[Trunk],
        box: Box,
    ):
        """Write.

        Args:
            choice: Pick.
        """

    return tool("kit")(t)


DICT_MUTATORS = {
    "setitem": lambda d: d.__setitem__("type", "string"),
    "setitem-new": lambda d: d.__setitem__("additionalProperties", False),
    "delitem": lambda d: d.__delitem__("type"),
    "clear": lambda d: d.clear(),
    "pop": lambda d: d.pop("type"),
    "pop-default": lambda d: d.pop("nope", None),
    "popitem": lambda d: d.popitem(),
    "setdefault": lambda d: d.setdefault("additionalProperties", False),
    "update": lambda d: d.update({"type": "string"}),
    "update-kw": lambda d: d.update(type="string"),
    "ior": lambda d: d.__ior__({"type": "string"}),
}

LIST_MUTATORS = {
    "setitem": lambda s: s.__setitem__(0, "zzz"),
    "setitem-slice": lambda s: s.__setitem__(slice(0, 1), ["zzz"]),
    "delitem": lambda s: s.__delitem__(0),
    "append": lambda s: s.append("zzz"),
    "extend": lambda s: s.extend(["zzz"]),
    "insert": lambda s: s.insert(0, "zzz"),
    "pop": lambda s: s.pop(),
    "remove": lambda s: s.remove(s[0]),
    "clear": lambda s: s.clear(),
    "sort": lambda s: s.sort(),
    "reverse": lambda s: s.reverse(),
    "iadd": lambda s: s.__iadd__(["zzz"]),
    "imul": lambda s: s.__imul__(2),
}

DICT_PLACES = {
    "top": lambda s: s,
    "properties": lambda s: s["properties"],
    "property": lambda s: s["properties"]["choice"],
    "items": lambda s: s["properties"]["trunks"]["items"],
    "depth-3": lambda s: s["properties"]["trunks"]["items"]["properties"]["branches"]["items"],
    "depth-4": lambda s: s["properties"]["trunks"]["items"]["properties"]["branches"]["items"][
        "properties"
    ]["leaves"]["items"],
}

LIST_PLACES = {
    "required": lambda s: s["required"],
    "enum": lambda s: s["properties"]["choice"]["enum"],
    "nested-required": lambda s: s["properties"]["box"]["required"],
    "deep-required": lambda s: s["properties"]["trunks"]["items"]["properties"]["branches"][
        "items"
    ]["required"],
}


@pytest.mark.parametrize("place", DICT_PLACES)
@pytest.mark.parametrize("mutator", DICT_MUTATORS)
def test_changing_a_schema_dict_changes_only_the_callers_copy(place, mutator):
    """Each call hands out a plain copy: the caller may change it, and no later result changes,
    through its own methods or its base class's (which no read-only subclass could refuse)."""
    t = _mutable_target_tool()
    schema = tool_input_schema(t)
    before = json.dumps(schema)
    target = DICT_PLACES[place](schema)
    assert type(target) is dict
    with contextlib.suppress(KeyError):  # "type" is no key of `properties`: nothing to take
        DICT_MUTATORS[mutator](target)
    assert json.dumps(tool_input_schema(t)) == before
    assert json.dumps(tool_input_schema(t.input)) == before


@pytest.mark.parametrize("place", LIST_PLACES)
@pytest.mark.parametrize("mutator", LIST_MUTATORS)
def test_changing_a_schema_list_changes_only_the_callers_copy(place, mutator):
    t = _mutable_target_tool()
    schema = tool_input_schema(t)
    before = json.dumps(schema)
    target = LIST_PLACES[place](schema)
    assert type(target) is list
    LIST_MUTATORS[mutator](target)
    assert json.dumps(tool_input_schema(t)) == before


def test_augmented_assignments_change_only_the_callers_copy():
    t = _mutable_target_tool()
    schema = tool_input_schema(t)
    before = json.dumps(schema)
    props = schema["properties"]
    props |= {"extra": {"type": "string"}}
    required = schema["required"]
    required += ["extra"]
    required *= 2
    del schema["properties"]["choice"]["enum"][0]
    schema["properties"]["choice"]["enum"][0] = "z"
    assert "extra" in schema["properties"]
    assert json.dumps(tool_input_schema(t)) == before


def test_reinitialising_a_schema_dict_or_list_changes_only_the_callers_copy():
    # `dict.__init__` and `list.__init__` on an existing object change it in place: mutators too.
    t = _mutable_target_tool()
    schema = tool_input_schema(t)
    before = json.dumps(schema)
    schema.__init__({"additionalProperties": False})
    schema["required"].__init__(["zzz"])
    assert json.dumps(tool_input_schema(t)) == before


def test_copy_gives_a_plain_mutable_shallow_copy():
    t = _mutable_target_tool()
    schema = tool_input_schema(t)
    before = json.dumps(schema)
    mine, names = copy.copy(schema), copy.copy(schema["required"])
    assert (type(mine), type(names)) == (dict, list)
    assert (mine, names) == (schema, schema["required"])
    mine["additionalProperties"] = False
    names.append("extra")
    assert json.dumps(tool_input_schema(t)) == before


def test_deepcopy_gives_a_plain_mutable_equal_copy():
    t = _mutable_target_tool()
    schema = tool_input_schema(t)
    before = json.dumps(schema)
    mine = copy.deepcopy(schema)
    assert mine == schema
    assert json.dumps(mine) == before
    for path, node in walk(mine):
        assert type(node) is dict, path
    assert type(mine["required"]) is list
    assert type(mine["properties"]["choice"]["enum"]) is list
    mine["additionalProperties"] = False
    mine["required"].append("extra")
    mine["properties"]["choice"]["enum"].clear()
    mine["properties"]["trunks"]["items"]["properties"].pop("branches")
    assert json.dumps(schema) == before
    assert json.dumps(tool_input_schema(t)) == before


def test_deepcopy_of_a_list_inside_a_schema_is_a_plain_equal_list():
    schema = tool_input_schema(_mutable_target_tool())
    names = copy.deepcopy(schema["required"])
    assert (type(names), names) == (list, schema["required"])


def test_a_schema_and_its_parts_pickle_as_plain_data():
    schema = tool_input_schema(_mutable_target_tool())
    back = pickle.loads(pickle.dumps(schema))  # noqa: S301 - our own bytes
    assert back == schema
    assert (type(back), type(back["required"])) == (dict, list)
    names = pickle.loads(pickle.dumps(schema["required"]))  # noqa: S301 - our own bytes
    assert (type(names), names) == (list, schema["required"])
