"""Annotations as each Python gives them, read the same way on 3.10 to 3.15.

From Python 3.14 (PEP 649) annotations are evaluated when first read, not when written: a name
defined further down, or one only a type checker imports, fails then or not at all. Before it,
typing refuses some text in a function's annotations that it reads in a class's. `_introspect`
reads types into the field model; what differs between Pythons in getting those types is here.
"""

from __future__ import annotations

import inspect
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import typing_extensions as te

from .._model.errors import Unresolved, Where, cannot_read, type_name
from .._model.field_info import unpacked

__all__ = [
    "alias_value",
    "flatten",
    "read_hints",
    "resolved_in",
    "return_hint",
    "unevaluated_signature",
    "written",
    "written_as",
]


def read_hints(obj: object, where: Where) -> dict[str, Any]:
    """The hints of a class, or of a function's parameters; what fails, named."""
    try:
        target = _read_from(obj)
    except ValueError as exc:  # `inspect.unwrap`: no annotation is to blame
        raise where.error(
            TypeError,
            "its __wrapped__ chain loops, so Python cannot read its signature; let "
            "__wrapped__ lead to the function it wraps",
        ) from exc
    try:
        return _hints(target)
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
        culprit = _unreadable(target, type(exc))
        place = where if culprit is None else where.into(culprit)
        raise place.error(TypeError, cannot_read("an annotation", exc)) from exc


def return_hint(fn: Callable[..., Any]) -> object:
    """A function's return annotation, resolved as its parameters' are; raises what that raises.

    `inspect.Signature.empty` when it has none.
    """
    annotations = _evaluated(fn)
    if "return" not in annotations:
        return inspect.Signature.empty
    local = {p.__name__: p for p in getattr(fn, "__type_params__", ())}
    found_in = getattr(inspect.unwrap(fn), "__globals__", None)
    return resolved_in(getattr(fn, "__module__", None), annotations["return"], local, found_in)


def flatten(metadata: Iterable[object]) -> Iterator[object]:
    """`Annotated` metadata with grouped metadata (`Interval`, `Len`) unpacked, in order.

    A pydantic `Field` comes itself, for what it sets that is not read to be refused, then what
    is read of it: its description as a `Doc`, and its bounds.
    """
    for meta in metadata:
        # what `isinstance(meta, at.GroupedMetadata)` checks, without a Protocol's slow test
        # (the class `Len` itself says it too, and is reported as not called)
        if not isinstance(meta, type) and getattr(
            meta, "__is_annotated_types_grouped_metadata__", False
        ):
            yield from flatten(typing.cast("Iterable[object]", meta))
        else:
            yield meta
            if (read := unpacked(meta)) is not None:
                yield from flatten(read)


def _read_from(obj: object) -> Any:
    """What `_hints` and `_unreadable` read: a class, or a function's parameters in its namespace.

    A function's `__wrapped__` chain is followed here, for the module it was written in: one
    that loops raises `inspect`'s own `ValueError`, as reading its signature would, and no
    annotation is blamed. Its annotations are read by `_hints`, where reading them may fail.
    """
    if isinstance(obj, type):
        return obj
    return types.SimpleNamespace(
        __annotations__={},
        __globals__=getattr(inspect.unwrap(typing.cast("Any", obj)), "__globals__", {}),
        __module__=getattr(obj, "__module__", None),
        __type_params__=getattr(obj, "__type_params__", ()),
        function=obj,
    )


def _hints(target: Any) -> dict[str, Any]:
    """The hints of what `_read_from` gave; typing's own error if they fail.

    A function's parameter annotations are kept on `target` as they were read, before typing
    resolved them, for `_unreadable` to try each alone without evaluating them again.
    """
    if isinstance(target, type) and te.is_typeddict(target):
        # A TypedDict holds its bases' keys as its own (they are not in its MRO), each quoted
        # name marked with the module that wrote it: no namespace of the class's own module
        # may come first.
        return te.get_type_hints(target, localns={}, include_extras=True)
    if isinstance(target, type):
        return te.get_type_hints(target, include_extras=True)
    # read here: from Python 3.14 reading them evaluates them (PEP 649), which may fail; not the
    # return annotation, no field, which may name what only a type checker imports
    target.__annotations__ = _parameter_annotations(target.function)
    # `localns` not the module's own (typing shares `Optional["Item"]` between modules, and with
    # the module as both namespaces would keep the first module's `Item`), but the function's
    # type parameters (`async def f[T]`): Python 3.12 does not look them up itself
    local = {p.__name__: p for p in target.__type_params__}
    try:
        return te.get_type_hints(
            target, globalns=target.__globals__, localns=local, include_extras=True
        )
    except TypeError:
        return _as_class_body(target, local)


def _as_class_body(target: Any, local: dict[str, Any]) -> dict[str, Any]:
    """A function's parameter hints read as a class body's, where typing refused them.

    Before Python 3.14, typing refuses `Final[X]` and `ClassVar[X]` written as text in a
    function's annotation (`from __future__ import annotations`) with its own `TypeError`,
    naming no parameter; unquoted, or from 3.14, they come whole and the field model says what
    each means. Read as a class's, they come whole on every Python; what else fails there fails
    as it did, and is named.
    """
    return {
        name: resolved_in(target.__module__, hint, local, target.__globals__)
        for name, hint in target.__annotations__.items()
    }


def _unreadable(target: Any, error: type[Exception]) -> str | None:
    """The first field whose annotation alone fails as the whole did in `_hints(target)`.

    Each is read where the whole was: in the function's own namespace, with its type parameters;
    a class's inherited fields in their own class's module, bases first, as typing reads them,
    and (but for a `TypedDict`'s) with the names of the class body after the module's.
    """
    in_body = isinstance(target, type) and not te.is_typeddict(target)
    for owner in reversed(target.__mro__) if isinstance(target, type) else (target,):
        try:
            annotations = _evaluated(owner)
        except Exception:  # noqa: BLE001 - they fail otherwise too (an `__annotate__` that raises)
            return None
        local = {p.__name__: p for p in getattr(owner, "__type_params__", ())}
        module, found_in = getattr(owner, "__module__", None), getattr(owner, "__globals__", None)
        if in_body:  # as `get_type_hints` reads a class: its body's names as the globals
            namespace = getattr(sys.modules.get(typing.cast("str", module)), "__dict__", {})
            local, found_in = {**namespace, **local}, dict(vars(owner))
        for name, hint in annotations.items():
            try:
                resolved_in(module, hint, local, found_in)
            except error:
                return name
            except Exception:  # noqa: BLE001, S112 - another failure: not the one being named
                continue
    return None


def _fields_only(obj: object, annotations: Mapping[str, object]) -> dict[str, object]:
    """A class's annotations, or a function's without its return annotation: it is no field."""
    if isinstance(obj, type):  # a `TypedDict` may have a key named "return"
        return dict(annotations)
    return {k: v for k, v in annotations.items() if k != "return"}


if sys.version_info >= (3, 14):
    import ast

    from annotationlib import Format, get_annotations

    def _parameter_annotations(fn: object) -> dict[str, object]:
        """A function's parameter annotations, without its return annotation.

        Python 3.14 evaluates them all at once, when first read (PEP 649): a return annotation
        naming what only a type checker imports fails them all. A name not defined yet raises
        `NameError` here unless only the return annotation looks it up; else they come evaluated
        as far as they go, one that fails as a `ForwardRef` for `get_type_hints` to try again,
        and name.
        """
        try:
            found = get_annotations(fn)
        except Exception as exc:  # maybe the return annotation's alone
            if isinstance(exc, NameError) and not _only_returns_name(fn, exc.name):
                raise  # in metadata, a `ForwardRef` would stand as the value (`Ge(LIMIT)`)
            found = get_annotations(fn, format=Format.FORWARDREF)
        return _fields_only(fn, found)

    def _only_returns_name(fn: object, name: str | None) -> bool:
        """Whether the return annotation looks up `name`, and no parameter's annotation does.

        A parameter's text may not show the name (a lambda's default, `lambda n, low=LIMIT: ...`,
        shows as `<function <lambda> ...>`) or may not be written at all (an f-string): what
        the return annotation does not name is taken for a parameter's.
        """
        try:
            written = dict(get_annotations(fn, format=Format.STRING))
        except Exception:  # noqa: BLE001 - no text to tell by: it may be a parameter's
            return False
        returns = str(written.pop("return", ""))
        return (
            name is not None
            and name in _looked_up(returns)
            and not any(name in _looked_up(str(text)) for text in written.values())
        )

    def _looked_up(text: str) -> set[str]:
        """The names an annotation's source text looks up: not those in its strings."""
        try:
            tree = ast.parse(text, mode="eval")
        except (SyntaxError, ValueError):  # shown as no source can be (a lambda): every word
            return set(re.findall(r"\w+", text))
        return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}

    def written(obj: object) -> dict[str, object]:
        """Annotations as written, for messages: evaluating them is what failed."""
        try:
            found = get_annotations(obj, format=Format.STRING)
        except Exception:  # noqa: BLE001 - no text (3.14 writes no f-string): no field to name
            return {}
        return _fields_only(obj, found)

    def _evaluated(obj: object) -> dict[str, object]:
        """Annotations as far as they evaluate, one that fails as a `ForwardRef` to try alone."""
        return dict(get_annotations(obj, format=Format.FORWARDREF))

    def unevaluated_signature(obj: Callable[..., Any]) -> inspect.Signature:
        """A signature, for its parameters' names, kinds and defaults: annotations unevaluated."""
        return inspect.signature(obj, annotation_format=Format.FORWARDREF)

    def written_as(doc: str, cls: type[object], signature: inspect.Signature) -> bool:
        """Whether `doc` is `cls`'s name and `signature` as `dataclasses` wrote them.

        It wrote each annotation as it evaluated then, and left out ` -> None` (not ` -> 'None'`,
        from a class's own `__init__` under `from __future__ import annotations`). A name not
        defined yet was a forward reference, which reads otherwise now: shown as its source text
        (`Item`), or inside a type (`list[ForwardRef('Item', ...)]`). Any other text is the
        class's own docstring (`Span(start: the first line)`).
        """
        source = inspect.signature(cls, annotation_format=Format.STRING)
        params = signature.parameters.values()
        shown = signature.replace(
            parameters=[
                p if p.annotation is p.empty else p.replace(annotation=_ANY) for p in params
            ],
            return_annotation=signature.empty,
        )
        texts = [
            _shown_as(p.annotation, source.parameters[p.name].annotation)
            for p in params
            if p.annotation is not p.empty
        ]
        first, *parts = map(re.escape, (cls.__name__ + str(shown)).split(repr(_ANY)))
        pattern = first + "".join(text + part for text, part in zip(texts, parts, strict=True))
        if signature.return_annotation is not signature.empty:
            returns = _shown_as(signature.return_annotation, source.return_annotation)
            pattern += f"(?: -> {returns})?"
        return re.fullmatch(pattern, doc, re.DOTALL) is not None

    def _shown_as(annotation: object, source: object) -> str:
        """A pattern for an annotation as `dataclasses` wrote it: as now, or not yet evaluated."""
        now = re.escape(inspect.formatannotation(annotation))
        return rf"(?:{now}|{re.escape(str(source))}|.*?ForwardRef\(.*?)"

    class _AnyAnnotation:
        """Where an annotation shows in a signature: `written_as` puts its pattern there."""

        def __repr__(self) -> str:
            return "\0"

    _ANY = _AnyAnnotation()

else:

    def _evaluated(obj: object) -> dict[str, object]:
        annotations: dict[str, object] = getattr(obj, "__annotations__", {})
        return annotations

    def written(obj: object) -> dict[str, object]:
        return _fields_only(obj, _evaluated(obj))

    _parameter_annotations = written  # evaluated when the function was defined, as written

    unevaluated_signature = inspect.signature

    def written_as(doc: str, cls: type[object], signature: inspect.Signature) -> bool:
        return doc == cls.__name__ + str(signature).replace(" -> None", "")


_NEW_TYPES = (typing.NewType, te.NewType)  # two classes on Python 3.10


def alias_value(tp: object, alias: Any, where: Where) -> object:
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
        raise where.error(TypeError, cannot_read(type_name(alias), exc)) from exc
    params: tuple[Any, ...] = alias.__type_params__
    arguments = te.get_args(tp) if tp is not alias else ()
    if arguments and any(isinstance(p, (te.ParamSpec, te.TypeVarTuple)) for p in params):
        raise where.error(
            TypeError,
            f"{type_name(alias)} takes a ParamSpec or TypeVarTuple, which stands for no one JSON "
            "type; give the alias plain type parameters, or write the type out",
        )
    if len(arguments) > len(params):
        raise where.error(
            TypeError,
            f"{type_name(alias)} is given {len(arguments)} type arguments and takes at most "
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


def resolved_in(
    module: str | None,
    hint: object,
    local: dict[str, Any] | None = None,
    found_in: dict[str, Any] | None = None,
) -> Any:
    """One hint resolved as an annotation written in `module` (names in strings looked up).

    `local` names what only the annotation's own scope knows: an alias's type parameters.
    `found_in` is the namespace a function looks names up in, where that is not its module's
    (a function made by `exec` in a dict of its own).
    """
    probe = type("probe", (), {"__annotations__": {"hint": hint}, "__module__": module})
    return te.get_type_hints(probe, globalns=found_in, localns=local, include_extras=True)["hint"]
