"""Names not defined yet, under deferred annotations (PEP 649, PEP 749): Python 3.14 evaluates
an annotation only when it is read, so a module without `from __future__ import annotations` may
name a class defined further down, or one only a type checker imports, unquoted.

Each module is compiled from source without this file's compiler flags, as a user's module is.
"""

import inspect
import sys
import textwrap
import types

import pytest

from adecore_tools import ToolRefusal, define_toolkit, parse_tool_input, tool

pytestmark = pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="annotations are evaluated when read from Python 3.14 (PEP 649); before, an unquoted "
    "name not defined yet fails where Python runs the `def`",
)

_UNDEFINED = (
    "which is not defined; define or import it at module level, in the module that wrote the "
    "annotation, before the toolkit is assembled"
)


def _module(name: str, source: str) -> types.ModuleType:
    """A module made from source, as if imported (its tools read their own names)."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    code = compile(textwrap.dedent(source), name, "exec", dont_inherit=True)
    exec(code, module.__dict__)  # noqa: S102 - our own test source
    return module


def test_a_parameter_naming_a_class_further_down_is_read_when_the_toolkit_is_assembled():
    """docs/tools.md: "A hint naming a class defined further down the module is read again when the
    tool joins a toolkit"; reading the function's annotations raised `NameError` at decoration."""
    module = _module(
        "deferred_later",
        """
        from typing import TypedDict
        from adecore_tools import define_toolkit, tool

        @tool("deferred")
        async def uses_later(item: LaterItem, items: list[LaterItem] | None = None) -> str:
            '''Uses an item.'''

        class LaterItem(TypedDict):
            name: str

        kit = define_toolkit("deferred", [uses_later])
        """,
    )
    item, items = module.uses_later.input.fields
    assert item.type.cls is module.LaterItem
    assert items.type.inner.items.cls is module.LaterItem
    assert parse_tool_input(module.uses_later, {"item": {"name": "a"}}) == {
        "item": {"name": "a"},
        "items": None,
    }


def test_a_tool_without_a_return_annotation_reads_a_class_further_down():
    """No return annotation to tell by: the name not defined yet is a parameter's."""
    module = _module(
        "deferred_no_return",
        """
        from typing import TypedDict
        from adecore_tools import define_toolkit, tool

        @tool("deferred")
        async def uses_later(item: LaterItem):
            '''Uses an item.'''

        class LaterItem(TypedDict):
            name: str

        kit = define_toolkit("deferred", [uses_later])
        """,
    )
    (item,) = module.uses_later.input.fields
    assert item.type.cls is module.LaterItem


@pytest.mark.parametrize(
    "returns",
    ["Decimal", "list[Decimal]", 'int | "str"', "tuple[Decimal, lambda: 0]"],
    ids=["a name only a type checker imports", "inside a type", "no valid type", "unwritable"],
)
def test_a_return_annotation_that_cannot_be_evaluated_is_no_field(returns):
    """A tool's fields are its parameters: evaluating the return annotation with them failed
    the whole tool (`NameError`, or `TypeError` for `int | "str"`) at decoration. One Python
    cannot write back as source (a lambda shows as `<function <lambda> ...>`) is searched for
    the name word by word."""
    module = _module(
        "deferred_returns",
        f"""
        from typing import TYPE_CHECKING
        from adecore_tools import tool

        if TYPE_CHECKING:
            from decimal import Decimal

        @tool("deferred")
        async def total(n: int, label: str = "") -> {returns}:
            '''Adds up.'''
        """,
    )
    assert [f.name for f in module.total.input.fields] == ["n", "label"]


def test_a_parameter_only_a_type_checker_can_read_is_named_when_the_toolkit_is_assembled():
    module = _module(
        "deferred_checker_only",
        """
        from typing import TYPE_CHECKING
        from adecore_tools import tool

        if TYPE_CHECKING:
            from decimal import Decimal

        @tool("deferred")
        async def total(amount: Decimal, parts: list[Decimal], n: int = 0) -> None:
            '''Adds up.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        define_toolkit("deferred", [module.total])
    assert (
        str(caught.value) == f"tool 'total': fields 'amount', 'parts' name 'Decimal', {_UNDEFINED}"
    )


def test_an_annotation_that_cannot_be_evaluated_names_its_field():
    """`int | "str"` fails when evaluated: on Python 3.14, when the tool reads it, not at `def`."""
    module = _module(
        "deferred_unreadable",
        """
        async def pick(n: int, choice: int | "str") -> None:
            '''Picks.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        tool("deferred")(module.pick)
    assert str(caught.value) == (
        "field 'choice' of tool 'pick': an annotation cannot be read (TypeError: unsupported "
        "operand type(s) for |: 'type' and 'str'); write a valid type"
    )


def test_a_tool_of_any_kind_reads_a_class_further_down():
    """A closure's class, a bound method's annotation and a wrapper's, each named before it is
    defined: their annotations too were read outside the check for names not defined yet."""
    module = _module(
        "deferred_kinds",
        """
        import functools
        from typing import TypedDict
        from adecore_tools import tool

        def local_tool():
            @tool("deferred")
            async def local(item: Local) -> None:
                '''Takes a local item.'''

            class Local(TypedDict):
                name: str

            return local, Local

        class Service:
            async def method(self, item: Later) -> None:
                '''Takes an item.'''

        def logged(fn):
            @functools.wraps(fn)
            async def wrapper(*args, **kwargs):
                return await fn(*args, **kwargs)

            return wrapper

        bound = tool("deferred")(Service().method)

        @tool("deferred")
        @logged
        async def wrapped(item: Later) -> None:
            '''Takes an item.'''

        class Later(TypedDict):
            name: str
        """,
    )
    local, local_class = module.local_tool()
    kit = define_toolkit("deferred", [local, module.bound, module.wrapped])
    assert [t.input.fields[0].type.cls for t in kit.tools] == [
        local_class,
        module.Later,
        module.Later,
    ]


def test_a_tool_s_signature_reads_unevaluated_whatever_it_wraps():
    """`inspect.signature(tool, annotation_format=Format.FORWARDREF)` reads a parameter naming a
    class further down, as it does for the function: a bound method's tool gave `inspect` its
    signature evaluated, which raised `NameError` in any format."""
    from annotationlib import Format  # noqa: PLC0415 - new in 3.14

    module = _module(
        "deferred_signature",
        """
        from adecore_tools import tool

        class Shop:
            async def put(self, item: Later) -> None:
                '''Puts.'''

        method = tool("deferred")(Shop().put)

        @tool("deferred")
        async def function(item: Later) -> None:
            '''Puts.'''

        class Later:
            pass
        """,
    )
    later = module.Later
    del module.Later
    for found in (module.method, module.function):
        assert str(inspect.signature(found, annotation_format=Format.FORWARDREF)) == (
            "(item: Later) -> None"
        )
    function = module.function  # read off the function in the format asked, as it is
    assert inspect.signature(function, annotation_format=Format.STRING) == inspect.signature(
        function.fn, annotation_format=Format.STRING
    )
    module.Later = later
    for found in (module.method, module.function):
        assert inspect.signature(found).parameters["item"].annotation is later


@pytest.mark.parametrize(
    ("annotation", "refused", "description"),
    [
        ("Annotated[int, at.Ge(LATER)]", 2, None),
        ("Annotated[int, Doc(str(LATER))]", "3", "3"),
        ("Annotated[int, at.Predicate(LATER.__eq__)]", 4, None),
        ("Literal[LATER]", 5, None),
        ("Annotated[int, at.Predicate(lambda n, low=LATER: n >= low)]", 2, None),
        ('Annotated[int, at.Ge(LATER), Doc(f"at least {LATER}")]', 2, "at least 3"),
    ],
    ids=["bound", "description", "predicate", "literal", "lambda default", "f-string"],
)
def test_metadata_naming_a_value_further_down_is_read_when_the_toolkit_is_assembled(
    annotation, refused, description
):
    """Evaluated as far as defined, `Ge(LATER)` held a `ForwardRef` for its bound, `Doc(LATER)`
    one for its text (dropped: no str), and the predicate failed on it: a name not defined yet in
    metadata is one, as in a type. A lambda's default, which the annotation's text does not show,
    held one too (each input then raised `TypeError`), and an f-string, which has no text, was a
    `TypeError` at decoration."""
    module = _module(
        "deferred_metadata",
        f"""
        from typing import Annotated, Literal
        import annotated_types as at
        from typing_extensions import Doc
        from adecore_tools import tool

        @tool("deferred")
        async def bounded(n: {annotation}) -> None:
            '''Takes a number.'''

        LATER = 3
        """,
    )
    assert module.bounded._calling is None  # read again when its toolkit is assembled
    (bounded,) = define_toolkit("deferred", [module.bounded]).tools
    assert bounded.input.fields[0].description == description
    assert parse_tool_input(bounded, {"n": 3}) == {"n": 3}
    with pytest.raises(ToolRefusal):
        parse_tool_input(bounded, {"n": refused})


def test_metadata_naming_a_value_the_return_annotation_names_too_is_read_again():
    """A name not defined yet that the return annotation looks up is the parameter's too when
    its metadata looks it up: read as far as defined, `Ge(LATER)` held a `ForwardRef` for its
    bound. Only a name no parameter looks up is the return annotation's alone: one parameter
    looking it up is enough (`m` does not)."""
    module = _module(
        "deferred_metadata_and_return",
        """
        from typing import Annotated, Literal
        import annotated_types as at
        from adecore_tools import tool

        @tool("deferred")
        async def bounded(n: Annotated[int, at.Ge(LATER)], m: int = 0) -> Literal[LATER]:
            '''Takes a number.'''

        LATER = 3
        """,
    )
    assert module.bounded._calling is None  # read again when its toolkit is assembled
    (bounded,) = define_toolkit("deferred", [module.bounded]).tools
    assert parse_tool_input(bounded, {"n": 3}) == {"n": 3, "m": 0}
    with pytest.raises(ToolRefusal):
        parse_tool_input(bounded, {"n": 2})


def test_metadata_naming_what_is_never_defined_names_its_field():
    module = _module(
        "deferred_metadata_undefined",
        """
        from typing import Annotated
        import annotated_types as at
        from adecore_tools import tool

        @tool("deferred")
        async def bounded(n: int, m: Annotated[int, at.Ge(NEVER)]) -> None:
            '''Takes a bounded number.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        define_toolkit("deferred", [module.bounded])
    assert str(caught.value) == f"tool 'bounded': field 'm' names 'NEVER', {_UNDEFINED}"


def test_a_parameter_only_mentioning_a_name_the_return_annotation_cannot_find_is_read():
    """Only a name a parameter's annotation looks up counts, not one in its text: its source
    text is read for names, not the value's `repr` (`note`'s holds `<...IsUpper object at ...>`,
    no source, so each of its words would count)."""
    module = _module(
        "deferred_mention",
        """
        from typing import TYPE_CHECKING, Annotated
        import annotated_types as at
        from typing_extensions import Doc
        from adecore_tools import tool

        if TYPE_CHECKING:
            from decimal import Decimal

        class IsUpper:
            def __call__(self, text: str) -> bool:
                return text.isupper()

        @tool("deferred")
        async def total(
            amount: Annotated[str, Doc("A Decimal, as text")],
            code: Annotated[str, at.Predicate(lambda text: text.isupper())],
            note: Annotated[str, Doc("No Decimal"), at.Predicate(IsUpper())],
        ) -> Decimal:
            '''Adds up.'''
        """,
    )
    amount, code, note = module.total.input.fields
    assert amount.description == "A Decimal, as text"
    assert [type(check).__name__ for check in code.type.checks] == ["Predicate"]
    assert note.description == "No Decimal"


_CLASSES = {
    "typing": ("from typing import TypedDict", "", "(TypedDict)"),
    "typing_extensions": ("from typing_extensions import TypedDict", "", "(TypedDict)"),
    "dataclass": ("from dataclasses import dataclass", "@dataclass", ""),
}
"""How each kind of object class is declared: its import, its decorator and its bases."""


def _objects(name: str, kind: str, fields: str, below: str = "") -> types.ModuleType:
    """A module with an object class `Order` of these fields, then a tool `put` taking one, then
    `below`."""
    imports, decorator, bases = _CLASSES[kind]
    body = textwrap.indent(textwrap.dedent(fields), " " * 4)
    source = (
        f"from typing import TYPE_CHECKING\n{imports}\nfrom adecore_tools import tool\n\n"
        "if TYPE_CHECKING:\n    from decimal import Decimal\n\n"
        f"{decorator}\nclass Order{bases}:\n{body}\n\n"
        '@tool("deferred")\nasync def put(order: Order) -> None:\n    """Puts an order."""\n\n'
        f"{textwrap.dedent(below).format(decorator=decorator, bases=bases)}"
    )
    return _module(name, source)


@pytest.mark.parametrize("kind", _CLASSES)
def test_a_key_naming_a_class_further_down_is_read_when_the_toolkit_is_assembled(kind):
    """Finding which keys name the missing class read them evaluated, failing the same way:
    a raw `NameError` at decoration."""
    module = _objects(
        f"deferred_keys_{kind}",
        kind,
        """
        item: Item
        count: int
        """,
        """
        {decorator}
        class Item{bases}:
            name: str
        """,
    )
    assert module.put._calling is None
    (put,) = define_toolkit("deferred", [module.put]).tools
    item, count = put.input.fields[0].type.fields
    assert (item.type.cls, count.name) == (module.Item, "count")


@pytest.mark.parametrize("kind", _CLASSES)
def test_a_key_only_a_type_checker_can_read_is_named_when_the_toolkit_is_assembled(kind):
    module = _objects(
        f"deferred_checker_keys_{kind}",
        kind,
        """
        total: Decimal
        parts: list[Decimal]
        count: int
        """,
    )
    with pytest.raises(TypeError) as caught:
        define_toolkit("deferred", [module.put])
    assert str(caught.value) == (
        f"tool 'put': fields 'order.total', 'order.parts' name 'Decimal', {_UNDEFINED}"
    )


@pytest.mark.parametrize("kind", _CLASSES)
def test_a_key_that_cannot_be_evaluated_names_its_field(kind):
    """Finding the key read them all evaluated, failing the same way: a bare `TypeError`."""
    with pytest.raises(TypeError) as caught:
        _objects(
            f"deferred_unreadable_keys_{kind}",
            kind,
            """
            count: int
            choice: int | "str"
            """,
        )
    assert str(caught.value) == (
        "field 'order.choice' of tool 'put': an annotation cannot be read (TypeError: "
        "unsupported operand type(s) for |: 'type' and 'str'); write a valid type"
    )


@pytest.mark.parametrize("kind", _CLASSES)
def test_classes_naming_each_other_are_refused_as_recursive_when_the_toolkit_is_assembled(kind):
    module = _objects(
        f"deferred_mutual_{kind}",
        kind,
        """
        item: Item
        """,
        """
        {decorator}
        class Item{bases}:
            order: Order | None
        """,
    )
    with pytest.raises(
        TypeError,
        match=r"field 'order\.item\.order' of tool 'put': .*Order "
        r"contains itself; recursive types cannot be listed",
    ):
        define_toolkit("deferred", [module.put])


@pytest.mark.parametrize("kind", ["typing", "typing_extensions"])
def test_an_inherited_key_only_a_type_checker_can_read_is_named(kind):
    """A TypedDict holds its bases' keys as its own, from another module too."""
    _module(
        f"deferred_base_{kind}",
        f"""
        from typing import TYPE_CHECKING
        from {kind} import TypedDict

        if TYPE_CHECKING:
            from decimal import Decimal

        class Base(TypedDict):
            total: Decimal
        """,
    )
    child = _module(
        f"deferred_child_{kind}",
        f"""
        from adecore_tools import tool
        from deferred_base_{kind} import Base

        class Child(Base):
            count: int

        @tool("deferred")
        async def put(order: Child) -> None:
            '''Puts an order.'''
        """,
    )
    with pytest.raises(TypeError) as caught:
        define_toolkit("deferred", [child.put])
    assert str(caught.value) == f"tool 'put': field 'order.total' names 'Decimal', {_UNDEFINED}"


def test_a_docstring_dataclasses_wrote_naming_a_class_further_down_is_no_description():
    """`dataclasses` writes a class's signature as its docstring, with what its annotations
    evaluated to then: `Item` not defined yet, a forward reference, which reads otherwise once
    it is, so the docstring was taken for the class's own description, in every listing."""
    module = _module(
        "deferred_docstring",
        """
        import enum
        from dataclasses import dataclass, field
        from adecore_tools import tool

        class Size(enum.Enum):
            SMALL = "small"

        @dataclass
        class Order:
            item: Item
            items: list[Item] = field(default_factory=list)
            size: Size = Size.SMALL

        @dataclass
        class Described:
            '''Described(item: Item) is what a model sends.'''

            item: Item

        @tool("deferred")
        async def put(order: Order, described: Described) -> None:
            '''Puts an order.'''

        @dataclass
        class Item:
            name: str
        """,
    )
    (put,) = define_toolkit("deferred", [module.put]).tools
    assert module.Order.__doc__.startswith("Order(item: Item, items: list[")
    order, described = put.input.fields
    assert order.type.description is None
    assert described.type.description == "Described(item: Item) is what a model sends."


def test_a_dataclass_s_own_init_may_annotate_what_only_a_type_checker_imports():
    """Only its parameters' names and kinds are read, not their annotations."""
    module = _module(
        "deferred_init",
        """
        from dataclasses import dataclass
        from typing import TYPE_CHECKING
        from adecore_tools import tool

        if TYPE_CHECKING:
            from decimal import Decimal

        @dataclass
        class Order:
            '''An order.'''

            count: int

            def __init__(self, count: Decimal) -> None:
                self.count = int(count)

        @tool("deferred")
        async def put(order: Order) -> None:
            '''Puts an order.'''
        """,
    )
    assert parse_tool_input(module.put, {"order": {"count": 2}}) == {"order": module.Order(2)}


def test_a_class_whose_annotations_raise_is_named_in_the_package_s_error():
    """Finding the key to name evaluated them again, and let the same error out bare."""
    module = _module(
        "deferred_annotate_raises",
        """
        from typing import TypedDict

        class Order(TypedDict):
            total: int

        def _fails(format):
            raise RuntimeError("no annotations today")

        Order.__annotate__ = _fails
        """,
    )
    with pytest.raises(TypeError) as caught:

        @tool("deferred")
        async def put(order: module.Order) -> None:  # type: ignore[name-defined]
            """Puts an order."""

    assert str(caught.value) == (
        "field 'order' of tool 'put': an annotation cannot be read (RuntimeError: no annotations "
        "today); write a valid type"
    )
