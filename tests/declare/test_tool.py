"""Declaring tools, their field model, and mistakes at decoration."""

import asyncio
import builtins
import dataclasses
import enum
import functools
import importlib.util
import inspect
import pickle
import sys
import textwrap
import typing
import weakref
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Annotated, Any, Generic, Literal, Optional, TypedDict, TypeVar

import pytest
import typing_extensions
from annotated_types import Ge, Gt, Le, MinLen, Predicate
from helpers import Level, run
from typing_extensions import Doc, NotRequired

from adecore_tools import (
    CodedError,
    Tool,
    ToolAnnotations,
    ToolCall,
    Toolkit,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    required_field,
    tool,
    tool_input_schema,
)
from adecore_tools._model import bounds as _bounds
from adecore_tools._model.errors import Where
from adecore_tools._model.nodes import MISSING, Constrained, Field, Nullable, Object, Scalar

T = TypeVar("T")

# --- module-level classes (forward references and recursion need module globals) ----------------


class Call(ToolCall):
    def __init__(self, who: str = "host") -> None:
        self.who = who


class OtherCall(ToolCall):
    pass


@dataclass
class DataCall(ToolCall):
    who: str


class Tree(TypedDict):
    name: str
    children: list["Tree"]


@dataclass
class Chain:
    value: int
    next: "Chain | None" = None


class Pair(TypedDict):
    a: int
    b: int


class Stamped(TypedDict):
    when: datetime


class Mixed(enum.Enum):
    A = "a"
    ONE = 1


@dataclass(frozen=True)
class Box:
    n: Annotated[int, Ge(0)]


@tool("forward", description="Uses a class defined further down the module.")
async def uses_later(item: "LaterItem", call: Call) -> str:
    return f"{call.who}:{item['name']}"


class Early(TypedDict):
    later: "LaterItem"


@tool("forward", description="Uses, nested, a class defined further down the module.")
async def uses_later_nested(early: Early) -> str:
    return early["later"]["name"]


@tool("forward", description="Names a class that is never defined.")
async def uses_missing(item: "NeverDefinedAnywhere") -> None:  # noqa: F821 - the subject
    pass


class LaterItem(TypedDict):
    name: str
    size: NotRequired[int]


# --- helpers --------------------------------------------------------------------------------------


def make(fn, toolkit="kit", **options):
    options.setdefault("description", "A tool.")
    return tool(toolkit, **options)(fn)


def names(t):
    return tuple(f.name for f in t.input.fields)


# --- defaults and explicit options ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("description", "cleaned"),
    [
        ("Add a note.   \nThen save it.  ", "Add a note.\nThen save it."),
        ("  Append a note.\n    It goes last.\n", "Append a note.\nIt goes last."),
    ],
    ids=["trailing spaces on every line", "indented lines"],
)
def test_an_explicit_description_is_cleaned(description, cleaned):
    async def f() -> None: ...

    t = tool("note", description=description)(f)
    assert t.description == cleaned


def test_name_defaults_to_the_function_name():
    async def note_write(text: str) -> None:
        """Write a note."""

    t = tool("note")(note_write)
    assert isinstance(t, Tool)
    assert t.name == "note_write"
    assert t.toolkit == "note"
    assert t.fn is note_write


def test_description_defaults_to_the_cleaned_docstring_without_parameter_sections():
    async def note_write(text: str, count: int = 1) -> None:
        """Write a note to the active document.

        The note is appended at the end.

        Args:
            text: The note's text.
            count: How many copies.

        Returns:
            Nothing.
        """

    t = tool("note")(note_write)
    assert t.description == (
        "Write a note to the active document.\n\nThe note is appended at the end.\n\n"
        "Returns:\n    Nothing."
    )
    assert [f.description for f in t.input.fields] == ["The note's text.", "How many copies."]


class _NoteCall(ToolCall):
    pass


def test_a_docstring_entry_naming_no_parameter_is_a_value_error():
    """A renamed field or a typo: the field would silently lose its description."""

    async def note_write(call: _NoteCall, text: str, *, limit: int = 1) -> None:
        """Write a note.

        Args:
            call: The caller (documented, though no field: that is fine).
            txt: The note's text.
            limit: How many.
        """

    with pytest.raises(ValueError, match="which is no parameter") as caught:
        tool("note")(note_write)
    assert str(caught.value) == (
        "tool 'note_write': its docstring describes 'txt', which is no parameter; "
        "fix the name or remove the entry (the fields: text, limit)"
    )


def test_a_docstring_may_describe_the_call_parameter():
    async def note_read(call: _NoteCall, *, limit: int = 1) -> None:
        """Read notes.

        :param call: Who is asking.
        :param limit: How many.
        """

    assert tool("note")(note_read).input.fields[0].description == "How many."


def test_single_line_docstring():
    async def note_read() -> str:
        """Read the notes."""

    assert tool("note")(note_read).description == "Read the notes."


def test_explicit_name_and_description():
    async def f(text: str) -> None:
        """The docstring.

        Args:
            text: From the docstring.
        """

    t = tool("note", name="note_append", description="Append a note.")(f)
    assert t.name == "note_append"
    assert t.description == "Append a note."
    assert t.input.fields[0].description == "From the docstring."


def test_default_annotations():
    t = make(lambda_free_tool())
    assert t.annotations == ToolAnnotations()
    assert t.annotations.read_only is False
    assert t.annotations.destructive is False
    assert t.annotations.idempotent is None
    assert t.annotations.open_world is None
    assert t.annotations.title is None


def test_explicit_annotations():
    t = make(
        lambda_free_tool(),
        read_only=True,
        idempotent=True,
        open_world=False,
        title="Read the notes",
    )
    assert t.annotations == ToolAnnotations(
        read_only=True, destructive=False, idempotent=True, open_world=False, title="Read the notes"
    )


def test_destructive_annotation():
    t = make(lambda_free_tool(), destructive=True, idempotent=False)
    assert (t.annotations.read_only, t.annotations.destructive) == (False, True)
    assert t.annotations.idempotent is False


def test_read_only_and_destructive_is_a_value_error():
    with pytest.raises(ValueError, match="read_only"):
        make(lambda_free_tool(), read_only=True, destructive=True)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"read_only": "no"}, "read_only"),
        ({"destructive": 1}, "destructive"),
        ({"idempotent": "yes"}, "idempotent"),
        ({"open_world": 0}, "open_world"),
        ({"title": 5}, "title"),
        ({"description": 123}, "description"),
    ],
)
def test_annotations_and_description_of_the_wrong_type_are_value_errors(options, named):
    """They are listed as JSON booleans and strings: `"no"` would be listed, and be truthy."""
    with pytest.raises(ValueError, match=named):
        make(lambda_free_tool(), **options)


@pytest.mark.parametrize(
    "options", [{"read_only": True, "destructive": True}, {"idempotent": "yes"}, {"description": 1}]
)
def test_an_option_mistake_names_the_tool(options):
    with pytest.raises(ValueError, match="tool 'plain'"):
        make(lambda_free_tool(), **options)


def test_a_given_description_is_cleaned_as_a_docstring_is():
    t = make(lambda_free_tool(), description="Reads notes.\r\n\r\n    Second paragraph.  \r\n")
    assert t.description == "Reads notes.\n\nSecond paragraph."


def test_tool_annotations_check_themselves_when_built_directly():
    with pytest.raises(ValueError, match="read_only"):
        ToolAnnotations(read_only=True, destructive=True)
    with pytest.raises(ValueError, match="idempotent"):
        ToolAnnotations(idempotent="yes")  # type: ignore[arg-type]


def lambda_free_tool():
    async def plain(text: str) -> str:
        return text

    return plain


# --- names ----------------------------------------------------------------------------------------

GOOD_NAMES = ["a", "note", "note_write", "a1_b2", "v2", "x" * 64, "a_" + "b" * 62]
BAD_NAMES = [
    "",
    "A",
    "NoteWrite",
    "note-write",
    "note write",
    "_note",
    "note_",
    "note__write",
    "1note",
    "note.write",
    "notè",
    "x" * 65,
    "a_" + "b" * 63,
]


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_good_tool_and_toolkit_names(name):
    t = make(lambda_free_tool(), toolkit=name, name=name)
    assert (t.name, t.toolkit) == (name, name)
    assert define_toolkit(name, [t]).name == name


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_tool_name_is_a_value_error(name):
    with pytest.raises(ValueError, match="snake case"):
        make(lambda_free_tool(), name=name)


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_toolkit_name_is_a_value_error(name):
    with pytest.raises(ValueError, match="snake case"):
        make(lambda_free_tool(), toolkit=name)


def test_a_bad_toolkit_name_in_tool_names_the_tool():
    with pytest.raises(ValueError, match="Notes Kit") as info:
        make(lambda_free_tool(), toolkit="Notes Kit")
    assert str(info.value) == (
        "tool 'plain': toolkit name 'Notes Kit' is not lower snake case of at most 64 characters "
        "(like 'note_write'); rename it"
    )


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_toolkit_name_in_define_toolkit_is_a_value_error(name):
    with pytest.raises(ValueError, match="snake case"):
        define_toolkit(name, [])


class Names(str, enum.Enum):
    """Names kept in one place."""

    NOTE = "note"
    NOTE_WRITE = "note_write"


def test_names_given_as_str_enum_members_are_kept_as_their_text():
    """A member shows as `Names.NOTE` in any text a host writes with it, and in a listing."""
    t = make(lambda_free_tool(), toolkit=Names.NOTE, name=Names.NOTE_WRITE)
    kit = define_toolkit(Names.NOTE, [t])
    assert (type(t.name), type(t.toolkit), type(kit.name)) == (str, str, str)
    assert f"{t.toolkit}/{t.name}" == "note/note_write"
    entry = create_tool_registry([kit]).mcp_tools()[0]
    assert type(entry["name"]) is str


def test_bad_function_name_is_a_value_error():
    async def NoteWrite(text: str) -> None:
        """Write a note."""

    with pytest.raises(ValueError, match="NoteWrite"):
        tool("note")(NoteWrite)


# --- descriptions ---------------------------------------------------------------------------------


def test_missing_description_is_a_value_error():
    async def undocumented(text: str) -> None: ...

    with pytest.raises(ValueError, match="undocumented"):
        tool("note")(undocumented)


def test_docstring_with_only_a_parameter_section_is_a_value_error():
    async def only_args(text: str) -> None:
        """
        Args:
            text: The text.
        """

    with pytest.raises(ValueError, match="only_args"):
        tool("note")(only_args)


@pytest.mark.parametrize("doc", ["", "   ", "\n\t\n"])
def test_blank_docstring_is_a_value_error(doc):
    async def blank(text: str) -> None: ...

    blank.__doc__ = doc
    with pytest.raises(ValueError, match="blank"):
        tool("note")(blank)


@pytest.mark.parametrize("description", ["", "   ", " \n ", "\n\t\n"])
def test_empty_explicit_description_is_a_value_error(description):
    async def blank(text: str) -> None:
        """A docstring that the explicit description replaces."""

    with pytest.raises(ValueError, match="blank"):
        tool("note", description=description)(blank)


# --- TypeErrors for the shape of the function -----------------------------------------------------


def test_a_generator_is_a_type_error():
    def sync_tool(text: str) -> Iterator[str]:
        """Write."""
        yield text

    with pytest.raises(TypeError, match=r"sync_tool.*a generator yields many"):
        tool("kit")(sync_tool)


def test_star_args_is_a_type_error():
    async def t(*texts: str) -> None: ...

    with pytest.raises(TypeError, match=r"(?s)(?=.*'t').*texts"):
        make(t)


def test_star_kwargs_is_a_type_error():
    async def t(text: str, **more: str) -> None: ...

    with pytest.raises(TypeError, match=r"(?s)(?=.*'t').*more"):
        make(t)


def test_missing_annotation_is_a_type_error():
    async def t(text: str, count) -> None: ...

    with pytest.raises(TypeError, match=r"(?s)(?=.*'t').*count"):
        make(t)


def test_second_call_parameter_is_a_type_error():
    async def t(first: Call, text: str, second: OtherCall) -> None: ...

    with pytest.raises(TypeError, match=r"(?s)(?=.*'t').*second"):
        make(t)


def test_positional_only_field_is_a_type_error():
    async def t(text: str, /) -> None: ...

    with pytest.raises(TypeError, match=r"(?s)(?=.*'t').*text"):
        make(t)


@pytest.mark.parametrize(
    ("annotation", "error"), [("list[int", "SyntaxError"), ("int | 3", "TypeError")]
)
def test_a_string_annotation_that_cannot_be_read_names_the_tool_and_field(annotation, error):
    namespace: dict[str, Any] = {}
    exec(f"async def t(text: str, count: {annotation!r}) -> None: ...", namespace)  # noqa: S102

    with pytest.raises(TypeError, match=rf"(?s)(?=.*field 'count' of tool 't').*{error}"):
        make(namespace["t"])


@dataclass
class Unreadable:
    shown: "list[int"  # noqa: F722 - the annotation under test is no valid Python


@dataclass
class InheritsUnreadable(Unreadable):
    kept: int = 0


@dataclass
class UnreadableInBody:
    kept: int
    Length = 3  # what the annotation names, as typing reads a class: in its body
    shown: "Length[int]" = 0


@pytest.mark.parametrize("cls", [Unreadable, InheritsUnreadable, UnreadableInBody])
def test_a_dataclass_field_that_cannot_be_read_is_named_though_inherited_or_read_in_its_body(cls):
    """typing reads a class's bases' annotations too, and each with the names of its class body:
    the failing one is named as a field of the class the tool takes, not left as the parameter
    alone."""

    async def t(item: cls) -> None: ...

    with pytest.raises(TypeError, match=r"^field 'item\.shown' of tool 't': .*Error"):
        make(t)


@pytest.mark.parametrize("qualname", ["t", "Service.t"])
@pytest.mark.parametrize("annotation", ["int", "'list[int'"])
def test_a_wrapper_loop_is_named_with_the_tool_not_blamed_on_an_annotation(annotation, qualname):
    """A function whose `__wrapped__` leads back to it has no signature `inspect` can read,
    whether its annotations read or not: the declaration error names the tool and says so,
    where `inspect`'s bare `ValueError` came out of `@tool`; no annotation is blamed for it,
    nor is a type asked for. Named as a method's, it is not taken for one decorated in its class:
    that check cannot read the signature either, and leaves the error to the one that names it."""
    namespace: dict[str, Any] = {}
    exec(f"async def t(count: {annotation}) -> None: ...", namespace)  # noqa: S102
    namespace["t"].__wrapped__ = namespace["t"]
    namespace["t"].__qualname__ = qualname

    with pytest.raises(TypeError) as info:
        make(namespace["t"])
    assert str(info.value) == (
        "tool 't': its __wrapped__ chain loops, so Python cannot read its signature; let "
        "__wrapped__ lead to the function it wraps"
    )
    assert isinstance(info.value.__cause__, ValueError)


@dataclass
class AlsoUnreadable(Unreadable):
    extra: "dict[str" = None  # noqa: F722 - fails as its base's does, but is read after it


def test_of_two_fields_failing_alike_the_base_s_read_first_is_named():
    """typing reads a base's annotations before the class's own, so the error is the base's
    field's: that field is named, not the class's own that fails the same way."""

    async def t(item: AlsoUnreadable) -> None: ...

    with pytest.raises(TypeError) as info:
        make(t)
    assert str(info.value).startswith("field 'item.shown' of tool 't': an annotation cannot be")
    assert "got 'list[int'" in str(info.value)


def test_an_annotation_failing_only_once_is_refused_naming_the_parameter():
    """Tried alone again to name its field, it no longer fails: nothing is named but the
    parameter, whose type cannot be read."""
    calls = []

    def flaky() -> type:
        calls.append(None)
        if len(calls) == 1:
            raise TypeError("not yet")
        return int

    @dataclass
    class Flaky:
        pick = flaky  # typing reads a class's annotations with its body's names
        value: "pick()"

    async def t(item: Flaky) -> None: ...

    with pytest.raises(TypeError) as info:
        make(t)
    assert str(info.value) == (
        "field 'item' of tool 't': an annotation cannot be read (TypeError: not yet); write a "
        "valid type"
    )
    assert len(calls) == 2


def test_a_field_failing_alone_in_another_way_is_passed_over_for_the_one_that_failed():
    """Only an annotation whose evaluation has effects fails alone otherwise than in the whole
    (typing read the others as they are tried): it is not the one to name."""
    calls = []

    def once() -> type:
        calls.append(None)
        if len(calls) > 1:
            raise RuntimeError("read twice")
        return int

    @dataclass
    class Twice:
        pick = once  # typing reads a class's annotations with its body's names
        first: "pick()"
        bad: 'int | "str"'

    async def t(item: Twice) -> None: ...

    with pytest.raises(TypeError) as info:
        make(t)
    assert str(info.value) == (
        "field 'item.bad' of tool 't': an annotation cannot be read (TypeError: unsupported "
        "operand type(s) for |: 'type' and 'str'); write a valid type"
    )


@dataclass
class Holds:
    call: Call


@pytest.mark.parametrize(
    "annotation",
    [Call | None, Annotated[Call, "meta"], list[Call], Holds, DataCall | int],
    ids=["optional", "annotated", "list", "inside-an-object", "union"],
)
def test_a_call_class_anywhere_but_alone_is_a_type_error(annotation):
    """Never taken for input (a dataclass call class would otherwise become an object field)."""
    namespace = {"A": annotation}
    exec("async def t(call: A, text: str) -> None: ...", namespace)  # noqa: S102 - our own text

    with pytest.raises(TypeError, match=r"(?s)(?=.*'t').*is a ToolCall, never input"):
        make(namespace["t"])


def test_a_generic_call_class_inside_an_annotation_is_named_as_a_call_class():
    class Scoped(ToolCall, Generic[T]):
        pass

    async def t(calls: list[Scoped[int]]) -> None: ...

    with pytest.raises(
        TypeError, match=r"field 'calls\[\]' of tool 't': .* is a ToolCall, never input"
    ):
        make(t)


def test_a_generic_call_class_is_the_call_parameter():
    class Scoped(ToolCall, Generic[T]):
        pass

    async def t(call: Scoped[int], text: str) -> str:
        return text

    registry = create_tool_registry([define_toolkit("kit", [make(t)])])
    assert tuple(names(make(t))) == ("text",)
    assert run(registry.run("t", {"text": "hi"}, Scoped[int]())) == "hi"


@pytest.mark.parametrize("name", [None, "named"])
def test_a_callable_that_is_no_function_is_a_type_error(name):
    async def g(text: str, count: int) -> None: ...

    with pytest.raises(TypeError, match=r"(?s)a tool is a function.*partial") as info:
        make(functools.partial(g, count=1), name=name)
    assert (name is None) or str(info.value).startswith("tool 'named': ")


def test_a_tool_over_a_staticmethod_is_the_function_it_holds():
    """As the type checkers read it: a staticmethod is callable like its function."""

    class Service:
        @tool("kit")
        @staticmethod
        async def ping(n: int) -> int:
            """Pings back."""
            return n * 2

    assert isinstance(Service.ping, Tool)
    assert names(Service.ping) == ("n",)
    registry = create_tool_registry([define_toolkit("kit", [Service.ping])])
    assert run(registry.run("ping", {"n": 2})) == 4
    assert run(Service().ping(3)) == 6


def test_a_method_decorated_in_its_class_says_to_decorate_the_bound_method():
    """A tool is called without an instance: `self` would never be filled."""
    fix = r"field 'self' of tool 'write': .*tool\(\.\.\.\)\(obj\.write\)"
    with pytest.raises(TypeError, match=fix):

        class Service:
            @tool("kit")
            async def write(self, text: str) -> str:
                """Writes."""
                return text


def test_a_method_decorated_in_its_class_is_refused_however_self_is_annotated():
    """Annotated, `self` was read as a field: of a dataclass, the model was to send the instance."""
    fix = r"^field 'self' of tool 'write': is the instance of a method decorated in Service's body"
    with pytest.raises(TypeError, match=fix):

        @dataclass
        class Service:
            notes: list[str]

            @tool("kit")
            async def write(self: "Service", text: str) -> str:
                """Writes."""
                return text

    with pytest.raises(TypeError, match=fix):

        class Service:  # type: ignore[no-redef]
            @tool("kit")
            async def write(self: typing_extensions.Self, text: str) -> str:
                """Writes."""
                return text

    class Labels:  # a static method's first field may be named so: it is no instance
        @tool("kit")
        @staticmethod
        async def label(cls: str) -> str:  # noqa: PLW0211 - the subject
            """Labels."""
            return cls

    assert names(Labels.label) == ("cls",)


def test_a_function_parameter_named_cls_is_told_to_annotate_it():
    """Only a method's first parameter is its instance or class."""

    async def classify(text: str, cls) -> str:  # type: ignore[no-untyped-def]
        """Classifies."""
        return text

    with pytest.raises(TypeError, match=r"field 'cls' of tool 'classify': has no annotation; an"):
        make(classify)


def test_a_classmethod_and_tool_stacked_either_way_say_what_to_do():
    with pytest.raises(TypeError, match=r"field 'cls' of tool 'write': .*bound method"):

        class Above:
            @classmethod
            @tool("kit")
            async def write(cls, text: str) -> str:
                """Writes."""
                return text

    fix = r"^tool 'write': .*classmethod.*tool\(\.\.\.\)\(Owner\.write\)"
    with pytest.raises(TypeError, match=fix):

        class Below:
            @tool("kit")
            @classmethod
            async def write(cls, text: str) -> str:
                """Writes."""
                return text


def test_a_tool_decorated_again_says_it_is_a_tool_already():
    async def ping(n: int) -> int:
        """Pings."""
        return n

    first = make(ping)
    with pytest.raises(TypeError, match=r"^tool 'ping' is a tool already; .*\.fn"):
        tool("other")(first)


def test_a_sync_wrapper_around_an_async_function_says_the_wrapper_is_sync():
    def plain(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper

    async def ping(n: int) -> int:
        """Pings."""
        return n

    with pytest.raises(TypeError, match=r"^tool 'ping': .*wraps.*make the wrapper an `async def`"):
        make(plain(ping))


def test_a_deprecated_tool_says_what_to_do_where_its_wrapper_is_sync():
    """typing-extensions marks its `@deprecated` wrapper a coroutine function from Python 3.12;
    before, the tool was told to make a wrapper it did not write `async`."""

    @typing_extensions.deprecated("Use ping_v2.")
    async def ping(n: int) -> int:
        """Pings."""
        return n

    if sys.version_info >= (3, 12):
        with pytest.warns(DeprecationWarning, match="Use ping_v2"):
            assert asyncio.run(make(ping).fn(n=1)) == 1
        return
    with pytest.raises(TypeError) as caught:
        make(ping)
    assert str(caught.value) == (
        "tool 'ping': @deprecated wraps the async function in a plain one before Python 3.12; "
        "say that the tool is deprecated in its description instead"
    )


@pytest.mark.skipif(sys.version_info < (3, 12), reason="type parameters are Python 3.12+")
def test_a_quoted_type_parameter_of_a_generic_tool_reads_as_on_every_python():
    """Python 3.12's get_type_hints does not see `__type_params__`; 3.13's does."""
    namespace: dict[str, Any] = {"make": make, "ToolCall": ToolCall}
    exec(  # noqa: S102 - our own source text; type parameters need 3.12 to parse
        "from __future__ import annotations\n"
        "class Scoped[V](ToolCall):\n"
        "    def __init__(self, value: V) -> None:\n"
        "        self.value = value\n"
        "async def echo[V](call: Scoped[V], n: int) -> str:\n"
        "    return str(call.value)\n"
        "async def items[V](values: list[V]) -> None: ...\n"
        "t = make(echo)\n",
        namespace,
    )
    registry = create_tool_registry([define_toolkit("kit", [namespace["t"]])])
    assert run(registry.run("echo", {"n": 1}, namespace["Scoped"]("v"))) == "v"
    with pytest.raises(TypeError, match=r"field 'values\[\]' of tool 'items': .*type variables"):
        make(namespace["items"])


def test_a_bound_async_method_is_a_tool():
    class Service:
        async def write(self, text: str) -> str:
            return text.upper()

    t = make(Service().write)
    assert (t.name, tuple(names(t))) == ("write", ("text",))
    registry = create_tool_registry([define_toolkit("kit", [t])])
    assert run(registry.run("write", {"text": "hi"})) == "HI"


def test_definition_errors_are_not_coded_errors():
    async def t(x: Any) -> None: ...

    with pytest.raises(TypeError) as info:
        make(t)
    assert not isinstance(info.value, CodedError)


# --- the call parameter ---------------------------------------------------------------------------


def _call_positions():
    async def first(call: Call, text: str) -> Any:
        return (call, text)

    async def last(text: str, ctx: Call) -> Any:
        return (ctx, text)

    async def middle(text: str, whatever_name: Call, count: int = 1) -> Any:
        return (whatever_name, text)

    async def keyword_only(text: str, *, c: Call) -> Any:
        return (c, text)

    async def positional_only(call: Call, /, text: str) -> Any:
        return (call, text)

    async def as_dataclass(text: str, call: DataCall) -> Any:
        return (call, text)

    return [first, last, middle, keyword_only, positional_only, as_dataclass]


@pytest.mark.parametrize("fn", _call_positions(), ids=lambda f: f.__name__)
def test_call_parameter_in_any_position_is_no_field(fn):
    t = make(fn)
    assert "text" in names(t)
    assert all(not isinstance(f.default, ToolCall) for f in t.input.fields)
    assert set(names(t)) <= {"text", "count"}
    schema = tool_input_schema(t)
    assert set(schema["properties"]) <= {"text", "count"}
    assert schema["required"] == ["text"]


@pytest.mark.parametrize("fn", _call_positions(), ids=lambda f: f.__name__)
def test_call_parameter_in_any_position_receives_the_call(fn):
    t = make(fn)
    registry = create_tool_registry([define_toolkit("kit", [t])])
    call = DataCall("me") if fn.__name__ == "as_dataclass" else Call("me")
    got_call, text = run(registry.run(fn.__name__, {"text": "hi"}, call))
    assert got_call is call
    assert text == "hi"


def test_call_subclass_instance_is_accepted():
    class SubCall(Call):
        pass

    async def t(call: Call, text: str) -> Any:
        return call

    registry = create_tool_registry([define_toolkit("kit", [make(t)])])
    sub = SubCall()
    assert run(registry.run("t", {"text": "x"}, sub)) is sub


# --- 4.3: types no schema can describe ------------------------------------------------------------

UNSUPPORTED = [
    ("any", Any),
    ("object", object),
    ("datetime", datetime),
    ("bytes", bytes),
    ("mixed-literal", Literal["a", 1]),
    ("mixed-enum", Mixed),
    ("bare-list", list),
    ("bare-dict", dict),
    ("bare-sequence", Sequence),
    ("int-keys", dict[int, str]),
    ("recursive-typeddict", Tree),
    ("recursive-dataclass", Chain),
    ("fixed-tuple", tuple[int, str]),
    ("one-tuple", tuple[int]),
    ("set-of-typeddicts", set[Pair]),
    ("none", None),
    ("list-of-any", list[Any]),
    ("optional-bytes", bytes | None),
    ("union-with-datetime", int | datetime),
    ("annotated-object", Annotated[object, Doc("x")]),
]


@pytest.mark.parametrize(("label", "tp"), UNSUPPORTED, ids=[u[0] for u in UNSUPPORTED])
def test_unsupported_type_is_a_type_error_naming_tool_and_field(label, tp):
    async def bad_tool(call: Call, text: str, payload: tp) -> None: ...

    with pytest.raises(TypeError) as info:
        make(bad_tool)
    message = str(info.value)
    assert "bad_tool" in message
    assert "payload" in message


@pytest.mark.parametrize(
    ("tp", "path"),
    [
        (Stamped, "payload.when"),
        (list[Stamped], "payload[].when"),
        (dict[str, Stamped], "payload{}.when"),
        (Tree, "payload.children"),
    ],
)
def test_unsupported_nested_type_names_the_field_path(tp, path):
    async def bad_tool(payload: tp) -> None: ...

    with pytest.raises(TypeError) as info:
        make(bad_tool)
    assert "bad_tool" in str(info.value)
    assert path in str(info.value)


# --- defaults the field itself refuses ------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "default"),
    [
        (int, "ten"),
        (int, True),
        (Annotated[int, Ge(0), Le(10)], -1),
        (Level, 1),
        (Literal["a", "b"], "c"),
        (Annotated[str, required_field("need text")], "x"),
    ],
    ids=[
        "of the wrong type",
        "a bool on an int field",
        "out of bounds",
        "an enum's value, not a member",
        "a literal outside the choices",
        "on a required_field",
    ],
)
def test_a_default_the_field_refuses_is_a_value_error(annotation, default):
    async def bad_default(setting: annotation = default) -> None: ...

    with pytest.raises(ValueError, match=r"(?s)(?=.*bad_default).*setting"):
        make(bad_default)


def test_a_default_too_long_to_write_is_refused_by_name():
    """Python writes no int of more than 4300 digits: the message still names the field."""

    async def bad_default(limit: Annotated[int, Le(10)] = 10**5000) -> None: ...

    with pytest.raises(ValueError, match="very large") as info:
        make(bad_default)
    assert str(info.value) == (
        "field 'limit' of tool 'bad_default': the default a very large integer is refused by the "
        "field's own type (expected at most 10, got a very large integer); change the default or "
        "the type"
    )


def test_default_refused_inside_a_list_is_a_value_error():
    async def bad_default(limits: list[Annotated[int, Ge(0)]] = [1, -1]) -> None:  # noqa: B006
        ...

    with pytest.raises(ValueError, match=r"(?s)(?=.*bad_default).*limits"):
        make(bad_default)


class Counted(TypedDict):
    count: int


OddKey = TypedDict("OddKey", {"a b": int})


@dataclass
class Width:
    width: Annotated[int, Ge(0)]


@dataclass
class Outline:
    width: int


@pytest.mark.parametrize(
    ("annotation", "default", "problem"),
    [
        (Counted, {"count": "x"}, 'count: expected an integer, got "x"'),
        (OddKey, {"a b": "x"}, '["a b"]: expected an integer, got "x"'),
        (list[int], [1, "x"], '[1]: expected an integer, got "x"'),
        (dict[str, int], {"k": "x"}, '["k"]: expected an integer, got "x"'),
        (Counted, {}, "count: missing, expected an integer"),
        (Counted, {"count": 1, "other": 2}, "other: unknown field"),
        (Counted, Width(1), "expected an object, got a value of type Width"),
        (Width, {"width": 1}, "expected an instance of Width, got an object"),
        (Width, Width(-1), "width: expected at least 0, got -1"),
        (Outline, {"width": 1}, "expected an instance of Outline, got an object"),
    ],
)
def test_a_refused_default_says_where_inside_it_as_a_refusal_would(annotation, default, problem):
    """The problem is written with its path as in a refusal; a key that is no name is quoted."""
    namespace = {"A": annotation, "default": default}
    exec("async def bad_default(opts: A = default) -> None: ...", namespace)  # noqa: S102

    with pytest.raises(ValueError, match="own type") as info:
        make(namespace["bad_default"])
    assert str(info.value) == (
        f"field 'opts' of tool 'bad_default': the default {default!r} is refused by the field's "
        f"own type ({problem}); change the default or the type"
    )


@pytest.mark.parametrize(
    ("default", "problem"),
    [
        ({"count": 1, 5: 2}, "expected field names, got 5 as a key"),
        ({"count": 1, "5": 2}, '["5"]: unknown field'),
    ],
)
def test_a_typeddict_default_with_a_key_that_is_no_string_says_so(default, problem):
    """A `TypedDict` default's key that is no string was written as the string it prints as
    (`{5: 2}` read `["5"]: unknown field`), the path of a key `"5"` the default does not hold.
    It is named as a refusal names a key of the input that is no field name."""

    async def bad_default(opts: Counted = default) -> None: ...

    with pytest.raises(ValueError, match="own type") as info:
        make(bad_default)
    assert f"own type ({problem}); change" in str(info.value), str(info.value)


@pytest.mark.parametrize(
    ("default", "written"),
    [
        ("x" * 198, "'" + "x" * 198 + "'"),
        ("x" * 199, '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (199 characters)'),
        ("x" * 1_000_000, '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (1000000 characters)'),
        (list(range(100_000)), "an array"),
    ],
    ids=["200 characters written", "201 characters shown", "long text", "long list"],
)
def test_a_refused_default_is_written_whole_up_to_200_characters(default, written):
    """The error writes a default as Python does while that takes at most 200 characters (the
    repr of 198 x's), so the host can find it in the source; past that it is shown as a refusal
    shows a value (a default of a million characters made a message of a million)."""
    namespace = {"default": default}
    exec("async def bad_default(opts: int = default) -> None: ...", namespace)  # noqa: S102

    with pytest.raises(ValueError, match="own type") as info:
        make(namespace["bad_default"])
    assert str(info.value).startswith(
        f"field 'opts' of tool 'bad_default': the default {written} is refused by the field's "
        "own type (expected an integer, got "
    )
    assert len(str(info.value)) < 400


def test_an_input_read_during_its_own_first_read_is_the_one_kept():
    """Hints left for later are read once, and the first read to finish is set for good: a
    read that finishes after it (another thread's, or here an outer one re-entered while a
    name was looked up) hands out the input already set, so every caller holds the same one."""
    namespace: dict[str, Any] = {}
    exec("async def late(size: 'Hook[int]') -> None:\n    'Take a size.'\n", namespace)  # noqa: S102
    late = tool("hooks")(namespace["late"])
    inner: list[object] = []

    class Hook:
        def __class_getitem__(cls, item: object) -> Any:
            if not inner:
                inner.append(None)
                inner.append(late.input)  # finishes first, inside the outer read
            return item

    namespace["Hook"] = Hook
    outer = late.input
    assert outer is inner[1]
    assert late.input is outer


def test_each_listing_hands_out_new_equal_copies():
    """Each listing hands out plain copies of what was built once, so no caller changes what the
    next one lists."""

    @tool("hooks")
    async def listed_late(size: int) -> None:
        """Take a size."""

    registry = create_tool_registry([define_toolkit("hooks", [listed_late])])
    first, second = registry.mcp_tools(), registry.mcp_tools()
    assert first == second
    assert first[0] is not second[0]
    assert first[0]["inputSchema"] is not second[0]["inputSchema"]


def _positive(value: int) -> bool:
    if value < 0:
        msg = "must be positive"
        raise ValueError(msg)
    return True


def test_a_default_refused_by_a_host_check_inside_a_list_names_the_item():
    async def bad_default(xs: list[Annotated[int, Predicate(_positive)]] = [-1]) -> None:  # noqa: B006
        ...

    with pytest.raises(ValueError, match="own type") as info:
        make(bad_default)
    assert "own type ([0]: must be positive);" in str(info.value)


def test_a_host_check_that_fails_on_the_default_is_named_at_declaration():
    """A predicate's own bug (not a `ValueError`) met on the default names the tool and field."""

    async def bad_default(code: Annotated[int, Predicate(lambda v: v.isdigit())] = 5) -> None: ...

    with pytest.raises(TypeError) as info:
        make(bad_default)
    assert str(info.value) == (
        "field 'code' of tool 'bad_default': checking the default 5 raised AttributeError: "
        "'int' object has no attribute 'isdigit'; fix the check, or change the default"
    )
    assert isinstance(info.value.__cause__, AttributeError)


def _endless(value: object) -> bool:
    return _endless(value)


def test_a_host_check_that_recurses_without_end_on_the_default_is_named_at_declaration():
    """Its `RecursionError` is the check's, not a deep type's: the field and default are named."""

    async def bad_default(code: Annotated[int, Predicate(_endless)] = 5) -> None: ...

    with pytest.raises(TypeError) as info:
        make(bad_default)
    assert str(info.value).startswith(
        "field 'code' of tool 'bad_default': checking the default 5 raised RecursionError: "
    )
    assert str(info.value).endswith("; fix the check, or change the default")
    assert isinstance(info.value.__cause__, RecursionError)


class Uncopyable(list[int]):
    """A list that refuses to be copied, as an object holding a lock or a file would."""

    def __deepcopy__(self, memo: dict[int, object]) -> "Uncopyable":
        msg = "cannot copy this"
        raise TypeError(msg)


def test_a_mutable_default_that_cannot_be_copied_is_refused_at_declaration():
    """Each call gets its own copy of a mutable default: one that cannot be copied fails now."""

    async def bad_default(xs: list[int] = Uncopyable([1])) -> None: ...  # noqa: B008

    with pytest.raises(TypeError) as info:
        make(bad_default)
    assert str(info.value) == (
        "field 'xs' of tool 'bad_default': the default [1] cannot be copied for each call "
        "(TypeError: cannot copy this); use an immutable default (a tuple, a frozenset, None) or "
        "build the value in the function"
    )


def test_a_mapping_proxy_default_is_shared_as_immutable():
    proxy = MappingProxyType({"a": (1, 2)})

    async def labels(m: Mapping[str, tuple[int, ...]] = proxy) -> None: ...

    assert parse_tool_input(make(labels), {})["m"] is proxy


@pytest.mark.skipif(sys.version_info < (3, 15), reason="frozendict is new in Python 3.15")
def test_a_frozendict_default_is_shared_as_immutable():
    """It was refused as no object: Python 3.15's frozendict is only registered as a Mapping."""
    default = builtins.frozendict({"a": (1, 2)})

    async def labels(m: Mapping[str, tuple[int, ...]] = default) -> None: ...

    assert parse_tool_input(make(labels), {})["m"] is default


@pytest.mark.skipif(sys.version_info < (3, 15), reason="frozendict is new in Python 3.15")
def test_a_frozendict_default_holding_a_mutable_value_is_copied_for_each_call():
    """Only a frozendict of immutable values is shared: one holding a list is copied, as a
    mapping proxy's is, or a call changing the list would change the next call's default."""
    default = builtins.frozendict({"a": None, "b": [1]})

    async def labels(m: Mapping[str, list[int] | None] = default) -> None: ...

    found = parse_tool_input(make(labels), {})["m"]
    assert found == default
    assert found is not default
    assert found["b"] is not default["b"]


class Shade(enum.Enum):
    LIGHT = "light"
    DARK = "dark"


def test_an_enum_default_given_by_its_value_is_told_to_use_the_member():
    async def by_value(shade: Shade = "light") -> None: ...  # type: ignore[assignment]

    with pytest.raises(ValueError, match="own type") as info:
        make(by_value)
    assert str(info.value) == (
        "field 'shade' of tool 'by_value': the default 'light' is refused by the field's own "
        'type (expected one of Shade.LIGHT, Shade.DARK, got "light"); change the default or the '
        "type"
    )


def test_a_default_of_a_large_enum_names_twenty_members_then_counts_them():
    many = enum.Enum("Many", {f"V{n}": f"v{n}" for n in range(25)})  # type: ignore[misc]

    async def by_value(m: many = "v0") -> None: ...  # type: ignore[valid-type]

    with pytest.raises(ValueError, match="own type") as info:
        make(by_value)
    named = ", ".join(f"Many.V{n}" for n in range(20))
    assert f'(expected one of {named}, … (25 choices), got "v0")' in str(info.value)


def test_an_async_generator_is_told_to_return_its_answer():
    async def stream():
        yield "a"

    with pytest.raises(TypeError) as info:
        make(stream)
    assert str(info.value) == (
        "tool 'stream': a tool returns one answer, and an async generator yields many; "
        "return the answer instead of yielding it"
    )


def test_tool_without_its_parentheses_is_told_at_the_decorator_line():
    """`@tool` alone would pass the function as the toolkit and hand back the inner decorator."""
    with pytest.raises(TypeError) as info:

        @tool  # type: ignore[arg-type]
        async def forgot() -> None:
            """Forgets its toolkit."""

    assert str(info.value) == (
        "@tool needs a toolkit name; write @tool('toolkit_name') above 'forgot'"
    )


def test_a_float_default_for_an_int_field_is_refused_even_when_whole():
    """Input may send 1.0 for an int (JSON has one number type); a default is Python, exact."""

    async def bad_default(n: int = 1.0) -> None: ...

    with pytest.raises(ValueError, match=r"own type \(expected an integer, got 1\.0\)"):
        make(bad_default)


class Tier(enum.IntEnum):
    LOW = 1


class Word(str):
    __slots__ = ()


@pytest.mark.parametrize(
    ("annotation", "default", "got"),
    [
        (Literal[1, 2], Tier.LOW, "1 of type Tier"),
        (Literal["a"], Word("a"), '"a" of type Word'),
        (Literal[1, 2], 1.0, "1.0"),  # a plain value's picture says its type
        (Literal[1, 2], True, "true"),
    ],
)
def test_a_literal_default_of_another_type_says_its_type(annotation, default, got):
    """A default equal to a choice but of a subclass (an `IntEnum` member for `Literal[1]`) is
    not of the field's type, and the error says which type it is: it read "expected
    one of 1, 2, got 1", which contradicts itself."""
    namespace = {"A": annotation, "default": default}
    exec("async def bad_default(opts: A = default) -> None: ...", namespace)  # noqa: S102

    with pytest.raises(ValueError, match="own type") as info:
        make(namespace["bad_default"])
    assert f", got {got}); change the default" in str(info.value), str(info.value)


@dataclass
class Spot:
    x: int


@pytest.mark.parametrize(
    ("annotation", "default", "text"),
    [
        (Tier | str, 1, "expected Tier.LOW or a string, got 1"),
        (Tier | Literal["x"], "low", 'expected Tier.LOW or "x", got "low"'),
        (tuple[int, ...] | str, [1], "expected a tuple or a string, got an array"),
        (frozenset[int] | str, (1,), "expected a frozenset or a string, got an array"),
        (Spot | list[int], {"x": 1}, "expected an instance of Spot or an array, got an object"),
    ],
)
def test_a_union_default_of_no_branch_names_what_each_branch_takes(annotation, default, text):
    """A union's default is checked as its branches are (a member for an `Enum`, an instance for
    a dataclass, the set for a `set`), but a default no branch took was told what the input
    takes: "expected 1 or a string, got 1" and "expected an array or a string, got an
    array", which contradict themselves. Each branch's own words are named instead."""
    namespace = {"A": annotation, "default": default}
    exec("async def bad_default(opts: A = default) -> None: ...", namespace)  # noqa: S102

    with pytest.raises(ValueError, match="own type") as info:
        make(namespace["bad_default"])
    assert f"({text}); change the default" in str(info.value), str(info.value)


def test_a_literal_default_equal_to_a_choice_is_accepted_as_that_choice():
    big = int("1000")  # equal to the literal's 1000, but another object

    async def good(x: Literal[1000, 2000] = big) -> None: ...

    assert parse_tool_input(make(good), {}) == {"x": 1000}


def test_dataclass_default_violating_its_bounds_is_a_value_error():
    async def bad_default(box: Box = Box(-1)) -> None: ...

    with pytest.raises(ValueError, match=r"(?s)(?=.*bad_default).*box"):
        make(bad_default)


@dataclass
class Options:
    count: Annotated[int, Ge(0)] = -1


@dataclass
class Settings:
    mode: Literal["a", "b"] = "b"


class Holder(TypedDict):
    options: list[Options]


@pytest.mark.parametrize(
    ("annotation", "path"),
    [
        (Options, "options.count"),
        (Options | None, "options.count"),
        (list[Options], "options[].count"),
        (dict[str, Options], "options{}.count"),
        (Holder, "options.options[].count"),
    ],
)
def test_a_default_refused_inside_a_nested_dataclass_is_a_value_error(annotation, path):
    """The rules of a field hold inside nested objects; its default is no exception."""
    namespace = {"A": annotation}
    exec("async def bad_default(options: A) -> None: ...", namespace)  # noqa: S102 - our own text

    with pytest.raises(ValueError, match=r"(?s)(?=.*bad_default).*default -1") as info:
        make(namespace["bad_default"])
    assert f"field {path!r}" in str(info.value)


def test_nested_dataclass_defaults_in_their_own_terms_are_accepted():
    async def good(settings: Settings) -> None: ...

    assert parse_tool_input(make(good), {"settings": {}}) == {"settings": Settings("b")}


@pytest.mark.parametrize(
    ("annotation", "default"),
    [
        ("set[str]", '["a", "a"]'),
        ("frozenset[str]", "{'a'}"),
        ("tuple[int, ...]", "[1]"),
        ("list[int]", "{1}"),
        ("Annotated[set[int], MinLen(2)]", "{1}"),
    ],
)
def test_a_default_of_another_container_kind_is_a_value_error(annotation, default):
    """The function would get a list for its set: a default is of the kind the field builds."""
    namespace = {"Annotated": Annotated, "MinLen": MinLen}
    exec(f"async def bad_default(values: {annotation} = {default}) -> None: ...", namespace)  # noqa: S102

    with pytest.raises(ValueError, match=r"(?s)(?=.*bad_default).*values"):
        make(namespace["bad_default"])


def test_a_sequence_default_may_be_any_sequence():
    async def good(tags: Sequence[str] = ("a",), ids: list[int] = (1, 2)) -> None: ...

    assert parse_tool_input(make(good), {}) == {"tags": ("a",), "ids": (1, 2)}


def test_defaults_in_the_functions_own_terms_are_accepted():
    async def good(
        level: Level = Level.HIGH,
        box: Box = Box(3),
        limit: Annotated[int, Ge(0)] = 0,
        ratio: float = 1,
        mode: Literal["a", "b"] = "b",
    ) -> None: ...

    t = make(good)
    assert [f.default for f in t.input.fields] == [Level.HIGH, Box(3), 0, 1, "b"]
    assert parse_tool_input(t, {}) == {
        "level": Level.HIGH,
        "box": Box(3),
        "limit": 0,
        "ratio": 1,
        "mode": "b",
    }


# --- string annotations ---------------------------------------------------------------------------


def test_string_annotations_resolve():
    async def t(text: "str", limit: "Annotated[int, Ge(0)]" = 1, pair: "Pair | None" = None):
        """Write."""

    tool_ = tool("kit")(t)
    assert names(tool_) == ("text", "limit", "pair")
    assert tool_input_schema(tool_) == {
        "type": "object",
        "properties": {
            "text": {"type": "string"},
            "limit": {"type": "integer"},
            "pair": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
            },
        },
        "required": ["text"],
    }


FUTURE_MODULE = '''
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypedDict

from annotated_types import Ge
from typing_extensions import Doc, NotRequired

from adecore_tools import ToolCall, define_toolkit, tool


class FutureCall(ToolCall):
    pass


class Item(TypedDict):
    """An item."""

    name: str
    size: NotRequired[int]


@dataclass
class Spot:
    row: Annotated[int, Ge(0)]
    label: str | None = None


@tool("future")
async def future_tool(
    call: FutureCall,
    text: Annotated[str, Doc("The text.")],
    items: list[Item],
    spot: Spot | None = None,
    mode: Literal["a", "b"] = "a",
    later: Later | None = None,
) -> Any:
    """A tool in a module with postponed annotations."""
    return {"text": text, "items": items, "spot": spot, "mode": mode, "later": later}


class Later(TypedDict):
    flag: bool


kit = define_toolkit("future", [future_tool])
'''


def test_future_annotations_module(tmp_path, monkeypatch):
    path = tmp_path / "future_tools_mod.py"
    path.write_text(textwrap.dedent(FUTURE_MODULE))
    spec = importlib.util.spec_from_file_location("future_tools_mod", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "future_tools_mod", module)
    spec.loader.exec_module(module)

    t = module.future_tool
    assert names(t) == ("text", "items", "spot", "mode", "later")
    assert tool_input_schema(t) == {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "The text."},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "description": "An item.",
                    "properties": {"name": {"type": "string"}, "size": {"type": "integer"}},
                    "required": ["name"],
                },
            },
            "spot": {
                "type": "object",
                "properties": {"row": {"type": "integer"}, "label": {"type": "string"}},
                "required": ["row"],
            },
            "mode": {"type": "string", "enum": ["a", "b"]},
            "later": {
                "type": "object",
                "properties": {"flag": {"type": "boolean"}},
                "required": ["flag"],
            },
        },
        "required": ["text", "items"],
    }
    registry = create_tool_registry([module.kit])
    out = run(
        registry.run(
            "future_tool",
            {"text": "x", "items": [{"name": "n"}], "spot": {"row": 2}},
            module.FutureCall(),
        )
    )
    assert out == {
        "text": "x",
        "items": [{"name": "n"}],
        "spot": module.Spot(2),
        "mode": "a",
        "later": None,
    }


# --- forward references ---------------------------------------------------------------------------


def test_forward_reference_resolves_when_the_tool_joins_a_toolkit():
    kit = define_toolkit("forward", [uses_later, uses_later_nested])
    (item,) = uses_later.input.fields
    assert item.name == "item"
    assert isinstance(item.type, Object)
    assert item.type.cls is LaterItem
    assert tool_input_schema(uses_later) == {
        "type": "object",
        "properties": {
            "item": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "size": {"type": "integer"}},
                "required": ["name"],
            }
        },
        "required": ["item"],
    }
    registry = create_tool_registry([kit])
    assert run(registry.run("uses_later", {"item": {"name": "n"}}, Call("me"))) == "me:n"
    assert run(registry.run("uses_later_nested", {"early": {"later": {"name": "m"}}})) == "m"


def test_name_never_defined_is_a_type_error_at_define_toolkit():
    with pytest.raises(TypeError) as info:
        define_toolkit("forward", [uses_missing])
    assert "NeverDefinedAnywhere" in str(info.value)
    assert "uses_missing" in str(info.value)


_NEVER_DEFINED = {
    "one field": (
        "async def t(*, good: int, fld: 'NeverDefined') -> None: ...",
        "field 'fld' names 'NeverDefined'",
    ),
    "two fields": (
        "async def t(*, a: 'NeverDefined', b: 'list[NeverDefined]') -> None: ...",
        "fields 'a', 'b' name 'NeverDefined'",
    ),
    "no field names it": (
        "async def t(x: 'Annotated[str, refuse()]') -> None: ...",
        "its annotations name 'raised by hand'",
    ),
}


def _refuse() -> None:
    msg = "raised by hand"
    raise NameError(msg)  # a NameError with no name, as from an annotation's own code


@pytest.mark.parametrize("source", _NEVER_DEFINED.values(), ids=list(_NEVER_DEFINED))
def test_a_name_never_defined_is_named_with_every_field_naming_it(source):
    text, naming = source
    namespace: dict[str, Any] = {"Annotated": Annotated, "refuse": _refuse}
    exec(text, namespace)  # noqa: S102 - our own text
    later = make(namespace["t"])
    with pytest.raises(TypeError, match="which is not defined") as info:
        define_toolkit("kit", [later])
    assert str(info.value) == (
        f"tool 't': {naming}, which is not defined; define or import it at module level, in "
        "the module that wrote the annotation, before the toolkit is assembled"
    )


def test_a_typeddict_key_named_return_naming_a_name_never_defined_is_named():
    """A function's return annotation is no field, but a TypedDict's key may be named "return"
    (in the functional syntax): it names the name, as any other key would."""
    order = TypedDict("order", {"return": "NeverDefined", "n": int})  # type: ignore[misc]  # noqa: F821

    async def t(o: order) -> None: ...  # type: ignore[valid-type]

    later = make(t)
    with pytest.raises(TypeError, match="which is not defined") as info:
        define_toolkit("kit", [later])
    assert str(info.value) == (
        "tool 't': field 'o.return' names 'NeverDefined', which is not defined; define or import "
        "it at module level, in the module that wrote the annotation, before the toolkit is "
        "assembled"
    )


def test_name_never_defined_fails_again_on_every_try():
    for _ in range(2):
        with pytest.raises(TypeError, match="NeverDefinedAnywhere"):
            define_toolkit("forward", [uses_missing])


# --- the Tool object ------------------------------------------------------------------------------


def _sample_tool():
    async def note_write(
        call: Call,
        text: Annotated[str, Doc("The text.")],
        count: int = 2,
        tag: str | None = None,
        *,
        mode: Literal["a", "b"] = "a",
    ) -> Any:
        """Write a note.

        Args:
            count: How many copies.
        """
        return (call, text, count, tag, mode)

    return tool("note")(note_write)


@pytest.mark.parametrize(
    "attribute", ["name", "toolkit", "description", "annotations", "fn", "input"]
)
def test_tool_attributes_cannot_be_set(attribute):
    t = _sample_tool()
    before = getattr(t, attribute)
    with pytest.raises(AttributeError):
        setattr(t, attribute, "changed")
    with pytest.raises(AttributeError):
        delattr(t, attribute)
    assert getattr(t, attribute) is before


def test_tool_refuses_new_attributes():
    t = _sample_tool()
    with pytest.raises(AttributeError):
        t.extra = 1


def test_tool_annotations_are_immutable():
    t = _sample_tool()
    with pytest.raises(AttributeError):
        t.annotations.read_only = True
    assert t.annotations.read_only is False


def test_tool_reads_as_the_function_it_wraps():
    """What `functools.wraps` gives a wrapper, for frameworks that inspect the callable."""
    fn = uses_later.fn
    assert uses_later.__wrapped__ is fn
    for name in functools.WRAPPER_ASSIGNMENTS:
        assert getattr(uses_later, name) is getattr(fn, name), name
    assert inspect.signature(uses_later) == inspect.signature(fn)
    assert typing.get_type_hints(uses_later) == typing.get_type_hints(fn)
    assert inspect.getdoc(uses_later) == inspect.getdoc(fn)
    assert inspect.getmodule(uses_later) is sys.modules[__name__]
    assert weakref.ref(uses_later)() is uses_later


def test_a_tool_is_a_coroutine_function_as_its_function_is():
    """Hosts and frameworks (the MCP SDK's `MCPServer.tool()`, Starlette) ask `inspect` whether
    to await a callable: a tool read as synchronous was called and its coroutine never awaited.
    """

    class Host:
        async def method(self, text: str) -> str:
            """Echo."""
            return text

    tools = (uses_later, _sample_tool(), make(Host().method))
    for t in tools:
        assert inspect.iscoroutinefunction(t)
    for t in tools:  # a method's code has `self`, which a call to its tool does not pass
        assert inspect.signature(t, follow_wrapped=False) == inspect.signature(t.fn)
    assert not inspect.iscoroutinefunction(Tool)


def test_a_sync_wrapper_object_of_a_tool_reads_as_sync():
    """`functools.update_wrapper` copies a tool's `__dict__`: no `__code__` may come with it."""

    class Blocking:
        def __init__(self, fn: Any) -> None:
            functools.update_wrapper(self, fn)

        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            return asyncio.run(self.__wrapped__(*args, **kwargs))  # type: ignore[attr-defined]

    t = _sample_tool()
    blocking = Blocking(t)
    assert not inspect.iscoroutinefunction(blocking)
    call = Call("ann")
    assert blocking(call, "x") == run(t(call, "x"))


def test_what_a_tool_reads_as_cannot_change():
    t = _sample_tool()
    for name in (*functools.WRAPPER_ASSIGNMENTS, "__annotations__", "__wrapped__"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(t, name, None)
        with pytest.raises(AttributeError, match="immutable"):
            delattr(t, name)
    assert t.__name__ == t.fn.__name__


def test_what_a_tool_reads_off_its_function_cannot_be_set_past_its_own_setattr():
    """They are descriptors on the class, each refusing a write itself (as a data descriptor,
    no `__dict__` entry can hide it): `object.__setattr__` skips only `Tool.__setattr__`."""
    t = _sample_tool()
    names = ["__wrapped__", "__code__", "__defaults__", "__kwdefaults__", "__signature__"]
    if sys.version_info >= (3, 14):  # read off the function when asked (see `Tool`)
        names.append("__annotations__")
    for name in names:
        with pytest.raises(AttributeError) as info:
            object.__setattr__(t, name, None)
        assert str(info.value) == f"Tool is immutable; cannot set {name!r}"
    assert t.__code__ is t.fn.__code__


def test_the_tool_class_reads_as_a_class():
    """Only a tool wraps a function: the class has no `__wrapped__`, so its signature reads.

    And its annotations are its own, where (Python 3.14+) a tool reads its function's.
    """
    assert not hasattr(Tool, "__wrapped__")
    for name in ("__code__", "__defaults__", "__kwdefaults__", "__signature__"):
        assert not hasattr(Tool, name)  # a tool's, read off its function
    assert "fn" in typing.get_type_hints(Tool)
    assert list(Tool.__annotations__)[:5] == [
        "name",
        "toolkit",
        "description",
        "annotations",
        "fn",
    ]
    assert uses_later.__annotations__ is uses_later.fn.__annotations__
    assert list(inspect.signature(Tool).parameters)[:5] == [
        "name",
        "toolkit",
        "description",
        "annotations",
        "fn",
    ]


def test_a_tools_input_does_not_pickle_and_says_to_pickle_the_tool():
    """It holds compiled validators; the message was about a local function of the compiler."""
    with pytest.raises(pickle.PicklingError, match=r"pickle the tool instead"):
        pickle.dumps(uses_later.input)
    assert pickle.loads(pickle.dumps(uses_later)).input is uses_later.input  # noqa: S301


def test_a_module_level_tool_pickles_by_reference():
    assert pickle.loads(pickle.dumps(uses_later)) is uses_later  # noqa: S301 - our own bytes
    kit = define_toolkit("forward", [uses_later])
    assert pickle.loads(pickle.dumps(kit)) == kit  # noqa: S301 - our own bytes


def test_a_local_tool_does_not_pickle():
    async def local(text: str) -> None: ...

    with pytest.raises(pickle.PicklingError, match="module-level"):
        pickle.dumps(make(local))


def test_tool_is_callable_like_the_function_without_validation():
    t = _sample_tool()
    call = Call()
    assert run(t(call, text="x")) == (call, "x", 2, None, "a")
    # no validation: a value the field would refuse goes straight to the function
    assert run(t(call, text=5, count="many", mode="zzz")) == (call, 5, "many", None, "zzz")
    assert run(t(call, "positional", 3, "tag")) == (call, "positional", 3, "tag", "a")


def test_tool_input_fields_in_signature_order():
    fields = _sample_tool().input.fields
    assert isinstance(fields, tuple)
    assert [f.name for f in fields] == ["text", "count", "tag", "mode"]
    assert [f.required for f in fields] == [True, False, False, False]
    assert [f.default for f in fields] == [MISSING, 2, None, "a"]
    assert [f.description for f in fields] == ["The text.", "How many copies.", None, None]


def test_a_tool_gives_get_type_hints_what_its_function_gives_for_a_none_default():
    """Docs: as the function does, with the `Optional` 3.10 adds (the tool has its defaults)."""

    async def noted(n: int = None, *, m: str = None) -> None:  # noqa: RUF013 - the subject
        """Notes."""

    hints = typing.get_type_hints(make(noted))
    assert hints == typing.get_type_hints(noted)
    optional = sys.version_info < (3, 11)
    assert hints["n"] == (Optional[int] if optional else int)  # noqa: UP045
    assert hints["m"] == (Optional[str] if optional else str)  # noqa: UP045


def test_missing_is_the_dataclasses_sentinel():
    assert MISSING is dataclasses.MISSING


def test_optional_field_without_default_has_none_default():
    async def t(tag: str | None, level: Optional[int]) -> None: ...  # noqa: UP045

    fields = make(t).input.fields
    assert [(f.required, f.default) for f in fields] == [(False, None), (False, None)]


def test_none_default_on_annotated_gives_the_same_field_on_every_python():
    # On Python 3.10, get_type_hints wraps a `None` default's type in Optional.
    async def implicit(n: Annotated[int, Gt(0)] = None) -> None: ...  # noqa: RUF013

    async def explicit(n: Annotated[int, Gt(0)] | None = None) -> None: ...

    async def spelled(n: Optional[Annotated[int, Gt(0)]] = None) -> None: ...  # noqa: UP045

    positive = _bounds.read_bound(Gt(0), Scalar(int), Where("implicit"))
    expected = Field(
        name="n",
        type=Nullable(Constrained(Scalar(int), (positive,))),
        required=False,
        default=None,
    )
    for fn in (implicit, explicit, spelled):
        t = make(fn)
        assert t.input.fields == (expected,), fn.__name__
        assert tool_input_schema(t) == {"type": "object", "properties": {"n": {"type": "integer"}}}
        assert parse_tool_input(t, {}) == {"n": None}
        assert parse_tool_input(t, {"n": None}) == {"n": None}


def test_none_default_on_a_plain_type_makes_it_nullable():
    async def t(text: str = None) -> None: ...  # noqa: RUF013

    (f,) = make(t).input.fields
    assert f == Field(name="text", type=Nullable(Scalar(str)), required=False, default=None)


# --- define_toolkit -------------------------------------------------------------------------------


def test_define_toolkit_keeps_name_and_tool_order():
    async def b_tool() -> None: ...

    async def a_tool() -> None: ...

    tb, ta = make(b_tool), make(a_tool)
    kit = define_toolkit("kit", [tb, ta])
    assert isinstance(kit, Toolkit)
    assert kit.name == "kit"
    assert tuple(kit.tools) == (tb, ta)


def test_define_toolkit_accepts_any_iterable():
    async def a_tool() -> None: ...

    ta = make(a_tool)
    assert tuple(define_toolkit("kit", iter([ta])).tools) == (ta,)
    assert tuple(define_toolkit("kit", []).tools) == ()


def test_toolkit_is_immutable():
    kit = define_toolkit("kit", [])
    with pytest.raises(AttributeError):
        kit.name = "other"


def test_a_toolkit_built_directly_checks_as_define_toolkit_does():
    async def stray() -> None: ...

    t = make(stray, toolkit="other")
    with pytest.raises(ValueError, match="stray"):
        Toolkit("kit", (t,))
    with pytest.raises(ValueError, match="Not A Name"):
        Toolkit("Not A Name!", ())
    assert Toolkit("other", [t]) == define_toolkit("other", [t])


def test_tool_of_another_toolkit_is_a_value_error():
    async def stray() -> None: ...

    t = make(stray, toolkit="other")
    with pytest.raises(ValueError, match="stray"):
        define_toolkit("kit", [t])


def test_two_tools_sharing_a_name_is_a_value_error():
    async def one() -> None: ...

    async def two() -> None: ...

    with pytest.raises(ValueError, match="same_name"):
        define_toolkit("kit", [make(one, name="same_name"), make(two, name="same_name")])


def test_the_same_tool_twice_is_a_value_error():
    async def one() -> None: ...

    t = make(one)
    with pytest.raises(ValueError, match="one"):
        define_toolkit("kit", [t, t])


@pytest.mark.parametrize("thing", ["note_write", None, 5, lambda_free_tool()])
def test_a_non_tool_is_a_type_error(thing):
    with pytest.raises(TypeError):
        define_toolkit("kit", [thing])


def test_hints_are_read_once_at_decoration():
    """The signature and its hints are introspected once, at decoration.

    Changing the function's annotations or docstring afterwards changes nothing: not the checks
    (`parse_tool_input`, `registry.run`), not the schema, not the description.
    """

    async def note_write(text: str) -> str:
        """Writes a note."""
        return text

    t = tool("note")(note_write)
    note_write.__annotations__["text"] = int
    note_write.__doc__ = "Something else."
    registry = create_tool_registry([define_toolkit("note", [t])])

    assert parse_tool_input(t, {"text": "hi"}) == {"text": "hi"}
    assert asyncio.run(registry.run("note_write", {"text": "hi"})) == "hi"
    assert tool_input_schema(t) == {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    }
    assert t.description == "Writes a note."


@pytest.mark.parametrize(
    "options",
    [("note_write",), ("note_write", "Writes a note."), ("note_write", "Writes.", True)],
)
def test_tool_options_are_keyword_only(options):
    """`@tool(toolkit: str, *, name=None, description=None, ...)`: the options are keywords."""
    with pytest.raises(TypeError):
        tool("note", *options)


@pytest.mark.parametrize(
    "given",
    [None, "note_write", 3],
    ids=["none", "name", "int"],
)
def test_parse_tool_input_and_schema_of_what_is_no_tool_are_type_errors(given):
    """`registry.get` answers `None` for an unknown name; passing that on is the host's slip."""
    with pytest.raises(TypeError, match=r"parse_tool_input\(tool, input\) takes a Tool"):
        parse_tool_input(given, {})
    with pytest.raises(TypeError, match=r"tool_input_schema\(tool\) takes a Tool or its input"):
        tool_input_schema(given)


def test_parse_tool_input_and_schema_of_the_undecorated_function_are_type_errors():
    t = _sample_tool()
    with pytest.raises(TypeError, match=r"got a function; pass the Tool"):
        parse_tool_input(t.fn, {})
    with pytest.raises(TypeError, match=r"got a function; pass the Tool"):
        tool_input_schema(t.fn)
    with pytest.raises(TypeError, match=r"got a Toolkit"):
        tool_input_schema(define_toolkit(t.toolkit, [t]))
