"""What a client receives of a call, and the output schema a tool lists, from its output.

A tool's return annotation decides (`_output`): text, lines, nothing, content blocks, a value left
unchecked, or a value of an output model, sent as compact JSON text and as structured content.
A value the annotation refuses is the host's bug, a `TypeError` naming the tool and the path;
never a refusal, which would tell the model to fix what it got right.
"""

from __future__ import annotations

import json
import operator
import typing
from collections.abc import Callable
from typing import Any, NoReturn

from .._check.blocks import items_of, text_of, type_of
from .._declare.output import CONTENT, LINES, MODEL, NOTHING, TEXT, UNCHECKED, Output
from .._model.content import Content, Text, ToolResult
from .._model.errors import Where
from .._model.problems import Invalid, merge, message
from .result_json import digits, json_checker, json_text, readable
from .schema import render_output

__all__ = ["output_schema", "result_of"]


def result_of(tool: str, output: Output, value: object) -> ToolResult:
    """What a client receives when the tool named `tool`, of this output, returns `value`.

    A value the tool's return annotation refuses is a `TypeError` naming the tool and the path.
    """
    return _RESULTS[output.kind](tool, output, value)


def _result(blocks: tuple[Content, ...], structured: dict[str, Any] | None = None) -> ToolResult:
    """A result of these blocks, each text in it readable as UTF-8 (see `readable`)."""
    blocks = tuple(map(_readable, blocks))
    text = "\n".join(block.text for block in blocks if type(block) is Text)
    return ToolResult(blocks, text, structured)


def _readable(block: Content) -> Content:
    """A block whose texts (its text, a resource's URI, a MIME type) UTF-8 can all carry."""
    if type(block) is Text and block.text.isascii():  # most results: spare the general case
        return block
    remake, values = block.__reduce__()  # its class (or maker) and values, in order
    kept = [readable(value) if type(value) is str else value for value in values]
    if all(map(operator.is_, kept, values)):
        return block
    made: Content = remake(*kept)
    return made


def output_schema(tool: str, output: Output) -> dict[str, Any] | None:
    """The output schema as rendered and kept: not to be handed out, but copied."""
    if output.kind != MODEL or output.node is None:
        return None
    schema: dict[str, Any] | None = output.made.get("schema")
    if schema is None:
        where = Where(tool, returned=True)
        made = render_output(output.node, where, wrapped=output.wrapped)
        schema = output.made.setdefault("schema", made)
    return schema


def _text(tool: str, output: Output, value: object) -> ToolResult:
    if value is None and output.kind == TEXT:
        return _result(())
    text = text_of(value)
    if text is None:
        _refused(tool, f"its return annotation is str, and it returned {_kind(value)}")
    return _result((Text(text),))


def _lines(tool: str, output: Output, value: object) -> ToolResult:  # noqa: ARG001
    if value is None:
        return _result(())
    lines = _lines_of(value)
    if lines is None:
        _refused(tool, f"its return annotation is list[str], and it returned {_kind(value)}")
    text = "\n".join(lines)
    return _result((Text(text),))


def _lines_of(value: object) -> list[str] | None:
    """The plain text of each line of a list or tuple of `str`; None for anything else."""
    items = items_of(value)
    lines = [] if items is None else [text_of(line) for line in items]
    return None if items is None or None in lines else typing.cast("list[str]", lines)


def _nothing(tool: str, output: Output, value: object) -> ToolResult:  # noqa: ARG001
    if value is not None:
        _refused(tool, f"its return annotation is None, and it returned {_kind(value)}")
    return _result(())


def _unchecked(tool: str, output: Output, value: object) -> ToolResult:  # noqa: ARG001
    """A `str` as is, a list of `str` as lines, another JSON value as JSON, else `str()`."""
    if value is None:
        text = ""
    elif (plain := text_of(value)) is not None:
        text = plain
    elif (lines := _lines_of(value)) is not None:
        text = "\n".join(lines)
    else:
        text = _shown(tool, value)
    return _result((Text(text),) if text else ())


def _shown(tool: str, value: object) -> str:
    """A value as compact JSON if it is one, else as `str()` writes it (an int whole)."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except Exception:  # noqa: BLE001, S110 - no JSON value (or one whose own code raises)
        pass
    kind = type_of(value)
    if issubclass(kind, int) and kind is not bool:
        return digits(int.__int__(typing.cast("int", value)))
    try:
        return str(value)
    except Exception as exc:  # noqa: BLE001 - a RecursionError among them
        _refused(tool, f"it returned {_kind(value)}, no JSON value, and str() of it raised {exc!r}")


def _content(tool: str, output: Output, value: object) -> ToolResult:
    """The blocks a tool returned, a `str` among them as text, each of a class it is annotated."""
    items = items_of(value) if output.listed else (value,)
    if items is None:
        _refused(
            tool,
            f"its return annotation is a list of content blocks, and it returned {_kind(value)}",
        )
    made: list[Content] = []
    for index, sent in enumerate(items):
        text = text_of(sent) if str in output.blocks else None
        if text is None and not issubclass(type_of(sent), output.blocks):
            names = [block.__name__ for block in output.blocks]
            taken = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
            where = f"[{index}]" if output.listed else "its result"
            _refused(tool, f"{where} is {_kind(sent)}, not {taken}")
        made.append(Text(text) if text is not None else typing.cast("Content", sent))
    return _result(tuple(made))


def _model(tool: str, output: Output, value: object) -> ToolResult:
    """The value as JSON, checked against the output model; compact JSON its text."""
    node = output.node
    assert node is not None  # noqa: S101 - a MODEL output has its node
    check = output.made.get("json")
    if check is None:
        check = output.made.setdefault("json", json_checker(node))
    sent = check(value)
    if isinstance(sent, Invalid):
        found = merge(None, "result", sent) if output.wrapped else sent
        _refused(tool, f"its return annotation refuses what it returned: {message(found)}")
    structured: dict[str, Any] = {"result": sent} if output.wrapped else sent
    text = json_text(structured)
    return _result((Text(text),), structured)


def _kind(value: object) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def _refused(tool: str, why: str) -> NoReturn:
    msg = f"tool {tool!r}: {why}"
    raise TypeError(msg)


_RESULTS: dict[str, Callable[[str, Output, object], ToolResult]] = {
    TEXT: _text,
    LINES: _lines,
    NOTHING: _nothing,
    CONTENT: _content,
    MODEL: _model,
    UNCHECKED: _unchecked,
}
"""What a client receives, by kind of output."""
