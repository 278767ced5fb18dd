"""Pictures of values in a refusal: short, one line, and made without the value's own code.

Whatever the input holds, nothing echoed from it is longer than a few dozen characters, ends a
line or reorders the text around it; a value is read only through its type and its base class's
own methods, so nothing it defines (`__repr__`, `__eq__`, even `__class__`) runs.
"""

from __future__ import annotations

import builtins
import sys
import types
import typing
from collections.abc import Mapping

from .refusals import field

__all__ = [
    "ECHO",
    "class_name",
    "declared",
    "is_mapping",
    "one_line",
    "quote",
    "said",
    "short",
    "show",
]

ECHO = 32
"""The most characters of a string (or a name from the input) a message repeats."""


def short(text: str) -> str:
    """A name or string from the input, cut to a few dozen characters and made one line."""
    if len(text) <= ECHO and text.isprintable():  # the usual case: a field name
        return text
    return one_line(text if len(text) <= ECHO else f"{text[:ECHO]}…")


def one_line(text: str) -> str:
    """The text made one line of valid UTF-8 (a lone surrogate becomes `?`).

    A bidirectional format character (U+202E and its kin) becomes a space too, as a control
    character does: a host showing a refusal to people must show what was sent, not text it
    reorders.
    """
    return field(text.encode("utf-8", "replace").decode("utf-8")).translate(_BIDI)


_BIDI = dict.fromkeys([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)], " ")
"""The characters that reorder the text around them: marks, embeddings, overrides, isolates."""


def quote(text: str, *, cut: bool = True) -> str:
    """A string in double quotes, escaped; from the input, `cut` to a few dozen characters."""
    shown = short(text) if cut else one_line(text)
    return '"' + shown.replace("\\", "\\\\").replace('"', '\\"') + '"'


_SAID = 200
"""The most characters of a host's `ValueError` a message repeats."""


def said(exc: ValueError, otherwise: str) -> str:
    """What a host's `ValueError` says, cut: it may repeat the input (`float("x" * 10**6)`).

    It may hold the input itself, too (`ValueError("too large:", n)`), and Python writes no int
    of over 4300 digits: then it says nothing, and `otherwise` stands.
    """
    try:
        text = str(exc)
    except ValueError:
        return otherwise
    if not text or text.isspace():
        return otherwise
    return text if len(text) <= _SAID else f"{text[:_SAID]}…"


def declared(value: object) -> str:
    """A value the host declared (a choice, a bound), as a model reads it: whole, never cut."""
    if type(value) is str:
        return quote(value, cut=False)
    if type(value) is int:
        try:
            return int.__repr__(value)
        except ValueError:  # over the 4300 digits Python writes
            pass
    return show(value)


def show(value: object) -> str:  # noqa: PLR0911 - one return per kind of value
    """A short, safe picture of a value from the input, in JSON's words where it has them.

    Only the value's type and its base class's own methods are used: nothing the value itself
    defines (`__repr__`, `__eq__`, even `__class__`) runs.
    """
    if (
        type(value) is str
        and len(value) <= ECHO
        and (
            # the usual case, a word: letters and digits print as they are, and testing that
            # first spares a refusal of two such values 40 ns
            value.isalnum() or (value.isprintable() and '"' not in value and "\\" not in value)
        )
    ):
        return f'"{value}"'  # a short string with nothing to escape
    kind = type(value)
    if value is None or kind is bool:
        return _JSON_WORDS[typing.cast("bool | None", value)]
    if issubclass(kind, str):
        text = str.__str__(typing.cast("str", value))
        size = f" ({len(text)} characters)" if len(text) > ECHO else ""
        return quote(text) + size
    if issubclass(kind, int):
        number = int.__int__(typing.cast("int", value))
        if number.bit_length() > 64:
            return "a very large negative integer" if number < 0 else "a very large integer"
        return repr(number)
    if issubclass(kind, float):
        return _float_words(float.__float__(typing.cast("float", value)))
    if issubclass(kind, (list, tuple)):
        return "an array"
    if issubclass(kind, dict) or is_mapping(kind):
        return "an object"
    return f"a value of type {class_name(kind)}"


_MRO: typing.Any = type.__dict__["__mro__"]
"""`type.__mro__` itself: a class's bases, read without running its metaclass's code."""


def is_mapping(kind: type) -> bool:
    """Whether a class from the input is read as a mapping: a `Mapping`, or a built-in one.

    The built-in ones are `MappingProxyType` and Python 3.15's `frozendict`. Not
    `issubclass(kind, Mapping)`: an ABC's check runs code of the class (its metaclass's
    `__hash__`) and of every `Mapping` subclass in the process (`__subclasshook__`). So a class
    only registered as a mapping is not read as one, `frozendict` alone excepted.
    """
    return (
        kind is types.MappingProxyType
        or (sys.version_info >= (3, 15) and issubclass(kind, builtins.frozendict))
        or any(base is Mapping for base in _MRO.__get__(kind))
    )


_JSON_WORDS = {None: "null", True: "true", False: "false"}


def _float_words(number: float) -> str:
    if number != number:  # noqa: PLR0124 - NaN is the one value not equal to itself
        return "NaN"
    if number in (float("inf"), float("-inf")):
        return "-Infinity" if number < 0 else "Infinity"
    return repr(number)


_NAME: typing.Any = type.__dict__["__name__"]
"""`type.__name__` itself: a metaclass cannot put another name, or code, in a refusal."""


def class_name(kind: type) -> str:
    """A class's own name as plain text (a `str` subclass set as the name runs nothing).

    A class named as a builtin one is not it (`numpy.bool_` is named `bool`): its module says so.
    """
    name = str.__str__(_NAME.__get__(kind))
    builtin = vars(builtins).get(name)
    if isinstance(builtin, type) and builtin is not kind:
        module = _MODULE.__get__(kind)
        name = f"{str.__str__(module) if isinstance(module, str) else '?'}.{name}"
    return short(name)


_MODULE: typing.Any = type.__dict__["__module__"]
"""`type.__module__` itself, read without the class's own code."""
