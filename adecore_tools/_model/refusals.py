"""Refusals and the tab-separated text rows a model reads.

A refusal is an answer, not a crash: it carries a lower-kebab-case code, a one-line message and
advice rows. Its text form is `refused<TAB>code<TAB>message`, then one row per line, and it reads
back exactly, so hosts can pass refusals through any transport that carries text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sized

from typing_extensions import TypeIs

__all__ = [
    "CodedError",
    "ToolRefusal",
    "field",
    "length_of",
    "lower_words",
    "or_note",
    "parse_refusal_body",
    "refusal_body",
    "refusal_rows",
    "safe_refusal",
]

# Every character that could end a line or a field: C0 and C1 controls (tab, newline, NEL, ...),
# DEL, and the Unicode line and paragraph separators. (Tables, not regular expressions: compiling
# those would cost more at import than the whole package may.)
_TO_SPACE = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029], " ")
_TO_SPACE_IN_ROW = {**_TO_SPACE, 0x09: "\t"}  # tabs stay: they separate a row's fields


def lower_words(text: object, separator: str) -> TypeIs[str]:
    """Whether `text` is lower-case ASCII words of letters and digits joined by `separator`.

    `note_write` for names, `not-permitted` for codes: the first character is a letter.
    """
    if not isinstance(text, str):
        return False
    plain = str.__str__(text)  # a subclass's own methods could say anything
    return (
        plain[:1].isalpha()
        and plain.isascii()
        and all(word.isalnum() and word == word.lower() for word in plain.split(separator))
    )


def field(value: object) -> str:
    """Make a value safe for one tab-separated field: no character in it can end a field or line.

    Each tab, newline, other control character and line or paragraph separator becomes one space;
    `None` becomes empty; any other value goes through `str()` first.
    """
    if value is None:
        return ""
    text = str.__str__(str(value))  # plain text: a subclass's own methods could say anything
    return text if text.isprintable() else text.translate(_TO_SPACE)


def _row(text: str) -> str:
    """One advice row: tabs stay (they separate its fields), nothing else may end the line."""
    text = str.__str__(text)  # plain text: a subclass's own methods could say anything
    return text if text.isprintable() else text.translate(_TO_SPACE_IN_ROW)


def length_of(value: Sized) -> int:
    """The size a length bound measures: characters of a string, items of a collection."""
    return len(value)


def or_note(lines: Iterable[str], note: str) -> list[str]:
    """The lines, or `[note]` when there are none (so a model never reads an empty answer)."""
    _refuse_one_string(lines)
    return list(lines) or [note]


def _refuse_one_string(lines: Iterable[str]) -> None:
    """Rows are an iterable of strings: a lone string would be one row per character."""
    if isinstance(lines, str):
        msg = f"lines are rows, an iterable of strings, not one string; pass [{lines!r}]"
        raise TypeError(msg)


class CodedError(Exception):
    """An error a host can act on by its code: `code` is lower kebab case, `message` one line.

    No slots, so a host's errors may also derive from any exception (`TimeoutError` too).
    """

    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        """Check the code and keep the message on one line."""
        if not lower_words(code, "-"):
            msg = f"a refusal code is lower kebab case, like 'not-permitted'; got {code!r}"
            raise ValueError(msg)
        self.code = str.__str__(code)  # an enum member would write itself `Code.NOT_FOUND`
        self.message = field(message)
        super().__init__(self.message)

    def __reduce__(self) -> tuple[type[CodedError], tuple[str, str]]:
        """Pickle by code and message (the default would replay `args`, which differ)."""
        return (type(self), (self.code, self.message))

    def __repr__(self) -> str:
        """Show the code and the message."""
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class ToolRefusal(CodedError):  # noqa: N818 - the contract's name
    """A tool's refusal, with advice rows (`lines`, each a tab-separated string) for the model.

    The message and rows are made safe at construction: a control character in them becomes a
    space (tabs stay in rows, where they separate fields), so the text form always reads back.

    Its fields are slots: a refusal of bad input is made on every such call, and setting three
    slots costs 60 ns less than giving it a dict of them. So it cannot also derive from an
    exception with a layout of its own (the `OSError` family); a host's `CodedError` can.
    """

    __slots__ = ("code", "message", "lines")
    lines: tuple[str, ...]

    def __init__(self, code: str, message: str, lines: Iterable[str] = ()) -> None:
        """Keep the code, message and advice rows."""
        super().__init__(code, message)
        _refuse_one_string(lines)
        rows = tuple(lines)
        for row in rows:
            if not isinstance(row, str):
                msg = f"each advice row is a string (fields joined by tabs), got {row!r}"
                raise TypeError(msg)
        self.lines = tuple(map(_row, rows))

    def __eq__(self, other: object) -> bool:
        """Refusals are equal when their code, message and rows are."""
        if not isinstance(other, ToolRefusal):
            return NotImplemented
        return (self.code, self.message, self.lines) == (other.code, other.message, other.lines)

    def __hash__(self) -> int:
        """Hash by value, consistent with `__eq__`."""
        return hash((self.code, self.message, self.lines))

    def __reduce__(self) -> tuple[type[ToolRefusal], tuple[str, str, tuple[str, ...]]]:  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]
        """Pickle by code, message and rows."""
        return (type(self), (self.code, self.message, self.lines))

    def __repr__(self) -> str:
        """Show the code, the message and the rows."""
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, {list(self.lines)!r})"


def safe_refusal(code: str, message: str, lines: tuple[str, ...]) -> ToolRefusal:
    """A refusal of text this package already made safe: `__init__` without its checks.

    Input validation builds one per bad call; its checks would cost more than the validation.
    """
    refusal = ToolRefusal.__new__(ToolRefusal, message)  # sets `args`, as `__init__` would
    refusal.code = code
    refusal.message = message
    refusal.lines = lines
    return refusal


def refusal_rows(refusal: ToolRefusal) -> str:
    """`code<TAB>message`, then one advice row per line, joined by newlines."""
    return "\n".join((f"{refusal.code}\t{refusal.message}", *refusal.lines))


def refusal_body(refusal: ToolRefusal) -> str:
    """`refused<TAB>code<TAB>message`, then one advice row per line, joined by newlines."""
    return f"refused\t{refusal_rows(refusal)}"


def parse_refusal_body(text: str) -> ToolRefusal | None:
    """Read a `refusal_body` or `refusal_rows` text back, or `None` for any other text."""
    if not isinstance(text, str):
        return None
    head, *lines = str.__str__(text).split("\n")
    parts = head.split("\t", 2)
    if parts[0] == "refused" and len(parts) == 3:
        code, message = parts[1], parts[2]
    elif len(parts) >= 2:
        code, message = parts[0], head[len(parts[0]) + 1 :]
    else:
        return None
    if not lower_words(code, "-") or field(message) != message:
        return None
    if any(_row(line) != line for line in lines):
        return None
    return ToolRefusal(code, message, lines)
