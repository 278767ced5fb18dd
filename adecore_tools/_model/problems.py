"""Problems with an input: collected as data, written as one line a model can act on.

A checker returns `Invalid` with the problems of one value, paths relative to it; each parent
adds it under its own step. Paths and text are only assembled when the refusal is built.
What is echoed from the input is pictured by `_show`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .suggest import closest
from .words import ECHO, one_line, quote, show

__all__ = [
    "LIMIT",
    "Invalid",
    "Key",
    "Mismatch",
    "Problem",
    "Sent",
    "Step",
    "Unknown",
    "add",
    "combine",
    "merge",
    "message",
    "mismatch",
    "out_of_range",
    "path_text",
    "paths",
    "unreadable",
]

LIMIT = 10
"""The most problems a message lists; the rest are counted (`and N more`)."""


class Key:
    """A record key in a path, written `["key"]` (a field name is written bare)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class Sent:
    """A field name as the input sent it (an unknown field): bare when short, else cut and quoted.

    A plain `str` step is a name the host declared: never cut.
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


Step = str | int | Key | Sent


class Problem:
    """One thing wrong with an input. `authored` texts come from the host's own code."""

    __slots__ = ("authored", "path", "text")

    def __init__(self, path: tuple[Step, ...], text: str, authored: bool = False) -> None:  # noqa: FBT001, FBT002
        self.path = path
        self.text = text
        self.authored = authored


class Unknown:
    """A field the object does not have, by the name sent and the object's own names.

    The closest of those is looked for only when the message shows this problem: a list of
    objects may hold millions of unknown names, and a message shows ten.
    """

    __slots__ = ("name", "names")

    def __init__(self, name: str, names: Sequence[str]) -> None:
        self.name = name
        self.names = names

    def text(self) -> str:
        """`unknown field`, naming the closest declared name when it is close enough."""
        hint = closest(self.name, self.names)
        return "unknown field" if hint is None else f"unknown field (did you mean {hint!r}?)"


class Invalid:
    """What a checker returns for a value it refuses: its problems, and how many there are.

    Checkers return it rather than raise it: a bad input is the normal case, and a raise costs
    more than the rest of the work. Each entry is a problem at this value (a `str` of the
    library's own words, or a `Problem` with a path or host-written text), or a part of the value
    (a field name, index or key) with that part's own `Invalid`; the paths are only put together
    when the message is written. An entry holds at least one problem, so keeping the first
    `LIMIT` entries keeps the first `LIMIT` problems.

    Made by `add` and `merge` (a `Mismatch` by `mismatch`), which set its slots: it has no
    `__init__`, as calling a class whose `__init__` is Python code costs far more than calling
    a function, and a refusal of two wrong fields made three of them (230 ns of its 2.5 µs).
    """

    __slots__ = ("count", "entries")
    entries: list[Entry]
    count: int


Entry = str | Problem | Unknown | tuple[Step, Invalid]


class Mismatch(Invalid):
    """The value is not of the type at all (as opposed to breaking a bound or a nested rule).

    A union reports its branches' own problems only for a branch the value's type fit. It is
    made whole and never added to: `text` is its one problem. It keeps the value it refused, and
    the value's picture (`got`), the text and the list of entries holding it are only written
    when a message asks for them: a union drops its branches' mismatches, and a message shows
    only the first `LIMIT` of a million wrong items.
    """

    __slots__ = ("expected", "value")
    expected: str
    value: object
    count = 1
    fits = False
    """Whether the value's type fit and only what it held did not: a union reports it then."""

    @property
    def got(self) -> str:
        """The picture of the refused value (`show`)."""
        return show(self.value)

    @property
    def text(self) -> str:
        """`expected <expected>, got <got>`."""
        return f"expected {self.expected}, got {self.got}"

    @property
    def entries(self) -> list[Entry]:  # type: ignore[override]  # pyright: ignore[reportIncompatibleVariableOverride]
        """Its one problem."""
        return [self.text]


class Unreadable(Mismatch):
    """A mapping whose own methods failed when it was read: its type fit, its entries did not."""

    __slots__ = ()
    fits = True

    @property
    def got(self) -> str:
        """What was sent, in place of a picture the mapping's failing methods cannot give."""
        return "a mapping that could not be read"


def mismatch(expected: str, value: object) -> Mismatch:
    """One problem at the value itself: `expected <expected>, got <show(value)>`."""
    found = Mismatch()
    found.expected = expected
    found.value = value
    return found


class OutOfRange(Mismatch):
    """A number no field holds (NaN, ±Infinity, an int beyond a double): its type fit."""

    __slots__ = ()
    fits = True


def unreadable() -> Unreadable:
    """The problem of a mapping that could not be read: `expected an object, got a mapping ...`."""
    found = Unreadable()
    found.expected = "an object"
    return found


def out_of_range(expected: str, value: object) -> OutOfRange:
    """A number of the right type that no field holds: `expected a finite number, got NaN`."""
    found = OutOfRange()
    found.expected = expected
    found.value = value
    return found


def add(found: Invalid | None, problem: str | Problem | Unknown) -> Invalid:
    """Add one problem to those found so far (None when there are none yet)."""
    if found is None:
        found = Invalid()
        found.entries = [problem]
        found.count = 1
        return found
    if len(found.entries) < LIMIT:
        found.entries.append(problem)
    found.count += 1
    return found


def merge(found: Invalid | None, step: Step, inner: Invalid) -> Invalid:
    """Add the problems of a part of the value, at `step` (a field name, index or key)."""
    if found is None:
        found = Invalid()
        found.entries = [(step, inner)]
        found.count = inner.count
        return found
    if len(found.entries) < LIMIT:
        found.entries.append((step, inner))
    found.count += inner.count
    return found


def combine(first: Invalid | None, then: Invalid) -> Invalid:
    """The problems of the fields, then those of the keys no field has."""
    if first is None:
        return then
    first.entries += then.entries[: LIMIT - len(first.entries)]
    first.count += then.count
    return first


def message(found: Invalid) -> str:
    """The refusal message: the first `LIMIT` problems, in order, then how many more there are."""
    lines: list[str] = []
    _write(found, (), lines)
    if found.count > len(lines):
        lines.append(f"and {found.count - len(lines)} more")
    return "; ".join(lines)


def _write(found: Invalid, path: tuple[Step, ...], lines: list[str]) -> None:
    for entry in found.entries:
        if len(lines) == LIMIT:
            return
        if isinstance(entry, tuple):  # a part of the value, with its problems: the usual case
            step, inner = entry
            if type(inner) is not Mismatch:
                _write(inner, (*path, step), lines)
            elif not path and type(step) is str and step.isidentifier():
                # a field of the wrong type, the usual case: `text` written out, as reading the
                # property costs more than the text saved
                lines.append(f"{step}: expected {inner.expected}, got {show(inner.value)}")
            else:
                lines.append(_line((*path, step), inner.text))
        elif isinstance(entry, str):
            lines.append(_line(path, entry))
        elif isinstance(entry, Problem):
            full = (*path, *entry.path)
            lines.append(_authored(full, entry.text) if entry.authored else _line(full, entry.text))
        else:
            lines.append(_line((*path, Sent(entry.name)), entry.text()))


def paths(found: Invalid) -> list[str]:
    """The paths of the first `LIMIT` problems, in order, with nothing the input wrote in them.

    A step the input chose (a record's key, an unknown field's name) is written `["*"]`, so no
    input text reaches a log or a span; `""` stands for the input itself (not a mapping, say).
    """
    out: list[str] = []
    _paths(found, (), out)
    return out


_CHOSEN = Key("*")
"""What a path says for a step the input chose."""


def _declared(path: tuple[Step, ...]) -> str:
    return path_text(_CHOSEN if isinstance(step, (Key, Sent)) else step for step in path)


def _paths(found: Invalid, path: tuple[Step, ...], out: list[str]) -> None:
    for entry in found.entries:
        if len(out) == LIMIT:
            return
        if isinstance(entry, tuple):
            step, inner = entry
            if type(inner) is not Mismatch:
                _paths(inner, (*path, step), out)
            else:
                out.append(_declared((*path, step)))
        elif isinstance(entry, str):
            out.append(_declared(path))
        elif isinstance(entry, Problem):
            out.append(_declared((*path, *entry.path)))
        else:
            out.append(_declared((*path, _CHOSEN)))


def _line(path: tuple[Step, ...], text: str) -> str:
    """One problem in the library's words, behind its path."""
    if not path:
        return text
    if len(path) == 1 and type(path[0]) is str and path[0].isidentifier():
        return f"{path[0]}: {text}"
    return f"{path_text(path)}: {text}"


def _authored(path: tuple[Step, ...], text: str) -> str:
    """The host's own words made one line, behind the path unless the field's name stands in it.

    They may repeat the input (`float`'s do), lone surrogates too.
    """
    text = one_line(text)
    names = [step for step in path if isinstance(step, str)]
    if names and _stands_in(names[-1], text):
        return text
    return _line(path, text)


def _stands_in(word: str, text: str) -> bool:
    if not word:  # an empty key: the pattern would match between any two non-word characters
        return False
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def path_text(path: Iterable[Step]) -> str:
    """A path as a message writes it: `items[2].name`, `labels["color"]`."""
    out: list[str] = []
    for step in path:
        if isinstance(step, int):
            out.append(f"[{step}]")
        elif isinstance(step, str) and step.isidentifier():
            out.append(f".{step}" if out else step)  # a declared name, however long
        elif isinstance(step, str):
            out.append(f"[{quote(step, cut=False)}]")  # a declared key such as "a b"
        elif isinstance(step, Sent) and _plain(step.name):
            out.append(f".{step.name}" if out else step.name)
        else:
            # a key or a name from the input that is no short identifier is cut and quoted, so
            # nothing in it can read as more of the message
            out.append(f"[{quote(step.name)}]")
    return "".join(out)


def _plain(name: str) -> bool:
    return len(name) <= ECHO and name.isidentifier()
