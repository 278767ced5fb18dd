"""The field model: what a tool's signature means, once, apart from how it is checked or listed.

`_introspect` builds it from type hints; `_compile` turns it into validators and `_schema` into
JSON Schema. Neither of those re-reads `typing` objects, so the model is the one place where the
meaning of an annotation is decided. Nodes are frozen and slotted: a tool's model never changes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeAlias

from annotated_types import Ge
from typing_extensions import Doc

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
    "required_field",
    "transform",
]

MISSING: Any = dataclasses.MISSING
"""The `default` of a field that has none (it is required, or left out when not sent)."""

JsonType: TypeAlias = Literal["string", "integer", "number", "boolean"]


class ToolCall:
    """Base class of the call object: what one call of a tool may touch, given by the host.

    Subclass it (a plain class or a dataclass) with whatever your tools need, and annotate one
    parameter of a tool with the subclass: that parameter is the call, never an input field.
    """

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class RequiredField:
    """Metadata: a string that may be neither missing nor blank; both refuse with `message`."""

    message: str


@dataclass(frozen=True, slots=True)
class Transform:
    """Metadata: `fn(value)` replaces a value once it passed its type and every bound."""

    fn: Callable[[Any], Any]


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


@dataclass(frozen=True, slots=True)
class Scalar:
    """`str`, `int`, `float` or `bool`."""

    kind: type


@dataclass(frozen=True, slots=True)
class Choice:
    """A `Literal` or an `Enum`: a fixed set of JSON values, all of one JSON type.

    `values` are what a model sends; `outputs` (same order) what the function receives: the same
    values for a `Literal`, the members for an `Enum`.
    """

    values: tuple[str | int | float | bool, ...]
    outputs: tuple[object, ...]
    json_type: JsonType


@dataclass(frozen=True, slots=True)
class Array:
    """`list[X]`, `Sequence[X]`, `tuple[X, ...]`, `set[X]` or `frozenset[X]`; `kind` is built."""

    items: Node
    kind: type


@dataclass(frozen=True, slots=True)
class Record:
    """`dict[str, X]` or `Mapping[str, X]`: any string keys, every value an X."""

    values: Node


@dataclass(frozen=True, slots=True)
class Object:
    """A `TypedDict` (passed on as a new dict) or a dataclass (passed on as an instance)."""

    cls: type
    fields: tuple[Field, ...]
    description: str | None
    is_dataclass: bool


@dataclass(frozen=True, slots=True)
class Union:
    """`A | B`: the first branch that takes the value unchanged, else the first that converts it."""

    branches: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Nullable:
    """`X | None`. Always the outermost node of its type, so `None` is decided first."""

    inner: Node


Check: TypeAlias = Any
"""A bound: an annotated-types `Gt`, `Ge`, `Lt`, `Le`, `MultipleOf`, `MinLen`, `MaxLen`,
`Predicate`, or a `RequiredField`."""


@dataclass(frozen=True, slots=True)
class Constrained:
    """`Annotated[X, ...]`: X, then every check in order, then every transform in order."""

    inner: Node
    checks: tuple[Check, ...] = ()
    transforms: tuple[Callable[[Any], Any], ...] = ()
    description: str | None = None


Node: TypeAlias = "Scalar | Choice | Array | Record | Object | Union | Nullable | Constrained"


@dataclass(frozen=True, slots=True)
class Field:
    """One input field of a tool, or one key of a `TypedDict` or field of a dataclass.

    `default` is `MISSING` when there is none: the field is required, or (a `TypedDict` key, a
    dataclass field with a default factory) left out of what is passed on.
    """

    name: str
    type: Node
    required: bool
    default: Any = MISSING
    description: str | None = None
    missing_message: str | None = None
