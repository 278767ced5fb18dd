"""Hostile values: inputs whose own code misbehaves, shared by the tests and the fuzz target.

Each method a class here overrides raises `Boom` (or lies), where a validator might be tempted
to call it; what the value holds (a `str`'s text, a `dict`'s entries) is still there to be read
by the base class's own code. Used by test_hostile.py, test_properties.py and
fuzz/fuzz_parse.py; a class only one test needs stays beside that test.
"""

from collections.abc import Iterator, Mapping
from typing import Any


class Boom(Exception):
    """Raised by a hostile object: must never leave the validator."""


def boom(*_: object, **__: object) -> Any:
    raise Boom


def hostile_class(*names: str) -> type:
    """A class whose methods `names` raise (`__class__` too, read as a property).

    Instances stay hashable by identity unless `__hash__` is one of the names.
    """
    namespace: dict[str, Any] = dict.fromkeys(names, boom)
    if "__class__" in names:
        namespace["__class__"] = property(boom)
    if "__hash__" not in names:
        namespace["__hash__"] = object.__hash__
    return type("Hostile_" + "_".join(n.strip("_") for n in names), (), namespace)


class Spoofed:
    """Claims to be another class through `__class__`; isinstance() believes it."""

    def __init__(self, claimed: type) -> None:
        self.claimed = claimed

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # type: ignore[override]
        return self.claimed


# --- subclasses of the built-in types: every reading method lies or raises -------------------


class LyingStr(str):
    __slots__ = ()
    __eq__ = __ne__ = __len__ = __iter__ = __repr__ = __str__ = __format__ = boom  # type: ignore[assignment]
    __getitem__ = __contains__ = strip = isspace = lower = upper = isascii = encode = boom  # type: ignore[assignment]

    def __hash__(self) -> int:
        return str.__hash__(self)


class LyingInt(int):
    __slots__ = ()
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __mod__ = boom  # type: ignore[assignment]
    __index__ = __int__ = __float__ = __repr__ = __str__ = __format__ = __bool__ = boom  # type: ignore[assignment]

    def __hash__(self) -> int:
        return int.__hash__(self)


class LyingFloat(float):
    __slots__ = ()
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __mod__ = boom  # type: ignore[assignment]
    __int__ = __float__ = __repr__ = __str__ = __format__ = __bool__ = is_integer = boom  # type: ignore[assignment]

    def __hash__(self) -> int:
        return float.__hash__(self)


class LyingDict(dict):  # type: ignore[type-arg]
    """Every reading method lies or raises; the storage holds the truth."""

    __slots__ = ()
    items = keys = values = get = __iter__ = __len__ = __contains__ = __getitem__ = boom  # type: ignore[assignment]
    __eq__ = __repr__ = boom  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]


class LyingList(list):  # type: ignore[type-arg]
    __slots__ = ()
    __iter__ = __len__ = __getitem__ = copy = __reversed__ = __eq__ = __repr__ = boom  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]


class LyingTuple(tuple):  # type: ignore[type-arg]
    __slots__ = ()
    __iter__ = __len__ = __getitem__ = __eq__ = __hash__ = __repr__ = boom  # type: ignore[assignment]


# --- mappings that lie --------------------------------------------------------------------------


class BrokenMapping(Mapping):  # type: ignore[type-arg]
    """A mapping that cannot be read: its item, iteration and length raise, so `items()` does."""

    __getitem__ = __iter__ = __len__ = boom  # type: ignore[assignment]


class OddItems(BrokenMapping):
    """Answers only through `items()`, with whatever it was given: not pairs, not iterable..."""

    def __init__(self, items: object) -> None:
        self._items = items

    def items(self):  # type: ignore[override]
        return self._items


class NoItems(BrokenMapping):
    """A virtual mapping with no items() at all."""

    items = None  # type: ignore[assignment]


class RaisingMidway(BrokenMapping):
    """Its `items()` gives one pair, then raises."""

    def items(self):  # type: ignore[override]
        yield ("s", "ok")
        raise Boom


class LyingMapping(Mapping):  # type: ignore[type-arg]
    """keys(), __iter__, __getitem__, __len__ and items() all disagree; items() is what counts."""

    def __init__(self, pairs: list[tuple[object, object]]) -> None:
        self.pairs = pairs

    def items(self):  # type: ignore[override]
        return list(self.pairs)

    def keys(self):  # type: ignore[override]
        return ["i"]

    def __iter__(self) -> Iterator[object]:
        return iter(["b"])

    def __getitem__(self, key: object) -> object:
        return 5

    def __len__(self) -> int:
        return -1 if self.pairs else 99


class OddPairsMapping(Mapping):  # type: ignore[type-arg]
    """A mapping whose items are not pairs, though its other methods answer."""

    def __getitem__(self, key: object) -> object:
        return key

    def __iter__(self) -> Iterator[object]:
        return iter(["a"])

    def __len__(self) -> int:
        return 1

    def items(self):  # type: ignore[override]
        return [1, (1, 2, 3)]


class Meddling(Mapping[str, Any]):
    """A mapping whose `items()` runs `meddle` first, then gives `pairs`."""

    def __init__(self, meddle: Any, pairs: list[tuple[str, Any]]) -> None:
        self.meddle = meddle
        self.pairs = pairs
        self.reads = 0

    def items(self) -> Any:
        self.reads += 1
        self.meddle()
        return list(self.pairs)

    def __getitem__(self, key: str) -> Any:
        return dict(self.pairs)[key]

    def __iter__(self) -> Iterator[str]:
        return iter(dict(self.pairs))

    def __len__(self) -> int:
        return len(self.pairs)


class OneShot(Mapping[str, Any]):
    """A mapping whose `items()` is a one-shot iterator: read twice, it is empty the second time."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = iter(pairs)
        self.reads = 0

    def items(self) -> Any:
        self.reads += 1
        return self.pairs

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 1
