"""Type hints to field model, once, at decoration.

Every mistake in a tool's signature is found here and reported with the tool, the field path and
what to do about it. Hints are resolved with the public `typing_extensions.get_type_hints`; the
`Annotated` metadata this package understands is picked out here and nowhere else.
"""

from __future__ import annotations

import builtins
import collections.abc as cabc
import dataclasses
import enum
import inspect
import itertools
import math
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeGuard

import annotated_types as at
import typing_extensions as te
from typing_extensions import TypeIs

from ._annotations import (
    hints,
    read_from,
    resolved_in,
    unevaluated_signature,
    unreadable,
    written,
    written_as,
)
from ._docstrings import split_docstring
from ._fields import (
    MISSING,
    Array,
    Check,
    Choice,
    Constrained,
    Field,
    JsonType,
    Node,
    Nullable,
    Object,
    Record,
    RequiredField,
    Scalar,
    ToolCall,
    Transform,
    Union,
    bound_types,
    required_field,
    shared_default,
    transform,
)
from ._frozen import Frozen, keep, kept, once
from ._problems import show

__all__ = [
    "Signature",
    "Unresolved",
    "Where",
    "check_bound",
    "read_signature",
    "unlistable",
]

_SEQUENCES: dict[object, type] = {
    list: list,
    tuple: tuple,
    set: set,
    frozenset: frozenset,
    cabc.Sequence: list,
}
_MAPPINGS = (dict, cabc.Mapping)
_UNIONS = (typing.Union, types.UnionType)
_LITERALS = (typing.Literal, te.Literal)
_REQUIRED = (te.Required, getattr(typing, "Required", te.Required))
_NOT_REQUIRED = (te.NotRequired, getattr(typing, "NotRequired", te.NotRequired))
_READ_ONLY = (te.ReadOnly, getattr(typing, "ReadOnly", te.ReadOnly))
_ALIASES = (te.TypeAliasType, getattr(typing, "TypeAliasType", te.TypeAliasType))
_NEW_TYPES = (typing.NewType, te.NewType)  # two classes on Python 3.10
_NUMERIC_BOUNDS = (at.Gt, at.Ge, at.Lt, at.Le, at.MultipleOf)
_SCALARS = {kind: Scalar(kind) for kind in (str, int, float, bool)}
_LENGTH_BOUNDS = (at.MinLen, at.MaxLen)

_SUPPORTED = (
    "str, int, float, bool, a Literal, an Enum, list[X], Sequence[X], tuple[X, ...], set[X], "
    "frozenset[X], dict[str, X], Mapping[str, X], a TypedDict, a dataclass, X | None, A | B "
    "or Annotated[X, ...]"
)


class Unresolved(Exception):  # noqa: N818 - a state (a name not defined yet), not a failure
    """A hint names something not defined yet; the tool retries when it joins a toolkit."""

    def __init__(self, name: str, fields: tuple[str, ...]) -> None:
        """Keep the name that could not be resolved, and the paths of the fields naming it."""
        super().__init__(name)
        self.name = name
        self.fields = fields


class Where:
    """Where a definition mistake is: the tool, and the path of the field inside its input.

    Made for every field and never compared: a plain class, cheaper to make than a value.
    """

    __slots__ = ("tool", "path")

    def __init__(self, tool: str, path: str = "") -> None:
        self.tool = tool
        self.path = path

    def into(self, part: str) -> Where:
        """The place one step further in: a field name, `[]` for items, `{}` for record values."""
        sep = "" if not self.path or part in ("[]", "{}") else "."
        return Where(self.tool, f"{self.path}{sep}{part}")

    def error(self, kind: type[Exception], text: str) -> Exception:
        """A definition error naming the tool and the field."""
        where = f"field {self.path!r} of tool {self.tool!r}" if self.path else f"tool {self.tool!r}"
        return kind(f"{where}: {text}")


def unlistable(text: str) -> str | None:
    """Why no listing can carry a host's text, or `None`: UTF-8 has no lone surrogate.

    The MCP SDK would refuse the whole `tools/list` answer, on every call.
    """
    if text.isascii():
        return None
    try:
        text.encode()
    except UnicodeEncodeError as exc:
        return (
            f"holds a lone surrogate ({text[exc.start]!r} at index {exc.start}), which no UTF-8 "
            "text such as an MCP listing can carry; write the character itself "
            "(in Python '\\U0001f600', not the JSON escapes '\\ud83d\\ude00')"
        )
    return None


class Signature(Frozen):
    """What a tool function's signature means: its fields, and its call parameter if any."""

    __slots__ = ("fields", "call_name", "call_type", "call_positional")
    fields: tuple[Field, ...]
    call_name: str | None
    call_type: type[ToolCall] | None
    call_positional: bool

    def __init__(
        self,
        fields: tuple[Field, ...],
        call_name: str | None,
        call_type: type[ToolCall] | None,
        call_positional: bool,  # noqa: FBT001 - a value class
    ) -> None:
        self._set(fields, call_name, call_type, call_positional)


def read_signature(fn: Callable[..., Any], tool: str, docs: Mapping[str, str]) -> Signature:
    """Read a tool function into the field model; raise for every mistake in it.

    `docs` are the parameter descriptions from the function's docstring.
    """
    where = Where(tool)
    hints = _hints(fn, where)
    fields: list[Field] = []
    call: inspect.Parameter | None = None
    call_type: type[ToolCall] | None = None
    for param in unevaluated_signature(fn).parameters.values():
        name, kind = param.name, param.kind  # properties: a call for each read
        default = MISSING if param.default is _EMPTY else param.default
        doc = docs.get(name)
        if kind in _NAMED and shared_default(default):
            # a type read before, by this very object, for a field made before
            hint = hints.get(name, _EMPTY)
            known = kept(_KNOWN_FIELDS, (name, id(hint), default, doc), hint)
            if known is not None:
                fields.append(known)
                continue
        here = where.into(name)
        if kind in _VARIADIC:
            raise here.error(TypeError, "*args and **kwargs cannot be described; name each field")
        if name not in hints:
            raise here.error(TypeError, "has no annotation; annotate it with the type it takes")
        hint = hints[name]
        called = te.get_origin(hint) or hint  # a generic call class too
        if _is_call_class(called):
            if call is not None:
                raise here.error(
                    TypeError,
                    f"is a second call parameter (the first is {call.name!r}); "
                    "a tool takes at most one ToolCall",
                )
            call, call_type = param, called
            continue
        if kind is param.POSITIONAL_ONLY:
            raise here.error(TypeError, "is positional-only; fields are passed by name")
        node = _node(hint, here, ())
        fields.append(_parameter_field(name, node, default, doc, here, hint))
    _check_documented(docs, fields, call, where)
    return Signature(
        fields=tuple(fields),
        call_name=None if call is None else call.name,
        call_type=call_type,
        call_positional=call is not None and call.kind is call.POSITIONAL_ONLY,
    )


def _parameter_field(  # noqa: PLR0913, PLR0917 - `_field`'s facts, in its order
    name: str, node: Node, default: object, doc: str | None, where: Where, hint: object
) -> Field:
    """A parameter's field; one with no default, or `None`, `True` or `False`, is made once.

    Those defaults are the same objects in every function, so the field is the same in every tool
    writing it; any other default is the function's own object, kept by its field. A docstring
    entry gives way to a `Doc` on the annotation itself only (`_field`): the key says if one is.
    """
    if not shared_default(default):
        return _field(name, node, default, doc, where, hint=hint)
    key = (name, node, default, doc, doc is not None and _documents_itself(hint))
    made = once(_PARAMETER_FIELDS, key, _new_parameter_field, name, node, default, doc, where, hint)
    return keep(_KNOWN_FIELDS, (name, id(hint), default, doc), hint, made)


def _new_parameter_field(  # noqa: PLR0913, PLR0917 - as above, for `once`
    name: str, node: Node, default: object, doc: str | None, where: Where, hint: object
) -> Field:
    return _field(name, node, default, doc, where, hint=hint)


_PARAMETER_FIELDS: dict[tuple[object, ...], Field] = {}
_KNOWN_FIELDS: dict[tuple[str, int, object, str | None], tuple[object, Field]] = {}
"""The shared fields of parameters passed by name (`kept`): by name, the very hint object, default
and entry.

A hint met again (typing keeps its last 128 `Annotated[...]`, `Literal[...]` and unions; an alias
or a class is one object) gives its field with no walk of the hint to build a key: a hint's
equality is not enough there (`int | str == str | int`), its identity is. A positional-only
parameter is never looked up, so it still reaches its error.
"""
_EMPTY: Any = inspect.Parameter.empty
_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def check_bound(fn: Callable[..., Any], tool: str) -> None:
    """Refuse a method decorated in its class body: a tool is called with no instance or class.

    However `self` is annotated: as `Self` or its class, the model would have to send it (a
    dataclass's fields would even be listed as input). Asked at decoration only, before the
    hints (`self: "Service"` waits for nothing), and not of a static method's function.
    """
    if inspect.ismethod(fn):  # bound: its instance or class is filled
        return
    owner = getattr(fn, "__qualname__", "").rpartition(".")[0].rpartition(".")[2]
    if owner in ("", "<locals>"):  # `note_write`, `outer.<locals>.f`: not in a class body
        return
    try:
        first = next(iter(unevaluated_signature(fn).parameters), None)
    except (TypeError, ValueError):  # no signature, or a `__wrapped__` loop: `_hints` says which
        return
    if first in ("self", "cls"):
        raise Where(tool, first).error(
            TypeError,
            f"is the {'instance' if first == 'self' else 'class'} of a method decorated in "
            f"{owner}'s body, and a tool is called without one; decorate the bound method after "
            f"the class instead: tool(...)(obj.{fn.__name__})",
        )


def _check_documented(
    docs: Mapping[str, str], fields: list[Field], call: inspect.Parameter | None, where: Where
) -> None:
    """Refuse a docstring entry naming no parameter: a typo or a rename, its field undescribed."""
    if not docs:
        return
    known = {f.name for f in fields}
    for name in docs:
        if name not in known and (call is None or name != call.name):
            listed = ", ".join(f.name for f in fields) or "none"
            raise where.error(
                ValueError,
                f"its docstring describes {name!r}, which is no parameter; "
                f"fix the name or remove the entry (the fields: {listed})",
            )


def _hints(obj: object, where: Where) -> dict[str, Any]:
    """The hints of a class, or of a function's parameters; what fails, named."""
    try:
        target = read_from(obj)
    except ValueError as exc:  # `inspect.unwrap`: no annotation is to blame
        raise where.error(
            TypeError,
            "its __wrapped__ chain loops, so Python cannot read its signature; let "
            "__wrapped__ lead to the function it wraps",
        ) from exc
    try:
        return hints(target)
    except NameError as exc:
        name = exc.name or str(exc)
        mention = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        fields = tuple(
            where.into(field).path
            for field, hint in written(obj).items()
            if mention.search(hint if isinstance(hint, str) else repr(hint))
        )
        raise Unresolved(name, fields) from exc
    except RecursionError:  # a type nested too deep, not a bad one: `_tool` says so
        raise
    except Exception as exc:  # a string annotation that is no valid Python, or fails to evaluate
        culprit = unreadable(target, type(exc))
        place = where if culprit is None else where.into(culprit)
        raise place.error(TypeError, _cannot_read("an annotation", exc)) from exc


def _cannot_read(what: str, exc: Exception) -> str:
    """Why a type written as text, or evaluated late, fails: Python's own error, named."""
    return f"{what} cannot be read ({type(exc).__name__}: {exc}); write a valid type"


def _field(  # noqa: PLR0913 - each argument is one fact about the field
    name: str,
    node: Node,
    default: object,
    doc: str | None,
    where: Where,
    *,
    hint: object,
    key_required: bool | None = None,
) -> Field:
    """One field. `key_required` says whether the key must be sent, where its class decides.

    `doc` is the field's docstring entry. A `Doc` on its annotation `hint` comes first; one inside
    a type it names (an alias's) after, as does one inside `Annotated[Alias, Ge(0)]`.
    """
    if default is None and not isinstance(node, Nullable):
        # Python 3.10's get_type_hints makes `x: T = None` Optional[T]; do the same everywhere.
        node = Nullable(node)
    missing_message = _required_message(node)
    admits_none = isinstance(node, Nullable)
    if missing_message is not None:
        if default is not MISSING or key_required is False:
            raise where.error(
                ValueError,
                "uses required_field but may be left out (a default, NotRequired, a default "
                "factory); drop one",
            )
        required = True
    elif key_required is not None:
        required = key_required
    else:
        required = default is MISSING and not admits_none
    if not required and default is MISSING and key_required is None:
        default = None
    description = _description(node)
    if description and doc and not _documents_itself(hint):  # looked at only when both speak
        description = None
    return Field(
        name=name,
        type=node,
        required=required,
        default=default,
        description=description or doc or _description_within(node),
        missing_message=missing_message,
    )


def _required_message(node: Node) -> str | None:
    node = node.inner if isinstance(node, Nullable) else node
    while isinstance(node, Constrained):
        for check in node.checks:
            if isinstance(check, RequiredField):
                return check.message
        node = node.inner
    return None


def _description(node: Node) -> str | None:
    node = node.inner if isinstance(node, Nullable) else node
    return node.description if isinstance(node, Constrained) else None


def _documents_itself(hint: object) -> bool:
    """Whether a `Doc` stands on the annotation itself (`Annotated[X, Doc(...)]`, or that `| None`).

    A description inside a type it names, such as an alias's, does not count.
    """
    if te.get_origin(hint) in _UNIONS:  # `| None`, or Python 3.10's Optional for a None default
        present = [arg for arg in te.get_args(hint) if arg is not type(None)]
        hint = present[0] if len(present) == 1 else None
    metadata = te.get_args(hint)[1:] if te.get_origin(hint) is te.Annotated else ()
    return any(isinstance(getattr(m, "documentation", None), str) for m in _flatten(metadata))


def _description_within(node: Node) -> str | None:
    """The first description going in (an alias's, a union's first branch's, an object's).

    The schema shows the same one when the field has none of its own.
    """
    while True:
        if isinstance(node, Constrained) and node.description:
            return node.description
        if isinstance(node, (Nullable, Constrained)):
            node = node.inner
        elif isinstance(node, Union):
            node = node.branches[0]
        else:
            return node.description if isinstance(node, Object) else None


def _node(tp: Any, where: Where, seen: tuple[object, ...]) -> Node:
    """The node for one type. `seen` holds the classes and aliases being read, to refuse cycles.

    Equal hints mean the same, so each is read once (a type that contains itself never gets a
    node, so one found here was never in `seen`).
    """
    if type(tp) is type and tp in _SCALARS:  # `str`, `int`, `float`, `bool`: no key to build
        return _SCALARS[tp]
    return once(_NODES, (tp, _in_order(tp)), _new_node, tp, where, seen)


_NODES: dict[tuple[object, object], Node] = {}
_LITERAL_VALUES = frozenset((str, int, float, bool, type(None)))
"""The types of a `Literal`'s values: most leaves of a hint."""


def _in_order(tp: object) -> object:
    """The arguments of a hint at every depth, in order, and the types of its values.

    `int | str == str | int`, yet the order decides a union's first branch and a Literal's enum;
    `MultipleOf(2) == MultipleOf(2.0)`, yet a float step rounds. The cache of nodes must tell
    them apart.
    """
    if _is_class(tp):
        return tp  # a class has no arguments (and most hints are classes)
    if type(tp) in _LITERAL_VALUES:
        return (tp, type(tp))  # what `bound_types` says of it, without the call
    args = te.get_args(tp)
    return tuple(map(_in_order, args)) if args else (tp, *bound_types(tp))


def _new_node(tp: Any, where: Where, seen: tuple[object, ...]) -> Node:  # noqa: C901, PLR0911, PLR0912
    origin: Any = te.get_origin(tp)
    alias = origin if isinstance(origin, _ALIASES) else tp  # `Pair[int]`: the alias is `Pair`
    if isinstance(alias, (*_ALIASES, *_NEW_TYPES)):
        if any(_again(tp, alias, earlier) for earlier in seen):
            raise where.error(TypeError, f"{_name(alias)} refers to itself; {_NO_CYCLES}")
        return _node(_alias_value(tp, alias, where), where, (*seen, tp))
    args: tuple[Any, ...] = te.get_args(tp)
    if origin is te.Annotated:
        return _annotated(args[0], args[1:], where, seen)
    if origin in _LITERALS:
        return _literal(args, where)
    kind: type[object] | None = tp if _is_class(tp) else None
    if _is_call_class(kind) or _is_call_class(origin):
        raise where.error(
            TypeError,
            f"{_name(tp)} is a ToolCall, never input: annotate the call parameter with the class "
            "alone (not in a union, Annotated, a list or an object)",
        )
    if kind is not None and issubclass(kind, enum.Enum):
        return _enum(kind, where)
    if origin in _UNIONS:
        return _union(args, where, seen)
    if origin in _SEQUENCES or kind in _SEQUENCES:
        return _array(origin or tp, args, where, seen)
    if origin in _MAPPINGS or kind in _MAPPINGS:
        return _record(args, where, seen)
    if sys.version_info >= (3, 15) and builtins.frozendict in (origin, kind):
        raise where.error(
            TypeError,
            f"{_name(tp)} cannot be read: an object's keys come as a new dict; use Mapping[str, X],"
            " or Annotated[dict[str, X], transform(frozendict)] to get a frozendict",
        )
    if kind is not None and (te.is_typeddict(kind) or dataclasses.is_dataclass(kind)):
        if kind in seen:
            raise where.error(TypeError, f"{_name(kind)} contains itself; {_NO_CYCLES}")
        return _object(kind, where, (*seen, kind))
    if isinstance(origin, type) and (te.is_typeddict(origin) or dataclasses.is_dataclass(origin)):
        what = "TypedDict" if te.is_typeddict(origin) else "dataclass"
        raise where.error(
            TypeError,
            f"a generic {what} ({_name(tp)}) cannot be read; declare a {what} with concrete types",
        )
    if origin in (*_REQUIRED, *_NOT_REQUIRED, *_READ_ONLY):
        raise where.error(
            TypeError,
            f"{_name(tp)} only means something on a TypedDict key; write it on the key itself, "
            "not inside another type or an alias",
        )
    if origin is typing.ClassVar or tp is typing.ClassVar:  # `te.ClassVar` is the same
        raise where.error(
            TypeError,
            f"{_name(tp)} is a class variable, never input; write the field's type alone (a "
            "dataclass takes te.ClassVar[...] for a field when quoted, as under from __future__ "
            "import annotations: import ClassVar by name there)",
        )
    if tp is te.LiteralString or tp is getattr(typing, "LiteralString", te.LiteralString):
        raise where.error(
            TypeError,
            "LiteralString is text written in the source, which no input is; take a str "
            "(and check it, as with a Literal of the strings you allow)",
        )
    if origin is te.Final or tp is te.Final:
        raise where.error(
            TypeError,
            f"{_name(tp)} is read only as a dataclass field's annotation with its type, "
            "Final[X]; write the type alone here",
        )
    if tp is None or tp is type(None):
        raise where.error(TypeError, _NONE_ALONE)
    if isinstance(tp, (str, typing.ForwardRef)):
        name = tp if isinstance(tp, str) else tp.__forward_arg__
        raise where.error(
            TypeError,
            f"the quoted name {name!r} inside a type was never resolved (Python 3.10 does not look "
            f'inside list[...] or dict[...]); quote the whole annotation ("list[{name}]") instead',
        )
    raise where.error(TypeError, f"type {_name(tp)} has no one JSON type; {_advice(tp, kind)}")


def _again(tp: object, alias: object, earlier: object) -> bool:
    """Whether an alias met while reading `earlier` goes round a cycle.

    Met again holding all its earlier arguments (the same ones, or `Grow[list[int]]` after
    `Grow[int]`), it came from its own value, and will again without end; met inside them
    (`Pair[int]` within `Pair[Pair[int]]`), it is a smaller type.
    """
    origin = te.get_origin(earlier)
    if (origin if isinstance(origin, _ALIASES) else earlier) is not alias:
        return False
    return all(_within(arg, tp) for arg in te.get_args(earlier))


def _within(part: object, tp: object) -> bool:
    return any(arg == part or _within(part, arg) for arg in te.get_args(tp))


def _alias_value(tp: object, alias: Any, where: Where) -> object:
    """What a `NewType` or a type alias stands for, ready to read.

    An alias's names written as strings are resolved, and its type parameters (`Pair[int]` of
    `type Pair[T] = list[T]`) replaced by the arguments given, or by their defaults.
    """
    if isinstance(alias, _NEW_TYPES):
        return alias.__supertype__
    try:
        # `type X = ...` is evaluated on first use of `__value__`
        own = {p.__name__: p for p in alias.__type_params__} or None  # `type P[T] = "list[T]"`
        value = resolved_in(alias.__module__, alias.__value__, own)
    except NameError as exc:
        raise Unresolved(exc.name or str(exc), (where.path,)) from exc
    except RecursionError:  # a type nested too deep, not a bad one: `_tool` says so
        raise
    except Exception as exc:  # a value that fails to evaluate: `type X = int | "str"`
        raise where.error(TypeError, _cannot_read(_name(alias), exc)) from exc
    params: tuple[Any, ...] = alias.__type_params__
    arguments = te.get_args(tp) if tp is not alias else ()
    if arguments and any(isinstance(p, (te.ParamSpec, te.TypeVarTuple)) for p in params):
        raise where.error(
            TypeError,
            f"{_name(alias)} takes a ParamSpec or TypeVarTuple, which stands for no one JSON "
            "type; give the alias plain type parameters, or write the type out",
        )
    if len(arguments) > len(params):
        raise where.error(
            TypeError,
            f"{_name(alias)} is given {len(arguments)} type arguments and takes at most "
            f"{len(params)}; give one for each of its type parameters",
        )
    given: dict[object, object] = dict(zip(params, arguments, strict=False))  # defaults below
    for param in params[len(arguments) :]:  # PEP 696 defaults, which may name those before
        if getattr(param, "has_default", lambda: False)():
            default: Any = param.__default__
            named: tuple[object, ...] = getattr(default, "__parameters__", ())
            given[param] = (
                default[tuple(given.get(p, p) for p in named)]
                if named
                else given.get(default, default)
            )
    parameters: tuple[object, ...] = getattr(value, "__parameters__", ())
    return value[tuple(given.get(p, p) for p in parameters)] if given and parameters else value


def _is_call_class(tp: object) -> TypeIs[type[ToolCall]]:
    return isinstance(tp, type) and issubclass(tp, ToolCall)


_TEXT_TYPES = {
    "datetime": "such as an ISO 8601 text",
    "decimal": "such as a function that returns Decimal(text) and raises ValueError when it fails",
    "uuid": "such as transform(UUID)",
    "pathlib": "such as transform(Path)",
    "string": "such as transform(Template)",  # only Template: a t-string's (3.14), or a `$` one
}
"""Types a model sends as text, by module, and how to convert that text."""


def _advice(tp: object, kind: type[object] | None) -> str:  # noqa: PLR0911 - one per kind
    """What to write instead of a type no schema can describe."""
    if any(tp is anything for anything in (typing.Any, te.Any, object)):  # 3.10: two Anys
        return "say what a model should send, such as str or a TypedDict"
    if kind in (bytes, bytearray):
        return "take a str (base64, say) and decode it with transform(...)"
    module, name = (kind.__module__, kind.__name__) if kind is not None else ("", "")
    package = module.partition(".")[0]  # pathlib._local
    if package in _TEXT_TYPES and (package != "string" or name == "Template"):  # not Formatter
        return f"take a str and convert it with transform(...), {_TEXT_TYPES[package]}"
    if _SENTINEL is not None and isinstance(tp, _SENTINEL):  # `x: int | MISSING = MISSING`
        return "a sentinel marks a value left out, which a tool gets as None: write X | None = None"
    if isinstance(tp, (te.TypeVar, te.ParamSpec, te.TypeVarTuple)):
        return "type variables cannot be listed; use the concrete type"
    if module not in ("", "builtins") and (module, name) != ("typing", "Union"):  # a 3.14 class
        return f"use {_SUPPORTED}; if this is the call object, make it a subclass of ToolCall"
    return f"use {_SUPPORTED}"


_SENTINEL: Any = getattr(te, "Sentinel", None)  # PEP 661; Python 3.15's builtin `sentinel`
"""The class of sentinels (typing-extensions 4.14 and later; on Python 3.15 the builtin)."""

_NONE_ALONE = "None alone is no input; use X | None for an optional X"

_NO_CYCLES = "recursive types cannot be listed (the schema has no $ref); bound the depth instead"


def _is_class(tp: object) -> TypeGuard[type[object]]:
    """A class, not a generic alias (which Python 3.10 also counts as a `type`: `list[int]`)."""
    return isinstance(tp, type) and not isinstance(tp, types.GenericAlias)


def _name(tp: object) -> str:
    """A type as a host writes it, on every Python (3.13 defines `Path` in `pathlib._local`)."""
    if not _is_class(tp):
        return repr(tp).replace("typing_extensions.", "").replace("typing.", "")
    public = itertools.takewhile(lambda part: not part.startswith("_"), tp.__module__.split("."))
    module = ".".join(public)
    if module in ("", "builtins", "typing", "typing_extensions"):  # 3.11 made `Any` a class
        return tp.__qualname__
    return f"{module}.{tp.__qualname__}"


def _annotated(
    tp: object, metadata: Iterable[object], where: Where, seen: tuple[object, ...]
) -> Node:
    inner = _node(tp, where, seen)
    checks: list[Check] = []
    transforms: list[Callable[[Any], Any]] = []
    description: str | None = None
    for meta in _flatten(metadata):
        if (misplaced := _misplaced(meta)) is not None:
            raise where.error(TypeError, misplaced)
        documentation = getattr(meta, "documentation", None)
        if isinstance(documentation, str):
            if (why := unlistable(documentation)) is not None:
                raise where.error(ValueError, f"its description {why}")
            description = documentation
        elif isinstance(meta, Transform):
            transforms.append(_plain_callable(meta.fn, where))
        elif isinstance(meta, (*_NUMERIC_BOUNDS, *_LENGTH_BOUNDS, at.Predicate, RequiredField)):
            checks.append(_checked(meta, inner, where))
        elif isinstance(meta, at.Not):
            checks.append(_checked(at.Predicate(meta), inner, where))
    _check_meetable(checks, inner, where)
    if not (checks or transforms or description is not None):
        return inner
    if isinstance(inner, Nullable):
        return Nullable(Constrained(inner.inner, tuple(checks), tuple(transforms), description))
    return Constrained(inner, tuple(checks), tuple(transforms), description)


def _misplaced(meta: object) -> str | None:
    """Why metadata cannot stand where it is written: a bound not called, or a type."""
    if _uncalled(meta):
        name = typing.cast("Callable[..., object]", meta).__name__
        return f"{name} is used without its arguments; write it called, as in {name}(...)"
    if te.get_origin(_alias_of(meta)) is te.Annotated:  # as metadata, its bounds never apply
        return (
            f"the metadata {_name(meta)} is an Annotated type, whose bounds never apply as "
            "metadata; use it as the type (LowerCase[str], not Annotated[str, LowerCase]), or "
            "list its metadata here"
        )
    return None


def _alias_of(meta: object) -> object:
    """What a type alias in metadata stands for (`type PositiveInt = Annotated[...]`)."""
    if not isinstance(meta, _ALIASES):
        return meta
    alias: Any = meta
    try:
        return alias.__value__
    except Exception:  # noqa: BLE001 - a name not defined yet: no type to judge, so no mistake
        return None


def _uncalled(meta: object) -> bool:
    """Whether metadata is a bound's class or a helper itself (`MaxLen`, not `MaxLen(10)`)."""
    if isinstance(meta, type):
        return meta.__module__ == "annotated_types" or meta is te.Doc
    return meta is required_field or meta is transform


def _flatten(metadata: Iterable[object]) -> Iterator[object]:
    for meta in metadata:
        # what `isinstance(meta, at.GroupedMetadata)` checks, without a Protocol's slow test
        # (the class `Len` itself says it too, and is reported as not called)
        if not isinstance(meta, type) and getattr(
            meta, "__is_annotated_types_grouped_metadata__", False
        ):
            yield from _flatten(typing.cast("Iterable[object]", meta))
        else:
            yield meta


def _checked(check: Check, node: Node, where: Where) -> Check:
    """The check itself, once it is known to fit the type it constrains (and what it tests)."""
    base = _fitted(check, node, where)
    name = type(check).__name__
    if isinstance(check, _NUMERIC_BOUNDS):
        if not _numeric(base):
            advice = "; list only the values it allows" if isinstance(base, Choice) else ""
            raise where.error(
                TypeError, f"{name} bounds a number; it cannot apply to {_kind(base)}{advice}"
            )
        bound = _held(check)
        if type(bound) not in (int, float) or bound != bound:  # noqa: PLR0124 - NaN test
            raise where.error(TypeError, f"{name} needs an int or float bound, got {bound!r}")
        if isinstance(check, at.MultipleOf) and not (0 < typing.cast("float", bound) < math.inf):
            raise where.error(
                ValueError, f"MultipleOf needs a positive finite step, got {_said(bound)}"
            )
    elif isinstance(check, _LENGTH_BOUNDS):
        if not (
            isinstance(base, (Array, Record)) or (isinstance(base, Scalar) and base.kind is str)
        ):
            raise where.error(
                TypeError, f"{name} bounds a length; it cannot apply to {_kind(base)}"
            )
        length = check.min_length if isinstance(check, at.MinLen) else check.max_length
        if type(length) is not int or not 0 <= length <= sys.maxsize:  # as long as Python holds
            shown = "a very large integer" if type(length) is int and length > 0 else repr(length)
            raise where.error(
                ValueError, f"{name} needs a length from 0 to sys.maxsize, got {shown}"
            )
    elif isinstance(check, RequiredField):
        if not (isinstance(base, Scalar) and base.kind is str):
            raise where.error(
                TypeError,
                f"required_field is for a str field, not {_kind(base)}; remove it (a field "
                "with no default that does not admit None is required, and MinLen(1) refuses "
                "an empty list)",
            )
    else:
        _fits_predicate(_plain_callable(check.func, where), node, where)
    return check


def _fitted(check: Check, node: Node, where: Where) -> Node:
    """The type under a check's node's bounds and `| None`, what it must fit.

    The nearest transform met on the way is asked too (`_check_made`).
    """
    made = False
    while isinstance(node, (Nullable, Constrained)):
        if not made and isinstance(node, Constrained) and node.transforms:
            _check_made(check, node.transforms[-1], where)
            made = True
        node = node.inner
    return node


def _check_made(check: Check, last: object, where: Where) -> None:
    """Refuse a bound around a type that transforms into a class the bound cannot test.

    Such a bound tests what the transform made (`_compile._layers`), and only a class
    (`transform(int)`, `transform(UUID)`) tells, here, what that is; a predicate is the host's.
    """
    if not _is_class(last):
        return
    if isinstance(check, _NUMERIC_BOUNDS):
        takes = issubclass(last, (int, float))
    elif isinstance(check, _LENGTH_BOUNDS):
        takes = hasattr(last, "__len__")
    else:
        takes = not isinstance(check, RequiredField) or issubclass(last, str)
    if not takes:
        shown = "required_field" if isinstance(check, RequiredField) else type(check).__name__
        raise where.error(
            TypeError,
            f"{shown} stands around a type whose Annotated transforms its value into a "
            f"{_name(last)}, which it cannot apply to; write {shown} inside that Annotated, "
            "before the transform",
        )


def _fits_predicate(fn: object, node: Node, where: Where) -> None:
    """Refuse a builtin predicate of another type: `str.islower` on an int field.

    It would raise Python's `TypeError` on every call, where no model can do anything about it.
    """
    while isinstance(fn, at.Not):
        fn = fn.func
    if isinstance(fn, (types.MethodDescriptorType, types.WrapperDescriptorType)):
        owner: tuple[type[object], ...] = (fn.__objclass__,)  # `str` of `str.islower`
        shown = fn.__qualname__
    elif isinstance(fn, types.BuiltinFunctionType) and fn.__module__ == "math":
        if fn.__name__ in ("fsum", "prod"):  # of an iterable, such as a list field
            return
        owner, shown = (int, float), f"math.{fn.__name__}"
    else:
        return
    given = _given(node)
    wrong = [] if None in given else [kind for kind in given if not issubclass(kind, owner)]
    if wrong:
        takes = " or ".join(map(_name, owner))
        raise where.error(
            TypeError,
            f"Predicate({shown}) takes {takes}, but the field gives it {_name(wrong[0])}; "
            "use a predicate for that type, or put this one on a field of its type",
        )


def _given(node: Node) -> list[Any]:
    """The classes a check on this node is given; `None` where a transform may change it.

    A transform that is a class (`transform(int)`) gives that class.
    """
    while isinstance(node, (Nullable, Constrained)):
        if isinstance(node, Constrained) and node.transforms:
            last = node.transforms[-1]
            return [last if _is_class(last) else None]
        node = node.inner
    if isinstance(node, Union):
        return [kind for branch in node.branches for kind in _given(branch)]
    if isinstance(node, (Scalar, Array)):
        return [node.kind]
    if isinstance(node, Choice):
        return [type(output) for output in node.outputs]
    if isinstance(node, Object) and node.is_dataclass:
        return [node.cls]
    return [dict]  # a record, a TypedDict


def _plain_callable(fn: Callable[[Any], Any], where: Where) -> Callable[[Any], Any]:
    """A predicate (under any `Not`) or transform: a callable, and not async.

    Input is checked where nothing is awaited: a coroutine would be truthy (every value passing
    the predicate) or handed to the tool.
    """
    inner: object = fn
    while isinstance(inner, at.Not):
        inner = inner.func
    if not callable(inner):
        raise where.error(TypeError, f"Predicate needs a callable, got {inner!r}")
    if any(map(_is_async, (inner, type(inner).__call__))):  # `__call__`: an object's own
        name = getattr(inner, "__name__", type(inner).__name__)
        raise where.error(
            TypeError,
            f"{name} is async; it runs while the input is checked, where nothing is awaited, so "
            "it would pass a coroutine on; make it a plain def, or await the work in the tool's "
            "body",
        )
    return fn


def _is_async(fn: object) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn)


def _numeric(node: Node) -> bool:
    """An int or a float, or a union of only those (`int | float`), under any bounds."""
    while isinstance(node, Constrained):
        node = node.inner
    if isinstance(node, Union):
        return all(map(_numeric, node.branches))
    return isinstance(node, Scalar) and node.kind in (int, float)


def _check_meetable(checks: list[Check], node: Node, where: Where) -> None:
    """Refuse bounds no value meets, such as `MinLen(5)` with `MaxLen(2)`, or `Gt(math.inf)`.

    On an `int`, only whole numbers count: `Gt(2.5)` with `Lt(3)` leaves none.
    """
    # loops, not comprehensions: on Python 3.11 each comprehension is a function call, and
    # four of them cost every new bounded hint 1.7 µs
    lows: list[Check] = []
    highs: list[Check] = []
    for check in checks:
        if isinstance(check, (at.Gt, at.Ge, at.MinLen)):
            lows.append(check)
        elif isinstance(check, (at.Lt, at.Le, at.MaxLen)):
            highs.append(check)
    for side, end in ((lows, math.inf), (highs, -math.inf)):
        for check in side:
            if _held(check) == end:  # numbers from the input are finite
                raise where.error(
                    ValueError, f"no finite number meets {_said(check)}; bound it by a number"
                )
    while isinstance(node, (Nullable, Constrained)):
        node = node.inner
    whole = isinstance(node, Scalar) and node.kind is int
    for low, high in itertools.product(lows, highs):
        alike = isinstance(low, at.MinLen) == isinstance(high, at.MaxLen)  # lengths, or numbers
        if alike and not _meet(low, high, whole=whole):
            raise where.error(
                ValueError,
                f"no value meets both {_said(low)} and {_said(high)}; loosen one of them",
            )


def _meet(low: Check, high: Check, *, whole: bool) -> bool:
    least, most = _held(low), _held(high)
    if whole and not (_infinite(least) or _infinite(most)):
        least = math.floor(least) + 1 if isinstance(low, at.Gt) else math.ceil(least)
        most = math.ceil(most) - 1 if isinstance(high, at.Lt) else math.floor(most)
        return bool(least <= most)
    if isinstance(low, at.Gt) or isinstance(high, at.Lt):
        return bool(least < most)
    return bool(least <= most)


def _said(bound: object) -> str:
    """A bound or value as written, `Gt(10**5000)` too: Python writes no int past 4,300 digits."""
    try:
        return repr(bound)
    except ValueError:
        if isinstance(bound, int):
            return show(bound)  # as a refusal names it: `a very large integer`
        return f"{type(bound).__name__}({_said(_held(typing.cast('Check', bound)))})"


def _held(check: Check) -> Any:
    """The one value an annotated-types bound holds: 3 in `Gt(3)`, 5 in `MaxLen(5)`."""
    names: tuple[str, ...] = check.__match_args__
    return getattr(check, names[0])


def _infinite(bound: float) -> bool:
    return isinstance(bound, float) and math.isinf(bound)  # an int bound may be beyond a float


def _kind(node: Node) -> str:
    if isinstance(node, Scalar):
        return node.kind.__name__
    return type(node).__name__.lower()


def _json_type(value: object) -> JsonType | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float) and math.isfinite(value):
        return "number"
    if isinstance(value, str):
        return "string"
    return None


def _choice(
    values: tuple[object, ...], outputs: tuple[object, ...], what: str, where: Where
) -> Choice:
    kinds: set[JsonType | None] = {_json_type(value) for value in values}
    if kinds == {"integer", "number"}:
        kinds = {"number"}
    kind = kinds.pop() if len(kinds) == 1 else None
    for value in values if kind == "string" else ():
        if (why := unlistable(typing.cast("str", value))) is not None:
            raise where.error(ValueError, f"{what} value {value!r} {why}")
    for value in values if kind in ("integer", "number") else ():
        if isinstance(value, int) and value.bit_length() > 64 and not _writable(value):
            raise where.error(
                ValueError,
                f"{what} holds an integer of more than {sys.get_int_max_str_digits()} digits, "
                "which Python writes as no text, so no JSON listing could carry it; use a "
                "smaller number, or a string",
            )
    if kind is None:
        listed = ", ".join(sorted(map(_said, values)))
        raise where.error(
            TypeError,
            f"{what} mixes JSON types or holds a non-JSON value ({listed}); "
            "a choice is all strings, all numbers or all booleans",
        )
    return Choice(values=typing.cast("tuple[Any, ...]", values), outputs=outputs, json_type=kind)


def _writable(number: int) -> bool:
    try:
        str(number)
    except ValueError:  # beyond `sys.get_int_max_str_digits()`
        return False
    return True


def _is_none(tp: object, where: Where) -> bool:
    """`None` as a type: `type(None)`, `Literal[None]` or an alias of one (a union's branch)."""
    aliases: list[object] = []
    while isinstance(tp, _ALIASES) and all(tp is not alias for alias in aliases):
        aliases.append(tp)
        try:
            tp = _alias_value(tp, tp, where)  # quoted names resolved, as everywhere
        except Unresolved:
            return False  # read as a branch, which reports the name
    return (
        tp is None
        or tp is type(None)
        or (te.get_origin(tp) in _LITERALS and te.get_args(tp) == (None,))
    )


def _literal(args: tuple[object, ...], where: Where) -> Node:
    present = tuple(arg for arg in args if arg is not None)
    if not present:
        raise where.error(TypeError, "Literal[None] alone is no input; use X | None")
    values = tuple(arg.value if isinstance(arg, enum.Enum) else arg for arg in present)
    node: Node = _choice(values, present, "the Literal", where)  # JSON values, so hashable
    if len({(value, type(value) is bool) for value in values}) < len(values):
        listed = ", ".join(map(_said, values))
        raise where.error(
            TypeError,
            f"the Literal lists one JSON value twice ({listed}): an Enum member stands for its "
            "value, and 1 and 1.0 are one number; list it once",
        )
    return Nullable(node) if len(present) < len(args) else node


def _enum(cls: type[enum.Enum], where: Where) -> Choice:
    # Not `tuple(cls)`: since Python 3.11 it leaves out a Flag's zero and multi-bit members.
    # An alias names a member again: each is offered once (by identity: an Enum with its own
    # `__eq__` has members that do not hash).
    members: list[enum.Enum] = []
    kept: set[int] = set()
    for member in cls.__members__.values():
        if id(member) not in kept:
            kept.add(id(member))
            members.append(member)
    if not members:
        raise where.error(
            TypeError,
            f"the Enum {_name(cls)} has no members to choose from; give it at least one member",
        )
    values = tuple(m.value for m in members)
    return _choice(values, tuple(members), f"the Enum {_name(cls)}", where)


def _union(args: tuple[object, ...], where: Where, seen: tuple[object, ...]) -> Node:
    branches = [_node(arg, where, seen) for arg in args if not _is_none(arg, where)]
    if not branches:
        raise where.error(TypeError, _NONE_ALONE)
    nullable = len(branches) < len(args) or any(isinstance(b, Nullable) for b in branches)
    unwrapped = tuple(b.inner if isinstance(b, Nullable) else b for b in branches)
    node = unwrapped[0] if len(unwrapped) == 1 else Union(unwrapped)
    return Nullable(node) if nullable else node


def _array(kind: object, args: tuple[object, ...], where: Where, seen: tuple[object, ...]) -> Array:
    built = _SEQUENCES[kind]
    if built is tuple:
        if len(args) != 2 or args[1] is not Ellipsis:
            raise where.error(
                TypeError,
                "a fixed-length tuple cannot be described; use tuple[X, ...] or a TypedDict",
            )
        args = args[:1]
    if len(args) != 1:
        raise where.error(TypeError, f"{_name(kind)} needs its item type, like {_name(kind)}[str]")
    items = _node(args[0], where.into("[]"), seen)
    if built in (set, frozenset) and not _hashable(items):
        raise where.error(
            TypeError, f"{built.__name__} items must be hashable; use list[...] instead"
        )
    return Array(items=items, kind=built)


def _hashable(node: Node) -> bool:
    if isinstance(node, (Nullable, Constrained)):
        made = node.transforms[-1] if isinstance(node, Constrained) and node.transforms else None
        # the set holds what a transform made: a class's instances, or (not known) the type's
        return made.__hash__ is not None if _is_class(made) else _hashable(node.inner)
    if isinstance(node, Union):
        return all(_hashable(branch) for branch in node.branches)
    if isinstance(node, Object):
        params = getattr(node.cls, "__dataclass_params__", None)
        return (
            node.is_dataclass
            and getattr(node.cls, "__hash__", None) is not None
            and bool(params and params.frozen)
            and all(_hashable(f.type) for f in node.fields)
        )
    if isinstance(node, Array):
        return node.kind in (tuple, frozenset) and _hashable(node.items)
    if isinstance(node, Choice):  # an Enum with its own `__eq__` has members that do not hash
        return all(type(output).__hash__ is not None for output in node.outputs)
    return isinstance(node, Scalar)


def _record(args: tuple[object, ...], where: Where, seen: tuple[object, ...]) -> Record:
    if len(args) != 2:
        raise where.error(TypeError, "a mapping needs its key and value types, like dict[str, int]")
    key = args[0]
    aliased = isinstance(key, (*_ALIASES, *_NEW_TYPES))  # `dict[UserId, int]`, UserId a str
    if key is not str and not (aliased and _node(key, where, seen) == _SCALARS[str]):
        if te.get_origin(key) is te.Annotated and te.get_args(key)[0] is str:
            raise where.error(
                TypeError,
                "a mapping's keys take no bounds or checks (the schema lists none for them); use "
                "dict[str, ...] and check the keys in the tool, or declare the keys as a TypedDict",
            )
        raise where.error(
            TypeError,
            f"object keys are strings in JSON; use dict[str, ...], not {_name(key)} keys",
        )
    return Record(values=_node(args[1], where.into("{}"), seen))


def _object(cls: type[object], where: Where, seen: tuple[object, ...]) -> Object:
    is_dataclass = dataclasses.is_dataclass(cls)
    description, docs = split_docstring(_own_doc(cls, where))
    for base in _object_bases(cls):  # a field documented in a base keeps its description
        docs = {**split_docstring(_own_doc(base, where))[1], **docs}
    hints = _hints(cls, where)
    fields: list[Field] = []
    if is_dataclass:
        for hint in hints.values():
            if isinstance(hint, dataclasses.InitVar):
                raise where.error(
                    TypeError,
                    f"{_name(cls)} has an InitVar, which no input can fill; make it a field, "
                    "or drop it",
                )
        _check_constructor(cls, where)
        for f in dataclasses.fields(typing.cast("Any", cls)):
            if not f.init:
                continue
            default = f.default
            say = None if default is not MISSING or f.default_factory is MISSING else False
            here = where.into(f.name)
            hint = _not_final(hints[f.name])
            node = _node(hint, here, seen)
            doc = _field_doc(f, here) or docs.get(f.name)
            fields.append(_field(f.name, node, default, doc, here, hint=hint, key_required=say))
    else:
        _check_closed(cls, where)
        optional_keys: frozenset[str] = getattr(cls, "__optional_keys__", frozenset[str]())
        for key, hint in hints.items():
            name = _key_text(key, cls, where)
            if (why := unlistable(name)) is not None:
                raise where.error(ValueError, f"the key {name!r} of {_name(cls)} {why}")
            here = where.into(name)
            bare, say = _key_wrappers(hint, here)
            node = _node(bare, here, seen)
            if say is None:  # SPEC 4.1: a key admitting None may be left out, unless required_field
                say = key not in optional_keys and (
                    not isinstance(node, Nullable) or _required_message(node) is not None
                )
            doc = docs.get(name)
            fields.append(_field(name, node, MISSING, doc, here, hint=bare, key_required=say))
    return Object(
        cls=cls,
        fields=tuple(fields),
        description=description or None,
        is_dataclass=is_dataclass,
    )


def _key_text(key: object, cls: type[object], where: Where) -> str:
    """A `TypedDict` key as plain text, which every lookup of the validator compares.

    A str subclass's own hash or equality would decide those lookups, and the functional syntax
    takes keys that are no string at all.
    """
    if not isinstance(key, str):
        raise where.error(
            TypeError,
            f"the key {_said(key)} of {_name(cls)} is not a string; an object's keys are "
            "strings in JSON: name the key with one",
        )
    return str.__str__(key)


def _field_doc(f: dataclasses.Field[Any], where: Where) -> str | None:
    """A dataclass field's `field(doc=...)` (Python 3.14), or `None`.

    Written on the field itself, it comes before the class docstring's entry, as a `Doc` on its
    annotation comes before both.
    """
    if sys.version_info < (3, 14) or not isinstance(f.doc, str) or not f.doc:
        return None
    if (why := unlistable(f.doc)) is not None:
        raise where.error(ValueError, f"its description {why}")
    return f.doc


def _not_final(hint: object) -> object:
    """A dataclass field's type without `Final`: still a field, one `__init__` sets once."""
    return _unwrapped(hint, (te.Final,))[0]


def _check_constructor(cls: type[object], where: Where) -> None:
    """Refuse a dataclass that cannot be built from its fields by name, and from nothing else.

    Or whose `__post_init__` is async: `__init__` would never await its checks.
    """
    if _is_async(getattr(cls, "__post_init__", None)):
        raise where.error(
            TypeError,
            f"{_name(cls)}.__post_init__ is async; it runs while the input is checked, where "
            "nothing is awaited, so its checks would never run; make it a plain def",
        )
    names = {f.name for f in dataclasses.fields(typing.cast("Any", cls)) if f.init}
    try:
        params = unevaluated_signature(cls).parameters.values()
    except (TypeError, ValueError) as exc:  # as `dataclasses` itself reads it: no signature
        raise where.error(
            TypeError,
            f"{_name(cls)} cannot be built from its fields by name (its __init__ has no "
            "signature Python can read); let dataclasses write __init__ (init=True and no "
            "__init__ of the class's own)",
        ) from exc
    by_name = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    if any(p.kind is p.VAR_KEYWORD for p in params):
        by_name |= names
    needed = {p.name for p in params if p.default is p.empty and p.kind not in _VARIADIC}
    if names <= by_name and needed <= names:
        return
    taken = ", ".join(p.name for p in params)
    raise where.error(
        TypeError,
        f"{_name(cls)} cannot be built from its fields by name (its __init__ takes ({taken})); "
        "let dataclasses write __init__ (init=True and no __init__ of the class's own)",
    )


_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _check_closed(cls: type[object], where: Where) -> None:
    """Refuse a `TypedDict` that allows keys beyond its fields (PEP 728 `extra_items`).

    A subclass inherits its base's `extra_items` (PEP 728), though its own `__extra_items__`
    does not say so: the nearest class that says anything decides.
    """
    for owner in (cls, *_object_bases(cls)):
        extra = getattr(owner, "__extra_items__", _NO_EXTRA_ITEMS)
        if te.get_origin(extra) in _READ_ONLY:  # `ReadOnly[Never]` closes it too
            (extra,) = te.get_args(extra)
        if extra in _NEVER:
            return
        if extra is not _NO_EXTRA_ITEMS:  # `extra_items=None` allows null values
            break
        if getattr(owner, "__closed__", None) is True:  # `closed=True` and no `__extra_items__`
            return
    else:
        return
    inherited = "" if owner is cls else f", from {_name(owner)}"
    raise where.error(
        TypeError,
        f"{_name(cls)} allows keys beyond its fields (extra_items{inherited}), which this "
        "package refuses in any input; declare each key, or use dict[str, X]",
    )


_NEVER = (te.Never, te.NoReturn, typing.NoReturn)
_NO_EXTRA_ITEMS = getattr(te, "NoExtraItems", None)  # typing-extensions 4.12 says None


def _own_doc(cls: type[object], where: Where) -> str | None:
    """The docstring a class was given: not one `dataclasses` wrote, nor one that is no `str`.

    A `class` statement cannot hold a lone surrogate, but `cls.__doc__ = ...` can.
    """
    doc = cls.__doc__
    if not isinstance(doc, str):
        return None
    if (why := unlistable(doc)) is not None:
        raise where.error(ValueError, f"the docstring of {_name(cls)} {why}")
    generated = doc and dataclasses.is_dataclass(cls) and doc.startswith(cls.__name__)
    if generated and _written_by_dataclasses(cls, doc):  # the prefix spares the signature
        return None
    return doc


def _written_by_dataclasses(cls: type[object], doc: str) -> bool:
    """Whether `doc` is the docstring `dataclasses` gives a class that has none: name and signature.

    From Python 3.14 (PEP 649) it shows each annotation as it evaluated when it was written.
    """
    try:
        signature = unevaluated_signature(cls)
    except (TypeError, ValueError):  # as `dataclasses` itself does
        return doc == cls.__name__
    return written_as(doc, cls, signature)


def _object_bases(cls: type[object]) -> Iterator[type[object]]:
    """The dataclasses or `TypedDict`s a class inherits fields from, nearest first."""
    if dataclasses.is_dataclass(cls):
        yield from (base for base in cls.__mro__[1:] if dataclasses.is_dataclass(base))
        return
    for base in te.get_original_bases(cls):  # a TypedDict's own bases are not in its MRO
        if te.is_typeddict(base):  # its other bases: `TypedDict` itself, `Generic[T]`
            yield base
            yield from _object_bases(base)


def _key_wrappers(hint: object, where: Where) -> tuple[object, bool | None]:
    """A TypedDict key's type without Required / NotRequired / ReadOnly, and what they said.

    Saying both is a contradiction, which Python itself reads either way (the outer one of
    `Required[NotRequired[X]]`, the inner one through `Annotated`).
    """
    bare, wrappers = _unwrapped(hint, (*_REQUIRED, *_NOT_REQUIRED, *_READ_ONLY))
    said = [wrapper in _REQUIRED for wrapper in wrappers if wrapper not in _READ_ONLY]
    if len(set(said)) > 1:
        raise where.error(
            TypeError, f"{_name(hint)} says both Required and NotRequired; keep the one you mean"
        )
    return bare, said[0] if said else None


def _unwrapped(hint: object, wrappers: tuple[object, ...]) -> tuple[object, list[object]]:
    """`hint` without these wrappers (`Required[...]`, `Final[...]`), and those found.

    They may stand outside its `Annotated` or inside; the found come outermost first.
    """
    found: list[object] = []
    while True:
        origin = te.get_origin(hint)
        if origin is te.Annotated:
            inner, *metadata = te.get_args(hint)
            bare, inner_found = _unwrapped(inner, wrappers)
            annotated: Any = te.Annotated
            params = (bare, *metadata)
            return annotated[params], found + inner_found
        if origin not in wrappers:
            return hint, found
        found.append(origin)
        (hint,) = te.get_args(hint)
