"""The field model: what a tool's signature means, once, apart from how it is checked or listed.

`_introspect` builds it from type hints; `_compile` turns it into validators and `_schema` into
JSON Schema. Neither of those re-reads `typing` objects, so the model is the one place where the
meaning of an annotation is decided. Nodes are frozen and slotted: a tool's model never changes.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeAlias

from annotated_types import Ge
from typing_extensions import Doc

from ._frozen import Frozen

__all__ = [
    "DRY_RUN_FIELD",
    "DRY_RUN_PREVIEW",
    "MISSING",
    "REVISION_FIELD",
    "Array",
    "Check",
    "Choice",
    "Constrained",
    "DryRun",
    "Field",
    "Node",
    "Nullable",
    "Object",
    "Record",
    "RequiredField",
    "Revision",
    "Scalar",
    "ToolCall",
    "Transform",
    "Union",
    "bound_types",
    "required_field",
    "shared_default",
    "transform",
]

MISSING: Any = dataclasses.MISSING
"""The `default` of a field that has none (it is required, or left out when not sent)."""


def shared_default(value: object) -> bool:
    """Whether a default is the same object in every function writing it: none, None, a bool.

    A field with such a default is the same in every tool writing it, so it is made once and
    shared; any other default is the function's own object, kept by its own field.
    """
    return value is MISSING or value is None or type(value) is bool


JsonType: TypeAlias = Literal["string", "integer", "number", "boolean"]


class ToolCall:
    """Base class of the call object: what one call of a tool may touch, given by the host.

    Subclass it (a plain class or a dataclass) with whatever your tools need, and annotate one
    parameter of a tool with the subclass: that parameter is the call, never an input field.
    """

    __slots__ = ()


class RequiredField(Frozen):
    """Metadata: a string that may be neither missing nor blank; both refuse with `message`."""

    __slots__ = ("message",)
    message: str

    def __init__(self, message: str) -> None:
        self._set(message)


class Transform(Frozen):
    """Metadata: `fn(value)` replaces a value once it passed its type and every bound."""

    __slots__ = ("fn",)
    fn: Callable[[Any], Any]

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self._set(fn)


def required_field(message: str) -> RequiredField:
    """A string field that may be neither missing nor blank: both refuse with `message` verbatim.

    Use it in `Annotated[str, required_field("note_write needs text")]`. Blank means empty or
    only whitespace; the value itself is passed on unchanged.
    """
    if not isinstance(message, str) or not message.strip():
        msg = f"required_field needs the message a model reads, got {message!r}"
        raise ValueError(msg)
    return RequiredField(message)


def transform(fn: Callable[[Any], Any]) -> Transform:
    """Replace a checked value by `fn(value)`; a `ValueError` from `fn` refuses the input.

    `fn` runs after the value passed its type and every bound, and never sees `None`. Any other
    exception from `fn` is a bug in the host and passes through. The schema shows the type the
    value starts from.
    """
    if not callable(fn):
        msg = f"transform needs a callable, got {fn!r}"
        raise TypeError(msg)
    return Transform(fn)


REVISION_FIELD = "revision"
"""The name of the field that carries the revision a write expects."""

DRY_RUN_FIELD = "dry_run"
"""The name of the field that asks for a dry run."""

DRY_RUN_PREVIEW = (
    "Set to true to check everything and write nothing. A dry run is never needed for safety: "
    "a real call checks the same things before it writes."
)
"""The description of the dry-run field, for a model deciding whether to ask for one."""

DryRun: TypeAlias = Annotated[bool | None, Doc(DRY_RUN_PREVIEW)]
"""An optional boolean asking for a dry run: check everything, write nothing."""

Revision: TypeAlias = Annotated[
    int | None,
    Ge(0),
    Doc(
        "The revision this write expects. The write is refused unless the document is still at "
        "this revision; leave it out to write whatever the revision is."
    ),
]
"""An optional non-negative revision that a write must match, checked in the same step."""


# --- type nodes -------------------------------------------------------------------------------


class Scalar(Frozen):
    """`str`, `int`, `float` or `bool`."""

    __slots__ = ("kind",)
    kind: type

    def __init__(self, kind: type) -> None:
        self._set(kind)


class Choice(Frozen):
    """A `Literal` or an `Enum`: a fixed set of JSON values, all of one JSON type.

    `values` are what a model sends; `outputs` (same order) what the function receives: the same
    values for a `Literal`, the members for an `Enum`.
    """

    __slots__ = ("values", "outputs", "json_type")
    values: tuple[str | int | float | bool, ...]
    outputs: tuple[object, ...]
    json_type: JsonType

    def __init__(
        self,
        values: tuple[str | int | float | bool, ...],
        outputs: tuple[object, ...],
        json_type: JsonType,
    ) -> None:
        self._set(values, outputs, json_type)

    def _key(self) -> tuple[Any, ...]:
        # `1 == 1.0 == True == IntEnum member`: equal choices must also agree on every type
        values, outputs = self.values, self.outputs
        return (values, tuple(map(type, values)), outputs, tuple(map(type, outputs)))


class Array(Frozen):
    """`list[X]`, `Sequence[X]`, `tuple[X, ...]`, `set[X]` or `frozenset[X]`; `kind` is built."""

    __slots__ = ("items", "kind")
    items: Node
    kind: type

    def __init__(self, items: Node, kind: type) -> None:
        self._set(items, kind)


class Record(Frozen):
    """`dict[str, X]` or `Mapping[str, X]`: any string keys, every value an X."""

    __slots__ = ("values",)
    values: Node

    def __init__(self, values: Node) -> None:
        self._set(values)


class Object(Frozen):
    """A `TypedDict` (passed on as a new dict) or a dataclass (passed on as an instance)."""

    __slots__ = ("cls", "fields", "description", "is_dataclass")
    cls: type
    fields: tuple[Field, ...]
    description: str | None
    is_dataclass: bool

    def __init__(
        self,
        cls: type,
        fields: tuple[Field, ...],
        description: str | None,
        is_dataclass: bool,  # noqa: FBT001 - a value class, built by keyword or position alike
    ) -> None:
        self._set(cls, fields, description, is_dataclass)

    def _key(self) -> tuple[Any, ...]:
        return (self.cls,)  # one class reads into one object; its fields may hold any default


class Union(Frozen):
    """`A | B`: the first branch that takes the value unchanged, else the first that converts it."""

    __slots__ = ("branches",)
    branches: tuple[Node, ...]

    def __init__(self, branches: tuple[Node, ...]) -> None:
        self._set(branches)


class Nullable(Frozen):
    """`X | None`. Always the outermost node of its type, so `None` is decided first."""

    __slots__ = ("inner",)
    inner: Node

    def __init__(self, inner: Node) -> None:
        self._set(inner)


Check: TypeAlias = Any
"""A bound: an annotated-types `Gt`, `Ge`, `Lt`, `Le`, `MultipleOf`, `MinLen`, `MaxLen`,
`Predicate`, or a `RequiredField`."""


class Constrained(Frozen):
    """`Annotated[X, ...]`: X, then every check in order, then every transform in order."""

    __slots__ = ("inner", "checks", "transforms", "description")
    inner: Node
    checks: tuple[Check, ...]
    transforms: tuple[Callable[[Any], Any], ...]
    description: str | None

    def __init__(
        self,
        inner: Node,
        checks: tuple[Check, ...] = (),
        transforms: tuple[Callable[[Any], Any], ...] = (),
        description: str | None = None,
    ) -> None:
        self._set(inner, checks, transforms, description)

    def _key(self) -> tuple[Any, ...]:
        # `MultipleOf(2) == MultipleOf(2.0)`, yet an int step is exact and a float one rounds
        return (*self._values(), tuple(map(bound_types, self.checks)))


def bound_types(value: object) -> tuple[type, ...]:
    """Its type, and those of what it holds (`MultipleOf(2)`: `int`), by its class's match args.

    Metadata no bound knows may hold anything: what cannot be read is left out.
    """
    kind = type(value)
    names: object = None
    for base in kind.__mro__:  # class dicts, not `getattr`: a failed lookup is slow
        names = base.__dict__.get("__match_args__")
        if names is not None:
            break
    if type(names) is not tuple or not names:
        return (kind,)
    # a plain loop: a comprehension or a generator costs twice as much, and every bound of every
    # hint comes here for each tool declared
    found: list[type] = [kind]
    try:
        for name in typing.cast("tuple[str, ...]", names):
            held: object = getattr(value, name, None)
            found.append(type(held))
    except Exception:  # noqa: BLE001 - the host's own metadata: what it holds does not matter
        return (kind,)
    return tuple(found)


Node: TypeAlias = "Scalar | Choice | Array | Record | Object | Union | Nullable | Constrained"


class Field(Frozen):
    """One input field of a tool, or one key of a `TypedDict` or field of a dataclass.

    `default` is `MISSING` when there is none: the field is required, or (a `TypedDict` key, a
    dataclass field with a default factory) left out of what is passed on.
    """

    __slots__ = ("name", "type", "required", "default", "description", "missing_message")
    name: str
    type: Node
    required: bool
    default: Any
    description: str | None
    missing_message: str | None

    def __init__(  # noqa: PLR0913, PLR0917 - one argument per fact about the field
        self,
        name: str,
        type: Node,  # noqa: A002 - the node is the field's type
        required: bool,  # noqa: FBT001 - a value class, built by keyword or position alike
        default: Any = MISSING,
        description: str | None = None,
        missing_message: str | None = None,
    ) -> None:
        self._set(name, type, required, default, description, missing_message)

    def _key(self) -> tuple[Any, ...]:
        default: object = self.default
        return (*self._values(), type(default))  # a default of 0 is not one of False

    def __reduce__(self) -> tuple[Callable[..., Field], tuple[Any, ...]]:
        """By value; a `MISSING` default is left out (copied or pickled, it is a new object)."""
        if self.default is not MISSING:
            return super().__reduce__()
        facts = (self.name, self.type, self.required, self.description, self.missing_message)
        return (_without_default, facts)


def _without_default(*values: Any) -> Field:
    """A `Field` from all its values but the default, which stays `MISSING`."""
    name, node, required, description, missing_message = values
    return Field(name, node, required, MISSING, description, missing_message)
