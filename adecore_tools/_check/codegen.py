"""Generated validators for objects: the checkers of `_compile`, with a fast path in front.

For each object (a tool's input, a `TypedDict`, a dataclass) one function is generated. It reads
every field at once from a plain `dict` of known names, accepts a value whose type is exactly
right with inline tests (`type(v) is str and len(v) <= 100`), and hands anything else to that
field's checker, which has the final word. So the fast path can only say yes to what the checker
would pass unchanged; every refusal, conversion and message comes from the checker.

The source holds no user text and no value: names, bounds and checkers are the validator's
default arguments (closure variables would be one object each for the garbage collector, some
forty a tool), so it is called with the data alone and a quote in a field name cannot break
anything. Objects of the same shape (the same fast paths, field by field) share one compiled
code; a new shape costs a `compile`, which takes longer than the rest of declaring a tool (the
guide's "Speed"), so it is made on a tool's first check. Each source is registered in
`linecache`, so a traceback through a validator shows it; a factory gone leaves its name to the
next one.
"""

from __future__ import annotations

import functools
import itertools
import linecache
import operator
import types
import typing
import weakref
from collections.abc import Callable, Hashable
from typing import Any

from .._model.frozen import Frozen
from .._model.memo import once
from .._model.nodes import Array, Bound, Choice, Constrained, Node, Nullable, Object, Scalar, bare
from .._model.problems import Invalid, add, combine, merge

__all__ = [
    "ABSENT",
    "DATACLASS",
    "DEFAULT",
    "KWARGS",
    "MAKE",
    "MISSING_FIELD",
    "TYPEDDICT",
    "Part",
    "Plan",
    "fast_path",
    "object_validator",
]

KWARGS = "kwargs"
"""A tool's input: every field is passed on, one left out as its default."""
TYPEDDICT = "typeddict"
"""A `TypedDict`: a key left out stays out."""
DATACLASS = "dataclass"
"""A dataclass: built from the fields given, the class fills in its own defaults."""

MISSING_FIELD = "missing"
"""Left out, the field is a problem (`left_out` is that problem)."""
DEFAULT = "default"
"""Left out, the field takes `left_out`, shared (an immutable value)."""
MAKE = "make"
"""Left out, the field takes `left_out()`, a fresh copy of a mutable default."""
ABSENT = "absent"
"""Left out, the field stays out of what is passed on."""

Checker = Callable[[Any], Any]


class Plan(Frozen):
    """Everything the generated validator of one object needs, decided by `_compile`."""

    __slots__ = ("mode", "names", "parts", "clean", "build")
    mode: str
    names: tuple[str, ...]
    parts: tuple[Part, ...]
    clean: Callable[[Any], tuple[dict[str, Any] | None, Invalid | None]]
    build: Callable[[dict[str, Any]], Any] | None

    def __init__(
        self,
        *,
        mode: str,
        names: tuple[str, ...],
        parts: tuple[Part, ...],
        clean: Callable[[Any], tuple[dict[str, Any] | None, Invalid | None]],
        build: Callable[[dict[str, Any]], Any] | None,
    ) -> None:
        self._set(mode, names, parts, clean, build)


class Part:
    """What one field brings to its object's validator: checker, value left out, fast path.

    Made once per shared field (`_compile`) and never compared: a plain class, cheap to make.
    """

    __slots__ = ("checker", "kind", "left_out", "lines", "values")

    def __init__(self, checker: Checker, kind: str, left_out: object, fast: _Fast) -> None:
        self.checker = checker
        self.kind = kind
        self.left_out = _ABSENT if kind == ABSENT else left_out
        self.lines = fast.lines
        self.values = fast.values


class _Fast(Frozen):
    """The fast path of one field: its lines, and the values they name `_c<field>_<n>`."""

    __slots__ = ("lines", "values")
    lines: tuple[str, ...]
    values: tuple[object, ...]

    def __init__(self, lines: tuple[str, ...], values: tuple[object, ...]) -> None:
        self._set(lines, values)


_ABSENT: Any = object()
_INF = float("inf")
_SHARED = ("_known", "_clean", "_Invalid", "_add", "_merge", "_combine", "_ABSENT", "_build")
_FACTORIES: dict[Hashable, Callable[[tuple[object, ...]], Checker]] = {}
_SHAPE_NUMBERS = itertools.count()
_FREE_NAMES: list[str] = []
"""The `linecache` names of factories gone, for a compile to reuse: an entry is replaced, never
deleted, as deleting one while `linecache.checkcache()` runs raises `KeyError` there."""


def object_validator(plan: Plan) -> Checker:
    """The validator for one object, from the factory of its shape."""
    fields = tuple((p.kind, p.lines, len(p.values)) for p in plan.parts)
    factory = once(_FACTORIES, (plan.mode, fields), _factory, plan.mode, fields)
    arguments: list[object] = [
        frozenset(plan.names),
        plan.clean,
        Invalid,
        add,
        merge,
        combine,
        _ABSENT,
        plan.build,
    ]
    for name, p in zip(plan.names, plan.parts, strict=True):
        arguments += (name, p.checker, p.left_out, *p.values)
    return factory(tuple(arguments))


def _factory(mode: str, fields: _Shape) -> Callable[[tuple[object, ...]], Checker]:
    """The compiled factory of one shape of object: the validator's code, given its arguments.

    A validator is that code as a function whose parameters after `data` default to the
    arguments: no wrapping function to compile and call, whose parameters would be written twice.
    """
    text = _source(mode, fields)
    try:
        filename = _FREE_NAMES.pop()
    except IndexError:
        filename = f"<adecore_tools validator {next(_SHAPE_NUMBERS)}>"
    namespace: dict[str, Any] = {}
    exec(compile(text, filename, "exec"), namespace)  # noqa: S102 - our own templates, no user text
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    # The factory holds the namespace, and every validator it makes holds it as its globals:
    # once the last is gone, so is the marker, and the name is free for the next compile (each
    # compile after the cache was emptied kept 8 KB). The function leaves the namespace: no
    # cycle, so that is at once.
    code = namespace.pop("check_object").__code__
    namespace["_compiled"] = marker = _Compiled()
    weakref.finalize(marker, _FREE_NAMES.append, filename).atexit = False
    return functools.partial(types.FunctionType, code, namespace, "check_object")


class _Compiled:
    """What a factory's namespace holds, so its end can be seen (a dict is not weakly referable)."""

    __slots__ = ("__weakref__",)


_Shape = tuple[tuple[str, tuple[str, ...], int], ...]
"""Per field: what happens when it is left out, its fast-path lines, how many values they name."""


def _source(mode: str, fields: _Shape) -> str:
    params = list(_SHARED)
    for i, (_, _, count) in enumerate(fields):
        params += [f"_k{i}", f"_check{i}", f"_left{i}", *(f"_c{i}_{n}" for n in range(count))]
    count = len(fields)
    indexed = "; ".join(f"v{i} = data[_k{i}]" for i in range(count)) or "pass"
    got = "; ".join(f"v{i} = data.get(_k{i})" for i in range(count)) or "pass"
    body = [
        # A plain dict holding every known name and nothing else, the usual case, is read by
        # index; one holding some of them by `get`; anything else (unknown or odd keys, another
        # kind of mapping, no mapping) is read by the checker's own `_clean`. Odd keys can
        # raise from their `__eq__` or `__hash__`: that too goes to `_clean`. A plain dict's
        # keys compare as the dict compares them: testing each key's type first would cost
        # 15% of a valid call, for keys no JSON holds (guide, "Guarantees").
        "ok = False",
        "if type(data) is dict:",
        "    try:",
        f"        if len(data) == {count}:",
        f"            {indexed}",
        "            ok = True",
        "    except Exception:",
        "        pass",
        "    if not ok:",
        "        try:",
        "            if data.keys() <= _known:",
        f"                {got}",
        "                ok = True",
        "        except Exception:",
        "            pass",
        "unknown = None",
        "if not ok:",
        "    data, unknown = _clean(data)",
        "    if data is None:",
        "        return unknown",
        f"    {got}",
        "problems = None",
    ]
    for i, (kind, lines, _) in enumerate(fields):
        body.append(f"if v{i} is None:")
        body.append(f"    {_LEFT_OUT[kind].format(i=i)}")
        body.append("else:")
        body.extend(f"    {line}" for line in lines)
    body.append("if unknown is not None:")
    body.append("    return _combine(problems, unknown)")
    body.append("if problems is not None:")
    body.append("    return problems")
    body.extend(_result(mode, fields))
    head = f"def check_object(data, {', '.join(params)}):\n"
    return head + "\n".join(f"    {line}" for line in body) + "\n"


_LEFT_OUT = {
    MISSING_FIELD: "problems = _add(problems, _left{i})",
    DEFAULT: "v{i} = _left{i}",
    MAKE: "v{i} = _left{i}()",
    ABSENT: "v{i} = _ABSENT",
}


def _result(mode: str, fields: _Shape) -> list[str]:
    kept = ", ".join(f"_k{i}: v{i}" for i, (kind, _, _) in enumerate(fields) if kind != ABSENT)
    lines = [f"out = {{{kept}}}"]
    for i, (kind, _, _) in enumerate(fields):
        if kind == ABSENT:
            lines += (f"if v{i} is not _ABSENT:", f"    out[_k{i}] = v{i}")
    lines.append("return out" if mode != DATACLASS else "return _build(out)")
    return lines


# --- the fast path for one value --------------------------------------------------------------


class _Values:
    """The values a field's fast path names, as `_c<field>_<n>`."""

    __slots__ = ("field", "values")

    def __init__(self, field: int) -> None:
        self.field = field
        self.values: list[object] = []

    def ref(self, value: object) -> str:
        self.values.append(value)
        return f"_c{self.field}_{len(self.values) - 1}"


def fast_path(node: Node, i: int) -> _Fast:
    """Lines that leave in `v<i>` what the function receives, or add its problems."""
    node = bare(node)  # None never reaches here: for a field it means left out
    values = _Values(i)
    value = f"v{i}"
    # the field's checker, for a value the fast path did not take: its result or its problems
    slow = (
        f"{value} = _check{i}({value})",
        f"if isinstance({value}, _Invalid):",
        f"    problems = _merge(problems, _k{i}, {value})",
    )
    refused = _refused(node, value, values)
    if refused is not None:
        return _Fast((f"if {refused}:", *_indent(slow)), tuple(values.values))
    if isinstance(node, Choice) and node.json_type in _EXACT:
        table = values.ref(dict(zip(node.values, node.outputs, strict=True)))
        found = f"{table}.get({value}) if type({value}) is {_EXACT[node.json_type]} else None"
        lines = (
            f"found = {found}",
            "if found is None:",
            *_indent(slow),
            "else:",
            f"    {value} = found",
        )
        return _Fast(lines, tuple(values.values))
    array = _array_lines(node, value, slow, values)
    return _Fast(array or slow, tuple(values.values))


def _indent(lines: tuple[str, ...], depth: int = 1) -> tuple[str, ...]:
    return tuple("    " * depth + line for line in lines)


_EXACT = {"string": "str", "integer": "int", "boolean": "bool"}


def _refused(node: Node, value: str, values: _Values) -> str | None:
    """An expression true unless `value` is of exactly the node's type and within its bounds.

    Only for nodes whose checker passes such a value on unchanged; None for any other node.
    """
    if isinstance(node, Scalar):
        if node.kind is float:
            inf = values.ref(_INF)
            return f"type({value}) is not float or not -{inf} < {value} < {inf}"
        return f"type({value}) is not {node.kind.__name__}"
    if isinstance(node, Choice) and _passed_as_sent(node) and node.json_type in _EXACT:
        choices = values.ref(frozenset(node.values))
        return f"type({value}) is not {_EXACT[node.json_type]} or {value} not in {choices}"
    if isinstance(node, Constrained) and not node.transforms:
        inner = _refused(node.inner, value, values)
        kind = node.inner.kind if isinstance(node.inner, Scalar) else None
        bounds = [_holds(bound, value, values, kind) for bound in node.bounds]
        if inner is not None and None not in bounds:
            tests = typing.cast("list[str]", bounds)
            return f"{inner} or not ({' and '.join(tests)})" if tests else inner
    return None


def _passed_as_sent(node: Choice) -> bool:
    """Whether the function gets the very value sent (a `Literal`), not a member for it (`Enum`).

    Compared by identity: an `IntEnum` or `StrEnum` member equals its value.
    """
    return all(map(operator.is_, node.values, node.outputs))


def _holds(bound: Bound, value: str, values: _Values, kind: type | None = None) -> str | None:
    """An expression true when `value` (already of `kind`, the right type) meets the bound."""
    return bound.rule.inline(bound.limit, value, values.ref, kind)


def _array_lines(
    node: Node, value: str, slow: tuple[str, ...], values: _Values
) -> tuple[str, ...] | None:
    """A loop over a plain list whose items all need only an inline test, else None."""
    bounds: list[str | None] = []
    if isinstance(node, Constrained) and not node.transforms:
        bounds = [_holds(bound, value, values) for bound in node.bounds]
        node = node.inner
    if not isinstance(node, Array) or None in bounds or (bounds and node.kind in (set, frozenset)):
        return None
    item = f"{value}_item"
    fits = " and ".join([f"type({value}) is list", *(b for b in bounds if b)])
    refused = _refused(node.items, item, values)
    if refused is None:
        return _object_items(node, value, fits, slow, values)
    copy = f"{value}[:]" if node.kind is list else f"{node.kind.__name__}({value})"
    return (
        f"if {fits}:",
        f"    for {item} in {value}:",
        f"        if {refused}:",
        *_indent(slow, 3),
        "            break",
        "    else:",
        f"        {value} = {copy}",
        "else:",
        *_indent(slow),
    )


def _object_items(
    node: Array, value: str, fits: str, slow: tuple[str, ...], values: _Values
) -> tuple[str, ...] | None:
    """A loop that reads a list of plain `TypedDict` objects inline, item by item, else None.

    Only for objects whose every key is required and needs only an inline test: the loop takes
    an item holding exactly those keys, each of exactly the right type and within its bounds, and
    builds its dict as the object's own validator would; at the first item that is anything
    else, the list goes to the field's checker.
    """
    shape = node.items
    if not isinstance(shape, Object) or shape.is_dataclass or node.kind not in (list, tuple):
        return None
    keys: list[str] = []
    tests: list[str] = []
    for n, f in enumerate(shape.fields):
        if not f.required or isinstance(f.type, Nullable):
            return None
        got = f"{value}_{n}"
        refused = _refused(f.type, got, values)
        if refused is None:
            return None
        keys.append(values.ref(f.name))
        tests.append(refused)
    item, out, add = f"{value}_item", f"{value}_out", f"{value}_add"
    reads = [f"{value}_{n} = {item}[{key}]" for n, key in enumerate(keys)]
    made = ", ".join(f"{key}: {value}_{n}" for n, key in enumerate(keys))
    built = out if node.kind is list else f"tuple({out})"
    return (
        f"{out} = None",
        f"if {fits}:",
        "    try:",
        f"        {out} = []",
        f"        {add} = {out}.append",
        f"        for {item} in {value}:",
        f"            if type({item}) is dict and len({item}) == {len(keys)}:",
        *_indent(tuple(reads), 4),
        f"                if not ({' or '.join(f'({t})' for t in tests)}):",
        f"                    {add}({{{made}}})",
        "                    continue",
        f"            {out} = None",
        "            break",
        "    except Exception:  # a key missing, or a hostile one: the checker says which",
        f"        {out} = None",
        f"if {out} is None:",
        *_indent(slow),
        "else:",
        f"    {value} = {built}",
    )
