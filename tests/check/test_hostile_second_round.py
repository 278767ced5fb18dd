"""Hostile input, second round: each case here broke a promise before its fix.

- A container is read once, from a snapshot: nothing the input defines can change what is read
  while it is checked, nor make the work grow without bound.
- A mapping that is no dict is read once per value, whatever the union or bound around it.
- A default a factory makes is as isolated as a written one: no call shares it with another.
- Every bound and predicate of a field is tested and listed, `required_field` among them.
- The host-side text helpers read text through `str`'s own methods.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any

import pytest
from annotated_types import MaxLen, MinLen, Predicate
from hostile_values import Meddling, OneShot
from hypothesis import given
from hypothesis import strategies as st
from typing_extensions import TypedDict

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    field,
    parse_refusal_body,
    parse_tool_input,
    refusal_body,
    required_field,
    tool,
    tool_input_schema,
)


class Leaf(TypedDict):
    value: int


def refused(t: Any, data: object) -> str:
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(t, data)
    assert info.value.code == "bad-arguments"
    return info.value.message


@tool("round")
async def records(rec: dict[str, Leaf]) -> None:
    """Take a record of leaves."""


@tool("round")
async def nested_records(rec: dict[str, dict[str, int]]) -> None:
    """Take a record of records."""


@tool("round")
async def union_records(rec: dict[str, Leaf | int]) -> None:
    """Take a record of leaves or numbers."""


@tool("round")
async def leaves(items: list[Leaf]) -> None:
    """Take a list of leaves."""


@tool("round")
async def either(either: Leaf | dict[str, int]) -> None:
    """Take a leaf or a record."""


@tool("round")
async def counted(rec: Annotated[dict[str, int], MaxLen(1)]) -> None:
    """Take a small record."""


# --- a container is read once, from a snapshot -------------------------------------------------


@pytest.mark.parametrize("t", [records, nested_records, union_records])
def test_a_record_whose_value_changes_it_while_it_is_read_is_read_as_it_was(t):
    """Before: `RuntimeError: dictionary changed size during iteration` came out."""
    outer: dict[str, Any] = {}
    outer["a"] = Meddling(lambda: outer.setdefault("added", 1), [("value", 1)])
    result = parse_tool_input(t, {"rec": outer})
    assert list(result["rec"]) == ["a"]  # the key added while reading is not read


def test_an_item_that_appends_to_its_list_does_not_make_the_read_go_on():
    """Before: each item appended another, and the read went on until the caller gave up."""
    items: list[Any] = []
    appended = 0

    def grow() -> None:
        nonlocal appended
        appended += 1
        items.append(Meddling(grow, [("value", 1)]))

    items.append(Meddling(grow, [("value", 1)]))
    result = parse_tool_input(leaves, {"items": items})
    assert result["items"] == [{"value": 1}]
    assert appended == 1


def test_an_item_that_deletes_the_rest_cannot_hide_a_bad_item():
    """Before: `[M(l), "not an object"]` was accepted as `[{'value': 1}]`."""
    items: list[Any] = []
    items.append(Meddling(lambda: items.__delitem__(slice(1, None)), [("value", 1)]))
    items.append("not an object")
    assert refused(leaves, {"items": items}) == 'items[1]: expected an object, got "not an object"'


# --- a mapping that is no dict is read once ----------------------------------------------------


def test_a_one_shot_mapping_in_a_union_is_refused_as_a_dict_would_be():
    """Before: the first branch read it, the second read nothing and accepted `{}`."""
    sent = OneShot([("value", "x")])
    assert refused(either, {"either": sent}) == refused(either, {"either": {"value": "x"}})
    assert sent.reads == 1


def test_a_mapping_in_a_union_is_read_once_whatever_the_branches():
    sent = Meddling(lambda: None, [("value", 5)])
    assert parse_tool_input(either, {"either": sent}) == {"either": {"value": 5}}
    assert sent.reads == 1


def test_a_bounded_record_whose_values_were_refused_is_not_read_again_to_count_it():
    sent = Meddling(lambda: None, [("a", "x"), ("b", 2)])
    message = refused(counted, {"rec": sent})
    assert message == 'rec: expected at most 1 key, got 2; rec["a"]: expected an integer, got "x"'
    assert sent.reads == 1


def test_a_mapping_no_union_branch_takes_is_not_read_at_all():
    @tool("round")
    async def scalar(x: int | str) -> None:
        """Take a number or a text."""

    sent = Meddling(lambda: None, [("value", 1)])
    assert refused(scalar, {"x": sent}) == "x: expected an integer or a string, got an object"
    assert sent.reads == 0


# --- a default made by a factory is isolated ---------------------------------------------------


@dataclasses.dataclass(eq=False)
class Pad:
    lines: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Page:
    pad: Pad = Pad()  # noqa: RUF009 - the class default every `Page()` shares: the point


@dataclasses.dataclass
class Book:
    page: Page = dataclasses.field(default_factory=Page)


@tool("round")
async def scribble(book: Book) -> list[str]:
    """Scribble on the book's page."""
    book.page.pad.lines.append("scribble")
    return book.page.pad.lines


def test_a_default_a_factory_builds_from_a_class_default_is_new_for_each_call():
    """Before: the second call returned `['scribble', 'scribble']`, Page's class default changed."""
    registry = create_tool_registry([define_toolkit("round", [scribble])])
    import asyncio  # noqa: PLC0415

    assert asyncio.run(registry.run("scribble", {"book": {}})) == ["scribble"]
    assert asyncio.run(registry.run("scribble", {"book": {}})) == ["scribble"]
    assert Page.pad.lines == []
    first = parse_tool_input(scribble, {"book": {}})["book"]
    second = parse_tool_input(scribble, {"book": {}})["book"]
    assert first.page is not second.page
    assert first.page.pad is not second.page.pad


class Uncopyable(list[int]):
    """What a factory may make that no copy can be made of (a handle, a lock)."""

    def __deepcopy__(self, memo: object) -> None:
        raise TypeError("no copies")


@dataclasses.dataclass
class Holder:
    handle: list[int] = dataclasses.field(default_factory=Uncopyable)


def test_a_factory_default_that_cannot_be_copied_is_passed_as_made():
    @tool("round")
    async def hold(holder: Holder) -> None:
        """Hold it."""

    first = parse_tool_input(hold, {"holder": {}})["holder"].handle
    second = parse_tool_input(hold, {"holder": {}})["holder"].handle
    assert type(first) is Uncopyable
    assert first is not second  # each made by its own call of the factory


# --- every bound is tested and listed ----------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        (
            Annotated[str, MaxLen(1), required_field("a is needed")],
            "a: expected at most 1 character, got 3; a is needed",
        ),
        (
            Annotated[str, required_field("a is needed"), MaxLen(1)],
            "a is needed; a: expected at most 1 character, got 3",
        ),
        (
            Annotated[str, required_field("a is needed"), Predicate(str.isdigit)],
            'a is needed; a: expected digits only, got "   "',
        ),
    ],
)
def test_required_field_is_listed_with_every_other_problem_of_the_field(annotation, message):
    """Before: only `a is needed` was told; written first, it stopped the bounds after it."""

    async def fn(a: str) -> None:
        """Take a."""

    fn.__annotations__ = {"a": annotation, "return": None}
    t = tool("round", name="blank")(fn)
    assert refused(t, {"a": "   "}) == message


def test_required_field_still_says_only_its_message_for_a_field_left_out():
    @tool("round")
    async def needed(a: Annotated[str, MinLen(2), required_field("a is needed")]) -> None:
        """Take a."""

    assert refused(needed, {}) == "a is needed"
    assert refused(needed, {"a": None}) == "a is needed"


# --- the text helpers read text through str's own methods --------------------------------------


class Lying(str):
    """A str whose own methods lie: printable, nothing to translate, no line to split."""

    __slots__ = ()

    def isprintable(self) -> bool:
        return True

    def translate(self, table: object) -> str:  # noqa: ARG002 - it lies
        return str(self)

    def split(self, *args: object, **kwargs: object) -> list[str]:  # noqa: ARG002 - it raises
        raise RuntimeError("split")

    def __str__(self) -> str:
        return self


def test_a_refusal_with_a_lying_str_row_still_reads_back_exactly():
    refusal = ToolRefusal("not-found", "no such note", [Lying("row\nrefused\tx\ty")])
    body = refusal_body(refusal)
    assert body.count("\n") == 1
    assert parse_refusal_body(body) == refusal


def test_field_of_a_value_whose_str_lies_has_no_line_break():
    class Shown:
        def __str__(self) -> str:
            return Lying("a\nb")

    assert field(Shown()) == "a b"
    assert type(field(Shown())) is str


def test_parse_refusal_body_of_a_str_whose_split_raises_reads_its_text():
    text = Lying("refused\tnot-found\tno such note")
    assert parse_refusal_body(text) == ToolRefusal("not-found", "no such note")


def test_a_lying_str_code_is_read_as_its_text():
    with pytest.raises(ValueError, match="lower kebab case"):
        ToolRefusal(Lying("Not Kebab"), "message")


# --- the shared schema and listing cannot be changed through their base classes ---------------


@pytest.mark.parametrize(
    "change",
    [
        lambda s: dict.__setitem__(s, "additionalProperties", True),
        lambda s: dict.update(s, {"additionalProperties": True}),
        lambda s: dict.__delitem__(s, "properties"),
        dict.clear,
        lambda s: list.append(s["required"], "extra"),
        lambda s: dict.__setitem__(s["properties"]["text"], "type", "integer"),
    ],
)
def test_a_schema_changed_through_its_base_class_changes_no_later_schema(change):
    @tool("round")
    async def note(text: str, limit: int = 3) -> None:
        """Write a note."""

    before = json.dumps(tool_input_schema(note))
    change(tool_input_schema(note))
    assert json.dumps(tool_input_schema(note)) == before


def test_a_listing_changed_through_its_base_class_changes_no_later_listing():
    @tool("round")
    async def listed(text: str) -> None:
        """List it."""

    registry = create_tool_registry([define_toolkit("round", [listed])])
    before = json.dumps(registry.mcp_tools())
    entry = registry.mcp_tools()[0]
    dict.__setitem__(entry, "name", "other")
    dict.__setitem__(entry["annotations"], "readOnlyHint", True)
    dict.__setitem__(entry["inputSchema"]["properties"], "more", {"type": "string"})
    assert json.dumps(registry.mcp_tools()) == before


# --- did-you-mean: the distance the docs define ------------------------------------------------


def _damerau_levenshtein(a: str, b: str) -> int:
    """The unrestricted Damerau-Levenshtein distance, by its textbook table (Lowrance-Wagner)."""
    inf = len(a) + len(b)
    table = [[inf] * (len(b) + 2) for _ in range(len(a) + 2)]
    for i in range(len(a) + 1):
        table[i + 1][0], table[i + 1][1] = inf, i
    for j in range(len(b) + 1):
        table[0][j + 1], table[1][j + 1] = inf, j
    last: dict[str, int] = {}
    for i in range(1, len(a) + 1):
        column = 0
        for j in range(1, len(b) + 1):
            row, found = last.get(b[j - 1], 0), column
            cost = 0 if a[i - 1] == b[j - 1] else 1
            if cost == 0:
                column = j
            table[i + 1][j + 1] = min(
                table[i][j] + cost,
                table[i + 1][j] + 1,
                table[i][j + 1] + 1,
                table[row][found] + (i - row - 1) + 1 + (j - found - 1),
            )
        last[a[i - 1]] = i
    return table[len(a) + 1][len(b) + 1]


def test_a_swap_then_an_insertion_is_two_edits():
    """Before: `cazzzz` for `abczzzz` got no suggestion (optimal string alignment says 3)."""
    from adecore_tools._model import suggest as _suggest  # noqa: PLC0415

    assert _damerau_levenshtein("cazzzz", "abczzzz") == 2
    assert _suggest.closest("cazzzz", ["abczzzz"]) == "abczzzz"


@given(
    st.text(alphabet="abcz_", max_size=9),
    st.text(alphabet="abcz_", max_size=9),
    st.integers(min_value=0, max_value=5),
)
def test_the_bounded_distance_is_the_unrestricted_damerau_levenshtein_distance(a, b, limit):
    from adecore_tools._model import suggest as _suggest  # noqa: PLC0415

    exact = _damerau_levenshtein(a, b)
    bounded = _suggest._distance(a, b, limit)
    assert bounded == exact if exact <= limit else bounded > limit


# --- what an echo can and cannot hold ----------------------------------------------------------


@tool("round")
async def echoes(count: int, name: str) -> None:
    """Take a count and a name."""


def _problems_of(message: str) -> list[str]:
    """A message split on the `; ` outside double quotes, as the docs say a host may split it."""
    problems, current, quoted, escaped = [], "", False, False
    for index, char in enumerate(message):
        if quoted and escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif not quoted and message.startswith("; ", index):
            problems.append(current)
            current = ""
            continue
        if not (not quoted and current == "" and char == " " and problems):
            current += char
    return [*problems, current]


def test_a_semicolon_echoed_inside_quotes_does_not_split_a_problem():
    message = refused(echoes, {"count": 'a"; b', "name": 5, "other; x": 1})
    assert _problems_of(message) == [
        'count: expected an integer, got "a\\"; b"',
        "name: expected a string, got 5",
        '["other; x"]: unknown field',
    ]


@pytest.mark.parametrize("mark", ["\u202e", "\u202a", "\u2066", "\u200f", "\u061c"])
def test_bidirectional_format_characters_are_never_echoed(mark):
    """Before: U+202E came back raw, so a host showing the refusal showed reordered text."""
    message = refused(echoes, {"count": f"1{mark}0", "name": "n", f"na{mark}me": 1})
    assert mark not in message
    assert message == (
        'count: expected an integer, got "1 0"; ["na me"]: unknown field (did you mean \'name\'?)'
    )


def test_a_value_of_a_class_named_as_a_builtin_is_named_by_its_module():
    """Before: `numpy.bool_` was told `expected a boolean, got a value of type bool`."""
    fake_bool = type("bool", (), {"__module__": "numpy"})
    assert refused(echoes, {"count": fake_bool(), "name": "n"}) == (
        "count: expected an integer, got a value of type numpy.bool"
    )
    assert refused(echoes, {"count": object(), "name": "n"}) == (
        "count: expected an integer, got a value of type object"
    )
