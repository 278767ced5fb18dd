"""Content blocks: what a tool returns that is no JSON value, and what a client receives.

A tool annotated `-> Content` (or one block's class, or `list[Content | str]`) returns blocks: a
screenshot as an `Image`, a recording as `Audio`, a document as a `Resource`; a `str` among them
is a `Text`. `tool_result` turns whatever a tool returns into a `ToolResult`: its blocks, their
text, and the structured value of a tool with an output model.
"""

from __future__ import annotations

import typing
from typing import Any, NoReturn, TypeAlias

from .frozen import Frozen
from .refusals import ToolRefusal, refusal_body

__all__ = ["BLOCKS", "Audio", "Content", "Image", "Resource", "Text", "ToolResult"]


class Text(Frozen):
    """A text block.

    Every block checks its fields when it is made: a `TypeError` names the field.
    """

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        self._set(_text(text, "Text's text"))


class Image(Frozen):
    """An image block: its bytes and their MIME type (`image/png`)."""

    __slots__ = ("data", "mime_type")
    data: bytes
    mime_type: str

    def __init__(self, data: bytes, mime_type: str) -> None:
        name = type(self).__name__
        self._set(_bytes(data, f"{name}'s data"), _text(mime_type, f"{name}'s mime_type"))


class Audio(Frozen):
    """An audio block: its bytes and their MIME type (`audio/wav`)."""

    __slots__ = ("data", "mime_type")
    data: bytes
    mime_type: str

    def __init__(self, data: bytes, mime_type: str) -> None:
        name = type(self).__name__
        self._set(_bytes(data, f"{name}'s data"), _text(mime_type, f"{name}'s mime_type"))


class Resource(Frozen):
    """An embedded resource: its URI, and either its `text` or its bytes (`blob`)."""

    __slots__ = ("uri", "text", "blob", "mime_type")
    uri: str
    text: str | None
    blob: bytes | None
    mime_type: str | None

    def __init__(
        self,
        uri: str,
        *,
        text: str | None = None,
        blob: bytes | None = None,
        mime_type: str | None = None,
    ) -> None:
        if (text is None) == (blob is None):
            msg = "Resource holds its text or its blob: give one of them, not both or neither"
            raise TypeError(msg)
        self._set(
            _text(uri, "Resource's uri"),
            _text(text, "Resource's text", optional=True),
            _bytes(blob, "Resource's blob", optional=True),
            _text(mime_type, "Resource's mime_type", optional=True),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle by keyword (all but the URI are keyword-only)."""
        return (_resource, (self.uri, self.text, self.blob, self.mime_type))


def _resource(uri: str, text: str | None, blob: bytes | None, mime_type: str | None) -> Resource:
    return Resource(uri, text=text, blob=blob, mime_type=mime_type)


def _text(value: object, what: str, *, optional: bool = False) -> Any:
    """A `str` field's value as plain text (a subclass's own methods never run on it again)."""
    if value is None and optional:
        return None
    if not issubclass(type(value), str):
        _refuse(what, "a str", value, optional=optional)
    return str.__str__(typing.cast("str", value))


def _bytes(value: object, what: str, *, optional: bool = False) -> Any:
    if (value is None and optional) or issubclass(type(value), bytes):
        return value
    return _refuse(what, "bytes", value, optional=optional)


def _refuse(what: str, kind: str, value: object, *, optional: bool) -> NoReturn:
    got = "None" if value is None else f"a {type(value).__name__}"
    msg = f"{what} is {kind}{' or None' if optional else ''}, got {got}"
    raise TypeError(msg)


Content: TypeAlias = Text | Image | Audio | Resource
"""A content block: text, an image, audio or an embedded resource."""

BLOCKS = (Text, Image, Audio, Resource)
"""Every class of content block."""


class ToolResult(Frozen):
    """What a client receives of a call: content blocks, their text, and structured content.

    `content` holds one `Text` for text, lines and a structured value, or the blocks a content
    tool returned. `text` is every text block's text, joined by newlines. `structured` is the
    JSON value of a tool with an output model (an object: a value of another type is wrapped as
    `{"result": value}`), else `None`; its text is then that value's compact JSON.

    A refused call (`registry.call`) is a result too: `refusal` holds the `ToolRefusal`, `text`
    its `refusal_body`, and `is_error` is true; there is no structured content.
    """

    __slots__ = ("content", "text", "structured", "refusal")
    content: tuple[Content, ...]
    text: str
    structured: dict[str, Any] | None
    refusal: ToolRefusal | None

    def __init__(
        self,
        content: tuple[Content, ...],
        text: str,
        structured: dict[str, Any] | None,
        refusal: ToolRefusal | None = None,
    ) -> None:
        self._set(content, text, structured, refusal)

    @property
    def is_error(self) -> bool:
        """Whether the call was refused: what MCP's `isError` and the providers' error flags say."""
        return self.refusal is not None

    @classmethod
    def refused(cls, refusal: ToolRefusal) -> ToolResult:
        """The result a client receives for a refusal: its `refusal_body`, as one text block."""
        body = refusal_body(refusal)
        return cls((Text(body),), body, None, refusal)
