"""`registry.portability()`: one row per provider rule the registry breaks; it never raises."""

from typing import Annotated, Any, Literal

from annotated_types import Ge
from typing_extensions import NotRequired, TypedDict

from adecore_tools import create_tool_registry, define_toolkit, tool
from adecore_tools._render import portability as _portability


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
    found = rows(*tools_named(_portability.OPENAI_TOOLS + 1))
    listing = [row for row in found if row["tool"] is None]
    assert [row["provider"] for row in listing] == ["openai", "gemini", "anthropic"]
    assert listing[0]["rule"].startswith("129 function tools in one listing; a request takes 128")
    assert "20" in listing[2]["rule"]


def test_more_strict_tools_or_optional_parameters_than_anthropic_takes():
    found = rows(*tools_named(_portability.ANTHROPIC_STRICT_TOOLS + 1))
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


def test_nesting_deeper_than_openai_strict_mode_takes():
    async def fn(root: Any) -> None:
        """Deep."""

    fn.__annotations__ = {"root": _nested(_portability.OPENAI_DEPTH), "return": None}
    deep = tool("kit", name="deep")(fn)
    (row,) = rows(deep)
    assert (row["provider"], row["tool"]) == ("openai", "deep")
    assert row["rule"] == "nests 11 levels; strict mode takes 10"


def test_more_enum_values_than_openai_strict_mode_takes():
    many = Literal[tuple(f"v{i}" for i in range(_portability.OPENAI_ENUM_VALUES + 1))]  # type: ignore[valid-type]

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
