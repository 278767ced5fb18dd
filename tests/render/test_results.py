"""Structured and content results: the return annotation read into an output, and
`tool_result`, what a client receives of a call."""

import asyncio
import dataclasses
import json
import sys
import textwrap
import types
import uuid
from collections.abc import Sequence
from typing import Annotated, Any, Literal, Optional

import jsonschema
import pytest
from annotated_types import Ge, MaxLen
from check.test_differential import (  # the generated types of the differential tests
    any_type,
    values,
)
from full_schema import node_schema
from helpers import Color
from hostile_values import LyingDict, LyingInt, LyingList, LyingStr, LyingTuple, hostile_class
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typing_extensions import NotRequired, Required, TypeAliasType, TypedDict

from adecore_tools import (
    Audio,
    Content,
    Image,
    Resource,
    Text,
    ToolResult,
    create_tool_registry,
    define_toolkit,
    tool,
    tool_output_schema,
    tool_result,
    transform,
)


def returning(annotation: Any) -> Any:
    """A tool returning `annotation`; `...` for none."""

    async def fn(x: int = 0) -> None:
        """Give it back."""

    fn.__annotations__ = {"x": int} if annotation is ... else {"x": int, "return": annotation}
    return tool("kit", name="give")(fn)


class Line(TypedDict):
    """A line of a report."""

    label: str
    amount: Annotated[int, Ge(0)]
    note: NotRequired[str | None]


@dataclasses.dataclass
class Report:
    """A report."""

    title: str
    lines: list[Line]
    color: Color = Color.RED
    tags: frozenset[str] = frozenset()
    total: int | None = None


WRAPPED_INT = {
    "type": "object",
    "properties": {"result": {"type": "integer"}},
    "required": ["result"],
}


@pytest.mark.parametrize(
    ("annotation", "schema"),
    [
        (int, WRAPPED_INT),
        (
            list[int],
            {
                "type": "object",
                "properties": {"result": {"type": "array", "items": {"type": "integer"}}},
                "required": ["result"],
            },
        ),
        (dict[str, int], {"type": "object"}),
        (
            Line,
            {
                "type": "object",
                "description": "A line of a report.",
                "properties": {
                    "label": {"type": "string"},
                    "amount": {"type": "integer"},
                    "note": {"type": "string"},
                },
                "required": ["label", "amount"],
            },
        ),
        (
            Literal["a", "b"],
            {
                "type": "object",
                "properties": {"result": {"type": "string", "enum": ["a", "b"]}},
                "required": ["result"],
            },
        ),
    ],
)
def test_an_output_model_has_an_mcp_schema_wrapped_when_its_root_is_no_object(annotation, schema):
    t = returning(annotation)
    assert t.output is not None
    assert tool_output_schema(t) == schema
    assert json.dumps(tool_output_schema(t)) == json.dumps(schema)
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    "annotation",
    [
        list[str],
        Sequence[str],
        str,
        None,
        ...,
        Any,
        object,
        str | None,
        Content,
        list[Content | str],
    ],
)
def test_text_lines_nothing_unchecked_and_content_have_no_output_model(annotation):
    t = returning(annotation)
    assert t.output is None
    assert tool_output_schema(t) is None


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        (bytes | None, "the return type of tool 'give': type bytes has no one JSON type"),
        (tuple[int, str], "the return type of tool 'give': a fixed-length tuple cannot be"),
        (bytes, "the return type of tool 'give': type bytes has no one JSON type"),
    ],
)
def test_a_return_type_with_no_json_type_is_a_type_error_at_decoration(annotation, message):
    with pytest.raises(TypeError) as info:
        returning(annotation)
    assert str(info.value).startswith(message)


def _module(name: str, source: str) -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        exec(textwrap.dedent(source), module.__dict__)  # noqa: S102 - our own test source
    finally:
        del sys.modules[name]
    return module


def test_a_return_type_defined_further_down_is_read_when_the_tool_joins_a_toolkit():
    module = _module(
        "returns_later",
        """
        from __future__ import annotations
        from typing_extensions import TypedDict
        from adecore_tools import define_toolkit, tool

        @tool("later")
        async def make() -> Made:
            '''Make one.'''
            return {"n": 1}

        class Made(TypedDict):
            n: int

        kit = define_toolkit("later", [make])
        """,
    )
    assert module.make.output is not None
    assert tool_output_schema(module.make)["properties"] == {"n": {"type": "integer"}}


def test_a_return_type_only_a_type_checker_imports_leaves_the_result_unchecked():
    module = _module(
        "returns_checker_only",
        """
        from __future__ import annotations
        from typing import TYPE_CHECKING
        from adecore_tools import define_toolkit, tool

        if TYPE_CHECKING:
            from decimal import Decimal

        @tool("checked")
        async def total(n: int) -> Decimal:
            '''Add up.'''

        kit = define_toolkit("checked", [total])
        """,
    )
    assert module.total.output is None
    assert tool_result(module.total, 5).text == "5"


# --- what a client receives ---------------------------------------------------------------------


def test_text_lines_and_nothing():
    assert tool_result(returning(str), "ok") == ToolResult((Text("ok"),), "ok", None)
    assert tool_result(returning(list[str]), ["a", "b"]) == ToolResult(
        (Text("a\nb"),), "a\nb", None
    )
    assert tool_result(returning(Sequence[str]), ("a",)).text == "a"
    assert tool_result(returning(None), None) == ToolResult((), "", None)
    assert tool_result(returning(str | None), None) == ToolResult((), "", None)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("ok", "ok"),
        (["a", "b"], "a\nb"),
        ({"id": 1, "tags": ["x"]}, '{"id":1,"tags":["x"]}'),
        ([1, 2.5, None, True], "[1,2.5,null,true]"),
        (None, ""),
        (Color.RED, "Color.RED"),
        (float("nan"), "nan"),
    ],
)
@pytest.mark.parametrize("annotation", [..., Any, object])
def test_an_unchecked_result_is_text_lines_json_or_str(annotation, value, text):
    result = tool_result(returning(annotation), value)
    assert (result.text, result.structured) == (text, None)
    assert result.content == ((Text(text),) if text else ())


def test_a_result_of_the_wrong_kind_is_the_hosts_type_error():
    with pytest.raises(TypeError, match="tool 'give': its return annotation is str, and it"):
        tool_result(returning(str), 5)
    with pytest.raises(TypeError, match="annotation is list\\[str\\], and it returned a str"):
        tool_result(returning(list[str]), "ok")
    with pytest.raises(TypeError, match="annotation is None, and it returned a int"):
        tool_result(returning(None), 5)


def test_a_structured_result_is_its_json_checked_against_the_output_model():
    t = returning(Report)
    report = Report(
        title="Q1",
        lines=[{"label": "a", "amount": 1, "note": None}, {"label": "b", "amount": 2}],
        tags=frozenset({"z", "y"}),
    )
    result = tool_result(t, report)
    structured = {
        "title": "Q1",
        "lines": [{"label": "a", "amount": 1}, {"label": "b", "amount": 2}],
        "color": "red",
        "tags": ["y", "z"],
    }
    assert result.structured == structured
    assert result.text == json.dumps(structured, separators=(",", ":"))
    assert result.content == (Text(result.text),)
    jsonschema.validate(result.structured, tool_output_schema(t))


def test_a_value_whose_root_is_no_object_is_wrapped_as_its_schema_is():
    result = tool_result(returning(int), 5)
    assert result.structured == {"result": 5}
    assert result.text == '{"result":5}'
    assert tool_result(returning(list[Color]), (Color.GREEN,)).structured == {"result": ["green"]}
    assert tool_result(returning(dict[str, int]), {"a": 1}).structured == {"a": 1}


def test_a_value_its_model_refuses_is_a_type_error_naming_tool_and_path():
    t = returning(Report)
    bad = Report(title="Q1", lines=[{"label": "a", "amount": -1}])
    with pytest.raises(TypeError) as info:
        tool_result(t, bad)
    assert str(info.value) == (
        "tool 'give': its return annotation refuses what it returned: "
        "lines[0].amount: expected at least 0, got -1"
    )
    with pytest.raises(TypeError, match='result: expected an integer, got "5"'):
        tool_result(returning(int), "5")
    with pytest.raises(TypeError, match="expected at most 2 characters"):
        tool_result(returning(Annotated[str, MaxLen(2)] | int), "long")


# --- content ----------------------------------------------------------------------------------


def test_content_blocks_come_as_they_are_and_a_str_among_them_as_text():
    png = Image(b"\x89PNG", "image/png")
    wav = Audio(b"RIFF", "audio/wav")
    doc = Resource("file:///a.txt", text="hello", mime_type="text/plain")
    blob = Resource("file:///a.bin", blob=b"\x00")
    t = returning(list[Content | str])
    result = tool_result(t, ["one", png, wav, doc, blob, Text("two")])
    assert result.content == (Text("one"), png, wav, doc, blob, Text("two"))
    assert result.text == "one\ntwo"
    assert result.structured is None
    assert tool_result(returning(Content), png).content == (png,)
    assert tool_result(returning(Image), png).content == (png,)


@pytest.mark.parametrize(
    ("annotation", "value", "why"),
    [
        (list[Content | str], [Text("a"), 5], r"\[1\] is a int, not Text, Image, Audio, Resource"),
        (list[Content | str], {"text": "a"}, "its return annotation is a list of content blocks"),
        (list[Content], ["a"], r"\[0\] is a str, not Text, Image, Audio or Resource$"),
        (Content, {"text": "a"}, "its result is a dict, not Text, Image, Audio or Resource$"),
        (Content, [Text("a")], "its result is a list, not Text, Image, Audio or Resource$"),
        (Image, Audio(b"RIFF", "audio/wav"), "its result is a Audio, not Image$"),
        (Image, Text("a"), "its result is a Text, not Image$"),
        (Image, "a", "its result is a str, not Image$"),
        (Image | str, Text("a"), "its result is a Text, not Image or str$"),
        (
            list[Image],
            Image(b"x", "image/png"),
            "its return annotation is a list of content blocks",
        ),
    ],
)
def test_a_block_of_the_wrong_kind_is_the_hosts_type_error_naming_the_tool(annotation, value, why):
    with pytest.raises(TypeError, match=f"^tool 'give': {why}"):
        tool_result(returning(annotation), value)


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: Text(5), "Text's text is a str, got a int"),
        (lambda: Image("not bytes", "image/png"), "Image's data is bytes, got a str"),
        (lambda: Audio(b"x", 5), "Audio's mime_type is a str, got a int"),
        (lambda: Resource(None, text="a"), "Resource's uri is a str, got None"),
        (lambda: Resource("file:///x", text=5), "Resource's text is a str or None, got a int"),
        (lambda: Resource("file:///x", blob="b"), "Resource's blob is bytes or None, got a str"),
        (lambda: Resource("u", text="a", mime_type=5), "Resource's mime_type is a str or None"),
        (lambda: Resource("file:///x", text="a", blob=b"b"), "Resource holds its text or its blob"),
        (lambda: Resource("file:///x"), "Resource holds its text or its blob"),
    ],
)
def test_a_block_is_checked_where_it_is_made(make, why):
    with pytest.raises(TypeError, match=f"^{why}"):
        make()


def test_a_block_takes_text_and_bytes_of_subclasses_as_plain_values():
    assert type(Text(LyingStr("a")).text) is str
    assert Resource(LyingStr("u"), text=LyingStr("t")) == Resource("u", text="t")


def test_content_blocks_are_values():
    assert Image(b"a", "image/png") == Image(b"a", "image/png")
    assert Resource("u", text="t") != Resource("u", blob=b"t")
    assert hash(Text("a")) == hash(Text("a"))
    with pytest.raises(AttributeError):
        Text("a").text = "b"  # type: ignore[misc]


# --- listing and running ----------------------------------------------------------------------


def test_mcp_entries_gain_the_output_schema_and_a_top_level_title():
    @tool("kit", title="Make a report")
    async def report(title: str) -> Report:
        """Make a report."""
        return Report(title=title, lines=[])

    (entry,) = create_tool_registry([define_toolkit("kit", [report])]).mcp_tools()
    assert list(entry) == [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ]
    assert entry["title"] == "Make a report"
    assert entry["annotations"]["title"] == "Make a report"
    assert entry["outputSchema"] == tool_output_schema(report)


def test_run_still_returns_what_the_function_returns():
    @tool("kit")
    async def report(title: str) -> Report:
        """Make a report."""
        return Report(title=title, lines=[])

    registry = create_tool_registry([define_toolkit("kit", [report])])
    made = asyncio.run(registry.run("report", {"title": "Q"}))
    assert made == Report(title="Q", lines=[])


def test_tool_result_and_tool_output_schema_take_a_tool():
    with pytest.raises(TypeError, match="takes a Tool"):
        tool_result(None, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Tool"):
        tool_output_schema(None)  # type: ignore[arg-type]


def test_the_output_schema_is_a_copy_the_caller_owns():
    t = returning(Report)
    mine = tool_output_schema(t)
    mine["properties"].clear()
    assert tool_output_schema(t)["properties"]


# --- results in their own direction -------------------------------------------------------------


class Ticket(TypedDict):
    """A ticket whose id a model sends as text, and the tool receives as a UUID."""

    id: Annotated[str, transform(uuid.UUID)]
    code: Annotated[str, MaxLen(3), transform(int)]


def test_a_transform_in_a_return_annotation_is_never_called_on_a_result():
    called: list[object] = []

    def spy(value: object) -> object:
        called.append(value)
        raise ValueError("never for a result")

    t = returning(dict[str, Annotated[str, transform(spy)]])
    assert tool_result(t, {"a": "abc"}).structured == {"a": "abc"}
    t = returning(Ticket)
    ticket = {"id": "0b7e9d3c-6c2f-4a4e-9a51-2f1c4b0a9d10", "code": "abc"}
    assert tool_result(t, ticket).structured == ticket
    assert called == []


def test_a_result_is_checked_against_the_annotated_type_itself():
    t = returning(Ticket)
    with pytest.raises(TypeError) as info:
        tool_result(t, {"id": uuid.UUID(int=1), "code": "abc"})
    assert str(info.value) == (
        "tool 'give': its return annotation refuses what it returned: "
        "id: expected a string, got a value of type UUID"
    )
    with pytest.raises(TypeError, match="code: expected at most 3 characters, got 4"):
        tool_result(t, {"id": "x", "code": "abcd"})


def test_bounds_around_a_transform_hold_on_input_alone():
    letters = TypeAliasType("letters", Annotated[str, MaxLen(4), transform(list)])
    t = returning(dict[str, Annotated[letters, MaxLen(2)]])
    assert tool_result(t, {"a": "abc"}).structured == {"a": "abc"}
    with pytest.raises(TypeError, match=r'\["a"\]: expected at most 4 characters, got 5'):
        tool_result(t, {"a": "abcde"})


# --- output schemas admit every result ----------------------------------------------------------


@dataclasses.dataclass
class Pair:
    left: int
    right: int


@pytest.mark.parametrize(
    ("annotation", "value", "structured"),
    [
        (int | None, None, {"result": None}),
        (int | str, "ada", {"result": "ada"}),
        (list[int | None], [1, None], {"result": [1, None]}),
        (Pair | None, None, {"result": None}),
        (Pair | None, Pair(1, 2), {"result": {"left": 1, "right": 2}}),
        (dict[str, Literal["a"] | None], {"x": None}, {"x": None}),
    ],
)
def test_an_output_schema_admits_nulls_and_every_union_branch(annotation, value, structured):
    t = returning(annotation)
    result = tool_result(t, value)
    assert result.structured == structured
    assert result.text == json.dumps(structured, separators=(",", ":"))
    jsonschema.validate(result.structured, tool_output_schema(t))


def test_a_nullable_part_and_a_union_are_listed_whole():
    assert tool_output_schema(returning(list[int | None])) == {
        "type": "object",
        "properties": {"result": {"type": "array", "items": {"type": ["integer", "null"]}}},
        "required": ["result"],
    }
    assert tool_output_schema(returning(int | str | None))["properties"]["result"] == {
        "anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]
    }


class Maybe(TypedDict):
    # not `int | None`: typing caches `Required[...]` by equal arguments, and the declaration
    # tests read `Required[Optional[int]]` back as written
    must: Required[Optional[int]]  # noqa: UP045
    could: NotRequired[int]


def test_an_object_field_that_may_hold_none_is_not_required():
    t = returning(Maybe)
    assert "required" not in tool_output_schema(t)
    assert tool_result(t, {"must": None}).structured == {}
    with pytest.raises(TypeError, match="left: missing, expected an integer"):
        tool_result(returning(Pair), Pair(None, 1))  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_result_tool_result_accepts_is_valid_against_the_output_schema(data):
    t = returning(data.draw(any_type(2)))
    if t.output is None:
        return  # text or lines
    schema = tool_output_schema(t)
    jsonschema.Draft202012Validator.check_schema(schema)
    drawn = node_schema(t.output)
    for _ in range(8):
        value = data.draw(values(drawn, with_non_finite=False))
        try:
            result = tool_result(t, value)
        except TypeError:
            continue
        jsonschema.validate(result.structured, schema)


# --- tool_result raises the host's TypeError, and nothing else ----------------------------------

HUGE = 10**5000


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def _cyclic() -> list[Any]:
    value: list[Any] = []
    value.append(value)
    return value


@dataclasses.dataclass
class Half:
    a: int
    b: int = dataclasses.field(init=False)


def test_an_int_past_the_digits_python_writes_is_sent_whole():
    result = tool_result(returning(int), HUGE)
    assert result.structured == {"result": HUGE}
    assert result.text == '{"result":1' + "0" * 5000 + "}"
    assert tool_result(returning(list[int]), [-HUGE]).text == '{"result":[-1' + "0" * 5000 + "]}"
    unchecked = tool_result(returning(Any), HUGE)
    assert (unchecked.text, unchecked.structured) == ("1" + "0" * 5000, None)


@pytest.mark.parametrize(
    ("annotation", "value", "structured"),
    [
        (Half, Half(1), {"a": 1}),
        (dict[str, int], LyingDict({"a": 1}), {"a": 1}),
        (list[int], LyingList([2, 1]), {"result": [2, 1]}),
        (set[int], {LyingInt(2), LyingInt(1)}, {"result": [1, 2]}),
        (list[str | int], LyingTuple(("a", 1)), {"result": ["a", 1]}),
    ],
)
def test_a_value_whose_own_code_raises_is_read_through_its_base_class(
    annotation, value, structured
):
    assert tool_result(returning(annotation), value).structured == structured


def test_lines_are_read_through_their_base_class():
    assert tool_result(returning(list[str]), LyingList(["a", "b"])).text == "a\nb"


HOSTILE: dict[str, Any] = {
    "deep": lambda: _nested(10**5),
    "cyclic": _cyclic,
    "class-raises": hostile_class("__class__", "__repr__", "__str__"),
    "lying-dict": lambda: LyingDict({"a": _nested(10**5)}),
    "unsortable-set": lambda: {LyingInt(1), "a"},
}
"""Values no return annotation takes, made in each test (pytest's own `isinstance` would raise)."""


@pytest.mark.parametrize(
    "annotation", [int, str, list[str], None, list[int], Line, Half, list[Content | str], Image]
)
@pytest.mark.parametrize("value", HOSTILE)
def test_any_other_value_is_the_hosts_type_error_naming_the_tool(annotation, value):
    with pytest.raises(TypeError, match=r"^tool 'give': "):
        tool_result(returning(annotation), HOSTILE[value]())


@pytest.mark.parametrize("value", HOSTILE)
def test_an_unchecked_result_is_its_str_or_the_hosts_type_error(value):
    if value == "cyclic":
        assert tool_result(returning(Any), HOSTILE[value]()).text == "[[...]]"
    else:
        with pytest.raises(TypeError, match=r"^tool 'give': "):
            tool_result(returning(Any), HOSTILE[value]())


# --- every text of a result is readable as UTF-8 ------------------------------------------------

NAME = b"report-\xff.txt".decode("utf-8", "surrogateescape")
READABLE = "report-\ufffd.txt"


@pytest.mark.parametrize(
    ("annotation", "value", "text", "structured"),
    [
        (str, NAME, READABLE, None),
        (list[str], [NAME, "b"], f"{READABLE}\nb", None),
        (Any, [NAME, "\ud83d\ude00"], f"{READABLE}\n\ufffd\ufffd", None),
        (Any, {"name": NAME}, f'{{"name":"{READABLE}"}}', None),
        (dict[str, int], {NAME: 5}, f'{{"{READABLE}":5}}', {READABLE: 5}),
        (list[str], ("é", NAME), f"é\n{READABLE}", None),
        (Line, {"label": NAME, "amount": 1}, None, {"label": READABLE, "amount": 1}),
    ],
)
def test_a_lone_surrogate_in_a_result_is_replaced(annotation, value, text, structured):
    result = tool_result(returning(annotation), value)
    assert result.structured == structured
    if text is not None:
        assert result.text == text
    result.text.encode()


def test_a_lone_surrogate_in_a_content_block_is_replaced():
    blocks = [NAME, Resource(f"file:///{NAME}", text=NAME, mime_type="text/plain")]
    result = tool_result(returning(list[Content | str]), blocks)
    assert result.content == (
        Text(READABLE),
        Resource(f"file:///{READABLE}", text=READABLE, mime_type="text/plain"),
    )
    png = Image(b"x", "image/png")
    assert tool_result(returning(Image), png).content[0] is png


# --- Any inside a return annotation -------------------------------------------------------------


class Blob(TypedDict):
    name: str
    data: Any


@pytest.mark.parametrize(
    ("annotation", "value", "structured", "schema"),
    [
        (
            dict[str, Any],
            {"a": [1, {"b": None}], "c": ("x", 2.5)},
            {"a": [1, {"b": None}], "c": ["x", 2.5]},
            {"type": "object"},
        ),
        (list[Any], (1, "a", None, [True]), {"result": [1, "a", None, [True]]}, None),
        (tuple[Any, ...], (HUGE,), {"result": [HUGE]}, None),
        (list[object], [{"k": NAME}], {"result": [{"k": READABLE}]}, None),
        (Blob, {"name": "n", "data": None}, {"name": "n"}, None),
        (Blob, {"name": "n", "data": {"x": [1]}}, {"name": "n", "data": {"x": [1]}}, None),
    ],
)
def test_an_any_part_of_a_result_is_any_json_value(annotation, value, structured, schema):
    t = returning(annotation)
    result = tool_result(t, value)
    assert result.structured == structured
    listed = tool_output_schema(t)
    if schema is not None:
        assert listed == schema
    jsonschema.validate(result.structured, listed)


def test_an_any_part_is_listed_with_no_type():
    assert tool_output_schema(returning(list[Any]))["properties"]["result"] == {
        "type": "array",
        "items": {},
    }
    assert tool_output_schema(returning(Blob)) == {
        "type": "object",
        "properties": {"name": {"type": "string"}, "data": {}},
        "required": ["name"],
    }


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ([object()], r"\[0\]: expected a JSON value, got a value of type object"),
        ([1, {"a": float("nan")}], r'\[1\]\["a"\]: expected a JSON value, got NaN'),
        ([{1: "a"}], r"\[0\]: expected string keys, got 1"),
        ([{"a", "b"}], r"\[0\]: expected a JSON value, got a value of type set"),
        ([_cyclic()], r"\[0\]\[0\]\[0\].*: nested more than 100 levels deep, or cyclic"),
        ([_nested(10**5)], "nested more than 100 levels deep, or cyclic"),
        ([LyingDict({"a": 1}), hostile_class("__class__")()], r"\[1\]: expected a JSON value"),
    ],
)
def test_an_any_part_that_is_no_json_value_is_the_hosts_type_error(value, why):
    with pytest.raises(TypeError, match=f"^tool 'give': its return annotation refuses .*{why}"):
        tool_result(returning(list[Any]), value)


@pytest.mark.parametrize("annotation", [list[Any], dict[str, Any], tuple[Any, ...], Blob, object])
def test_any_stays_a_type_error_for_an_input_after_a_return_type_read_it(annotation):
    returning(annotation)

    async def take(x: int) -> None:
        """Take it."""

    take.__annotations__ = {"x": annotation, "return": None}
    with pytest.raises(TypeError, match=r"field 'x.*' of tool 'take'"):
        tool("kit")(take)
