"""Immutable values: set once, compared by value (or, for a `Unique`, by identity).

What is computed when first needed (a hash, a tool's resolved signature, its compiled validator)
goes in a slot through `_fill`, the one way such state is kept: under one lock, the first value
set stays, so what was handed out never changes. A cache keyed by its arguments (a schema per
profile, a listing per option) is a dict filled with `setdefault`, to the same effect.

`@dataclass(frozen=True, slots=True)` writes its methods with `exec` when a module is imported:
about 0.3 ms a class, 6 ms for this package, more than its whole import budget. A value class
here lists its `__slots__` and writes its `__init__` (parameters in slot order); the rest is
shared from `Frozen`.
"""

from __future__ import annotations

import _thread
import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from typing_extensions import Self, dataclass_transform

__all__ = ["Frozen", "Unique"]

_BOOKKEEPING = frozenset(("_hash", "_declared", "__weakref__", "__dict__"))
"""Slots no value goes in: the hash, kept once made; a field's declaration-time copy of its
default (derived from the default in `__init__`); the weak reference and `__dict__` slots."""

_UNSET = object()
"""What `_set_once` finds in a slot not set yet."""

_FILLING = _thread.allocate_lock()  # `threading.Lock`, without importing `threading` (0.4 ms)
"""Held by `_fill` while it tests and sets a slot."""

T = TypeVar("T")


@dataclass_transform(frozen_default=True)  # tells type checkers what `__setattr__` enforces
class Frozen:
    """Base of the package's value classes: set once in `__init__`, compared by value."""

    __slots__ = ("_hash",)
    _setters: ClassVar[tuple[Callable[[object, object], None], ...]] = ()
    """The `__set__` of each slot's descriptor, in slot order: what `_set` calls."""
    _slot_names: ClassVar[tuple[str, ...]] = ()
    """The slots `_set` fills, in order: what equality, the repr and `__reduce__` read.

    Not `type(self).__slots__`: a host subclass's `__slots__ = ()` would hide the base's.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Keep the setters of the class's slots, so `_set` skips `__setattr__`'s lookups.

        A subclass with no value slots of its own (none, or `__slots__ = ()`) sets what its base
        does. One adding slots to a class that has some is refused: the base's `__init__` passes
        the base's values, so `_set` would put them in the wrong slots.
        """
        super().__init_subclass__(**kwargs)
        own = vars(cls)  # the slots' descriptors (`getattr` would find a class's own `__dict__`)
        slots = own.get("__slots__", ())
        names = (slots,) if isinstance(slots, str) else tuple(slots)
        names = tuple(name for name in names if name not in _BOOKKEEPING)
        if not names:
            return  # it sets what its base does
        if cls._setters:
            base = next(k for k in cls.__mro__[1:] if "_setters" in vars(k))
            msg = (
                f"{cls.__name__}: {base.__name__} sets its values itself, in its own slots; "
                "subclass it with __slots__ = () (or none) and keep what you add elsewhere"
            )
            raise TypeError(msg)
        cls._setters = tuple(own[name].__set__ for name in names)
        cls._slot_names = names

    def _set(self, *values: object) -> None:
        """Set every slot, in order, once (from `__init__`, whose parameters follow the slots).

        A plain `zip`: with a `strict` keyword, even `strict=False`, a value costs a third more to
        make (tests check the arity).
        """
        for put, value in zip(self._setters, values):  # noqa: B905 - see above
            put(self, value)

    def _set_once(self, *values: object) -> None:
        """`_set`, for an object a host keeps and shares: `__init__` called again is refused.

        Else `registry.__init__(other)` would change a registry every task shares. A tool, its
        input, a toolkit, a registry and annotations are made once per tool, so probing a slot
        costs nothing that counts; nodes and fields are made by the dozen as a tool is declared,
        and are set as a frozen dataclass's `__init__` sets them, unchecked.
        """
        if getattr(self, self._slot_names[0], _UNSET) is not _UNSET:  # the first `_set` fills
            msg = f"{type(self).__name__} is immutable; it is made once, by its constructor"
            raise AttributeError(msg)
        self._set(*values)

    def _fill(self, slot: str, value: T, empty: object = _UNSET) -> T:
        """Set a slot computed when first needed, still `empty`: `value`, or what was set first.

        Two threads may compute it at once: the first to finish sets it, for good.
        """
        with _FILLING:
            found: object = getattr(self, slot, empty)
            if found is not empty:
                return found  # type: ignore[return-value]  # pyright: ignore[reportReturnType] - the slot holds a T
            object.__setattr__(self, slot, value)
            return value

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._slot_names)

    def _key(self) -> tuple[Any, ...]:
        """What equality and the hash compare: the values, or something stricter."""
        return self._values()

    def __setattr__(self, name: str, value: object) -> None:
        """Refuse: a value never changes once made."""
        msg = f"{type(self).__name__} is immutable; cannot set {name!r}"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        """Refuse: a value never changes once made."""
        msg = f"{type(self).__name__} is immutable; cannot delete {name!r}"
        raise AttributeError(msg)

    def __eq__(self, other: object) -> bool:
        """Equal when of the same class with equal values."""
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        """Hash by value, consistent with `__eq__`; computed once, since values never change."""
        try:
            return self._hash  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            return self._fill("_hash", hash(self._key()))

    def __repr__(self) -> str:
        """`Name(slot=value, ...)`, as a dataclass would show it."""
        shown = ", ".join(f"{name}={_shown(getattr(self, name))}" for name in self._slot_names)
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Copy and pickle through `__init__`, whose parameters follow the slots."""
        return (type(self), self._values())


def _shown(value: object) -> str:
    """A value's repr; the `MISSING` of a field with no default by name, not by its address."""
    return "dataclasses.MISSING" if value is dataclasses.MISSING else repr(value)


class Unique(Frozen):
    """An immutable object equal only to itself: a tool, its input, a registry.

    Weakly referable, so a host can key a `WeakKeyDictionary` by tool or registry.
    """

    __slots__ = ("__weakref__",)

    def __eq__(self, other: object) -> bool:
        """Each one is its own."""
        return self is other

    def __hash__(self) -> int:
        """By identity, consistent with `__eq__`."""
        return id(self)

    def __copy__(self) -> Self:
        """Itself: a copy would be another object, equal to nothing (as with a function)."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """Itself, as `__copy__`."""
        return self
