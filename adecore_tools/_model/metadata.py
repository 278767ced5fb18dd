"""What a host writes besides types: the call class, `required_field`, `transform`, and more.

The fields every write tool shares (`DryRun`, `Revision`) are here too.
`RequiredField` is read as a bound (`_bounds`), `Transform` by the reader of `Annotated`.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Protocol, TypeAlias

from annotated_types import Ge
from typing_extensions import Doc

from .frozen import Frozen
from .refusals import ToolRefusal

__all__ = [
    "DRY_RUN_FIELD",
    "DRY_RUN_PREVIEW",
    "NEEDS_APPROVAL",
    "NOT_APPROVED",
    "REVISION_FIELD",
    "DryRun",
    "RequiredField",
    "Revision",
    "ToolCall",
    "Transform",
    "asks_approval",
    "not_approved",
    "required_field",
    "transform",
    "unapproved",
]


class Scoped(Protocol):
    """What `may_use` reads of a tool: the scopes a caller must hold for it."""

    @property
    def scopes(self) -> frozenset[str]: ...


class ToolCall:
    """Base class of the call object: what one call of a tool may touch, given by the host.

    Subclass it (a plain class or a dataclass) with whatever your tools need, and annotate one
    parameter of a tool with the subclass: that parameter is the call, never an input field.
    It also says what its caller sees (`scopes`, `may_use`) and which calls a person must
    approve first (`needs_approval`).
    """

    __slots__ = ()

    _plain: ClassVar[bool] = True
    """Whether the class keeps both rules of this one: a run then asks neither (decided once)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Decide once, for the class, whether a run asks it `may_use` or `needs_approval`."""
        super().__init_subclass__(**kwargs)
        cls._plain = cls.may_use is ToolCall.may_use and not asks_approval(cls)

    if typing.TYPE_CHECKING:  # read-only for checkers: a subclass's field, attribute or property

        @property
        def scopes(self) -> frozenset[str]:
            """The scopes this caller holds; none by default."""
            ...

    else:  # a plain class attribute: a dataclass field without a default can still set it
        scopes = frozenset()

    def may_use(self, tool: Scoped) -> bool:
        """Whether this caller may see and call `tool`: by default, it holds every scope it needs.

        Override it for any other rule (roles, a scope hierarchy, a per-document check). It runs
        once per tool per listing and once per run; what it raises passes through.
        """
        return tool.scopes <= self.scopes

    def needs_approval(self, tool: Any, arguments: dict[str, Any]) -> bool:  # noqa: ARG002 - the default asks nothing
        """Whether a person must approve this call of `tool` before it runs; by default, no.

        `arguments` are the checked keyword arguments. A call that needs approval is refused
        `needs-approval` unless the run says it was approved. Decided in the class body: a run
        of a class that does not override it asks nothing.
        """
        return False


NEEDS_APPROVAL = "needs-approval"
"""The code of the refusal of a call a person must approve first."""


def unapproved(name: str) -> ToolRefusal:
    """The refusal of a call a person must approve first: the model tells its user so."""
    text = (
        f"tool {name!r} was not run: the user must approve this call first; ask them to "
        "approve it, and it runs once they do"
    )
    return ToolRefusal(NEEDS_APPROVAL, text)


NOT_APPROVED = "not-approved"
"""The code of the refusal of a call the person asked did not approve: it never ran."""


def not_approved(name: str, reason: str | None = None) -> ToolRefusal:
    """The refusal of a call the person asked said no to, with what they said: it never ran."""
    why = f" ({reason})" if reason else ""
    text = (
        f"tool {name!r} was not run: the user did not approve it{why}; do not send it again "
        "unless they ask for it"
    )
    return ToolRefusal(NOT_APPROVED, text)


def asks_approval(cls: type[ToolCall]) -> bool:
    """Whether a call class has a `needs_approval` of its own: a run then asks it."""
    return cls.needs_approval is not ToolCall.needs_approval


class RequiredField(Frozen):
    """Metadata: a string that may be neither missing nor blank; both refuse with `message`."""

    __slots__ = ("message",)
    message: str

    def __init__(self, message: str) -> None:
        self._set(message)


class Transform(Frozen):
    """Metadata: `fn(value)` replaces a value once it passed its type and every bound."""

    __slots__ = ("fn",)
    fn: Callable[[Any], Any]

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self._set(fn)


def required_field(message: str) -> RequiredField:
    """A string field that may be neither missing nor blank: both refuse with `message` verbatim.

    Use it in `Annotated[str, required_field("note_write needs text")]`. Blank means empty or
    only whitespace; the value itself is passed on unchanged.
    """
    if not isinstance(message, str) or not message.strip():
        msg = f"required_field needs the message a model reads, got {message!r}"
        raise ValueError(msg)
    return RequiredField(message)


def transform(fn: Callable[[Any], Any]) -> Transform:
    """Replace a checked value by `fn(value)`; a `ValueError` from `fn` refuses the input.

    `fn` runs after the value passed its type and every bound, and never sees `None`. Any other
    exception from `fn` is a bug in the host and passes through. The schema shows the type the
    value starts from.
    """
    if not callable(fn):
        msg = f"transform needs a callable, got {fn!r}"
        raise TypeError(msg)
    return Transform(fn)


REVISION_FIELD = "revision"
"""The name of the field that carries the revision a write expects."""

DRY_RUN_FIELD = "dry_run"
"""The name of the field that asks for a dry run."""

DRY_RUN_PREVIEW = (
    "Set to true to check everything and write nothing. A dry run is never needed for safety: "
    "a real call checks the same things before it writes."
)
"""The description of the dry-run field, for a model deciding whether to ask for one."""

DryRun: TypeAlias = Annotated[bool | None, Doc(DRY_RUN_PREVIEW)]
"""An optional boolean asking for a dry run: check everything, write nothing."""

Revision: TypeAlias = Annotated[
    int | None,
    Ge(0),
    Doc(
        "The revision this write expects, as last read. The write is refused unless what it "
        "changes is still at this revision; leave it out to write whatever the revision is."
    ),
]
"""An optional non-negative revision that a write must match, checked in the same step.

Its description names no kind of resource, so it reads right on a note, a ticket or an event;
`Annotated[Revision, Doc("...")]` words a tool's own.
"""
