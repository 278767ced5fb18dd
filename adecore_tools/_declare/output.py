"""A tool's return annotation, read like an input into the same field model: its output.

| annotation | kind | what a client receives |
| --- | --- | --- |
| `list[str]`, `Sequence[str]` | `LINES` | the lines, joined by newlines |
| `str` | `TEXT` | the text |
| `None` | `NOTHING` | nothing: an empty text |
| none, `Any` | `UNCHECKED` | a `str` as is, a list of `str` as lines, else compact JSON |
| a content block, or a list of them | `CONTENT` | the blocks (a `str` among them is text) |
| any other field type | `MODEL` | compact JSON, and the value as structured content |

A return annotation Python cannot evaluate when the tool is used (a name only a type checker
imports) leaves the result unchecked: it is the type checker's. One naming a class defined further
down the module is read again when the tool joins a toolkit, as an input's is.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Sequence
from typing import Any

import typing_extensions as te

from .._model.content import BLOCKS
from .._model.errors import Unresolved, Where
from .._model.frozen import Unique
from .._model.nodes import Array, Node, Nullable, Object, Record, Scalar, bare, core
from .hints import return_hint
from .types import node_of

__all__ = ["CONTENT", "LINES", "MODEL", "NOTHING", "TEXT", "UNCHECKED", "Output", "read_output"]

UNCHECKED, NOTHING, TEXT, LINES, CONTENT, MODEL = (
    "unchecked",
    "nothing",
    "text",
    "lines",
    "content",
    "model",
)


class Output(Unique):
    """What a tool returns: how a client receives it, and its output model (`MODEL` only).

    `wrapped` says that the model's root is no object, so its value is sent as `{"result": ...}`.
    `blocks` are the classes a `CONTENT` output takes (`str` for text), `listed` whether in a list.
    What is derived from the model (its schema, its checker) is made when first asked for, and
    kept in `made`.
    """

    __slots__ = ("kind", "node", "wrapped", "made", "blocks", "listed")
    kind: str
    node: Node | None
    wrapped: bool
    made: dict[str, Any]
    blocks: tuple[type, ...]
    listed: bool

    def __init__(  # noqa: PLR0913 - one fact each
        self,
        kind: str,
        node: Node | None = None,
        wrapped: bool = False,  # noqa: FBT001, FBT002 - a value class
        made: dict[str, Any] | None = None,
        *,
        blocks: tuple[type, ...] = (),
        listed: bool = False,
    ) -> None:
        self._set_once(kind, node, wrapped, {} if made is None else made, blocks, listed)


def read_output(fn: Any, tool: str, *, final: bool) -> Output:  # noqa: PLR0911
    """The output of a tool function; `Unresolved` for a name not defined yet, unless `final`."""
    try:
        hint = return_hint(fn)
    except NameError as exc:
        if not final:
            raise Unresolved(exc.name or str(exc), ()) from exc
        return Output(UNCHECKED)
    except RecursionError:  # a type nested too deep, not a bad one: `_tool` says so
        raise
    except Exception:  # noqa: BLE001 - it fails to evaluate: a type checker's, not ours
        return Output(UNCHECKED)
    if hint is inspect.Signature.empty or any(
        hint is anything for anything in (Any, te.Any, object)
    ):
        return Output(UNCHECKED)
    if hint is None or hint is type(None):
        return Output(NOTHING)
    if (content := _content(hint)) is not None:
        return content
    node = node_of(hint, Where(tool, returned=True))
    shape = bare(node)
    if _text(shape):
        return Output(TEXT)
    if isinstance(shape, Array) and shape.kind is list and _text(shape.items):
        return Output(LINES)
    # a root that may be null or is no object is wrapped: `{"result": null}` is an object
    return Output(MODEL, node, not _object(node))


def _object(node: Node) -> bool:
    """An object (a record, a `TypedDict`, a dataclass) that is never null, under any bounds."""
    return not isinstance(node, Nullable) and isinstance(core(node), (Object, Record))


def _text(node: Node) -> bool:
    node = core(node)
    return isinstance(node, Scalar) and node.kind is str


def _listed(hint: object) -> bool:
    return te.get_origin(hint) in (list, Sequence) and len(te.get_args(hint)) == 1


def _content(hint: object) -> Output | None:
    """The output of content blocks, alone or in a list; None for another hint."""
    if blocks := _blocks(hint):
        return Output(CONTENT, blocks=blocks)
    if _listed(hint) and (blocks := _blocks(te.get_args(hint)[0])):
        return Output(CONTENT, blocks=blocks, listed=True)
    return None


def _blocks(hint: object) -> tuple[type, ...]:
    """The classes of a content block's class, or of a union of them (with `str`, for text)."""
    parts = te.get_args(hint) if te.get_origin(hint) in _UNIONS else (hint,)
    if any(part in BLOCKS for part in parts) and all(
        part in BLOCKS or part is str for part in parts
    ):
        return typing.cast("tuple[type, ...]", parts)
    return ()


_UNIONS = (typing.Union, types.UnionType)
