"""What the model keeps of a default: whether one object may serve every call, and its copy.

A mutable default (a list, a dict, a dataclass instance) is copied once, when its field is
declared (`Field.declared`), and that copy is copied again for each call: changing the
function's own object later reaches no call.
"""

from __future__ import annotations

import builtins
import copy
import dataclasses
import sys
import types
import typing
from collections.abc import Mapping
from enum import Enum

__all__ = ["Uncopied", "copied", "immutable"]


class Uncopied:
    """What a field keeps of a mutable default that cannot be copied: why not."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


def copied(default: object) -> object:
    """A deep copy of a mutable default, or an `Uncopied` saying why there is none."""
    try:
        return copy.deepcopy(default)
    except Exception as exc:  # noqa: BLE001 - a lock, a handle: the declaration says so
        return Uncopied(exc)


def immutable(value: object) -> bool:
    """Whether no one can change a value through it: one object may serve every call."""
    if value is None or value is dataclasses.MISSING or type(value) in (str, int, float, bool):
        return True
    if isinstance(value, (tuple, frozenset)):
        items: tuple[object, ...] | frozenset[object] = value  # pyright: ignore[reportUnknownVariableType]
        return all(immutable(item) for item in items)
    if isinstance(value, _FROZEN_MAPPINGS):
        frozen = typing.cast("Mapping[object, object]", value)
        return all(immutable(item) for item in frozen.values())
    return isinstance(value, Enum)


if sys.version_info >= (3, 15):
    _FROZEN_MAPPINGS: tuple[type, ...] = (types.MappingProxyType, builtins.frozendict)
else:
    _FROZEN_MAPPINGS: tuple[type, ...] = (types.MappingProxyType,)
