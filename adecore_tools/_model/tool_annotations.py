"""`ToolAnnotations`: what a client may expect of a tool before it runs it (MCP's annotations)."""

from __future__ import annotations

from typing import Any

from .errors import unlistable
from .frozen import Frozen

__all__ = ["ToolAnnotations"]


class ToolAnnotations(Frozen):
    """What a client may expect of a tool before it runs it (MCP tool annotations).

    `read_only`: it changes nothing. `destructive`: it removes or overwrites what it cannot give
    back. `idempotent` and `open_world` are left out of the listing when `None`.
    """

    __slots__ = ("read_only", "destructive", "idempotent", "open_world", "title")
    read_only: bool
    destructive: bool
    idempotent: bool | None
    open_world: bool | None
    title: str | None

    def __init__(
        self,
        *,
        read_only: bool = False,
        destructive: bool = False,
        idempotent: bool | None = None,
        open_world: bool | None = None,
        title: str | None = None,
    ) -> None:
        """Check the annotations: they are listed to clients as JSON booleans and a string."""
        for flag, value, optional in (
            ("read_only", read_only, False),
            ("destructive", destructive, False),
            ("idempotent", idempotent, True),
            ("open_world", open_world, True),
        ):
            if not (type(value) is bool or (optional and value is None)):
                either = "True, False or None" if optional else "True or False"
                msg = f"{flag} is {either}, got {value!r}"
                raise ValueError(msg)
        if read_only and destructive:
            msg = (
                "a tool cannot be both read_only and destructive (a read-only tool removes "
                "nothing); set one of them only"
            )
            raise ValueError(msg)
        if title is not None and (not isinstance(title, str) or not title.strip()):
            msg = f"a title is a non-empty string, got {title!r}"
            raise ValueError(msg)
        if title is not None and (why := unlistable(title)) is not None:
            msg = f"its title {why}"
            raise ValueError(msg)
        self._set_once(read_only, destructive, idempotent, open_world, title)

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle by keyword (the arguments are keyword-only), as the same class."""
        return (_annotations, (type(self), *self._values()))


def _annotations(cls: type[ToolAnnotations], *values: Any) -> ToolAnnotations:
    return cls(**dict(zip(ToolAnnotations.__slots__, values, strict=True)))
