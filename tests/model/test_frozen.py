"""The package's value classes: immutable, compared by value, built through `__init__`."""

import copy
import gc
import inspect
import pickle
import weakref

import pytest

from adecore_tools import (
    ToolAnnotations,
    ToolRefusal,
    ToolRegistry,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    tool,
    tool_input_schema,
)
from adecore_tools._model.frozen import _BOOKKEEPING as BOOKKEEPING
from adecore_tools._model.frozen import Frozen, Unique
from adecore_tools._model.nodes import MISSING, Field, Nullable, Scalar


def _value_classes(base: type = Frozen) -> list[type]:
    found = []
    for cls in base.__subclasses__():
        found.append(cls)
        found += _value_classes(cls)
    return found


VALUE_CLASSES = [
    cls
    for cls in _value_classes()
    if "__init__" in vars(cls) and cls is not ToolRegistry and cls.__module__ != __name__
]
"""Classes whose `__init__` takes their slots (`ToolRegistry` takes toolkits, and reduces so)."""


def test_every_value_class_is_found():
    names = {cls.__name__ for cls in VALUE_CLASSES}
    assert {"Field", "Scalar", "Constrained", "Tool", "ToolInput", "Toolkit"} <= names


@pytest.mark.parametrize("cls", VALUE_CLASSES, ids=lambda cls: cls.__name__)
def test_init_parameters_follow_the_slots(cls):
    """`_set` pairs values with slots by position, and `__reduce__` replays them into `__init__`.

    A tool's `__dict__` holds no value of its own: what it reads as, copied from its function."""
    parameters = list(inspect.signature(cls.__init__).parameters)[1:]
    assert tuple(parameters) == tuple(slot for slot in cls.__slots__ if slot not in BOOKKEEPING)


def test_a_value_cannot_change():
    node = Scalar(int)
    with pytest.raises(AttributeError, match="immutable"):
        node.kind = str  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del node.kind  # type: ignore[misc]


def _number_field() -> Field:
    """A new field, with new nodes: equal to, but not the same object as, any other it makes."""
    return Field(
        name="n",
        type=Nullable(Scalar(int)),
        required=False,
        default=None,
        description="A number.",
        missing_message=None,
    )


def test_values_compare_hash_copy_and_pickle_by_value():
    field, twin = _number_field(), _number_field()
    assert field is not twin
    assert field == twin
    assert hash(field) == hash(twin)
    assert field != Field("n", Scalar(int), True, None, "A number.", None)
    assert copy.copy(field) == field
    assert copy.deepcopy(field) == field
    assert pickle.loads(pickle.dumps(field)) == field  # noqa: S301 - our own bytes
    assert repr(field).startswith("Field(name='n', type=Nullable(inner=Scalar(kind=<class 'int'>)")


def test_tool_annotations_copy_and_pickle_by_keyword():
    notes = ToolAnnotations(read_only=True, idempotent=False, title="Read")
    assert copy.copy(notes) == notes
    assert copy.deepcopy(notes) == notes
    assert pickle.loads(pickle.dumps(notes)) == notes  # noqa: S301 - our own  # noqa: S301 - our own bytes


def test_a_field_without_default_keeps_missing_through_copy_and_pickle():
    """`MISSING` is a sentinel: a copy of it would be another object, and the field another one."""
    required = Field("n", Scalar(int), True)
    assert required.default is MISSING
    for again in (
        copy.copy(required),
        copy.deepcopy(required),
        pickle.loads(pickle.dumps(required)),  # noqa: S301 - our own bytes
    ):
        assert again == required
        assert again.default is MISSING


def test_unique_objects_equal_only_themselves():
    class Thing(Unique):
        __slots__ = ("x",)

        def __init__(self, x: int) -> None:
            self._set(x)

    one, other = Thing(1), Thing(1)
    assert one == one  # noqa: PLR0124 - identity is the point
    assert one != other
    assert hash(one) != hash(other)


def test_a_value_class_without_slots_of_its_own_sets_its_base_slots():
    class Point(Frozen):
        __slots__ = ("x", "y")

        def __init__(self, x: int, y: int) -> None:
            self._set(x, y)

    class Named(Point):
        """No `__slots__` of its own: `_set` still fills its base's."""

    assert (Named(1, 2).x, Named(1, 2).y) == (1, 2)


@tool("kit")
async def ping() -> str:
    """Answer pong."""
    return "pong"


def test_tools_inputs_and_registries_copy_as_themselves():
    """Identity is what they are (like a function): a copy would be equal to nothing."""
    registry = create_tool_registry([define_toolkit("kit", [ping])])
    for thing in (registry, ping, ping.input):
        assert copy.copy(thing) is thing
        assert copy.deepcopy(thing) is thing
    assert copy.deepcopy({"tools": [ping]})["tools"][0] is ping


def test_a_registry_reduces_to_its_toolkits():
    registry = create_tool_registry([define_toolkit("kit", [ping])])
    rebuild, arguments = registry.__reduce__()
    again = rebuild(*arguments)
    assert type(again) is ToolRegistry
    assert again.toolkits == registry.toolkits
    assert again.mcp_tools() == registry.mcp_tools()


@tool("other")
async def pong() -> str:
    """Answer ping."""
    return "ping"


def test_what_a_host_keeps_cannot_be_made_again_by_calling_init():
    """A second `__init__` call would change a shared registry, toolkit or tool in place."""
    kit = define_toolkit("kit", [ping])
    registry = create_tool_registry([kit])
    notes = ToolAnnotations(read_only=True)
    again = {
        registry: lambda: registry.__init__([define_toolkit("other", [pong])]),
        kit: lambda: kit.__init__("other", [pong]),
        ping: lambda: ping.__init__(*(getattr(pong, s) for s in type(pong).__slots__[:-1])),
        ping.input: lambda: ping.input.__init__((), pong.input.validate, {}, ()),
        notes: lambda: notes.__init__(destructive=True),
    }
    for thing, remake in again.items():
        before = [getattr(thing, slot) for slot in type(thing).__slots__ if slot != "__dict__"]
        with pytest.raises(AttributeError, match=rf"{type(thing).__name__} is immutable"):
            remake()
        assert [getattr(thing, s) for s in type(thing).__slots__ if s != "__dict__"] == before
    assert registry.toolkits == (kit,)
    assert kit.name == "kit"
    assert registry.get("ping") is ping


def test_a_field_without_default_shows_it_as_dataclasses_missing():
    """Not the sentinel's own repr, which carries a memory address that differs every run."""
    required = Field("n", Scalar(int), True)
    assert repr(required) == (
        "Field(name='n', type=Scalar(kind=<class 'int'>), required=True, "
        "default=dataclasses.MISSING, description=None, missing_message=None, factory=None)"
    )

    @tool("kit")
    async def echo(text: str) -> str:
        """Answer the text."""
        return text

    assert "default=dataclasses.MISSING" in repr(echo.input)


def test_a_host_subclass_with_no_slots_of_its_own_is_built_as_its_base():
    """`__slots__ = ()` (a subclass adding methods only) left every value unset."""
    kit = define_toolkit("kit", [ping])

    class Plain(ToolRegistry):
        __slots__ = ()

        def names(self) -> list[str]:
            return [t.name for t in self]

    class Kit(type(kit)):  # Toolkit
        __slots__ = ()

    assert Plain([kit]).names() == ["ping"]
    assert Plain([kit]).mcp_tools() == create_tool_registry([kit]).mcp_tools()
    assert Kit("kit", [ping]).tools == (ping,)


def test_a_subclass_adding_slots_to_a_value_class_is_refused_where_it_is_written():
    """Its base's `__init__` sets the base's slots: with slots of its own, none was set."""
    with pytest.raises(TypeError, match=r"Labelled: ToolRegistry sets its values itself"):

        class Labelled(ToolRegistry):
            __slots__ = ("label",)


class _Kit(type(define_toolkit("kit", [ping]))):  # Toolkit; at module level, so it pickles
    __slots__ = ()


class _Notes(ToolAnnotations):
    __slots__ = ()


def test_a_host_subclass_with_empty_slots_compares_shows_and_copies_its_base_values():
    """Its `__slots__` is `()`: read as the value slots, every toolkit of it was equal to every
    other, showed as `_Kit()`, and copying or pickling called `__init__` with nothing."""
    kit, other = _Kit("kit", [ping]), _Kit("other", [pong])
    assert kit != other
    assert kit == _Kit("kit", [ping])
    assert hash(kit) == hash(_Kit("kit", [ping]))
    assert repr(kit).startswith("_Kit(name='kit', tools=(Tool(name='ping'")
    for again in (copy.copy(kit), copy.deepcopy(kit), pickle.loads(pickle.dumps(kit))):  # noqa: S301 - our own bytes
        assert type(again) is _Kit
        assert again == kit
    notes = _Notes(read_only=True)
    assert notes != _Notes(destructive=True)
    assert repr(notes) == (
        "_Notes(read_only=True, destructive=False, idempotent=None, open_world=None, title=None)"
    )
    assert copy.copy(notes) == notes
    assert pickle.loads(pickle.dumps(notes)) == notes  # noqa: S301 - our own bytes


def _rows_declared_and_dropped(prefix: str, count: int) -> list[weakref.ref[type]]:
    """Weak references to `count` new `TypedDict` classes, each declared in a tool then dropped."""
    from typing_extensions import TypedDict  # noqa: PLC0415 - only these tests make classes

    kept: list[weakref.ref[type]] = []
    for number in range(count):
        row = TypedDict(f"{prefix}{number}", {"name": str, "size": int})  # noqa: UP013 - made at run time

        async def write(row: row) -> str:  # type: ignore[valid-type]
            """Write a row."""
            return "ok"

        tool("rows")(write)
        kept.append(weakref.ref(row))
        del row, write
    gc.collect()
    return kept


@pytest.mark.slow
def test_what_is_computed_once_is_kept_for_a_bounded_number_of_values(monkeypatch):
    """A host that declares tools from fresh classes (per session, per reload) and drops them
    does not keep every class alive: each cache of work done once is cleared when full."""
    from adecore_tools._model import memo as _memo  # noqa: PLC0415

    monkeypatch.setattr(_memo, "CACHE_LIMIT", 50)
    alive = sum(ref() is not None for ref in _rows_declared_and_dropped("Row", 120))
    assert alive <= 50  # those still cached; without a bound, all 120
    assert alive > 0  # the cache still works: the newest stay


def test_a_cache_not_yet_full_keeps_every_value(monkeypatch):
    """The bound empties a cache only when it is full: below it, the type of every tool declared
    stays computed (its class kept), so declaring the same types again costs nothing."""
    from adecore_tools._model import memo as _memo  # noqa: PLC0415

    monkeypatch.setattr(_memo, "CACHE_LIMIT", 50)
    kept = _rows_declared_and_dropped("Kept", 10)
    assert sum(ref() is not None for ref in kept) == 10  # emptied on every new value, 1 or 2


def test_a_cache_of_work_done_once_holds_at_most_its_limit(monkeypatch):
    """CACHE_LIMIT is the most entries a cache holds: the next new value empties it first."""
    from adecore_tools._model import memo as _memo  # noqa: PLC0415

    monkeypatch.setattr(_memo, "CACHE_LIMIT", 3)
    cache: dict[object, int] = {}
    for key in range(3):
        assert _memo.once(cache, key, abs, -key) == key
    assert cache == {0: 0, 1: 1, 2: 2}
    assert _memo.once(cache, 3, abs, -3) == 3
    assert cache == {3: 3}


@pytest.mark.slow
def test_the_sources_of_dropped_validators_do_not_pile_up(monkeypatch):
    """Each generated validator's source goes into `linecache` for tracebacks. A host declaring
    tools of more shapes than the cache holds (or reloading them after the cache was emptied)
    compiles shapes again: the entry of a source no validator uses any more must make way for
    the next, else `linecache` grows by some 8 KB per compile for as long as the host runs."""
    import linecache  # noqa: PLC0415

    from adecore_tools._model import memo as _memo  # noqa: PLC0415

    def sources() -> int:
        return sum("adecore_tools validator" in name for name in list(linecache.cache))

    monkeypatch.setattr(_memo, "CACHE_LIMIT", 1)
    gc.collect()
    before = sources()
    for _ in range(40):

        @tool("shapes")
        async def one(a: str) -> None:
            """One field."""

        @tool("shapes")
        async def two(a: str, b: int) -> None:
            """Two fields."""

        del one, two
    gc.collect()
    assert sources() - before <= 4  # the shapes still cached; without their removal, 80


def test_a_parameter_field_is_shared_only_by_tools_that_write_it_alike():
    """A field with no default, or `None`, `True` or `False`, is made once for every tool writing
    the same name, type and docstring entry; one differing in any of these is its own."""
    from typing import Annotated  # noqa: PLC0415

    from typing_extensions import Doc  # noqa: PLC0415

    @tool("shared")
    async def first(x: int, flag: bool = True, y: Annotated[int, Doc("a y")] | None = None) -> None:
        """First.

        Args:
            x: the number.
        """

    @tool("shared")
    async def second(
        x: int, flag: bool = True, y: Annotated[int, Doc("a y")] | None = None
    ) -> None:
        """Second.

        Args:
            x: the number.
        """

    @tool("shared")
    async def third(
        x: int, flag: bool = False, y: Annotated[int, Doc("a y")] | None = None
    ) -> None:
        """Third.

        Args:
            x: another number.
            y: a y, documented twice.
        """

    one, two, three = (t.input.fields for t in (first, second, third))
    assert all(a is b for a, b in zip(one, two, strict=True))
    assert one[0].description == "the number."
    assert three[0].description == "another number."
    assert three[1].default is False
    assert one[1].default is True
    assert three[2].description == "a y"  # the annotation's own `Doc` comes first
    assert three[2] == one[2]


def test_a_field_found_by_its_hint_is_one_written_alike_and_its_validator_part_is_its_own():
    """A hint met again gives its field by the hint object itself, with its own default and
    docstring entry; each field's part of the validator is that of an equal field in the same
    place. Equal hints in another order, a default equal to `True`, a positional-only parameter
    and fields in other places each get their own."""
    from typing import Annotated, Union  # noqa: PLC0415

    from annotated_types import Ge  # noqa: PLC0415

    number_first = Union[int, str]  # noqa: UP007 - typing caches it: one object, met again
    text_first = Union[str, int]  # noqa: UP007
    assert number_first == text_first
    count = Annotated[int, Ge(0)]

    async def one(a: number_first = None, b: count = 1, flag: bool = True) -> None:
        """One."""

    async def two(b: count, a: text_first = None, flag: bool = True) -> None:
        """Two."""

    async def three(flag: bool = 1) -> None:  # type: ignore[assignment] # an int, equal to True
        """Three."""

    async def four(b: count, /) -> None:
        """Four."""

    async def five(x: int, y: str) -> None:
        """Five."""

    async def six(y: str, x: int) -> None:
        """Six: the same fields, in other places."""

    for _ in range(2):  # the second time, every hint is met again
        first, second = tool("shared")(one), tool("shared")(two)
        assert tool_input_schema(first)["properties"]["a"] == {"type": "integer"}
        assert tool_input_schema(second)["properties"]["a"] == {"type": "string"}
        assert parse_tool_input(first, {"a": "7"}) == {"a": "7", "b": 1, "flag": True}
        assert parse_tool_input(second, {"b": 2, "a": 7}) == {"b": 2, "a": 7, "flag": True}
        with pytest.raises(ToolRefusal, match="b: expected at least 0, got -1"):
            parse_tool_input(second, {"b": -1, "a": "x"})
        with pytest.raises(ToolRefusal, match="b: missing"):
            parse_tool_input(second, {"a": "x"})
        with pytest.raises(ValueError, match="the default 1 is refused"):
            tool("shared")(three)
        with pytest.raises(TypeError, match="positional-only"):
            tool("shared")(four)
        fifth, sixth = tool("shared")(five), tool("shared")(six)
        assert parse_tool_input(fifth, {"x": 1, "y": "a"}) == {"x": 1, "y": "a"}
        assert parse_tool_input(sixth, {"x": 1, "y": "a"}) == {"y": "a", "x": 1}
        with pytest.raises(ToolRefusal, match=r"^y: expected a string, got 1; x: expected an"):
            parse_tool_input(sixth, {"x": "a", "y": 1})


def test_a_mutable_default_is_copied_once_when_its_field_is_made():
    default = ["a"]
    field = Field("tags", Scalar(str), False, default)
    default.append("changed later")
    assert field.declared == ["a"]
    assert field.declared is field.declared  # one copy, kept: each call copies it again
    assert Field("n", Scalar(int), False, 5).declared == 5  # an immutable one is itself


def test_a_slot_computed_when_first_needed_keeps_the_first_value():
    field = Field("n", Scalar(int), True)
    first = hash(field)
    assert field._fill("_hash", first + 1) == first  # a second value never replaces it
    assert hash(field) == first
