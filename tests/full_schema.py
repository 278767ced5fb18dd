"""Test-only: a tool's FULL JSON Schema (Draft 2020-12), rendered from its field model.

`tool_input_schema` is what an MCP client lists, and it leaves bounds, `additionalProperties`,
null branches and every union branch but the first out of it. The differential tests need the
whole contract instead, so this renders, from `tool.input.fields` alone (never from the
library's own schema code):

- every bound: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
  `minLength` / `maxLength` (strings), `minItems` / `maxItems` (arrays), `minProperties` /
  `maxProperties` (records); `required_field` as `minLength: 1` plus `pattern: "\\S"`;
- `additionalProperties: false` on every object with properties, a record's value schema as its
  `additionalProperties`;
- every union branch (`anyOf`), `null` where a type admits it (`anyOf [X, {"type": "null"}]`),
  and `null` for every field or key that may be left out, since null means left out;
- `required` per the model, omitted when empty.

What JSON Schema cannot say is left out, and listed in the docs' Guarantees section:
predicates and transforms, and the length of a set counted after its duplicates merge. A set or
frozenset array carries the annotation `"x-set": true` (an unknown keyword, which validators
ignore) so an oracle that wants set semantics can find it; `uniqueItems` is NOT set, since
duplicates are accepted and merge.
"""

from __future__ import annotations

from typing import Any

import annotated_types as at

from adecore_tools._model.metadata import RequiredField
from adecore_tools._model.nodes import (
    Array,
    Choice,
    Constrained,
    Field,
    Node,
    Nullable,
    Object,
    Record,
    Scalar,
    Union,
)

__all__ = ["NULL", "SET_MARK", "full_schema", "node_schema"]

NULL: dict[str, Any] = {"type": "null"}
SET_MARK = "x-set"
"""The annotation a set or frozenset array carries: its length counts distinct items."""

_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def full_schema(tool_or_fields: Any) -> dict[str, Any]:
    """The full input schema of a tool (or of a tuple of fields): a plain, mutable dict."""
    fields = tool_or_fields if isinstance(tool_or_fields, tuple) else tool_or_fields.input.fields
    return _object(fields, None)


def _object(fields: tuple[Field, ...], description: str | None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if description:
        schema["description"] = description
    schema["properties"] = {f.name: _field(f) for f in fields}
    schema["additionalProperties"] = False
    required = [f.name for f in fields if f.required]
    if required:
        schema["required"] = required
    return schema


def _field(f: Field) -> dict[str, Any]:
    """A field: its type, or null too when it may be left out (null means left out)."""
    node = f.type.inner if isinstance(f.type, Nullable) else f.type
    schema = node_schema(node)
    if f.description:
        schema = {**schema, "description": f.description}  # the field's own words win
    if f.required:
        return schema  # even an explicit `Required[X | None]` key must be sent non-null
    return {"anyOf": [schema, NULL]}


def node_schema(node: Node) -> dict[str, Any]:  # noqa: PLR0911 - one return per node kind
    """The full schema of one type node."""
    if isinstance(node, Scalar):
        return {"type": _TYPES[node.kind]}
    if isinstance(node, Choice):
        return {"type": node.json_type, "enum": list(node.values)}
    if isinstance(node, Nullable):
        return {"anyOf": [node_schema(node.inner), NULL]}
    if isinstance(node, Union):
        return {"anyOf": [node_schema(branch) for branch in node.branches]}
    if isinstance(node, Array):
        schema: dict[str, Any] = {"type": "array", "items": node_schema(node.items)}
        if node.kind in (set, frozenset):
            schema[SET_MARK] = True
        return schema
    if isinstance(node, Record):
        return {"type": "object", "additionalProperties": node_schema(node.values)}
    if isinstance(node, Object):
        return _object(node.fields, node.description)
    return _constrained(node)


def _constrained(node: Constrained) -> dict[str, Any]:
    inner = node_schema(node.inner)
    base = node.inner
    while isinstance(base, (Constrained, Nullable)):
        base = base.inner
    words: dict[str, Any] = {}
    parts: list[dict[str, Any]] = [inner]
    for bound in node.bounds:
        for key, value in _keywords(bound.written, base).items():
            if key in words or key in inner:
                parts.append({key: value})  # the same keyword twice: both must hold
            else:
                words[key] = value
    if node.description and "description" not in inner:
        words["description"] = node.description
    merged = {**inner, **words}
    return merged if len(parts) == 1 else {"allOf": [merged, *parts[1:]]}


def _keywords(check: object, base: Node) -> dict[str, Any]:  # noqa: PLR0911 - one per check
    """The JSON Schema keywords of one check on a value of node `base`."""
    if isinstance(check, at.Gt):
        return {"exclusiveMinimum": check.gt}
    if isinstance(check, at.Ge):
        return {"minimum": check.ge}
    if isinstance(check, at.Lt):
        return {"exclusiveMaximum": check.lt}
    if isinstance(check, at.Le):
        return {"maximum": check.le}
    if isinstance(check, at.MultipleOf):
        return {"multipleOf": check.multiple_of}
    if isinstance(check, RequiredField):
        return {"minLength": 1, "pattern": r"\S"}
    if isinstance(check, (at.MinLen, at.MaxLen)):
        low = isinstance(check, at.MinLen)
        size = check.min_length if isinstance(check, at.MinLen) else check.max_length
        if isinstance(base, Array):
            return {"minItems" if low else "maxItems": size}
        if isinstance(base, Record):
            return {"minProperties" if low else "maxProperties": size}
        return {"minLength" if low else "maxLength": size}
    return {}  # a Predicate: JSON Schema cannot say it (a documented difference)
