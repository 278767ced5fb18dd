"""`registry.portability()`: one row per provider rule the registry breaks; it never raises."""

import sys
from typing import Annotated, Any, Literal

import pytest
from annotated_types import Ge
from typing_extensions import NotRequired, TypedDict

from adecore_tools import create_tool_registry, define_toolkit, tool, tool_input_schema
from adecore_tools._render import providers as _providers


def tools_named(count: int, prefix: str = "t", optional: int = 0) -> list[Any]:
    made = []
    for number in range(count):
        parameters = ", ".join(f"o{i}: int = 0" for i in range(optional))
        namespace: dict[str, Any] = {}
        exec(f"async def fn({parameters}) -> None:\n    '''Do it.'''\n", namespace)  # noqa: S102
        made.append(tool("kit", name=f"{prefix}{number}")(namespace["fn"]))
    return made


def rows(*tools: Any) -> list[dict[str, str | None]]:
    return create_tool_registry([define_toolkit("kit", list(tools))]).portability()


@tool("kit")
async def plain(text: str, count: Annotated[int, Ge(0)] = 1) -> None:
    """Plain."""


@tool("kit")
async def labels(labels: dict[str, int]) -> None:
    """Labels."""


def test_a_registry_within_every_rule_has_no_rows():
    assert rows(plain) == []


def test_a_record_breaks_strict_openai_gemini_parameters_and_strict_anthropic():
    found = rows(plain, labels)
    assert [(row["provider"], row["tool"]) for row in found] == [
        ("openai", "labels"),
        ("gemini", "labels"),
        ("anthropic", "labels"),
    ]
    assert "listed non-strict" in found[0]["rule"]
    assert "parametersJsonSchema" in found[1]["rule"]
    assert "listed non-strict" in found[2]["rule"]


def test_more_tools_than_a_request_takes_is_one_row_for_the_listing():
    found = rows(*tools_named(_providers.OPENAI_TOOLS + 1))
    listing = [row for row in found if row["tool"] is None]
    assert [row["provider"] for row in listing] == ["openai", "gemini", "anthropic"]
    assert listing[0]["rule"].startswith("129 function tools in one listing; a request takes 128")
    assert "20" in listing[2]["rule"]


def test_more_strict_tools_or_optional_parameters_than_anthropic_takes():
    found = rows(*tools_named(_providers.ANTHROPIC_STRICT_TOOLS + 1))
    assert [row["provider"] for row in found] == ["anthropic"]
    assert "anthropic_tools(strict=False)" in found[0]["rule"]
    found = rows(*tools_named(2, optional=13))
    assert [row["provider"] for row in found] == ["anthropic"]
    assert found[0]["rule"].startswith("the strict tools have 26 optional parameters")


def _nested(depth: int) -> Any:
    inner: Any = int
    for level in range(depth):
        inner = TypedDict(f"Level{level}", {"next": inner})  # type: ignore[operator]  # noqa: UP013 - a name per level
    return inner


def one_field(name: str, tp: Any) -> Any:
    async def fn(x: Any) -> None:
        """Take x."""

    fn.__annotations__ = {"x": tp, "return": None}
    return tool("kit", name=name)(fn)


def _lists(depth: int) -> Any:
    inner: Any = int
    for _ in range(depth):
        inner = list[inner]
    return inner


@pytest.mark.parametrize(
    ("tp", "path"),
    [
        (_nested(_providers.OPENAI_DEPTH), "x" + ".next" * 9),
        (_nested(60), "x" + ".next" * 9),
        (_lists(150), "x" + "[]" * 9),
    ],
)
def test_nesting_deeper_than_openai_strict_mode_takes_is_listed_non_strict(tp, path):
    deep = one_field("deep", tp)
    registry = create_tool_registry([define_toolkit("kit", [deep])])
    (entry,) = registry.openai_tools()
    assert entry["strict"] is False
    assert entry["parameters"] == tool_input_schema(deep)
    (row,) = [row for row in registry.portability() if row["provider"] == "openai"]
    assert row["tool"] == "deep"
    assert row["rule"] == (
        f"strict mode cannot state it (field {path!r} of tool 'deep': nests 11 levels of objects "
        "and arrays; OpenAI's strict mode takes 10); listed non-strict"
    )


@pytest.mark.parametrize("tp", [_nested(_providers.OPENAI_DEPTH - 1), _lists(9)])
def test_nesting_as_deep_as_openai_strict_mode_takes_stays_strict(tp):
    strict_schema = pytest.importorskip(
        "agents.strict_schema", reason="openai-agents is in the test extra"
    )
    registry = create_tool_registry([define_toolkit("kit", [one_field("deep", tp)])])
    (entry,) = registry.openai_tools()
    assert entry["strict"] is True
    assert strict_schema.ensure_strict_json_schema(entry["parameters"]) == entry["parameters"]
    assert registry.portability() == []


class Row(TypedDict):
    """One row of 30 keys, every one optional."""

    key: str
    o0: NotRequired[int]
    o1: NotRequired[int]
    o2: NotRequired[int]
    o3: NotRequired[int]
    o4: NotRequired[int]
    o5: NotRequired[int]
    o6: NotRequired[int]
    o7: NotRequired[int]
    o8: NotRequired[int]
    o9: NotRequired[int]
    o10: NotRequired[int]
    o11: NotRequired[int]
    o12: NotRequired[int]
    o13: NotRequired[int]
    o14: NotRequired[int]
    o15: NotRequired[int]
    o16: NotRequired[int]
    o17: NotRequired[int]
    o18: NotRequired[int]
    o19: NotRequired[int]
    o20: NotRequired[int]
    o21: NotRequired[int]
    o22: NotRequired[int]
    o23: NotRequired[int]
    o24: NotRequired[int]
    o25: NotRequired[int]
    o26: NotRequired[int]
    o27: NotRequired[int]
    o28: NotRequired[int]
    o29: NotRequired[int]


def test_optional_keys_of_list_items_count_against_anthropics_strict_limit():
    @tool("kit")
    async def put_rows(rows: list[Row]) -> None:
        """Put rows."""

    registry = create_tool_registry([define_toolkit("kit", [put_rows])])
    assert registry.anthropic_tools()[0]["strict"] is True
    (row,) = registry.portability()
    assert (row["provider"], row["tool"]) == ("anthropic", None)
    assert row["rule"].startswith(
        "the strict tools have 30 optional parameters; a request takes 24"
    )


def _steps(registry: Any) -> int:
    """The calls `portability()` makes (Python and C alike), its listings kept from a first run.

    Counted, not timed: a count is the same on a busy machine and a quiet one.
    """
    registry.portability()
    count = 0

    def counted(_frame: object, event: str, _arg: object) -> None:
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(counted)
    try:
        registry.portability()
    finally:
        sys.setprofile(None)
    return count


def test_portability_takes_steps_in_proportion_to_the_tools():
    few, many = (
        create_tool_registry([define_toolkit("kit", tools_named(count))]) for count in (250, 2000)
    )
    # eight times the tools: eight times the steps, give or take; a pass per pair would be 64
    assert _steps(many) < 12 * _steps(few)


def test_more_enum_values_than_openai_strict_mode_takes():
    many = Literal[tuple(f"v{i}" for i in range(_providers.OPENAI_ENUM_VALUES + 1))]  # type: ignore[valid-type]

    async def fn(pick: Any) -> None:
        """Pick."""

    fn.__annotations__ = {"pick": many, "return": None}
    (row,) = rows(tool("kit", name="pick")(fn))
    assert row["rule"] == "lists 1001 enum values; strict mode takes 1000 a schema"


def test_a_name_longer_than_geminis_api_reference_allows():
    long_name = "n" * 64

    async def fn() -> None:
        """Long."""

    (row,) = rows(tool("kit", name=long_name)(fn))
    assert (row["provider"], row["tool"]) == ("gemini", long_name)


class Item(TypedDict):
    name: str
    extra: NotRequired[dict[str, int]]


def test_rows_are_plain_data_and_reading_them_never_raises():
    @tool("kit")
    async def nested(items: list[Item]) -> None:
        """Nested."""

    found = rows(nested)
    assert all(set(row) == {"provider", "tool", "rule"} for row in found)
    assert all(isinstance(row["rule"], str) for row in found)


def test_more_unions_across_strict_schemas_than_anthropic_takes():
    made = [one_field(f"u{number}", int | str) for number in range(_providers.ANTHROPIC_UNIONS + 1)]
    found = [row for row in rows(*made) if row["provider"] == "anthropic"]
    rule = "the strict tools have 17 parameters with anyOf; a request takes 16 (list fewer tools"
    assert [row["rule"] for row in found] == [f"{rule} strict)"]
