"""Field model to JSON Schema, for each place a host sends its tools: one renderer, a profile in.

A profile says only how a place differs (`_providers.PROFILES`): whether objects are closed,
whether every key is listed in `required`, how a value that may be null says so, whether choices
that are no strings can be listed, whether a record can be stated at all, whether a union lists
every branch (`anyOf`) or its first, and how deep a schema may nest. At every depth the renderer
writes `type`, `nullable`, `description`, `enum`, `items`, `properties`, `required` and
`additionalProperties` (a union: `nullable`, `description`, `anyOf`), in that order and only where
the profile has them. Bounds and defaults are left out (the validator still enforces them, and a
model learns them from a refusal, or from the description when they are asked for in words).

The schema is kept as made; each caller is handed a plain copy of its own (`copied`), so no caller
can change what the next one is handed.
"""

from __future__ import annotations

import enum
import json
import marshal
import math
import typing
from typing import Any

from .._model.errors import Where
from .._model.nodes import (
    MISSING,
    Anything,
    Array,
    Bound,
    Choice,
    Constrained,
    Field,
    Node,
    Nullable,
    Object,
    Record,
    Scalar,
    Union,
    bare,
    core,
    holds_none,
)
from .._model.words import declared
from .providers import PROFILES, Profile

__all__ = ["PROFILES", "Kept", "copied", "render", "render_output"]

_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def render(
    fields: tuple[Field, ...], profile: Profile, where: Where, *, in_words: bool = False
) -> dict[str, Any]:
    """The input schema of a tool: an object with one property per field, in signature order.

    `ValueError` names the field the profile cannot state. `in_words` appends each bound and a
    default that is a JSON value to the field's description.
    """
    return _Renderer(profile, in_words).object_of(fields, None, where, root=True)


class _Renderer:
    __slots__ = ("profile", "in_words", "level")

    def __init__(self, profile: Profile, in_words: bool) -> None:  # noqa: FBT001
        self.profile = profile
        self.in_words = in_words
        self.level = 1
        """Levels of objects and arrays around the node being rendered; the root is the first."""

    def object_of(
        self, fields: tuple[Field, ...], description: str | None, where: Where, *, root: bool
    ) -> dict[str, Any]:
        profile = self.profile
        if not fields and not root and profile.empty is not None:
            raise where.error(ValueError, f"is an object with no fields; {profile.empty}")
        properties = {f.name: self.field(f, where.into(f.name)) for f in fields}
        required = [f.name for f in fields if self.required(f)]
        return self.written(
            "object",
            description,
            properties=properties,
            required=required if required or profile.every_key else None,
            additionalProperties=False if profile.closed else None,
        )

    def required(self, f: Field) -> bool:
        """Whether a field is listed in `required`."""
        return f.required or self.profile.every_key

    def field(self, f: Field, where: Where) -> dict[str, Any]:
        words = self.words(f.type, f.default) if self.in_words else []
        # a field that may be left out may be sent as null, which means the same; a key that
        # must be sent (`Required[X | None]`) must be sent with a value
        return self.node(bare(f.type), f.description, where, nullable=not f.required, words=words)

    def node(
        self,
        node: Node,
        description: str | None,
        where: Where,
        *,
        nullable: bool = False,
        words: list[str] | None = None,
    ) -> dict[str, Any]:
        """One node's schema; `description` (the field's) wins over the node's own."""
        if isinstance(node, Nullable):
            return self.node(node.inner, description, where, nullable=True, words=words)
        if isinstance(node, Constrained):
            description = description or node.description
            return self.node(node.inner, description, where, nullable=nullable, words=words)
        if isinstance(node, Union):
            return self.union(node, description, where, nullable=nullable, words=words or [])
        said = _joined(description, words or [])
        if isinstance(node, Object):
            self.deeper(where)
            schema = self.object_of(node.fields, said or node.description, where, root=False)
            self.level -= 1
            return self.nullable(schema) if nullable else schema
        if isinstance(node, Record) and self.profile.records is not None:
            raise where.error(ValueError, f"is a record (dict[str, X]); {self.profile.records}")
        if isinstance(node, Choice):
            return self.choice(node, description, words or [], nullable=nullable)
        items = self.items(node.items, where) if isinstance(node, Array) else None
        schema = self.written(_json_type(node), said, items=items)
        return self.nullable(schema) if nullable else schema

    def deeper(self, where: Where) -> None:
        """One level of objects or arrays further in, where the profile allows that many."""
        self.level += 1
        depth = self.profile.depth
        if depth is not None and self.level > depth[0]:
            most, who = depth
            raise where.error(
                ValueError, f"nests {self.level} levels of objects and arrays; {who} takes {most}"
            )

    def items(self, node: Node, where: Where) -> dict[str, Any]:
        self.deeper(where)
        words = self.words(node, MISSING) if self.in_words else []
        schema = self.node(node, None, where.into("[]"), words=words)
        self.level -= 1
        return schema

    def union(
        self,
        node: Union,
        description: str | None,
        where: Where,
        *,
        nullable: bool,
        words: list[str],
    ) -> dict[str, Any]:
        """Every branch, with `anyOf`, so that a model may send whatever the validator takes.

        A profile that lists no unions lists the first branch alone.
        """
        if not self.profile.unions:
            return self.node(node.branches[0], description, where, nullable=nullable, words=words)
        said = _joined(description, words)
        branches = [
            self.node(b, None, where, words=self.words(b, MISSING) if self.in_words else [])
            for b in node.branches
        ]
        if self.profile.first_keys is not None:
            firsts = [next(iter(b.get("properties") or ()), None) for b in branches]
            shared = sorted({k for k in firsts if k is not None and firsts.count(k) > 1})
            if shared:
                said_keys = ", ".join(map(repr, shared))
                text = f"is a union of objects whose first key is {said_keys}"
                raise where.error(ValueError, f"{text}; {self.profile.first_keys}")
        nulls = self.profile.nulls if nullable else ""
        if nulls == "type":
            branches.append({"type": "null"})
        schema: dict[str, Any] = {"nullable": True} if nulls == "nullable" else {}
        if said:
            schema["description"] = said
        schema["anyOf"] = branches
        return schema

    def choice(
        self, node: Choice, description: str | None, words: list[str], *, nullable: bool
    ) -> dict[str, Any]:
        """A `Literal` or `Enum`: its values in `enum`, or, where only strings may be, in words."""
        values: list[object] = list(node.values)
        if self.profile.string_enums and node.json_type != "string":
            choices = ", ".join(declared(value) for value in values)
            words = [f"Must be {choices}." if len(values) == 1 else f"One of {choices}.", *words]
            values = []
        schema = self.written(node.json_type, _joined(description, words), enum=values or None)
        return self.nullable(schema) if nullable else schema

    def nullable(self, schema: dict[str, Any]) -> dict[str, Any]:
        """`schema` that takes null too, as the profile says it."""
        nulls = self.profile.nulls
        if nulls == "type":
            schema["type"] = [schema["type"], "null"]
            if "enum" in schema:
                schema["enum"] = [*schema["enum"], None]
        elif nulls == "nullable":
            return {"type": schema.pop("type"), "nullable": True, **schema}
        return schema

    def written(self, json_type: str, description: str | None, **more: Any) -> dict[str, Any]:
        """A schema of `json_type`, its description, then `more`, leaving out what is None."""
        schema: dict[str, Any] = {"type": json_type.upper() if self.profile.upper else json_type}
        if description:
            schema["description"] = description
        schema.update((key, value) for key, value in more.items() if value is not None)
        return schema

    def words(self, node: Node, default: object) -> list[str]:
        """Each bound on `node`, and its default when that is a JSON value, as sentences."""
        said: list[str] = []
        bounds: list[Bound] = []
        while isinstance(node, (Nullable, Constrained)):
            if isinstance(node, Constrained):
                bounds += (b for b in node.bounds if b not in bounds)
            node = node.inner
        base = core(node)
        said += filter(None, (b.rule.plain(b.limit, base) for b in bounds))
        sent = _json_value(default)
        if sent is not None:
            said.append(f"Default {sent}.")
        return said


def render_output(node: Node, where: Where, *, wrapped: bool) -> dict[str, Any]:
    """The output schema of a result: every value the output model accepts is valid against it.

    A client checks what it receives against it, so it says all a result may hold: a part that
    may be null as `"type": [T, "null"]`, every branch of a union in `anyOf`. An object field is
    left out when it holds None, so one that may be None is not listed in `required`. A root
    that is no object is wrapped as `{"result": ...}`.
    """
    renderer = _Outputs(_OUTPUT, in_words=False)
    schema = renderer.node(node, None, where)
    if not wrapped:
        return schema
    return {"type": "object", "properties": {"result": schema}, "required": ["result"]}


_OUTPUT = Profile(nulls="type")
"""MCP's profile, but a part that may be null says so: a client checks results against it."""


class _Outputs(_Renderer):
    """The renderer of output schemas: every union branch, null wherever it may be sent.

    An `Any` part is listed with no type: it may hold any JSON value.
    """

    __slots__ = ()

    def required(self, f: Field) -> bool:
        return f.required and not holds_none(f.type)  # a field holding None is left out

    def field(self, f: Field, where: Where) -> dict[str, Any]:
        return self.node(bare(f.type), f.description, where)  # never null: left out instead

    def node(
        self,
        node: Node,
        description: str | None,
        where: Where,
        *,
        nullable: bool = False,
        words: list[str] | None = None,
    ) -> dict[str, Any]:
        if isinstance(node, Anything):  # any JSON value: no type to list
            return {"description": description} if description else {}
        if not isinstance(node, Union):
            return super().node(node, description, where, nullable=nullable, words=words)
        branches = [self.node(branch, None, where) for branch in node.branches]
        if nullable:
            branches.append({"type": "null"})
        return {"anyOf": branches, **({"description": description} if description else {})}


def _joined(description: str | None, words: list[str]) -> str:
    """A description, then the sentences of its bounds: after a full stop, if it has none."""
    if not words:
        return description or ""
    if description and not description.rstrip().endswith((".", "!", "?")):
        description = f"{description.rstrip()}."
    return " ".join(filter(None, [description, *words]))


def _json_type(node: Node) -> str:
    if isinstance(node, Scalar):
        return _TYPES[node.kind]
    return "array" if isinstance(node, Array) else "object"


def _json_value(value: object) -> str | None:
    """A default as JSON text, when it is a JSON value a model could send; else None."""
    if isinstance(value, enum.Enum):
        value = value.value
    if type(value) in (tuple, list):
        items: list[object] = list(typing.cast("list[object]", value))
        said = [_json_value(item) for item in items]
        return None if None in said else f"[{', '.join(typing.cast('list[str]', said))}]"
    if type(value) in (str, int, bool) or (type(value) is float and math.isfinite(value)):
        return json.dumps(value, ensure_ascii=False)
    return None


class Kept:
    """A JSON value this package made and keeps, written once so that copies of it are cheap."""

    __slots__ = ("_blob", "_value")

    def __init__(self, value: Any) -> None:
        try:
            self._blob: bytes | None = marshal.dumps(value)
        except ValueError:  # a host's `str` subclass as a description: copied by hand
            self._blob = None
        self._value = value

    @property
    def value(self) -> Any:
        """The value itself, to be read here and never changed or handed out."""
        return self._value

    def copy(self) -> Any:
        """A plain copy, the caller's own."""
        # only what `marshal.dumps` wrote here, from a value this package made
        return _copy(self._value) if self._blob is None else marshal.loads(self._blob)  # noqa: S302


def copied(value: Any) -> Any:
    """A plain copy of a JSON value this package made and keeps: the caller's own to change.

    A copy, not the kept value: a dict or list handed out could be changed through its base
    class's own methods (`dict.__setitem__`), which no read-only subclass can refuse. `marshal`
    copies the 200 entries of a listing in about a third of the time the MCP SDK lists them in.
    A value it cannot write (a host's `str` subclass as a description) is copied by hand.
    """
    return Kept(value).copy()


def _copy(value: object) -> object:
    if isinstance(value, dict):
        mapping = typing.cast("dict[object, object]", value)
        return {key: _copy(item) for key, item in mapping.items()}
    if isinstance(value, list):
        return [_copy(item) for item in typing.cast("list[object]", value)]
    return value
