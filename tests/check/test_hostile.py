"""Hostile input: whatever a caller sends, one `bad-arguments` refusal or a correct result.

Every case goes through `outcome`, which lets nothing but `ToolRefusal` out, and checks every
refusal with `check_refusal`: the code, the fields line, a body of exactly two lines that reads
back with `parse_refusal_body`, encodes as UTF-8, stays under 4 KB with ten problems echoed, and
echoes no value longer than about a hundred characters. Sizes go to 10^6 items and 10^5 levels;
the whole file runs in seconds (no timing assertion: a case that went quadratic would not end).
"""

import asyncio
import builtins
import dataclasses
import enum
import itertools
import math
import re
import sys
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from typing import Annotated, Any, Literal

import annotated_types as at
import pytest
from helpers import Color, fields_line
from hostile_values import (
    Boom,
    BrokenMapping,
    LyingDict,
    LyingFloat,
    LyingInt,
    LyingList,
    LyingMapping,
    LyingStr,
    LyingTuple,
    NoItems,
    OddItems,
    RaisingMidway,
    Spoofed,
    boom,
    hostile_class,
)
from typing_extensions import NotRequired, TypeAliasType, TypedDict

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    field,
    parse_refusal_body,
    parse_tool_input,
    refusal_body,
    tool,
    transform,
)
from adecore_tools._check import compile as _compile
from adecore_tools._model import problems as _problems
from adecore_tools._model import suggest as _suggest

MILLION = 10**6
DEEP = 10**5
BODY_LIMIT = 4096
ECHO_LIMIT = 100


class Inner(TypedDict):
    a: int
    b: NotRequired[str]


@dataclasses.dataclass
class Spot:
    x: float
    label: str = ""


@tool("hostile")
async def every(
    *,
    s: str | None = None,
    short: Annotated[str, at.MaxLen(5)] | None = None,
    i: int | None = None,
    bounded: Annotated[int, at.Ge(0), at.Le(10)] | None = None,
    x: float | None = None,
    half: Annotated[float, at.MultipleOf(0.5)] | None = None,
    b: bool | None = None,
    lit: Literal["a", "b"] | None = None,
    num: Literal[0, 2.5] | None = None,
    color: Color | None = None,
    ints: list[int] | None = None,
    seq: Sequence[str] | None = None,
    tup: tuple[float, ...] | None = None,
    strs: set[str] | None = None,
    frozen: frozenset[int] | None = None,
    few: Annotated[list[str], at.MaxLen(3)] | None = None,
    rec: dict[str, int] | None = None,
    mapping: Mapping[str, list[int]] | None = None,
    inner: Inner | None = None,
    spot: Spot | None = None,
    either: int | str | None = None,
    nested: list[list[int]] | None = None,
    records: list[dict[str, str]] | None = None,
) -> None:
    """Takes a field of every kind."""


NAMES = [f.name for f in every.input.fields]
FIELDS_LINE = "\t".join(("fields", *NAMES))
ARRAYS = ["ints", "seq", "tup", "strs", "frozen", "few", "nested", "records"]
MAPPINGS = ["rec", "mapping", "inner", "spot"]


def check_refusal(refusal: ToolRefusal, fields_line: str = FIELDS_LINE) -> None:
    """Everything a refusal promises, whatever the input was."""
    assert refusal.code == "bad-arguments"
    assert refusal.lines == (fields_line,)
    body = refusal_body(refusal)
    body.encode("utf-8")  # no lone surrogate reaches the text a transport carries
    assert len(body) <= BODY_LIMIT, len(body)
    head, *rows = body.split("\n")
    assert rows == [fields_line]
    assert head.split("\t") == ["refused", "bad-arguments", refusal.message]
    assert field(refusal.message) == refusal.message  # no control character, no separator
    assert len(body.splitlines()) == 2  # no \r, \x85, \u2028 ... either
    assert parse_refusal_body(body) == refusal
    for problem in refusal.message.split("; "):
        assert len(problem) <= 3 * ECHO_LIMIT, problem
    for quoted in re.findall(r'"(?:[^"\\]|\\.)*"', refusal.message):
        assert len(quoted) <= ECHO_LIMIT, quoted


def starts_at(message: str, name: str) -> bool:
    """Whether a refusal message starts with the path of field `name`."""
    return re.match(rf"{re.escape(name)}[:\[.]", message) is not None


def outcome(data: object, t: Any = every) -> Any:
    """What `parse_tool_input` gives: the arguments, or a checked refusal; nothing else."""
    try:
        return parse_tool_input(t, data)
    except ToolRefusal as refusal:
        check_refusal(refusal, fields_line(t))
        return refusal


def refused(data: object, t: Any = every) -> ToolRefusal:
    found = outcome(data, t)
    assert isinstance(found, ToolRefusal), "accepted"
    return found


def accepted(data: object, t: Any = every) -> dict[str, Any]:
    found = outcome(data, t)
    assert not isinstance(found, ToolRefusal), found.message
    return found


# --- long strings, lists and mappings ---------------------------------------------------------

LONG = "x" * MILLION
TAKES_LONG_TEXT = {"s", "either"}


@pytest.mark.parametrize("name", NAMES)
def test_a_million_characters_in_every_field(name):
    found = outcome({name: LONG})
    if name in TAKES_LONG_TEXT:
        assert found[name] == LONG
    else:
        assert isinstance(found, ToolRefusal)
        assert "x" * (ECHO_LIMIT // 2) not in found.message
        assert starts_at(found.message, name), found.message


def test_a_million_characters_as_names_and_keys():
    assert accepted({"rec": {LONG: 1}})["rec"] == {LONG: 1}
    for data in (
        {LONG: 1},
        {"inner": {"a": 1, LONG: 1}},
        {"spot": {"x": 1, LONG: 1}},
        {"rec": {LONG: "one"}},
        {"mapping": {LONG: [1, "two"]}},
    ):
        assert "x" * (ECHO_LIMIT // 2) not in refused(data).message


GOOD_ITEM: dict[str, object] = {
    "ints": 7,
    "seq": "a",
    "tup": 1,
    "strs": "a",
    "frozen": 1,
    "few": "a",
    "nested": [1],
    "records": {"k": "v"},
}


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_a_million_items_in_every_field(name):
    value = [GOOD_ITEM.get(name, 1)] * MILLION
    found = outcome({name: value})
    if name == "few":
        assert found.message == f"few: expected at most 3 items, got {MILLION}"
    elif name in ("strs", "frozen"):
        assert len(found[name]) == 1  # duplicates merge
    elif name in ARRAYS:
        assert len(found[name]) == MILLION
        assert found[name] is not value
    else:
        assert isinstance(found, ToolRefusal)


@pytest.mark.slow
def test_a_million_bad_items_are_counted_not_listed():
    message = refused({"ints": ["x"] * MILLION}).message
    assert message.count("; ") == 10
    assert message.endswith(f"and {MILLION - 10} more")


def test_wrong_values_are_pictured_only_for_the_problems_shown(monkeypatch):
    """A wrong value's picture (`show`) is written for the ten problems a message lists, no more.

    Written when each problem was found, 10^6 wrong items cost 0.71 s to refuse; now 0.45 s, and
    a union's branches that all miss are no longer each pictured.
    """
    pictured: list[object] = []
    show = _problems.show

    def counting(value: object) -> str:
        pictured.append(value)
        return show(value)

    monkeypatch.setattr(_problems, "show", counting)
    monkeypatch.setattr(_compile, "show", counting)
    message = refused({"ints": ["x"] * 10_000, "either": 1.5}).message
    assert message.endswith("and 9991 more"), message  # the union's problem is counted, not shown
    assert pictured == ["x"] * _problems.LIMIT
    pictured.clear()
    assert refused({"either": 1.5}).message == "either: expected an integer or a string, got 1.5"
    assert pictured == [1.5]


@pytest.mark.slow
def test_a_million_keys_in_every_mapping_field():
    keys = [f"key number {n:07d}" for n in range(MILLION)]  # too far from a name to suggest it
    rec = dict.fromkeys(keys, 1)
    assert len(accepted({"rec": rec})["rec"]) == MILLION
    one_list = [1]  # the same list under every key: each key must still get a list of its own
    lists = accepted({"mapping": dict.fromkeys(keys, one_list)})["mapping"]
    assert len({id(value) for value in lists.values()}) == MILLION  # a new list for each key
    for name in ("inner", "spot"):
        message = refused({name: rec}).message
        assert message.endswith(" more"), message


@pytest.mark.slow
def test_a_million_unknown_fields_with_long_names():
    data = {
        f"an unknown field name far too long to suggest anything {n}": 1 for n in range(MILLION)
    }
    message = refused(data).message
    assert message.endswith(f"and {MILLION - 10} more")


@pytest.mark.slow
def test_a_million_unknown_fields_close_to_real_names():
    """Each name is close enough to a field to be compared: only the ten shown may be."""
    message = refused({f"field_{n}": 1 for n in range(MILLION)}, three).message
    assert message.startswith("field_0: unknown field (did you mean 'field_a'?)")
    assert message.endswith(f"and {MILLION - 10} more")


@tool("hostile")
async def three(*, field_a: int = 0, field_b: int = 0, field_c: int = 0) -> None:
    """Takes three fields."""


def counted_distances(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The pairs of names whose edit distance is worked out from now on, one per table."""
    pairs: list[tuple[str, str]] = []
    distance = _suggest._distance

    def counting(a: str, b: str, limit: int) -> int:
        pairs.append((a, b))
        return distance(a, b, limit)

    monkeypatch.setattr(_suggest, "_distance", counting)
    return pairs


def test_unknown_field_suggestions_cost_only_the_problems_shown(monkeypatch):
    """A suggestion is worked out for the ten problems listed, not for every unknown name.

    Each of 10^4 unknown names compared with every field name (30,000 edit distances) although
    only ten are shown: 10^6 such names would take minutes (linear, at about 180 us a name).
    """
    pairs = counted_distances(monkeypatch)
    message = refused({f"field_{n}": 1 for n in range(10_000)}, three).message
    assert message.endswith("and 9990 more")
    assert len(pairs) <= _problems.LIMIT * len(three.input.fields), len(pairs)


def test_an_unknown_tool_name_among_5000_alike_names_works_out_few_distances(monkeypatch):
    """Docs: a did-you-mean name is looked for only among names whose length, letters and their
    places are close enough to be the one meant (5,000 long, alike tool names: about 30 ms).

    The same seven words in 4,000 orders share the length and the letters of the name sent; the
    places of the letters tell them apart before any edit distance is worked out.
    """
    words = ("alpha", "bravo", "delta", "kilo", "lima", "oscar", "tango")
    alike = ["_".join(order) for order in itertools.permutations(words)][:4_000]
    size = len(alike[0])
    other_letters = [f"x{n:0{size - 1}d}" for n in range(500)]  # the same length
    other_lengths = [f"y{n}" for n in range(500)]

    async def nothing() -> None:
        """Does nothing."""

    names = other_lengths + other_letters + alike
    registry = create_tool_registry(
        [define_toolkit("alike", [tool("alike", name=name)(nothing) for name in names])]
    )
    pairs = counted_distances(monkeypatch)
    placed: list[str] = []
    misplaced = _suggest._misplaced

    def counting(a: str, b: str, limit: int) -> int:
        placed.append(b)
        return misplaced(a, b, limit)

    monkeypatch.setattr(_suggest, "_misplaced", counting)
    meant = alike[1234]
    with pytest.raises(ToolRefusal) as info:
        asyncio.run(registry.run(meant.replace("oscar", "oskar"), {}))
    assert info.value.code == "unknown-tool"
    assert info.value.message.endswith(f"(did you mean {meant!r}?)")
    assert set(placed) <= set(alike), "length and letters tell the others apart"
    assert len(pairs) <= 20, len(pairs)  # of 5,000 names


class Order(TypedDict):
    label: str


@tool("hostile")
async def orders(*, items: list[Order]) -> None:
    """Takes a list of objects."""


def test_suggestions_cost_only_the_problems_shown_across_a_list_of_objects(monkeypatch):
    """Each object keeps ten problems, but the whole message shows ten: only those are searched."""
    pairs = counted_distances(monkeypatch)
    item = dict.fromkeys(("lebal", "bella", "ablel", "elbal", "balle"), 1)  # the letters of 'label'
    message = refused({"items": [item] * 1_000}, orders).message
    assert message.endswith("and 5990 more"), message  # each item: 'label' missing, five unknown
    assert len(pairs) <= _problems.LIMIT, len(pairs)


@dataclasses.dataclass(frozen=True, eq=False)
class Clash:
    """Hashes as every other one does, as items crafted to share a hash would."""

    x: int
    compared: typing.ClassVar[list[int]] = []

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        Clash.compared.append(self.x)
        return isinstance(other, Clash) and other.x == self.x


Few = Annotated[frozenset[Clash], at.MaxLen(5)]
Some = TypeAliasType("Some", Annotated[frozenset[Clash], at.MinLen(1)])  # bounded again below


def _has_clash_zero(items: frozenset[Clash]) -> bool:
    return Clash(0) in items


@tool("hostile")
async def clashing(
    *,
    few: Few | None = None,
    either: Few | str = "",
    aliased: Annotated[Some, at.MaxLen(5)] | None = None,
    checked: Annotated[frozenset[Clash], at.MaxLen(5), at.Predicate(_has_clash_zero)] | None = None,
) -> None:
    """Takes a few items."""


def test_a_bounded_set_is_never_built_past_its_bound():
    """Items sharing a hash cost each other a comparison: a set of n takes n^2 / 2 to build.

    Only a set's bound limits that (it counts after duplicates merge, so the items sent cannot
    be counted first): the set is built until it holds more than its bound, no further.
    """
    Clash.compared.clear()
    items = [{"x": n} for n in range(2_000)]  # 2,000,000 comparisons if built whole
    assert refused({"few": items}, clashing).message == (
        "few: expected at most 5 distinct items, got more than 5"
    )
    assert len(Clash.compared) <= 5 * 6, len(Clash.compared)
    for name in ("either", "aliased", "checked"):  # in a union, bounded again, checked further
        Clash.compared.clear()
        assert refused({name: items}, clashing).message == (
            f"{name}: expected at most 5 distinct items, got more than 5"  # never built further
        )
        assert len(Clash.compared) <= 5 * 6, (name, len(Clash.compared))
    sent = [{"x": n % 3} for n in range(2_000)]  # duplicates merge: within the bound
    assert accepted({"few": sent}, clashing)["few"] == frozenset(map(Clash, range(3)))


# --- deep nesting -----------------------------------------------------------------------------


def _deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def _deep_dict(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


DEEP_LIST = _deep_list(DEEP)
DEEP_DICT = _deep_dict(DEEP)
CYCLIC_LIST: list[Any] = []
CYCLIC_LIST.append(CYCLIC_LIST)
CYCLIC_DICT: dict[str, Any] = {}
CYCLIC_DICT["a"] = CYCLIC_DICT
NESTED = {
    "deep list": DEEP_LIST,
    "deep dict": DEEP_DICT,
    "cyclic list": CYCLIC_LIST,
    "cyclic dict": CYCLIC_DICT,
}


@pytest.mark.parametrize("shape", NESTED)
@pytest.mark.parametrize("name", NAMES)
def test_deep_nesting_in_every_field(name, shape):
    value = NESTED[shape]
    refusal = refused({name: value})
    assert starts_at(refusal.message, name), refusal.message


@pytest.mark.parametrize("shape", NESTED)
def test_deep_nesting_at_every_depth_of_the_types(shape):
    value = NESTED[shape]
    for data in (
        value,
        {"zz": value},
        {"ints": [value]},
        {"nested": [[value]]},
        {"rec": {"k": value}},
        {"mapping": {"k": [value]}},
        {"records": [{"k": value}]},
        {"inner": {"a": value}},
        {"inner": {"a": 1, "zz": value}},
        {"spot": {"x": value}},
        {"either": value},
    ):
        refused(data)


def test_an_unknown_key_with_a_deep_value_is_named_not_read():
    message = refused({"inner": {"a": 1, "deep": DEEP_DICT}}).message
    assert message == "inner.deep: unknown field"


# --- objects whose methods raise --------------------------------------------------------------


DUNDERS = [
    "__eq__",
    "__ne__",
    "__hash__",
    "__len__",
    "__iter__",
    "__repr__",
    "__str__",
    "__bool__",
    "__class__",
    "__getattr__",
    "__index__",
    "__float__",
    "__format__",
]
HOSTILE = {name: hostile_class(name)() for name in DUNDERS}
HOSTILE["everything"] = hostile_class(*DUNDERS)()


for _claimed in (str, int, float, list, dict, bool):
    HOSTILE[f"claims {_claimed.__name__}"] = Spoofed(_claimed)


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("name", NAMES)
def test_hostile_object_in_every_field(name, kind):
    refusal = refused({name: HOSTILE[kind]})
    assert starts_at(refusal.message, name), refusal.message


@pytest.mark.parametrize("kind", HOSTILE)
def test_hostile_object_anywhere(kind):
    hostile = HOSTILE[kind]
    for data in (
        hostile,
        {"ints": [1, hostile]},
        {"nested": [[hostile]]},
        {"rec": {"k": hostile}},
        {"mapping": {"k": [hostile]}},
        {"inner": {"a": hostile}},
        {"spot": {"x": 1, "label": hostile}},
        {"records": [{"k": hostile}]},
        {"strs": [hostile]},
        {"frozen": [hostile]},
    ):
        refused(data)
    assert refused({"zz": hostile}).message == "zz: unknown field"


class ArmedKey:
    """Hashable while it goes into a dict, then every method raises."""

    armed = False

    def __hash__(self) -> int:
        if ArmedKey.armed:
            raise Boom
        return 7

    def __eq__(self, other: object) -> bool:
        if ArmedKey.armed:
            raise Boom
        return self is other

    def __repr__(self) -> str:
        raise Boom

    __str__ = __repr__


def test_keys_that_raise_once_inside_the_dict():
    key = ArmedKey()
    cases = [{key: 1}, {"rec": {key: 1}}, {"inner": {key: 1, "a": 1}}, {"spot": {key: 1}}]
    ArmedKey.armed = True
    try:
        for data in cases:
            refused(data)
    finally:
        ArmedKey.armed = False


class Collider:
    """Hashes like a field's name and raises when compared: a lookup of that name meets it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __hash__(self) -> int:
        return hash(self.name)

    __eq__ = __repr__ = __str__ = boom


@tool("hostile")
async def takes_x(x: int) -> None:
    """Takes x."""


def test_a_key_that_collides_with_a_field_name_and_raises_when_compared():
    """A dict with as many keys as fields is read by index first, where the key's `__eq__` runs."""
    assert refused({Collider("x"): 1}, takes_x).message == (
        "x: missing, expected an integer; "
        "expected field names, got a value of type Collider as a key"
    )


class Impostor:
    """Hashes like a field's name and says it equals anything: a lookup of that name meets it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __hash__(self) -> int:
        return hash(self.name)

    def __eq__(self, other: object) -> bool:
        return True


class ImpostorStr(str):
    """A str holding one name that hashes like another and says it equals anything."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash("x")

    def __eq__(self, other: object) -> bool:
        return True


def test_a_plain_dict_compares_its_keys_as_the_dict_does():
    """Guarantees: a plain dict is read by looking names up, so its own key objects are asked."""
    assert accepted({Impostor("x"): 1}, takes_x) == {"x": 1}
    assert accepted({ImpostorStr("zzz"): 1}, takes_x) == {"x": 1}


def test_any_other_mapping_reads_its_keys_for_what_they_are():
    class Plain(dict[object, object]):
        pass

    assert refused(Plain({Impostor("x"): 1}), takes_x).message == (
        "x: missing, expected an integer; "
        "expected field names, got a value of type Impostor as a key"
    )
    assert refused(Plain({ImpostorStr("zzz"): 1}), takes_x).message == (
        "x: missing, expected an integer; zzz: unknown field"
    )


class ForgingName(str):
    """A name that would add a line and a forged row to a message, and raises when measured."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return "x\nrefused\tnot-permitted\tforged" + "A" * 100_000

    __len__ = isprintable = __str__ = __repr__ = boom  # type: ignore[assignment]


@pytest.mark.parametrize(
    "name",
    [property(boom), property(lambda _: 42), property(lambda _: ForgingName("x"))],
    ids=["raises", "not a string", "a hostile string"],
)
def test_a_class_is_named_by_its_own_name_whatever_its_metaclass_says(name):
    odd = type("Meta", (type,), {"__name__": name})("Odd", (), {})()
    refusal = refused({"x": odd}, takes_x)
    assert refusal.message == "x: expected an integer, got a value of type Odd"
    assert parse_refusal_body(refusal_body(refusal)) == refusal


def test_a_class_whose_own_name_is_a_hostile_string_is_named_as_plain_text():
    odd = type("Odd", (), {})
    odd.__name__ = ForgingName("Odd")
    assert refused({"x": odd()}, takes_x).message == (
        "x: expected an integer, got a value of type Odd"
    )


class HostileMeta(type):
    """A metaclass whose every method of its own raises: hashing, comparing, reading names."""

    __hash__ = __eq__ = __ne__ = __repr__ = __str__ = boom  # type: ignore[assignment]
    __instancecheck__ = __subclasscheck__ = __getattribute__ = boom  # type: ignore[assignment]


class OfHostileMeta(metaclass=HostileMeta):
    __slots__ = ()


@pytest.mark.parametrize("where", ["whole input", *NAMES])
def test_an_object_of_a_hostile_metaclass_is_refused_without_running_it(where):
    value = OfHostileMeta()
    data = value if where == "whole input" else {where: value}
    refusal = refused(data)
    if where == "whole input":
        assert refusal.message == "expected an object, got a value of type OfHostileMeta"


class ArmedHook(Mapping[str, int]):
    """A `Mapping` subclass whose `__subclasshook__` raises while armed.

    While it exists, `issubclass(anything, Mapping)` asks it (an ABC asks its subclasses).
    """

    armed = False

    @classmethod
    def __subclasshook__(cls, other: type) -> Any:
        if ArmedHook.armed:
            raise Boom
        return NotImplemented

    def __getitem__(self, key: str) -> int:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def test_no_mapping_subclass_in_the_process_is_asked_about_the_input():
    fresh = type("Fresh", (), {})  # a class no ABC has seen yet
    ArmedHook.armed = True
    try:
        assert refused({"rec": fresh()}).message.startswith("rec: expected an object, got")
        assert refused(fresh()).message == "expected an object, got a value of type Fresh"
    finally:
        ArmedHook.armed = False


def test_a_mapping_proxy_and_a_mapping_subclass_are_read_as_objects():
    assert accepted(types.MappingProxyType({"rec": {"a": 1}}))["rec"] == {"a": 1}
    assert accepted({"rec": ArmedHook()})["rec"] == {}


frozendict: Any = getattr(builtins, "frozendict", None)
needs_frozendict = pytest.mark.skipif(frozendict is None, reason="frozendict is new in Python 3.15")


class ItemsRaising(frozendict or dict):  # type: ignore[misc]
    """A frozendict whose own `items` raises: read as its base class reads it, like a dict."""

    def items(self) -> typing.NoReturn:
        raise RuntimeError


@needs_frozendict
def test_a_frozendict_is_read_as_an_object_at_every_depth():
    """Python 3.15's frozendict is only registered as a Mapping, which is not read as one."""
    data = frozendict(
        rec=frozendict(a=1),
        mapping=frozendict(k=(1,)),
        inner=frozendict(a=2),
        spot=frozendict(x=1.5),
        records=[frozendict(k="v")],
    )
    out = accepted(data)
    assert [out[name] for name in ("rec", "mapping", "inner", "spot", "records")] == [
        {"a": 1},
        {"k": [1]},
        {"a": 2},
        Spot(x=1.5),
        [{"k": "v"}],
    ]
    assert type(out["rec"]) is dict
    assert accepted({"rec": ItemsRaising(a=3)})["rec"] == {"a": 3}


@needs_frozendict
def test_a_frozendict_refused_is_named_an_object():
    assert refused({"s": frozendict()}).message == "s: expected a string, got an object"
    assert refused(frozendict(rec=frozendict(a="x"))).message == (
        'rec["a"]: expected an integer, got "x"'
    )


class OnlyRegistered:
    """A mapping in all but its bases: only registered with `Mapping`, each method counted."""

    read: typing.ClassVar[list[str]] = []

    def __getitem__(self, key: str) -> int:
        OnlyRegistered.read.append("__getitem__")
        return 1

    def __iter__(self) -> Iterator[str]:
        OnlyRegistered.read.append("__iter__")
        return iter(("a",))

    def __len__(self) -> int:
        OnlyRegistered.read.append("__len__")
        return 1

    def items(self) -> list[tuple[str, int]]:
        OnlyRegistered.read.append("items")
        return [("a", 1)]

    def keys(self) -> list[str]:
        OnlyRegistered.read.append("keys")
        return ["a"]


Mapping.register(OnlyRegistered)


def test_a_class_only_registered_as_a_mapping_is_not_read_as_one():
    """Docs: asking the ABC would run the class's code and that of every `Mapping` subclass."""
    assert isinstance(OnlyRegistered(), Mapping)  # what an ABC check would say
    OnlyRegistered.read.clear()
    assert refused({"rec": OnlyRegistered()}).message == (
        "rec: expected an object, got a value of type OnlyRegistered"
    )
    assert refused(OnlyRegistered()).message == (
        "expected an object, got a value of type OnlyRegistered"
    )
    assert OnlyRegistered.read == []


def test_str_subclass_keys_are_read_as_plain_str():
    out = accepted({LyingStr("s"): "v", LyingStr("rec"): {LyingStr("k"): 1}})
    assert out["s"] == "v"
    assert out["rec"] == {"k": 1}
    assert all(type(k) is str for k in out["rec"])
    assert refused({LyingStr("zz"): 1}).message == "zz: unknown field"


@pytest.mark.parametrize(
    "key",
    [1, (1, 2), None, True, math.nan, frozenset({"s"}), b"s", 10**5000, Color.RED],
    ids=["int", "tuple", "None", "True", "nan", "frozenset", "bytes", "huge", "enum"],
)
def test_keys_that_are_not_strings(key):
    for data in ({key: 1}, {"rec": {key: 1}}, {"inner": {"a": 1, key: 1}}, {"spot": {key: 1}}):
        refusal = refused(data)
        assert "key" in refusal.message


# --- mappings that lie ------------------------------------------------------------------------


def test_lying_mapping_is_read_through_items():
    assert accepted(LyingMapping([("s", "ok"), ("i", 3)]))["s"] == "ok"
    out = accepted(
        {
            "rec": LyingMapping([("k", 1)]),
            "inner": LyingMapping([("a", 2)]),
            "spot": LyingMapping([("x", 1.5)]),
            "mapping": LyingMapping([]),
        }
    )
    assert out["rec"] == {"k": 1}
    assert out["inner"] == {"a": 2}
    assert out["spot"] == Spot(1.5)
    assert out["mapping"] == {}


ODD = {
    "raises midway": RaisingMidway(),
    "items not iterable": OddItems(5),
    "items not pairs": OddItems([1, 2]),
    "items of three": OddItems([("s", 1, 2)]),
    "items raise": OddItems(HOSTILE["__iter__"]),
    "items of hostile pairs": OddItems([HOSTILE["__iter__"]]),
    "no items": NoItems(),
    "hostile keys": OddItems([(HOSTILE["everything"], 1)]),
}


@pytest.mark.parametrize("kind", ODD)
def test_mapping_that_cannot_be_read_is_refused_at_every_depth(kind):
    odd = ODD[kind]
    assert refused(odd).message.startswith("expected") or "key" in refused(odd).message
    for name in MAPPINGS:
        message = refused({name: odd}).message
        assert starts_at(message, name), message


@tool("hostile")
async def either_mapping(
    *, shape: list[int] | dict[str, int] | None = None, thing: Inner | int | None = None
) -> None:
    """Takes a union with a mapping branch."""


@pytest.mark.parametrize("kind", ODD)
def test_a_union_names_a_mapping_that_cannot_be_read(kind):
    # a union dropped the mapping branch's own words and said "got an object" to "expected ...
    # an object"
    for name in ("shape", "thing"):
        message = refused({name: ODD[kind]}, either_mapping).message
        if "key" in message:  # a hostile key: read, and refused as a key
            continue
        assert message == f"{name}: expected an object, got a mapping that could not be read"


@pytest.mark.slow
def test_a_million_lazy_items():
    class Lazy(BrokenMapping):
        def items(self):  # type: ignore[override]
            return ((f"k{n}", n) for n in range(MILLION))

    assert len(accepted({"rec": Lazy()})["rec"]) == MILLION


def test_dict_and_list_subclasses_are_read_from_their_storage():
    data = LyingDict(
        s="a",
        ints=LyingList([1, 2]),
        tup=LyingTuple((1.5,)),
        strs=LyingList(["a", "a"]),
        rec=LyingDict(k=1),
        inner=LyingDict(a=1),
        spot=LyingDict(x=2),
        nested=LyingTuple((LyingList([1]),)),
    )
    out = accepted(data)
    assert out["s"] == "a"
    assert out["ints"] == [1, 2]
    assert type(out["ints"]) is list
    assert out["tup"] == (1.5,)
    assert out["strs"] == {"a"}
    assert out["rec"] == {"k": 1}
    assert type(out["rec"]) is dict
    assert out["inner"] == {"a": 1}
    assert out["spot"] == Spot(2.0)
    assert out["nested"] == [[1]]
    assert type(out["nested"][0]) is list


def test_dict_and_list_subclasses_refused_with_their_storage():
    refusal = refused(LyingDict(ints=LyingList([1, "two"]), zz=1))
    assert refusal.message == 'ints[1]: expected an integer, got "two"; zz: unknown field'


def test_scalar_subclasses_pass_as_plain_values():
    out = accepted(
        {
            "s": LyingStr("abc"),
            "lit": LyingStr("a"),
            "color": LyingStr("red"),
            "i": LyingInt(3),
            "bounded": LyingInt(4),
            "x": LyingFloat(1.5),
            "half": LyingFloat(2.5),
            "num": LyingFloat(2.5),
            "either": LyingInt(1),
            "ints": [LyingInt(1)],
            "strs": [LyingStr("a")],
            "rec": {LyingStr("k"): LyingInt(2)},
        }
    )
    assert out["s"] == "abc"
    assert type(out["s"]) is str
    assert out["lit"] == "a"
    assert out["color"] is Color.RED
    assert type(out["i"]) is int
    assert out["bounded"] == 4
    assert type(out["x"]) is float
    assert out["num"] == 2.5
    assert type(out["either"]) is int
    assert out["strs"] == {"a"}
    assert out["rec"] == {"k": 2}


@pytest.mark.parametrize(
    "value", [LyingStr("zzz"), LyingInt(99), LyingFloat(7.25)], ids=["str", "int", "float"]
)
@pytest.mark.parametrize("name", NAMES)
def test_scalar_subclasses_refused_in_every_field(name, value):
    found = outcome({name: value})
    if isinstance(found, ToolRefusal):
        assert starts_at(found.message, name), found.message
    else:
        assert type(found[name]) in (str, int, float), found[name]  # passed on as a plain value


# --- numbers: huge, not finite, negative zero -------------------------------------------------

HUGE = 10**5000  # str(HUGE) raises ValueError: beyond Python's int string limit
TAKES_HUGE = {"i", "either"}


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("name", NAMES)
def test_huge_int_in_every_field(name, sign):
    value = sign * HUGE
    found = outcome({name: value})
    if name in TAKES_HUGE:
        assert found[name] == value
    else:
        assert isinstance(found, ToolRefusal)
        said = "a very large integer" if sign > 0 else "a very large negative integer"
        assert said in found.message, found.message


def test_huge_ints_inside_containers():
    out = accepted(
        {"ints": [HUGE], "frozen": [HUGE, HUGE], "rec": {"k": HUGE}, "inner": {"a": HUGE}}
    )
    assert out["ints"] == [HUGE]
    assert out["frozen"] == frozenset({HUGE})
    assert out["rec"] == {"k": HUGE}
    assert out["inner"] == {"a": HUGE}
    for data in ({"tup": [HUGE]}, {"spot": {"x": HUGE}}):
        assert "a very large integer" in refused(data).message
    assert "a very large negative integer" in refused({"num": -HUGE}).message


def test_int_just_beyond_a_float_is_refused_by_float_fields():
    assert (
        refused({"x": 2**1024}).message
        == "x: expected a number within ±1.7976931348623157e+308, got a very large integer"
    )
    assert accepted({"x": 2**1023})["x"] == float(2**1023)


def _at_most_100(n: int) -> int:
    if n > 100:
        raise ValueError("too large:", n)  # the input itself, as a host may well write
    return n


def _is_at_most_100(n: int) -> bool:
    return _at_most_100(n) == n


@dataclasses.dataclass
class Capped:
    n: int

    def __post_init__(self) -> None:
        _at_most_100(self.n)


@tool("hostile")
async def capped(
    *,
    changed: Annotated[int, transform(_at_most_100)] | None = None,
    checked: Annotated[int, at.Predicate(_is_at_most_100)] | None = None,
    built: Capped | None = None,
) -> None:
    """Takes ints a host's ValueError refuses, naming them."""


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"changed": HUGE}, "changed: the value was refused"),
        (
            {"checked": HUGE},
            "checked: expected a value passing _is_at_most_100, got a very large integer",
        ),
        ({"built": {"n": HUGE}}, "built: Capped refused these values"),
        ({"changed": 101}, "changed: ('too large:', 101)"),
    ],
    ids=["transform", "predicate", "dataclass", "within the digits"],
)
def test_a_host_value_error_holding_a_huge_int_is_a_refusal(data, said):
    """Writing the error's text raised Python's int-to-text `ValueError`, which came out of
    `parse_tool_input` in place of the refusal; its text is left out, as an empty one is."""
    assert refused(data, capped).message == said


@tool("hostile")
async def steps(
    *,
    halves: Annotated[int, at.MultipleOf(0.5)] | None = None,
    quarters: list[Annotated[int, at.MultipleOf(0.25)]] | None = None,
    tenths: Annotated[float, at.MultipleOf(0.1)] | None = None,
) -> None:
    """Takes ints in float steps."""


@pytest.mark.parametrize(
    "data",
    [
        {"halves": HUGE},
        {"halves": 2**1100},
        {"halves": -(2**1024)},
        {"quarters": [1, 2**1100]},
        {"halves": 1e300},
    ],
    ids=["10**5000", "2**1100", "-2**1024", "in a list", "1e300 as int"],
)
def test_huge_int_with_a_float_step_is_answered_not_raised(data):
    """`value % 0.5` overflows for an int beyond a double; the answer must still be one."""
    outcome(data, steps)


@tool("hostile")
async def number_or(*, a: float | str | None = None, b: Literal["x"] | float | None = None) -> None:
    """Takes a union with a float branch."""


@pytest.mark.parametrize(
    ("value", "got"),
    [
        (2**1024, "a number within ±1.7976931348623157e+308, got a very large integer"),
        (math.inf, "a finite number, got Infinity"),
        (math.nan, "a finite number, got NaN"),
    ],
    ids=["2**1024", "inf", "nan"],
)
def test_a_union_says_a_number_too_large_or_not_finite_is_why(value, got):
    # a union dropped the float branch's words: "expected a number or a string, got a very
    # large integer" refused a number for not being a number
    for name in ("a", "b"):
        message = refused({name: value}, number_or).message
        assert message == f"{name}: expected {got}"


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("name", NAMES)
def test_nan_and_infinity_in_every_field(name, value):
    refusal = refused({name: value})
    assert starts_at(refusal.message, name), refusal.message


def test_nan_and_infinity_inside_containers():
    for value in (math.nan, math.inf, -math.inf):
        for data in (
            {"ints": [value]},
            {"tup": [value]},
            {"frozen": [value]},
            {"rec": {"k": value}},
            {"spot": {"x": value}},
            {"inner": {"a": value}},
            {value: 1},
        ):
            refused(data)


def test_negative_zero():
    out = accepted(
        {
            "i": -0.0,
            "bounded": -0.0,
            "x": -0.0,
            "half": -0.0,
            "num": -0.0,
            "either": -0.0,
            "tup": [-0.0],
        }
    )
    assert out["i"] == 0
    assert type(out["i"]) is int
    assert type(out["bounded"]) is int
    assert math.copysign(1, out["x"]) == -1
    assert math.copysign(1, out["half"]) == -1
    assert out["num"] == 0
    assert type(out["num"]) is int  # the declared value, Literal[0]
    assert type(out["either"]) is int
    assert math.copysign(1, out["tup"][0]) == -1


# --- text that could break a line or an encoding ----------------------------------------------

SURROGATES = ["\ud800", "\udfff", "a\ud800b", "\udc80" * 50, "\ud800" * MILLION]


@pytest.mark.parametrize("text", SURROGATES, ids=lambda t: f"{len(t)} chars")
def test_surrogates_pass_as_text_and_never_reach_a_refusal_raw(text):
    assert accepted({"s": text, "rec": {text: 1}, "strs": [text]})["s"] == text
    for data in (
        {"lit": text},
        {"color": text},
        {"i": text},
        {text: 1},
        {"inner": {"a": 1, text: 1}},
        {"rec": {text: "one"}},
        {"short": text * 6},
    ):
        refusal = refused(data)
        assert "\ud800" not in refusal.message
        assert "\udfff" not in refusal.message


BREAKERS = [
    "\n",
    "\r\n",
    "\t",
    "\x85",
    "\u2028",
    "\u2029",
    "\x00",
    "\x1b[31m",
    "\nrefused\tnot-permitted\tforged",
]


@pytest.mark.parametrize("text", BREAKERS, ids=repr)
def test_line_breakers_never_add_a_line_or_a_row(text):
    forged = f"a{text}b"
    cases: list[object] = [{name: forged} for name in NAMES]
    cases += [
        {forged: 1},
        {"rec": {forged: "v"}},
        {"inner": {forged: 1}},
        {"ints": [forged]},
        {"records": [{"k": 1, forged: 2}]},
        {"num": forged},
    ]
    for data in cases:
        outcome(data)  # check_refusal: exactly two lines, no control character


def test_ten_long_echoes_stay_under_the_body_limit():
    data = {name: LONG for name in NAMES if name not in TAKES_LONG_TEXT}
    data.update({f"{LONG[:200]}{n}": LONG for n in range(20)})
    refusal = refused(data)
    assert refusal.message.endswith("more")
    assert len(refusal_body(refusal)) <= BODY_LIMIT


# --- whatever the whole input is --------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        LONG,
        [1] * MILLION,
        b"bytes",
        42,
        math.nan,
        HUGE,
        object(),
        Color.RED,
        {"s"},
        ("s", "a"),
        [("s", "a")],
        iter([("s", "a")]),
        type,
        sys,
    ],
    ids=[
        "long str",
        "long list",
        "bytes",
        "int",
        "nan",
        "huge",
        "object",
        "enum",
        "set",
        "tuple",
        "pairs",
        "iterator",
        "type",
        "module",
    ],
)
def test_any_whole_input_that_is_no_mapping(data):
    refusal = refused(data)
    assert refusal.message.startswith("expected an object, got")


def test_none_as_the_whole_input_means_no_fields():
    assert accepted(None) == dict.fromkeys(NAMES)


# --- the tool name is input too ---------------------------------------------------------------


@tool("hostile")
async def named(*, n: int = 0) -> int:
    """Returns its number."""
    return n


NAMED = create_tool_registry([define_toolkit("hostile", [named])])


TOOL_NAMES: dict[str, object] = {
    "hash raises": HOSTILE["__hash__"],
    "eq raises": HOSTILE["__eq__"],
    "class raises": HOSTILE["__class__"],
    "everything raises": HOSTILE["everything"],
    "str subclass equal to a name": LyingStr("named"),
    "str subclass near a name": LyingStr("nmaed"),
    "list": ["named"],
    "surrogate": "\ud800",
    "long": LONG,
    "huge int": HUGE,
    "None": None,
}


class ToolName(str, enum.Enum):
    NAMED = "named"


@pytest.mark.parametrize(
    "name", [ToolName.NAMED, LyingStr("named")], ids=["str enum member", "hostile str subclass"]
)
def test_a_str_subclass_names_the_tool_it_holds_everywhere(name):
    """`run`, `get` and `in` read a `str` name by what it holds, running none of its code."""
    assert name in NAMED
    assert NAMED.get(name) is NAMED.tools[0]
    assert asyncio.run(NAMED.run(name, {"n": 3})) == 3


def test_a_str_subclass_near_a_name_gets_a_suggestion():
    with pytest.raises(ToolRefusal) as caught:
        asyncio.run(NAMED.run(LyingStr("nmaed"), {}))
    assert caught.value.message == "there is no tool named \"nmaed\" (did you mean 'named'?)"


@pytest.mark.parametrize("kind", TOOL_NAMES)
def test_any_tool_name_runs_the_tool_or_refuses_unknown_tool(kind):
    refusal = None
    try:
        result = asyncio.run(NAMED.run(TOOL_NAMES[kind], {"n": 3}))  # type: ignore[arg-type]
    except ToolRefusal as caught:
        refusal = caught
    if refusal is None:
        assert result == 3
        return
    assert refusal.code == "unknown-tool"
    assert refusal.lines == ("tools\tnamed",)
    body = refusal_body(refusal)
    body.encode("utf-8")
    assert len(body.split("\n")) == 2
    assert parse_refusal_body(body) == refusal
    assert len(body) <= 300
