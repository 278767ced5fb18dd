"""Arguments as JSON text, as the OpenAI, Anthropic and Gemini clients hand them to a host.

Text that is not JSON is the model's to fix, so it is a `bad-arguments` refusal saying where the
text breaks, never a `JSONDecodeError`, a `UnicodeDecodeError` or a `RecursionError`. Only strict
JSON is read: no `NaN` or `Infinity`, and no key given twice (Python's `json` would keep the last).
An integer longer than Python reads from text is refused too, saying where it is.
"""

from __future__ import annotations

import json
import re
import sys
import typing
from collections.abc import Callable, Iterator
from typing import Any

from .._model.refusals import ToolRefusal, safe_refusal
from .._model.words import class_name, quote
from .blocks import type_of

__all__ = ["arguments_of", "json_value"]


class _Given(ValueError):  # noqa: N818 - a finding, raised through `json` to its caller
    """A key given twice, or a constant JSON has not: what `json` reads without complaint."""


def arguments_of(text: object, advice: tuple[str, ...]) -> Any:
    """The value JSON text holds; `None` for empty or blank text. `advice`: the `fields` row."""
    kind, held = type_of(text), typing.cast("Any", text)
    if issubclass(kind, (bytes, bytearray)):  # read for what it holds, never its `__bytes__`
        decode = bytes.decode if issubclass(kind, bytes) else bytearray.decode
        try:
            text = decode(held, "utf-8")
        except UnicodeDecodeError as exc:
            raise _refused(f"invalid UTF-8 at byte {exc.start}", advice) from None
    elif issubclass(kind, str):
        text = str.__str__(held)
    else:
        msg = f"arguments are JSON text, a str or bytes; got {class_name(kind)}"
        raise TypeError(msg)
    if not text or text.isspace():  # not `strip()`: no copy of a long text
        return None
    try:
        return json_value(text)
    except _Given as exc:
        raise _refused(str(exc), advice) from None
    except _Constant as exc:
        line, column = _place(text, _CONSTANT)
        why = f"{exc} is no JSON value (send a number, or null) at line {line}, column {column}"
        raise _refused(why, advice) from None
    except json.JSONDecodeError as exc:
        line, column = _where(exc)
        raise _refused(f"{_why(exc)} at line {line}, column {column}", advice) from None
    except RecursionError:
        raise _refused("nested too deep to read", advice) from None
    except ValueError:  # an int of more digits than Python converts
        longest = sys.get_int_max_str_digits()
        line, column = _place(text, _NUMBER, lambda found: _digits(found) > longest)
        why = f"an integer of more than {longest} digits, more than this host reads"
        text = f"the arguments hold {why}, at line {line}, column {column}"
        raise safe_refusal("bad-arguments", text, advice) from None


def json_value(text: str) -> Any:
    """The value strict JSON text holds, as `json.loads` reads it, but for what JSON has not.

    Raises `ValueError` for text that is not strict JSON (an int longer than Python reads too),
    and `RecursionError` for JSON nested too deep. Repair reads text this way too, so what
    `run_json` refuses is never decoded.
    """
    return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_each_once)


def _refused(why: str, advice: tuple[str, ...]) -> ToolRefusal:
    return safe_refusal("bad-arguments", f"the arguments are not JSON: {why}", advice)


def _no_constant(name: str) -> Any:
    raise _Constant(name)


class _Constant(ValueError):  # noqa: N818 - a finding, raised through `json` to its caller
    """`NaN`, `Infinity` or `-Infinity`, which Python's `json` reads and JSON has not."""


def _each_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Given(f"{quote(key)} given twice")
            seen.add(key)
    return found


def _why(exc: json.JSONDecodeError) -> str:
    """What is wrong where the text breaks, in a model's words."""
    text, at = exc.doc, exc.pos
    if _BLANK.fullmatch(text, at):
        return "the text ends before the JSON does"
    words = next((w for start, w in _WORDS.items() if exc.msg.startswith(start)), None)
    if words is not None:
        return words
    if text[at] in "]}" or _TRAILING_COMMA.match(text, at):
        comma = text.rfind(",", 0, at)
        if comma >= 0 and _BLANK.fullmatch(text, comma + 1, at):
            return "a trailing comma"
    why = exc.msg.removesuffix(" at")  # the parser's words lead to the place it appends
    return why[:1].lower() + why[1:]


_WORDS = {
    "Extra data": "more text after the JSON value",
    "Unterminated string": "a string never closed",  # placed where the string begins
    "Illegal trailing comma": "a trailing comma",  # Python 3.13's own words for it
    "Invalid control character": (
        "a control character inside a string (send it escaped, as \\t or \\n)"
    ),
}
"""The parser's words, by how they begin, and a model's words for them."""


def _where(exc: json.JSONDecodeError) -> tuple[int, int]:
    """The line and column (from 1) where the text breaks, the same on every Python.

    Python 3.13 places a trailing comma's error on the comma; earlier ones on the bracket that
    follows it, as this does everywhere.
    """
    text, at = exc.doc, exc.pos
    if exc.msg.startswith("Illegal trailing comma"):
        bracket = _TRAILING_COMMA.match(text, at + 1)
        if bracket is not None:
            at = bracket.end() - 1
    return _line_column(text, at)


def _line_column(text: str, at: int) -> tuple[int, int]:
    """The line and column (from 1) of index `at` of `text`."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


_TRAILING_COMMA = re.compile(r"\s*[\]}]")
_BLANK = re.compile(r"\s*")
_CONSTANT = re.compile(r'"[^"\\]*"|"|-?Infinity|NaN')
"""A string with no escape, a quote (a string with one), or a constant JSON has not."""
_CLOSING = re.compile(r'(?<!\\)(\\*)"')
"""A quote, after the backslashes before it (group 1): it closes a string if they are even."""


def _place(
    text: str, pattern: re.Pattern[str], wanted: Callable[[re.Match[str]], bool] = bool
) -> tuple[int, int]:
    """The line and column (from 1) of the first match of `pattern` outside a string, `wanted`."""
    found = next(filter(wanted, _outside_strings(text, pattern)), None)
    return _line_column(text, 0 if found is None else found.start())


_NUMBER = re.compile(r'"[^"\\]*"|"|-?\d+(\.\d+)?([eE][-+]?\d+)?')
"""A string with no escape, a quote, or a number: an integer has no group."""


def _digits(number: re.Match[str]) -> int:
    """How many digits an integer has; 0 for a number with a fraction or an exponent."""
    start, end = number.span()
    return 0 if number.lastindex is not None else end - start - (number.string[start] == "-")


def _outside_strings(text: str, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
    """Each match of `pattern` outside the strings of JSON text, in order.

    `pattern` matches a whole string with no escape, or else a lone quote, where a string with
    one opens: that string is skipped to the quote that closes it. Only the JSON before what is
    looked for is read, and the parser read that: it is valid, so each backslash there escapes
    the character after it. One match is held at a time and no text is copied, so no memory
    grows with the text (a pattern for a whole string backtracked, and held about 120 bytes for
    each character of it), and each character is read once or twice.
    """
    at = 0
    while (match := pattern.search(text, at)) is not None:
        start, at = match.span()
        if text[start] != '"':
            yield match
        elif at - start == 1:  # a string with an escape: on to the quote that closes it
            closing = _CLOSING.search(text, at)
            while closing is not None and len(closing.group(1)) % 2:  # an escaped quote
                closing = _CLOSING.search(text, closing.end())
            if closing is None:
                return
            at = closing.end()
