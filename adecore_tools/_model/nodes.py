"""The field model: what a tool's signature means, once, apart from how it is checked or listed.

`_introspect` builds it from type hints; `_compile` turns it into validators and `_schema` into
JSON Schema. Neither of those re-reads `typing` objects, so the model is the one place where the
meaning of an annotation is decided. Nodes are frozen and slotted: a tool's model never changes.
What a reader or renderer asks of a node beyond its own slots (its type under `| None` and
bounds, what a check on it is given, whether it hashes, its descriptions) is asked here, once.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeAlias

from .defaults import copied, immutable
from .errors import is_class
from .frozen import Frozen

if typing.TYPE_CHECKING:
    from .bounds import Rule

__all__ = [
    "MISSING",
    "Anything",
    "Array",
    "Bound",
    "Choice",
    "Constrained",
    "Field",
    "Node",
    "Nullable",
    "Object",
    "Record",
    "Scalar",
    "Union",
    "bare",
    "branches",
    "core",
    "description_within",
    "given",
    "hashable",
    "holds_none",
    "layers",
    "made_by",
    "numeric",
    "own_description",
    "required_message",
    "shared_default",
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


class Bound(Frozen):
    """One bound on a value, read once: its rule (`_bounds`), and the limit the host wrote.

    The 3 of `Gt(3)`, the 5 of `MaxLen(5)`, a predicate's function, `required_field`'s message.
    `written` is the metadata as the host wrote it, for declaration errors only.
    """

    __slots__ = ("rule", "limit", "written")
    rule: Rule
    limit: Any
    written: object

    def __init__(self, rule: Rule, limit: object, written: object) -> None:
        self._set(rule, limit, written)

    def _key(self) -> tuple[Any, ...]:
        # `MultipleOf(2) == MultipleOf(2.0)`, yet an int step is exact and a float one rounds
        limit: object = self.limit
        return (self.rule, limit, type(limit))


class Constrained(Frozen):
    """`Annotated[X, ...]`: X, then every bound in order, then every transform in order."""

    __slots__ = ("inner", "bounds", "transforms", "description")
    inner: Node
    bounds: tuple[Bound, ...]
    transforms: tuple[Callable[[Any], Any], ...]
    description: str | None

    def __init__(
        self,
        inner: Node,
        bounds: tuple[Bound, ...] = (),
        transforms: tuple[Callable[[Any], Any], ...] = (),
        description: str | None = None,
    ) -> None:
        self._set(inner, bounds, transforms, description)

    @property
    def checks(self) -> tuple[object, ...]:
        """The bounds as the host wrote them: annotated-types metadata, `required_field(...)`."""
        return tuple(bound.written for bound in self.bounds)


class Anything(Frozen):
    """`Any` inside a return annotation (`dict[str, Any]`): any JSON value. Never an input's."""

    __slots__ = ()

    def __init__(self) -> None:
        self._set()


Node: TypeAlias = (
    "Scalar | Choice | Array | Record | Object | Union | Nullable | Constrained | Anything"
)


class Field(Frozen):
    """One input field of a tool, or one key of a `TypedDict` or field of a dataclass.

    `default` is `MISSING` when there is none: the field is required, or (a `TypedDict` key, a
    dataclass field with a default factory) left out of what is passed on. `factory` is that
    dataclass field's default factory.
    """

    __slots__ = (
        "name",
        "type",
        "required",
        "default",
        "description",
        "missing_message",
        "factory",
        "_declared",
    )
    name: str
    type: Node
    required: bool
    default: Any
    description: str | None
    missing_message: str | None
    factory: Callable[[], Any] | None

    def __init__(  # noqa: PLR0913, PLR0917 - one argument per fact about the field
        self,
        name: str,
        type: Node,  # noqa: A002 - the node is the field's type
        required: bool,  # noqa: FBT001 - a value class, built by keyword or position alike
        default: Any = MISSING,
        description: str | None = None,
        missing_message: str | None = None,
        factory: Callable[[], Any] | None = None,
    ) -> None:
        self._set(name, type, required, default, description, missing_message, factory)
        if not immutable(default):
            object.__setattr__(self, "_declared", copied(default))

    @property
    def declared(self) -> Any:
        """The default as it was when the field was declared: what each call gets a copy of.

        A mutable default is copied here, once, so changing the function's own object (or a
        dataclass's class default) later reaches no call. An `Uncopied` holds why a copy failed:
        the tool's declaration refuses that default (`_check`).
        """
        return getattr(self, "_declared", self.default)

    def _key(self) -> tuple[Any, ...]:
        default: object = self.default
        return (*self._values(), type(default))  # a default of 0 is not one of False

    def __reduce__(self) -> tuple[Callable[..., Field], tuple[Any, ...]]:
        """By value; a `MISSING` default is left out (copied or pickled, it is a new object)."""
        if self.default is not MISSING:
            return super().__reduce__()
        facts = (self.name, self.type, self.required, self.description, self.missing_message)
        return (_without_default, (*facts, self.factory))


def _without_default(*values: Any) -> Field:
    """A `Field` from all its values but the default, which stays `MISSING`."""
    name, node, required, description, missing_message, factory = values
    return Field(name, node, required, MISSING, description, missing_message, factory)


# --- what the model says of a node, asked here and nowhere else --------------------------------


def bare(node: Node) -> Node:
    """A field's type without its `| None`, which for a field means left out."""
    return node.inner if isinstance(node, Nullable) else node


def core(node: Node) -> Node:
    """The type itself, without `| None` and every layer of bounds and transforms around it."""
    while isinstance(node, (Nullable, Constrained)):
        node = node.inner
    return node


def holds_none(node: Node) -> bool:
    """Whether a type takes `None`: `X | None`, or `Any` in a return type."""
    return isinstance(node, Nullable) or isinstance(core(node), Anything)


def made_by(node: Node) -> Callable[[Any], Any] | None:
    """The transform that makes the value (the last of the nearest layer that has one), or None."""
    while isinstance(node, (Nullable, Constrained)):
        if isinstance(node, Constrained) and node.transforms:
            return node.transforms[-1]
        node = node.inner
    return None


def layers(node: Constrained) -> tuple[Node, tuple[Bound, ...]]:
    """The node under one or more layers of bounds, and all their bounds, innermost first.

    Bounds around an alias's bounds are tested as one layer, so a value breaking both is told
    both; the same bound twice is tested once. A layer with transforms ends it: the bounds
    around it hold on what they made.
    """
    bounds = list(node.bounds)
    inner = node.inner
    while isinstance(inner, Constrained) and not inner.transforms:
        bounds = [*inner.bounds, *(b for b in bounds if b not in inner.bounds)]
        inner = inner.inner
    return inner, tuple(bounds)


def branches(node: Node) -> list[Node]:
    """A union's branches, those of a bounded union among them, without their bounds."""
    while isinstance(node, Constrained):
        node = node.inner
    if not isinstance(node, Union):
        return [node]
    return [leaf for branch in node.branches for leaf in branches(branch)]


def numeric(node: Node) -> bool:
    """An int or a float, or a union of only those (`int | float`), under any bounds."""
    node = core(node)
    if isinstance(node, Union):
        return all(map(numeric, node.branches))
    return isinstance(node, Scalar) and node.kind in (int, float)


def given(node: Node) -> list[type | None]:
    """The classes a check on this node is given; `None` where a transform may change it.

    A transform that is a class (`transform(int)`) gives that class.
    """
    last = made_by(node)
    if last is not None:
        return [last if is_class(last) else None]
    node = core(node)
    if isinstance(node, Union):
        return [kind for branch in node.branches for kind in given(branch)]
    if isinstance(node, (Scalar, Array)):
        return [node.kind]
    if isinstance(node, Choice):
        return [type(output) for output in node.outputs]
    if isinstance(node, Object) and node.is_dataclass:
        return [node.cls]
    return [dict]  # a record, a TypedDict


def hashable(node: Node) -> bool:
    """Whether what a node passes on hashes, so a set may hold it.

    Under a transform that is a class, that class's instances; under any other, the type's.
    """
    if isinstance(node, (Nullable, Constrained)):
        made = node.transforms[-1] if isinstance(node, Constrained) and node.transforms else None
        return made.__hash__ is not None if is_class(made) else hashable(node.inner)
    if isinstance(node, Union):
        return all(map(hashable, node.branches))
    if isinstance(node, Object):
        params = getattr(node.cls, "__dataclass_params__", None)
        return (
            node.is_dataclass
            and getattr(node.cls, "__hash__", None) is not None
            and bool(params and params.frozen)
            and all(hashable(f.type) for f in node.fields)
        )
    if isinstance(node, Array):
        return node.kind in (tuple, frozenset) and hashable(node.items)
    if isinstance(node, Choice):  # an Enum with its own `__eq__` has members that do not hash
        return all(type(output).__hash__ is not None for output in node.outputs)
    return isinstance(node, Scalar)


def own_description(node: Node) -> str | None:
    """The description written on the field's own `Annotated`, under its `| None`."""
    node = bare(node)
    return node.description if isinstance(node, Constrained) else None


def description_within(node: Node) -> str | None:
    """The first description going in (an alias's, a union's first branch's, an object's)."""
    while True:
        if isinstance(node, Constrained) and node.description:
            return node.description
        if isinstance(node, (Nullable, Constrained)):
            node = node.inner
        elif isinstance(node, Union):
            node = node.branches[0]
        else:
            return node.description if isinstance(node, Object) else None


def required_message(node: Node) -> str | None:
    """The message of a `required_field` on this field, or None."""
    node = bare(node)
    while isinstance(node, Constrained):
        for bound in node.bounds:
            if bound.rule.required:
                return typing.cast("str", bound.limit)
        node = node.inner
    return None
