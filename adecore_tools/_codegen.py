"""Generated validators for objects: the checkers of `_compile`, with a fast path in front.

For each object (a tool's input, a `TypedDict`, a dataclass) one function is generated. It reads
every field at once from a plain `dict` of known names, accepts a value whose type is exactly
right with inline tests (`type(v) is str and len(v) <= 100`), and hands anything else to that
field's checker, which has the final word. So the fast path can only say yes to what the checker
would pass unchanged; every refusal, conversion and message comes from the checker.

The source holds no user text and no value: names, bounds and checkers reach it as arguments of a
factory, so tools of the same shape share one compiled code object (one `compile` per shape, a
closure per tool) and a quote in a field name cannot break anything. Each source is registered in
`linecache`, so a traceback through a validator shows its lines.
"""

from __future__ import annotations

import itertools
import linecache
from collections.abc import Callable
from typing import Any, NamedTuple

import annotated_types as at

from ._fields import Array, Choice, Constrained, Field, Node, Nullable, RequiredField, Scalar
from ._problems import Invalid, Problem, add, combine, merge

__all__ = ["DATACLASS", "KWARGS", "TYPEDDICT", "Plan", "object_validator"]

KWARGS = "kwargs"
"""A tool's input: every field is passed on, a field left out as its default."""
TYPEDDICT = "typeddict"
"""A `TypedDict`: a key left out stays out."""
DATACLASS = "dataclass"
"""A dataclass: built from the fields sent, the class fills in its own defaults."""

Checker = Callable[[Any], Any]


class Plan(NamedTuple):
    """Everything the generated validator of one object needs, decided by `_compile`."""

    mode: str
    fields: tuple[Field, ...]
    checkers: tuple[Checker, ...]
    missing: tuple[Problem, ...]
    defaults: tuple[Callable[[], Any] | None, ...]
    clean: Callable[[Any], tuple[dict[str, Any], Invalid | None]]
    build: Callable[[dict[str, Any]], Any] | None


_ABSENT: Any = object()
_INF = float("inf")
_FACTORIES: dict[str, Callable[..., Checker]] = {}
_SHAPE_NUMBERS = itertools.count()


def object_validator(plan: Plan) -> Checker:
    """The validator for one object, from the factory of its shape."""
    source = _Source()
    body = _body(plan, source)
    params = ", ".join(source.names)
    text = f"def make({params}):\n    def check_object(data):\n{body}\n    return check_object\n"
    factory = _FACTORIES.get(text)
    if factory is None:
        factory = _FACTORIES.setdefault(text, _compile(text))
    return factory(*source.values)


def _compile(text: str) -> Callable[..., Checker]:
    filename = f"<adecore_tools validator {next(_SHAPE_NUMBERS)}>"
    namespace: dict[str, Any] = {}
    exec(compile(text, filename, "exec"), namespace)  # noqa: S102 - source built above from our own templates, no user text
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    return namespace["make"]  # type: ignore[no-any-return]


class _Source:
    """The factory's arguments: each value the source refers to, under a generated name."""

    __slots__ = ("names", "values")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.values: list[object] = []

    def ref(self, value: object, prefix: str) -> str:
        name = f"{prefix}{len(self.names)}"
        self.names.append(name)
        self.values.append(value)
        return name


def _body(plan: Plan, src: _Source) -> str:
    fields = plan.fields
    keys = [src.ref(f.name, "_k") for f in fields]
    known = src.ref(frozenset(f.name for f in fields), "_known")
    clean = src.ref(plan.clean, "_clean")
    invalid = src.ref(Invalid, "_Invalid")
    merge_ = src.ref(merge, "_merge")
    values = [f"v{i}" for i in range(len(fields))]
    indexed = "; ".join(f"{v} = data[{k}]" for v, k in zip(values, keys, strict=True)) or "pass"
    got = "; ".join(f"{v} = data.get({k})" for v, k in zip(values, keys, strict=True)) or "pass"
    lines = [
        "try:",
        f"    ok = type(data) is dict and data.keys() <= {known}",
        "    if ok:",
        f"        if len(data) == {len(fields)}:",
        f"            {indexed}",
        "        else:",
        f"            {got}",
        "except Exception:",
        "    ok = False",
        "unknown = None",
        "if not ok:",
        f"    data, unknown = {clean}(data)",
        f"    {got}",
        "problems = None",
    ]
    for i, f in enumerate(fields):
        value = values[i]
        lines.append(f"if {value} is None:")
        lines.extend(f"    {line}" for line in _left_out(plan, i, value, src))
        lines.append("else:")
        lines.append("    try:")
        lines.extend(f"        {line}" for line in _accept(f.type, value, plan.checkers[i], src))
        lines.append(f"    except {invalid} as exc:")
        lines.append(f"        problems = {merge_}(problems, {keys[i]}, exc)")
    lines.append("if problems is not None or unknown is not None:")
    lines.append(f"    raise {src.ref(combine, '_combine')}(problems, unknown)")
    lines.extend(_result(plan, keys, values, src))
    return "\n".join(f"        {line}" for line in lines)


def _left_out(plan: Plan, i: int, value: str, src: _Source) -> list[str]:
    f = plan.fields[i]
    if f.required:
        return [
            f"problems = {src.ref(add, '_add')}(problems, {src.ref(plan.missing[i], '_missing')})"
        ]
    if plan.mode == KWARGS:
        make = plan.defaults[i]
        if make is not None:
            return [f"{value} = {src.ref(make, '_default')}()"]
        return [f"{value} = {src.ref(f.default, '_default')}"]
    if plan.mode == DATACLASS and f.default is None:
        return [f"{value} = None"]
    return [f"{value} = {src.ref(_ABSENT, '_ABSENT')}"]


def _result(plan: Plan, keys: list[str], values: list[str], src: _Source) -> list[str]:
    pairs = zip(plan.fields, keys, values, strict=True)
    if plan.mode == KWARGS:
        return [f"return {{{', '.join(f'{k}: {v}' for _, k, v in pairs)}}}"]
    lines = [f"out = {{{', '.join(f'{k}: {v}' for f, k, v in pairs if _always_out(plan, f))}}}"]
    for f, k, v in zip(plan.fields, keys, values, strict=True):
        if not _always_out(plan, f):
            lines.append(f"if {v} is not {src.ref(_ABSENT, '_ABSENT')}:")
            lines.append(f"    out[{k}] = {v}")
    if plan.build is not None:
        lines.append(f"return {src.ref(plan.build, '_build')}(out)")
    else:
        lines.append("return out")
    return lines


def _always_out(plan: Plan, f: Field) -> bool:
    return f.required or (plan.mode == DATACLASS and f.default is None)


# --- the fast path for one value --------------------------------------------------------------


def _accept(node: Node, value: str, checker: Checker, src: _Source) -> list[str]:
    """Lines that leave in `value` what the function receives, or raise `Invalid`."""
    if isinstance(node, Nullable):
        node = node.inner  # None never reaches here: for a field it means left out
    check = src.ref(checker, "_check")
    slow = f"{value} = {check}({value})"
    refused = _refused(node, value, src)
    if refused is not None:
        return [f"if {refused}:", f"    {slow}"]
    if isinstance(node, Choice) and node.json_type in _EXACT:
        table = src.ref(dict(zip(node.values, node.outputs, strict=True)), "_members")
        found = f"{table}.get({value}) if type({value}) is {_EXACT[node.json_type]} else None"
        return [f"found = {found}", f"{value} = {check}({value}) if found is None else found"]
    array = _array_lines(node, value, slow, src)
    return array if array is not None else [slow]


_EXACT = {"string": "str", "integer": "int", "boolean": "bool"}


def _refused(node: Node, value: str, src: _Source) -> str | None:
    """An expression true unless `value` is of exactly the node's type and within its bounds.

    Only for nodes whose checker passes such a value on unchanged; None for any other node.
    """
    if isinstance(node, Scalar):
        if node.kind is float:
            inf = src.ref(_INF, "_inf")
            return f"type({value}) is not float or not -{inf} < {value} < {inf}"
        return f"type({value}) is not {node.kind.__name__}"
    if isinstance(node, Choice) and node.values == node.outputs and node.json_type in _EXACT:
        choices = src.ref(frozenset(node.values), "_choices")
        return f"type({value}) is not {_EXACT[node.json_type]} or {value} not in {choices}"
    if isinstance(node, Constrained) and not node.transforms:
        inner = _refused(node.inner, value, src)
        bounds = [_holds(check, value, src) for check in node.checks]
        if inner is not None and None not in bounds:
            return f"{inner} or not ({' and '.join(bounds)})" if bounds else inner  # type: ignore[arg-type]
    return None


def _holds(check: object, value: str, src: _Source) -> str | None:  # noqa: PLR0911 - one per bound
    """An expression true when `value` (already of the right type) meets the check."""
    if isinstance(check, at.Gt):
        return f"{value} > {src.ref(check.gt, '_bound')}"
    if isinstance(check, at.Ge):
        return f"{value} >= {src.ref(check.ge, '_bound')}"
    if isinstance(check, at.Lt):
        return f"{value} < {src.ref(check.lt, '_bound')}"
    if isinstance(check, at.Le):
        return f"{value} <= {src.ref(check.le, '_bound')}"
    if isinstance(check, at.MultipleOf):
        return f"{value} % {src.ref(check.multiple_of, '_step')} == 0"
    if isinstance(check, at.MinLen):
        return f"len({value}) >= {src.ref(check.min_length, '_length')}"
    if isinstance(check, at.MaxLen):
        return f"len({value}) <= {src.ref(check.max_length, '_length')}"
    if isinstance(check, RequiredField):
        return f"{value} and not {value}.isspace()"
    return None


def _array_lines(node: Node, value: str, slow: str, src: _Source) -> list[str] | None:
    """A loop over a plain list whose items all need only an inline test, else None."""
    bounds: list[str | None] = []
    if isinstance(node, Constrained) and not node.transforms:
        bounds = [_holds(check, value, src) for check in node.checks]
        node = node.inner
    if not isinstance(node, Array) or None in bounds or (bounds and node.kind in (set, frozenset)):
        return None
    item = f"{value}_item"
    refused = _refused(node.items, item, src)
    if refused is None:
        return None
    fits = " and ".join([f"type({value}) is list", *(b for b in bounds if b)])
    copy = f"{value}[:]" if node.kind is list else f"{node.kind.__name__}({value})"
    return [
        f"if {fits}:",
        f"    for {item} in {value}:",
        f"        if {refused}:",
        f"            {slow}",
        "            break",
        "    else:",
        f"        {value} = {copy}",
        "else:",
        f"    {slow}",
    ]
