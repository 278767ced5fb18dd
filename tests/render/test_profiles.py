"""Schema profiles: one declaration rendered for MCP, OpenAI strict mode, Gemini and Anthropic.

Literal dicts pin each profile's differences; the providers' own SDK types then take the schema
of every type row the package reads, in every profile.
"""

import dataclasses
import enum
import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal, NewType

import jsonschema
import pytest
from annotated_types import Ge, Le, MaxLen, MinLen, MultipleOf, Predicate
from helpers import Color
from hypothesis import given, settings
from hypothesis import strategies as st
from typing_extensions import Doc, NotRequired, Required, TypeAliasType, TypedDict

from adecore_tools import (
    DryRun,
    Revision,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    required_field,
    tool,
    tool_input_schema,
)

PROFILES = ("mcp", "openai-strict", "gemini", "anthropic")


def one_field(tp: Any, default: Any = dataclasses.MISSING) -> Any:
    """A tool with one field `x` of type `tp`."""

    async def fn(x):
        """Take x."""

    fn.__annotations__ = {"x": tp, "return": None}
    if default is not dataclasses.MISSING:
        fn.__defaults__ = (default,)
    return tool("kit", name="take")(fn)


def assert_schema(actual: object, expected: object) -> None:
    """Equal, and in the same key order at every depth."""
    assert actual == expected
    assert json.dumps(actual) == json.dumps(expected)


class Item(TypedDict):
    """One line of an order."""

    name: Annotated[str, MinLen(1)]
    count: NotRequired[Annotated[int, Ge(1)]]


class Mode(enum.IntEnum):
    FAST = 1
    SLOW = 2


@tool("orders")
async def order(
    items: Annotated[list[Item], Doc("What to order")],
    mode: Mode = Mode.FAST,
    note: Annotated[str, MaxLen(50)] | None = None,
    rush: Literal[True] | None = None,
) -> None:
    """Place an order."""


ITEM_MCP = {
    "type": "object",
    "description": "One line of an order.",
    "properties": {"name": {"type": "string"}, "count": {"type": "integer"}},
    "required": ["name"],
}


def test_mcp_is_the_schema_an_mcp_client_lists():
    assert_schema(
        tool_input_schema(order, "mcp"),
        {
            "type": "object",
            "properties": {
                "items": {"type": "array", "description": "What to order", "items": ITEM_MCP},
                "mode": {"type": "integer", "enum": [1, 2]},
                "note": {"type": "string"},
                "rush": {"type": "boolean", "enum": [True]},
            },
            "required": ["items"],
        },
    )
    assert tool_input_schema(order, "mcp") == tool_input_schema(order)


def test_openai_strict_closes_every_object_requires_every_key_and_takes_null_where_left_out():
    assert_schema(
        tool_input_schema(order, "openai-strict"),
        {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "description": "What to order",
                    "items": {
                        "type": "object",
                        "description": "One line of an order.",
                        "properties": {
                            "name": {"type": "string"},
                            "count": {"type": ["integer", "null"]},
                        },
                        "required": ["name", "count"],
                        "additionalProperties": False,
                    },
                },
                "mode": {"type": ["integer", "null"], "enum": [1, 2, None]},
                "note": {"type": ["string", "null"]},
                "rush": {"type": ["boolean", "null"], "enum": [True, None]},
            },
            "required": ["items", "mode", "note", "rush"],
            "additionalProperties": False,
        },
    )


def test_gemini_says_nullable_and_writes_choices_that_are_no_strings_in_words():
    assert_schema(
        tool_input_schema(order, "gemini"),
        {
            "type": "OBJECT",
            "properties": {
                "items": {
                    "type": "ARRAY",
                    "description": "What to order",
                    "items": {
                        "type": "OBJECT",
                        "description": "One line of an order.",
                        "properties": {
                            "name": {"type": "STRING"},
                            "count": {"type": "INTEGER", "nullable": True},
                        },
                        "required": ["name"],
                    },
                },
                "mode": {"type": "INTEGER", "nullable": True, "description": "One of 1, 2."},
                "note": {"type": "STRING", "nullable": True},
                "rush": {"type": "BOOLEAN", "nullable": True, "description": "Must be true."},
            },
            "required": ["items"],
        },
    )


def test_anthropic_closes_every_object_and_leaves_optional_keys_out_of_required():
    assert_schema(
        tool_input_schema(order, "anthropic"),
        {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "description": "What to order",
                    "items": {**ITEM_MCP, "additionalProperties": False},
                },
                "mode": {"type": "integer", "enum": [1, 2]},
                "note": {"type": "string"},
                "rush": {"type": "boolean", "enum": [True]},
            },
            "required": ["items"],
            "additionalProperties": False,
        },
    )


def test_an_unknown_profile_is_a_value_error_naming_the_profiles():
    with pytest.raises(ValueError, match="mcp, openai-strict, gemini, anthropic") as info:
        tool_input_schema(order, "openai")
    assert "'openai'" in str(info.value)


class Tagged(TypedDict):
    labels: dict[str, int]


class Empty(TypedDict):
    pass


@pytest.mark.parametrize(
    ("tp", "path"),
    [
        (dict[str, int], "x"),
        (list[dict[str, int]], "x[]"),
        (Tagged, "x.labels"),
        (dict[str, int] | None, "x"),
    ],
)
@pytest.mark.parametrize("profile", ["openai-strict", "gemini"])
def test_a_record_is_a_value_error_naming_tool_and_path(tp, path, profile):
    t = one_field(tp)
    with pytest.raises(ValueError, match=r"is a record \(dict\[str, X\]\)") as info:
        tool_input_schema(t, profile)
    assert str(info.value).startswith(f"field {path!r} of tool 'take': ")


def test_a_record_stays_an_open_object_for_anthropic():
    assert tool_input_schema(one_field(Tagged), "anthropic")["properties"]["x"] == {
        "type": "object",
        "properties": {"labels": {"type": "object"}},
        "required": ["labels"],
        "additionalProperties": False,
    }


def test_an_object_with_no_fields_is_refused_for_gemini_alone():
    t = one_field(Empty)
    with pytest.raises(ValueError, match="no fields; Gemini") as info:
        tool_input_schema(t, "gemini")
    assert str(info.value).startswith("field 'x' of tool 'take': ")
    assert tool_input_schema(t, "openai-strict")["properties"]["x"] == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def test_a_key_that_must_be_sent_is_not_nullable():
    """`Required[X | None]` must be sent with a value: no profile offers null for it."""

    class Strict(TypedDict):
        must: Required[Annotated[int | None, Ge(0)]]

    async def fn(box: Strict) -> None:
        """Take a box."""

    t = tool("kit")(fn)
    assert tool_input_schema(t, "openai-strict")["properties"]["box"]["properties"]["must"] == {
        "type": "integer"
    }


def test_items_that_admit_null_say_so_where_the_profile_can():
    t = one_field(list[int | None])
    assert tool_input_schema(t, "mcp")["properties"]["x"]["items"] == {"type": "integer"}
    assert tool_input_schema(t, "openai-strict")["properties"]["x"]["items"] == {
        "type": ["integer", "null"]
    }
    assert tool_input_schema(t, "gemini")["properties"]["x"]["items"] == {
        "type": "INTEGER",
        "nullable": True,
    }


# --- bounds and defaults in words -------------------------------------------------------------


@tool("words")
async def limited(
    *,
    text: Annotated[str, required_field("limited needs text"), MaxLen(50), Doc("The text")],
    count: Annotated[int, Ge(0), Le(100), MultipleOf(5)] = 10,
    tags: Annotated[list[Annotated[str, MinLen(2)]], MaxLen(3)] = ("a1", "b2"),
    level: Mode = Mode.SLOW,
    code: Annotated[str, Predicate(str.isdigit)] = "7",
    anything: Annotated[str, Predicate(lambda s: s != "x")] = "y",
) -> None:
    """Limited."""


@pytest.mark.parametrize("profile", PROFILES)
def test_bounds_and_json_defaults_in_words_when_asked(profile):
    plain = tool_input_schema(limited, profile)["properties"]
    said = tool_input_schema(limited, profile, bounds_in_words=True)["properties"]
    assert said["text"]["description"] == "The text. Non-blank text. At most 50 characters."
    assert said["count"]["description"] == ("At least 0. At most 100. A multiple of 5. Default 10.")
    assert said["tags"]["description"] == 'At most 3 items. Default ["a1", "b2"].'
    assert said["tags"]["items"]["description"] == "At least 2 characters."
    assert said["code"]["description"] == 'Digits only. Default "7".'
    assert said["anything"]["description"] == 'Default "y".'  # a lambda says nothing
    level = said["level"]["description"]
    assert level == ("One of 1, 2. Default 2." if profile == "gemini" else "Default 2.")
    assert plain["text"]["description"] == "The text"
    assert "description" not in plain["count"]


def test_a_registry_lists_bounds_in_words_in_every_listing_when_asked():
    kit = define_toolkit("words", [limited])
    quiet, said = create_tool_registry([kit]), create_tool_registry([kit], bounds_in_words=True)
    assert said.bounds_in_words
    assert said.select("words").bounds_in_words
    count = "At least 0. At most 100. A multiple of 5. Default 10."
    assert said.mcp_tools()[0]["inputSchema"]["properties"]["count"]["description"] == count
    assert said.openai_tools()[0]["parameters"]["properties"]["count"]["description"] == count
    assert said.anthropic_tools()[0]["input_schema"]["properties"]["count"]["description"] == count
    assert said.gemini_tools()[0]["parameters"]["properties"]["count"]["description"] == count
    assert "description" not in quiet.mcp_tools()[0]["inputSchema"]["properties"]["count"]


# --- OpenAI strict mode and the model's round trip --------------------------------------------


def test_the_strict_schema_is_a_fixed_point_of_openai_agents_strictness():
    strict_schema = pytest.importorskip(
        "agents.strict_schema", reason="openai-agents is in the test extra"
    )
    for t in (order, limited, one_field(list[Item] | None), one_field(Empty)):
        schema = tool_input_schema(t, "openai-strict")
        assert strict_schema.ensure_strict_json_schema(tool_input_schema(t, "openai-strict")) == (
            schema
        )


class Point(TypedDict):
    x: int
    y: NotRequired[float]


@dataclasses.dataclass
class Shape:
    name: str
    points: list[Point]
    closed: bool = False
    color: Literal["red", "blue"] | None = None


@tool("shapes")
async def draw(
    shape: Shape,
    layer: int = 0,
    tags: list[str] | None = None,
    scale: float | None = None,
    mode: Mode | None = None,
) -> None:
    """Draw a shape."""


def _instance(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Whatever a model in strict mode may send for `schema`: every key, null where allowed."""
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    options = []
    for kind in kinds:
        if "enum" in schema:
            options.append(st.sampled_from([v for v in schema["enum"] if v is not None]))
        elif kind == "null":
            options.append(st.none())
        elif kind == "object":
            props = schema["properties"]
            options.append(st.fixed_dictionaries({k: _instance(v) for k, v in props.items()}))
        elif kind == "array":
            options.append(st.lists(_instance(schema["items"]), max_size=3))
        else:
            options.append(
                {
                    "string": st.text(max_size=5),
                    "integer": st.integers(-5, 5),
                    "number": st.floats(allow_nan=False, allow_infinity=False),
                    "boolean": st.booleans(),
                }[kind]
            )
    if "null" in kinds and "enum" in schema:
        options.append(st.none())
    return st.one_of(options)


def _without_nulls(value: Any) -> Any:
    """What the same input means under the MCP profile: a null field is a field left out."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.data())
def test_what_strict_mode_lets_a_model_send_is_accepted_with_the_mcp_meaning(data):
    schema = tool_input_schema(draw, "openai-strict")
    sent = data.draw(_instance(schema))
    jsonschema.validate(sent, schema)
    assert parse_tool_input(draw, sent) == parse_tool_input(draw, _without_nulls(sent))


# --- every type row, in every profile, as the providers' own SDKs take it ---------------------


class Flag(enum.IntEnum):
    ON = 1
    OFF = 0


@dataclasses.dataclass
class Pair:
    left: int
    right: str | None = None


UserId = NewType("UserId", str)
Count = TypeAliasType("Count", Annotated[int, Ge(0)])

TYPE_ROWS: dict[str, Any] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "Literal[str]": Literal["a", "b"],
    "Literal[int]": Literal[1, 2],
    "Literal[True]": Literal[True],
    "Enum": Color,
    "IntEnum": Flag,
    "list": list[str],
    "Sequence": Sequence[int],
    "tuple": tuple[float, ...],
    "set": set[str],
    "frozenset": frozenset[int],
    "record": dict[str, int],
    "TypedDict": Item,
    "dataclass": Pair,
    "optional": int | None,
    "union": int | str,
    "Annotated": Annotated[int, Ge(0), Doc("A count.")],
    "NewType": UserId,
    "TypeAliasType": Count,
    "nested": list[Item] | None,
}


def _cannot(profile: str, row: str) -> bool:
    return row == "record" and profile in ("openai-strict", "gemini")


@pytest.mark.parametrize("row", TYPE_ROWS)
@pytest.mark.parametrize("profile", PROFILES)
def test_every_type_row_renders_valid_json_schema_or_says_why_not(profile, row):
    t = one_field(TYPE_ROWS[row])
    if _cannot(profile, row):
        with pytest.raises(ValueError, match="record"):
            tool_input_schema(t, profile)
        return
    schema = tool_input_schema(t, profile)
    if profile != "gemini":  # Gemini's is OpenAPI's subset, checked by Google's types below
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("row", TYPE_ROWS)
def test_every_type_row_is_an_openai_tool_the_sdk_takes(row):
    pydantic = pytest.importorskip("pydantic", reason="pydantic is in the test extra")
    responses = pytest.importorskip("openai.types.responses", reason="openai is in the test extra")
    chat = pytest.importorskip("openai.types.chat", reason="openai is in the test extra")
    registry = create_tool_registry([define_toolkit("kit", [one_field(TYPE_ROWS[row])])])
    (flat,) = registry.openai_tools(api="responses")
    (nested,) = registry.openai_tools(api="chat")
    assert flat["strict"] is not _cannot("openai-strict", row)
    pydantic.TypeAdapter(responses.FunctionToolParam).validate_python(flat, strict=True)
    pydantic.TypeAdapter(chat.ChatCompletionFunctionToolParam).validate_python(nested, strict=True)


@pytest.mark.parametrize("row", TYPE_ROWS)
def test_every_type_row_is_an_anthropic_tool_the_sdk_takes(row):
    pydantic = pytest.importorskip("pydantic", reason="pydantic is in the test extra")
    types = pytest.importorskip("anthropic.types", reason="anthropic is in the test extra")
    registry = create_tool_registry([define_toolkit("kit", [one_field(TYPE_ROWS[row])])])
    (entry,) = registry.anthropic_tools()
    assert entry.get("strict", False) is (row != "record")
    pydantic.TypeAdapter(types.ToolParam).validate_python(entry, strict=True)
    assert entry["input_schema"]["type"] == "object"


@pytest.mark.parametrize("row", TYPE_ROWS)
def test_every_type_row_is_a_gemini_declaration_the_sdk_takes(row):
    genai = pytest.importorskip("google.genai.types", reason="google-genai is in the test extra")
    registry = create_tool_registry([define_toolkit("kit", [one_field(TYPE_ROWS[row])])])
    (entry,) = registry.gemini_tools()
    declared = genai.FunctionDeclaration.model_validate(entry)
    if _cannot("gemini", row):
        assert "parameters" not in entry
        assert declared.parameters_json_schema == tool_input_schema(registry.tools[0])
    else:
        assert declared.parameters is not None
        assert declared.parameters_json_schema is None


def test_a_gemini_tool_with_no_fields_declares_no_parameters():
    @tool("kit")
    async def ping() -> None:
        """Ping."""

    (entry,) = create_tool_registry([define_toolkit("kit", [ping])]).gemini_tools()
    assert entry == {"name": "ping", "description": "Ping."}


def test_the_write_fields_every_tool_shares_render_in_every_profile():
    @tool("notes")
    async def write(
        text: Annotated[str, required_field("write needs text")],
        revision: Revision = None,
        dry_run: DryRun = None,
    ) -> None:
        """Write."""

    strict = tool_input_schema(write, "openai-strict")
    assert strict["required"] == ["text", "revision", "dry_run"]
    assert strict["properties"]["revision"]["type"] == ["integer", "null"]
    assert tool_input_schema(write, "gemini")["properties"]["dry_run"]["nullable"] is True


# --- unions: every branch, where the provider takes it ------------------------------------------


class ById(TypedDict):
    id: str


class ByEmail(TypedDict):
    email: str
    note: NotRequired[str]


@tool("people")
async def find(who: Annotated[ById | ByEmail, Doc("Whom to find")], tag: int | str | None = None):
    """Find a person."""


def test_strict_profiles_list_every_branch_of_a_union_with_any_of():
    by_id = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    by_email = {
        "type": "object",
        "properties": {"email": {"type": "string"}, "note": {"type": "string"}},
        "required": ["email"],
    }
    assert_schema(
        tool_input_schema(find)["properties"]["who"],
        {"type": "object", "description": "Whom to find", **by_id},
    )
    strict = tool_input_schema(find, "openai-strict")["properties"]
    assert_schema(
        strict["who"],
        {
            "description": "Whom to find",
            "anyOf": [
                {**by_id, "additionalProperties": False},
                {
                    **by_email,
                    "required": ["email", "note"],
                    "properties": {
                        "email": {"type": "string"},
                        "note": {"type": ["string", "null"]},
                    },
                    "additionalProperties": False,
                },
            ],
        },
    )
    assert_schema(
        strict["tag"], {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]}
    )
    anthropic = tool_input_schema(find, "anthropic")["properties"]
    assert [b["required"] for b in anthropic["who"]["anyOf"]] == [["id"], ["email"]]
    assert_schema(anthropic["tag"], {"anyOf": [{"type": "integer"}, {"type": "string"}]})
    gemini = tool_input_schema(find, "gemini")["properties"]
    assert_schema(
        gemini["tag"], {"nullable": True, "anyOf": [{"type": "INTEGER"}, {"type": "STRING"}]}
    )
    registry = create_tool_registry([define_toolkit("people", [find])])
    assert registry.openai_tools()[0]["strict"] is True
    assert registry.anthropic_tools()[0]["strict"] is True
    genai = pytest.importorskip("google.genai.types", reason="google-genai is in the test extra")
    declared = genai.FunctionDeclaration.model_validate(registry.gemini_tools()[0])
    assert declared.parameters.properties["who"].any_of[1].required == ["email"]


def test_a_strict_model_can_send_every_branch_the_validator_takes():
    sent = {"who": {"email": "a@b.c", "note": None}, "tag": "x"}
    jsonschema.validate(sent, tool_input_schema(find, "openai-strict"))
    assert parse_tool_input(find, sent) == {"who": {"email": "a@b.c"}, "tag": "x"}


def test_portability_reports_each_union_a_listing_lists_by_its_first_branch():
    @tool("people")
    async def tagged(tags: dict[str, int], who: ById | ByEmail) -> None:
        """Tagged."""

    found = create_tool_registry([define_toolkit("people", [find, tagged])]).portability()
    unions = [(r["provider"], r["tool"]) for r in found if "union" in r["rule"]]
    assert unions == [
        ("openai", "tagged"),
        ("gemini", "tagged"),
        ("mcp", "find"),
        ("mcp", "find"),
        ("mcp", "tagged"),
    ]
    assert found[-1]["rule"] == (
        "the union at 'who' is listed by its first branch alone (as MCP schemas list unions); "
        "a model cannot send the others"
    )


class ByName(TypedDict):
    id: int


def test_objects_in_a_union_sharing_their_first_key_are_listed_non_strict_for_openai():
    t = one_field(ById | ByName)
    with pytest.raises(ValueError, match="first key is 'id'; OpenAI's strict mode refuses"):
        tool_input_schema(t, "openai-strict")
    registry = create_tool_registry([define_toolkit("kit", [t])])
    assert registry.openai_tools()[0]["strict"] is False
    assert registry.anthropic_tools()[0]["strict"] is True


@dataclasses.dataclass
class Spot:
    x: int
    label: str | None = None


_LEAVES = [str, int, float, bool, Literal["a", "b"], Literal[1, 2], Color, Item, Spot]


def _union_types() -> st.SearchStrategy[Any]:
    leaf = st.sampled_from(_LEAVES)
    part = st.one_of(leaf, leaf.map(lambda tp: list[tp]))  # type: ignore[valid-type]

    def union(parts: list[Any]) -> Any:
        made: Any = parts[0]
        for more in parts[1:]:
            made = made | more
        return made

    unions = st.lists(part, min_size=2, max_size=4).map(union)
    return st.one_of(unions, unions.map(lambda tp: tp | None), unions.map(lambda tp: list[tp]))


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-2, 2)
    | st.sampled_from(["a", "b", "", "red", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["name", "count", "x", "label", "other"]), inner, max_size=3
        )
    ),
    max_leaves=8,
)


def _with_nulls(value: Any, schema: dict[str, Any]) -> Any:
    """What a strict model sends for `value`: every key, null for each one left out."""
    if "anyOf" in schema:
        for branch in schema["anyOf"]:
            sent = _with_nulls(value, branch)
            if jsonschema.Draft202012Validator(branch).is_valid(sent):
                return sent
        return value
    if isinstance(value, dict) and "properties" in schema:
        props = schema["properties"]
        return {k: _with_nulls(value[k], props[k]) if k in value else None for k in props}
    if isinstance(value, list) and "items" in schema:
        return [_with_nulls(item, schema["items"]) for item in value]
    return value


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_union_value_the_validator_takes_is_valid_in_the_strict_schemas(data):
    strict_schema = pytest.importorskip(
        "agents.strict_schema", reason="openai-agents is in the test extra"
    )
    try:
        t = one_field(data.draw(_union_types()))
    except TypeError:  # a union Python reads as one type (bool | int), or one no JSON type states
        return
    value = {"x": data.draw(_JSON)}
    try:
        parse_tool_input(t, value)
    except ToolRefusal:
        return
    for profile in ("anthropic", "openai-strict"):
        try:
            schema = tool_input_schema(t, profile)
        except ValueError:
            continue  # listed non-strict, with the MCP schema
        sent = _without_nulls(value) if profile == "anthropic" else _with_nulls(value, schema)
        jsonschema.validate(sent, schema)
        if profile == "openai-strict":
            assert strict_schema.ensure_strict_json_schema(tool_input_schema(t, profile)) == schema
