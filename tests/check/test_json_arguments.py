"""`registry.run_json`: arguments as the JSON text provider clients hand a host.

Text that is not JSON is the model's to fix: a `bad-arguments` refusal saying where the text
breaks, with the `fields` row; never a `JSONDecodeError`, a `UnicodeDecodeError` or a
`RecursionError`.
"""

import asyncio
import json
import sys
import tracemalloc
from typing import Annotated, Any

import pytest
from annotated_types import Ge
from hostile_values import LyingStr, boom, hostile_class
from hypothesis import given
from hypothesis import strategies as st

from adecore_tools import ToolRefusal, create_tool_registry, define_toolkit, tool


@tool("notes")
async def note(text: str, limit: Annotated[int, Ge(0)] = 3) -> Any:
    """Write a note."""
    return {"text": text, "limit": limit}


@tool("notes")
async def ping() -> str:
    """Ping."""
    return "pong"


REGISTRY = create_tool_registry([define_toolkit("notes", [note, ping])])


def run_json(arguments: object, name: str = "note") -> Any:
    return asyncio.run(REGISTRY.run_json(name, arguments))  # type: ignore[arg-type]


def refused(arguments: object, name: str = "note") -> str:
    with pytest.raises(ToolRefusal) as info:
        run_json(arguments, name)
    assert info.value.code == "bad-arguments"
    assert info.value.lines == ("fields\ttext\tlimit",)
    return info.value.message


def test_text_and_bytes_run_the_tool():
    assert run_json('{"text": "hi", "limit": 5}') == {"text": "hi", "limit": 5}
    assert run_json(b'{"text": "h\xc3\xa9"}') == {"text": "hé", "limit": 3}
    assert run_json(bytearray(b'{"text": "x"}')) == {"text": "x", "limit": 3}


@pytest.mark.parametrize("blank", ["", "   ", "\n\t ", b"", b"  "])
def test_empty_or_blank_text_means_no_fields(blank):
    assert run_json(blank, "ping") == "pong"
    assert refused(blank) == "text: missing, expected a string"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"text": "hi"', "the text ends before the JSON does at line 1, column 14"),
        ('{"text": "hi', "a string never closed at line 1, column 10"),
        ('{"text": "hi",}', "a trailing comma at line 1, column 15"),
        ('{"text": "hi", "limit": [1, 2,]}', "a trailing comma at line 1, column 31"),
        ('{"text": "hi"}\n{"x": 1}', "more text after the JSON value at line 2, column 1"),
        ("{text: 1}", "expecting property name enclosed in double quotes at line 1, column 2"),
        (
            '{"text": "a",\n "limit": NaN}',
            "NaN is no JSON value (send a number, or null) at line 2, column 11",
        ),
        (
            '{"text": "Infinity and NaN", "limit": -Infinity}',
            "-Infinity is no JSON value (send a number, or null) at line 1, column 39",
        ),
        ('{"text": "a", "text": "b"}', '"text" given twice'),
        ('{"text": "a", "limit": {"n": 1, "n": 2}}', '"n" given twice'),
        (b'{"text": "\xff"}', "invalid UTF-8 at byte 10"),
        (
            '{"text": "a\tb"}',
            (
                "a control character inside a string (send it escaped, as \\t or \\n)"
                " at line 1, column 12"
            ),
        ),
        ('{"text": "a\\xb"}', "invalid \\escape at line 1, column 12"),
    ],
)
def test_text_that_is_not_json_says_where_it_breaks(text, message):
    assert refused(text) == f"the arguments are not JSON: {message}"


def test_json_nested_too_deep_for_the_parser_is_refused():
    assert refused("[" * 100_000) == "the arguments are not JSON: nested too deep to read"
    assert refused('{"text": ' + "[" * 100_000) == (
        "the arguments are not JSON: nested too deep to read"
    )


def test_json_that_is_no_object_is_refused_as_run_refuses_it():
    assert refused("[1, 2]") == "expected an object, got an array"
    assert refused('"text"') == 'expected an object, got "text"'


def test_an_unknown_tool_is_refused_before_the_text_is_read():
    with pytest.raises(ToolRefusal) as info:
        run_json("not json", "nope")
    assert info.value.code == "unknown-tool"


def test_arguments_that_are_no_text_are_the_hosts_mistake():
    with pytest.raises(TypeError, match="JSON text, a str or bytes"):
        run_json({"text": "hi"})
    with pytest.raises(TypeError, match="JSON text, a str or bytes; got Hostile"):
        run_json(hostile_class("__class__")())


class OwnBytes(bytes):
    def __bytes__(self) -> bytes:
        return b'{"text": "from __bytes__"}'


class OwnByteArray(bytearray):
    def __bytes__(self) -> bytes:
        return b'{"text": "from __bytes__"}'


class OwnStr(str):
    __slots__ = ()

    def __str__(self) -> str:
        return '{"text": "from __str__"}'


@pytest.mark.parametrize("kind", [OwnBytes, OwnByteArray, OwnStr, LyingStr])
@pytest.mark.parametrize("own", [None, boom])
def test_text_of_a_subclass_is_read_for_what_it_holds(kind, own, monkeypatch):
    """Before: a bytes subclass was read through its own `__bytes__`, and one that raised let the
    exception out."""
    if own is not None and kind is not LyingStr:
        monkeypatch.setattr(kind, "__bytes__" if kind is not OwnStr else "__str__", own)
    held = '{"text": "held"}'
    sent = kind(held) if issubclass(kind, str) else kind(held.encode())
    assert run_json(sent) == {"text": "held", "limit": 3}


@given(st.binary(max_size=40) | st.text(max_size=40))
def test_any_text_gets_a_result_or_a_refusal(text):
    try:
        run_json(text)
    except ToolRefusal as refusal:
        code = refusal.code
    else:
        code = "bad-arguments"
    assert code == "bad-arguments"


@given(st.recursive(st.none() | st.integers() | st.text(max_size=3), st.lists, max_leaves=8))
def test_what_json_dumps_writes_reads_back_as_run_reads_it(value):
    text = json.dumps({"text": "x", "extra": value})
    with pytest.raises(ToolRefusal) as info:
        run_json(text)
    assert info.value.message.startswith("extra: unknown field")


LONG = 1_000_000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"text": "' + "x" * LONG + '", "limit": NaN}',
            f"NaN is no JSON value (send a number, or null) at line 1, column {LONG + 23}",
        ),
        (
            '{"text": "' + "\\n" * (LONG // 2) + '", "limit": -Infinity}',
            f"-Infinity is no JSON value (send a number, or null) at line 1, column {LONG + 23}",
        ),
        ('{"text": "' + "x" * LONG + '",' + " " * LONG + "}", "a trailing comma"),
        ('{"text": "' + "x" * LONG + '"' + " " * LONG, "the text ends before the JSON does"),
    ],
    ids=["NaN after a long string", "after many escapes", "a trailing comma", "cut short"],
)
def test_where_long_text_breaks_is_found_in_memory_in_proportion_to_the_text(text, message):
    """Before: finding a constant after a long string took about 120 bytes per character."""
    tracemalloc.start()
    try:
        got = refused(text)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert got.startswith(f"the arguments are not JSON: {message}")
    assert peak < 2 * len(text)


_TRICKY = st.text(st.sampled_from('"\\/Nan Infity-x\n'), max_size=12)


@given(
    st.recursive(st.none() | st.integers() | _TRICKY, st.lists, max_leaves=6),
    st.sampled_from(["NaN", "Infinity", "-Infinity"]),
)
def test_a_constant_is_placed_where_it_stands_whatever_the_strings_before_it(before, constant):
    start = "[" + json.dumps(before) + ", "
    message = refused(start + constant + ', "NaN"]')
    assert message.endswith(f"at line 1, column {len(start) + 1}")


def test_an_integer_longer_than_python_reads_is_refused_saying_so_and_where():
    """Before: "the arguments are not JSON: a number too long to read", with no place."""
    text = '{"text": "' + "1" * 5000 + '", "limit": [1.5, 1e' + "1" * 5000 + ", -" + "1" * 5000
    assert refused(text + "]}") == (
        f"the arguments hold an integer of more than {sys.get_int_max_str_digits()} digits,"
        f" more than this host reads, at line 1, column {text.index(', -') + 3}"
    )


def test_an_integer_as_long_as_the_host_lets_python_read_is_read():
    """Python reads an integer of at most `sys.get_int_max_str_digits()` digits (4,300 unless the
    host sets it), since reading one takes time that grows faster than its length."""
    longest = sys.get_int_max_str_digits()
    assert run_json('{"text": "x", "limit": ' + "7" * longest + "}")["limit"] == int("7" * longest)
    sys.set_int_max_str_digits(longest + 10)
    try:
        got = run_json('{"text": "x", "limit": ' + "7" * (longest + 10) + "}")
    finally:
        sys.set_int_max_str_digits(longest)
    assert got["limit"] % 10**10 == 7777777777
