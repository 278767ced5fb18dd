"""pydantic's `Field(...)` in `Annotated`, read as this package's own metadata.

Someone coming from FastAPI or fastmcp writes `Annotated[int, Field(ge=1, le=50)]` first. Its
description reads as a `Doc`, and its bounds are the annotated-types objects pydantic keeps in
`.metadata`, which the bounds table reads as it reads any. Everything else it may set is pydantic's
own behaviour (a pattern, an alias, strictness, a default inside `Field`), which this package does
not have: each is a `TypeError` at decoration, so nothing the host wrote is dropped unread. The
same holds for pydantic's other metadata (`Strict()`, a validator, `StringConstraints`' pattern).

pydantic is never imported: its objects are known by their class's module and name.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import annotated_types as at
import typing_extensions as te

from .memo import once

__all__ = ["AS_DEFAULT", "READ", "is_field_info", "unhonoured", "unpacked"]

READ: dict[str, type[object]] = {
    "gt": at.Gt,
    "ge": at.Ge,
    "lt": at.Lt,
    "le": at.Le,
    "multiple_of": at.MultipleOf,
    "min_length": at.MinLen,
    "max_length": at.MaxLen,
}
"""The bounds a `Field` may set, by keyword, and the annotated-types class pydantic keeps."""

_SAID: dict[tuple[str, ...], str] = {
    ("default",): (
        "a default inside Field is not read; write it as the parameter's or dataclass field's "
        "own default (n: Annotated[int, Field(ge=1)] = 10), and remove it from Field"
    ),
    ("default_factory",): (
        "a default factory inside Field is not read; give a dataclass field "
        "field(default_factory=...), or write the default as the parameter's own, and remove "
        "it from Field"
    ),
    ("pattern",): (
        "a pattern is not enforced by this package; check it with "
        "Predicate(re.compile(PATTERN).fullmatch) beside the Field, and remove it from Field"
    ),
    ("alias", "validation_alias", "serialization_alias", "alias_priority"): (
        "a field is sent under its own name; rename the parameter or key, and remove it"
    ),
    ("func",): (  # `AfterValidator(fn)` and its kin
        "pydantic's validators do not run here; check the value with Predicate(fn), or convert "
        "it with transform(fn), and remove it"
    ),
    ("strict", "coerce_numbers_to_str", "union_mode", "fail_fast"): (
        "this package's own type rules decide what a value must be (docs/types.md); remove it"
    ),
    ("allow_inf_nan",): "a float takes finite numbers only; remove it",
    ("max_digits", "decimal_places"): "it applies to a Decimal, which no input is; remove it",
    ("title", "field_title_generator"): "listings carry no titles; remove it",
    ("examples",): "listings carry no examples; say them in the description, and remove it",
    ("json_schema_extra",): "this package writes every schema itself; remove it",
    ("discriminator",): "a union's branches are tried in order (docs/types.md); remove it",
    ("validate_default",): "a default is always checked against its field; remove it",
    ("deprecated",): "say it in the tool's or the field's description, and remove it",
    ("frozen", "exclude", "exclude_if", "repr", "init", "init_var", "kw_only"): (
        "it shapes pydantic's models, and this package builds none; remove it"
    ),
}
_ADVICE = {name: advice for names, advice in _SAID.items() for name in names}
"""What to do about each setting this package cannot honour, the most telling first."""
AS_DEFAULT = (
    "pydantic's Field as the default is not read; write it in the annotation, and the default "
    "after it (n: Annotated[int, Field(ge=1)] = 10)"
)
"""Why a `Field` written where a default goes is a mistake: it would be a default of no type."""

_UNSET: dict[str, object] = {"repr": True}
"""A `FieldInfo` setting's value when `Field` was not given it, where that is not None."""
_NOT_SETTINGS = frozenset(("annotation", "description", "metadata"))
"""Read here or irrelevant: the type comes from the annotation itself."""


def unpacked(meta: object) -> tuple[object, ...] | None:
    """What of a pydantic `Field` is read: its description as a `Doc`, then its bounds.

    None for any other metadata.
    """
    if not is_field_info(meta):
        return None
    description = getattr(meta, "description", None)
    doc = (te.Doc(description),) if isinstance(description, str) else ()
    return (*doc, *getattr(meta, "metadata", ()))


def unhonoured(meta: object) -> str | None:
    """Why pydantic metadata cannot stand here: what it sets that this package cannot honour.

    None for metadata that is not pydantic's, and for a `Field` setting only what is read.
    """
    kind = type(meta)
    made = _made_by(kind)
    if not made:
        return None
    if made != _FIELD:
        name = kind.__name__.lstrip("_")
        return _refusal(f"pydantic's {name}", _settings_of(meta) or {name: meta})
    if not isinstance(getattr(meta, "metadata", None), list):
        return (
            "it is a Field of pydantic.v1, which this package does not read; use pydantic's own "
            "Field (version 2), or annotated-types bounds such as Ge(1)"
        )
    description = getattr(meta, "description", None)
    if description is not None and not isinstance(description, str):
        return f"pydantic's Field has a description that is no text ({description!r}); write one"
    settings = {
        name: value
        for name, value in _public_attributes(meta).items()
        if name not in _NOT_SETTINGS and not _unset(name, value)
    }
    for item in getattr(meta, "metadata", ()):
        if not isinstance(item, tuple(READ.values())):
            settings.update(_settings_of(item) or {type(item).__name__: item})
    return _refusal("pydantic's Field", settings) if settings else None


def _refusal(what: str, settings: dict[str, object]) -> str:
    """Every setting named, the one the table knows first (`alias` before `alias_priority`)."""
    order = list(_ADVICE)
    names = sorted(settings, key=lambda n: order.index(n) if n in order else len(order))
    advice = _ADVICE.get(names[0], "this package does not read it; remove it")
    said = ", ".join(f"{name}={settings[name]!r}" for name in names)
    return (
        f"{what} sets {said}, which this package cannot honour: {advice} (of "
        f"pydantic's metadata, only a Field's description and bounds {', '.join(READ)} are read)"
    )


def is_field_info(meta: object) -> bool:
    """Whether `meta` is a pydantic `Field(...)` (or a subclass's, such as sqlmodel's)."""
    return _made_by(type(meta)) == _FIELD


_FIELD = "FieldInfo"


def _made_by(kind: type[Any]) -> str:
    """`_FIELD` for the class of pydantic's `Field`, a name for its other metadata's, else "".

    A class as metadata is no pydantic object, whatever its metaclass. Asked of every piece of
    metadata read, so kept per class.
    """
    key: Any = kind  # a class hashes, whatever mypy makes of `type.__hash__`
    return once(_MADE_BY, key, _new_made_by, kind)


_MADE_BY: dict[type[Any], str] = {}


def _new_made_by(kind: type[object]) -> str:
    if issubclass(kind, type):
        return ""
    found = [k.__name__ for k in kind.__mro__ if _from_pydantic(k)]
    return "" if not found else _FIELD if _FIELD in found else found[0]


def _from_pydantic(kind: type[object]) -> bool:
    module = getattr(kind, "__module__", None)
    return isinstance(module, str) and module.partition(".")[0] in ("pydantic", "pydantic_core")


def _public_attributes(meta: object) -> dict[str, object]:
    """A `FieldInfo`'s public attributes, from its class's slots (or its `__dict__`)."""
    names: list[str] = []
    for kind in type(meta).__mro__:
        slots = kind.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else slots  # `__slots__ = "x"` is one slot
    names += list(getattr(meta, "__dict__", {}))
    return {n: getattr(meta, n, None) for n in dict.fromkeys(names) if not n.startswith("_")}


def _unset(name: str, value: object) -> bool:
    if name == "default":  # pydantic_core's `PydanticUndefined`; `Field(...)` gives it too
        return type(value).__name__ == "PydanticUndefinedType"
    return value is None if name not in _UNSET else bool(value == _UNSET[name])


def _settings_of(meta: object) -> dict[str, object]:
    """What a piece of pydantic's metadata sets: `Strict(strict=True)`, `pattern='a'`."""
    if dataclasses.is_dataclass(meta):
        return {f.name: getattr(meta, f.name) for f in dataclasses.fields(meta)}
    found = typing.cast("dict[str, object]", getattr(meta, "__dict__", {}))
    return {n: v for n, v in found.items() if not n.startswith("_")}
