"""Declaration errors name what is wrong and what to do, and a few tool details.

A mutation run of `_introspect`, `_tool`, `_codegen` and `_fields` found each of these promises
unpinned: breaking it let the rest of the suite pass.
"""

import dataclasses
import enum
import io
import pickle
import sys
from collections.abc import Iterator
from typing import Annotated, Any, Union

import annotated_types as at
import pytest
import typing_extensions as te

from adecore_tools import (
    ToolCall,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    required_field,
    tool,
    transform,
)


def declare(annotation: object) -> Any:
    """A tool with one field `fld` of this annotation."""

    async def odd_tool(*, fld: annotation) -> None:  # type: ignore[valid-type]
        """Takes one field."""

    return tool("odd")(odd_tool)


@tool("note")
async def swapped_out(text: str) -> str:
    """Echo the text."""
    return text


# --- declaring: messages that say what is wrong and what to do --------------------------------


def test_a_bad_tool_name_is_called_a_tool_name():
    """A bad tool name is a ValueError that says it is the tool's name."""

    async def plain() -> None:
        """A tool."""

    with pytest.raises(ValueError, match="Bad Name") as info:
        tool("kit", name="Bad Name")(plain)
    assert str(info.value) == (
        "tool name 'Bad Name' is not lower snake case of at most 64 characters "
        "(like 'note_write'); rename it"
    )


def test_a_toolkit_of_something_that_is_no_tool_names_the_toolkit_and_the_fix():
    """A toolkit given a plain function raises TypeError naming the toolkit and the fix."""

    async def note_read() -> None:
        """Read."""

    with pytest.raises(TypeError, match="is not a tool") as info:
        define_toolkit("note", [note_read])
    assert str(info.value) == (
        f"toolkit 'note': {note_read!r} is not a tool; decorate it with @tool('note')"
    )


@pytest.mark.parametrize(
    ("given", "got"),
    [(swapped_out, "a Tool"), ("swapped_out", "'swapped_out'"), (b"ab", "b'ab'"), (None, "None")],
    ids=["tool", "str", "bytes", "none"],
)
def test_a_toolkit_of_one_tool_not_in_a_list_says_to_list_it(given, got):
    """Not `'Tool' object is not iterable`, nor a string's letters called tools one by one."""
    with pytest.raises(TypeError) as info:
        define_toolkit("note", given)
    assert str(info.value) == (
        f"toolkit 'note': tools come in a list, got {got}; "
        "write define_toolkit('note', [a_tool, another_tool])"
    )


@pytest.mark.parametrize(
    ("given", "got"),
    [(define_toolkit("note", [swapped_out]), "a Toolkit"), ("note", "'note'"), (None, "None")],
)
def test_a_registry_of_one_toolkit_not_in_a_list_says_to_list_it(given, got):
    with pytest.raises(TypeError) as info:
        create_tool_registry(given)
    assert str(info.value) == (
        f"toolkits come in a list, got {got}; "
        "write create_tool_registry([a_toolkit, another_toolkit])"
    )


class _OldStyleSequence:
    """Iterable by `__getitem__` alone, as `tuple()` and `for` accept."""

    def __getitem__(self, index: int) -> Any:
        if index:
            raise IndexError(index)
        return swapped_out


def test_any_iterable_of_tools_is_a_list_of_them():
    for items in (
        iter([swapped_out]),
        {"a": swapped_out}.values(),
        {swapped_out},
        _OldStyleSequence(),
    ):
        assert define_toolkit("note", items).tools == (swapped_out,)


class HostCall(ToolCall):
    """What the tools below may touch."""


async def plain_tool(text: str) -> None:
    """Takes a text."""


def sync(text: str) -> Iterator[str]:
    """Takes a text."""
    yield text


async def star_args(*texts: str) -> None:
    """Takes texts."""


async def star_kwargs(**texts: str) -> None:
    """Takes texts."""


async def unannotated(text) -> None:
    """Takes a text."""


async def two_calls(first: HostCall, second: HostCall) -> None:
    """Takes two calls."""


async def positional(text: str, /) -> None:
    """Takes a text."""


async def undescribed(text: str) -> None:
    pass


async def bad_default(count: Annotated[int, at.Ge(0)] = -1) -> None:
    """Takes a count."""


class NoMembers(enum.Enum):
    """An Enum with nothing to choose."""


@dataclasses.dataclass
class WithInitVar:
    """A dataclass one of whose parameters is no field."""

    a: int
    b: dataclasses.InitVar[int]


def _kit_of(*named: tuple[str, str]) -> list[object]:
    return [tool(kit, name=name)(swapped_out.fn) for kit, name in named]


HOST_MISTAKES = {
    "generator": (
        lambda: tool("kit")(sync),
        (
            "tool 'sync': a tool returns one answer, and a generator yields many; return the "
            "answer instead of yielding it"
        ),
    ),
    "*args": (
        lambda: tool("kit")(star_args),
        (
            "field 'texts' of tool 'star_args': *args and **kwargs cannot be described; "
            "name each field"
        ),
    ),
    "**kwargs": (
        lambda: tool("kit")(star_kwargs),
        (
            "field 'texts' of tool 'star_kwargs': *args and **kwargs cannot be described; "
            "name each field"
        ),
    ),
    "no annotation": (
        lambda: tool("kit")(unannotated),
        "field 'text' of tool 'unannotated': has no annotation; annotate it with the type it takes",
    ),
    "second call parameter": (
        lambda: tool("kit")(two_calls),
        (
            "field 'second' of tool 'two_calls': is a second call parameter (the first is "
            "'first'); a tool takes at most one ToolCall"
        ),
    ),
    "positional-only": (
        lambda: tool("kit")(positional),
        "field 'text' of tool 'positional': is positional-only; fields are passed by name",
    ),
    "no description": (
        lambda: tool("kit")(undescribed),
        (
            "tool 'undescribed' has no description; write a docstring saying what it does "
            "(a model reads it to choose the tool) or pass description=..."
        ),
    ),
    "contradictory annotations": (
        lambda: tool("kit", read_only=True, destructive=True)(plain_tool),
        (
            "tool 'plain_tool': a tool cannot be both read_only and destructive (a read-only tool "
            "removes nothing); set one of them only"
        ),
    ),
    "a default the field refuses": (
        lambda: tool("kit")(bad_default),
        (
            "field 'count' of tool 'bad_default': the default -1 is refused by the field's own "
            "type (expected at least 0, got -1); change the default or the type"
        ),
    ),
    "an Enum without members": (
        lambda: declare(NoMembers),
        (
            "field 'fld' of tool 'odd_tool': the Enum test_declaration_errors.NoMembers has no "
            "members to choose from; give it at least one member"
        ),
    ),
    "a dataclass with an InitVar": (
        lambda: declare(WithInitVar),
        (
            "field 'fld' of tool 'odd_tool': test_declaration_errors.WithInitVar has an InitVar, "
            "which no input can fill; make it a field, or drop it"
        ),
    ),
    "a tool of another toolkit": (
        lambda: define_toolkit("kit", _kit_of(("other", "a_tool"))),
        (
            "toolkit 'kit': tool 'a_tool' belongs to toolkit 'other'; declare it with @tool('kit') "
            "or put it in its own toolkit"
        ),
    ),
    "two tools of one name in a toolkit": (
        lambda: define_toolkit("kit", _kit_of(("kit", "a_tool"), ("kit", "a_tool"))),
        "toolkit 'kit': two tools are named 'a_tool'; rename one",
    ),
    "two toolkits of one name": (
        lambda: create_tool_registry(
            [define_toolkit("kit", _kit_of(("kit", "a_tool"))), define_toolkit("kit", [])]
        ),
        "two toolkits are named 'kit'; merge them or rename one",
    ),
    "two tools of one name across toolkits": (
        lambda: create_tool_registry(
            [
                define_toolkit("kit", _kit_of(("kit", "a_tool"))),
                define_toolkit("other", _kit_of(("other", "a_tool"))),
            ]
        ),
        (
            "tool 'a_tool' is in toolkit 'kit' and in toolkit 'other'; tool names are unique "
            "across a registry, so rename one"
        ),
    ),
}


@pytest.mark.parametrize("case", HOST_MISTAKES)
def test_each_host_mistake_names_the_tool_and_says_what_to_do(case):
    """Each message names the tool and the field path, and says what to do."""
    declaring, text = HOST_MISTAKES[case]
    with pytest.raises((TypeError, ValueError)) as info:
        declaring()
    assert str(info.value) == text


@pytest.mark.parametrize("message", ["", "   ", None, 5])
def test_required_field_needs_a_message(message):
    """required_field(message) refuses a message a model could not read."""
    with pytest.raises(ValueError, match="required_field needs the message") as info:
        required_field(message)  # type: ignore[arg-type]
    assert str(info.value) == f"required_field needs the message a model reads, got {message!r}"


def test_transform_needs_a_callable():
    """transform(fn) refuses what it could never call, when the hint is written."""
    with pytest.raises(TypeError, match="transform needs a callable") as info:
        transform(5)  # type: ignore[arg-type]
    assert str(info.value) == "transform needs a callable, got 5"


async def is_even(value: int) -> bool:
    return value % 2 == 0


async def upper(value: str) -> str:
    return value.upper()


async def letters(value: str) -> Any:
    yield value


class AsyncCheck:
    async def __call__(self, value: int) -> bool:
        return value > 0


@pytest.mark.parametrize(
    ("annotation", "name"),
    [
        (Annotated[int, at.Predicate(is_even)], "is_even"),
        (Annotated[int, at.Not(is_even)], "is_even"),
        (Annotated[int, at.Predicate(AsyncCheck())], "AsyncCheck"),
        (Annotated[str, transform(upper)], "upper"),
        (Annotated[str, transform(letters)], "letters"),
    ],
    ids=["predicate", "not", "async __call__", "transform", "async generator"],
)
def test_an_async_check_or_transform_is_refused_at_decoration(annotation, name):
    """They run while input is checked, never awaited: a coroutine is truthy, so an
    async predicate let every value through, and an async transform handed the tool a coroutine.
    """
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value).startswith(f"field 'fld' of tool 'odd_tool': {name} is async;")


@dataclasses.dataclass
class CheckedLater:
    size: int

    async def __post_init__(self) -> None:
        if self.size < 0:
            raise ValueError("size is at least 0")


def test_a_dataclass_with_an_async_post_init_is_refused_at_decoration():
    """`__init__` never awaits it, so its checks never ran and every value passed."""
    with pytest.raises(TypeError) as caught:
        declare(CheckedLater)
    assert str(caught.value).startswith(
        f"field 'fld' of tool 'odd_tool': {__name__}.CheckedLater.__post_init__ is async;"
    )


@pytest.mark.parametrize(
    "annotation",
    [Annotated[int, at.Predicate(5)], Annotated[int, at.Not(5)], Annotated[int, at.Not(at.Not(5))]],  # type: ignore[arg-type]
    ids=["predicate", "not", "not not"],
)
def test_a_predicate_of_no_callable_is_refused_at_decoration(annotation):
    """`Not(5)` raised "'int' object is not callable" only when a model sent a value."""
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value) == "field 'fld' of tool 'odd_tool': Predicate needs a callable, got 5"


@pytest.mark.parametrize(
    ("annotation", "text"),
    [
        (Annotated[int, at.MinLen(1)], "MinLen bounds a length; it cannot apply to int"),
        (Annotated[bool, at.MaxLen(3)], "MaxLen bounds a length; it cannot apply to bool"),
        (Annotated[str, at.MinLen(-1)], "MinLen needs a length from 0 to sys.maxsize, got -1"),
        (
            Annotated[list[int], at.MaxLen(2.5)],
            "MaxLen needs a length from 0 to sys.maxsize, got 2.5",
        ),
        (
            Annotated[str, at.MaxLen(10**5000)],  # Python cannot even print it
            "MaxLen needs a length from 0 to sys.maxsize, got a very large integer",
        ),
        (
            Annotated[dict[str, int], at.MinLen(sys.maxsize + 1)],
            "MinLen needs a length from 0 to sys.maxsize, got a very large integer",
        ),
    ],
    ids=[
        "length of an int",
        "length of a bool",
        "negative length",
        "float length",
        "length past printing",
        "length past any object",
    ],
)
def test_a_length_bound_that_cannot_hold_is_named_with_its_fix(annotation, text):
    """A length bound on a non-sized type or of no valid length names the field."""
    with pytest.raises((TypeError, ValueError)) as caught:
        declare(annotation)
    assert str(caught.value) == f"field 'fld' of tool 'odd_tool': {text}"


def test_a_length_bound_up_to_sys_maxsize_is_taken():
    """The refusal above starts past the longest length Python holds, sys.maxsize,
    which a host may write for "no practical limit"; that bound itself is declared and holds."""
    held = declare(Annotated[str, at.MaxLen(sys.maxsize)])
    assert parse_tool_input(held, {"fld": "text"}) == {"fld": "text"}


@pytest.mark.parametrize(
    ("annotation", "path"), [(list[None], "fld[]"), (dict[str, None], "fld{}")]
)
def test_none_inside_a_container_is_named_as_none(annotation, path):
    """`list[None]` keeps a bare None (typing converts none inside a builtin generic).
    Before Python 3.11 typing has no LiteralString, and its stand-in was None: the LiteralString
    test matched that None and told the host about LiteralString."""
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value) == (
        f"field {path!r} of tool 'odd_tool': None alone is no input; use X | None for an optional X"
    )


MaybeSize = te.TypeAliasType("MaybeSize", te.NotRequired[int])


class KeyThroughAlias(te.TypedDict):
    size: MaybeSize


@pytest.mark.parametrize(
    ("annotation", "text"),
    [
        (
            Annotated[int, at.Gt(10**5000), at.Lt(5)],
            "no value meets both Gt(a very large integer) and Lt(lt=5); loosen one of them",
        ),
        (
            Annotated[float, at.MultipleOf(-(10**5000))],
            "MultipleOf needs a positive finite step, got a very large negative integer",
        ),
        (
            te.Literal[10**5000, "a"],
            (
                "the Literal mixes JSON types or holds a non-JSON value ('a', a very large "
                "integer); a choice is all strings, all numbers or all booleans"
            ),
        ),
    ],
    ids=["bounds", "step", "choice"],
)
def test_a_bound_past_printing_is_named_in_its_error(annotation, text):
    """Python writes no integer past 4,300 digits: its `repr` raised a bare `ValueError`."""
    with pytest.raises((TypeError, ValueError), match="very large") as caught:
        declare(annotation)
    assert str(caught.value) == f"field 'fld' of tool 'odd_tool': {text}"


@pytest.mark.parametrize(
    ("annotation", "path", "shown"),
    [
        (te.NotRequired[int], "fld", "NotRequired[int]"),
        (te.Required[str], "fld", "Required[str]"),
        (te.ReadOnly[int], "fld", "ReadOnly[int]"),
        (list[te.NotRequired[int]], "fld[]", "NotRequired[int]"),
        (KeyThroughAlias, "fld.size", "NotRequired[int]"),
    ],
)
def test_a_key_wrapper_outside_a_typeddict_says_where_it_belongs(annotation, path, shown):
    """Required/NotRequired/ReadOnly outside a TypedDict key is named as such.

    Through an alias it is on a key, yet not read there (typing does not either): the message
    says to write it on the key itself.
    """
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value) == (
        f"field {path!r} of tool 'odd_tool': {shown} only means something on a TypedDict key; "
        "write it on the key itself, not inside another type or an alias"
    )


@pytest.mark.parametrize(
    "annotation",
    [te.Required[te.Optional[int]], te.Required[Union[int, str]]],  # noqa: UP007, UP045
    ids=["Optional", "Union"],
)
def test_a_declaration_message_writes_a_type_as_the_running_python_does(annotation):
    """docs/decisions.md: Python 3.14 writes every union with `|`, not knowing which spelling a host
    used, so this message reads `Required[int | None]` there and `Required[Optional[int]]` before.
    The message is Python's own text, without the `typing.` prefix, on every version. (Which
    spelling an annotation shows also depends on typing's cache: `Required[Optional[int]]` is
    `Required[int | None]` once another test made that, for the two are equal.)"""
    shown = repr(annotation).replace("typing_extensions.", "").replace("typing.", "")
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value).startswith(
        f"field 'fld' of tool 'odd_tool': {shown} only means something on a TypedDict key"
    )


@dataclasses.dataclass
class FinalAlone:
    """`Final` with no type: the default would have to say it."""

    size: te.Final = 1


@pytest.mark.parametrize(
    ("annotation", "path", "shown"),
    [
        (te.Final[int], "fld", "Final[int]"),
        (list[te.Final[int]], "fld[]", "Final[int]"),
        (FinalAlone, "fld.size", "Final"),
    ],
)
def test_final_outside_a_dataclass_field_says_where_it_belongs(annotation, path, shown):
    """Not "type Final[int] has no one JSON type", which it has."""
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value) == (
        f"field {path!r} of tool 'odd_tool': {shown} is read only as a dataclass field's "
        "annotation with its type, Final[X]; write the type alone here"
    )


class BothOuter(te.TypedDict):
    key: te.Required[te.NotRequired[int]]


class BothInner(te.TypedDict):
    key: te.NotRequired[Annotated[te.Required[int], at.Ge(0)]]


@pytest.mark.parametrize(
    ("annotation", "shown"),
    [
        (BothOuter, "Required[NotRequired[int]]"),
        (BothInner, "NotRequired[Annotated[Required[int], Ge(ge=0)]]"),
    ],
    ids=["nested", "through Annotated"],
)
def test_a_key_both_required_and_not_is_refused(annotation, shown):
    """The key was optional, while Python's own `__required_keys__` holds it (both forms)."""
    assert annotation.__required_keys__ == frozenset({"key"})
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value) == (
        f"field 'fld.key' of tool 'odd_tool': {shown} says both Required and NotRequired; keep "
        "the one you mean"
    )


@pytest.mark.parametrize(
    ("option", "value", "either"),
    [
        ("read_only", 1, "True or False"),
        ("destructive", "yes", "True or False"),
        ("idempotent", 0, "True, False or None"),
        ("open_world", "no", "True, False or None"),
    ],
)
def test_an_annotation_that_is_no_boolean_says_what_it_takes(option, value, either):
    """A tool annotation of the wrong type is a ValueError saying which values it takes."""

    async def plain() -> None:
        """A tool."""

    with pytest.raises(ValueError, match=option) as info:
        tool("kit", **{option: value})(plain)
    assert str(info.value) == f"tool 'plain': {option} is {either}, got {value!r}"


T = te.TypeVar("T")
Ts = te.TypeVarTuple("Ts")
Row = te.TypeAliasType("Row", list[T], type_params=(T,))
Cells = te.TypeAliasType("Cells", tuple[te.Unpack[Ts]], type_params=(Ts,))


@pytest.mark.parametrize(
    ("annotation", "text"),
    [
        (
            Row[int, str],  # type: ignore[misc]
            (
                "Row is given 2 type arguments and takes at most 1; give one for each of its "
                "type parameters"
            ),
        ),
        (
            Cells[int, str],
            (
                "Cells takes a ParamSpec or TypeVarTuple, which stands for no one JSON type; give "
                "the alias plain type parameters, or write the type out"
            ),
        ),
    ],
    ids=["too many arguments", "TypeVarTuple"],
)
def test_a_generic_alias_given_arguments_it_cannot_take_names_the_field(annotation, text):
    """Not the bare `zip() argument 2 is longer than argument 1` of a ValueError."""
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value) == f"field 'fld' of tool 'odd_tool': {text}"


@pytest.mark.parametrize(
    ("annotation", "shown", "advice"),
    [
        (te.Any, "Any", "say what a model should send, such as str or a TypedDict"),
        (te.ParamSpec("P"), "P", "type variables cannot be listed; use the concrete type"),
        (Ts, "Ts", "type variables cannot be listed; use the concrete type"),
    ],
    ids=["typing_extensions Any", "ParamSpec", "TypeVarTuple"],
)
def test_any_and_each_kind_of_type_variable_get_their_own_advice(annotation, shown, advice):
    """On every Python: 3.10's `typing_extensions.Any` is a class of its own, and 3.11+'s
    `TypeVarTuple` no `TypeVar`, so each got the list of supported types, and a call-object hint.
    """
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value).startswith("field 'fld' of tool 'odd_tool': type ")
    assert str(caught.value).endswith(f"{shown} has no one JSON type; {advice}")  # `~Ts` on 3.10


@pytest.mark.parametrize(
    ("annotation", "path"), [(te.LiteralString, "fld"), (list[te.LiteralString], "fld[]")]
)
def test_a_literal_string_says_no_input_is_one(annotation, path):
    """Not "type LiteralString has no one JSON type": it is text, just never a model's."""
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value) == (
        f"field {path!r} of tool 'odd_tool': LiteralString is text written in the source, which "
        "no input is; take a str (and check it, as with a Literal of the strings you allow)"
    )


def test_a_class_from_a_private_module_is_named_as_a_host_writes_it():
    """An unsupported class is named as written (`BytesIO`, not `_io.BytesIO`)."""
    with pytest.raises(TypeError) as caught:
        declare(io.BytesIO)
    assert str(caught.value).startswith(
        "field 'fld' of tool 'odd_tool': type BytesIO has no one JSON type; use str, int,"
    )


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ("int | 'str'", "TypeError: unsupported operand type(s) for |: 'type' and 'str'"),
        ("int +", "SyntaxError: Forward reference must be an expression -- got 'int +'"),
    ],
    ids=["fails to evaluate", "no valid Python"],
)
def test_an_alias_whose_value_cannot_be_read_names_the_field(value, error):
    """As `type Bad = int | "str"` is, read on first use: not a bare `TypeError`."""
    with pytest.raises(TypeError) as caught:
        declare(te.TypeAliasType("Bad", value))
    assert str(caught.value) == (
        f"field 'fld' of tool 'odd_tool': Bad cannot be read ({error}); write a valid type"
    )


def test_a_union_naming_an_alias_of_an_undefined_class_is_not_read_as_none():
    """An unresolved name in a union's alias branch raises TypeError at assembly."""
    later = te.TypeAliasType("later", "NotDefinedAnywhere")  # noqa: F821 - on purpose

    async def uses_later(x: Union[int, later]) -> None:  # noqa: UP007 - a union holding an alias
        """Uses a name defined nowhere."""

    t = tool("kit")(uses_later)
    with pytest.raises(TypeError, match="NotDefinedAnywhere"):
        define_toolkit("kit", [t])


def test_a_tool_input_shows_its_fields():
    """A tool's input reads as its fields."""
    t = declare(int)
    assert repr(t.input) == f"ToolInput(fields={t.input.fields!r})"  # type: ignore[attr-defined]


# --- a pickled tool read back (Tool pickles by reference) ----------------------------------------


def test_a_pickled_tool_whose_name_now_holds_no_tool_says_so(monkeypatch):
    """A pickled tool reads back only as a tool: a name now holding no tool is a TypeError."""
    data = pickle.dumps(swapped_out)

    async def plain(text: str) -> str:
        return text

    monkeypatch.setattr(sys.modules[__name__], "swapped_out", plain)
    with pytest.raises(TypeError, match="is not a tool") as info:
        pickle.loads(data)  # noqa: S301 - our own bytes
    assert str(info.value) == f"{__name__}.swapped_out is not a tool"


def test_a_str_predicate_on_a_record_names_what_the_record_gives():
    """A record (or TypedDict) hands its check a dict: `str.islower` there is refused by name."""
    with pytest.raises(TypeError) as caught:
        declare(Annotated[dict[str, int], at.Predicate(str.islower)])
    assert str(caught.value) == (
        "field 'fld' of tool 'odd_tool': Predicate(str.islower) takes str, but the field gives "
        "it dict; use a predicate for that type, or put this one on a field of its type"
    )
