"""The floor: the benchmark's rules checked by hand, as a competent engineer writes them in Python.

This is what pure Python can do when a person writes one validator per tool by hand: exact type
tests, the rules inlined, every problem collected with its path, and a new dict with the defaults
filled in. The library's generated validators are measured against it.

The rules are the library's for these two tools, minus conversions no benchmark input
takes (a float with an integral value for an int, `str`/`int` subclasses, a non-dict mapping for
a nested object):
- the input is a dict (a non-dict mapping is read into one; `None` means no fields);
- `None` for a field means left out; a missing required field is a problem;
- str, int, bool and list are tested by exact type, so `True` is never an int;
- text: 1 to 200 characters; limit: at least 0; tags: a list (or tuple) of strings, passed on as
  a new list; mode: "fast" or "slow";
- unknown keys are refused, after the fields' problems, in input order;
- at most 10 problems are listed, then `and N more`.

`declare` is the floor of the `define` workload: the least any library does to declare a tool of
these field kinds (see its docstring).
"""

import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

import annotated_types as at

NOTE_TEXT_MAX = 200
ITEM_COUNT_BELOW = 1000
LIMIT = 10

_NOTE_FIELDS = frozenset(("text", "limit", "exact", "tags", "mode"))
_MODES = frozenset(("fast", "slow"))
_ITEM_FIELDS = frozenset(("name", "count"))
_BATCH_FIELDS = frozenset(("items",))
_ECHO = 32


class Refused(Exception):  # noqa: N818 - named for what it means here, like ToolRefusal
    """The input is refused; `message` lists the problems found."""

    def __init__(self, problems: list[str]) -> None:
        """Build the message: the first ten problems, then how many more there are."""
        shown = problems[:LIMIT]
        if len(problems) > LIMIT:
            shown.append(f"and {len(problems) - LIMIT} more")
        self.message = "; ".join(shown)
        super().__init__(self.message)


def show(value: object) -> str:  # noqa: PLR0911 - one return per kind of value
    """A short picture of a value from the input, in JSON's words."""
    if value is None or value is True or value is False:
        return json.dumps(value)
    if type(value) is str:
        if len(value) > _ECHO:
            return f"{json.dumps(value[:_ECHO])} ({len(value)} characters)"
        return json.dumps(value)
    if type(value) is int or type(value) is float:
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__} value"


def _as_dict(data: object, path: str) -> dict[Any, Any]:
    """A non-dict object read into a dict, or `Refused` naming what came.

    `None` is no fields for the whole input; inside a list it is a value, and refused.
    """
    if data is None and not path:
        return {}
    if isinstance(data, Mapping):
        return dict(data.items())
    prefix = f"{path}: " if path else ""
    raise Refused([f"{prefix}expected an object, got {show(data)}"])


def _unknown(data: dict[Any, Any], known: frozenset[str], problems: list[str], path: str) -> None:
    problems.extend(f"{path}{key}: unknown field" for key in data if key not in known)


def check_note(data: Any) -> dict[str, Any]:  # noqa: C901, PLR0912 - one branch per rule, inlined
    """The keyword arguments of the five-field tool, or `Refused`."""
    if type(data) is not dict:
        data = _as_dict(data, "")
    problems: list[str] = []

    text = data.get("text")
    if text is None:
        problems.append("text: missing, expected a string")
    elif type(text) is not str:
        problems.append(f"text: expected a string, got {show(text)}")
    elif len(text) > NOTE_TEXT_MAX:
        problems.append(f"text: expected at most {NOTE_TEXT_MAX} characters, got {len(text)}")
    elif not text:
        problems.append("text: expected at least 1 character, got 0")

    limit = data.get("limit")
    if limit is not None:
        if type(limit) is not int:
            problems.append(f"limit: expected an integer, got {show(limit)}")
        elif limit < 0:
            problems.append(f"limit: expected at least 0, got {limit}")

    exact = data.get("exact")
    if exact is None:
        exact = False
    elif type(exact) is not bool:
        problems.append(f"exact: expected a boolean, got {show(exact)}")

    tags = data.get("tags")
    if tags is None:
        problems.append("tags: missing, expected an array")
    elif type(tags) is not list and type(tags) is not tuple:
        problems.append(f"tags: expected an array, got {show(tags)}")
    else:
        for i, tag in enumerate(tags):
            if type(tag) is not str:
                problems.append(f"tags[{i}]: expected a string, got {show(tag)}")
        tags = list(tags)

    mode = data.get("mode")
    if mode is None:
        problems.append('mode: missing, expected one of "fast", "slow"')
    elif type(mode) is not str or mode not in _MODES:
        problems.append(f'mode: expected one of "fast", "slow", got {show(mode)}')

    if not data.keys() <= _NOTE_FIELDS:
        _unknown(data, _NOTE_FIELDS, problems, "")
    if problems:
        raise Refused(problems)
    return {"text": text, "limit": limit, "exact": exact, "tags": tags, "mode": mode}


def check_batch(data: Any) -> dict[str, Any]:
    """The keyword arguments of the `scale` tool (a list of items), or `Refused`."""
    if type(data) is not dict:
        data = _as_dict(data, "")
    problems: list[str] = []
    items = data.get("items")
    if items is None:
        problems.append("items: missing, expected an array")
    elif type(items) is not list and type(items) is not tuple:
        problems.append(f"items: expected an array, got {show(items)}")
    else:
        checked: list[dict[str, Any]] = []
        append = checked.append
        for i, item in enumerate(items):
            if type(item) is dict and len(item) == 2:
                name = item.get("name")
                count = item.get("count")
                if type(name) is str and type(count) is int and 0 <= count < ITEM_COUNT_BELOW:
                    append({"name": name, "count": count})
                    continue
            append(_check_item(item, f"items[{i}]", problems))
        items = checked
    if not data.keys() <= _BATCH_FIELDS:
        _unknown(data, _BATCH_FIELDS, problems, "")
    if problems:
        raise Refused(problems)
    return {"items": items}


def _check_item(item: object, path: str, problems: list[str]) -> dict[str, Any]:
    """The slow path for one item: every problem it has, with its path."""
    try:
        data = item if type(item) is dict else _as_dict(item, path)
    except Refused as refused:
        problems.append(refused.message)
        return {}
    name = data.get("name")
    if name is None:
        problems.append(f"{path}.name: missing, expected a string")
    elif type(name) is not str:
        problems.append(f"{path}.name: expected a string, got {show(name)}")
    count = data.get("count")
    if count is None:
        problems.append(f"{path}.count: missing, expected an integer")
    elif type(count) is not int:
        problems.append(f"{path}.count: expected an integer, got {show(count)}")
    elif count < 0:
        problems.append(f"{path}.count: expected at least 0, got {count}")
    elif count >= ITEM_COUNT_BELOW:
        problems.append(f"{path}.count: expected less than {ITEM_COUNT_BELOW}, got {count}")
    if not data.keys() <= _ITEM_FIELDS:
        _unknown(data, _ITEM_FIELDS, problems, f"{path}.")
    return {"name": name, "count": count}


# --- define: the least a declaration does -------------------------------------------------------

FieldCheck = Callable[[Any, str, list[str]], Any]
"""One field's check: the value to pass on, or a problem appended (behind the field's path)."""


def declare(fn: Callable[..., Any]) -> tuple[Callable[[Any], dict[str, Any]], dict[str, Any]]:
    """A tool function of the benchmark's field kinds declared by hand: its validator and listing.

    The least any library does to declare a tool: its parameters read with `inspect.signature`
    and their hints with `typing.get_type_hints`, a check chosen for each field, and
    its MCP listing entry written. A field's check and schema are made once per hint, as the
    library makes its own (the four field types the tools share are read once). Nothing else: no
    name or description is checked, no mistake in the declaration is explained, and only `str`,
    `int`, `bool`, a `list`, a `Literal`, `X | None`, `MinLen`, `MaxLen` and `Ge` are read.
    """
    hints = typing.get_type_hints(fn, include_extras=True)
    fields: list[tuple[str, FieldCheck, object]] = []
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, parameter in inspect.signature(fn).parameters.items():
        check, properties[name] = _field(hints[name])
        if parameter.default is parameter.empty:
            required.append(name)
        fields.append((name, check, parameter.default))
    known = frozenset(properties)

    def validate(data: Any) -> dict[str, Any]:
        if type(data) is not dict:
            data = _as_dict(data, "")
        problems: list[str] = []
        out: dict[str, Any] = {}
        for name, check, default in fields:
            value = data.get(name)
            if value is not None:
                out[name] = check(value, name, problems)
            elif default is inspect.Parameter.empty:
                problems.append(f"{name}: missing")
            else:
                out[name] = default
        if not data.keys() <= known:
            _unknown(data, known, problems, "")
        if problems:
            raise Refused(problems)
        return out

    schema = {"type": "object", "properties": properties, "required": required}
    entry = {
        "name": fn.__name__,
        "description": inspect.cleandoc(fn.__doc__ or ""),
        "inputSchema": schema,
        "annotations": {"readOnlyHint": False, "destructiveHint": False},
    }
    return validate, entry


_FIELDS: dict[Any, tuple[FieldCheck, dict[str, Any]]] = {}
"""Each hint's check and schema, made once (the benchmark's hints are all hashable)."""


def _field(hint: Any) -> tuple[FieldCheck, dict[str, Any]]:
    """A field's check and schema, made once per hint."""
    if (made := _FIELDS.get(hint)) is None:
        made = _FIELDS[hint] = _make_field(hint)
    return made


def _make_field(hint: Any) -> tuple[FieldCheck, dict[str, Any]]:  # noqa: C901 - one branch per kind
    """A field's check and schema; a hint of none of the benchmark's kinds raises `TypeError`."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        (hint,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]  # `X | None`
    bounds: tuple[Any, ...] = ()
    if typing.get_origin(hint) is Annotated:
        hint, *metadata = typing.get_args(hint)
        bounds = tuple(metadata)
    least = next((b.min_length for b in bounds if isinstance(b, at.MinLen)), 0)
    most = next((b.max_length for b in bounds if isinstance(b, at.MaxLen)), None)
    lowest: Any = next((b.ge for b in bounds if isinstance(b, at.Ge)), None)
    if hint is str:

        def check_str(value: Any, path: str, problems: list[str]) -> Any:
            if type(value) is not str:
                problems.append(f"{path}: expected a string, got {show(value)}")
            elif len(value) < least or (most is not None and len(value) > most):
                problems.append(f"{path}: expected {least} to {most} characters, got {len(value)}")
            return value

        return check_str, {"type": "string"}
    if hint is int:

        def check_int(value: Any, path: str, problems: list[str]) -> Any:
            if type(value) is not int:
                problems.append(f"{path}: expected an integer, got {show(value)}")
            elif lowest is not None and value < lowest:
                problems.append(f"{path}: expected at least {lowest}, got {value}")
            return value

        return check_int, {"type": "integer"}
    if hint is bool:

        def check_bool(value: Any, path: str, problems: list[str]) -> Any:
            if type(value) is not bool:
                problems.append(f"{path}: expected a boolean, got {show(value)}")
            return value

        return check_bool, {"type": "boolean"}
    if typing.get_origin(hint) is list:
        check_item, item_schema = _field(typing.get_args(hint)[0])

        def check_list(value: Any, path: str, problems: list[str]) -> Any:
            if type(value) is not list and type(value) is not tuple:
                problems.append(f"{path}: expected an array, got {show(value)}")
                return value
            return [check_item(item, f"{path}[{i}]", problems) for i, item in enumerate(value)]

        return check_list, {"type": "array", "items": item_schema}
    if typing.get_origin(hint) is Literal:
        choices = typing.get_args(hint)
        allowed = frozenset(choices)
        phrase = ", ".join(json.dumps(choice) for choice in choices)

        def check_choice(value: Any, path: str, problems: list[str]) -> Any:
            if type(value) is not str or value not in allowed:
                problems.append(f"{path}: expected one of {phrase}, got {show(value)}")
            return value

        return check_choice, {"type": "string", "enum": list(choices)}
    msg = f"the floor declares only the benchmark's field kinds, not {hint!r}"
    raise TypeError(msg)
