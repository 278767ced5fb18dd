"""Work on values done once: what is derived from an equal value is derived once per process.

Equal values mean the same thing, so what is derived from them (the node of a type, the checker
and the schema of a node) is computed once per value and kept in a bounded cache: a host
declaring many tools with the same field types pays for each type once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from typing_extensions import TypeVarTuple, Unpack

__all__ = ["CACHE_LIMIT", "keep", "kept", "once"]

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def once(
    cache: dict[Any, T], key: Hashable, build: Callable[[Unpack[Ts]], T], *args: Unpack[Ts]
) -> T:
    """`build(*args)`, computed once per key and kept in `cache` (each time for an unhashable key).

    The arguments are passed, not closed over: a closure made for every lookup would cost more
    than the lookup, and most lookups find what they look for. A full cache is emptied: a host
    that declares tools from new classes and drops them must not keep them all (what is still in
    use is computed again, once).
    """
    try:
        found = cache.get(key)
    except TypeError:  # a key holding an unhashable value, such as a list default
        return build(*args)
    if found is None:
        built = build(*args)
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        found = cache.setdefault(key, built)
    return found


def kept(cache: dict[Any, tuple[object, T]], key: Hashable, owner: object) -> T | None:
    """What `keep` holds for `owner` under `key`, a key holding `id(owner)`; None if nothing.

    Found by identity, so `owner` is never hashed or compared. An id is reused once its object
    is gone, so an entry counts only if it holds `owner` itself.
    """
    entry = cache.get(key)
    return entry[1] if entry is not None and entry[0] is owner else None


def keep(cache: dict[Any, tuple[object, T]], key: Hashable, owner: object, value: T) -> T:
    """`value`, kept for `owner` under `key`, for `kept` to find; bounded as `once`'s caches are.

    The entry holds `owner`, so no other object takes its id while the entry stands.
    """
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = (owner, value)
    return value


CACHE_LIMIT = 4096
"""Entries a cache of `once` holds: the types of some hundreds of tools, a few megabytes."""
